// The progress line's reader moved to model/trainer_progress.h, where `run --local` reads it
// too; this name stays for the cluster files that include it.
#ifndef TRAINJOB_CLUSTER_TRAINER_PROGRESS_H_
#define TRAINJOB_CLUSTER_TRAINER_PROGRESS_H_

#include "model/trainer_progress.h"

#endif  // TRAINJOB_CLUSTER_TRAINER_PROGRESS_H_
