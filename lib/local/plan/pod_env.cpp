#include "local/plan/pod_env.h"

#include "k8s/quantity.h"
#include "local/plan/expand.h"

namespace trainjob {
namespace {

bool optional_ref(const Json& ref) {
  return ref.value("optional", false) == true;
}

/// `metadata.labels['key']` -> the key inside the brackets and quotes.
bool subscript(const std::string& path, const std::string& prefix, std::string* key) {
  if (path.size() < prefix.size() + 4 || path.compare(0, prefix.size(), prefix) != 0) return false;
  std::string rest = path.substr(prefix.size());
  if (rest.front() != '[' || rest.back() != ']') return false;
  rest = rest.substr(1, rest.size() - 2);
  if (rest.size() < 2 || rest.front() != rest.back() ||
      (rest.front() != '\'' && rest.front() != '"'))
    return false;
  *key = rest.substr(1, rest.size() - 2);
  return true;
}

bool map_value(const Json& map, const std::string& key, std::string* value) {
  auto it = map.find(key);
  if (it == map.end() || !it->is_string()) return false;
  *value = it->get<std::string>();
  return true;
}

/// `resourceFieldRef`: the container's own limit or request, divided by the divisor and
/// rounded up, as the kubelet computes it. An unset limit would be the node's capacity,
/// which means nothing on this machine.
bool resource_value(const Json& container, const Json& ref, std::string* value,
                    std::string* problem) {
  std::string resource = string_member(ref, "resource");
  size_t dot = resource.find('.');
  if (dot == std::string::npos) {
    *problem = "resourceFieldRef.resource \"" + resource + "\" is not limits.* or requests.*";
    return false;
  }
  const Json* set = nullptr;
  auto resources = container.find("resources");
  if (resources != container.end() && resources->is_object()) {
    auto group = resources->find(resource.substr(0, dot));
    if (group != resources->end() && group->is_object()) {
      auto it = group->find(resource.substr(dot + 1));
      if (it != group->end()) set = &*it;
    }
  }
  if (set == nullptr) {
    *problem = "resourceFieldRef " + resource +
               " is not set on the container; on a cluster it would be the node's capacity";
    return false;
  }
  std::optional<Quantity> amount =
      parse_quantity(set->is_string() ? set->get<std::string>() : set->dump(), nullptr);
  auto divisor_text = ref.find("divisor");
  std::optional<Quantity> divisor =
      parse_quantity(divisor_text == ref.end()   ? "1"
                     : divisor_text->is_string() ? divisor_text->get<std::string>()
                                                 : divisor_text->dump(),
                     nullptr);
  if (!amount || !divisor || quantity_is_zero(*divisor)) {
    *problem = "resourceFieldRef " + resource + " or its divisor is not a quantity";
    return false;
  }
  __int128 whole = amount->nanos / divisor->nanos;
  if (amount->nanos % divisor->nanos != 0 && amount->nanos > 0) ++whole;
  *value = std::to_string(static_cast<int64_t>(whole));
  return true;
}

class EnvBuilder {
 public:
  EnvBuilder(const Json& container, const PodFacts& pod, const ConfigMapIndex& config_maps)
      : container_(container), pod_(pod), config_maps_(config_maps) {}

  bool build(EnvList* out, std::string* error) {
    auto from = container_.find("envFrom");
    if (from != container_.end() && from->is_array()) {
      for (const Json& source : *from) {
        if (!add_source(source, error)) return false;
      }
    }
    auto env = container_.find("env");
    if (env != container_.end() && env->is_array()) {
      for (const Json& variable : *env) {
        if (!add_variable(variable, error)) return false;
      }
    }
    *out = std::move(list_);
    return true;
  }

 private:
  void set(const std::string& name, std::string value) {
    auto [it, added] = index_.emplace(name, list_.size());
    if (added) {
      list_.emplace_back(name, std::move(value));
    } else {
      list_[it->second].second = std::move(value);
    }
  }

  const std::string* lookup(std::string_view name) const {
    auto it = index_.find(std::string(name));
    return it == index_.end() ? nullptr : &list_[it->second].second;
  }

  const Json* config_map(const std::string& name) const {
    auto it = config_maps_.find(pod_.name_space + "/" + name);
    return it == config_maps_.end() ? nullptr : it->second;
  }

  bool add_source(const Json& source, std::string* error) {
    std::string prefix = string_member(source, "prefix");
    if (auto ref = source.find("configMapRef"); ref != source.end()) {
      std::string name = string_member(*ref, "name");
      const Json* map = config_map(name);
      if (map == nullptr) {
        if (optional_ref(*ref)) return true;
        *error = "envFrom: ConfigMap \"" + name +
                 "\" is not among the inputs (add it with -f to run locally)";
        return false;
      }
      Json data = map->value("data", Json::object());
      for (const auto& entry : data.items()) {
        if (entry.value().is_string()) set(prefix + entry.key(), entry.value().get<std::string>());
      }
      return true;
    }
    if (auto ref = source.find("secretRef"); ref != source.end()) {
      if (optional_ref(*ref)) return true;
      *error = "envFrom: Secret \"" + string_member(*ref, "name") +
               "\" cannot be read locally; Secrets exist only in the cluster";
      return false;
    }
    return true;
  }

  bool add_variable(const Json& variable, std::string* error) {
    std::string name = string_member(variable, "name");
    auto from = variable.find("valueFrom");
    if (from == variable.end() || !from->is_object()) {
      std::string value = string_member(variable, "value");
      set(name, expand_references(value, [this](std::string_view n) { return lookup(n); }));
      return true;
    }
    std::string value;
    std::string problem;
    bool skip = false;
    if (!value_from(*from, &value, &skip, &problem)) {
      *error = "env " + name + ": " + problem;
      return false;
    }
    if (!skip) set(name, value);
    return true;
  }

  bool value_from(const Json& from, std::string* value, bool* skip, std::string* problem) {
    if (auto ref = from.find("fieldRef"); ref != from.end()) {
      std::string path = string_member(*ref, "fieldPath");
      if (pod_field_value(path, pod_, value)) return true;
      *problem = "fieldRef " + path + " cannot be resolved locally";
      return false;
    }
    if (auto ref = from.find("resourceFieldRef"); ref != from.end()) {
      return resource_value(container_, *ref, value, problem);
    }
    if (auto ref = from.find("configMapKeyRef"); ref != from.end()) {
      std::string name = string_member(*ref, "name");
      std::string key = string_member(*ref, "key");
      const Json* map = config_map(name);
      if (map != nullptr && map_value(map->value("data", Json::object()), key, value)) return true;
      if (optional_ref(*ref)) return *skip = true;
      *problem = "configMapKeyRef " + name + "/" + key +
                 (map == nullptr ? ": the ConfigMap is not among the inputs"
                                 : ": the ConfigMap has no such key");
      return false;
    }
    if (auto ref = from.find("secretKeyRef"); ref != from.end()) {
      if (optional_ref(*ref)) return *skip = true;
      *problem = "secretKeyRef " + string_member(*ref, "name") + "/" + string_member(*ref, "key") +
                 " cannot be read locally; Secrets exist only in the cluster";
      return false;
    }
    *problem = "valueFrom has no source this command understands";
    return false;
  }

  const Json& container_;
  const PodFacts& pod_;
  const ConfigMapIndex& config_maps_;
  EnvList list_;
  std::map<std::string, size_t> index_;
};

}  // namespace

bool pod_field_value(const std::string& field_path, const PodFacts& pod, std::string* value) {
  std::string key;
  if (subscript(field_path, "metadata.labels", &key)) return map_value(pod.labels, key, value);
  if (subscript(field_path, "metadata.annotations", &key)) {
    return map_value(pod.annotations, key, value);
  }
  if (field_path == "metadata.name") {
    *value = pod.name;
  } else if (field_path == "metadata.namespace") {
    *value = pod.name_space;
  } else if (field_path == "metadata.uid") {
    *value = "local-" + pod.name;
  } else if (field_path == "spec.nodeName") {
    *value = pod.node_name;
  } else if (field_path == "spec.serviceAccountName") {
    *value = pod.service_account;
  } else if (field_path == "status.podIP" || field_path == "status.hostIP" ||
             field_path == "status.podIPs" || field_path == "status.hostIPs") {
    *value = pod.ip;
  } else {
    return false;
  }
  return true;
}

bool resolve_container_env(const Json& container, const PodFacts& pod,
                           const ConfigMapIndex& config_maps, EnvList* out, std::string* error) {
  return EnvBuilder(container, pod, config_maps).build(out, error);
}

}  // namespace trainjob
