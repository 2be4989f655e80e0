#include "status/job_not_found.h"

#include <set>

#include "kube/objects.h"
#include "kube/resources.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

std::string not_found_head(const std::string& kind_word, const std::string& name,
                           const std::string& name_space) {
  return kind_word + " \"" + name + "\" not found in namespace \"" + name_space + "\"";
}

/// kubectl's word for a kind typed as TYPE: `pytorchjob`.
std::string kind_word_of(const ManagedKind& kind) {
  return kind.plural.substr(0, kind.plural.size() - 1);
}

}  // namespace

JobNotFound::JobNotFound(std::string name_space, std::string name, std::string detail,
                         std::string kind_word, const char* label)
    : KubeError(not_found_head(kind_word, name, name_space) + detail, 404, "NotFound"),
      name_space_(std::move(name_space)),
      name_(std::move(name)),
      detail_(std::move(detail)),
      kind_word_(std::move(kind_word)),
      label_(label != nullptr ? label : kTrainJobNameLabel) {}

std::vector<std::string> namespaces_holding(KubeClient* client, const std::string& label,
                                            const std::string& name, const std::string& except) {
  std::set<std::string> found;
  std::string selector = url_escape(label + "=" + name);
  try {
    for (const ResourceType* type : {&job_type(), &service_type()}) {
      for (const Json& object : list_objects(client, *type, "", selector).items) {
        std::string name_space = string_member(member_or_empty(object, "metadata"), "namespace");
        if (!name_space.empty() && name_space != except) found.insert(name_space);
      }
    }
  } catch (const KubeError&) {
    return {};  // not allowed to list the cluster, or it failed: no hint, the error stands
  }
  return {found.begin(), found.end()};
}

std::string job_not_found_message(const JobNotFound& error, const ManagedKind* kind,
                                  const std::vector<std::string>& elsewhere) {
  std::string word = kind != nullptr ? kind_word_of(*kind) : error.kind_word();
  std::string message = not_found_head(word, error.name(), error.name_space()) + error.detail();
  if (elsewhere.empty()) return message;
  std::string places;
  for (const std::string& name_space : elsewhere)
    places += (places.empty() ? "" : ", ") + name_space;
  return message + "; found in " + places + " (use -n " + elsewhere.front() + ")";
}

}  // namespace trainjob
