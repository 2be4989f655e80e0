// Positions of a document, read from the yaml-cpp node tree it was parsed from.
#ifndef TRAINJOB_LOAD_YAML_SOURCE_MAP_H_
#define TRAINJOB_LOAD_YAML_SOURCE_MAP_H_

#include <yaml-cpp/yaml.h>

#include "load/document.h"

namespace trainjob {

SourcePos pos_from_mark(const YAML::Mark& mark);

/// Walks the kept node tree along a field path (`spec.env[2].name`, `labels[a.b/c]`).
class YamlSourceMap : public SourceMap {
 public:
  explicit YamlSourceMap(const YAML::Node& root) : root_(root) {}
  SourcePos value_pos(std::string_view path) const override;
  SourcePos key_pos(std::string_view path) const override;

 private:
  struct Found {
    SourcePos value;  ///< of the deepest node reached
    SourcePos key;    ///< of the last map key on the way, when the whole path was found
  };
  Found walk(std::string_view path) const;

  YAML::Node root_;
};

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_YAML_SOURCE_MAP_H_
