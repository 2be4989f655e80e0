// Kubernetes resource quantities (`500m`, `2`, `1.5Gi`, `1e3`), following the semantics of
// k8s.io/apimachinery/pkg/api/resource.Quantity: parsing, exact arithmetic at nano precision and
// the canonical string form the API server prints.
//
// Deliberate differences from Kubernetes, all outside what real manifests use:
//  - Magnitudes above 1e27 base units are rejected ("too large") instead of being capped
//    (Kubernetes caps BinarySI values at 2^63-1, so it prints `8Ei` as `9223372036854775807`;
//    we keep `8Ei`).
//  - At least one digit is required: Kubernetes accepts `+`, `-` and `.` as zero.
//  - String() in Kubernetes may echo the input verbatim (`+1`, `01`) when it considers it
//    canonical; format_quantity() always prints the canonical form (`1`).
//  - Canonical suffixes stop at E / Ei; larger values keep a bigger mantissa (`1000E`).
#ifndef TRAINJOB_K8S_QUANTITY_H_
#define TRAINJOB_K8S_QUANTITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trainjob {

/// The notation a quantity was written in; it decides how format_quantity() prints it.
enum class QuantityFormat { kBinarySI, kDecimalSI, kDecimalExponent };

/// An exact quantity: `nanos` counts units of 1e-9, so `1.5` is 1'500'000'000.
/// |nanos| never exceeds 1e36 (1e27 base units) for values produced by this module.
struct Quantity {
  __int128 nanos = 0;
  QuantityFormat format = QuantityFormat::kDecimalSI;
};

/// Parses a Kubernetes quantity string; on failure returns nullopt and sets *error (when not
/// null) to a short human message saying what was expected. Values finer than 1e-9 round away
/// from zero to the next nano unit, as Kubernetes does.
std::optional<Quantity> parse_quantity(std::string_view text, std::string* error);

/// Quantity.Value() in Kubernetes: the value rounded up to an integer (2500m -> 3, 0.7 -> 1,
/// -0.5 -> 0), saturated to the int64 range. Kubernetes itself rounds negative fractions away
/// from zero (-0.5 -> -1); negative resources never reach this in practice.
int64_t quantity_ceil(const Quantity& q);
bool quantity_is_zero(const Quantity& q);
/// a + b, keeping a's format (b's if a is zero, like Quantity.Add); saturates at +/-1e27.
Quantity quantity_add(const Quantity& a, const Quantity& b);
/// q * factor, keeping q's format; saturates at +/-1e27.
Quantity quantity_scale(const Quantity& q, int64_t factor);

/// The canonical form Kubernetes' Quantity.String() prints: no fractional digits, the largest
/// suffix that keeps an integer mantissa (`1.5` -> `1500m`, `2048Ki` -> `2Mi`, `1.5Gi` ->
/// `1536Mi`, `1.5e3` -> `1500`, `15e-3` stays), and `0` for zero. BinarySI values below 1024
/// or not whole print as DecimalSI.
std::string format_quantity(const Quantity& q);

}  // namespace trainjob

#endif  // TRAINJOB_K8S_QUANTITY_H_
