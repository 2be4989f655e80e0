#include "local/plan/local_plan.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "local/plan/expand.h"
#include "local/plan/plan_checks.h"
#include "local/plan/plan_volumes.h"
#include "model/step_place.h"
#include "model/trainjob_steps.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// The variables that carry a policy's rendezvous port: on this machine, a free port.
/// (COORDINATOR_PORT: a JAXJob's, beside COORDINATOR_ADDRESS=J-worker-0.)
bool is_rendezvous_port(const std::string& name) {
  return name == "PET_MASTER_PORT" || name == "MASTER_PORT" || name == "DMLC_TRACKER_PORT" ||
         name == "COORDINATOR_PORT";
}

/// The variables that carry `host:port` of the rendezvous: both become this machine's.
bool is_rendezvous_address(const std::string& name) {
  return name == "JAX_COORDINATOR_ADDRESS";
}

bool is_job(const Json& object) {
  return string_member(object, "kind") == "Job" &&
         string_member(object, "apiVersion") == kBatchApiVersion;
}

bool is_initializer(const Json& job) {
  return is_initializer_step(
      string_member(json_member(json_member(job, "metadata"), "labels"), kAncestorLabel));
}

std::string namespace_of(const Json& object) {
  std::string name_space = string_member(json_member(object, "metadata"), "namespace");
  return name_space.empty() ? "default" : name_space;
}

/// The hostname a legacy kind's one-pod Job gives its pod (`hostname: J-master-0`); empty
/// for the Indexed Jobs of a TrainJob, whose pods are named by their index.
std::string own_hostname(const Json& job) {
  const Json& spec = json_member(job, "spec");
  if (string_member(spec, "completionMode") == "Indexed") return "";
  return string_member(json_member(json_member(spec, "template"), "spec"), "hostname");
}

/// `node-0`, `node-1-0` for the second Job of a replicated job, `worker-1` for a legacy
/// kind's pod: what `logs` prints.
std::string pod_label(const Json& job, int64_t index) {
  StepPlace place = step_place_of(job);
  if (place.step.empty()) place.step = string_member(json_member(job, "metadata"), "name");
  return node_label(place, index);
}

/// Every name another pod could use to reach a pod of these Jobs. `pod_of` gets, for each
/// name of a pod with a hostname of its own (a legacy kind's), that hostname.
std::vector<std::string> pod_host_names(const std::vector<const Json*>& jobs,
                                        std::map<std::string, std::string>* pod_of) {
  std::vector<std::string> hosts;
  for (const Json* job : jobs) {
    std::string name = string_member(json_member(*job, "metadata"), "name");
    std::string subdomain = string_member(
        json_member(json_member(json_member(*job, "spec"), "template"), "spec"), "subdomain");
    std::string in_namespace = "." + namespace_of(*job);
    const std::string suffixes[] = {"", in_namespace, in_namespace + ".svc",
                                    in_namespace + ".svc.cluster.local"};
    std::string own = own_hostname(*job);
    for (const std::string& suffix : suffixes) {
      if (own.empty()) break;
      // The headless Service named like the pod answers for it, as the operator's did.
      hosts.push_back(own + suffix);
      (*pod_of)[own + suffix] = own;
      if (subdomain.empty()) continue;
      std::string in_subdomain = own;
      in_subdomain.append(".").append(subdomain).append(suffix);
      hosts.push_back(in_subdomain);
      (*pod_of)[in_subdomain] = own;
    }
    if (subdomain.empty()) continue;
    for (int64_t i = 0; own.empty() && i < job_pod_count(*job); ++i) {
      std::string host = name;
      host.append("-").append(std::to_string(i)).append(".").append(subdomain);
      for (const std::string& suffix : suffixes)
        hosts.push_back(host + suffix);
    }
    // The headless Service's own name resolves to every pod; only its qualified forms
    // are rewritten, as a bare name could be any word.
    hosts.push_back(subdomain + suffixes[2]);
    hosts.push_back(subdomain + suffixes[3]);
  }
  return hosts;
}

bool is_host_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
}

using Address = std::pair<std::string, std::string>;  ///< (pod hostname, port)

/// The port of `name:port` at `text[at]`, or "" when no port stands there on its own.
std::string port_after(const std::string& text, size_t at) {
  if (at >= text.size() || text[at] != ':') return "";
  size_t end = at + 1;
  while (end < text.size() && end - at <= 5 && std::isdigit(static_cast<unsigned char>(text[end])))
    ++end;
  if (end == at + 1 || (end < text.size() && is_host_char(text[end]))) return "";
  return text.substr(at + 1, end - at - 1);
}

/// Each `name:port` in `text` where `name` is one of `pod_of`'s, as (its pod, port).
void find_addresses(const std::string& text, const std::map<std::string, std::string>& pod_of,
                    std::set<Address>* found) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && is_host_char(text[i - 1])) continue;
    for (const auto& [name, hostname] : pod_of) {
      if (text.compare(i, name.size(), name) != 0) continue;
      std::string port = port_after(text, i + name.size());
      if (!port.empty()) found->emplace(hostname, port);
    }
  }
}

/// The `pod:port` addresses the Jobs' env values name, each with a local port of its own:
/// TF_CONFIG's `J-worker-0:2222` and `J-worker-1:2222` would collide on loopback.
std::map<Address, std::string> local_addresses(const std::vector<const Json*>& jobs,
                                               const std::map<std::string, std::string>& pod_of,
                                               const LocalOptions& options) {
  std::set<Address> found;
  for (const Json* job : jobs) {
    if (pod_of.empty()) break;
    const Json& spec = json_member(json_member(json_member(*job, "spec"), "template"), "spec");
    for (const char* key : {"initContainers", "containers"}) {
      const Json& containers = json_member(spec, key);
      if (!containers.is_array()) continue;
      for (const Json& container : containers) {
        const Json& env = json_member(container, "env");
        if (!env.is_array()) continue;
        for (const Json& entry : env)
          find_addresses(string_member(entry, "value"), pod_of, &found);
      }
    }
  }
  std::map<Address, std::string> out;
  for (const Address& address : found)
    out[address] = options.free_port ? options.free_port() : address.second;
  return out;
}

class PodPlanner {
 public:
  PodPlanner(const ConfigMapIndex& config_maps, const LocalOptions& options,
             const std::vector<const Json*>& jobs)
      : config_maps_(config_maps), options_(options), hosts_(pod_host_names(jobs, &pod_of_)) {
    addresses_ = local_addresses(jobs, pod_of_, options_);
    for (const auto& [name, pod] : pod_of_) {
      for (const auto& [address, port] : addresses_) {
        if (address.first == pod)
          address_rewrites_.emplace_back(name + ":" + address.second, options_.ip + ":" + port);
      }
    }
  }

  const std::vector<std::string>& rewrites() const { return rewrites_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

  bool plan(const Json& job, int64_t index, LocalPod* pod, std::string* error) {
    const Json& template_ = json_member(json_member(job, "spec"), "template");
    const Json& spec = json_member(template_, "spec");
    pod->job = string_member(json_member(job, "metadata"), "name");
    pod->name_space = namespace_of(job);
    pod->index = index;
    std::string own = own_hostname(job);
    pod->hostname = own.empty() ? pod->job + "-" + std::to_string(index) : own;
    pod->name = pod->hostname + "-local";
    pod->label = pod_label(job, index);
    pod->step = step_place_of(job).step;
    PodFacts facts = pod_facts(template_, *pod, own.empty());
    pod_rewrites_ = address_rewrites_;
    // The pod's own address as the others know it: its `$(POD_IP):port` (a PaddleJob
    // master's PADDLE_MASTER) is where they look for it.
    for (const auto& [address, port] : addresses_) {
      if (address.first == pod->hostname)
        pod_rewrites_.emplace_back(options_.ip + ":" + address.second, options_.ip + ":" + port);
    }
    std::string problem = single_name_problem(pod->name);
    if (!problem.empty()) {
      *error = "pod " + quoted_value(pod->name) + ": its name cannot be a directory: " + problem;
      return false;
    }
    if (!plan_pod_volumes(spec, config_maps_, options_, pod, error)) return false;
    for (const auto& [key, list] : {std::pair{"initContainers", &pod->init_containers},
                                    std::pair{"containers", &pod->containers}}) {
      const Json& containers = json_member(spec, key);
      if (!containers.is_array()) continue;
      for (const Json& container : containers) {
        LocalContainer planned;
        if (!plan_container(container, facts, *pod, &planned, error)) {
          *error = "pod " + pod->name + ", container " + string_member(container, "name") + ": " +
                   *error;
          return false;
        }
        list->push_back(std::move(planned));
      }
    }
    plan_read_only(spec, pod, &warnings_);
    return true;
  }

 private:
  PodFacts pod_facts(const Json& template_, const LocalPod& pod, bool indexed) const {
    PodFacts facts;
    facts.name = pod.name;
    facts.name_space = pod.name_space;
    facts.node_name = options_.node_name;
    facts.ip = options_.ip;
    const Json& metadata = json_member(template_, "metadata");
    if (json_member(metadata, "labels").is_object()) facts.labels = json_member(metadata, "labels");
    if (json_member(metadata, "annotations").is_object()) {
      facts.annotations = json_member(metadata, "annotations");
    }
    // What the Job controller adds to the pods of an Indexed Job.
    std::string index = std::to_string(pod.index);
    if (indexed) {
      facts.annotations[kCompletionIndexAnnotation] = index;
      facts.labels[kCompletionIndexAnnotation] = index;
    }
    facts.labels[kJobNameLabel] = pod.job;
    facts.labels["job-name"] = pod.job;
    const Json& account = json_member(json_member(template_, "spec"), "serviceAccountName");
    if (account.is_string()) facts.service_account = account.get<std::string>();
    return facts;
  }

  /// `host:port` with the port the local run gives the rendezvous.
  std::string with_port(const std::string& address) const {
    size_t colon = address.rfind(':');
    return colon == std::string::npos ? address
                                      : address.substr(0, colon + 1) + options_.master_port;
  }

  bool plan_container(const Json& container, const PodFacts& facts, const LocalPod& pod,
                      LocalContainer* out, std::string* error) {
    out->name = string_member(container, "name");
    out->image = string_member(container, "image");
    std::vector<LocalMount> mounts;
    if (!plan_container_mounts(container, pod, &mounts, error)) return false;
    if (!resolve_container_env(container, facts, config_maps_, &out->env, error)) return false;
    for (auto& [name, value] : out->env) {
      std::string local =
          is_rendezvous_port(name)
              ? options_.master_port
              : rewrite_paths(rewrite_hosts(local_host(value), hosts_, options_.ip), mounts);
      if (is_rendezvous_address(name) && local != value) local = with_port(local);
      if (local != value) note(name + " " + value + " -> " + local);  // NOLINT(performance-*)
      value = std::move(local);
    }
    if (std::none_of(out->env.begin(), out->env.end(),
                     [](const auto& v) { return v.first == "HOSTNAME"; })) {
      out->env.emplace_back("HOSTNAME", pod.hostname);
    }
    auto lookup = [&](std::string_view name) -> const std::string* {
      for (auto it = out->env.rbegin(); it != out->env.rend(); ++it) {
        if (it->first == name) return &it->second;
      }
      return nullptr;
    };
    for (const char* key : {"command", "args"}) {
      const Json& words = json_member(container, key);
      if (!words.is_array()) continue;
      for (const Json& word : words) {
        std::string expanded =
            expand_references(word.is_string() ? word.get<std::string>() : "", lookup);
        out->argv.push_back(
            rewrite_paths(rewrite_hosts(local_host(expanded), hosts_, options_.ip), mounts));
      }
    }
    if (!json_member(container, "command").is_array()) {
      *error = "no command: the entrypoint of image \"" + out->image +
               "\" is not known on this machine; set command in the runtime or TrainJob";
      return false;
    }
    out->working_dir = rewrite_paths(string_member(container, "workingDir"), mounts);
    out->path_prefix = image_dir(out->image);
    return true;
  }

  /// `pod:port` addresses with the local port each has here (before the bare host names).
  std::string local_host(const std::string& text) const {
    if (addresses_.empty()) return text;
    return rewrite_addresses(text, pod_rewrites_);
  }

  /// Says once what was changed for this machine.
  void note(const std::string& rewrite) {
    if (std::find(rewrites_.begin(), rewrites_.end(), rewrite) == rewrites_.end())
      rewrites_.push_back(rewrite);
  }

  std::string image_dir(const std::string& image) const {
    auto exact = options_.image_dirs.find(image);
    if (exact != options_.image_dirs.end()) return exact->second;
    auto by_repository = options_.image_dirs.find(image_repository(image));
    return by_repository != options_.image_dirs.end() ? by_repository->second : std::string();
  }

  const ConfigMapIndex& config_maps_;
  const LocalOptions& options_;
  std::map<std::string, std::string> pod_of_;  ///< a name of a pod -> its hostname
  std::vector<std::string> hosts_;
  std::map<Address, std::string> addresses_;  ///< (pod, port) -> the local port
  std::vector<std::pair<std::string, std::string>> address_rewrites_;
  /// address_rewrites_ and the own addresses of the pod planned now.
  std::vector<std::pair<std::string, std::string>> pod_rewrites_;
  std::vector<std::string> rewrites_;
  std::vector<std::string> warnings_;
};

}  // namespace

int64_t local_pod_count(const std::vector<Json>& objects) {
  int64_t pods = 0;
  for (const Json& object : objects) {
    if (is_job(object)) pods = add_pods(pods, job_pod_count(object));
  }
  return pods;
}

bool plan_local_run(const std::vector<Json>& objects, const ConfigMapIndex& config_maps,
                    const LocalOptions& options, LocalPlan* plan, std::string* error) {
  std::vector<const Json*> initializers;
  std::vector<const Json*> others;
  for (const Json& object : objects) {
    if (is_job(object)) (is_initializer(object) ? initializers : others).push_back(&object);
  }
  std::vector<const Json*> jobs = initializers;
  jobs.insert(jobs.end(), others.begin(), others.end());
  if (jobs.empty()) {
    *error = "no Jobs to run: the inputs hold no TrainJob";
    return false;
  }
  // Counted before anything proportional to the pods is built: `numNodes: 2147483647`
  // must be refused here, not run out of memory listing host names.
  *error = pod_cap_problem(local_pod_count(objects), options.max_pods);
  if (!error->empty()) return false;
  PodPlanner planner(config_maps, options, jobs);
  plan->stages.clear();
  for (const std::vector<const Json*>* stage : {&initializers, &others}) {
    if (stage->empty()) continue;
    std::vector<LocalPod> pods;
    for (const Json* job : *stage) {
      for (int64_t i = 0; i < job_pod_count(*job); ++i) {
        LocalPod pod;
        if (!planner.plan(*job, i, &pod, error)) return false;
        pods.push_back(std::move(pod));
      }
    }
    plan->stages.push_back(std::move(pods));
  }
  plan->rule = local_success_rule(objects);
  plan->rewrites = planner.rewrites();
  plan->warnings = planner.warnings();
  return true;
}

}  // namespace trainjob
