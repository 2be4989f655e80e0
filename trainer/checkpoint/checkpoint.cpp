#include "checkpoint/checkpoint.h"

#include <torch/torch.h>

namespace trainjob::trainer {

std::string serialize_checkpoint(const Network& network, const torch::optim::Optimizer& optimizer,
                                 int epochs_done) {
  torch::serialize::OutputArchive archive;
  torch::serialize::OutputArchive model_archive;
  torch::serialize::OutputArchive optimizer_archive;
  network.save(model_archive);
  optimizer.save(optimizer_archive);
  archive.write("model", model_archive);
  archive.write("optimizer", optimizer_archive);
  archive.write("epochs_done", torch::tensor(static_cast<int64_t>(epochs_done)));
  std::string bytes;
  archive.save_to([&bytes](const void* data, size_t size) {
    bytes.append(static_cast<const char*>(data), size);
    return size;
  });
  return bytes;
}

bool restore_checkpoint(const std::string& bytes, c10::Device device, Network& network,
                        torch::optim::Optimizer& optimizer, int* epochs_done, std::string* error) {
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(bytes.data(), bytes.size(), device);
    torch::serialize::InputArchive model_archive;
    torch::serialize::InputArchive optimizer_archive;
    archive.read("model", model_archive);
    archive.read("optimizer", optimizer_archive);
    torch::Tensor epochs;
    archive.read("epochs_done", epochs);
    network.load(model_archive);
    optimizer.load(optimizer_archive);
    *epochs_done = static_cast<int>(epochs.item<int64_t>());
    return true;
  } catch (const c10::Error& e) {
    *error = e.what_without_backtrace();
  } catch (const std::exception& e) {
    *error = e.what();
  }
  return false;
}

}  // namespace trainjob::trainer
