// What the yaml_writer tests share: a value as YAML, YAML read back, a string's scalar text.
#pragma once

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "load/json_keys.h"
#include "load/yaml_loader.h"
#include "output/yaml_writer.h"

namespace trainjob::testing {

inline std::string to_yaml(const Json& value, bool sorted = false) {
  Json copy = value;
  if (sorted) sort_keys(&copy);
  std::string out;
  write_yaml(copy, &out);
  return out;
}

// Reads YAML back with the project's loader (libyaml, Kubernetes' scalar rules).
inline Json parse_back(const std::string& yaml) {
  Diagnostics diagnostics;
  std::vector<Document> documents = load_documents("round-trip.yaml", yaml, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  REQUIRE(documents.size() == 1);
  return documents[0].value;
}

// The text a string becomes at the document root, without the final newline.
inline std::string scalar_text(const std::string& s) {
  std::string out = to_yaml(Json(s));
  REQUIRE(!out.empty());
  REQUIRE(out.back() == '\n');
  out.pop_back();
  return out;
}

}  // namespace trainjob::testing
