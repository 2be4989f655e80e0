// libcrypto, loaded when a digest, base64 text or key is first needed rather than when the
// program starts: mapping and relocating it was most of what `version` and a `render`
// without keys or digests spent on start-up beyond libstdc++'s own.
//
// OpenSSL 3 (libcrypto.so.3) where the system has it, else OpenSSL 1.1 (libcrypto.so.1.1:
// Debian bullseye, Ubuntu 20.04, RHEL 8), so that the release build runs on both. CryptoApi
// holds the functions both have with the same ABI; Crypto3Api those only OpenSSL 3 has,
// resolved when a caller first needs them.
#ifndef TRAINJOB_CRYPTO_CRYPTO_LIBRARY_H_
#define TRAINJOB_CRYPTO_CRYPTO_LIBRARY_H_

#include <cstddef>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "util/shared_library.h"

namespace trainjob {

/// The sonames tried, in order: OpenSSL 3's libcrypto (Debian's libssl3), then 1.1's.
inline constexpr const char* kCryptoLibraries[] = {"libcrypto.so.3", "libcrypto.so.1.1"};

/// The libcrypto functions of OpenSSL 1.1.1 and 3 alike, typed from OpenSSL's own
/// prototypes. Macros in OpenSSL's headers are spelt out with the function they expand to:
/// BIO_get_mem_data is bio_ctrl with BIO_CTRL_INFO.
struct CryptoApi {
  decltype(&::EVP_Digest) digest;
  decltype(&::EVP_sha1) sha1;
  decltype(&::EVP_sha256) sha256;
  decltype(&::EVP_MD_CTX_new) md_ctx_new;
  decltype(&::EVP_MD_CTX_free) md_ctx_free;
  decltype(&::EVP_DigestInit_ex) digest_init_ex;
  decltype(&::EVP_DigestUpdate) digest_update;
  decltype(&::EVP_DigestFinal_ex) digest_final_ex;
  decltype(&::EVP_EncodeBlock) encode_block;
  decltype(&::EVP_DecodeBlock) decode_block;
  decltype(&::ERR_get_error) err_get_error;
  decltype(&::ERR_error_string_n) err_error_string_n;
  decltype(&::ERR_clear_error) err_clear_error;
  decltype(&::BIO_new) bio_new;
  decltype(&::BIO_s_mem) bio_s_mem;
  decltype(&::BIO_new_mem_buf) bio_new_mem_buf;
  decltype(&::BIO_ctrl) bio_ctrl;
  decltype(&::BIO_free) bio_free;
  decltype(&::PEM_write_bio_PrivateKey_traditional) pem_write_bio_private_key_traditional;
  decltype(&::PEM_read_bio_PrivateKey) pem_read_bio_private_key;
  decltype(&::EVP_PKEY_free) pkey_free;
  decltype(&::EVP_PKEY_get_raw_private_key) pkey_get_raw_private_key;
  decltype(&::EVP_PKEY_get_raw_public_key) pkey_get_raw_public_key;
  decltype(&::EVP_PKEY_new_raw_private_key) pkey_new_raw_private_key;
  decltype(&::EVP_PKEY_CTX_new_id) pkey_ctx_new_id;
  decltype(&::EVP_PKEY_CTX_free) pkey_ctx_free;
  decltype(&::EVP_PKEY_keygen_init) pkey_keygen_init;
  decltype(&::EVP_PKEY_keygen) pkey_keygen;
};

/// Functions only OpenSSL 3 has. Their prototypes are written out here (OSSL_LIB_CTX* as
/// void*, the same in the ABI) because OpenSSL 1.1's headers, which the release build
/// compiles against, do not declare them. EVP_EC_gen is pkey_q_keygen(nullptr, nullptr,
/// "EC", curve).
struct Crypto3Api {
  EVP_PKEY* (*pkey_q_keygen)(void* libctx, const char* propq, const char* type, ...);
  int (*pkey_get_base_id)(const EVP_PKEY* key);
  int (*pkey_get_utf8_string_param)(const EVP_PKEY* key, const char* name, char* text,
                                    std::size_t size, std::size_t* length);
  int (*pkey_get_octet_string_param)(const EVP_PKEY* key, const char* name, unsigned char* bytes,
                                     std::size_t size, std::size_t* length);
};

/// libcrypto, loaded on the first call from any thread; later calls return the same table.
/// Throws MissingLibraryError saying what to install when it is missing or too old.
const CryptoApi& crypto();

/// OpenSSL 3's own functions, from the libcrypto crypto() loaded. Throws MissingLibraryError
/// naming OpenSSL 3 and what to install when that libcrypto is OpenSSL 1.1.
const Crypto3Api& crypto3();

}  // namespace trainjob

#endif  // TRAINJOB_CRYPTO_CRYPTO_LIBRARY_H_
