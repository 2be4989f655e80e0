// Gradient averaging between two gloo ranks running as threads over one in-memory store:
// every mode, summing over gloo or shared memory, leaves both ranks with the mean of their
// gradients.
#include "collectives/gradient_sync.h"

#include <thread>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/torch.h>

#include <doctest/doctest.h>

using namespace trainjob::trainer;

namespace {

// A model with parameters of several sizes, so small caps make several buckets.
struct Small : torch::nn::Module {
  Small()
      : a(register_module("a", torch::nn::Linear(6, 5))),
        b(register_module("b", torch::nn::Linear(5, 3))) {}
  torch::Tensor forward(const torch::Tensor& x) { return b(torch::relu(a(x))); }
  torch::nn::Linear a;
  torch::nn::Linear b;
};

std::vector<torch::Tensor> local_gradients(Small& model, const torch::Tensor& x) {
  model.zero_grad();
  model.forward(x).pow(2).sum().backward();
  std::vector<torch::Tensor> grads;
  for (const auto& p : model.parameters())
    grads.push_back(p.grad().clone());
  return grads;
}

void check_averaged(DdpMode mode, size_t cap_bytes, bool shared_memory) {
  torch::manual_seed(11);
  const torch::Tensor inputs[2] = {torch::randn({4, 6}), torch::randn({4, 6})};
  // Expected: the mean of each rank's own gradients, from identical starting parameters.
  Small reference;
  std::vector<torch::Tensor> expected = local_gradients(reference, inputs[0]);
  std::vector<torch::Tensor> other = local_gradients(reference, inputs[1]);
  for (size_t i = 0; i < expected.size(); ++i)
    expected[i] = (expected[i] + other[i]) / 2;

  auto store = c10::make_intrusive<c10d::HashStore>();
  std::vector<std::vector<torch::Tensor>> results(2);
  std::vector<std::thread> ranks;
  ranks.reserve(2);
  for (int rank = 0; rank < 2; ++rank) {
    ranks.emplace_back([&, rank] {
      auto communicator = gloo_communicator(store, rank, 2, shared_memory);
      Small model;
      if (rank == 1) {  // different start: broadcast must replace it with rank 0's
        torch::NoGradGuard no_grad;
        for (auto& p : model.parameters())
          p.add_(1.0);
      }
      {
        torch::NoGradGuard no_grad;
        auto mine = model.parameters();
        auto theirs = reference.parameters();
        if (rank == 0) {
          for (size_t i = 0; i < mine.size(); ++i)
            mine[i].copy_(theirs[i]);
        }
      }
      GradientSync sync(model.parameters(), *communicator, mode, cap_bytes);
      sync.broadcast_parameters();
      for (int step = 0; step < 2; ++step) {  // the second step reuses the buckets
        model.zero_grad();
        sync.prepare();
        model.forward(inputs[rank]).pow(2).sum().backward();
        sync.finish();
      }
      for (const auto& p : model.parameters())
        results[rank].push_back(p.grad().clone());
    });
  }
  for (auto& thread : ranks)
    thread.join();
  for (int rank = 0; rank < 2; ++rank) {
    REQUIRE(results[rank].size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      CHECK(torch::allclose(results[rank][i], expected[i], 1e-6, 1e-7));
    }
  }
}

}  // namespace

TEST_CASE("gradient sync: bucketed, one bucket") {
  for (bool shared_memory : {false, true})
    check_averaged(DdpMode::kBucketed, 25u << 20, shared_memory);
}

TEST_CASE("gradient sync: bucketed, a bucket per parameter or two") {
  for (bool shared_memory : {false, true})
    check_averaged(DdpMode::kBucketed, 64, shared_memory);
}

TEST_CASE("gradient sync: flat") {
  for (bool shared_memory : {false, true})
    check_averaged(DdpMode::kFlat, 0, shared_memory);
}
