// Positions of a document, recorded while it was parsed: one entry per node in
// document order, looked up by walking the document along a field path.
#ifndef TRAINJOB_LOAD_YAML_MARK_SOURCE_MAP_H_
#define TRAINJOB_LOAD_YAML_MARK_SOURCE_MAP_H_

#include <vector>

#include "load/document.h"

namespace trainjob {

/// Where one node is written: its value, and its key when it is a mapping's value.
struct NodeMark {
  SourcePos value;
  SourcePos key;
};

class MarkSourceMap : public SourceMap {
 public:
  /// `marks` holds the nodes of the document in pre-order (a node before its children,
  /// children in document order), which is also the order of the Json built from it.
  explicit MarkSourceMap(std::vector<NodeMark> marks) : marks_(std::move(marks)) {}
  SourcePos value_pos(const Json& root, std::string_view path) const override;
  SourcePos key_pos(const Json& root, std::string_view path) const override;

 private:
  /// The mark of the deepest node of `path` that exists, and whether the whole path did.
  const NodeMark* walk(const Json& root, std::string_view path, bool* complete) const;

  std::vector<NodeMark> marks_;
};

/// Number of nodes in `value` counted the way the marks are: 1 + all descendants.
size_t node_count(const Json& value);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_YAML_MARK_SOURCE_MAP_H_
