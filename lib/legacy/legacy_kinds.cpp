#include "legacy/legacy_kinds.h"

#include <iterator>

namespace trainjob {
namespace {

/// Every kind we compile. Adding a kind adds one line here and one kind_*.cpp.
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

std::string supported_legacy_kinds() {
  std::string out;
  for (const LegacyKind* kind : kLegacyKinds) {
    out += (out.empty() ? "" : ", ") + std::string(kind->api_version) + " " + kind->kind;
  }
  return out;
}

}  // namespace trainjob
