#include "output/jsonpath.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace trainjob {
namespace {

using Nodes = std::vector<const Json*>;

/// Thrown inside the evaluator only; evaluate_jsonpath turns it into its error.
struct JsonPathError {
  std::string message;
};

[[noreturn]] void jsonpath_fail(const std::string& message) {
  throw JsonPathError{message};
}

std::string_view trim_view(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

/// The index of the `close` matching the `open` at `start`, skipping quoted text; npos if none.
size_t matching_close(std::string_view text, size_t start, char open, char close) {
  int depth = 0;
  char quote = 0;
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (quote != 0) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == open) {
      ++depth;
    } else if (c == close && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

void add_children(const Json& node, Nodes* out) {
  if (!node.is_object() && !node.is_array()) return;
  for (const Json& child : node)
    out->push_back(&child);
}

void add_descendants(const Json& node, const std::string& name, Nodes* out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (name == "*" || it.key() == name) out->push_back(&it.value());
    }
  }
  if (node.is_object() || node.is_array()) {
    for (const Json& child : node)
      add_descendants(child, name, out);
  }
}

/// A literal of a filter: a quoted string, true, false or a number.
Json filter_literal(std::string_view text) {
  text = trim_view(text);
  if (!text.empty() && text.front() == '\'' && text.size() >= 2 && text.back() == '\'')
    return std::string(text.substr(1, text.size() - 2));
  Json value = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded() || value.is_object() || value.is_array())
    jsonpath_fail("expected a string, number, true or false in a filter, found \"" +
                  std::string(text) + "\"");
  return value;
}

bool compare_values(const Json& left, const std::string& op, const Json& right) {
  bool numbers = left.is_number() && right.is_number();
  bool strings = left.is_string() && right.is_string();
  if (op == "==") return numbers ? left.get<double>() == right.get<double>() : left == right;
  if (op == "!=") return numbers ? left.get<double>() != right.get<double>() : left != right;
  if (!numbers && !strings) return false;
  bool less = numbers ? left.get<double>() < right.get<double>() : left < right;
  bool greater = numbers ? left.get<double>() > right.get<double>() : right < left;
  if (op == "<") return less;
  if (op == ">") return greater;
  if (op == "<=") return !greater;
  return !less;  // >=
}

Nodes evaluate_path(std::string_view path, const Json& root, const Json& current);

/// The operator of a filter outside quotes, and where it starts; empty when there is none.
std::pair<std::string, size_t> filter_operator(std::string_view text) {
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (text.compare(i, std::char_traits<char>::length(op), op) == 0) return {op, i};
    }
  }
  return {"", std::string_view::npos};
}

/// `?(@.path OP literal)` or `?(@.path)` over the elements of each node.
Nodes filter_nodes(const Nodes& nodes, std::string_view expression, const Json& root) {
  expression = trim_view(expression.substr(1));  // after '?'
  if (expression.size() < 2 || expression.front() != '(' || expression.back() != ')')
    jsonpath_fail("expected a filter ?(...), found \"?" + std::string(expression) + "\"");
  expression = expression.substr(1, expression.size() - 2);
  auto [op, at] = filter_operator(expression);
  std::string_view left = trim_view(op.empty() ? expression : expression.substr(0, at));
  std::optional<Json> right;
  if (!op.empty()) right = filter_literal(expression.substr(at + op.size()));
  Nodes out;
  for (const Json* node : nodes) {
    Nodes elements;
    if (node->is_array())
      add_children(*node, &elements);
    else
      elements.push_back(node);
    for (const Json* element : elements) {
      Nodes found = evaluate_path(left, root, *element);
      if (found.empty()) continue;
      if (!right || compare_values(*found.front(), op, *right)) out.push_back(element);
    }
  }
  return out;
}

long parse_index(std::string_view text) {
  text = trim_view(text);
  std::string digits(text);
  char* end = nullptr;
  long value = std::strtol(digits.c_str(), &end, 10);
  if (digits.empty() || *end != '\0')
    jsonpath_fail("expected an array index, found \"" + digits + "\"");
  return value;
}

/// `[A:B]` or `[N]` of each array; negative numbers count from the end.
Nodes index_nodes(const Nodes& nodes, std::string_view inside) {
  Nodes out;
  size_t colon = inside.find(':');
  for (const Json* node : nodes) {
    if (!node->is_array()) continue;
    long size = static_cast<long>(node->size());
    auto from_end = [size](long i) { return i < 0 ? i + size : i; };
    long first, last;
    if (colon == std::string_view::npos) {
      first = from_end(parse_index(inside));
      last = first + 1;
    } else {
      std::string_view a = trim_view(inside.substr(0, colon)),
                       b = trim_view(inside.substr(colon + 1));
      first = a.empty() ? 0 : from_end(parse_index(a));
      last = b.empty() ? size : from_end(parse_index(b));
    }
    for (long i = std::max(first, 0L); i < std::min(last, size); ++i)
      out.push_back(&(*node)[static_cast<size_t>(i)]);
  }
  return out;
}

Nodes member_nodes(const Nodes& nodes, const std::string& name) {
  Nodes out;
  for (const Json* node : nodes) {
    if (name == "*") {
      add_children(*node, &out);
    } else if (node->is_object() && node->contains(name)) {
      out.push_back(&(*node)[name]);
    }
  }
  return out;
}

Nodes bracket_nodes(const Nodes& nodes, std::string_view inside, const Json& root) {
  inside = trim_view(inside);
  if (inside == "*") return member_nodes(nodes, "*");
  if (!inside.empty() && inside.front() == '?') return filter_nodes(nodes, inside, root);
  if (!inside.empty() && (inside.front() == '\'' || inside.front() == '"')) {
    Json name = filter_literal(inside);
    if (!name.is_string()) jsonpath_fail("expected a quoted name in [...]");
    return member_nodes(nodes, name.get<std::string>());
  }
  return index_nodes(nodes, inside);
}

/// A name after `.` or `..`: up to the next `.` or `[`; `\.` is a dot inside the name.
std::string read_name(std::string_view path, size_t* pos) {
  std::string name;
  while (*pos < path.size() && path[*pos] != '.' && path[*pos] != '[') {
    if (path[*pos] == '\\' && *pos + 1 < path.size()) ++*pos;
    name += path[(*pos)++];
  }
  if (name.empty()) jsonpath_fail("expected a name after '.' in \"" + std::string(path) + "\"");
  return name;
}

Nodes evaluate_path(std::string_view path, const Json& root, const Json& current) {
  path = trim_view(path);
  size_t pos = 0;
  Nodes nodes{&current};
  if (!path.empty() && path[0] == '$') nodes = {&root};
  if (!path.empty() && (path[0] == '$' || path[0] == '@')) pos = 1;
  while (pos < path.size()) {
    if (path.compare(pos, 2, "..") == 0) {
      pos += 2;
      std::string name = read_name(path, &pos);
      Nodes found;
      for (const Json* node : nodes)
        add_descendants(*node, name, &found);
      nodes = std::move(found);
    } else if (path[pos] == '.') {
      ++pos;
      if (pos == path.size()) break;  // `{.}`: the value itself
      nodes = member_nodes(nodes, read_name(path, &pos));
    } else if (path[pos] == '[') {
      size_t close = matching_close(path, pos, '[', ']');
      if (close == std::string_view::npos)
        jsonpath_fail("unclosed '[' in \"" + std::string(path) + "\"");
      nodes = bracket_nodes(nodes, path.substr(pos + 1, close - pos - 1), root);
      pos = close + 1;
    } else {
      jsonpath_fail("unexpected '" + std::string(1, path[pos]) + "' in \"" + std::string(path) +
                    "\"");
    }
  }
  return nodes;
}

/// One piece of a template: text to print, a path to print, or `range PATH` ... `end`.
struct TemplatePart {
  enum Kind { kText, kPath, kRange, kEnd } kind;
  std::string text;
};

TemplatePart action_part(std::string_view action) {
  action = trim_view(action);
  if (action.empty()) jsonpath_fail("empty {} in the template");
  if (action.front() == '"') {
    Json literal = Json::parse(action, nullptr, /*allow_exceptions=*/false);
    if (!literal.is_string())
      jsonpath_fail("expected a string literal such as {\"\\n\"}, found {" + std::string(action) +
                    "}");
    return {TemplatePart::kText, literal.get<std::string>()};
  }
  if (action == "end") return {TemplatePart::kEnd, ""};
  if (action.substr(0, 6) == "range ") return {TemplatePart::kRange, std::string(action.substr(6))};
  return {TemplatePart::kPath, std::string(action)};
}

std::vector<TemplatePart> split_template(std::string_view text) {
  std::vector<TemplatePart> parts;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t open = text.find('{', pos);
    if (open != pos) {
      parts.push_back({TemplatePart::kText, std::string(text.substr(pos, open - pos))});
      if (open == std::string_view::npos) break;
    }
    size_t close = matching_close(text, open, '{', '}');
    if (close == std::string_view::npos)
      jsonpath_fail("unclosed '{' at offset " + std::to_string(open) + " of the template");
    parts.push_back(action_part(text.substr(open + 1, close - open - 1)));
    pos = close + 1;
  }
  return parts;
}

/// The index of the `end` closing the `range` at `at`.
size_t range_end(const std::vector<TemplatePart>& parts, size_t at) {
  int depth = 0;
  for (size_t i = at; i < parts.size(); ++i) {
    if (parts[i].kind == TemplatePart::kRange) ++depth;
    if (parts[i].kind == TemplatePart::kEnd && --depth == 0) return i;
  }
  jsonpath_fail("{range} without {end}");
}

void print_nodes(const Nodes& nodes, std::string* out) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i > 0) *out += ' ';
    *out += nodes[i]->is_string() ? nodes[i]->get<std::string>() : nodes[i]->dump();
  }
}

void run_parts(const std::vector<TemplatePart>& parts, size_t first, size_t last, const Json& root,
               const Json& current, std::string* out) {
  for (size_t i = first; i < last; ++i) {
    const TemplatePart& part = parts[i];
    if (part.kind == TemplatePart::kText) *out += part.text;
    if (part.kind == TemplatePart::kPath) print_nodes(evaluate_path(part.text, root, current), out);
    if (part.kind == TemplatePart::kEnd) jsonpath_fail("{end} without {range}");
    if (part.kind != TemplatePart::kRange) continue;
    size_t end = range_end(parts, i);
    // As kubectl: `{range .items}` walks the array's elements, as `.items[*]` does.
    Nodes items;
    for (const Json* found : evaluate_path(part.text, root, current)) {
      if (found->is_array())
        add_children(*found, &items);
      else
        items.push_back(found);
    }
    for (const Json* item : items)
      run_parts(parts, i + 1, end, root, *item, out);
    i = end;
  }
}

}  // namespace

std::optional<std::string> evaluate_jsonpath(const Json& root, std::string_view template_text,
                                             std::string* error) {
  try {
    std::vector<TemplatePart> parts = split_template(template_text);
    std::string out;
    run_parts(parts, 0, parts.size(), root, root, &out);
    return out;
  } catch (const JsonPathError& e) {
    *error = "jsonpath: " + e.message;
    return std::nullopt;
  }
}

}  // namespace trainjob
