#include "load/yaml/document_builder.h"

#include <algorithm>

#include "load/field_path.h"
#include "load/scalar.h"
#include "load/yaml_loader.h"

namespace trainjob {
namespace {

/// Deeper input is refused: nothing real nests this far, and later stages recurse.
constexpr size_t kMaxDepth = 256;

std::string event_anchor(const unsigned char* anchor) {
  return anchor != nullptr ? reinterpret_cast<const char*>(anchor) : std::string();
}

/// The bytes of the keys and strings in `value`.
size_t text_bytes(const Json& value) {
  if (value.is_string()) return value.get_ref<const std::string&>().size();
  size_t bytes = 0;
  if (value.is_object()) {
    for (const auto& entry : value.items())
      bytes += entry.key().size() + text_bytes(entry.value());
  } else if (value.is_array()) {
    for (const Json& item : value)
      bytes += text_bytes(item);
  }
  return bytes;
}

}  // namespace

bool DocumentBuilder::expects_key() const {
  return !stack_.empty() && stack_.back().value.is_object() && !stack_.back().has_key;
}

void DocumentBuilder::fail(const yaml_mark_t& mark, const std::string& message) const {
  std::string path;
  for (const Frame& frame : stack_) {
    if (frame.value.is_object()) {
      if (frame.has_key) path = field_child(path, frame.key);
    } else {
      path = field_index(path, frame.value.size());
    }
  }
  throw LoadError(pos_from_mark(mark), path, message);
}

size_t DocumentBuilder::add_mark(const yaml_event_t& event) {
  SourcePos key = !stack_.empty() && stack_.back().has_key ? stack_.back().key_pos : SourcePos{};
  marks_.push_back({pos_from_mark(event.start_mark), key});
  return marks_.size() - 1;
}

void DocumentBuilder::start_collection(const yaml_event_t& event, Json value,
                                       const unsigned char* anchor) {
  if (expects_key()) fail(event.start_mark, "expected a plain key, found a collection");
  if (stack_.size() >= kMaxDepth) {
    // The path would be hundreds of segments long; the position says enough.
    throw LoadError(pos_from_mark(event.start_mark), "",
                    "invalid YAML: nested more than " + std::to_string(kMaxDepth) + " levels deep");
  }
  Frame frame;
  frame.first_mark = add_mark(event);
  frame.value = std::move(value);
  // Most mappings in manifests have a handful of keys: room for a few up front saves
  // the reallocations of growing from one.
  constexpr size_t kInitialEntries = 4;
  if (frame.value.is_object()) {
    static_cast<Json::object_t::Container&>(frame.value.get_ref<Json::object_t&>())
        .reserve(kInitialEntries);
  }
  frame.anchor = event_anchor(anchor);
  stack_.push_back(std::move(frame));
}

void DocumentBuilder::end_collection(const yaml_event_t& event) {
  if (!stack_.back().merges.empty()) apply_merges(event);
  Frame frame = std::move(stack_.back());
  stack_.pop_back();
  if (!frame.anchor.empty()) {
    define_anchor(event, frame.anchor, frame.value, frame.first_mark, marks_.size());
  }
  deliver(std::move(frame.value), frame.first_mark);
}

void DocumentBuilder::apply_merges(const yaml_event_t& event) {
  Frame& frame = stack_.back();
  for (const auto& [value, marks] : frame.merges) {
    if (value.is_object()) {
      merge_mapping(value, marks, 0, &frame);
      continue;
    }
    if (!value.is_array()) fail(event.start_mark, "<< expects a mapping or a list of mappings");
    size_t offset = 1;  // past the list's own mark
    for (const Json& item : value) {
      if (!item.is_object()) fail(event.start_mark, "<< expects a mapping or a list of mappings");
      merge_mapping(item, marks, offset, &frame);
      offset += node_count(item);
    }
  }
  frame.merges.clear();
}

void DocumentBuilder::merge_mapping(const Json& source, const std::vector<NodeMark>& marks,
                                    size_t first, Frame* frame) {
  auto& entries = static_cast<Json::object_t::Container&>(frame->value.get_ref<Json::object_t&>());
  size_t next = first + 1;
  for (const auto& entry : source.items()) {
    size_t size = node_count(entry.value());
    if (!frame->value.contains(entry.key())) {
      entries.emplace_back(entry.key(), entry.value());
      marks_.insert(
          marks_.end(), marks.begin() + static_cast<std::ptrdiff_t>(next),
          marks.begin() + static_cast<std::ptrdiff_t>(std::min(next + size, marks.size())));
    }
    next += size;
  }
}

void DocumentBuilder::scalar(const yaml_event_t& event) {
  const auto& data = event.data.scalar;
  std::string text(reinterpret_cast<const char*>(data.value), data.length);
  if (expects_key()) {
    take_key(event, std::move(text));
    return;
  }
  size_t mark = add_mark(event);
  Json value = resolve(event, std::move(text));
  std::string anchor = event_anchor(data.anchor);
  if (!anchor.empty()) define_anchor(event, anchor, value, mark, mark + 1);
  deliver(std::move(value), mark);
}

Json DocumentBuilder::resolve(const yaml_event_t& event, std::string text) {
  const auto& data = event.data.scalar;
  std::string tag = data.tag != nullptr ? reinterpret_cast<const char*>(data.tag) : "";
  bool is_string =
      data.style != YAML_PLAIN_SCALAR_STYLE || tag == "tag:yaml.org,2002:str" || tag == "!";
  return is_string ? Json(std::move(text)) : resolve_plain_scalar(std::move(text));
}

bool DocumentBuilder::is_duplicate(Frame* frame, const std::string& key) {
  constexpr size_t kLinearSearchLimit = 16;
  if (frame->value.size() < kLinearSearchLimit) return frame->value.contains(key);
  if (frame->keys.empty()) {
    for (const auto& entry : frame->value.items())
      frame->keys.insert(entry.key());
  }
  return !frame->keys.insert(key).second;
}

void DocumentBuilder::take_key(const yaml_event_t& event, std::string key) {
  Frame& frame = stack_.back();
  if (key == "<<" && event.data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
    frame.merging = true;
    frame.has_key = true;
    frame.key_pos = pos_from_mark(event.start_mark);
    return;
  }
  bool duplicate = is_duplicate(&frame, key);
  frame.key = std::move(key);
  frame.has_key = true;
  frame.key_pos = pos_from_mark(event.start_mark);
  if (duplicate) {
    fail(event.start_mark, "duplicate key \"" + frame.key + "\" (first set on line " +
                               std::to_string(earlier_key_line(frame, frame.key)) + ")");
  }
}

int DocumentBuilder::earlier_key_line(const Frame& frame, const std::string& key) const {
  // The mapping's entries so far have their marks after its own, in order, each taking as
  // many as its value has nodes; the first mark of an entry holds its key's position.
  size_t next = frame.first_mark + 1;
  for (const auto& entry : frame.value.items()) {
    if (entry.key() == key) return next < marks_.size() ? marks_[next].key.line : 0;
    next += node_count(entry.value());
  }
  return 0;
}

void DocumentBuilder::alias(const yaml_event_t& event) {
  std::string name = event_anchor(event.data.alias.anchor);
  auto it = anchors_.find(name);
  if (it == anchors_.end()) fail(event.start_mark, "unknown anchor \"" + name + "\"");
  if (expects_key()) fail(event.start_mark, "expected a plain key, found an alias");
  const Anchor& anchor = it->second;
  charge_copy(event, "*" + name, anchor.end_mark - anchor.first_mark, anchor.bytes);
  // The copy's nodes sit at the alias, so each gets the alias's position.
  size_t first = add_mark(event);
  marks_.resize(marks_.size() + anchor.end_mark - anchor.first_mark - 1, {marks_[first].value, {}});
  deliver(anchor.value, first);
}

void DocumentBuilder::define_anchor(const yaml_event_t& event, const std::string& name,
                                    const Json& value, size_t first_mark, size_t end_mark) {
  size_t bytes = text_bytes(value);
  charge_copy(event, "&" + name, end_mark - first_mark, bytes);
  anchors_[name] = {value, first_mark, end_mark, bytes};
}

void DocumentBuilder::charge_copy(const yaml_event_t& event, const std::string& where, size_t nodes,
                                  size_t bytes) {
  copied_nodes_ += nodes;
  copied_bytes_ += bytes;
  if (copied_nodes_ <= kMaxCopiedNodes && copied_bytes_ <= kMaxCopiedBytes) return;
  std::string what = copied_nodes_ > kMaxCopiedNodes
                         ? std::to_string(kMaxCopiedNodes) + " nodes"
                         : std::to_string(kMaxCopiedBytes >> 20) + " MiB of text";
  fail(event.start_mark,
       "invalid YAML: alias expansion: the anchors and aliases of this "
       "document copy more than " +
           what + " (at " + where + "); is this a YAML alias bomb?");
}

void DocumentBuilder::deliver(Json value, size_t first_mark) {
  if (stack_.empty()) {
    root_ = std::move(value);
    return;
  }
  Frame& parent = stack_.back();
  if (parent.merging) {
    // Kept aside, marks and all, until the mapping's own keys are known.
    parent.merges.emplace_back(
        std::move(value),
        std::vector<NodeMark>(marks_.begin() + static_cast<std::ptrdiff_t>(first_mark),
                              marks_.end()));
    marks_.resize(first_mark);
    parent.merging = false;
    parent.has_key = false;
    return;
  }
  if (parent.value.is_array()) {
    parent.value.push_back(std::move(value));
    return;
  }
  // Keys were checked for duplicates, so append without ordered_json's linear search.
  auto& entries = static_cast<Json::object_t::Container&>(parent.value.get_ref<Json::object_t&>());
  entries.emplace_back(std::move(parent.key), std::move(value));
  parent.key.clear();
  parent.has_key = false;
}

}  // namespace trainjob
