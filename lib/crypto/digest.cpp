#include "crypto/digest.h"

#include "crypto/crypto_library.h"

namespace trainjob {
namespace {

std::string digest_hex(std::string_view data, const EVP_MD* algorithm) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  crypto().digest(data.data(), data.size(), digest, &length, algorithm, nullptr);
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

}  // namespace

std::string sha1_hex(std::string_view data) {
  return digest_hex(data, crypto().sha1());
}

std::string sha256_hex(std::string_view data) {
  return digest_hex(data, crypto().sha256());
}

}  // namespace trainjob
