// Bucket plans: reverse parameter order, capped in bytes, big parameters alone.
#include "bucket_plan.h"

#include <doctest/doctest.h>

using namespace trainjob::trainer;

TEST_CASE("bucket plan: buckets fill in reverse order up to the cap") {
  // The MNIST CNN: conv1 (288 + 32), conv2 (18432 + 64), fc1 (1179648 + 128), fc2 (1280 + 10).
  std::vector<std::int64_t> numels = {288, 32, 18432, 64, 1179648, 128, 1280, 10};
  auto one = plan_buckets(numels, 4, 25u << 20);
  REQUIRE(one.size() == 1);
  CHECK(one[0].numel == 1199882);
  CHECK(one[0].slots.front().parameter == 7);
  CHECK(one[0].slots.back().parameter == 0);

  auto small = plan_buckets(numels, 4, 1u << 20);  // 1 MiB: fc1's weight is 4.5 MiB
  REQUIRE(small.size() == 3);
  CHECK(small[0].slots.size() == 3);  // fc2 bias, fc2 weight, fc1 bias
  CHECK(small[1].slots.size() == 1);  // fc1 weight alone
  CHECK(small[1].slots[0].parameter == 4);
  CHECK(small[2].slots.size() == 4);  // conv2 bias … conv1 weight
  CHECK(small[0].slots[1].offset == 10);
  CHECK(small[0].slots[2].offset == 1290);
}

TEST_CASE("bucket plan: every parameter lands in exactly one slot") {
  std::vector<std::int64_t> numels = {5, 5, 5, 5, 5};
  auto buckets = plan_buckets(numels, 4, 40);  // two parameters per bucket
  REQUIRE(buckets.size() == 3);
  std::vector<int> seen(numels.size(), 0);
  for (const auto& bucket : buckets) {
    std::int64_t offset = 0;
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
