// Data-parallel gradient averaging without c10d::Reducer (internal API): autograd hooks copy
// each gradient, divided by the world size, into its bucket as backward produces it, and a
// full bucket's all-reduce starts at once, overlapping the rest of backward. finish() waits
// for them and points .grad at the averages before the optimizer step.
#ifndef TRAINJOB_TRAINER_COLLECTIVES_GRADIENT_SYNC_H_
#define TRAINJOB_TRAINER_COLLECTIVES_GRADIENT_SYNC_H_

#include <torch/types.h>
#include <vector>

#include "collectives/bucket_plan.h"
#include "collectives/communicator.h"
#include "settings/options.h"

namespace trainjob::trainer {

class GradientSync {
 public:
  GradientSync(std::vector<torch::Tensor> parameters, Communicator& communicator, DdpMode mode,
               size_t bucket_cap_bytes);
  GradientSync(const GradientSync&) = delete;
  GradientSync& operator=(const GradientSync&) = delete;

  /// Every worker starts from rank 0's parameters.
  void broadcast_parameters();
  /// Call before each backward, instead of the optimizer's zero_grad: sets gradients to none.
  void prepare();
  /// Call after each backward: every .grad is then the average over all workers, as a view
  /// into this object's buffers, valid until the next prepare().
  void finish();

  size_t bucket_count() const { return buckets_.size(); }

 private:
  struct BucketState {
    Bucket plan;
    torch::Tensor flat;
    size_t pending = 0;  ///< gradients not yet copied in
    std::vector<bool> filled;
    c10::intrusive_ptr<c10d::Work> work;
  };

  void register_hooks();
  void on_gradient(size_t parameter, const torch::Tensor& gradient);
  /// All-reduces start in plan order on every worker, whatever order the hooks ran in.
  void launch_ready_buckets();
  void finish_bucketed();
  void finish_flat();

  std::vector<torch::Tensor> parameters_;
  Communicator& communicator_;
  DdpMode mode_;
  std::vector<BucketState> buckets_;
  /// parameter index → (bucket, slot)
  std::vector<std::pair<size_t, size_t>> slot_of_;
  size_t next_launch_ = 0;
  torch::Tensor flat_;  ///< --ddp flat
};

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_COLLECTIVES_GRADIENT_SYNC_H_
