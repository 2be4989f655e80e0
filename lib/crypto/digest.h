// Hex digests through OpenSSL's libcrypto: SHA-1 for JobSet's job-key label (as the JobSet
// controller computes it), SHA-256 for the files render --output-dir writes.
#ifndef TRAINJOB_CRYPTO_DIGEST_H_
#define TRAINJOB_CRYPTO_DIGEST_H_

#include <string>
#include <string_view>

namespace trainjob {

std::string sha1_hex(std::string_view data);
std::string sha256_hex(std::string_view data);

}  // namespace trainjob

#endif  // TRAINJOB_CRYPTO_DIGEST_H_
