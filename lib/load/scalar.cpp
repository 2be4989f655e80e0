// Plain-scalar resolution as Kubernetes does it: sigs.k8s.io/yaml reads YAML with
// go-yaml v2, whose YAML 1.1 rules make `yes` a boolean and `0644` an octal integer.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "load/yaml_loader.h"

namespace trainjob {
namespace {

bool is_one_of(const std::string& text, std::initializer_list<const char*> words) {
  for (const char* word : words) {
    if (text == word) return true;
  }
  return false;
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
  if (is_one_of(text, {"", "~", "null", "Null", "NULL"})) return nullptr;
  if (is_one_of(text, {"true", "True", "TRUE", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON"})) {
    return true;
  }
  if (is_one_of(text,
                {"false", "False", "FALSE", "no", "No", "NO", "n", "N", "off", "Off", "OFF"})) {
    return false;
  }
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
