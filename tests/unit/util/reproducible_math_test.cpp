// reproducible_log and reproducible_exp give a sweep's log-uniform draws; their bits are part
// of every rendered sweep kept in Git (docs/sweeps.md). The exact values below are the
// correctly rounded ones (Python's decimal module at 80 digits), among them inputs where this
// machine's libm rounds the other way; libm is only the yardstick of the wide comparison.
#include "util/reproducible_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include <doctest/doctest.h>

using trainjob::reproducible_exp;
using trainjob::reproducible_log;

namespace {

struct Pair {
  double in;
  double out;
};

/// How many doubles lie between a and b (same sign, finite).
int64_t ulps_apart(double a, double b) {
  int64_t x = 0;
  int64_t y = 0;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x > y ? x - y : y - x;
}

}  // namespace

TEST_CASE("reproducible_log: exact at powers of two, 1 and the ends of the doubles") {
  CHECK(reproducible_log(1.0) == 0.0);
  // k ln 2, correctly rounded: the reduction adds nothing to the exponent's share.
  const Pair powers[] = {
      {1, 0x1.62e42fefa39efp-1},      {2, 0x1.62e42fefa39efp+0},     {-1, -0x1.62e42fefa39efp-1},
      {-2, -0x1.62e42fefa39efp+0},    {10, 0x1.bb9d3beb8c86bp+2},    {-10, -0x1.bb9d3beb8c86bp+2},
      {100, 0x1.1542457337d43p+6},    {-100, -0x1.1542457337d43p+6}, {1023, 0x1.628b76e3a7b61p+9},
      {-1022, -0x1.6232bdd7abcd2p+9}, {-1074, -0x1.74385446d71c3p+9}};
  for (const Pair& power : powers) {
    CAPTURE(power.in);
    CHECK(reproducible_log(std::ldexp(1.0, static_cast<int>(power.in))) == power.out);
  }
  CHECK(reproducible_log(std::numeric_limits<double>::max()) == 0x1.62e42fefa39efp+9);
  CHECK(reproducible_log(10.0) == 0x1.26bb1bbb55516p+1);
  CHECK(reproducible_log(0.1) == -0x1.26bb1bbb55515p+1);   // the double nearest 0.1
  CHECK(reproducible_log(1e-4) == -0x1.26bb1bbb55515p+3);  // the double nearest 1e-4
  CHECK(reproducible_log(0.0) == -std::numeric_limits<double>::infinity());
  CHECK(reproducible_log(std::numeric_limits<double>::infinity()) ==
        std::numeric_limits<double>::infinity());
  CHECK(std::isnan(reproducible_log(-1.0)));
  CHECK(std::isnan(reproducible_log(std::numeric_limits<double>::quiet_NaN())));
}

TEST_CASE("reproducible_exp: exact at 0 and 1, and at the ends of the doubles") {
  CHECK(reproducible_exp(0.0) == 1.0);
  CHECK(reproducible_exp(-0.0) == 1.0);
  CHECK(reproducible_exp(1.0) == 0x1.5bf0a8b145769p+1);
  CHECK(reproducible_exp(0x1.62e42fefa39efp+9) == 1.7976931348622732e+308);
  CHECK(reproducible_exp(709.79) == std::numeric_limits<double>::infinity());
  CHECK(reproducible_exp(-708.0) == 0x1.7c8ab2288c9abp-1022);
  CHECK(reproducible_exp(-0x1.74385446d71c3p+9) == std::numeric_limits<double>::denorm_min());
  CHECK(reproducible_exp(-746.0) == 0.0);
  CHECK(reproducible_exp(-std::numeric_limits<double>::infinity()) == 0.0);
  CHECK(reproducible_exp(std::numeric_limits<double>::infinity()) ==
        std::numeric_limits<double>::infinity());
  CHECK(std::isnan(reproducible_exp(std::numeric_limits<double>::quiet_NaN())));
}

TEST_CASE("reproducible_log and reproducible_exp: correctly rounded where glibc 2.36's are not") {
  const Pair logs[] = {
      {0x1.7803b0a2b51dcp+0, 0x1.89ad44ff56f32p-2},  {0x1.d7e75b11ba70ap+2, 0x1.ff75d865fea8ep+0},
      {0x1.180696b289999p-2, -0x1.4bed57574efb6p+0}, {0x1.a385bbab42ce9p-1, -0x1.97fa3708353abp-3},
      {0x1.57bc557544ea7p+1, 0x1.f9c6857a4df17p-1},  {0x1.8e29a044ffb33p+0, 0x1.c4488e0639212p-2},
      {0x1.3d207d6858165p+1, 0x1.d085ed84e5e89p-1},  {0x1.1ffac00588f78p+1, 0x1.9f28e96ab40a7p-1},
      {0x1.078b10239c22cp-1, -0x1.5405de1eaf1afp-1}, {0x1.39da1485275e4p+2, 0x1.970cbbf07b1bcp+0}};
  for (const Pair& pair : logs) {
    CAPTURE(pair.in);
    CHECK(reproducible_log(pair.in) == pair.out);
  }
  const Pair exps[] = {{-0x1.d12d72568db2p+0, 0x1.4ccae386658c3p-3},
                       {0x1.8a4453a685e98p+2, 0x1.d9a08a985e989p+8},
                       {-0x1.c59f460b3ab87p+3, 0x1.767e73bae44a4p-21},
                       {-0x1.67ae36683de18p+3, 0x1.b8d4ef187a2b7p-17},
                       {0x1.dda4ad61a105cp+3, 0x1.72b78aa5ef566p+21},
                       {-0x1.2af7882cec1ep+0, 0x1.3e80cc699064fp-2},
                       {0x1.839a0274cd6e4p+3, 0x1.63bfbd42525b1p+17},
                       {0x1.24b9035a5b8c4p+4, 0x1.507943d81ea92p+26},
                       {0x1.5d2300e6fbd96p+3, 0x1.abbaee81d2401p+15},
                       {0x1.edaff854e052p+2, 0x1.17e5c9081131fp+11}};
  for (const Pair& pair : exps) {
    CAPTURE(pair.in);
    CHECK(reproducible_exp(pair.in) == pair.out);
  }
}

TEST_CASE("reproducible_log and reproducible_exp: within one ulp of libm over many values") {
  std::mt19937_64 random(20261128);
  std::uniform_int_distribution<int> exponent(-1074, 1023);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_real_distribution<double> sweep_range(1e-6, 1e3);
  std::uniform_real_distribution<double> exponent_range(-708.0, 709.0);
  std::uniform_real_distribution<double> small_range(-20.0, 20.0);
  int64_t worst_log = 0;
  int64_t worst_exp = 0;
  for (int i = 0; i < 20000; ++i) {
    // Every binade, and the ranges a sweep's bounds come from.
    double x = i % 2 ? std::ldexp(mantissa(random), exponent(random)) : sweep_range(random);
    worst_log = std::max(worst_log, ulps_apart(reproducible_log(x), std::log(x)));
    double y = i % 2 ? exponent_range(random) : small_range(random);
    worst_exp = std::max(worst_exp, ulps_apart(reproducible_exp(y), std::exp(y)));
  }
  CHECK(worst_log <= 1);
  CHECK(worst_exp <= 1);
}
