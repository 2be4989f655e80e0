// The events of a YAML text as lines of text, from libyaml's parser and from
// BlockEventReader, so tests and the differential fuzz target can hold them equal.
#ifndef TRAINJOB_TESTS_SUPPORT_YAML_EVENTS_H_
#define TRAINJOB_TESTS_SUPPORT_YAML_EVENTS_H_

#include <optional>
#include <string>
#include <string_view>
#include <yaml.h>

#include "load/yaml/block_events.h"

namespace trainjob::testing {

/// One event as a line: its type, and for nodes the start mark (from 1) and the scalar's
/// style and value; what the document builder reads of it.
inline std::string describe_event(const yaml_event_t& event) {
  auto at = [&] {
    return " " + std::to_string(event.start_mark.line + 1) + ":" +
           std::to_string(event.start_mark.column + 1);
  };
  switch (event.type) {
    case YAML_STREAM_START_EVENT:
      return "stream-start\n";
    case YAML_STREAM_END_EVENT:
      return "stream-end\n";
    case YAML_DOCUMENT_START_EVENT:
      return "document-start\n";
    case YAML_DOCUMENT_END_EVENT:
      return "document-end\n";
    case YAML_MAPPING_START_EVENT:
      return "mapping" + at() + "\n";
    case YAML_MAPPING_END_EVENT:
      return "mapping-end\n";
    case YAML_SEQUENCE_START_EVENT:
      return "sequence" + at() + "\n";
    case YAML_SEQUENCE_END_EVENT:
      return "sequence-end\n";
    case YAML_SCALAR_EVENT: {
      const auto& scalar = event.data.scalar;
      std::string style = scalar.style == YAML_PLAIN_SCALAR_STYLE ? " plain" : " quoted";
      std::string tag = scalar.tag != nullptr ? " tag" : "";
      std::string anchor = scalar.anchor != nullptr ? " anchor" : "";
      return "scalar" + at() + style + tag + anchor + " [" +
             std::string(reinterpret_cast<const char*>(scalar.value), scalar.length) + "]\n";
    }
    default:
      return "other\n";
  }
}

/// libyaml's events up to the stream's end, or up to its error (marked `error`).
inline std::string libyaml_events(std::string_view text) {
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
  std::string out;
  for (;;) {
    yaml_event_t event;
    if (yaml_parser_parse(&parser, &event) == 0) {
      out += "error\n";
      break;
    }
    out += describe_event(event);
    bool end = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
    if (end) break;
  }
  yaml_parser_delete(&parser);
  return out;
}

/// BlockEventReader's events up to the stream's end; none when the text leaves its subset.
inline std::optional<std::string> block_subset_events(std::string_view text) {
  std::string out;
  try {
    BlockEventReader reader(text);
    for (;;) {
      const yaml_event_t& event = reader.next();
      out += describe_event(event);
      if (event.type == YAML_STREAM_END_EVENT) return out;
    }
  } catch (const OutsideSubset&) {
    return std::nullopt;
  }
}

}  // namespace trainjob::testing

#endif  // TRAINJOB_TESTS_SUPPORT_YAML_EVENTS_H_
