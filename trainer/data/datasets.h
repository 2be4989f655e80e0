// Training and test data as whole tensors: synthetic data drawn from the seed, or MNIST
// read from its IDX files.
#ifndef TRAINJOB_TRAINER_DATA_DATASETS_H_
#define TRAINJOB_TRAINER_DATA_DATASETS_H_

#include <string>
#include <torch/types.h>

namespace trainjob::trainer {

/// Inputs and targets, one sample per row.
struct Dataset {
  torch::Tensor inputs;
  torch::Tensor targets;
  int64_t size() const { return inputs.defined() ? inputs.size(0) : 0; }
};

/// The training data and, for mnist-cnn, the test data.
struct DataSplits {
  Dataset train;
  Dataset test;  ///< empty for the linear model
};

/// Which data, from where, and how much: every worker builds the same from the same request.
struct DataRequest {
  std::string model;     ///< linear or mnist-cnn
  std::string data_dir;  ///< empty: synthetic
  uint64_t seed = 0;
  int samples = 0;
  int test_samples = 0;
};

/// Every worker builds the same data from the same request. On a missing or malformed file,
/// returns false with `*error` naming it.
bool load_data(const DataRequest& request, DataSplits* splits, std::string* error);

/// The MNIST file names inside --data-dir.
extern const char* const kMnistFiles[4];

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_DATA_DATASETS_H_
