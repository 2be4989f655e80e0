// Base64 (RFC 4648, standard alphabet) over OpenSSL's codec, for ConfigMap binaryData and
// kubeconfig *-data fields.
#ifndef TRAINJOB_CRYPTO_BASE64_H_
#define TRAINJOB_CRYPTO_BASE64_H_

#include <optional>
#include <string>

namespace trainjob {

/// Padding optional, whitespace ignored; nullopt on anything else that is not base64.
std::optional<std::string> decode_base64(const std::string& text);
std::string encode_base64(const std::string& bytes);

}  // namespace trainjob

#endif  // TRAINJOB_CRYPTO_BASE64_H_
