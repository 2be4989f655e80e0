#include "collectives/communicator.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/cuda.h>
#include <type_traits>
#include <utility>
#ifdef TRAINJOB_TRAINER_CUDA
#include <c10/cuda/CUDAFunctions.h>
#endif
#ifdef USE_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include "collectives/local_allreduce.h"
#include "collectives/master_probe.h"
#include "settings/devices.h"

namespace trainjob::trainer {
namespace {

/// libtorch 2.x's groups (c10d::Backend) have shutdown(), the normal end that
/// destroy_process_group calls: a ProcessGroupNCCL destroyed without it warns and aborts its
/// communicators. 1.13's groups have none and end in their destructor.
template <class Group, class = void>
struct HasShutdown : std::false_type {};
template <class Group>
struct HasShutdown<Group, std::void_t<decltype(std::declval<Group&>().shutdown())>>
    : std::true_type {};

/// 2.x's groups can be told their device (init_process_group's device_id), so that NCCL's
/// barrier uses it rather than guessing one from the rank; 1.13's cannot.
template <class Group, class = void>
struct HasBoundDevice : std::false_type {};
template <class Group>
struct HasBoundDevice<Group, std::void_t<decltype(std::declval<Group&>().setBoundDeviceId(
                                 std::optional<c10::Device>()))>> : std::true_type {};

/// Works with libtorch 1.13, where the groups derive from ProcessGroup, and 2.x, where
/// they derive from Backend: both keep allreduce, broadcast and barrier.
template <class Group>
class C10dCommunicator final : public Communicator {
 public:
  C10dCommunicator(c10::intrusive_ptr<Group> group, const char* name, int rank, int world_size,
                   c10::Device device, c10::intrusive_ptr<c10d::Store> store,
                   std::unique_ptr<LocalAllreduce> local = nullptr)
      : Communicator(rank, world_size, device, std::move(store)),
        group_(std::move(group)),
        local_(std::move(local)),
        name_(local_ ? "gloo, shared-memory all-reduce" : name) {
    if constexpr (HasBoundDevice<Group>::value) {
      if (device.is_cuda()) group_->setBoundDeviceId(device);
    }
  }

  ~C10dCommunicator() override {
    if constexpr (HasShutdown<Group>::value) {
      try {
        group_->shutdown();
      } catch (const std::exception& e) {
        // The run's result is out already; a group that cannot end cleanly changes nothing.
        std::fprintf(stderr, "trainjob-trainer: warning: closing the %s group: %s\n", name_,
                     e.what());
      }
    }
  }

  c10::intrusive_ptr<c10d::Work> allreduce_sum(at::Tensor& tensor) override {
    if (local_ && LocalAllreduce::supports(tensor)) return local_->allreduce_sum(tensor);
    std::vector<at::Tensor> tensors{tensor};
    return group_->allreduce(tensors);
  }

  void broadcast(at::Tensor& tensor, int root) override {
    std::vector<at::Tensor> tensors{tensor};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    group_->broadcast(tensors, options)->wait();
  }

  void barrier() override { group_->barrier()->wait(); }

  const char* backend_name() const override { return name_; }

 private:
  c10::intrusive_ptr<Group> group_;
  std::unique_ptr<LocalAllreduce> local_;
  const char* name_;
};

std::chrono::milliseconds to_milliseconds(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

/// GLOO_SOCKET_IFNAME takes a comma-separated list of interfaces, as in PyTorch.
c10::intrusive_ptr<c10d::ProcessGroupGloo::Options> gloo_options() {
  auto options = c10d::ProcessGroupGloo::Options::create();
  const char* interfaces = std::getenv("GLOO_SOCKET_IFNAME");
  if (interfaces != nullptr && *interfaces != '\0') {
    std::stringstream list(interfaces);
    std::string name;
    while (std::getline(list, name, ',')) {
      if (!name.empty()) {
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(name));
      }
    }
  }
  if (options->devices.empty()) {
    options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  }
  return options;
}

/// The prefix of this attempt's keys. Under torchrun the agent's store outlives the workers
/// and the restart count names the attempt. Our rank 0 serves a fresh store per attempt and
/// says which; the other ranks adopt its number, since nodes count their own restarts and
/// a node that restarted twice may meet a master that restarted once.
std::string agreed_attempt_prefix(const WorkerIdentity& identity, c10d::Store& store) {
  if (identity.agent_store) return attempt_key_prefix(identity.attempt);
  if (identity.rank == 0) {
    const std::string attempt = std::to_string(identity.attempt);
    store.set("trainjob/attempt", std::vector<uint8_t>(attempt.begin(), attempt.end()));
    return attempt_key_prefix(identity.attempt);
  }
  std::vector<uint8_t> attempt = store.get("trainjob/attempt");
  return attempt_key_prefix(std::stoi(std::string(attempt.begin(), attempt.end())));
}

c10::intrusive_ptr<c10d::Store> open_store(const WorkerIdentity& identity, double timeout_s,
                                           std::string* error) {
  c10d::TCPStoreOptions options;
  options.port = static_cast<uint16_t>(identity.master_port);
  options.timeout = to_milliseconds(timeout_s);
  options.waitWorkers = false;
  const std::string address = identity.master_addr + ":" + std::to_string(identity.master_port);
  if (identity.rank == 0 && !identity.agent_store) {
    options.isServer = true;
    options.numWorkers = static_cast<size_t>(identity.world_size);
    try {
      return c10::make_intrusive<c10d::TCPStore>(identity.master_addr, options);
    } catch (const std::exception& e) {
      *error = "rendezvous: rank 0 cannot serve the store on port " +
               std::to_string(identity.master_port) + ": " + e.what();
      return {};
    }
  }
  std::string last_error;
  if (!wait_for_master(identity.master_addr, identity.master_port, timeout_s, &last_error)) {
    std::ostringstream message;
    message << "rendezvous: the master " << address << " did not answer within " << timeout_s
            << " s (" << last_error << ")";
    *error = message.str();
    return {};
  }
  try {
    return c10::make_intrusive<c10d::TCPStore>(identity.master_addr, options);
  } catch (const std::exception& e) {
    *error = "rendezvous: cannot connect to the store at " + address + ": " + e.what();
    return {};
  }
}

}  // namespace

std::unique_ptr<Communicator> gloo_communicator(c10::intrusive_ptr<c10d::Store> store, int rank,
                                                int world_size, bool shared_memory,
                                                c10::Device device) {
  auto group_store = c10::make_intrusive<c10d::PrefixStore>("default_pg", store);
  auto group =
      c10::make_intrusive<c10d::ProcessGroupGloo>(group_store, rank, world_size, gloo_options());
  std::unique_ptr<LocalAllreduce> local;
  if (shared_memory) {
    std::string why;
    local = LocalAllreduce::connect(*store, rank, world_size, LocalAllreduceLimits(), &why);
    if (!local && rank == 0) {
      std::fprintf(stderr, "trainjob-trainer: warning: all-reduce over gloo instead: %s\n",
                   why.c_str());
    }
  }
  return std::make_unique<C10dCommunicator<c10d::ProcessGroupGloo>>(
      group, "gloo", rank, world_size, device, std::move(store), std::move(local));
}

BackendSupport backend_support() {
  BackendSupport support;
#ifdef USE_C10D_NCCL
  support.nccl_compiled = true;
#endif
#ifdef TRAINJOB_TRAINER_CUDA
  support.cuda_compiled = true;
  support.cuda_available = torch::cuda::is_available();
#endif
  return support;
}

namespace {

/// The device of this worker's tensors. A GPU is made CUDA's current device before anything
/// else touches CUDA, so that what the worker starts (NCCL's communicators, gloo's streams,
/// the caching allocator's context) lives on it rather than on GPU 0.
bool select_device(const WorkerIdentity& identity, const ConnectOptions& options,
                   c10::Device* device, std::string* error) {
  if (options.device != "cuda") {
    *device = c10::Device(c10::kCPU);
    return true;
  }
  const int gpu = gpu_for_worker(options.backend, identity.local_rank,
                                 static_cast<int>(torch::cuda::device_count()), error);
  if (gpu < 0) return false;
  const auto index = static_cast<c10::DeviceIndex>(gpu);
#ifdef TRAINJOB_TRAINER_CUDA
  c10::cuda::set_device(index);
#endif
  *device = c10::Device(c10::kCUDA, index);
  return true;
}

}  // namespace

std::unique_ptr<Communicator> connect_workers(const WorkerIdentity& identity,
                                              const ConnectOptions& options, std::string* error) {
  const std::string& backend = options.backend;
  // Before the rendezvous: a rank without a GPU fails at once rather than after the others
  // have waited for it.
  c10::Device device(c10::kCPU);
  if (!select_device(identity, options, &device, error)) return nullptr;
  c10::intrusive_ptr<c10d::Store> root = open_store(identity, options.rdzv_timeout_s, error);
  if (!root) return nullptr;
  try {
    auto attempt_store =
        c10::make_intrusive<c10d::PrefixStore>(agreed_attempt_prefix(identity, *root), root);
#ifdef USE_C10D_NCCL
    if (backend == "nccl") {
      auto group_store = c10::make_intrusive<c10d::PrefixStore>("default_pg", attempt_store);
      auto group = c10::make_intrusive<c10d::ProcessGroupNCCL>(group_store, identity.rank,
                                                               identity.world_size);
      return std::make_unique<C10dCommunicator<c10d::ProcessGroupNCCL>>(
          group, "nccl", identity.rank, identity.world_size, device, attempt_store);
    }
#endif
    const bool one_node = identity.local_world_size == identity.world_size;
    // Shared memory sums CPU tensors only: CUDA tensors go through gloo's own CUDA all-reduce,
    // and a segment would be set up for nothing.
    const bool shared_memory =
        one_node && identity.world_size > 1 && options.local_allreduce == "shm" && device.is_cpu();
    return gloo_communicator(attempt_store, identity.rank, identity.world_size, shared_memory,
                             device);
  } catch (const c10::Error& e) {
    *error =
        "rendezvous: cannot form the " + backend + " process group: " + e.what_without_backtrace();
  } catch (const std::exception& e) {
    *error = "rendezvous: cannot form the " + backend + " process group: " + e.what();
  }
  return nullptr;
}

}  // namespace trainjob::trainer
