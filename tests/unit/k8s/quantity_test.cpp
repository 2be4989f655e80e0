#include "k8s/quantity.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

namespace trainjob {
namespace {

constexpr int64_t kUnit = 1'000'000'000;  // nanos per base unit

Quantity parse_ok(std::string_view text) {
  std::string error;
  const std::optional<Quantity> q = parse_quantity(text, &error);
  INFO("input: \"", std::string(text), "\" error: ", error);
  REQUIRE(q.has_value());
  return *q;
}

// doctest cannot print __int128, so tests compare values that fit in 64 bits.
int64_t nanos_of(std::string_view text) {
  const Quantity q = parse_ok(text);
  REQUIRE(q.nanos >= std::numeric_limits<int64_t>::min());
  REQUIRE(q.nanos <= std::numeric_limits<int64_t>::max());
  return static_cast<int64_t>(q.nanos);
}

std::string parse_error(std::string_view text) {
  std::string error;
  const std::optional<Quantity> q = parse_quantity(text, &error);
  INFO("input: \"", std::string(text), "\"");
  CHECK_FALSE(q.has_value());
  return error;
}

std::string canonical(std::string_view text) {
  return format_quantity(parse_ok(text));
}

}  // namespace

TEST_CASE("quantity: parses plain numbers and decimal SI suffixes exactly") {
  CHECK(nanos_of("2500m") == 2'500'000'000);
  CHECK(nanos_of("2.5") == 2'500'000'000);
  CHECK(nanos_of("0.7") == 700'000'000);
  CHECK(nanos_of("3.7") == 3'700'000'000);
  CHECK(nanos_of("100n") == 100);
  CHECK(nanos_of("1u") == 1000);
  CHECK(nanos_of("1k") == 1000 * kUnit);
  CHECK(nanos_of("2G") == 2'000'000'000 * kUnit);
  CHECK(nanos_of("007") == 7 * kUnit);
  CHECK((parse_ok("1E").nanos == __int128{kUnit} * kUnit * kUnit));  // E alone is exa
  CHECK(parse_ok("2500m").format == QuantityFormat::kDecimalSI);
  CHECK(parse_ok("2").format == QuantityFormat::kDecimalSI);
}

TEST_CASE("quantity: parses binary SI suffixes") {
  CHECK(nanos_of("1Ki") == 1024 * kUnit);
  CHECK(nanos_of("1Gi") == (int64_t{1} << 30) * kUnit);
  CHECK(nanos_of("1.5Ki") == 1536 * kUnit);
  CHECK(nanos_of("0.5Gi") == (int64_t{1} << 29) * kUnit);
  CHECK(parse_ok("1Gi").format == QuantityFormat::kBinarySI);
  // 8Ei = 2^63 does not fit in int64; we keep it exactly (Kubernetes caps it at 2^63-1).
  const Quantity big = parse_ok("8Ei");
  CHECK((big.nanos == (__int128{1} << 63) * kUnit));
  CHECK(big.format == QuantityFormat::kBinarySI);
}

TEST_CASE("quantity: parses decimal exponents") {
  CHECK(nanos_of("1e3") == 1000 * kUnit);
  CHECK(nanos_of("1E3") == 1000 * kUnit);
  CHECK(nanos_of("1e+3") == 1000 * kUnit);
  CHECK(nanos_of("1.5E-2") == 15'000'000);
  CHECK(nanos_of("12e-9") == 12);
  CHECK(parse_ok("1e3").format == QuantityFormat::kDecimalExponent);
  CHECK(parse_ok("1.5E-2").format == QuantityFormat::kDecimalExponent);
}

TEST_CASE("quantity: accepts signs and bare decimal points") {
  CHECK(nanos_of("+1") == kUnit);
  CHECK(nanos_of("-1") == -kUnit);
  CHECK(nanos_of(".5") == 500'000'000);
  CHECK(nanos_of("5.") == 5 * kUnit);
  CHECK(nanos_of("5.Gi") == 5 * (int64_t{1} << 30) * kUnit);
  CHECK(nanos_of("-0") == 0);
  CHECK(quantity_is_zero(parse_ok("0")));
  CHECK(quantity_is_zero(parse_ok("0Gi")));
  CHECK_FALSE(quantity_is_zero(parse_ok("1n")));
}

TEST_CASE("quantity: rounds values finer than a nano away from zero") {
  CHECK(nanos_of("0.1n") == 1);
  CHECK(nanos_of("1.0000000001") == kUnit + 1);
  CHECK(nanos_of("1.0000000000") == kUnit);
  CHECK(nanos_of("-0.1n") == -1);
  CHECK(nanos_of("1e-20") == 1);
  CHECK(nanos_of("1e-999999") == 1);
  CHECK(nanos_of("0e999999") == 0);
  CHECK(nanos_of("0.0000000001Ki") == 103);  // 102.4n
  // Fractions of binary units far below nano precision still round up exactly once.
  CHECK(nanos_of("0.00000000000000000000000001Ei") == 12);  // 11.529...n
}

TEST_CASE("quantity: rejects malformed strings") {
  for (const char* text :
       {"",     " ",     " 1", "1 ",    "1.2.3", "abc",  "1K", "1 Gi", "--1",           "1e",
        "+",    "-",     ".",  "1e1.5", "1ki",   "1Gib", "e3", "1e+",  "1e99999999999", "1.5m3",
        "0x10", "1_000", "Gi"}) {
    const std::string error = parse_error(text);
    INFO("input: \"", text, "\" error: ", error);
    CHECK(error.find("expected a quantity such as 500m, 2, 1.5Gi or 1e3") != std::string::npos);
  }
  CHECK(parse_error("1K") ==
        "unknown suffix \"K\"; expected a quantity such as 500m, 2, 1.5Gi or 1e3");
  CHECK_FALSE(parse_quantity("abc", nullptr).has_value());  // error is optional
}

TEST_CASE("quantity: rejects magnitudes beyond 1e27") {
  CHECK(parse_error("1e28").find("too large") != std::string::npos);
  CHECK(parse_error("-1e28").find("too large") != std::string::npos);
  CHECK(parse_error("1000000000Ei").find("too large") != std::string::npos);
  CHECK(parse_error("1000000000000000000000000000001").find("too large") != std::string::npos);
  CHECK(parse_error("1e2147483647").find("too large") != std::string::npos);
  CHECK((parse_ok("1e27").nanos == __int128{kUnit} * kUnit * kUnit * kUnit));
  CHECK((parse_ok("-1000000000E").nanos == -__int128{kUnit} * kUnit * kUnit * kUnit));
}

TEST_CASE("quantity: ceil rounds up to a whole unit like Quantity.Value()") {
  CHECK(quantity_ceil(parse_ok("2500m")) == 3);
  CHECK(quantity_ceil(parse_ok("0.7")) == 1);
  CHECK(quantity_ceil(parse_ok("3.7")) == 4);
  CHECK(quantity_ceil(parse_ok("2")) == 2);
  CHECK(quantity_ceil(parse_ok("1n")) == 1);
  CHECK(quantity_ceil(parse_ok("0")) == 0);
  CHECK(quantity_ceil(parse_ok("-0.5")) == 0);
  CHECK(quantity_ceil(parse_ok("-2500m")) == -2);
  CHECK(quantity_ceil(parse_ok("1Gi")) == int64_t{1} << 30);
  CHECK(quantity_ceil(parse_ok("1e27")) == std::numeric_limits<int64_t>::max());
  CHECK(quantity_ceil(parse_ok("-1e27")) == std::numeric_limits<int64_t>::min());
}

TEST_CASE("quantity: formats the canonical form Kubernetes prints") {
  // Binary SI.
  CHECK(canonical("1Gi") == "1Gi");
  CHECK(canonical("1536Mi") == "1536Mi");
  CHECK(canonical("1.5Gi") == "1536Mi");
  CHECK(canonical("2048Ki") == "2Mi");
  CHECK(canonical("0.5Gi") == "512Mi");
  CHECK(canonical("1.5Ki") == "1536");
  CHECK(canonical("0.5Ki") == "512");       // below 1024: decimal
  CHECK(canonical("1.1Ki") == "1126400m");  // not whole: decimal
  CHECK(canonical("1025Ki") == "1025Ki");
  CHECK(canonical("-1Gi") == "-1Gi");
  CHECK(canonical("8Ei") == "8Ei");
  CHECK(canonical("1024Ei") == "1024Ei");  // Ei is the largest binary suffix
  // Decimal SI.
  CHECK(canonical("1000m") == "1");
  CHECK(canonical("0") == "0");
  CHECK(canonical("-0") == "0");
  CHECK(canonical("1.5") == "1500m");
  CHECK(canonical("-1.5") == "-1500m");
  CHECK(canonical("32") == "32");
  CHECK(canonical("32000") == "32k");
  CHECK(canonical("0.1") == "100m");
  CHECK(canonical("1024") == "1024");
  CHECK(canonical("100n") == "100n");
  CHECK(canonical("1000000n") == "1m");
  CHECK(canonical("1u") == "1u");
  CHECK(canonical("+1") == "1");
  CHECK(canonical("01") == "1");
  CHECK(canonical("1.0") == "1");
  CHECK(canonical("1E") == "1E");
  CHECK(canonical("1000E") == "1000E");  // E is the largest decimal suffix
  CHECK(canonical("0.00000000001") == "1n");
  // Decimal exponent.
  CHECK(canonical("1e3") == "1e3");
  CHECK(canonical("1.5e3") == "1500");
  CHECK(canonical("1.5E-2") == "15e-3");
  CHECK(canonical("12e6") == "12e6");
  CHECK(canonical("1e21") == "1e21");
  CHECK(canonical("1e-20") == "1e-9");
  CHECK(canonical("0e3") == "0");
}

TEST_CASE("quantity: add keeps the first non-zero operand's format") {
  CHECK(format_quantity(quantity_add(parse_ok("2"), parse_ok("500m"))) == "2500m");
  CHECK(format_quantity(quantity_add(parse_ok("1Gi"), parse_ok("512Mi"))) == "1536Mi");
  CHECK(format_quantity(quantity_add(parse_ok("1Gi"), parse_ok("1G"))) == "2073741824");
  CHECK(format_quantity(quantity_add(Quantity{}, parse_ok("1Gi"))) == "1Gi");
  CHECK(format_quantity(quantity_add(parse_ok("1"), parse_ok("-1"))) == "0");
  CHECK(quantity_add(parse_ok("1e27"), parse_ok("1e27")).nanos == parse_ok("1e27").nanos);
}

TEST_CASE("quantity: scale multiplies exactly and saturates") {
  CHECK(format_quantity(quantity_scale(parse_ok("500m"), 4)) == "2");
  CHECK(format_quantity(quantity_scale(parse_ok("1Gi"), 3)) == "3Gi");
  CHECK(format_quantity(quantity_scale(parse_ok("1Gi"), -1)) == "-1Gi");
  CHECK(format_quantity(quantity_scale(parse_ok("1.5"), 0)) == "0");
  CHECK(quantity_scale(parse_ok("1e3"), 2).format == QuantityFormat::kDecimalExponent);
  const Quantity huge = quantity_scale(parse_ok("1E"), std::numeric_limits<int64_t>::max());
  CHECK(huge.nanos == parse_ok("1e27").nanos);
  CHECK(format_quantity(huge) == "1000000000E");
  const Quantity negative = quantity_scale(parse_ok("1E"), std::numeric_limits<int64_t>::min());
  CHECK(negative.nanos == -parse_ok("1e27").nanos);
}

TEST_CASE("quantity: canonical strings parse back to the same value") {
  for (const char* text :
       {"2500m", "2.5", "0.7", "3.7", "1Gi", "1.5Gi", "1e3", "1.5E-2", "+1", "-1", ".5", "5.",
        "100n", "1u", "8Ei", "1.1Ki", "123456789n", "-42e-6", "1e27"}) {
    INFO("input: ", text);
    const Quantity q = parse_ok(text);
    const std::string once = format_quantity(q);
    const Quantity back = parse_ok(once);
    CHECK(back.nanos == q.nanos);
    CHECK(format_quantity(back) == once);
  }
}

}  // namespace trainjob
