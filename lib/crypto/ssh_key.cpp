#include "crypto/ssh_key.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "crypto/base64.h"
#include "crypto/crypto_library.h"

namespace trainjob {
namespace {

using PkeyPtr = std::unique_ptr<EVP_PKEY, decltype(CryptoApi::pkey_free)>;
using BioPtr = std::unique_ptr<BIO, decltype(CryptoApi::bio_free)>;

constexpr const char* kKeyType = "ecdsa-sha2-nistp521";
constexpr const char* kCurveId = "nistp521";
constexpr const char* kCurveName = "P-521";
// OSSL_PKEY_PARAM_GROUP_NAME and OSSL_PKEY_PARAM_PUB_KEY of OpenSSL 3's core_names.h, which
// OpenSSL 1.1's headers (the release build's) lack.
constexpr const char* kParamGroupName = "group";
constexpr const char* kParamPublicKey = "pub";

std::string libcrypto_error(const char* what) {
  unsigned long code = crypto().err_get_error();
  char text[256] = {0};
  if (code != 0) crypto().err_error_string_n(code, text, sizeof text);
  crypto().err_clear_error();
  return std::string(what) + (code != 0 ? std::string(": ") + text : "");
}

/// An SSH wire-format string (RFC 4251 §5): a 32-bit big-endian length, then the bytes.
void append_ssh_string(std::string* out, const std::string& bytes) {
  auto size = static_cast<uint32_t>(bytes.size());
  for (int shift = 24; shift >= 0; shift -= 8)
    out->push_back(static_cast<char>((size >> shift) & 0xff));
  *out += bytes;
}

/// RFC 5656 §3.1: string(key type) string(curve id) string(Q as an uncompressed point).
std::optional<std::string> public_line(const EVP_PKEY* key) {
  char group[32] = {0};
  size_t group_size = 0;
  if (crypto3().pkey_get_utf8_string_param(key, kParamGroupName, group, sizeof group,
                                           &group_size) != 1 ||
      (std::string(group) != "P-521" && std::string(group) != "secp521r1")) {
    return std::nullopt;
  }
  size_t point_size = 0;
  if (crypto3().pkey_get_octet_string_param(key, kParamPublicKey, nullptr, 0, &point_size) != 1) {
    return std::nullopt;
  }
  std::vector<unsigned char> point(point_size);
  if (crypto3().pkey_get_octet_string_param(key, kParamPublicKey, point.data(), point.size(),
                                            &point_size) != 1 ||
      point_size == 0 || point[0] != 0x04) {
    return std::nullopt;  // only the uncompressed form is valid in the SSH encoding
  }
  std::string blob;
  append_ssh_string(&blob, kKeyType);
  append_ssh_string(&blob, kCurveId);
  append_ssh_string(&blob, std::string(point.begin(), point.begin() + point_size));
  return std::string(kKeyType) + " " + encode_base64(blob) + "\n";
}

/// The SEC1 ("traditional") PEM form, which OpenSSH and Go's x509.MarshalECPrivateKey write.
std::optional<std::string> private_pem(EVP_PKEY* key) {
  BioPtr bio(crypto().bio_new(crypto().bio_s_mem()), crypto().bio_free);
  if (!bio || crypto().pem_write_bio_private_key_traditional(bio.get(), key, nullptr, nullptr, 0,
                                                             nullptr, nullptr) != 1) {
    return std::nullopt;
  }
  char* data = nullptr;
  long size = crypto().bio_ctrl(bio.get(), BIO_CTRL_INFO, 0, &data);
  if (size <= 0) return std::nullopt;
  return std::string(data, static_cast<size_t>(size));
}

}  // namespace

std::optional<SshKeyPair> generate_ssh_key_pair(std::string* error) {
  try {
    crypto3();
  } catch (const MissingLibraryError& e) {
    *error = e.what();  // OpenSSL 1.1: the key is made with OpenSSL 3's functions
    return std::nullopt;
  }
  PkeyPtr key(crypto3().pkey_q_keygen(nullptr, nullptr, "EC", kCurveName), crypto().pkey_free);
  if (!key) {
    *error = libcrypto_error("generating a P-521 key failed");
    return std::nullopt;
  }
  std::optional<std::string> pem = private_pem(key.get());
  std::optional<std::string> line = public_line(key.get());
  if (!pem || !line) {
    *error = libcrypto_error("encoding the P-521 key failed");
    return std::nullopt;
  }
  return SshKeyPair{std::move(*pem), std::move(*line)};
}

std::optional<std::string> ssh_public_line_of(const std::string& pem) {
  BioPtr bio(crypto().bio_new_mem_buf(pem.data(), static_cast<int>(pem.size())), crypto().bio_free);
  if (!bio) return std::nullopt;
  PkeyPtr key(crypto().pem_read_bio_private_key(bio.get(), nullptr, nullptr, nullptr),
              crypto().pkey_free);
  crypto().err_clear_error();
  if (!key || crypto3().pkey_get_base_id(key.get()) != EVP_PKEY_EC) return std::nullopt;
  return public_line(key.get());
}

}  // namespace trainjob
