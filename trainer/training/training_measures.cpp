#include "training/training_measures.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace trainjob::trainer {

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

TestScore score_test_split(Network& network, const DataSplits& data) {
  torch::NoGradGuard no_grad;
  network.eval();
  TestScore score;
  score.total = data.test.size();
  // In slices of 1000, so that the activations of a large test split need not fit at once.
  for (int64_t start = 0; start < score.total; start += 1000) {
    const int64_t length = std::min<int64_t>(1000, score.total - start);
    torch::Tensor output = network.forward(data.test.inputs.narrow(0, start, length));
    score.correct +=
        output.argmax(1).eq(data.test.targets.narrow(0, start, length)).sum().item<int64_t>();
  }
  network.train();
  return score;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

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

}  // namespace trainjob::trainer
