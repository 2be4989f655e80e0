#include "complete/value_kinds.h"

#include <map>

#include "diag/diagnostic.h"
#include "model/dialect.h"
#include "model/embedded_runtimes.h"
#include "model/runtime_policy.h"
#include "model/runtime_registry.h"
#include "util/text.h"

namespace trainjob {
namespace {

std::vector<Candidate> manifest_extensions() {
  // What -f reads in a directory; files given by name may have any extension, but the
  // shell then offers the ones a user most likely means.
  return {{"yaml", ""}, {"yml", ""}, {"json", ""}};
}

std::vector<Candidate> trainer_releases() {
  std::vector<Candidate> releases;
  for (int d = static_cast<int>(Dialect::kV2_0); d <= static_cast<int>(kDefaultDialect); ++d) {
    const DialectInfo& info = dialect_info(static_cast<Dialect>(d));
    releases.push_back({info.version, std::string("Kubeflow Trainer ") + info.version});
  }
  return releases;
}

std::vector<Candidate> releases_or_trainjob() {
  std::vector<Candidate> releases = trainer_releases();
  releases.push_back(
      {"trainjob", "convert only Training Operator v1 kinds, to the default release"});
  return releases;
}

struct ValueKind {
  const char* type;
  unsigned directive;
  std::vector<Candidate> (*candidates)();  ///< nullptr: none offline
  bool from_cluster;
};

// One row per type name the commands declare; see value_kinds.h.
const ValueKind kValueKinds[] = {
    {"PATH", kDirectiveFilterFileExt, manifest_extensions, false},
    {"FILE", kDirectiveDefault, nullptr, false},
    {"DIR", kDirectiveFilterDirs, nullptr, false},
    {"VERSION", kDirectiveNoFileComp, trainer_releases, false},
    {"RELEASE", kDirectiveNoFileComp, releases_or_trainjob, false},
    {"RUNTIME", kDirectiveNoFileComp, embedded_runtime_candidates, false},
    {"TRAINJOB", kDirectiveNoFileComp, nullptr, true},
    {"NAMESPACE", kDirectiveNoFileComp, nullptr, true},
    {"CONTEXT", kDirectiveNoFileComp, nullptr, true},
};

void keep_prefixed(const std::string& prefix, std::vector<Candidate>* candidates) {
  std::vector<Candidate> kept;
  for (Candidate& candidate : *candidates)
    if (starts_with(candidate.value, prefix)) kept.push_back(std::move(candidate));
  *candidates = std::move(kept);
}

}  // namespace

std::vector<Candidate> embedded_runtime_candidates() {
  RuntimeRegistry registry;
  Diagnostics diagnostics;
  add_embedded_runtimes(&registry, &diagnostics);
  // A runtime has one form per Trainer release range; the name is offered once.
  std::map<std::string, std::string> policies;
  for (const Runtime& runtime : registry.all())
    policies.emplace(runtime.document->name(), runtime_policy(*runtime.document));
  std::vector<Candidate> candidates;
  candidates.reserve(policies.size());
  for (const auto& [name, policy] : policies)
    candidates.push_back({name, policy.empty() ? "" : policy + " runtime"});
  return candidates;
}

Completion complete_value(const std::string& value_type, const std::vector<std::string>& choices,
                          const std::string& prefix, const GivenFlags& given,
                          const ClusterLookup& cluster) {
  Completion completion;
  if (!choices.empty()) {
    for (const std::string& choice : choices) {
      // `jsonpath=TEMPLATE`: the word to type is `jsonpath=`, the template the user's.
      size_t placeholder = choice.find('=');
      if (placeholder == std::string::npos)
        completion.candidates.push_back({choice, ""});
      else
        completion.candidates.push_back({choice.substr(0, placeholder + 1), choice});
    }
    keep_prefixed(prefix, &completion.candidates);
    return completion;
  }
  for (const ValueKind& kind : kValueKinds) {
    if (value_type != kind.type) continue;
    completion.directive = kind.directive;
    if (kind.candidates != nullptr) completion.candidates = kind.candidates();
    if (kind.from_cluster && cluster) {
      for (std::string& name : cluster(value_type, given))
        completion.candidates.push_back({std::move(name), ""});
    }
    // File extensions are not words to complete: the shell matches files by them.
    if (kind.directive != kDirectiveFilterFileExt) keep_prefixed(prefix, &completion.candidates);
    return completion;
  }
  return completion;
}

}  // namespace trainjob
