// Bucket plans: reverse parameter order, each bucket closed once it reaches its cap.
#include "collectives/bucket_plan.h"

#include <doctest/doctest.h>

using namespace trainjob::trainer;

TEST_CASE("bucket plan: buckets fill in reverse order until they reach the cap") {
  // The MNIST CNN: conv1 (288 + 32), conv2 (18432 + 64), fc1 (1179648 + 128), fc2 (1280 + 10).
  std::vector<int64_t> numels = {288, 32, 18432, 64, 1179648, 128, 1280, 10};
  // PyTorch's buckets for this model: the first closes at 1 MiB, so fc2 and fc1 go first
  // and their all-reduce overlaps the backward of the convolutions.
  auto two = plan_buckets(numels, 4, 25u << 20);
  REQUIRE(two.size() == 2);
  CHECK(two[0].slots.size() == 4);  // fc2 bias, fc2 weight, fc1 bias, fc1 weight
  CHECK(two[0].slots.front().parameter == 7);
  CHECK(two[0].slots.back().parameter == 4);
  CHECK(two[0].numel == 1181066);
  CHECK(two[1].slots.size() == 4);  // conv2 bias … conv1 weight
  CHECK(two[1].slots.back().parameter == 0);
  CHECK(two[0].slots[1].offset == 10);
  CHECK(two[0].slots[3].offset == 1418);

  auto one = plan_buckets(numels, 4, 512u << 10);  // a cap below 1 MiB caps the first too
  REQUIRE(one.size() == 2);
  CHECK(one[0].slots.size() == 4);
  CHECK(plan_buckets({10, 10}, 4, 25u << 20).size() == 1);  // small models: one bucket
}

TEST_CASE("bucket plan: every parameter lands in exactly one slot") {
  std::vector<int64_t> numels = {5, 5, 5, 5, 5};
  auto buckets = plan_buckets(numels, 4, 40);  // two parameters per bucket
  REQUIRE(buckets.size() == 3);
  std::vector<int> seen(numels.size(), 0);
  for (const auto& bucket : buckets) {
    int64_t offset = 0;
    for (const auto& slot : bucket.slots) {
      ++seen[slot.parameter];
      CHECK(slot.offset == offset);
      offset += slot.numel;
    }
    CHECK(bucket.numel == offset);
  }
  CHECK(seen == std::vector<int>{1, 1, 1, 1, 1});
  CHECK(plan_buckets({}, 4, 40).empty());
}
