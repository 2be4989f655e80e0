// All-reduce bandwidth of trainjob-trainer's gradient sync against one plain gloo all-reduce
// of the same bytes (the ceiling). Start one process per rank with RANK, WORLD_SIZE,
// MASTER_ADDR and MASTER_PORT set (allreduce.sh does); rank 0 prints a table.
//
// Each timed step runs a backward whose gradients cost next to nothing to compute (the loss
// is Σ p·c). Every figure is a span measured inside the step it describes: the whole step,
// and the wait after backward until the averaged gradients are in place (what the sync
// could not hide behind backward). Nothing is the difference of two separately measured
// series: the sync was once the best synced step minus the best step without a sync, taken
// apart, and on a busy machine the two bests meet different load. In one such run the step
// without a sync took 45.6 ms on 8 x 4 MB while the flat step's own backward took about 15
// (43.6 ms less 28.2 after backward), so the difference came out too small and, once,
// negative; quiet, the two agree (16.3 and 14.1 ms).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <torch/torch.h>
#include <vector>

#include "collectives/communicator.h"
#include "collectives/gradient_sync.h"
#include "launch/worker_identity.h"

using namespace trainjob::trainer;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kWarmup = 3;
constexpr int kRepeats = 30;

// The best of the repeats: on a shared 2-core VM the rest is other processes' noise.
double best(const std::vector<double>& values) {
  return *std::min_element(values.begin(), values.end());
}

/// A step's spans in seconds, each the best repeat of the ranks' mean.
struct StepTimes {
  double step = 0;  ///< the whole step
  double wait = 0;  ///< the part the step reports (for a sync step: after backward)
};

// Times `step`, which returns the seconds of its own part worth reporting apart.
template <class Step>
StepTimes time_step(Communicator& communicator, Step step) {
  std::vector<double> steps;
  std::vector<double> waits;
  torch::Tensor meet = torch::zeros({1});
  for (int i = 0; i < kWarmup + kRepeats; ++i) {
    // Ranks leave an all-reduce closer together than they leave gloo's barrier.
    communicator.allreduce_sum(meet)->wait();
    const auto started = Clock::now();
    const double wait = step();
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    torch::Tensor spans = torch::tensor({elapsed, wait}, torch::kFloat64);
    communicator.allreduce_sum(spans)->wait();  // the ranks' mean
    if (i < kWarmup) continue;
    steps.push_back(spans[0].item<double>() / communicator.world_size());
    waits.push_back(spans[1].item<double>() / communicator.world_size());
  }
  return {best(steps), best(waits)};
}

double seconds_since(Clock::time_point started) {
  return std::chrono::duration<double>(Clock::now() - started).count();
}

struct Shape {
  const char* name;
  std::vector<std::int64_t> numels;
};

std::vector<torch::Tensor> make_parameters(const Shape& shape) {
  std::vector<torch::Tensor> parameters;
  for (auto numel : shape.numels)
    parameters.push_back(torch::randn({numel}).requires_grad_());
  return parameters;
}

// A training step without the forward: zero the gradients, backward, sync. Fresh parameters
// for every sync, since a GradientSync's hooks stay on the tensors it was given.
StepTimes time_sync(Communicator& communicator, const Shape& shape, DdpMode mode, double cap_mb,
                    size_t& buckets) {
  std::vector<torch::Tensor> parameters = make_parameters(shape);
  GradientSync sync(parameters, communicator, mode, static_cast<size_t>(cap_mb * (1 << 20)));
  buckets = std::max<size_t>(1, sync.bucket_count());
  return time_step(communicator, [&] {
    for (auto& p : parameters)
      p.mutable_grad() = torch::Tensor();
    sync.prepare();
    torch::Tensor loss = torch::zeros({});
    for (auto& p : parameters)
      loss = loss + (p * 0.5).sum();
    loss.backward();
    const auto backward_done = Clock::now();
    sync.finish();
    return seconds_since(backward_done);
  });
}

void run_shape(Communicator& communicator, const Shape& shape) {
  std::int64_t total = 0;
  for (auto numel : shape.numels)
    total += numel;
  const double bytes = static_cast<double>(total) * 4;
  torch::Tensor flat = torch::randn({total});
  const double plain = time_step(communicator, [&] {
                         communicator.allreduce_sum(flat)->wait();
                         return 0.0;
                       }).step;
  size_t buckets = 0;
  const StepTimes bare = time_sync(communicator, shape, DdpMode::kNone, 0, buckets);
  if (communicator.rank() == 0) {
    std::printf("%-20s %6.2f MB  %-28s %8.2f ms  %5.2f GB/s\n", shape.name, bytes / 1e6,
                "one all-reduce", plain * 1e3, bytes / plain / 1e9);
    std::printf("%-20s %6.2f MB  %-28s %8.2f ms\n", shape.name, bytes / 1e6, "step, no sync",
                bare.step * 1e3);
  }
  for (auto [label, mode, cap_mb] : {std::tuple{"bucketed 25 MiB", DdpMode::kBucketed, 25.0},
                                     std::tuple{"bucketed 1 MiB", DdpMode::kBucketed, 1.0},
                                     std::tuple{"flat", DdpMode::kFlat, 0.0}}) {
    const StepTimes synced = time_sync(communicator, shape, mode, cap_mb, buckets);
    if (communicator.rank() == 0) {
      std::printf("%-20s %6.2f MB  step, %-15s (%zu bucket%s) %8.2f ms  after backward %6.2f ms\n",
                  shape.name, bytes / 1e6, label, buckets, buckets == 1 ? " " : "s",
                  synced.step * 1e3, synced.wait * 1e3);
    }
  }
}

}  // namespace

int main() {
  torch::set_num_threads(1);
  WorkerIdentity identity;
  std::string error;
  if (!read_worker_identity(process_env(), &identity, &error)) {
    std::fprintf(stderr, "allreduce-bench: %s\n", error.c_str());
    return 1;
  }
  // TRAINER_LOCAL_ALLREDUCE picks the path, as for the trainer (shm unless set to gloo).
  const char* local = std::getenv("TRAINER_LOCAL_ALLREDUCE");
  const ConnectOptions options{"gloo", "cpu", 60, local != nullptr ? local : "shm"};
  auto communicator = connect_workers(identity, options, &error);
  if (!communicator) {
    std::fprintf(stderr, "allreduce-bench: %s\n", error.c_str());
    return 1;
  }
  if (identity.rank == 0) std::printf("== all-reduce through %s\n", communicator->backend_name());
  const std::vector<Shape> shapes = {
      {"mnist-cnn gradients", {288, 32, 18432, 64, 1179648, 128, 1280, 10}},
      {"8 x 1M floats", std::vector<std::int64_t>(8, 1 << 20)},
  };
  for (const auto& shape : shapes)
    run_shape(*communicator, shape);
  communicator->barrier();
  return 0;
}
