// Model and optimizer state with the number of finished epochs, as bytes.
#ifndef TRAINJOB_TRAINER_CHECKPOINT_CHECKPOINT_H_
#define TRAINJOB_TRAINER_CHECKPOINT_CHECKPOINT_H_

#include <string>
#include <torch/optim/optimizer.h>

#include "training/models.h"

namespace trainjob::trainer {

/// Model, optimizer state and `epochs_done` as one archive: the bytes of a checkpoint file.
std::string serialize_checkpoint(const Network& network, const torch::optim::Optimizer& optimizer,
                                 int epochs_done);

/// Loads onto `device`. Returns false with `*error` when the bytes are not a checkpoint of
/// this model.
bool restore_checkpoint(const std::string& bytes, c10::Device device, Network& network,
                        torch::optim::Optimizer& optimizer, int* epochs_done, std::string* error);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_CHECKPOINT_CHECKPOINT_H_
