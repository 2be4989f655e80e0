#include "model/container_rules.h"

#include <algorithm>
#include <cctype>

#include "model/quantity.h"

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

}  // namespace

std::vector<RequestOverLimit> requests_over_limits(const Json& resources) {
  std::vector<RequestOverLimit> out;
  const Json& requests = json_member(resources, "requests");
  const Json& limits = json_member(resources, "limits");
  if (!requests.is_object() || !limits.is_object()) return out;
  for (const auto& entry : requests.items()) {
    auto limit = limits.find(entry.key());
    if (limit == limits.end()) continue;
    std::optional<Quantity> asked = rules_quantity(entry.value());
    std::optional<Quantity> bound = rules_quantity(*limit);
    if (!asked || !bound || asked->nanos <= bound->nanos) continue;
    out.push_back({entry.key(), format_quantity(*asked), format_quantity(*bound)});
  }
  return out;
}

std::string request_over_limit_reason(const RequestOverLimit& excess) {
  return "Invalid value: \"" + excess.request + "\": must be less than or equal to " +
         excess.resource + " limit of " + excess.limit;
}

std::string request_over_limit_message(const RequestOverLimit& excess, const std::string& where,
                                       const std::string& job_field) {
  return excess.resource + " request " + excess.request + " is above its limit " + excess.limit +
         where + ": the API server refuses the Jobs (" + job_field + ": " +
         request_over_limit_reason(excess) + ")";
}

std::optional<TorchrunNodes> torchrun_fixed_nodes(const std::vector<std::string>& words) {
  // Most commands name no launcher: those are not split into tokens at all.
  bool any = std::any_of(words.begin(), words.end(), [](const std::string& word) {
    return word.find("torchrun") != std::string::npos ||
           word.find("torch.distributed.") != std::string::npos;
  });
  if (!any) return std::nullopt;
  bool launcher = false;
  bool value_next = false;
  for (size_t w = 0; w < words.size(); ++w) {
    for (const std::string& token : rules_tokens(words[w])) {
      std::optional<std::string> value;
      if (value_next) {
        value = token;
      } else if (!launcher) {
        launcher = rules_is_launcher(token);
      } else if (token == "--nnodes") {
        value_next = true;
        continue;
      } else if (token.rfind("--nnodes=", 0) == 0) {
        value = token.substr(9);
      }
      if (!value) continue;
      std::optional<int64_t> count = rules_count(*value);
      if (!count) return std::nullopt;
      return TorchrunNodes{w, *count, value_next ? "--nnodes " + *value : "--nnodes=" + *value};
    }
  }
  return std::nullopt;
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
