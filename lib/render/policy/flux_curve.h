// The Flux broker's CURVE certificate: a Curve25519 key pair (OpenSSL's X25519), Z85-encoded
// (ZeroMQ RFC 32) in the ZPL-style file `flux keygen` writes and Kubeflow Trainer's Flux
// plugin puts into the `<T>-flux-curve` Secret as `curve.cert`.
#ifndef TRAINJOB_RENDER_POLICY_FLUX_CURVE_H_
#define TRAINJOB_RENDER_POLICY_FLUX_CURVE_H_

#include <optional>
#include <string>

namespace trainjob {

/// Raw keys, 32 bytes each.
struct CurveKeyPair {
  std::string public_key;
  std::string secret_key;
};

/// Z85 text of `bytes` (5 characters per 4 bytes); nullopt unless the size is a multiple of 4.
std::optional<std::string> encode_z85(const std::string& bytes);
/// The bytes of Z85 text; nullopt unless the size is a multiple of 5 and every character
/// and every 5-character group is valid.
std::optional<std::string> decode_z85(const std::string& text);

/// A fresh key pair from the system's random source; nullopt if OpenSSL fails.
std::optional<CurveKeyPair> generate_curve_key_pair();
/// The public key that belongs to a 32-byte secret key; nullopt if it is not one.
std::optional<std::string> curve_public_key(const std::string& secret_key);

/// The certificate file, named `name` (upstream names it after the TrainJob).
std::string curve_certificate(const std::string& name, const CurveKeyPair& keys);
/// Reads the keys back from a certificate file; nullopt unless both keys are present and
/// are valid 40-character Z85 strings.
std::optional<CurveKeyPair> parse_curve_certificate(const std::string& text);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_FLUX_CURVE_H_
