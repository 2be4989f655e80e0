// The shared-memory all-reduce between ranks running as threads over one in-memory store:
// exact sums, bit-identical on every rank, across chunk and share boundaries.
#include "collectives/local_allreduce.h"

#include <thread>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/torch.h>

#include <doctest/doctest.h>

using namespace trainjob::trainer;

namespace {

// Runs `body(rank, allreduce)` on `world` threads that share one segment.
template <class Body>
void on_ranks(int world, const LocalAllreduceLimits& limits, Body body) {
  auto store = c10::make_intrusive<c10d::HashStore>();
  std::vector<std::thread> ranks;
  ranks.reserve(static_cast<size_t>(world));
  for (int rank = 0; rank < world; ++rank) {
    ranks.emplace_back([&, rank] {
      std::string error;
      auto allreduce = LocalAllreduce::connect(*store, rank, world, limits, &error);
      REQUIRE_MESSAGE(allreduce, error);
      body(rank, *allreduce);
    });
  }
  for (auto& thread : ranks)
    thread.join();
}

// The sum in rank order, as the owner of each share computes it.
torch::Tensor expected_sum(const std::vector<torch::Tensor>& inputs) {
  torch::Tensor sum = inputs[0] + inputs[1];
  for (size_t rank = 2; rank < inputs.size(); ++rank)
    sum += inputs[rank];
  return sum;
}

}  // namespace

TEST_CASE("local all-reduce: exact sums across chunks and uneven shares") {
  const int world = 3;
  LocalAllreduceLimits limits;
  limits.segment_bytes = size_t{world} * 8192;  // slots of 2048 floats: 5000 floats take 3 chunks
  const std::vector<int64_t> sizes = {0, 1, 37, 2048, 5000};
  for (torch::ScalarType type : {torch::kFloat, torch::kDouble}) {
    // inputs[size][rank], drawn here: the random generator is not for several threads.
    std::vector<std::vector<torch::Tensor>> inputs;
    for (auto numel : sizes) {
      inputs.emplace_back();
      for (int rank = 0; rank < world; ++rank)
        inputs.back().push_back(torch::randn({numel}, torch::TensorOptions(type)));
    }
    std::vector<std::vector<torch::Tensor>> results(world);
    on_ranks(world, limits, [&](int rank, LocalAllreduce& allreduce) {
      // All started before any is waited for: they must complete in order.
      std::vector<c10::intrusive_ptr<c10d::Work>> works;
      for (size_t i = 0; i < sizes.size(); ++i) {
        results[rank].push_back(inputs[i][rank].clone());
        works.push_back(allreduce.allreduce_sum(results[rank].back()));
      }
      for (auto& work : works)
        work->wait();
    });
    for (size_t i = 0; i < sizes.size(); ++i) {
      CAPTURE(sizes[i]);
      const torch::Tensor expected = expected_sum(inputs[i]);
      for (int rank = 0; rank < world; ++rank)
        CHECK(torch::equal(results[rank][i], expected));
    }
  }
}

TEST_CASE("local all-reduce: what it takes") {
  CHECK(LocalAllreduce::supports(torch::zeros({4})));
  CHECK(LocalAllreduce::supports(torch::zeros({4}, torch::kDouble)));
  CHECK_FALSE(LocalAllreduce::supports(torch::zeros({4}, torch::kLong)));
  CHECK_FALSE(LocalAllreduce::supports(torch::zeros({4, 4}).t()));
}

TEST_CASE("local all-reduce: a worker that never comes is an error naming it") {
  LocalAllreduceLimits limits;
  limits.timeout = std::chrono::milliseconds(200);
  on_ranks(2, limits, [](int rank, LocalAllreduce& allreduce) {
    if (rank != 0) return;
    torch::Tensor tensor = torch::ones({8});
    auto work = allreduce.allreduce_sum(tensor);
    CHECK_THROWS_WITH(work->wait(),
                      doctest::Contains("worker 1 did not reach chunk 1 within 200 ms"));
    // The group is out of step for good: later sums fail at once.
    auto later = allreduce.allreduce_sum(tensor);
    CHECK_THROWS(later->wait());
  });
}

TEST_CASE("local all-reduce: too few workers for shared memory") {
  auto store = c10::make_intrusive<c10d::HashStore>();
  std::string error;
  CHECK_FALSE(LocalAllreduce::connect(*store, 0, 1, LocalAllreduceLimits(), &error));
  CHECK(error.find("2 or more workers") != std::string::npos);
}

TEST_CASE("local all-reduce: a segment /dev/shm cannot hold leaves every worker on gloo") {
  LocalAllreduceLimits limits;
  limits.segment_bytes = size_t{1} << 50;
  auto store = c10::make_intrusive<c10d::HashStore>();
  std::string errors[2];
  bool connected[2] = {true, true};
  std::vector<std::thread> ranks;
  ranks.reserve(2);
  for (int rank = 0; rank < 2; ++rank) {
    ranks.emplace_back([&, rank] {
      connected[rank] = LocalAllreduce::connect(*store, rank, 2, limits, &errors[rank]) != nullptr;
    });
  }
  for (auto& thread : ranks)
    thread.join();
  CHECK_FALSE(connected[0]);
  CHECK_FALSE(connected[1]);
  CHECK(errors[0].find("the segment needs 1073741824 MiB") != std::string::npos);
  CHECK(errors[1] == "worker 0 could not create the shared segment");
}
