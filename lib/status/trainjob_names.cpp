#include "status/trainjob_names.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "kube/curl_transport.h"
#include "kube/environment.h"
#include "kube/http.h"
#include "kube/kubeconfig.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "legacy/legacy_kinds.h"
#include "model/vocabulary.h"
#include "util/steady_condition.h"
#include "util/suggest.h"

namespace trainjob {
namespace {

/// What the lookup thread hands back; shared so that it outlives a caller that gave up.
struct Shared {
  std::mutex mutex;
  SteadyCondition done_changed;
  bool done = false;
  std::vector<std::string> names;
};

/// Asks a cluster for names over a connection of its own.
using NameQuery = std::function<std::vector<std::string>(KubeClient* client)>;

std::vector<std::string> names_over_new_connection(const ConnectionFlags& flags,
                                                   const NameQuery& query) {
  RealEnvironment env;
  RealClock clock;
  CurlTransport transport;
  Kubeconfig config = load_kubeconfig(flags.kubeconfig, env);
  KubeClient client(resolve_rest_config(config, flags, env), &transport, &env, &clock);
  return query(&client);
}

NameLookup lookup_names(const ConnectionFlags& flags, double deadline_seconds, NameQuery query) {
  auto shared = std::make_shared<Shared>();
  ConnectionFlags bounded = flags;
  // Each request gets the whole budget at most; the wait below bounds them all together.
  bounded.request_timeout = std::to_string(static_cast<int>(deadline_seconds + 1)) + "s";
  bounded.verbosity = 0;
  std::thread([shared, bounded, query = std::move(query)] {
    std::vector<std::string> names;
    try {
      names = names_over_new_connection(bounded, query);
    } catch (const std::exception&) {
      names.clear();  // no cluster, no credentials, no permission: nothing to offer
    }
    std::lock_guard<std::mutex> lock(shared->mutex);
    shared->names = std::move(names);
    shared->done = true;
    shared->done_changed.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(shared->mutex);
  NameLookup lookup;
  lookup.timed_out =
      !shared->done_changed.wait_for(lock, deadline_seconds, [&] { return shared->done; });
  if (!lookup.timed_out) lookup.names = shared->names;
  return lookup;
}

std::string lower_word(const std::string& text) {
  std::string out;
  for (char c : text)
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

ManagedKind managed_kind_of(const std::string& api_version, const std::string& kind) {
  std::string group = api_version.substr(0, api_version.find('/'));
  return ManagedKind{kind, group, lower_word(kind) + "s"};
}

/// kubectl's `RESOURCE.GROUP` and `RESOURCE.VERSION.GROUP` (a version such as v1 or
/// v1alpha1): `rest` is what follows the first dot.
bool names_group(const std::string& rest, const std::string& group) {
  if (rest == group) return true;
  if (rest.size() <= group.size() + 1) return false;
  size_t dot = rest.size() - group.size() - 1;
  bool version = rest[0] == 'v' && std::isdigit(static_cast<unsigned char>(rest[1]));
  return version && rest.compare(dot + 1, std::string::npos, group) == 0 && rest[dot] == '.' &&
         rest.find('.') == dot;
}

/// Whether a TYPE word names `kind`: plural, singular or kind, then maybe `.GROUP` or
/// `.VERSION.GROUP`, in any case.
bool word_names_kind(const std::string& word, const ManagedKind& kind) {
  std::string lower = lower_word(word);
  size_t dot = lower.find('.');
  std::string head = lower.substr(0, dot);
  std::string rest = dot == std::string::npos ? "" : lower.substr(dot + 1);
  bool named = head == kind.plural || head == lower_word(kind.kind);
  return named && (dot == std::string::npos || names_group(rest, kind.group));
}

std::string unknown_kind_error(const std::string& word, bool sweeps) {
  std::vector<std::string> words;
  for (const ManagedKind& kind : managed_kinds())
    words.push_back(lower_word(kind.kind));
  if (sweeps) words.push_back(lower_word(optimization_job_kind().kind));
  std::vector<std::string_view> candidates(words.begin(), words.end());
  std::string hint = closest_match(lower_word(word), candidates);
  return "resource type \"" + word + "\" is not one kubectl trainjob manages" +
         (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)") + "; it accepts " +
         managed_kind_words() + (sweeps ? ", optimizationjob" : "") +
         " (singular, plural or kind), as TYPE/NAME, TYPE NAME or NAME";
}

}  // namespace

const std::vector<ManagedKind>& managed_kinds() {
  static const std::vector<ManagedKind> kinds = [] {
    std::vector<ManagedKind> out = {managed_kind_of(kTrainerApiVersion, "TrainJob")};
    // Every kind of legacy_kinds' table; a kind served at two versions (MPIJob) once, at
    // the first the table lists, since `kubectl get` finds it by kind alone.
    for (const LegacyKind* legacy : all_legacy_kinds()) {
      ManagedKind kind = managed_kind_of(legacy->api_version, legacy->kind);
      bool listed = std::any_of(out.begin(), out.end(),
                                [&](const ManagedKind& other) { return other.kind == kind.kind; });
      if (!listed) out.push_back(kind);
    }
    return out;
  }();
  return kinds;
}

const ManagedKind* find_managed_kind(const std::string& word) {
  for (const ManagedKind& kind : managed_kinds())
    if (word_names_kind(word, kind)) return &kind;
  return nullptr;
}

const ManagedKind& optimization_job_kind() {
  static const ManagedKind kind = managed_kind_of(kTrainerApiVersion, kOptimizationJobKind);
  return kind;
}

std::string managed_kind_words() {
  std::string out;
  for (const ManagedKind& kind : managed_kinds())
    out += (out.empty() ? "" : ", ") + lower_word(kind.kind);
  return out;
}

std::optional<TrainJobTarget> parse_trainjob_target(const std::vector<std::string>& words,
                                                    std::string* error, bool sweeps) {
  std::string type;
  TrainJobTarget target;
  if (words.size() == 2) {
    type = words[0];
    target.name = words[1];
    if (target.name.find('/') != std::string::npos || type.find('/') != std::string::npos) {
      *error =
          "there is no need to give the resource type as a separate argument when "
          "passing TYPE/NAME: write TYPE/NAME alone or TYPE NAME, found \"" +
          words[0] + " " + words[1] + "\"";
      return std::nullopt;
    }
  } else if (words.size() == 1) {
    size_t slash = words[0].find('/');
    target.name = slash == std::string::npos ? words[0] : words[0].substr(slash + 1);
    if (slash != std::string::npos) type = words[0].substr(0, slash);
    if (slash != std::string::npos &&
        (type.empty() || target.name.empty() || target.name.find('/') != std::string::npos)) {
      *error = "expected TYPE/NAME (trainjob/NAME), found \"" + words[0] + "\"";
      return std::nullopt;
    }
  } else {
    *error = "expected NAME, TYPE/NAME or TYPE NAME, found " + std::to_string(words.size()) +
             " arguments";
    return std::nullopt;
  }
  if (type.empty()) return target;
  target.kind = find_managed_kind(type);
  if (target.kind == nullptr && sweeps && word_names_kind(type, optimization_job_kind()))
    target.kind = &optimization_job_kind();
  if (target.kind == nullptr) {
    *error = unknown_kind_error(type, sweeps);
    return std::nullopt;
  }
  return target;
}

std::optional<std::vector<TrainJobTarget>> parse_trainjob_targets(
    const std::vector<std::string>& words, std::string* error, bool sweeps) {
  std::vector<TrainJobTarget> targets;
  bool slashes = std::any_of(words.begin(), words.end(), [](const std::string& word) {
    return word.find('/') != std::string::npos;
  });
  if (words.size() < 2 || slashes) {
    // NAME, or TYPE/NAME each: kubectl refuses a TYPE word beside TYPE/NAME.
    for (const std::string& word : words) {
      std::optional<TrainJobTarget> target = parse_trainjob_target({word}, error, sweeps);
      if (target && target->kind == nullptr && slashes) {
        *error =
            "there is no need to give the resource type as a separate argument when "
            "passing TYPE/NAME: write each as TYPE/NAME, or TYPE NAME..., found \"" +
            word + "\"";
        target.reset();
      }
      if (!target) return std::nullopt;
      targets.push_back(*target);
    }
    return targets;
  }
  // TYPE NAME...; or NAME NAME... when the first word names no kind (nor comes close to one).
  std::optional<TrainJobTarget> typed = parse_trainjob_target({words[0], words[1]}, error, sweeps);
  bool typo = !typed && error->find("did you mean") != std::string::npos;
  if (typo) return std::nullopt;
  size_t first = typed ? 1 : 0;
  for (size_t i = first; i < words.size(); ++i)
    targets.push_back({words[i], typed ? typed->kind : nullptr});
  error->clear();
  return targets;
}

std::vector<std::string> submitted_label_values(KubeClient* client, const std::string& name_space,
                                                const char* label) {
  std::string selector = url_escape(std::string(kManagedByLabel) + "=" + kManagedByValue);
  std::set<std::string> names;
  for (const ResourceType* type : {&job_type(), &service_type()}) {
    for (const Json& object : list_objects(client, *type, name_space, selector).items) {
      std::string name = label_of(object, label);
      if (!name.empty()) names.insert(name);
    }
  }
  return {names.begin(), names.end()};
}

std::vector<std::string> submitted_trainjob_names(KubeClient* client,
                                                  const std::string& name_space) {
  return submitted_label_values(client, name_space, kTrainJobNameLabel);
}

NameLookup lookup_trainjob_names(const ConnectionFlags& flags, double deadline_seconds) {
  return lookup_names(flags, deadline_seconds, [](KubeClient* client) {
    return submitted_trainjob_names(client, client->config().name_space);
  });
}

NameLookup lookup_optimization_job_names(const ConnectionFlags& flags, double deadline_seconds) {
  return lookup_names(flags, deadline_seconds, [](KubeClient* client) {
    return submitted_label_values(client, client->config().name_space, kOptimizationJobNameLabel);
  });
}

NameLookup lookup_namespace_names(const ConnectionFlags& flags, double deadline_seconds) {
  return lookup_names(flags, deadline_seconds, [](KubeClient* client) {
    std::set<std::string> names;
    for (const Json& object : list_objects(client, resource_type("v1", "Namespace"), "", "").items)
      names.insert(object.value("metadata", Json::object()).value("name", ""));
    names.erase("");
    return std::vector<std::string>(names.begin(), names.end());
  });
}

std::vector<std::string> kubeconfig_context_names(const ConnectionFlags& flags) {
  try {
    RealEnvironment env;
    Kubeconfig config = load_kubeconfig(flags.kubeconfig, env);
    std::vector<std::string> names;
    for (const auto& entry : config.contexts)
      names.push_back(entry.first);
    return names;
  } catch (const std::exception&) {
    return {};  // an unreadable kubeconfig completes nothing, silently
  }
}

}  // namespace trainjob
