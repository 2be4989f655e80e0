// The process group of all workers: rendezvous through a c10d TCPStore, then gloo (CPU) or
// NCCL (GPU) collectives. Kept apart so the c10d API, which moves between libtorch releases,
// is touched in one place.
#ifndef TRAINJOB_TRAINER_COLLECTIVES_COMMUNICATOR_H_
#define TRAINJOB_TRAINER_COLLECTIVES_COMMUNICATOR_H_

#include <ATen/core/Tensor.h>
#include <memory>
#include <string>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>

#include "launch/worker_identity.h"
#include "settings/devices.h"

namespace trainjob::trainer {

/// The collectives of one worker, whichever backend carries them.
class Communicator {
 public:
  virtual ~Communicator() = default;
  /// Starts a sum over all workers in place; the caller waits on the result.
  virtual c10::intrusive_ptr<c10d::Work> allreduce_sum(at::Tensor& tensor) = 0;
  virtual void broadcast(at::Tensor& tensor, int root) = 0;
  virtual void barrier() = 0;
  /// "gloo", "gloo, shared-memory all-reduce" or "nccl".
  virtual const char* backend_name() const = 0;

  int rank() const { return rank_; }
  int world_size() const { return world_size_; }
  c10::Device device() const { return device_; }
  /// The store of this restart attempt (keys already carry the attempt prefix).
  c10d::Store& store() { return *store_; }

 protected:
  Communicator(int rank, int world_size, c10::Device device, c10::intrusive_ptr<c10d::Store> store)
      : rank_(rank), world_size_(world_size), device_(device), store_(std::move(store)) {}

 private:
  int rank_;
  int world_size_;
  c10::Device device_;
  c10::intrusive_ptr<c10d::Store> store_;
};

/// Whether this build has CUDA and NCCL (a libtorch built with them) and CUDA sees a GPU, for
/// choose_placement (settings/devices.h).
BackendSupport backend_support();

/// A gloo group over an existing store (tests run several ranks in one process this way).
/// With `shared_memory`, CPU all-reduces go through shared memory instead (all ranks must be
/// on this machine); should the segment fail, gloo does them, with a warning from rank 0.
/// On a CUDA `device`, gloo sums the CUDA tensors itself (a CUDA libtorch's gloo does).
std::unique_ptr<Communicator> gloo_communicator(c10::intrusive_ptr<c10d::Store> store, int rank,
                                                int world_size, bool shared_memory = false,
                                                c10::Device device = c10::Device(c10::kCPU));

/// What connect_workers needs besides the worker's identity.
struct ConnectOptions {
  std::string backend;         ///< gloo or nccl, as choose_placement picked
  std::string device = "cpu";  ///< cpu or cuda, as choose_placement picked
  double rdzv_timeout_s = 300;
  std::string local_allreduce = "shm";  ///< shm or gloo, for gloo groups within one node
};

/// Selects the worker's GPU first (a CUDA placement), then: rank 0 serves the store on
/// MASTER_PORT (unless torchrun's agent already does); the others wait up to `rdzv_timeout_s`
/// for MASTER_ADDR to resolve and the port to answer.
std::unique_ptr<Communicator> connect_workers(const WorkerIdentity& identity,
                                              const ConnectOptions& options, std::string* error);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_COLLECTIVES_COMMUNICATOR_H_
