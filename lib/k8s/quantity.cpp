#include "k8s/quantity.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace trainjob {
namespace {

using U128 = unsigned __int128;

constexpr __int128 kNanosPerUnit = 1'000'000'000;
// 1e27 base units: far beyond any real resource, yet small enough that the sum of two in-range
// values cannot overflow __int128 (max ~1.7e38).
constexpr __int128 kMaxNanos = kNanosPerUnit * kNanosPerUnit * kNanosPerUnit * kNanosPerUnit;
constexpr U128 kMaxMagnitude = kMaxNanos;

constexpr std::string_view kExpected = "expected a quantity such as 500m, 2, 1.5Gi or 1e3";

// Index i means 10^(3i - 9); shared by parsing and canonical printing.
constexpr std::array<std::string_view, 10> kDecimalSuffixes = {"n", "u", "m", "",  "k",
                                                               "M", "G", "T", "P", "E"};
// Index i means 2^(10i).
constexpr std::array<std::string_view, 7> kBinarySuffixes = {"",   "Ki", "Mi", "Gi",
                                                             "Ti", "Pi", "Ei"};

// The pieces of `[sign] digits [. digits] suffix`.
struct NumberParts {
  bool negative = false;
  std::string_view integer;
  std::string_view fraction;
  std::string_view suffix;
};

// value = number * 2^binary_shift * 10^decimal_exponent.
struct SuffixMeaning {
  int binary_shift = 0;
  int64_t decimal_exponent = 0;
  QuantityFormat format = QuantityFormat::kDecimalSI;
};

// A non-negative integer as decimal digits, most significant first. The exact value is built
// this way because a long fraction times 2^60 (`0.000…1Ei`) does not fit in 128 bits.
using Digits = std::vector<uint8_t>;

size_t count_digits(std::string_view text, size_t pos) {
  size_t end = pos;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0)
    ++end;
  return end - pos;
}

std::optional<NumberParts> split_number(std::string_view text) {
  NumberParts parts;
  size_t pos = 0;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    parts.negative = text[0] == '-';
    pos = 1;
  }
  parts.integer = text.substr(pos, count_digits(text, pos));
  pos += parts.integer.size();
  if (pos < text.size() && text[pos] == '.') {
    parts.fraction = text.substr(pos + 1, count_digits(text, pos + 1));
    pos += 1 + parts.fraction.size();
  }
  if (parts.integer.empty() && parts.fraction.empty()) return std::nullopt;
  parts.suffix = text.substr(pos);
  return parts;
}

// The `<exponent>` after `e`/`E`: optional sign, digits, within 32 bits as Kubernetes requires.
std::optional<int64_t> parse_exponent(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty() || count_digits(text, 0) != text.size()) return std::nullopt;
  const int64_t limit = negative ? int64_t{1} << 31 : (int64_t{1} << 31) - 1;  // int32 range
  int64_t value = 0;
  for (char c : text) {
    value = value * 10 + (c - '0');
    if (value > limit) return std::nullopt;
  }
  return negative ? -value : value;
}

std::optional<SuffixMeaning> interpret_suffix(std::string_view suffix) {
  // Decimal first: the empty suffix is plain DecimalSI, and `E` alone means exa.
  for (size_t i = 0; i < kDecimalSuffixes.size(); ++i) {
    if (suffix == kDecimalSuffixes[i]) {
      return SuffixMeaning{0, static_cast<int64_t>(3 * i) - 9, QuantityFormat::kDecimalSI};
    }
  }
  for (size_t i = 1; i < kBinarySuffixes.size(); ++i) {
    if (suffix == kBinarySuffixes[i]) {
      return SuffixMeaning{static_cast<int>(10 * i), 0, QuantityFormat::kBinarySI};
    }
  }
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    if (std::optional<int64_t> exponent = parse_exponent(suffix.substr(1))) {
      return SuffixMeaning{0, *exponent, QuantityFormat::kDecimalExponent};
    }
  }
  return std::nullopt;
}

std::string suffix_error(std::string_view suffix) {
  if (std::isalpha(static_cast<unsigned char>(suffix[0])) == 0) return std::string(kExpected);
  return "unknown suffix \"" + std::string(suffix) + "\"; " + std::string(kExpected);
}

Digits to_digits(std::string_view integer, std::string_view fraction) {
  Digits digits;
  for (std::string_view part : {integer, fraction}) {
    for (char c : part)
      digits.push_back(static_cast<uint8_t>(c - '0'));
  }
  return digits;
}

// Multiplies in place by 2^shift, ten bits at a time so each step's carry stays small.
void shift_left(Digits* digits, int shift) {
  for (; shift > 0; shift -= 10) {
    const unsigned factor = 1U << std::min(shift, 10);
    unsigned carry = 0;
    for (auto it = digits->rbegin(); it != digits->rend(); ++it) {
      const unsigned product = *it * factor + carry;
      *it = static_cast<uint8_t>(product % 10);
      carry = product / 10;
    }
    for (; carry > 0; carry /= 10)
      digits->insert(digits->begin(), carry % 10);
  }
}

// digits * 10^shift as an integer. Dropped nonzero digits round the magnitude up, as Kubernetes
// does so that a tiny request never becomes zero. nullopt when above kMaxMagnitude.
std::optional<U128> scale_to_integer(const Digits& digits, int64_t shift) {
  size_t keep = digits.size();
  bool remainder = false;
  if (shift < 0) {
    const auto dropped = static_cast<uint64_t>(-shift);
    keep = dropped >= digits.size() ? 0 : digits.size() - dropped;
    remainder = std::any_of(digits.begin() + static_cast<std::ptrdiff_t>(keep), digits.end(),
                            [](uint8_t d) { return d != 0; });
  }
  U128 value = 0;
  for (size_t i = 0; i < keep; ++i) {
    value = value * 10 + digits[i];
    if (value > kMaxMagnitude) return std::nullopt;
  }
  for (int64_t i = 0; i < shift && value != 0; ++i) {
    value *= 10;
    if (value > kMaxMagnitude) return std::nullopt;
  }
  if (remainder) ++value;
  if (value > kMaxMagnitude) return std::nullopt;
  return value;
}

std::string to_decimal(__int128 value) {
  U128 magnitude = value < 0 ? -static_cast<U128>(value) : static_cast<U128>(value);
  std::string out;
  do {
    out.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  if (value < 0) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

// BinarySI form, or nullopt where Kubernetes falls back to DecimalSI: magnitudes below 1024
// (to avoid confusion) and non-whole values (to avoid losing precision).
std::optional<std::string> format_binary(__int128 nanos) {
  if (nanos % kNanosPerUnit != 0) return std::nullopt;
  __int128 units = nanos / kNanosPerUnit;
  if (units > -1024 && units < 1024) return std::nullopt;
  size_t exponent = 0;
  while (exponent + 1 < kBinarySuffixes.size() && units % 1024 == 0) {
    units /= 1024;
    ++exponent;
  }
  return to_decimal(units) + std::string(kBinarySuffixes[exponent]);
}

std::string format_decimal(__int128 nanos, QuantityFormat format) {
  __int128 mantissa = nanos;
  int exponent = -9;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  // Lower the exponent to a multiple of 3 so that it names a suffix (or engineering exponent).
  while (exponent % 3 != 0) {
    mantissa *= 10;
    --exponent;
  }
  if (format == QuantityFormat::kDecimalExponent) {
    return to_decimal(mantissa) + (exponent == 0 ? "" : "e" + std::to_string(exponent));
  }
  for (; exponent > 18; exponent -= 3)
    mantissa *= 1000;  // E is the largest decimal suffix
  return to_decimal(mantissa) + std::string(kDecimalSuffixes[(exponent + 9) / 3]);
}

__int128 saturate(__int128 nanos) {
  return std::clamp(nanos, -kMaxNanos, kMaxNanos);
}

}  // namespace

std::optional<Quantity> parse_quantity(std::string_view text, std::string* error) {
  auto fail = [error](std::string message) -> std::optional<Quantity> {
    if (error != nullptr) *error = std::move(message);
    return std::nullopt;
  };
  const std::optional<NumberParts> parts = split_number(text);
  if (!parts) return fail(std::string(kExpected));
  const std::optional<SuffixMeaning> suffix = interpret_suffix(parts->suffix);
  if (!suffix) return fail(suffix_error(parts->suffix));

  Digits digits = to_digits(parts->integer, parts->fraction);
  shift_left(&digits, suffix->binary_shift);
  const int64_t shift = 9 + suffix->decimal_exponent - static_cast<int64_t>(parts->fraction.size());
  const std::optional<U128> magnitude = scale_to_integer(digits, shift);
  if (!magnitude) return fail("quantity is too large (the limit is 1e27)");

  const auto nanos = static_cast<__int128>(*magnitude);
  QuantityFormat format = suffix->format;
  // Kubernetes demotes fractional binary values below one (`0.0001Ki`) to DecimalSI.
  if (format == QuantityFormat::kBinarySI && nanos != 0 && nanos < kNanosPerUnit) {
    format = QuantityFormat::kDecimalSI;
  }
  return Quantity{parts->negative ? -nanos : nanos, format};
}

int64_t quantity_ceil(const Quantity& q) {
  __int128 whole = q.nanos / kNanosPerUnit;
  // Division truncates toward zero, so only a positive remainder needs a bump to the ceiling.
  if (q.nanos % kNanosPerUnit > 0) ++whole;
  return static_cast<int64_t>(std::clamp<__int128>(whole, std::numeric_limits<int64_t>::min(),
                                                   std::numeric_limits<int64_t>::max()));
}

bool quantity_is_zero(const Quantity& q) {
  return q.nanos == 0;
}

Quantity quantity_add(const Quantity& a, const Quantity& b) {
  __int128 sum = 0;
  // Overflow is only possible for hand-built values beyond the documented range.
  if (__builtin_add_overflow(a.nanos, b.nanos, &sum)) sum = a.nanos < 0 ? -kMaxNanos : kMaxNanos;
  return Quantity{saturate(sum), a.nanos == 0 ? b.format : a.format};
}

Quantity quantity_scale(const Quantity& q, int64_t factor) {
  __int128 product = 0;
  if (__builtin_mul_overflow(q.nanos, static_cast<__int128>(factor), &product)) {
    product = (q.nanos < 0) != (factor < 0) ? -kMaxNanos : kMaxNanos;
  }
  return Quantity{saturate(product), q.format};
}

std::string format_quantity(const Quantity& q) {
  if (q.nanos == 0) return "0";
  if (q.format == QuantityFormat::kBinarySI) {
    if (std::optional<std::string> binary = format_binary(q.nanos)) return *binary;
  }
  return format_decimal(q.nanos, q.format);
}

}  // namespace trainjob
