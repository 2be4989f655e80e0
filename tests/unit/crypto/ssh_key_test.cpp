#include "crypto/ssh_key.h"

#include <string>

#include <doctest/doctest.h>

#include "crypto/base64.h"

namespace {

/// Reads the SSH wire-format string at *offset of `blob` (RFC 4251 §5).
std::string read_ssh_string(const std::string& blob, size_t* offset) {
  REQUIRE(*offset + 4 <= blob.size());
  size_t size = 0;
  for (int i = 0; i < 4; ++i)
    size = (size << 8) | static_cast<unsigned char>(blob[*offset + i]);
  *offset += 4;
  REQUIRE(*offset + size <= blob.size());
  std::string out = blob.substr(*offset, size);
  *offset += size;
  return out;
}

}  // namespace

TEST_CASE("ssh key: a P-521 pair whose public line is the private key's") {
  std::string error;
  auto pair = trainjob::generate_ssh_key_pair(&error);
  REQUIRE_MESSAGE(pair, error);
  CHECK(pair->private_pem.rfind("-----BEGIN EC PRIVATE KEY-----\n", 0) == 0);
  CHECK(pair->public_line.rfind("ecdsa-sha2-nistp521 AAAA", 0) == 0);
  CHECK(pair->public_line.back() == '\n');
  // Derived again from the PEM alone, the public line is the same.
  auto derived = trainjob::ssh_public_line_of(pair->private_pem);
  REQUIRE(derived);
  CHECK(*derived == pair->public_line);
}

TEST_CASE("ssh key: the public blob is RFC 5656's type, curve and uncompressed point") {
  std::string error;
  auto pair = trainjob::generate_ssh_key_pair(&error);
  REQUIRE(pair);
  std::string encoded = pair->public_line.substr(20, pair->public_line.size() - 21);
  auto blob = trainjob::decode_base64(encoded);
  REQUIRE(blob);
  size_t offset = 0;
  CHECK(read_ssh_string(*blob, &offset) == "ecdsa-sha2-nistp521");
  CHECK(read_ssh_string(*blob, &offset) == "nistp521");
  std::string point = read_ssh_string(*blob, &offset);
  CHECK(point.size() == 1 + 2 * 66);  // 0x04, then X and Y of 521 bits each
  CHECK(point[0] == '\x04');
  CHECK(offset == blob->size());
}

TEST_CASE("ssh key: two pairs differ, and a non-key is refused") {
  std::string error;
  auto a = trainjob::generate_ssh_key_pair(&error);
  auto b = trainjob::generate_ssh_key_pair(&error);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->public_line != b->public_line);
  CHECK_FALSE(trainjob::ssh_public_line_of("not a key"));
  CHECK_FALSE(trainjob::ssh_public_line_of(""));
}
