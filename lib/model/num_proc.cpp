#include "model/num_proc.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "k8s/quantity.h"

namespace trainjob {
namespace {

int64_t quantity_value(const Json& value) {
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  std::string error;
  std::optional<Quantity> quantity = parse_quantity(text, &error);
  return quantity ? quantity_ceil(*quantity) : 0;
}

bool names_gpu(const std::string& name) {
  std::string lower;
  for (char c : name)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("gpu") != std::string::npos;
}

int64_t first_gpu(const Json& resources, const char* section) {
  auto list = resources.find(section);
  if (list == resources.end() || !list->is_object()) return 0;
  std::map<std::string, const Json*> sorted;
  for (const auto& entry : list->items())
    sorted.emplace(entry.key(), &entry.value());
  for (const auto& [name, value] : sorted) {
    if (names_gpu(name)) return quantity_value(*value);
  }
  return 0;
}

int64_t cpu_in(const Json& resources, const char* section) {
  auto list = resources.find(section);
  if (list == resources.end() || !list->is_object()) return 0;
  auto cpu = list->find("cpu");
  return cpu == list->end() ? 0 : quantity_value(*cpu);
}

}  // namespace

int64_t gpu_count(const Json& resources) {
  if (!resources.is_object()) return 0;
  int64_t requested = first_gpu(resources, "requests");
  return requested != 0 ? requested : first_gpu(resources, "limits");
}

int64_t cpu_count(const Json& resources) {
  if (!resources.is_object()) return 0;
  int64_t requested = cpu_in(resources, "requests");
  return requested != 0 ? requested : cpu_in(resources, "limits");
}

std::string resolve_num_proc_per_node(const Json& num_proc, const Json& resources) {
  if (num_proc.is_number_integer()) return num_proc.dump();
  std::string mode = num_proc.is_string() ? num_proc.get<std::string>() : "auto";
  if (mode == "cpu" || (mode == "auto" && gpu_count(resources) == 0)) {
    return std::to_string(std::max<int64_t>(1, cpu_count(resources)));
  }
  return mode;
}

}  // namespace trainjob
