#include "training/models.h"

#include <torch/torch.h>

namespace trainjob::trainer {
namespace {

/// y = w·x + b, fitted with mean squared error.
class LinearRegression final : public Network {
 public:
  LinearRegression() : linear_(register_module("linear", torch::nn::Linear(1, 1))) {}

  torch::Tensor forward(const torch::Tensor& input) override { return linear_(input); }

  torch::Tensor loss(const torch::Tensor& output, const torch::Tensor& target) override {
    return torch::mse_loss(output, target);
  }

 private:
  torch::nn::Linear linear_;
};

/// conv 1→32, conv 32→64, max-pool, fc 9216→128, fc 128→10, log-softmax.
class MnistCnn final : public Network {
 public:
  MnistCnn()
      : conv1_(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3)))),
        conv2_(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3)))),
        fc1_(register_module("fc1", torch::nn::Linear(9216, 128))),
        fc2_(register_module("fc2", torch::nn::Linear(128, 10))) {}

  torch::Tensor forward(const torch::Tensor& input) override {
    torch::Tensor x = torch::relu(conv1_(input));
    x = torch::relu(conv2_(x));
    x = torch::max_pool2d(x, 2);
    x = torch::flatten(x, 1);
    x = torch::relu(fc1_(x));
    return torch::log_softmax(fc2_(x), 1);
  }

  torch::Tensor loss(const torch::Tensor& output, const torch::Tensor& target) override {
    return torch::nll_loss(output, target);
  }

 private:
  torch::nn::Conv2d conv1_;
  torch::nn::Conv2d conv2_;
  torch::nn::Linear fc1_;
  torch::nn::Linear fc2_;
};

}  // namespace

ModelDefaults model_defaults(const std::string& model) {
  if (model == "mnist-cnn") return {64, 1e-3, 4096, 1024};
  return {10, 0.01, 100, 0};
}

std::shared_ptr<Network> make_network(const std::string& model) {
  if (model == "mnist-cnn") return std::make_shared<MnistCnn>();
  return std::make_shared<LinearRegression>();
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const std::string& model, Network& network,
                                                        double lr) {
  if (model == "mnist-cnn") {
    return std::make_unique<torch::optim::Adam>(network.parameters(),
                                                torch::optim::AdamOptions(lr));
  }
  return std::make_unique<torch::optim::SGD>(network.parameters(), torch::optim::SGDOptions(lr));
}

}  // namespace trainjob::trainer
