// Dataset sharding as PyTorch's DistributedSampler does it: every epoch a permutation of the
// whole dataset drawn from (seed + epoch), padded by wrapping around to a multiple of the
// world size, then rank r takes positions r, r + world, r + 2·world, ...
//
// So the shards are disjoint (up to the padding), equal in length, and the union of the
// ranks' k-th batches is the k-th batch of one process whose batch is world times larger.
#ifndef TRAINJOB_TRAINER_DATA_SHARDING_H_
#define TRAINJOB_TRAINER_DATA_SHARDING_H_

#include <cstdint>
#include <vector>

namespace trainjob::trainer {

/// A data set of `dataset_size` samples shared among `world_size` ranks, seen from `rank`.
struct ShardSpec {
  int64_t dataset_size = 0;
  int world_size = 1;
  int rank = 0;
  bool shuffle = true;
  uint64_t seed = 0;
};

/// The permutation of 0 … n-1 for an epoch (identity without shuffle).
std::vector<int64_t> epoch_order(int64_t n, bool shuffle, uint64_t seed, int epoch);

/// This rank's sample indices for `epoch`, ceil(n / world) of them.
std::vector<int64_t> shard_indices(const ShardSpec& spec, int epoch);

/// Indices of batch `batch` (0-based) of one shard: consecutive runs of `batch_size`,
/// the last one shorter when the shard does not divide evenly.
std::vector<int64_t> batch_slice(const std::vector<int64_t>& shard, int batch_size, int batch);
/// Batches in a shard of `shard_size`, the last one possibly shorter.
int batch_count(int64_t shard_size, int batch_size);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_DATA_SHARDING_H_
