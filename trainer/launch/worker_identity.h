// Who a worker is, from the variables its launcher (ours or torchrun) set.
#ifndef TRAINJOB_TRAINER_LAUNCH_WORKER_IDENTITY_H_
#define TRAINJOB_TRAINER_LAUNCH_WORKER_IDENTITY_H_

#include <string>

#include "settings/options.h"

namespace trainjob::trainer {

/// A worker's place in the job.
struct WorkerIdentity {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  int local_world_size = 1;
  std::string master_addr;
  int master_port = 0;
  int attempt = 0;  ///< TORCHELASTIC_RESTART_COUNT
  /// torchrun's static rendezvous serves the store from its agent; rank 0 then connects to it
  /// instead of serving one itself.
  bool agent_store = false;
};

/// Reads RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT,
/// TORCHELASTIC_RESTART_COUNT and TORCHELASTIC_USE_AGENT_STORE. Returns false with `*error`
/// naming the variable when one is missing or out of range.
bool read_worker_identity(const EnvLookup& env, WorkerIdentity* identity, std::string* error);

/// Prefix of every store key of one restart attempt, as torchrun names it, so a restarted
/// group never reads addresses its previous attempt left in a store that outlived it.
std::string attempt_key_prefix(int attempt);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_LAUNCH_WORKER_IDENTITY_H_
