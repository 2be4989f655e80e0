#include "training.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <torch/torch.h>

#include "checkpoint.h"
#include "checkpoint_file.h"
#include "datasets.h"
#include "gradient_sync.h"
#include "models.h"
#include "progress.h"
#include "sharding.h"

namespace trainjob::trainer {
namespace {

struct Setup {
  std::string model;
  int batch_size = 0;
  double lr = 0;
  DataRequest data;
};

Setup resolve_setup(const Options& options) {
  const ModelDefaults defaults = model_defaults(options.model);
  Setup setup;
  setup.model = options.model;
  setup.batch_size = options.batch_size > 0 ? options.batch_size : defaults.batch_size;
  setup.lr = options.lr > 0 ? options.lr : defaults.lr;
  setup.data.model = options.model;
  setup.data.data_dir = options.data_dir;
  setup.data.seed = options.seed;
  setup.data.samples = options.samples > 0 ? options.samples : defaults.samples;
  setup.data.test_samples = options.test_samples > 0 ? options.test_samples : defaults.test_samples;
  return setup;
}

/// Rank 0 loads the newest checkpoint that restores and hands its bytes to the others through
/// the store, so only rank 0 needs to see --checkpoint-dir. Returns the epochs already done.
int resume(const Options& options, Communicator& communicator, Network& network,
           torch::optim::Optimizer& optimizer) {
  if (options.checkpoint_dir.empty()) return 0;
  int epochs_done = 0;
  std::string bytes;
  std::string error;
  if (communicator.rank() == 0) {
    for (const CheckpointEntry& entry : list_checkpoints(options.checkpoint_dir)) {
      if (read_whole_file(entry.path, &bytes, &error) &&
          restore_checkpoint(bytes, communicator.device(), network, optimizer, &epochs_done,
                             &error)) {
        std::printf("[rank 0] resuming from %s: %d epochs done\n", entry.path.c_str(), epochs_done);
        break;
      }
      std::fprintf(stderr, "trainjob-trainer: warning: skipping checkpoint %s: %s\n",
                   entry.path.c_str(), error.c_str());
      bytes.clear();
    }
    communicator.store().set("checkpoint", std::vector<uint8_t>(bytes.begin(), bytes.end()));
    return epochs_done;
  }
  std::vector<uint8_t> shared = communicator.store().get("checkpoint");
  if (shared.empty()) return 0;
  bytes.assign(shared.begin(), shared.end());
  if (!restore_checkpoint(bytes, communicator.device(), network, optimizer, &epochs_done, &error)) {
    throw std::runtime_error("cannot restore rank 0's checkpoint: " + error);
  }
  return epochs_done;
}

void save_checkpoint(const Options& options, const Network& network,
                     const torch::optim::Optimizer& optimizer, int epochs_done) {
  std::string error;
  if (!write_file_atomically(options.checkpoint_dir, checkpoint_file_name(epochs_done),
                             serialize_checkpoint(network, optimizer, epochs_done), &error)) {
    throw std::runtime_error("checkpoint: " + error);
  }
}

torch::Tensor index_tensor(const std::vector<int64_t>& indices, c10::Device device) {
  return torch::tensor(at::ArrayRef<int64_t>(indices), torch::kLong).to(device);
}

/// FNV-1a over the parameters' bytes: equal on every rank when the replicas agree bit for bit.
uint64_t parameter_checksum(const Network& network) {
  uint64_t hash = 1469598103934665603ull;
  for (const auto& parameter : network.parameters()) {
    torch::Tensor values = parameter.detach().to(torch::kCPU).contiguous();
    const auto* bytes = static_cast<const unsigned char*>(values.data_ptr());
    for (size_t i = 0; i < values.nbytes(); ++i)
      hash = (hash ^ bytes[i]) * 1099511628211ull;
  }
  return hash;
}

void print_result(const Setup& setup, Network& network, const DataSplits& data) {
  torch::NoGradGuard no_grad;
  if (setup.model == "linear") {
    auto parameters = network.named_parameters();
    std::printf("Final parameters: weight=%.9g bias=%.9g\n",
                parameters["linear.weight"].item<double>(),
                parameters["linear.bias"].item<double>());
    return;
  }
  network.eval();
  int64_t correct = 0;
  const int64_t total = data.test.size();
  for (int64_t start = 0; start < total; start += 1000) {
    const int64_t length = std::min<int64_t>(1000, total - start);
    torch::Tensor output = network.forward(data.test.inputs.narrow(0, start, length));
    correct +=
        output.argmax(1).eq(data.test.targets.narrow(0, start, length)).sum().item<int64_t>();
  }
  std::printf("Test accuracy: %.2f%% (%lld/%lld)\n", total ? 100.0 * correct / total : 0.0,
              static_cast<long long>(correct), static_cast<long long>(total));
}

/// --threads, else OMP_NUM_THREADS (which the launcher sets to 1 when several workers share
/// the node), set explicitly rather than left to whichever library reads it first.
void set_intra_op_threads(int requested) {
  int threads = requested;
  if (threads <= 0) {
    const char* omp = std::getenv("OMP_NUM_THREADS");
    threads = omp != nullptr ? std::atoi(omp) : 0;
  }
  if (threads > 0) torch::set_num_threads(threads);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// CPU time of this thread, which does the training: a worker whose epoch took far longer
/// than its CPU time was waiting for a core, not computing.
double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

/// The slowest and the fastest worker's own epoch (wall and CPU seconds, from `totals` as
/// train() sums them): a job's pace is its slowest worker's, and this says whether that one
/// computed longer or waited.
void print_rank_times(int epoch, const torch::Tensor& totals, int world) {
  auto values = totals.accessor<double, 1>();
  int slowest = 0;
  int fastest = 0;
  for (int rank = 1; rank < world; ++rank) {
    if (values[2 + rank] > values[2 + slowest]) slowest = rank;
    if (values[2 + rank] < values[2 + fastest]) fastest = rank;
  }
  std::printf(
      "[rank 0] epoch %d per worker: slowest rank %d %.2f s (CPU %.2f s), fastest rank %d "
      "%.2f s (CPU %.2f s)\n",
      epoch + 1, slowest, values[2 + slowest], values[2 + world + slowest], fastest,
      values[2 + fastest], values[2 + world + fastest]);
}

/// Where this run started: its time and the steps a checkpoint had done, for the pace.
struct ProgressPace {
  std::chrono::steady_clock::time_point started;
  int64_t first_step = 0;
  int64_t total_steps = 0;
};

void report_progress(const ProgressPace& pace, int epoch, int epochs, int64_t step, double loss,
                     double samples_per_second) {
  ProgressReport report;
  report.epoch = epoch + 1;
  report.epochs = epochs;
  report.step = step;
  report.total_steps = pace.total_steps;
  report.loss = loss;
  report.samples_per_second = samples_per_second;
  report.remaining_seconds = remaining_seconds(seconds_since(pace.started), step - pace.first_step,
                                               pace.total_steps - step);
  std::printf("%s\n", progress_line(report).c_str());
  std::fflush(stdout);  // read from the log while the job runs
}

}  // namespace

int train(const Options& options, const WorkerIdentity& identity, Communicator& communicator) {
  set_intra_op_threads(options.threads);
  const Setup setup = resolve_setup(options);
  const c10::Device device = communicator.device();
  const bool rank0 = communicator.rank() == 0;

  DataSplits data;
  std::string error;
  if (!load_data(setup.data, &data, &error)) {
    std::fprintf(stderr, "trainjob-trainer: error: %s\n", error.c_str());
    return 1;
  }
  data.train.inputs = data.train.inputs.to(device);
  data.train.targets = data.train.targets.to(device);
  if (data.test.size() > 0) {
    data.test.inputs = data.test.inputs.to(device);
    data.test.targets = data.test.targets.to(device);
  }

  // Initial parameters come from a seed of their own, apart from the data's.
  torch::manual_seed(options.seed + 1);
  std::shared_ptr<Network> network = make_network(setup.model);
  network->to(device);
  auto optimizer = make_optimizer(setup.model, *network, setup.lr);
  const int start_epoch = resume(options, communicator, *network, *optimizer);
  GradientSync sync(network->parameters(), communicator, options.ddp,
                    static_cast<size_t>(options.bucket_cap_mb * 1024 * 1024));
  sync.broadcast_parameters();
  if (rank0) {
    std::printf(
        "[rank 0] training %s on %lld samples: world size %d, %s, ddp %s (%zu bucket%s), "
        "batch %d per worker, epochs %d-%d\n",
        setup.model.c_str(), static_cast<long long>(data.train.size()), communicator.world_size(),
        communicator.backend_name(), ddp_mode_name(options.ddp), sync.bucket_count(),
        sync.bucket_count() == 1 ? "" : "s", setup.batch_size, start_epoch + 1, options.epochs);
  }

  ShardSpec shard_spec{data.train.size(), communicator.world_size(), communicator.rank(), true,
                       options.seed};
  // Every worker has the same number of batches (the shards differ by at most one sample).
  const int epoch_batches =
      batch_count(static_cast<int64_t>(shard_indices(shard_spec, 0).size()), setup.batch_size);
  ProgressPace pace{std::chrono::steady_clock::now(),
                    static_cast<int64_t>(start_epoch) * epoch_batches,
                    static_cast<int64_t>(options.epochs) * epoch_batches};
  for (int epoch = start_epoch; epoch < options.epochs; ++epoch) {
    network->train();
    const std::vector<int64_t> shard = shard_indices(shard_spec, epoch);
    const int batches = batch_count(static_cast<int64_t>(shard.size()), setup.batch_size);
    double loss_sum = 0;
    const auto started = std::chrono::steady_clock::now();
    const double cpu_started = thread_cpu_seconds();
    for (int batch = 0; batch < batches; ++batch) {
      const int step = epoch * batches + batch;
      if (identity.attempt == 0 && step == options.fail_at_step &&
          communicator.rank() == options.fail_rank) {
        std::fprintf(stderr, "trainjob-trainer: fault injection: rank %d exits at step %d\n",
                     communicator.rank(), step);
        std::fflush(nullptr);
        std::_Exit(3);
      }
      torch::Tensor indices = index_tensor(batch_slice(shard, setup.batch_size, batch), device);
      sync.prepare();
      torch::Tensor loss =
          network->loss(network->forward(data.train.inputs.index_select(0, indices)),
                        data.train.targets.index_select(0, indices));
      loss.backward();
      sync.finish();
      optimizer->step();
      loss_sum += loss.item<double>();
      // Between epochs rank 0 reports its own loss so far: averaging over every worker
      // would cost an all-reduce each time.
      if (rank0 && options.progress_steps > 0 && (batch + 1) % options.progress_steps == 0 &&
          batch + 1 < batches) {
        const double batch_samples =
            static_cast<double>(batch + 1) * setup.batch_size * communicator.world_size();
        report_progress(pace, epoch, options.epochs, step + 1, loss_sum / (batch + 1),
                        batch_samples / seconds_since(started));
      }
    }
    // The loss averaged over every worker's batches, and each worker's own time for the
    // epoch, all in one all-reduce.
    const int world = communicator.world_size();
    torch::Tensor totals = torch::zeros({2 + 2 * world}, torch::kDouble);
    totals[0] = loss_sum;
    totals[1] = static_cast<double>(batches);
    totals[2 + communicator.rank()] = seconds_since(started);
    totals[2 + world + communicator.rank()] = thread_cpu_seconds() - cpu_started;
    totals = totals.to(device);
    communicator.allreduce_sum(totals)->wait();
    // Timed once every worker is through the epoch: the job's pace is its slowest worker's,
    // which matters when workers do not wait for each other (--ddp none).
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    totals = totals.to(torch::kCPU);
    if (rank0) {
      const double samples = static_cast<double>(shard.size()) * communicator.world_size();
      const double average = totals[0].item<double>() / totals[1].item<double>();
      std::printf("Epoch [%d/%d], Average Loss: %.6f, %.1f samples/s\n", epoch + 1, options.epochs,
                  average, samples / seconds);
      if (world > 1) print_rank_times(epoch, totals, world);
      report_progress(pace, epoch, options.epochs, static_cast<int64_t>(epoch + 1) * epoch_batches,
                      average, samples / seconds);
      if (!options.checkpoint_dir.empty())
        save_checkpoint(options, *network, *optimizer, epoch + 1);
    }
  }
  if (rank0) print_result(setup, *network, data);
  communicator.barrier();
  std::printf("[rank %d] parameter checksum %016llx\n", communicator.rank(),
              static_cast<unsigned long long>(parameter_checksum(*network)));
  return 0;
}

}  // namespace trainjob::trainer
