#include "util/reproducible_math.h"

#include <cmath>
#include <limits>

namespace trainjob {
namespace {

/// hi + lo, |lo| at most half an ulp of hi: a value of about 106 bits.
struct DoubleDouble {
  double hi;
  double lo;
};

/// a + b exactly, where |a| >= |b| or a is 0 (Dekker).
DoubleDouble fast_two_sum(double a, double b) {
  double sum = a + b;
  return {sum, b - (sum - a)};
}

/// a + b exactly (Knuth).
DoubleDouble two_sum(double a, double b) {
  double sum = a + b;
  double b_part = sum - a;
  return {sum, (a - (sum - b_part)) + (b - b_part)};
}

/// a as hi + lo, each of at most 26 significant bits, so that products of halves are exact
/// (Veltkamp; |a| below 2^996, true of every value here).
DoubleDouble split(double a) {
  double scaled = 134217729.0 * a;  // 2^27 + 1
  double hi = scaled - (scaled - a);
  return {hi, a - hi};
}

/// a * b exactly (Dekker): with FMA contraction, the rounding error would be computed wrongly.
DoubleDouble two_product(double a, double b) {
  double product = a * b;
  DoubleDouble x = split(a);
  DoubleDouble y = split(b);
  double error = ((x.hi * y.hi - product) + x.hi * y.lo + x.lo * y.hi) + x.lo * y.lo;
  return {product, error};
}

DoubleDouble add(DoubleDouble a, DoubleDouble b) {
  DoubleDouble high = two_sum(a.hi, b.hi);
  DoubleDouble low = two_sum(a.lo, b.lo);
  high = fast_two_sum(high.hi, high.lo + low.hi);
  return fast_two_sum(high.hi, high.lo + low.lo);
}

DoubleDouble multiply(DoubleDouble a, DoubleDouble b) {
  DoubleDouble product = two_product(a.hi, b.hi);
  return fast_two_sum(product.hi, product.lo + (a.hi * b.lo + a.lo * b.hi));
}

DoubleDouble multiply(DoubleDouble a, double b) {
  DoubleDouble product = two_product(a.hi, b);
  return fast_two_sum(product.hi, product.lo + a.lo * b);
}

/// a / b, three quotient digits, each taken from what the earlier ones left.
DoubleDouble divide(DoubleDouble a, DoubleDouble b) {
  double q1 = a.hi / b.hi;
  DoubleDouble rest = add(a, multiply(b, -q1));
  double q2 = rest.hi / b.hi;
  rest = add(rest, multiply(b, -q2));
  double q3 = rest.hi / b.hi;
  return add(fast_two_sum(q1, q2), DoubleDouble{q3, 0.0});
}

DoubleDouble divide(DoubleDouble a, double b) {
  return divide(a, DoubleDouble{b, 0.0});
}

/// ln 2 to about 107 bits.
constexpr DoubleDouble kLn2 = {0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};

}  // namespace

double reproducible_log(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)): log x = e ln 2 + log m, and
  // log m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...) with s = (m - 1) / (m + 1), |s| < 0.172.
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < 0x1.6a09e667f3bcdp-1) {
    m *= 2;
    e -= 1;
  }
  // m - 1 is exact (Sterbenz); m + 1 is made exact as a double-double.
  DoubleDouble s = divide(DoubleDouble{m - 1, 0.0}, two_sum(m, 1.0));
  DoubleDouble s_squared = multiply(s, s);
  DoubleDouble power = s;
  DoubleDouble atanh = s;
  // s^2 < 0.0295: after 22 terms the next is below 2^-110 of the sum.
  for (int k = 3; k <= 45; k += 2) {
    power = multiply(power, s_squared);
    atanh = add(atanh, divide(power, static_cast<double>(k)));
  }
  DoubleDouble log_m = {2 * atanh.hi, 2 * atanh.lo};
  return add(multiply(kLn2, static_cast<double>(e)), log_m).hi;
}

double reproducible_exp(double x) {
  if (std::isnan(x)) return x;
  // Beyond these exp(x) is past the largest double or below half the smallest subnormal.
  if (x > 710) return std::numeric_limits<double>::infinity();
  if (x < -746) return 0;
  // x = k ln 2 + r, |r| <= ln 2 / 2 (and a hair), exp x = 2^k exp r.
  double k = std::floor(x / kLn2.hi + 0.5);
  DoubleDouble r = add(DoubleDouble{x, 0.0}, multiply(kLn2, -k));
  // exp r = sum r^n / n!: with |r| < 0.35 the 27th term is below 2^-120.
  DoubleDouble term = {1.0, 0.0};
  DoubleDouble sum = {1.0, 0.0};
  for (int n = 1; n <= 27; ++n) {
    term = divide(multiply(term, r), static_cast<double>(n));
    sum = add(sum, term);
  }
  return std::ldexp(sum.hi, static_cast<int>(k));
}

}  // namespace trainjob
