#include "util/parallel.h"

#include <atomic>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

TEST_CASE("parallel: every index runs exactly once") {
  std::vector<std::atomic<int>> seen(10000);
  trainjob::parallel_for(seen.size(), [&](size_t i, size_t) { ++seen[i]; });
  for (const auto& count : seen)
    CHECK(count == 1);
  CHECK(trainjob::worker_count(1) == 1);  // one TrainJob stays on one thread
  CHECK(trainjob::worker_count(0) == 1);
}

TEST_CASE("parallel: an exception in a worker reaches the caller") {
  auto fail_at_500 = [](size_t i, size_t) {
    if (i == 500) throw std::runtime_error("item 500");
  };
  CHECK_THROWS_WITH_AS(trainjob::parallel_for(10000, fail_at_500), "item 500", std::runtime_error);
}
