#include "data/sharding.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace trainjob::trainer {

std::vector<int64_t> epoch_order(int64_t n, bool shuffle, uint64_t seed, int epoch) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  if (!shuffle) return order;
  // mt19937_64's sequence is fixed by the standard, unlike the distributions, so the
  // Fisher–Yates draws below are the same with every compiler and library.
  std::mt19937_64 engine(seed + static_cast<uint64_t>(epoch));
  for (int64_t i = n - 1; i > 0; --i) {
    auto j = static_cast<int64_t>(engine() % static_cast<uint64_t>(i + 1));
    std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(j)]);
  }
  return order;
}

std::vector<int64_t> shard_indices(const ShardSpec& spec, int epoch) {
  std::vector<int64_t> order = epoch_order(spec.dataset_size, spec.shuffle, spec.seed, epoch);
  const int64_t world = spec.world_size;
  const int64_t per_rank = (spec.dataset_size + world - 1) / world;
  std::vector<int64_t> shard;
  shard.reserve(static_cast<size_t>(per_rank));
  for (int64_t k = 0; k < per_rank; ++k) {
    int64_t position = spec.rank + k * world;
    // Padding repeats the order from its start, wrapping as often as needed.
    shard.push_back(order[static_cast<size_t>(position % spec.dataset_size)]);
  }
  return shard;
}

int batch_count(int64_t shard_size, int batch_size) {
  return static_cast<int>((shard_size + batch_size - 1) / batch_size);
}

std::vector<int64_t> batch_slice(const std::vector<int64_t>& shard, int batch_size, int batch) {
  const size_t begin = static_cast<size_t>(batch) * static_cast<size_t>(batch_size);
  if (begin >= shard.size()) return {};
  const size_t end = std::min(shard.size(), begin + static_cast<size_t>(batch_size));
  return {shard.begin() + static_cast<std::ptrdiff_t>(begin),
          shard.begin() + static_cast<std::ptrdiff_t>(end)};
}

}  // namespace trainjob::trainer
