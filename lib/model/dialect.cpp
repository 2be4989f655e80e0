#include "model/dialect.h"

#include <algorithm>

namespace trainjob {
namespace {

const std::vector<DialectInfo>& dialect_table() {
  static const std::vector<DialectInfo> table = [] {
    std::vector<DialectInfo> out = {
        {Dialect::kV2_0,
         "2.0",
         "podSpecOverrides",
         true,
         false,
         false,
         false,
         false,
         {"serviceAccountName", "nodeSelector", "tolerations", "volumes", "initContainers",
          "containers", "schedulingGates"},
         {"name", "env", "volumeMounts"}},
        {Dialect::kV2_1,
         "2.1",
         "podTemplateOverrides",
         true,
         false,
         false,
         false,
         false,
         {"serviceAccountName", "nodeSelector", "affinity", "tolerations", "volumes",
          "initContainers", "containers", "schedulingGates", "imagePullSecrets"},
         {"name", "env", "volumeMounts"}},
        {Dialect::kV2_2,
         "2.2",
         "runtimePatches",
         false,
         false,
         false,
         false,
         false,
         {"serviceAccountName", "nodeSelector", "affinity", "tolerations", "volumes",
          "initContainers", "containers", "schedulingGates", "imagePullSecrets", "securityContext"},
         {"name", "env", "volumeMounts", "securityContext"}},
        {Dialect::kV2_3,
         "2.3",
         "runtimePatches",
         false,
         true,
         true,
         false,
         false,
         {"serviceAccountName", "nodeSelector", "affinity", "tolerations", "volumes",
          "initContainers", "containers", "schedulingGates", "imagePullSecrets", "securityContext",
          "terminationGracePeriodSeconds"},
         {"name", "env", "volumeMounts", "securityContext"}},
    };
    // 2.4 is 2.3's API; what it changed is behaviour (MPI placement and env, admission limits).
    DialectInfo v2_4 = out.back();
    v2_4.dialect = Dialect::kV2_4;
    v2_4.version = "2.4";
    v2_4.mpi_v2_4 = true;
    v2_4.v2_4_limits = true;
    out.push_back(v2_4);
    return out;
  }();
  return table;
}

Dialect next(Dialect dialect) {
  return static_cast<Dialect>(static_cast<int>(dialect) + 1);
}

Dialect previous(Dialect dialect) {
  return static_cast<Dialect>(static_cast<int>(dialect) - 1);
}

}  // namespace

const DialectInfo& dialect_info(Dialect dialect) {
  return dialect_table()[static_cast<size_t>(dialect)];
}

DialectRange DialectRange::intersect(DialectRange other) const {
  return {std::max(first, other.first), std::min(last, other.last)};
}

DialectRange DialectRange::without(DialectRange other) const {
  DialectRange overlap = intersect(other);
  if (overlap.empty()) return *this;
  if (overlap.first == first && overlap.last == last) return {Dialect::kV2_4, Dialect::kV2_0};
  if (overlap.first == first) return {next(overlap.last), last};
  if (overlap.last == last) return {first, previous(overlap.first)};
  return *this;  // a hole in the middle: the span stays whole
}

std::string DialectRange::text() const {
  if (empty()) return "none";
  std::string out = dialect_info(first).version;
  if (last != first) out += std::string("-") + dialect_info(last).version;
  return out;
}

std::optional<Dialect> parse_dialect(std::string_view text) {
  if (!text.empty() && text[0] == 'v') text.remove_prefix(1);
  for (const DialectInfo& info : dialect_table()) {
    std::string_view version = info.version;
    if (text == version) return info.dialect;
    // A patch release speaks its minor release's dialect: 2.2.1 is 2.2.
    if (text.size() > version.size() && text.substr(0, version.size()) == version &&
        text[version.size()] == '.') {
      return info.dialect;
    }
  }
  return std::nullopt;
}

std::string dialect_names() {
  std::string out;
  for (const DialectInfo& info : dialect_table()) {
    if (!out.empty()) out += ", ";
    out += info.version;
  }
  return out;
}

}  // namespace trainjob
