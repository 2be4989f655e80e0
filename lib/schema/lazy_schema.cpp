#include "schema/lazy_schema.h"

#include <string>

namespace trainjob {
namespace {

bool is_json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

}  // namespace

LazySchemaText::LazySchemaText(std::string_view text) : text_(text), ends_(text.size()) {
  // Only brackets and strings are followed: enough to find the ends in valid JSON.
  std::vector<uint32_t> open;
  for (size_t at = 0; at < text.size(); ++at) {
    switch (text[at]) {
      case '"': {
        size_t start = at;
        for (++at; at < text.size() && text[at] != '"'; ++at)
          at += text[at] == '\\' ? 1 : 0;
        ends_[start] = static_cast<uint32_t>(at + 1);
        break;
      }
      case '{':
      case '[':
        open.push_back(static_cast<uint32_t>(at));
        break;
      case '}':
      case ']':
        if (!open.empty()) {
          ends_[open.back()] = static_cast<uint32_t>(at + 1);
          open.pop_back();
        }
        break;
      default:
        break;
    }
  }
}

size_t LazySchemaText::skip_space(size_t at) const {
  while (at < text_.size() && is_json_space(text_[at]))
    ++at;
  return at;
}

size_t LazySchemaText::value_end(size_t at) const {
  char first = text_[at];
  if (first == '"' || first == '{' || first == '[') return ends_[at];
  while (at < text_.size() && text_[at] != ',' && text_[at] != '}' && text_[at] != ']' &&
         !is_json_space(text_[at]))
    ++at;
  return at;  // the end of a number or literal
}

Schema LazySchemaText::parse(size_t begin, size_t end) const {
  return Schema::parse(text_.begin() + begin, text_.begin() + end);
}

Schema LazySchemaText::build(size_t id) const {
  size_t begin = skip_space(0);
  return begin < text_.size() ? build_level(begin, value_end(begin), id) : parse(0, 0);
}

Schema LazySchemaText::build(const Schema& placeholder) const {
  const Schema& where = placeholder.at(kLazyKeyword);
  return build_level(where.at(1).get<size_t>(), where.at(2).get<size_t>(),
                     where.at(0).get<size_t>());
}

Schema LazySchemaText::subschema(size_t begin, size_t end, size_t id) const {
  if (end - begin <= kLazySchemaBytes || text_[begin] != '{') return parse(begin, end);
  Schema placeholder = Schema::object();
  placeholder[kLazyKeyword] = Schema::array({id, begin, end});
  return placeholder;
}

std::vector<LazySchemaText::Member> LazySchemaText::members(size_t object) const {
  std::vector<Member> out;
  size_t end = ends_[object];
  for (size_t at = skip_space(object + 1); at < end && text_[at] == '"';) {
    size_t key_end = ends_[at];
    std::string_view key = text_.substr(at + 1, key_end - at - 2);
    size_t value = skip_space(skip_space(key_end) + 1);  // past the ':'
    size_t value_stop = value_end(value);
    // Schema keys seldom hold an escape; those that do are read by the JSON parser.
    out.push_back({key.find('\\') == std::string_view::npos ? std::string(key)
                                                            : parse(at, key_end).get<std::string>(),
                   value, value_stop});
    at = skip_space(value_stop);
    if (at < end && text_[at] == ',') at = skip_space(at + 1);
  }
  return out;
}

Schema LazySchemaText::build_level(size_t begin, size_t end, size_t id) const {
  if (text_[begin] != '{') return parse(begin, end);
  Schema schema = Schema::object();
  for (const Member& member : members(begin)) {
    Schema& slot = schema[member.key];
    if (member.key == "properties" && text_[member.begin] == '{') {
      slot = Schema::object();
      for (const Member& property : members(member.begin))
        slot[property.key] = subschema(property.begin, property.end, id);
    } else if (member.key == "items" || member.key == "additionalProperties") {
      slot = subschema(member.begin, member.end, id);
    } else {
      slot = parse(member.begin, member.end);
    }
  }
  return schema;
}

}  // namespace trainjob
