// libcrypto (OpenSSL 3), loaded when a digest, base64 text or key is first needed rather
// than when the program starts: mapping and relocating it was most of what `version` and a
// `render` without keys or digests spent on start-up beyond libstdc++'s own.
#ifndef TRAINJOB_UTIL_CRYPTO_LIBRARY_H_
#define TRAINJOB_UTIL_CRYPTO_LIBRARY_H_

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

namespace trainjob {

/// The soname loaded: OpenSSL 3's libcrypto (Debian's libssl3).
inline constexpr char kCryptoLibrary[] = "libcrypto.so.3";

/// The libcrypto functions the program uses, typed from OpenSSL's own prototypes.
/// Macros in OpenSSL's headers are spelt out with the function they expand to:
/// EVP_EC_gen is pkey_q_keygen, BIO_get_mem_data is bio_ctrl with BIO_CTRL_INFO.
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
  decltype(&::EVP_PKEY_Q_keygen) pkey_q_keygen;
  decltype(&::EVP_PKEY_free) pkey_free;
  decltype(&::EVP_PKEY_get_base_id) pkey_get_base_id;
  decltype(&::EVP_PKEY_get_utf8_string_param) pkey_get_utf8_string_param;
  decltype(&::EVP_PKEY_get_octet_string_param) pkey_get_octet_string_param;
  decltype(&::EVP_PKEY_get_raw_private_key) pkey_get_raw_private_key;
  decltype(&::EVP_PKEY_get_raw_public_key) pkey_get_raw_public_key;
  decltype(&::EVP_PKEY_new_raw_private_key) pkey_new_raw_private_key;
  decltype(&::EVP_PKEY_CTX_new_id) pkey_ctx_new_id;
  decltype(&::EVP_PKEY_CTX_free) pkey_ctx_free;
  decltype(&::EVP_PKEY_keygen_init) pkey_keygen_init;
  decltype(&::EVP_PKEY_keygen) pkey_keygen;
};

/// libcrypto, loaded on the first call from any thread; later calls return the same table.
/// Throws std::runtime_error saying what to install when it is missing or too old.
const CryptoApi& crypto();

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_CRYPTO_LIBRARY_H_
