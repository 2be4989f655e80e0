#include "util/crypto_library.h"

#include <dlfcn.h>
#include <stdexcept>
#include <string>

namespace trainjob {
namespace {

struct Loaded {
  CryptoApi api{};
  std::string error;  ///< empty when `api` is complete
};

/// Resolves one function into `*slot`; false, with `*error` set, when the library lacks it.
template <typename Function>
bool resolve(void* library, const char* name, Function* slot, std::string* error) {
  *slot = reinterpret_cast<Function>(dlsym(library, name));
  if (*slot != nullptr) return true;
  *error = std::string(kCryptoLibrary) + " has no " + name + ": apt-get install libssl3";
  return false;
}

bool resolve_digests(void* library, CryptoApi* api, std::string* error) {
  return resolve(library, "EVP_Digest", &api->digest, error) &&
         resolve(library, "EVP_sha1", &api->sha1, error) &&
         resolve(library, "EVP_sha256", &api->sha256, error) &&
         resolve(library, "EVP_MD_CTX_new", &api->md_ctx_new, error) &&
         resolve(library, "EVP_MD_CTX_free", &api->md_ctx_free, error) &&
         resolve(library, "EVP_DigestInit_ex", &api->digest_init_ex, error) &&
         resolve(library, "EVP_DigestUpdate", &api->digest_update, error) &&
         resolve(library, "EVP_DigestFinal_ex", &api->digest_final_ex, error) &&
         resolve(library, "EVP_EncodeBlock", &api->encode_block, error) &&
         resolve(library, "EVP_DecodeBlock", &api->decode_block, error);
}

bool resolve_keys(void* library, CryptoApi* api, std::string* error) {
  return resolve(library, "ERR_get_error", &api->err_get_error, error) &&
         resolve(library, "ERR_error_string_n", &api->err_error_string_n, error) &&
         resolve(library, "ERR_clear_error", &api->err_clear_error, error) &&
         resolve(library, "BIO_new", &api->bio_new, error) &&
         resolve(library, "BIO_s_mem", &api->bio_s_mem, error) &&
         resolve(library, "BIO_new_mem_buf", &api->bio_new_mem_buf, error) &&
         resolve(library, "BIO_ctrl", &api->bio_ctrl, error) &&
         resolve(library, "BIO_free", &api->bio_free, error) &&
         resolve(library, "PEM_write_bio_PrivateKey_traditional",
                 &api->pem_write_bio_private_key_traditional, error) &&
         resolve(library, "PEM_read_bio_PrivateKey", &api->pem_read_bio_private_key, error) &&
         resolve(library, "EVP_PKEY_Q_keygen", &api->pkey_q_keygen, error) &&
         resolve(library, "EVP_PKEY_free", &api->pkey_free, error) &&
         resolve(library, "EVP_PKEY_get_base_id", &api->pkey_get_base_id, error) &&
         resolve(library, "EVP_PKEY_get_utf8_string_param", &api->pkey_get_utf8_string_param,
                 error) &&
         resolve(library, "EVP_PKEY_get_octet_string_param", &api->pkey_get_octet_string_param,
                 error) &&
         resolve(library, "EVP_PKEY_get_raw_private_key", &api->pkey_get_raw_private_key, error) &&
         resolve(library, "EVP_PKEY_get_raw_public_key", &api->pkey_get_raw_public_key, error) &&
         resolve(library, "EVP_PKEY_new_raw_private_key", &api->pkey_new_raw_private_key, error) &&
         resolve(library, "EVP_PKEY_CTX_new_id", &api->pkey_ctx_new_id, error) &&
         resolve(library, "EVP_PKEY_CTX_free", &api->pkey_ctx_free, error) &&
         resolve(library, "EVP_PKEY_keygen_init", &api->pkey_keygen_init, error) &&
         resolve(library, "EVP_PKEY_keygen", &api->pkey_keygen, error);
}

Loaded load() {
  Loaded loaded;
  // The library stays loaded until exit (OpenSSL marks itself NODELETE and cleans up in an
  // exit handler of its own).
  void* library = dlopen(kCryptoLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    loaded.error = std::string(kCryptoLibrary) + " not found: apt-get install libssl3 (" +
                   (why != nullptr ? why : "dlopen failed") + ")";
    return loaded;
  }
  if (resolve_digests(library, &loaded.api, &loaded.error)) {
    resolve_keys(library, &loaded.api, &loaded.error);
  }
  return loaded;
}

}  // namespace

const CryptoApi& crypto() {
  // Initialised once even when threads (parallel checks) race to the first call.
  static const Loaded loaded = load();
  if (!loaded.error.empty()) throw std::runtime_error(loaded.error);
  return loaded.api;
}

}  // namespace trainjob
