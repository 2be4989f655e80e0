#include "k8s/container_rules.h"

#include <algorithm>
#include <cctype>

#include "k8s/quantity.h"

namespace trainjob {
namespace {

std::optional<Quantity> rules_quantity(const Json& value) {
  if (value.is_string()) return parse_quantity(value.get<std::string>(), nullptr);
  if (value.is_number()) return parse_quantity(value.dump(), nullptr);
  return std::nullopt;
}

/// The words of a shell line, with the quotes and the `;` that can cling to them dropped:
/// enough to find flags, not a shell.
std::vector<std::string> rules_tokens(const std::string& line) {
  std::vector<std::string> out;
  std::string token;
  for (size_t i = 0; i <= line.size(); ++i) {
    char c = i < line.size() ? line[i] : ' ';
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      if (!token.empty()) out.push_back(token);
      token.clear();
    } else if (c != '"' && c != '\'' && c != ';') {
      token += c;
    }
  }
  return out;
}

bool rules_is_launcher(const std::string& token) {
  size_t slash = token.rfind('/');
  std::string base = slash == std::string::npos ? token : token.substr(slash + 1);
  return base == "torchrun" || token == "torch.distributed.run" ||
         token == "torch.distributed.launch";
}

/// A fixed count: digits alone (`2:4` is elastic, `$PET_NNODES` unknown).
std::optional<int64_t> rules_count(const std::string& text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return std::stoll(text);
}

/// Whether the API server lets a request of `resource` stay below its limit (or go without
/// one): the native resources (no domain, or a `kubernetes.io/` one) but hugepages.
bool overcommit_allowed(const std::string& resource) {
  bool native = resource.find('/') == std::string::npos ||
                resource.find("kubernetes.io/") != std::string::npos;
  return native && resource.rfind("hugepages-", 0) != 0;
}

}  // namespace

std::vector<RefusedRequest> refused_requests(const Json& resources) {
  std::vector<RefusedRequest> out;
  const Json& requests = json_member(resources, "requests");
  const Json& limits = json_member(resources, "limits");
  if (!requests.is_object()) return out;
  for (const auto& entry : requests.items()) {
    std::optional<Quantity> asked = rules_quantity(entry.value());
    if (!asked) continue;
    const Json& limit = json_member(limits, entry.key().c_str());
    if (limit.is_null()) {
      if (!overcommit_allowed(entry.key()))
        out.push_back({entry.key(), format_quantity(*asked), ""});
      continue;
    }
    std::optional<Quantity> bound = rules_quantity(limit);
    if (!bound) continue;
    bool refused = overcommit_allowed(entry.key()) ? asked->nanos > bound->nanos
                                                   : asked->nanos != bound->nanos;
    if (refused) out.push_back({entry.key(), format_quantity(*asked), format_quantity(*bound)});
  }
  return out;
}

std::string refused_request_reason(const RefusedRequest& refused,
                                   const std::string& resources_field) {
  if (refused.limit.empty())
    return resources_field +
           ".limits: Required value: Limit must be set for non overcommitable resources";
  const char* relation =
      overcommit_allowed(refused.resource) ? "less than or equal to" : "equal to";
  return resources_field + ".requests: Invalid value: \"" + refused.request + "\": must be " +
         relation + " " + refused.resource + " limit of " + refused.limit;
}

std::string refused_request_message(const RefusedRequest& refused, const std::string& where,
                                    const std::string& resources_field) {
  std::string what;
  if (refused.limit.empty()) {
    what = refused.resource + " is requested (" + refused.request + ") without a limit" + where +
           ", and it cannot be overcommitted";
  } else if (overcommit_allowed(refused.resource)) {
    what = refused.resource + " request " + refused.request + " is above its limit " +
           refused.limit + where;
  } else {
    what = refused.resource + " request " + refused.request + " differs from its limit " +
           refused.limit + where + ", and it cannot be overcommitted";
  }
  std::string fix = overcommit_allowed(refused.resource)
                        ? ""
                        : "; give it a limit equal to the request (" + refused.resource + ": " +
                              refused.request + " under limits)";
  return what + ": the API server refuses the Jobs (" +
         refused_request_reason(refused, resources_field) + ")" + fix;
}

namespace {

/// The value of the first of `names` (`--flag=V` or `--flag V`) after a launcher, when a
/// fixed count.
std::optional<TorchrunNodes> torchrun_fixed_flag(const std::vector<std::string>& words,
                                                 const std::vector<std::string>& names) {
  // Most commands name no launcher: those are not split into tokens at all.
  bool any = std::any_of(words.begin(), words.end(), [](const std::string& word) {
    return word.find("torchrun") != std::string::npos ||
           word.find("torch.distributed.") != std::string::npos;
  });
  if (!any) return std::nullopt;
  bool launcher = false;
  bool value_next = false;
  std::string flag;
  for (size_t w = 0; w < words.size(); ++w) {
    for (const std::string& token : rules_tokens(words[w])) {
      std::optional<std::string> value;
      if (value_next) {
        value = token;
      } else if (!launcher) {
        launcher = rules_is_launcher(token);
      } else {
        for (const std::string& name : names) {
          if (token == name) {
            flag = name;
            value_next = true;
          } else if (token.rfind(name + "=", 0) == 0) {
            flag = name;
            value = token.substr(name.size() + 1);
          }
        }
        if (value_next) continue;
      }
      if (!value) continue;
      std::optional<int64_t> count = rules_count(*value);
      if (!count) return std::nullopt;
      return TorchrunNodes{w, *count, flag + (value_next ? " " : "=") + *value};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<TorchrunNodes> torchrun_fixed_nodes(const std::vector<std::string>& words) {
  return torchrun_fixed_flag(words, {"--nnodes"});
}

std::optional<TorchrunNodes> torchrun_fixed_procs(const std::vector<std::string>& words) {
  return torchrun_fixed_flag(words, {"--nproc_per_node", "--nproc-per-node"});
}

std::optional<GpuRequest> container_gpus(const Json& container) {
  const Json& resources = json_member(container, "resources");
  for (const char* section : {"limits", "requests"}) {
    const Json& list = json_member(resources, section);
    if (!list.is_object()) continue;
    for (const auto& [resource, quantity] : list.items()) {
      size_t slash = resource.find('/');
      if (slash == std::string::npos || resource.substr(slash) != "/gpu") continue;
      std::optional<int64_t> count;
      if (quantity.is_number_integer()) count = quantity.get<int64_t>();
      if (quantity.is_string()) count = rules_count(quantity.get<std::string>());
      if (count) return GpuRequest{resource, *count};
    }
  }
  return std::nullopt;
}

std::string procs_over_gpus_problem(const std::string& what, int64_t procs,
                                    const GpuRequest& gpus) {
  if (gpus.count <= 0 || procs <= gpus.count) return "";
  return what + " starts " + std::to_string(procs) +
         " processes on each node, but each node gets " + std::to_string(gpus.count) +
         (gpus.count == 1 ? " GPU" : " GPUs") + " (" + gpus.resource + ": " +
         std::to_string(gpus.count) + "): each process takes the GPU of its LOCAL_RANK, so " +
         "those beyond " + std::to_string(gpus.count) +
         " find none (CUDA: invalid device ordinal) or share one";
}

std::string torchrun_nodes_problem(const TorchrunNodes& nodes, int64_t job_nodes) {
  std::string outcome = nodes.nodes > job_nodes
                            ? "its rendezvous waits for nodes that never come"
                            : "the pods beyond it find no place in the rendezvous and fail";
  return "torchrun " + nodes.text + ", but the job has " + std::to_string(job_nodes) +
         (job_nodes == 1 ? " node" : " nodes") + ": the flag wins over PET_NNODES, so " + outcome;
}

std::vector<std::string> container_words(const Json& container) {
  std::vector<std::string> out;
  for (const char* list : {"command", "args"}) {
    const Json& items = json_member(container, list);
    if (!items.is_array()) continue;
    // A word that is not a string stays as an empty one, so indexes match the fields.
    for (const Json& item : items)
      out.push_back(item.is_string() ? item.get<std::string>() : std::string());
  }
  return out;
}

std::pair<const char*, size_t> container_word_field(const Json& container, size_t word) {
  const Json& command = json_member(container, "command");
  size_t in_command = command.is_array() ? command.size() : 0;
  if (word < in_command) return {"command", word};
  return {"args", word - in_command};
}

}  // namespace trainjob
