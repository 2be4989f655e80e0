#include "training/training.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <torch/torch.h>

#include "checkpoint/checkpoint.h"
#include "checkpoint/checkpoint_file.h"
#include "collectives/gradient_sync.h"
#include "data/datasets.h"
#include "data/sharding.h"
#include "progress/progress.h"
#include "progress/status_reporter.h"
#include "training/models.h"
#include "training/training_measures.h"

namespace trainjob::trainer {
namespace {

/// The options with the model's defaults filled in where they leave a setting at 0.
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

/// Every worker holds the whole data set on its device: batches are picked by index, so no
/// batch is copied to the device during training.
bool load_training_data(const Setup& setup, c10::Device device, DataSplits* data) {
  std::string error;
  if (!load_data(setup.data, data, &error)) {
    std::fprintf(stderr, "trainjob-trainer: error: %s\n", error.c_str());
    return false;
  }
  data->train.inputs = data->train.inputs.to(device);
  data->train.targets = data->train.targets.to(device);
  if (data->test.size() > 0) {
    data->test.inputs = data->test.inputs.to(device);
    data->test.targets = data->test.targets.to(device);
  }
  return true;
}

/// A network and the optimizer over its parameters.
struct Model {
  std::shared_ptr<Network> network;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
};

/// The network on `device` and its optimizer. The initial parameters come from a seed of their
/// own, apart from the data's.
Model build_model(const Setup& setup, uint64_t seed, c10::Device device) {
  torch::manual_seed(seed + 1);
  Model model;
  model.network = make_network(setup.model);
  model.network->to(device);
  model.optimizer = make_optimizer(setup.model, *model.network, setup.lr);
  return model;
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

/// Rank 0's account of the run it starts: what trains, on how much data, how the gradients
/// are summed, and from which epoch (after a resume, not the first).
void print_run_header(const Setup& setup, const DataSplits& data, const Options& options,
                      const Communicator& communicator, const GradientSync& sync, int start_epoch) {
  // The device is named only off the CPU, where lines read as they did before GPUs.
  std::string backend = communicator.backend_name();
  if (communicator.device().is_cuda()) backend += " on " + communicator.device().str();
  std::printf(
      "[rank 0] training %s on %lld samples: world size %d, %s, ddp %s (%zu bucket%s), "
      "batch %d per worker, epochs %d-%d\n",
      setup.model.c_str(), static_cast<long long>(data.train.size()), communicator.world_size(),
      backend.c_str(), ddp_mode_name(options.ddp), sync.bucket_count(),
      sync.bucket_count() == 1 ? "" : "s", setup.batch_size, start_epoch + 1, options.epochs);
}

torch::Tensor index_tensor(const std::vector<int64_t>& indices, c10::Device device) {
  return torch::tensor(at::ArrayRef<int64_t>(indices), torch::kLong).to(device);
}

/// Only a classifier with a test split has one: the linear model is a regression.
bool has_test_score(const Setup& setup, const DataSplits& data) {
  return setup.model != "linear" && data.test.size() > 0;
}

/// The linear model's two parameters, or the CNN's accuracy on the test split.
void print_trained_model(const Setup& setup, Network& network, const DataSplits& data) {
  if (setup.model == "linear") {
    auto parameters = network.named_parameters();
    std::printf("Final parameters: weight=%.9g bias=%.9g\n",
                parameters["linear.weight"].item<double>(),
                parameters["linear.bias"].item<double>());
    return;
  }
  const TestScore score = score_test_split(network, data);
  std::printf("Test accuracy: %.2f%% (%lld/%lld)\n", 100.0 * score.accuracy(),
              static_cast<long long>(score.correct), static_cast<long long>(score.total));
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

/// Where this run started: its time and the steps a checkpoint had done, for the pace.
struct ProgressPace {
  std::chrono::steady_clock::time_point started;
  int64_t first_step = 0;
  int64_t total_steps = 0;
};

/// How the epochs are cut into shards and batches, the same on every worker.
struct EpochPlan {
  ShardSpec shard_spec;
  int epoch_batches = 0;  ///< in every epoch
  ProgressPace pace;
};

EpochPlan plan_epochs(const Options& options, const Setup& setup, const DataSplits& data,
                      const Communicator& communicator, int start_epoch) {
  EpochPlan plan;
  plan.shard_spec = {data.train.size(), communicator.world_size(), communicator.rank(), true,
                     options.seed};
  // Every worker has the same number of batches (the shards differ by at most one sample).
  plan.epoch_batches =
      batch_count(static_cast<int64_t>(shard_indices(plan.shard_spec, 0).size()), setup.batch_size);
  plan.pace = {std::chrono::steady_clock::now(),
               static_cast<int64_t>(start_epoch) * plan.epoch_batches,
               static_cast<int64_t>(options.epochs) * plan.epoch_batches};
  return plan;
}

/// What every epoch of one worker's run uses, set up once by train() and not changed after:
/// the objects it refers to (network, optimizer, communicator, gradient sync) are what change.
struct TrainingRun {
  const Options& options;
  const WorkerIdentity& identity;
  const Setup& setup;
  const DataSplits& data;
  Communicator& communicator;
  Network& network;
  torch::optim::Optimizer& optimizer;
  GradientSync& sync;
  EpochPlan plan;
  StatusReporter* status;  ///< rank 0's, when a status server is named; else null
};

/// What a report says at `step` of `epoch` (0-based), with the time left at this run's pace.
ProgressReport progress_at(const TrainingRun& run, int epoch, int64_t step) {
  const ProgressPace& pace = run.plan.pace;
  ProgressReport report;
  report.epoch = epoch + 1;
  report.epochs = run.options.epochs;
  report.step = step;
  report.total_steps = pace.total_steps;
  report.remaining_seconds = remaining_seconds(seconds_since(pace.started), step - pace.first_step,
                                               pace.total_steps - step);
  return report;
}

/// The progress line, and the same report to the status server when there is one.
void report_progress(const TrainingRun& run, const ProgressReport& report) {
  std::printf("%s\n", progress_line(report).c_str());
  std::fflush(stdout);  // read from the log while the job runs
  if (run.status != nullptr) run.status->offer(report);
}

/// For the restart tests (--fail-at-step): the chosen rank dies at the chosen step of the
/// first attempt as a crashed worker would, without unwinding or saving anything.
void exit_if_fault_injected(const TrainingRun& run, int step) {
  if (run.identity.attempt == 0 && step == run.options.fail_at_step &&
      run.communicator.rank() == run.options.fail_rank) {
    std::fprintf(stderr, "trainjob-trainer: fault injection: rank %d exits at step %d\n",
                 run.communicator.rank(), step);
    std::fflush(nullptr);
    std::_Exit(3);
  }
}

/// One optimizer step on batch `batch` of `shard`, the gradients averaged over every worker;
/// returns this worker's loss on it.
double train_step(const TrainingRun& run, const std::vector<int64_t>& shard, int batch) {
  torch::Tensor indices =
      index_tensor(batch_slice(shard, run.setup.batch_size, batch), run.communicator.device());
  run.sync.prepare();
  torch::Tensor loss =
      run.network.loss(run.network.forward(run.data.train.inputs.index_select(0, indices)),
                       run.data.train.targets.index_select(0, indices));
  loss.backward();
  run.sync.finish();
  run.optimizer.step();
  return loss.item<double>();
}

/// One worker's own epoch, before the workers' are summed.
struct WorkerEpoch {
  int64_t shard_size = 0;
  int batches = 0;
  double loss_sum = 0;
  std::chrono::steady_clock::time_point started;
  double cpu_started = 0;
};

/// Rank 0 reports every --progress-steps steps within an epoch, with its own loss so far:
/// averaging over every worker would cost an all-reduce each time. The epoch's last step is
/// reported at its end, averaged.
void report_progress_within_epoch(const TrainingRun& run, int epoch, int batch,
                                  const WorkerEpoch& so_far) {
  const int steps = batch + 1;
  if (run.communicator.rank() != 0 || run.options.progress_steps <= 0 ||
      steps % run.options.progress_steps != 0 || steps >= so_far.batches) {
    return;
  }
  const double batch_samples =
      static_cast<double>(steps) * run.setup.batch_size * run.communicator.world_size();
  ProgressReport report =
      progress_at(run, epoch, static_cast<int64_t>(epoch) * so_far.batches + steps);
  report.loss = so_far.loss_sum / steps;
  report.samples_per_second = batch_samples / seconds_since(so_far.started);
  report_progress(run, report);
}

/// Trains on this worker's shard of `epoch`, batch by batch.
WorkerEpoch train_shard(const TrainingRun& run, int epoch) {
  run.network.train();
  const std::vector<int64_t> shard = shard_indices(run.plan.shard_spec, epoch);
  WorkerEpoch own;
  own.shard_size = static_cast<int64_t>(shard.size());
  own.batches = batch_count(own.shard_size, run.setup.batch_size);
  own.started = std::chrono::steady_clock::now();
  own.cpu_started = thread_cpu_seconds();
  for (int batch = 0; batch < own.batches; ++batch) {
    exit_if_fault_injected(run, epoch * own.batches + batch);
    own.loss_sum += train_step(run, shard, batch);
    report_progress_within_epoch(run, epoch, batch, own);
  }
  return own;
}

/// The loss summed over every worker's batches, and each worker's own time for the epoch, all
/// in one all-reduce: [loss sum, batches, wall seconds by rank..., CPU seconds by rank...], on
/// the CPU. `*seconds` is the epoch's time once every worker is through it.
torch::Tensor sum_epoch_over_workers(Communicator& communicator, const WorkerEpoch& own,
                                     double* seconds) {
  const int world = communicator.world_size();
  torch::Tensor totals = torch::zeros({2 + 2 * world}, torch::kDouble);
  totals[0] = own.loss_sum;
  totals[1] = static_cast<double>(own.batches);
  totals[2 + communicator.rank()] = seconds_since(own.started);
  totals[2 + world + communicator.rank()] = thread_cpu_seconds() - own.cpu_started;
  totals = totals.to(communicator.device());
  communicator.allreduce_sum(totals)->wait();
  // Timed once every worker is through the epoch: the job's pace is its slowest worker's,
  // which matters when workers do not wait for each other (--ddp none).
  *seconds = seconds_since(own.started);
  return totals.to(torch::kCPU);
}

/// Rank 0's end of an epoch: the loss averaged over every worker, samples/s, the slowest and
/// fastest worker, the progress line (with the test accuracy of a classifier, the objective an
/// OptimizationJob may maximize) and the checkpoint.
void report_and_checkpoint_epoch(const TrainingRun& run, int epoch, const WorkerEpoch& own,
                                 const torch::Tensor& totals, double seconds) {
  const int world = run.communicator.world_size();
  const int epochs = run.options.epochs;
  const double samples = static_cast<double>(own.shard_size) * world;
  const double average = totals[0].item<double>() / totals[1].item<double>();
  std::printf("Epoch [%d/%d], Average Loss: %.6f, %.1f samples/s\n", epoch + 1, epochs, average,
              samples / seconds);
  if (world > 1) print_rank_times(epoch, totals, world);
  ProgressReport report =
      progress_at(run, epoch, static_cast<int64_t>(epoch + 1) * run.plan.epoch_batches);
  report.loss = average;
  report.samples_per_second = samples / seconds;
  if (has_test_score(run.setup, run.data))
    report.accuracy = score_test_split(run.network, run.data).accuracy();
  report_progress(run, report);
  if (!run.options.checkpoint_dir.empty())
    save_checkpoint(run.options, run.network, run.optimizer, epoch + 1);
}

void train_epoch(const TrainingRun& run, int epoch) {
  const WorkerEpoch own = train_shard(run, epoch);
  double seconds = 0;
  const torch::Tensor totals = sum_epoch_over_workers(run.communicator, own, &seconds);
  if (run.communicator.rank() == 0) report_and_checkpoint_epoch(run, epoch, own, totals, seconds);
}

/// Rank 0's result, then every worker's checksum once all have finished training.
void end_run(const TrainingRun& run) {
  if (run.communicator.rank() == 0) print_trained_model(run.setup, run.network, run.data);
  run.communicator.barrier();
  std::printf("[rank %d] parameter checksum %016llx\n", run.communicator.rank(),
              static_cast<unsigned long long>(parameter_checksum(run.network)));
}

}  // namespace

int train(const Options& options, const WorkerIdentity& identity, Communicator& communicator) {
  set_intra_op_threads(options.threads);
  const Setup setup = resolve_setup(options);
  DataSplits data;
  if (!load_training_data(setup, communicator.device(), &data)) return 1;
  const Model model = build_model(setup, options.seed, communicator.device());
  const int start_epoch = resume(options, communicator, *model.network, *model.optimizer);
  GradientSync sync(model.network->parameters(), communicator, options.ddp,
                    static_cast<size_t>(options.bucket_cap_mb * 1024 * 1024));
  sync.broadcast_parameters();
  if (communicator.rank() == 0)
    print_run_header(setup, data, options, communicator, sync, start_epoch);
  std::unique_ptr<StatusReporter> status =
      communicator.rank() == 0 ? status_reporter_from_env(process_env()) : nullptr;

  const TrainingRun run{options,
                        identity,
                        setup,
                        data,
                        communicator,
                        *model.network,
                        *model.optimizer,
                        sync,
                        plan_epochs(options, setup, data, communicator, start_epoch),
                        status.get()};
  for (int epoch = start_epoch; epoch < options.epochs; ++epoch)
    train_epoch(run, epoch);
  end_run(run);
  // The last report goes out after training, within kStatusCallTimeout; what the run printed
  // is out before the exit waits on the network.
  std::fflush(stdout);
  if (status) status->finish();
  return 0;
}

}  // namespace trainjob::trainer
