// The training loop of one worker.
#ifndef TRAINJOB_TRAINER_TRAINING_TRAINING_H_
#define TRAINJOB_TRAINER_TRAINING_TRAINING_H_

#include "collectives/communicator.h"
#include "settings/options.h"

namespace trainjob::trainer {

/// Trains as `options` say, printing rank 0's per-epoch loss and throughput and the result.
/// Returns the process exit status; on failure prints the reason first.
int train(const Options& options, const WorkerIdentity& identity, Communicator& communicator);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_TRAINING_TRAINING_H_
