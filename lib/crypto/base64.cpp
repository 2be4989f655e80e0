#include "crypto/base64.h"

#include <cctype>

#include "crypto/crypto_library.h"

namespace trainjob {

std::optional<std::string> decode_base64(const std::string& text) {
  std::string digits;
  digits.reserve(text.size() + 2);
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) digits += c;
  }
  // OpenSSL wants whole groups of four; padding is often left out (kubeconfig data).
  if (digits.size() % 4 == 1) return std::nullopt;
  while (digits.size() % 4 != 0)
    digits += '=';
  std::string bytes(digits.size() / 4 * 3, '\0');
  int length = crypto().decode_block(reinterpret_cast<unsigned char*>(bytes.data()),
                                     reinterpret_cast<const unsigned char*>(digits.data()),
                                     static_cast<int>(digits.size()));
  if (length < 0) return std::nullopt;
  // It counts the padding as decoded zero bytes.
  size_t padding = 0;
  for (size_t i = digits.size(); i > 0 && digits[i - 1] == '=' && padding < 2; --i)
    ++padding;
  bytes.resize(static_cast<size_t>(length) - padding);
  return bytes;
}

std::string encode_base64(const std::string& bytes) {
  std::string text(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int length = crypto().encode_block(reinterpret_cast<unsigned char*>(text.data()),
                                     reinterpret_cast<const unsigned char*>(bytes.data()),
                                     static_cast<int>(bytes.size()));
  text.resize(static_cast<size_t>(length));
  return text;
}

}  // namespace trainjob
