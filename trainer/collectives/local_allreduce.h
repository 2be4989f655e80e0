// Sums CPU tensors across the workers of one node through shared memory, for gloo groups
// whose workers all share the node.
//
// gloo sends over loopback TCP: every byte is copied into the kernel and out again, with
// socket work per segment, on cores that are busy training. Here each worker copies its
// tensor into its own slot of a shared segment, sums its share of all slots (every element
// is summed once, by one worker, so all workers end bit-identical), and copies the other
// shares' sums back. Workers wait on each other with futexes, never spinning.
#ifndef TRAINJOB_TRAINER_COLLECTIVES_LOCAL_ALLREDUCE_H_
#define TRAINJOB_TRAINER_COLLECTIVES_LOCAL_ALLREDUCE_H_

#include <ATen/core/Tensor.h>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>

#include "collectives/shared_segment.h"

namespace trainjob::trainer {

/// Sizes and waits of the shared-memory all-reduce; the unit tests set them small.
struct LocalAllreduceLimits {
  /// All slots together, well under a container's 64 MB /dev/shm.
  size_t segment_bytes = 16u << 20;
  std::chrono::milliseconds timeout = std::chrono::minutes(30);  ///< gloo's default
};

class LocalAllreduce {
 public:
  /// Called by every worker of the group at once. Either all get a LocalAllreduce or all get
  /// null, with `error` saying why, so that all sum the same way.
  static std::unique_ptr<LocalAllreduce> connect(c10d::Store& store, int rank, int world_size,
                                                 const LocalAllreduceLimits& limits,
                                                 std::string* error);
  ~LocalAllreduce();
  LocalAllreduce(const LocalAllreduce&) = delete;
  LocalAllreduce& operator=(const LocalAllreduce&) = delete;

  /// Dense contiguous CPU tensors of a floating type.
  static bool supports(const at::Tensor& tensor);
  /// Starts summing `tensor` in place. Sums run one at a time, in the order started, on a
  /// thread of this object, so they overlap the caller's work like gloo's.
  c10::intrusive_ptr<c10d::Work> allreduce_sum(const at::Tensor& tensor);

 private:
  class Work;
  struct Progress;
  using Counter = std::atomic<uint32_t> Progress::*;

  LocalAllreduce(std::unique_ptr<SharedSegment> segment, int rank, int world_size,
                 size_t slot_bytes, std::chrono::milliseconds timeout);
  void serve();
  void sum(const at::Tensor& tensor);
  void sum_chunk(char* data, size_t elements, at::ScalarType type);
  void sum_own_share(char* data, size_t begin, size_t length, at::ScalarType type);
  Progress& progress(int rank) const;
  char* slot(int rank) const;
  void publish(Counter counter);
  void wait_for_all(Counter counter, uint32_t chunk) const;

  std::unique_ptr<SharedSegment> segment_;
  int rank_;
  int world_size_;
  size_t slot_bytes_;
  std::chrono::milliseconds timeout_;
  uint32_t chunk_ = 0;  ///< chunks summed so far; the protocol's clock

  std::mutex mutex_;
  std::condition_variable queued_;
  std::deque<c10::intrusive_ptr<Work>> queue_;
  bool stopping_ = false;
  std::exception_ptr failure_;  ///< after one failure the workers are out of step for good
  std::thread thread_;
};

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_COLLECTIVES_LOCAL_ALLREDUCE_H_
