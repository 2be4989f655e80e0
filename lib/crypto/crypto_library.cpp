#include "crypto/crypto_library.h"

#include <iterator>
#include <stdexcept>
#include <string>

#include "util/shared_library.h"

namespace trainjob {
namespace {

constexpr char kInstallHint[] = "apt-get install libssl3 (or libssl1.1)";

struct Loaded {
  SharedLibrary library{{std::begin(kCryptoLibraries), std::end(kCryptoLibraries)}, kInstallHint};
  CryptoApi api{};
  std::string error;  ///< empty when `api` is complete
};

bool resolve_digests(SharedLibrary* library, CryptoApi* api) {
  return library->resolve("EVP_Digest", &api->digest) && library->resolve("EVP_sha1", &api->sha1) &&
         library->resolve("EVP_sha256", &api->sha256) &&
         library->resolve("EVP_MD_CTX_new", &api->md_ctx_new) &&
         library->resolve("EVP_MD_CTX_free", &api->md_ctx_free) &&
         library->resolve("EVP_DigestInit_ex", &api->digest_init_ex) &&
         library->resolve("EVP_DigestUpdate", &api->digest_update) &&
         library->resolve("EVP_DigestFinal_ex", &api->digest_final_ex) &&
         library->resolve("EVP_EncodeBlock", &api->encode_block) &&
         library->resolve("EVP_DecodeBlock", &api->decode_block);
}

bool resolve_keys(SharedLibrary* library, CryptoApi* api) {
  return library->resolve("ERR_get_error", &api->err_get_error) &&
         library->resolve("ERR_error_string_n", &api->err_error_string_n) &&
         library->resolve("ERR_clear_error", &api->err_clear_error) &&
         library->resolve("BIO_new", &api->bio_new) &&
         library->resolve("BIO_s_mem", &api->bio_s_mem) &&
         library->resolve("BIO_new_mem_buf", &api->bio_new_mem_buf) &&
         library->resolve("BIO_ctrl", &api->bio_ctrl) &&
         library->resolve("BIO_free", &api->bio_free) &&
         library->resolve("PEM_write_bio_PrivateKey_traditional",
                          &api->pem_write_bio_private_key_traditional) &&
         library->resolve("PEM_read_bio_PrivateKey", &api->pem_read_bio_private_key) &&
         library->resolve("EVP_PKEY_free", &api->pkey_free) &&
         library->resolve("EVP_PKEY_get_raw_private_key", &api->pkey_get_raw_private_key) &&
         library->resolve("EVP_PKEY_get_raw_public_key", &api->pkey_get_raw_public_key) &&
         library->resolve("EVP_PKEY_new_raw_private_key", &api->pkey_new_raw_private_key) &&
         library->resolve("EVP_PKEY_CTX_new_id", &api->pkey_ctx_new_id) &&
         library->resolve("EVP_PKEY_CTX_free", &api->pkey_ctx_free) &&
         library->resolve("EVP_PKEY_keygen_init", &api->pkey_keygen_init) &&
         library->resolve("EVP_PKEY_keygen", &api->pkey_keygen);
}

Loaded* load() {
  // Never freed: the library stays loaded until exit (SharedLibrary), and crypto3() resolves
  // from it later.
  auto* loaded = new Loaded;
  if (!resolve_digests(&loaded->library, &loaded->api) ||
      !resolve_keys(&loaded->library, &loaded->api)) {
    loaded->error = loaded->library.error();
  }
  return loaded;
}

const Loaded& loaded() {
  // Initialised once even when threads (parallel checks) race to the first call.
  static const Loaded* const instance = load();
  return *instance;
}

struct Loaded3 {
  Crypto3Api api{};
  std::string error;
};

Loaded3 load3() {
  Loaded3 loaded3;
  // A copy, so that a missing function's error stays out of crypto()'s library.
  SharedLibrary library = loaded().library;
  const char* missing = nullptr;
  auto need = [&](const char* name, auto* slot) {
    if (missing == nullptr && !library.resolve(name, slot)) missing = name;
  };
  need("EVP_PKEY_Q_keygen", &loaded3.api.pkey_q_keygen);
  need("EVP_PKEY_get_base_id", &loaded3.api.pkey_get_base_id);
  need("EVP_PKEY_get_utf8_string_param", &loaded3.api.pkey_get_utf8_string_param);
  need("EVP_PKEY_get_octet_string_param", &loaded3.api.pkey_get_octet_string_param);
  if (missing != nullptr) {
    loaded3.error = "this needs OpenSSL 3 (libcrypto.so.3: apt-get install libssl3); the " +
                    library.soname() + " found has no " + missing;
  }
  return loaded3;
}

}  // namespace

const CryptoApi& crypto() {
  const Loaded& instance = loaded();
  if (!instance.error.empty()) throw MissingLibraryError(instance.error);
  return instance.api;
}

const Crypto3Api& crypto3() {
  crypto();  // libcrypto itself first, with its own error when it is missing
  static const Loaded3 loaded3 = load3();
  if (!loaded3.error.empty()) throw MissingLibraryError(loaded3.error);
  return loaded3.api;
}

}  // namespace trainjob
