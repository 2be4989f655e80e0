#include "util/duration.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace trainjob {
namespace {

/// The whole of `text` as a finite number; std::stod would throw for "." or 400 digits.
std::optional<double> finite_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

/// Seconds in one Go duration unit (h, m, s, ms, us, µs, ns).
std::optional<double> unit_seconds(const std::string& unit) {
  static const std::pair<const char*, double> kUnits[] = {
      {"h", 3600}, {"m", 60}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9}};
  for (const auto& [name, seconds] : kUnits) {
    if (unit == name) return seconds;
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> parse_duration(const std::string& text) {
  if (text.empty()) return std::nullopt;
  bool all_digits = text.find_first_not_of("0123456789") == std::string::npos;
  if (all_digits) return finite_number(text);
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
      ++i;
    std::optional<double> number = finite_number(text.substr(start, i - start));
    if (!number) return std::nullopt;
    size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])))
      ++i;
    std::optional<double> unit = unit_seconds(text.substr(unit_start, i - unit_start));
    if (!unit) return std::nullopt;
    total += *number * *unit;
  }
  if (!std::isfinite(total)) return std::nullopt;
  return total;
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%gs", seconds);
  return text;
}

}  // namespace trainjob
