#include "kube/curl_library.h"

#include <dlfcn.h>

namespace trainjob {
namespace {

struct Loaded {
  CurlApi api{};
  std::string error;  ///< empty when `api` is complete
};

/// Resolves one function into `*slot`; false, with `*error` set, when the library lacks it.
template <typename Function>
bool resolve(void* library, const char* name, Function* slot, std::string* error) {
  *slot = reinterpret_cast<Function>(dlsym(library, name));
  if (*slot != nullptr) return true;
  *error = std::string(kCurlLibrary) + " has no " + name +
           " (libcurl 7.66 or later is needed): apt-get install libcurl4";
  return false;
}

bool resolve_all(void* library, CurlApi* api, std::string* error) {
  return resolve(library, "curl_global_init", &api->global_init, error) &&
         resolve(library, "curl_easy_init", &api->easy_init, error) &&
         resolve(library, "curl_easy_cleanup", &api->easy_cleanup, error) &&
         resolve(library, "curl_easy_reset", &api->easy_reset, error) &&
         resolve(library, "curl_easy_setopt", &api->easy_setopt, error) &&
         resolve(library, "curl_easy_getinfo", &api->easy_getinfo, error) &&
         resolve(library, "curl_easy_perform", &api->easy_perform, error) &&
         resolve(library, "curl_easy_strerror", &api->easy_strerror, error) &&
         resolve(library, "curl_easy_escape", &api->easy_escape, error) &&
         resolve(library, "curl_free", &api->free, error) &&
         resolve(library, "curl_slist_append", &api->slist_append, error) &&
         resolve(library, "curl_slist_free_all", &api->slist_free_all, error) &&
         resolve(library, "curl_multi_init", &api->multi_init, error) &&
         resolve(library, "curl_multi_add_handle", &api->multi_add_handle, error) &&
         resolve(library, "curl_multi_perform", &api->multi_perform, error) &&
         resolve(library, "curl_multi_poll", &api->multi_poll, error) &&
         resolve(library, "curl_multi_info_read", &api->multi_info_read, error) &&
         resolve(library, "curl_multi_remove_handle", &api->multi_remove_handle, error) &&
         resolve(library, "curl_multi_cleanup", &api->multi_cleanup, error);
}

Loaded load() {
  Loaded loaded;
  // RTLD_LOCAL: libcurl's dependencies (OpenSSL among them) stay out of the global symbol
  // scope, so they cannot stand in for the libcrypto the plugin links for its digests.
  void* library = dlopen(kCurlLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    loaded.error = std::string(kCurlLibrary) + " not found: apt-get install libcurl4 (" +
                   (why != nullptr ? why : "dlopen failed") + ")";
    return loaded;
  }
  // The library stays loaded until exit: thread-local easy handles are cleaned up by it.
  if (!resolve_all(library, &loaded.api, &loaded.error)) return loaded;
  CURLcode code = loaded.api.global_init(CURL_GLOBAL_DEFAULT);
  if (code != CURLE_OK) {
    loaded.error =
        std::string(kCurlLibrary) + " failed to initialise: " + loaded.api.easy_strerror(code);
  }
  return loaded;
}

}  // namespace

const CurlApi* curl_api(std::string* error) {
  // A function-local static is initialised once even when threads race to the first call,
  // which is what curl_global_init needs (it is not thread-safe before libcurl 7.84).
  static const Loaded loaded = load();
  if (!loaded.error.empty()) {
    *error = loaded.error;
    return nullptr;
  }
  return &loaded.api;
}

}  // namespace trainjob
