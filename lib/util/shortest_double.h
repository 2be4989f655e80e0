// The shortest decimal text of a double that reads back as the same double, in the form
// std::to_chars(first, last, double) gives (the plain overload): fixed or scientific,
// whichever is shorter, fixed on a tie. libstdc++ has that overload only from GCC 11; the
// release build uses GCC 10 (docs/install.md), so the digits are found here with printf's
// correctly rounded %e and strtod.
#ifndef TRAINJOB_UTIL_SHORTEST_DOUBLE_H_
#define TRAINJOB_UTIL_SHORTEST_DOUBLE_H_

#include <string>

namespace trainjob {

/// `value` finite: "0.1", "1e+20", "-1.5e-07", "123456", "-0".
std::string shortest_double(double value);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_SHORTEST_DOUBLE_H_
