// Where `spec.runtimeRef` finds its runtime: the inputs, then `--runtimes DIR`,
// then the runtimes embedded in the binary.
#ifndef TRAINJOB_MODEL_RUNTIME_REGISTRY_H_
#define TRAINJOB_MODEL_RUNTIME_REGISTRY_H_

#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "load/document.h"

namespace trainjob {

inline constexpr const char* kTrainerApiGroup = "trainer.kubeflow.org";
inline constexpr const char* kClusterTrainingRuntime = "ClusterTrainingRuntime";
inline constexpr const char* kTrainingRuntime = "TrainingRuntime";
inline constexpr const char* kTrainJob = "TrainJob";

/// True for TrainingRuntime and ClusterTrainingRuntime documents of our API group.
bool is_runtime_document(const Document& document);
bool is_trainjob_document(const Document& document);

struct Runtime {
  const Document* document = nullptr;
  std::string source;  ///< "the inputs", "--runtimes DIR" or "the embedded runtimes"
};

class RuntimeRegistry {
 public:
  RuntimeRegistry() = default;
  // Layers point into documents_; a copy would point into the original.
  RuntimeRegistry(const RuntimeRegistry&) = delete;
  RuntimeRegistry& operator=(const RuntimeRegistry&) = delete;

  /// Adds the runtimes among `documents` as one search layer. The registry keeps its own
  /// copies, so the caller's vector may go away. Earlier layers win.
  void add_layer(const std::string& source, const std::vector<Document>& documents);

  /// `name_space` is the TrainJob's; a TrainingRuntime must live in it (an empty namespace
  /// stands for the namespace the objects will be applied to).
  const Runtime* find(const std::string& kind, const std::string& name,
                      const std::string& name_space) const;
  /// "the inputs, --runtimes DIR, the embedded runtimes" for a not-found message.
  std::string searched_places() const;
  /// Every runtime of every layer, in layer order then by kind and name.
  std::vector<Runtime> all() const;

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name
  struct Layer {
    std::string source;
    std::map<Key, Runtime> runtimes;
  };
  std::deque<Document> documents_;
  std::vector<Layer> layers_;
};

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_RUNTIME_REGISTRY_H_
