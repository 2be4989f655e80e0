#include "data/datasets.h"

#include <filesystem>
#include <torch/torch.h>

#include "data/idx_file.h"

namespace trainjob::trainer {

const char* const kMnistFiles[4] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                                    "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};

namespace {

/// The seed demo's data: y = 2x + 0.1·noise.
Dataset linear_data(uint64_t seed, int samples) {
  torch::manual_seed(seed);
  Dataset data;
  data.inputs = torch::randn({samples, 1});
  data.targets = data.inputs * 2 + 0.1 * torch::randn_like(data.inputs);
  return data;
}

/// MNIST-shaped digits: ten fixed random 28×28 prototypes plus noise, so the classes are
/// learnable and test accuracy means something.
DataSplits synthetic_digits(uint64_t seed, int samples, int test_samples) {
  torch::manual_seed(seed);
  torch::Tensor prototypes = torch::randn({10, 1, 28, 28});
  auto draw = [&prototypes](int count) {
    Dataset data;
    data.targets = torch::randint(0, 10, {count}, torch::kLong);
    data.inputs = prototypes.index_select(0, data.targets) + 0.8 * torch::randn({count, 1, 28, 28});
    return data;
  };
  DataSplits splits;
  splits.train = draw(samples);
  splits.test = draw(test_samples);
  return splits;
}

bool read_mnist_split(const std::string& dir, const char* images_file, const char* labels_file,
                      Dataset* data, std::string* error) {
  IdxArray images;
  IdxArray labels;
  const std::string images_path = (std::filesystem::path(dir) / images_file).string();
  const std::string labels_path = (std::filesystem::path(dir) / labels_file).string();
  if (!read_idx_file(images_path, 3, &images, error)) return false;
  if (!read_idx_file(labels_path, 1, &labels, error)) return false;
  if (images.dims[1] != 28 || images.dims[2] != 28) {
    *error = images_path + ": expected 28×28 images, found " + std::to_string(images.dims[1]) +
             "×" + std::to_string(images.dims[2]);
    return false;
  }
  if (images.dims[0] != labels.dims[0]) {
    *error = labels_path + ": " + std::to_string(labels.dims[0]) + " labels for " +
             std::to_string(images.dims[0]) + " images in " + images_path;
    return false;
  }
  for (uint8_t label : labels.data) {
    if (label > 9) {
      *error = labels_path + ": label " + std::to_string(label) + " is not a digit 0–9";
      return false;
    }
  }
  const int64_t count = images.dims[0];
  torch::Tensor pixels =
      torch::from_blob(images.data.data(), {count, 1, 28, 28}, torch::kUInt8).to(torch::kFloat);
  // The normalisation of the MNIST example: mean 0.1307, standard deviation 0.3081.
  data->inputs = (pixels / 255.0 - 0.1307) / 0.3081;
  data->targets = torch::from_blob(labels.data.data(), {count}, torch::kUInt8).to(torch::kLong);
  return true;
}

}  // namespace

bool load_data(const DataRequest& request, DataSplits* splits, std::string* error) {
  if (request.model == "linear") {
    if (!request.data_dir.empty()) {
      *error = "--data-dir: the linear model trains on synthetic data only; use --model mnist-cnn";
      return false;
    }
    splits->train = linear_data(request.seed, request.samples);
    return true;
  }
  if (request.data_dir.empty()) {
    *splits = synthetic_digits(request.seed, request.samples, request.test_samples);
    return true;
  }
  return read_mnist_split(request.data_dir, kMnistFiles[0], kMnistFiles[1], &splits->train,
                          error) &&
         read_mnist_split(request.data_dir, kMnistFiles[2], kMnistFiles[3], &splits->test, error);
}

}  // namespace trainjob::trainer
