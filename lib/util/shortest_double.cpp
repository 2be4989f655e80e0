#include "util/shortest_double.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace trainjob {
namespace {

/// value = digits × 10^exponent, digits without trailing zeros (but 0 for zero).
struct Decimal {
  uint64_t digits = 0;
  int exponent = 0;
};

/// Whether digits × 10^exponent reads back as `magnitude`. The text has no decimal point,
/// so strtod reads it the same in every locale.
bool reads_back(const Decimal& d, double magnitude) {
  char text[48];
  std::snprintf(text, sizeof text, "%llue%d", static_cast<unsigned long long>(d.digits),
                d.exponent);
  return std::strtod(text, nullptr) == magnitude;
}

Decimal trimmed(Decimal d) {
  while (d.digits != 0 && d.digits % 10 == 0) {
    d.digits /= 10;
    ++d.exponent;
  }
  return d;
}

/// The fewest significant digits that read back; among those, the nearest to the value (what the
/// standard asks of to_chars). For each length, printf's %e rounds correctly, so its digits
/// are the nearest; where the rounding interval is lopsided (next to a power of two) the
/// nearest may fall outside it while its neighbour in the last digit falls inside.
Decimal shortest_digits(double magnitude) {
  for (int precision = 0; precision <= 16; ++precision) {
    char text[48];
    std::snprintf(text, sizeof text, "%.*e", precision, magnitude);
    Decimal d;
    const char* p = text;
    for (; *p != 'e'; ++p) {
      if (*p >= '0' && *p <= '9') d.digits = d.digits * 10 + static_cast<uint64_t>(*p - '0');
    }
    d.exponent = std::atoi(p + 1) - precision;
    if (reads_back(d, magnitude)) return trimmed(d);
    for (uint64_t neighbour : {d.digits - 1, d.digits + 1}) {
      Decimal n{neighbour, d.exponent};
      if (reads_back(n, magnitude)) return trimmed(n);
    }
  }
  // 17 significant digits always read back; not reached.
  return Decimal{};
}

size_t decimal_length(uint64_t n) {
  size_t length = 1;
  while (n >= 10) {
    n /= 10;
    ++length;
  }
  return length;
}

}  // namespace

std::string shortest_double(double value) {
  std::string out = std::signbit(value) ? "-" : "";
  const Decimal d = shortest_digits(std::signbit(value) ? -value : value);
  const std::string digits = std::to_string(d.digits);
  const int n = static_cast<int>(digits.size());
  const int k = d.exponent;
  const int scientific_exponent = k + n - 1;
  const int exponent_digits = std::max(
      2, static_cast<int>(decimal_length(static_cast<uint64_t>(std::abs(scientific_exponent)))));
  const int scientific_length = n + (n > 1 ? 1 : 0) + 2 + exponent_digits;
  const int fixed_length = k >= 0 ? n + k : (-k < n ? n + 1 : 2 - k);
  if (fixed_length <= scientific_length) {
    if (k > 0) {
      // The digits padded with zeros would read back too, but the standard asks for the
      // nearest text of that length: the exact integer, which %.0f prints.
      char exact[320];
      std::snprintf(exact, sizeof exact, "%.0f", std::fabs(value));
      return out + exact;
    }
    if (k == 0) return out + digits;
    if (-k < n) return out + digits.substr(0, n + k) + "." + digits.substr(n + k);
    return out + "0." + std::string(static_cast<size_t>(-k - n), '0') + digits;
  }
  out += digits.substr(0, 1);
  if (n > 1) out += "." + digits.substr(1);
  std::string exponent = std::to_string(std::abs(scientific_exponent));
  if (exponent.size() < 2) exponent = "0" + exponent;
  return out + (scientific_exponent < 0 ? "e-" : "e+") + exponent;
}

}  // namespace trainjob
