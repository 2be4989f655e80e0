// Plain-scalar resolution as Kubernetes does it: sigs.k8s.io/yaml reads YAML with
// go-yaml v2, whose YAML 1.1 rules make `yes` a boolean and `0644` an octal integer.
#include "load/scalar.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace trainjob {
namespace {

/// The YAML 1.1 words that are not strings: null and the booleans.
std::optional<Json> resolve_word(std::string_view text) {
  struct Word {
    std::string_view text;
    int meaning;  // 0 null, 1 true, 2 false
  };
  static constexpr Word kWords[] = {
      {"", 0},     {"~", 0},   {"null", 0},  {"Null", 0},  {"NULL", 0},  {"true", 1}, {"True", 1},
      {"TRUE", 1}, {"yes", 1}, {"Yes", 1},   {"YES", 1},   {"y", 1},     {"Y", 1},    {"on", 1},
      {"On", 1},   {"ON", 1},  {"false", 2}, {"False", 2}, {"FALSE", 2}, {"no", 2},   {"No", 2},
      {"NO", 2},   {"n", 2},   {"N", 2},     {"off", 2},   {"Off", 2},   {"OFF", 2},
  };
  for (const Word& word : kWords) {
    if (word.text != text) continue;
    if (word.meaning == 0) return Json(nullptr);
    return Json(word.meaning == 1);
  }
  return std::nullopt;
}

/// Plain decimal digits without a leading zero, short enough not to overflow: most numbers
/// in manifests, read without the general path's copies.
std::optional<int64_t> small_decimal(std::string_view text) {
  constexpr size_t kMaxDigits = 18;
  if (text.empty() || text.size() > kMaxDigits || (text[0] == '0' && text.size() > 1)) {
    return std::nullopt;
  }
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::string without_underscores(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c != '_') out += c;
  }
  return out;
}

/// Integer with Go's base-0 prefixes (0x, 0o, 0b, leading 0 = octal) and an optional sign.
bool parse_integer(const std::string& text, Json* out) {
  std::string digits = without_underscores(text);
  if (digits.empty()) return false;
  size_t start = (digits[0] == '+' || digits[0] == '-') ? 1 : 0;
  if (start == digits.size()) return false;
  int base = 10;
  std::string body = digits.substr(start);
  if (body.size() > 1 && body[0] == '0') {
    char p = body[1];
    base = (p == 'x' || p == 'X') ? 16 : (p == 'b' || p == 'B') ? 2 : 8;
    body =
        body.substr((p == 'x' || p == 'X' || p == 'b' || p == 'B' || p == 'o' || p == 'O') ? 2 : 1);
    if (body.empty()) return false;
  }
  errno = 0;
  char* end = nullptr;
  unsigned long long magnitude = std::strtoull(body.c_str(), &end, base);
  if (*end != '\0' || errno == ERANGE || body[0] == '-' || body[0] == '+') return false;
  bool negative = digits[0] == '-';
  if (negative) {
    if (magnitude > 9223372036854775808ULL) return false;
    *out = static_cast<int64_t>(0 - magnitude);
  } else if (magnitude <= 9223372036854775807ULL) {
    *out = static_cast<int64_t>(magnitude);
  } else {
    *out = static_cast<uint64_t>(magnitude);
  }
  return true;
}

bool looks_like_float(const std::string& text) {
  size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
  size_t digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == text.size();
}

}  // namespace

Json resolve_plain_scalar(std::string text) {
  // No null or boolean word is longer than five letters, and numbers start with a digit,
  // a sign or a dot: most plain scalars are names and take this early exit.
  constexpr size_t kLongestWord = 5;
  if (text.size() > kLongestWord && !std::isdigit(static_cast<unsigned char>(text[0])) &&
      text[0] != '-' && text[0] != '+' && text[0] != '.') {
    return Json(std::move(text));
  }
  if (std::optional<Json> word = resolve_word(text)) return *word;
  if (std::optional<int64_t> number = small_decimal(text)) return *number;
  char first = text[0];
  if (!std::isdigit(static_cast<unsigned char>(first)) && first != '-' && first != '+' &&
      first != '.') {
    return Json(std::move(text));
  }
  Json number;
  if (parse_integer(text, &number)) return number;
  std::string plain = without_underscores(text);
  if (looks_like_float(plain)) {
    double value = std::strtod(plain.c_str(), nullptr);
    // JSON has no infinity: a value out of range stays the text the user wrote.
    if (std::isfinite(value)) return value;
  }
  return Json(std::move(text));
}

}  // namespace trainjob
