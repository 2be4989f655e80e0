#include "output/yaml_writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "util/shortest_double.h"

namespace trainjob {
namespace {

constexpr auto kIsDigit = [](char c) { return c >= '0' && c <= '9'; };
constexpr auto kIsDigitOrUnderscore = [](char c) { return kIsDigit(c) || c == '_'; };

// Advances *i past the characters matching `pred` and returns how many it skipped.
template <typename Pred>
size_t span(std::string_view s, size_t* i, Pred pred) {
  const size_t start = *i;
  while (*i < s.size() && pred(s[*i]))
    ++*i;
  return *i - start;
}

// Returns the length of the well-formed UTF-8 sequence at s[i] and stores its code point, or 0 for
// anything else (stray continuation bytes, truncation, overlong forms, surrogates, > U+10FFFF).
size_t decode_utf8(std::string_view s, size_t i, char32_t* cp) {
  static constexpr char32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
  const auto lead = static_cast<unsigned char>(s[i]);
  *cp = lead;
  if (lead < 0x80) return 1;
  if (lead < 0xC2 || lead > 0xF4) return 0;  // continuation byte, overlong C0/C1, past U+10FFFF
  const size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
  if (i + len > s.size()) return 0;
  *cp = lead & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    const auto byte = static_cast<unsigned char>(s[i + k]);
    if ((byte & 0xC0) != 0x80) return 0;
    *cp = (*cp << 6) | (byte & 0x3F);
  }
  const bool surrogate = *cp >= 0xD800 && *cp <= 0xDFFF;
  return (*cp < kMinForLength[len] || *cp > 0x10FFFF || surrogate) ? 0 : len;
}

// Code points outside YAML's printable set, plus NEL/LS/PS (line breaks in YAML 1.1) and the BOM
// (which readers may drop): written as-is they would not read back, so they force double quotes.
bool needs_escape(char32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF;
}

// Plain words that YAML 1.2 core or YAML 1.1 (as go-yaml v2 reads it) resolve to null, bool,
// special floats, the merge key or the 1.1 value key.
constexpr std::array<std::string_view, 40> kReservedWords = {
    "~",     "null",  "Null",  "NULL",  "y",     "Y",    "yes",  "Yes",   "YES",   "n",
    "N",     "no",    "No",    "NO",    "true",  "True", "TRUE", "false", "False", "FALSE",
    "on",    "On",    "ON",    "off",   "Off",   "OFF",  ".inf", ".Inf",  ".INF",  "+.inf",
    "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN",  "<<",    "="};

bool is_reserved_word(std::string_view s) {
  if (s.size() > 5) return false;  // longest reserved word; keeps the common case cheap
  return std::find(kReservedWords.begin(), kReservedWords.end(), s) != kReservedWords.end();
}

// 0x.., 0o.., 0b.. integers: YAML 1.2 core, YAML 1.1 and Go's strconv base-0 parsing.
bool is_prefixed_int(std::string_view t) {
  if (t.size() < 3 || t[0] != '0') return false;
  const char radix = static_cast<char>(t[1] | 0x20);  // ASCII lower case
  // YAML 1.1 allows `_` between the digits.
  const std::string_view digits = radix == 'x'   ? "0123456789abcdefABCDEF_"
                                  : radix == 'o' ? "01234567_"
                                  : radix == 'b' ? "01_"
                                                 : "";
  return !digits.empty() && t.find_first_not_of(digits, 2) == std::string_view::npos;
}

// `([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?`: decimal ints (1.1 octals included) and floats.
bool is_decimal_number(std::string_view t) {
  size_t i = 0;
  size_t digits = span(t, &i, kIsDigit);
  if (i < t.size() && t[i] == '.') {
    ++i;
    digits += span(t, &i, kIsDigit);
  }
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (span(t, &i, kIsDigit) == 0) return false;
  }
  return i == t.size();
}

// YAML 1.1 base-60 numbers (`1:20`, `190:20:30.15`); go-yaml v2 still quotes these on output.
bool is_sexagesimal(std::string_view t) {
  size_t i = 0;
  if (t.empty() || !kIsDigit(t[0])) return false;
  span(t, &i, kIsDigitOrUnderscore);
  size_t groups = 0;
  for (; i < t.size() && t[i] == ':'; ++groups) {
    const size_t start = ++i;
    const size_t n = span(t, &i, kIsDigit);
    if (n == 0 || n > 2 || (n == 2 && t[start] > '5')) return false;
  }
  if (groups > 0 && i < t.size() && t[i] == '.') {
    ++i;
    span(t, &i, kIsDigitOrUnderscore);
  }
  return groups > 0 && i == t.size();
}

// One `-`-terminated or final date field of `min`..`max` digits.
bool date_field(std::string_view s, size_t* i, size_t min, size_t max) {
  const size_t n = span(s, i, kIsDigit);
  return n >= min && n <= max;
}

// YAML 1.1 timestamps begin with a yyyy-m-d date, alone or followed by a time.
bool is_timestamp(std::string_view s) {
  size_t i = 0;
  if (!date_field(s, &i, 4, 4) || i >= s.size() || s[i++] != '-') return false;
  if (!date_field(s, &i, 1, 2) || i >= s.size() || s[i++] != '-') return false;
  if (!date_field(s, &i, 1, 2)) return false;
  return i == s.size() || s[i] == 'T' || s[i] == 't' || s[i] == ' ';
}

bool is_number_body(std::string_view t) {
  return is_prefixed_int(t) || is_decimal_number(t) || is_sexagesimal(t);
}

bool looks_numeric(std::string_view s) {
  const char c = s[0];
  // Resolvers only try numbers and timestamps for text starting with these characters.
  if (!kIsDigit(c) && c != '+' && c != '-' && c != '.') return false;
  if (is_timestamp(s)) return true;
  const std::string_view body = (c == '+' || c == '-') ? s.substr(1) : s;
  if (is_number_body(body)) return true;
  if (body.find('_') == std::string_view::npos) return false;
  // YAML 1.1 (and go-yaml) ignore underscores between digits: `1_000` is an int there.
  std::string stripped(body);
  stripped.erase(std::remove(stripped.begin(), stripped.end(), '_'), stripped.end());
  return is_number_body(stripped);
}

bool starts_with_indicator(std::string_view s) {
  // `-` only starts a sequence entry when a space or the end follows, so `--flag=x` stays plain,
  // which is how kubectl prints container args.
  if (s[0] == '-') return s.size() == 1 || s[1] == ' ' || s.substr(0, 3) == "---";
  if (s.substr(0, 3) == "...") return true;  // document end marker at the root
  return std::string_view("?:,[]{}#&*!|>'\"%@` ").find(s[0]) != std::string_view::npos;
}

bool is_plain_safe(std::string_view s) {
  if (s.empty() || starts_with_indicator(s) || s.back() == ' ' || s.back() == ':') return false;
  // A value that opens with a curly quote (“ or ‘) reads back the same plain, but quoted it
  // shows that the marks are its text, and this tool's own input checks, which warn about
  // such a plain value (load/curly_quotes.h), stay quiet when the output is read again.
  if (s.substr(0, 3) == "\xE2\x80\x9C" || s.substr(0, 3) == "\xE2\x80\x98") return false;
  if (s.find(": ") != std::string_view::npos || s.find(" #") != std::string_view::npos) {
    return false;
  }
  return !is_reserved_word(s) && !looks_numeric(s);
}

enum class StringStyle { kPlain, kSingleQuoted, kDoubleQuoted, kLiteral };

// `allow_literal` is false for keys and the document root, which must stay on one line.
StringStyle choose_style(std::string_view s, bool allow_literal) {
  bool multi_line = false;
  bool space_before_newline = false;
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const size_t len = decode_utf8(s, i, &cp);
    if (len == 0 || (cp != '\n' && needs_escape(cp))) return StringStyle::kDoubleQuoted;
    if (cp == '\n') {
      multi_line = true;
      space_before_newline |= i > 0 && s[i - 1] == ' ';
    }
    i += len;
  }
  if (!multi_line) return is_plain_safe(s) ? StringStyle::kPlain : StringStyle::kSingleQuoted;
  // Many tools strip trailing spaces in block scalars, and one cannot hold only line breaks.
  const bool literal_ok = allow_literal && !space_before_newline && s.back() != ' ' &&
                          s.find_first_not_of('\n') != std::string_view::npos;
  return literal_ok ? StringStyle::kLiteral : StringStyle::kDoubleQuoted;
}

void append_single_quoted(std::string_view s, std::string* out) {
  out->push_back('\'');
  for (size_t quote = s.find('\''); quote != std::string_view::npos; quote = s.find('\'')) {
    out->append(s.substr(0, quote + 1)).push_back('\'');
    s.remove_prefix(quote + 1);
  }
  out->append(s).push_back('\'');
}

void append_hex_escape(char kind, char32_t value, int digits, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out->push_back('\\');
  out->push_back(kind);
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
    out->push_back(kHex[(value >> shift) & 0xF]);
}

// Short escapes where YAML has them (readable), `\xNN` / `\uNNNN` for everything else.
void append_escape(char32_t cp, std::string* out) {
  static constexpr std::pair<char32_t, std::string_view> kShort[] = {
      {'"', "\\\""}, {'\\', "\\\\"}, {'\n', "\\n"}, {'\t', "\\t"}, {'\r', "\\r"}};
  for (const auto& [code, text] : kShort) {
    if (code == cp) return void(out->append(text));
  }
  cp <= 0xFF ? append_hex_escape('x', cp, 2, out) : append_hex_escape('u', cp, 4, out);
}

void append_double_quoted(std::string_view s, std::string* out) {
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const size_t len = decode_utf8(s, i, &cp);
    if (len == 0) {  // YAML text is Unicode: the best a raw byte can become is U+00NN
      append_hex_escape('x', static_cast<unsigned char>(s[i]), 2, out);
      ++i;
      continue;
    }
    if (cp == '"' || cp == '\\' || needs_escape(cp)) {
      append_escape(cp, out);
    } else {
      out->append(s.substr(i, len));
    }
    i += len;
  }
  out->push_back('"');
}

// Writes `|` plus indicators, then the lines at `indent`; the caller ends the last line. Content
// always sits 2 columns right of its key or `-`, which is what an indentation indicator of 2 means.
void append_literal(std::string_view s, int indent, std::string* out) {
  const size_t body_end = s.find_last_not_of('\n') + 1;
  const size_t trailing_newlines = s.size() - body_end;
  out->push_back('|');
  // Leading spaces or blank lines would make readers auto-detect the wrong indentation.
  if (s[0] == ' ' || s[0] == '\n') out->push_back('2');
  if (trailing_newlines != 1) out->push_back(trailing_newlines == 0 ? '-' : '+');
  std::string_view rest = s.substr(0, body_end);
  while (true) {
    const size_t newline = rest.find('\n');
    const std::string_view line = rest.substr(0, newline);
    out->push_back('\n');
    if (!line.empty()) out->append(static_cast<size_t>(indent), ' ').append(line);
    if (newline == std::string_view::npos) break;
    rest.remove_prefix(newline + 1);
  }
  // `|+` keeps the extra line breaks, written as empty lines.
  if (trailing_newlines > 1) out->append(trailing_newlines - 1, '\n');
}

template <typename Int>
void append_integer(Int value, std::string* out) {
  std::array<char, 24> buf{};
  const auto result = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  out->append(buf.data(), result.ptr);
}

// Shortest text that round-trips, with a `.` in the mantissa because YAML 1.1 reads `1e+20` as a
// string and `3` as an int.
void append_float(double value, std::string* out) {
  if (std::isnan(value) || std::isinf(value)) {
    return void(out->append(std::isnan(value) ? ".nan" : value < 0 ? "-.inf" : ".inf"));
  }
  const std::string shortest = shortest_double(value);
  const std::string_view text(shortest);
  const size_t exponent = text.find('e');
  const std::string_view mantissa = text.substr(0, exponent);
  out->append(mantissa);
  if (mantissa.find('.') == std::string_view::npos) out->append(".0");
  if (exponent != std::string_view::npos) out->append(text.substr(exponent));
}

bool is_collection(const Json& v) {
  return (v.is_object() || v.is_array()) && !v.empty();
}

class Emitter {
 public:
  explicit Emitter(std::string* out) : out_(out) {}

  void write_document(const Json& value) { write_node(value, 0, false); }

 private:
  // `inline_first`: the caller already wrote `- ` on this line, so the first entry goes there.
  void write_node(const Json& v, int indent, bool inline_first) {
    if (!is_collection(v)) {
      write_scalar(v, indent);
      out_->push_back('\n');
    } else if (v.is_object()) {
      write_mapping(v, indent, inline_first);
    } else {
      write_sequence(v, indent, inline_first);
    }
  }

  void write_mapping(const Json& obj, int indent, bool inline_first) {
    // Keys in the order they are in: sort_keys (load/json_keys.h) sorts them first where the
    // output needs kubectl's order.
    for (const auto& entry : obj.get_ref<const Json::object_t&>())
      write_entry(entry, indent, std::exchange(inline_first, false));
  }

  void write_entry(const Json::object_t::value_type& entry, int indent, bool inline_first) {
    if (!inline_first) write_indent(indent);
    write_key(entry.first, indent);
    const Json& value = entry.second;
    if (is_collection(value)) {
      out_->push_back('\n');
      // Nested mappings indent by 2; sequences stay at the key's column, as kubectl prints them.
      write_node(value, value.is_object() ? indent + 2 : indent, false);
    } else {
      out_->push_back(' ');
      write_node(value, indent + 2, true);
    }
  }

  // Writes the key and its `:`. Readers reject implicit keys over 1024 characters, so longer ones
  // (counted in bytes, which is stricter) take the explicit `? key` form.
  void write_key(const std::string& key, int indent) {
    const size_t start = out_->size();
    write_string(key, 0);  // keys are never block scalars
    if (out_->size() - start <= 1024) return void(out_->push_back(':'));
    out_->insert(start, "? ");
    out_->push_back('\n');
    write_indent(indent);
    out_->push_back(':');
  }

  void write_sequence(const Json& arr, int indent, bool inline_first) {
    for (const Json& item : arr) {
      if (!std::exchange(inline_first, false)) write_indent(indent);
      out_->append("- ");
      write_node(item, indent + 2, true);
    }
  }

  // `block_indent` is where block scalar lines go; 0 (document root) rules them out, since a
  // root-level indentation indicator means different columns to different readers.
  void write_scalar(const Json& v, int block_indent) {
    if (v.is_string()) return write_string(v.get_ref<const std::string&>(), block_indent);
    if (v.is_number_float()) return append_float(v.get<double>(), out_);
    if (v.is_number_unsigned()) return append_integer(v.get<std::uint64_t>(), out_);
    if (v.is_number_integer()) return append_integer(v.get<std::int64_t>(), out_);
    out_->append(keyword(v));
  }

  static std::string_view keyword(const Json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_object()) return "{}";
    if (v.is_array()) return "[]";
    throw std::invalid_argument("write_yaml: binary and discarded values have no YAML form");
  }

  void write_string(std::string_view s, int block_indent) {
    const StringStyle style = choose_style(s, block_indent > 0);
    if (style == StringStyle::kPlain) return void(out_->append(s));
    if (style == StringStyle::kSingleQuoted) return append_single_quoted(s, out_);
    if (style == StringStyle::kDoubleQuoted) return append_double_quoted(s, out_);
    append_literal(s, block_indent, out_);
  }

  void write_indent(int n) { out_->append(static_cast<size_t>(n), ' '); }

  std::string* out_;
};

}  // namespace

void write_yaml(const Json& value, std::string* out) {
  Emitter(out).write_document(value);
}

}  // namespace trainjob
