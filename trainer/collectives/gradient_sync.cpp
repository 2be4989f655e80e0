#include "collectives/gradient_sync.h"

#include <torch/torch.h>

namespace trainjob::trainer {

GradientSync::GradientSync(std::vector<torch::Tensor> parameters, Communicator& communicator,
                           DdpMode mode, size_t bucket_cap_bytes)
    : parameters_(std::move(parameters)), communicator_(communicator), mode_(mode) {
  std::vector<int64_t> numels;
  int64_t total = 0;
  for (const auto& parameter : parameters_) {
    numels.push_back(parameter.numel());
    total += parameter.numel();
  }
  const auto options = parameters_.empty() ? torch::TensorOptions() : parameters_.front().options();
  if (mode_ == DdpMode::kFlat) flat_ = torch::zeros({total}, options);
  if (mode_ != DdpMode::kBucketed || parameters_.empty()) return;

  const size_t element_bytes = parameters_.front().element_size();
  slot_of_.resize(parameters_.size());
  for (Bucket& plan : plan_buckets(numels, element_bytes, bucket_cap_bytes)) {
    BucketState state;
    state.flat = torch::zeros({plan.numel}, options);
    for (size_t s = 0; s < plan.slots.size(); ++s) {
      slot_of_[plan.slots[s].parameter] = {buckets_.size(), s};
    }
    state.plan = std::move(plan);
    buckets_.push_back(std::move(state));
  }
  register_hooks();
}

void GradientSync::register_hooks() {
  for (size_t i = 0; i < parameters_.size(); ++i) {
    parameters_[i].register_hook(
        [this, i](const torch::Tensor& gradient) { on_gradient(i, gradient); });
  }
}

void GradientSync::broadcast_parameters() {
  if (parameters_.empty() || communicator_.world_size() == 1) return;
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> flat_views;
  for (const auto& parameter : parameters_)
    flat_views.push_back(parameter.reshape({-1}));
  torch::Tensor all = torch::cat(flat_views);
  communicator_.broadcast(all, 0);
  int64_t offset = 0;
  for (auto& parameter : parameters_) {
    parameter.copy_(all.narrow(0, offset, parameter.numel()).view_as(parameter));
    offset += parameter.numel();
  }
}

void GradientSync::prepare() {
  // Gradients start undefined (set to none), so autograd stores each new gradient without
  // adding to an old one, and the .grad views into the buckets from the last step are let go.
  for (auto& parameter : parameters_)
    parameter.mutable_grad() = torch::Tensor();
  for (auto& bucket : buckets_) {
    bucket.pending = bucket.plan.slots.size();
    bucket.filled.assign(bucket.plan.slots.size(), false);
    bucket.work.reset();
  }
  next_launch_ = 0;
}

void GradientSync::on_gradient(size_t parameter, const torch::Tensor& gradient) {
  auto [b, s] = slot_of_[parameter];
  BucketState& bucket = buckets_[b];
  const BucketSlot& slot = bucket.plan.slots[s];
  torch::Tensor region = bucket.flat.narrow(0, slot.offset, slot.numel);
  // Scaled by 1/world on the way in, so the all-reduced sum is already the average: no
  // pass over the buckets after the all-reduce, when nothing is left to overlap it with.
  const double scale = 1.0 / communicator_.world_size();
  // A parameter used twice in one forward gets two hook calls before its bucket can be full.
  if (bucket.filled[s]) {
    region.add_(gradient.reshape({-1}), scale);
    return;
  }
  torch::mul_out(region, gradient.reshape({-1}), scale);
  bucket.filled[s] = true;
  if (--bucket.pending == 0) launch_ready_buckets();
}

void GradientSync::launch_ready_buckets() {
  while (next_launch_ < buckets_.size() && buckets_[next_launch_].pending == 0) {
    BucketState& bucket = buckets_[next_launch_];
    bucket.work = communicator_.allreduce_sum(bucket.flat);
    ++next_launch_;
  }
}

void GradientSync::finish() {
  if (mode_ == DdpMode::kBucketed) finish_bucketed();
  if (mode_ == DdpMode::kFlat) finish_flat();
}

void GradientSync::finish_bucketed() {
  torch::NoGradGuard no_grad;
  // Parameters that took no part in this backward contribute zeros.
  for (auto& bucket : buckets_) {
    for (size_t s = 0; s < bucket.plan.slots.size(); ++s) {
      if (bucket.filled[s]) continue;
      const BucketSlot& slot = bucket.plan.slots[s];
      bucket.flat.narrow(0, slot.offset, slot.numel).zero_();
      bucket.filled[s] = true;
      --bucket.pending;
    }
  }
  launch_ready_buckets();
  for (auto& bucket : buckets_) {
    bucket.work->wait();
    // .grad becomes a view of the averaged bucket: no copy back.
    for (const BucketSlot& slot : bucket.plan.slots) {
      torch::Tensor& parameter = parameters_[slot.parameter];
      parameter.mutable_grad() = bucket.flat.narrow(0, slot.offset, slot.numel).view_as(parameter);
    }
  }
}

void GradientSync::finish_flat() {
  torch::NoGradGuard no_grad;
  int64_t offset = 0;
  for (const auto& parameter : parameters_) {
    torch::Tensor region = flat_.narrow(0, offset, parameter.numel());
    if (parameter.grad().defined()) {
      torch::mul_out(region, parameter.grad().reshape({-1}), 1.0 / communicator_.world_size());
    } else {
      region.zero_();
    }
    offset += parameter.numel();
  }
  communicator_.allreduce_sum(flat_)->wait();
  offset = 0;
  for (auto& parameter : parameters_) {
    parameter.mutable_grad() = flat_.narrow(0, offset, parameter.numel()).view_as(parameter);
    offset += parameter.numel();
  }
}

}  // namespace trainjob::trainer
