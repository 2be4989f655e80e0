// What a training run measures of itself: the parameters' checksum, a classifier's score on
// the test split, and the wall and CPU time of the workers' epochs.
#ifndef TRAINJOB_TRAINER_TRAINING_TRAINING_MEASURES_H_
#define TRAINJOB_TRAINER_TRAINING_TRAINING_MEASURES_H_

#include <chrono>
#include <cstdint>
#include <torch/torch.h>

#include "data/datasets.h"
#include "training/models.h"

namespace trainjob::trainer {

/// FNV-1a over the parameters' bytes: equal on every rank when the replicas agree bit for bit.
uint64_t parameter_checksum(const Network& network);

/// How many samples of the test split a classifier gets right.
struct TestScore {
  int64_t correct = 0;
  int64_t total = 0;
  double accuracy() const { return total > 0 ? static_cast<double>(correct) / total : 0.0; }
};
TestScore score_test_split(Network& network, const DataSplits& data);

double seconds_since(std::chrono::steady_clock::time_point start);
/// CPU time of this thread, which does the training: a worker whose epoch took far longer
/// than its CPU time was waiting for a core, not computing.
double thread_cpu_seconds();
/// The slowest and the fastest worker's own epoch (wall and CPU seconds, from `totals` as
/// sum_epoch_over_workers lays them out): a job's pace is its slowest worker's, and this says
/// whether that one computed longer or waited.
void print_rank_times(int epoch, const torch::Tensor& totals, int world);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_TRAINING_TRAINING_MEASURES_H_
