#include "bucket_plan.h"

namespace trainjob::trainer {

std::vector<Bucket> plan_buckets(const std::vector<std::int64_t>& parameter_numels,
                                 size_t element_bytes, size_t cap_bytes) {
  std::vector<Bucket> buckets;
  Bucket current;
  for (size_t i = parameter_numels.size(); i-- > 0;) {
    const std::int64_t numel = parameter_numels[i];
    const size_t bytes_after = static_cast<size_t>(current.numel + numel) * element_bytes;
    if (!current.slots.empty() && bytes_after > cap_bytes) {
      buckets.push_back(std::move(current));
      current = Bucket{};
    }
    current.slots.push_back({i, current.numel, numel});
    current.numel += numel;
  }
  if (!current.slots.empty()) buckets.push_back(std::move(current));
  return buckets;
}

}  // namespace trainjob::trainer
