// Where `spec.runtimeRef` finds its runtime: the inputs, then `--runtimes DIR`, then (for
// submit) the cluster's, then the runtimes embedded in the binary.
#ifndef TRAINJOB_MODEL_RUNTIME_REGISTRY_H_
#define TRAINJOB_MODEL_RUNTIME_REGISTRY_H_

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "load/document.h"
#include "model/dialect.h"

namespace trainjob {

inline constexpr const char* kClusterTrainingRuntime = "ClusterTrainingRuntime";
inline constexpr const char* kTrainingRuntime = "TrainingRuntime";
inline constexpr const char* kTrainJob = "TrainJob";

/// True for TrainingRuntime and ClusterTrainingRuntime documents of our API group.
bool is_runtime_document(const Document& document);
bool is_trainjob_document(const Document& document);
/// True for an OptimizationJob of our API group (a sweep of TrainJobs, lib/optimize).
bool is_optimization_job_document(const Document& document);

struct Runtime {
  const Document* document = nullptr;
  std::string source;  ///< "the inputs", "--runtimes DIR" or "the embedded runtimes"
  /// The Trainer releases whose TrainJobs this runtime serves: every one for the runtimes
  /// a user gives; for the built-in ones, the releases that ship them in this form.
  DialectRange releases;
};

class RuntimeRegistry {
 public:
  RuntimeRegistry() = default;
  // Layers point into documents_; a copy would point into the original.
  RuntimeRegistry(const RuntimeRegistry&) = delete;
  RuntimeRegistry& operator=(const RuntimeRegistry&) = delete;

  /// Adds the runtimes among `documents` as one search layer. The registry keeps its own
  /// copies, so the caller's vector may go away. Earlier layers win.
  ///
  /// `shipped` marks runtimes as Kubeflow Trainer releases ship them (the embedded ones):
  /// each then serves those of the releases that know its policy, less the releases an
  /// earlier layer's runtime of the same name serves. Without it, every release.
  /// A TrainingRuntime without metadata.namespace lives in `default_namespace`, where
  /// `kubectl apply -n` puts it (empty: the namespace the objects will be applied to).
  void add_layer(const std::string& source, const std::vector<Document>& documents,
                 std::optional<DialectRange> shipped = std::nullopt,
                 const std::string& default_namespace = "");

  /// The runtime a TrainJob of Trainer `dialect` compiles against: the first layer's that
  /// serves that release. `name_space` is the TrainJob's; a TrainingRuntime must live in it
  /// (an empty namespace stands for the namespace the objects will be applied to).
  const Runtime* find(const std::string& kind, const std::string& name,
                      const std::string& name_space, Dialect dialect) const;
  /// The first runtime of that name whatever release it serves, to say why `find` found
  /// none.
  const Runtime* find_any_release(const std::string& kind, const std::string& name,
                                  const std::string& name_space) const;
  /// "the inputs, --runtimes DIR, the embedded runtimes" for a not-found message.
  std::string searched_places() const;
  /// Every runtime of every layer, in layer order then by kind and name.
  std::vector<Runtime> all() const;

  /// Names of ClusterTrainingRuntimes that exist without being loaded (the embedded ones a
  /// render leaves unparsed), offered by `names` for "did you mean".
  void note_cluster_runtime_names(const std::vector<std::string>& names);
  /// Every name a runtimeRef of `kind` could use from `name_space`, loaded or noted.
  std::vector<std::string> names(const std::string& kind, const std::string& name_space) const;

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name
  struct Layer {
    std::string source;
    std::map<Key, Runtime> runtimes;
  };
  std::deque<Document> documents_;
  std::vector<Layer> layers_;
  std::vector<std::string> noted_names_;

  /// `releases` less what the earlier layers' runtimes under `key` serve.
  DialectRange unserved(const Key& key, DialectRange releases) const;
};

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_RUNTIME_REGISTRY_H_
