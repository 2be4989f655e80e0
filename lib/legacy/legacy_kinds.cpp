#include "legacy/legacy_kinds.h"

#include <iterator>

namespace trainjob {
namespace {

/// Every kind we compile: the one table of the Training Operator v1 kinds, which `convert`,
/// `logs`, `status` and completion read too. Adding a kind adds one line here and one
/// kind_*.cpp.
const LegacyKind* const kLegacyKinds[] = {
    &kPyTorchJobKind, &kTFJobKind,    &kXGBoostJobKind,    &kPaddleJobKind,
    &kJAXJobKind,     &kMPIJobV1Kind, &kMPIJobV2beta1Kind,
};

}  // namespace

const LegacyKind* find_legacy_kind(std::string_view api_version, std::string_view kind) {
  for (const LegacyKind* candidate : kLegacyKinds) {
    if (candidate->api_version == api_version && candidate->kind == kind) return candidate;
  }
  return nullptr;
}

bool is_legacy_document(const Document& document) {
  return find_legacy_kind(document.api_version(), document.kind()) != nullptr;
}

std::vector<const LegacyKind*> all_legacy_kinds() {
  return {std::begin(kLegacyKinds), std::end(kLegacyKinds)};
}

std::string default_container_of_operator(std::string_view operator_name) {
  for (const LegacyKind* kind : kLegacyKinds) {
    // The MPIJobs compile themselves, and their operators name no default container.
    if (kind->compile == nullptr && kind->operator_name == operator_name)
      return kind->default_container;
  }
  return "";
}

std::string supported_legacy_kinds() {
  std::string out;
  for (const LegacyKind* kind : kLegacyKinds) {
    out += (out.empty() ? "" : ", ") + std::string(kind->api_version) + " " + kind->kind;
  }
  return out;
}

}  // namespace trainjob
