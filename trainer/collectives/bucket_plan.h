// Which gradients share an all-reduce, sized as PyTorch's DDP sizes its buckets: filled in
// reverse parameter order, because backward produces the last layer's gradients first, and
// closed once they reach their cap. The first bucket's cap is small (1 MiB), so the
// all-reduce of the last layers starts early and overlaps the backward of the first ones.
#ifndef TRAINJOB_TRAINER_COLLECTIVES_BUCKET_PLAN_H_
#define TRAINJOB_TRAINER_COLLECTIVES_BUCKET_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace trainjob::trainer {

/// PyTorch's first-bucket cap (torch.distributed's _DEFAULT_FIRST_BUCKET_BYTES).
inline constexpr size_t kFirstBucketCapBytes = 1 << 20;

/// Where one parameter's gradient sits in its bucket.
struct BucketSlot {
  size_t parameter = 0;  ///< index in registration order
  int64_t offset = 0;    ///< first element inside the bucket's flat buffer
  int64_t numel = 0;
};

/// Gradients all-reduced together, as one flat buffer of `numel` elements.
struct Bucket {
  std::vector<BucketSlot> slots;
  int64_t numel = 0;
};

/// A bucket closes once it holds at least its cap: min(kFirstBucketCapBytes, cap_bytes) for
/// the first, cap_bytes for the others. No bucket is empty.
std::vector<Bucket> plan_buckets(const std::vector<int64_t>& parameter_numels, size_t element_bytes,
                                 size_t cap_bytes);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_COLLECTIVES_BUCKET_PLAN_H_
