// DistributedSampler-like shards: disjoint, equal, reshuffled per epoch, and their batches
// together are the batches of one larger process.
#include "data/sharding.h"

#include <algorithm>
#include <set>

#include <doctest/doctest.h>

using namespace trainjob::trainer;

TEST_CASE("sharding: shards are disjoint and cover the dataset when it divides evenly") {
  std::set<int64_t> seen;
  for (int rank = 0; rank < 4; ++rank) {
    auto shard = shard_indices({100, 4, rank, true, 7}, 0);
    CHECK(shard.size() == 25);
    for (auto index : shard)
      CHECK(seen.insert(index).second);
  }
  CHECK(seen.size() == 100);
  CHECK(*seen.rbegin() == 99);
}

TEST_CASE("sharding: padding wraps around so every shard has the same length") {
  std::vector<int64_t> all;
  for (int rank = 0; rank < 4; ++rank) {
    auto shard = shard_indices({10, 4, rank, false, 0}, 0);
    CHECK(shard.size() == 3);
    all.insert(all.end(), shard.begin(), shard.end());
  }
  // 12 slots for 10 samples: positions 10 and 11 repeat samples 0 and 1.
  std::sort(all.begin(), all.end());
  CHECK(all == std::vector<int64_t>{0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(shard_indices({1, 3, 2, false, 0}, 0) == std::vector<int64_t>{0});
}

TEST_CASE("sharding: the order depends on seed and epoch and nothing else") {
  auto first = epoch_order(50, true, 3, 0);
  CHECK(first == epoch_order(50, true, 3, 0));
  CHECK(first != epoch_order(50, true, 3, 1));
  CHECK(first != epoch_order(50, true, 4, 0));
  auto sorted = first;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == epoch_order(50, false, 3, 0));
}

TEST_CASE("sharding: the ranks' k-th batches make up the k-th batch of one process") {
  const int world = 4;
  const int batch = 10;
  auto whole = shard_indices({100, 1, 0, true, 5}, 2);
  std::vector<std::vector<int64_t>> shards;
  shards.reserve(world);
  for (int rank = 0; rank < world; ++rank)
    shards.push_back(shard_indices({100, world, rank, true, 5}, 2));
  CHECK(batch_count(25, batch) == 3);
  for (int k = 0; k < 3; ++k) {
    std::vector<int64_t> together;
    for (const auto& shard : shards) {
      auto part = batch_slice(shard, batch, k);
      together.insert(together.end(), part.begin(), part.end());
    }
    auto single = batch_slice(whole, batch * world, k);
    std::sort(together.begin(), together.end());
    std::sort(single.begin(), single.end());
    CHECK(together == single);
  }
  CHECK(batch_slice(shards[0], batch, 2).size() == 5);
  CHECK(batch_slice(shards[0], batch, 3).empty());
}
