// All-reduce bandwidth of trainjob-trainer's gradient sync against one plain gloo all-reduce
// of the same bytes (the ceiling). Start one process per rank with RANK, WORLD_SIZE,
// MASTER_ADDR and MASTER_PORT set (allreduce.sh does); rank 0 prints a table.
//
// Each timed step runs a backward whose gradients cost next to nothing to compute (the loss
// is Σ p·c), so what a step costs beyond the no-sync step is the sync: copies into buckets,
// the all-reduces, the averaging and the copies back.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <torch/torch.h>
#include <vector>

#include "communicator.h"
#include "gradient_sync.h"
#include "worker_identity.h"

using namespace trainjob::trainer;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kWarmup = 3;
constexpr int kRepeats = 30;

// The best of the repeats: on a shared 2-core VM the rest is other processes' noise.
double best(const std::vector<double>& values) {
  return *std::min_element(values.begin(), values.end());
}

// Seconds of `step`: the best repeat, each repeat the ranks' mean.
template <class Step>
double time_step(Communicator& communicator, Step step) {
  std::vector<double> times;
  torch::Tensor meet = torch::zeros({1});
  for (int i = 0; i < kWarmup + kRepeats; ++i) {
    // Ranks leave an all-reduce closer together than they leave gloo's barrier.
    communicator.allreduce_sum(meet)->wait();
    const auto started = Clock::now();
    step();
    torch::Tensor elapsed =
        torch::tensor({std::chrono::duration<double>(Clock::now() - started).count()});
    communicator.allreduce_sum(elapsed)->wait();  // the ranks' mean
    if (i >= kWarmup) times.push_back(elapsed.item<double>() / communicator.world_size());
  }
  return best(times);
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

// Seconds per step: zero the gradients, backward, sync. Fresh parameters for every sync,
// since a GradientSync's hooks stay on the tensors it was given.
double time_sync(Communicator& communicator, const Shape& shape, DdpMode mode, double cap_mb,
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
    sync.finish();
  });
}

void run_shape(Communicator& communicator, const Shape& shape) {
  std::int64_t total = 0;
  for (auto numel : shape.numels)
    total += numel;
  const double bytes = static_cast<double>(total) * 4;
  torch::Tensor flat = torch::randn({total});
  const double plain = time_step(communicator, [&] { communicator.allreduce_sum(flat)->wait(); });
  size_t buckets = 0;
  const double baseline = time_sync(communicator, shape, DdpMode::kNone, 0, buckets);
  if (communicator.rank() == 0) {
    std::printf("%-20s %6.2f MB  %-24s %8.2f ms  %5.2f GB/s\n", shape.name, bytes / 1e6,
                "one all-reduce", plain * 1e3, bytes / plain / 1e9);
  }
  for (auto [label, mode, cap_mb] : {std::tuple{"bucketed 25 MiB", DdpMode::kBucketed, 25.0},
                                     std::tuple{"bucketed 1 MiB", DdpMode::kBucketed, 1.0},
                                     std::tuple{"flat", DdpMode::kFlat, 0.0}}) {
    const double seconds = time_sync(communicator, shape, mode, cap_mb, buckets) - baseline;
    if (communicator.rank() == 0) {
      std::printf("%-20s %6.2f MB  %-15s (%zu bucket%s) %8.2f ms  %5.2f GB/s  %.2f of one\n",
                  shape.name, bytes / 1e6, label, buckets, buckets == 1 ? " " : "s", seconds * 1e3,
                  bytes / seconds / 1e9, plain / seconds);
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
  const ConnectOptions options{"gloo", 60, local != nullptr ? local : "shm"};
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
