#include "cluster/trainjob_names.h"

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
#include "util/steady_condition.h"

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

}  // namespace

std::vector<std::string> submitted_trainjob_names(KubeClient* client,
                                                  const std::string& name_space) {
  std::string selector = url_escape(std::string(kManagedByLabel) + "=" + kManagedByValue);
  std::set<std::string> names;
  for (const ResourceType* type : {&job_type(), &service_type()}) {
    for (const Json& object : list_objects(client, *type, name_space, selector).items) {
      std::string name = label_of(object, kTrainJobNameLabel);
      if (!name.empty()) names.insert(name);
    }
  }
  return {names.begin(), names.end()};
}

NameLookup lookup_trainjob_names(const ConnectionFlags& flags, double deadline_seconds) {
  return lookup_names(flags, deadline_seconds, [](KubeClient* client) {
    return submitted_trainjob_names(client, client->config().name_space);
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
