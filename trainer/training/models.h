// The two networks: the seed demo's Linear(1,1) and the MNIST CNN.
#ifndef TRAINJOB_TRAINER_TRAINING_MODELS_H_
#define TRAINJOB_TRAINER_TRAINING_MODELS_H_

#include <memory>
#include <string>
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

namespace trainjob::trainer {

/// A model the trainer can train: its forward pass and the loss it is trained on.
class Network : public torch::nn::Module {
 public:
  virtual torch::Tensor forward(const torch::Tensor& input) = 0;
  virtual torch::Tensor loss(const torch::Tensor& output, const torch::Tensor& target) = 0;
};

/// What a model trains with where the options leave a setting at 0.
struct ModelDefaults {
  int batch_size;
  double lr;
  int samples;
  int test_samples;
};

/// The defaults of `model`: linear or mnist-cnn.
ModelDefaults model_defaults(const std::string& model);

/// `model` is linear or mnist-cnn; the parameters come from torch's default initialisation
/// under the current seed.
std::shared_ptr<Network> make_network(const std::string& model);

/// linear: SGD, mnist-cnn: Adam, as the demo scripts use them.
std::unique_ptr<torch::optim::Optimizer> make_optimizer(const std::string& model, Network& network,
                                                        double lr);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_TRAINING_MODELS_H_
