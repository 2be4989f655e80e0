// The natural logarithm and exponential computed here, from IEEE-754 additions,
// multiplications and divisions and the exact frexp/ldexp only, so that a value drawn with
// them (a sweep's log-uniform search space) is the same bits on every machine: libm's log and
// exp differ between glibc versions and architectures, and glibc 2.29 versioned them anew
// (log@GLIBC_2.29, exp@GLIBC_2.29), which the release plugin must not need (docs/install.md).
// They work in double-double arithmetic (about 100 bits), so the result is the correctly
// rounded one except where the exact value lies within about 2^-100 of a midpoint between two
// doubles, and always within one ulp. The file is compiled without FMA contraction
// (-ffp-contract=off, lib/CMakeLists.txt): the error-free product below depends on each
// multiplication being rounded on its own.
#ifndef TRAINJOB_UTIL_REPRODUCIBLE_MATH_H_
#define TRAINJOB_UTIL_REPRODUCIBLE_MATH_H_

namespace trainjob {

/// log(x): -inf for 0, NaN below 0 and for NaN, inf for inf.
double reproducible_log(double x);

/// exp(x): inf above about 709.78, 0 below about -745.13, NaN for NaN. Results in the
/// subnormal range (x below about -708.4) are rounded twice and may be off by one ulp.
double reproducible_exp(double x);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_REPRODUCIBLE_MATH_H_
