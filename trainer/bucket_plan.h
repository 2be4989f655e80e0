// Which gradients share an all-reduce: buckets of at most `cap_bytes`, filled in reverse
// parameter order, because backward produces the last layer's gradients first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace trainjob::trainer {

struct BucketSlot {
  size_t parameter = 0;     // index in registration order
  std::int64_t offset = 0;  // first element inside the bucket's flat buffer
  std::int64_t numel = 0;
};

struct Bucket {
  std::vector<BucketSlot> slots;
  std::int64_t numel = 0;
};

// A parameter larger than the cap gets a bucket of its own; no bucket is empty.
std::vector<Bucket> plan_buckets(const std::vector<std::int64_t>& parameter_numels,
                                 size_t element_bytes, size_t cap_bytes);

}  // namespace trainjob::trainer
