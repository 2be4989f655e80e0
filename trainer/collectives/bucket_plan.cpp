#include "collectives/bucket_plan.h"

#include <algorithm>

namespace trainjob::trainer {

std::vector<Bucket> plan_buckets(const std::vector<int64_t>& parameter_numels, size_t element_bytes,
                                 size_t cap_bytes) {
  std::vector<Bucket> buckets;
  Bucket current;
  size_t cap = std::min(kFirstBucketCapBytes, cap_bytes);
  for (size_t i = parameter_numels.size(); i-- > 0;) {
    const int64_t numel = parameter_numels[i];
    current.slots.push_back({i, current.numel, numel});
    current.numel += numel;
    if (static_cast<size_t>(current.numel) * element_bytes >= cap) {
      buckets.push_back(std::move(current));
      current = Bucket{};
      cap = cap_bytes;
    }
  }
  if (!current.slots.empty()) buckets.push_back(std::move(current));
  return buckets;
}

}  // namespace trainjob::trainer
