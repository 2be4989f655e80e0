#include "kube/curl_library.h"

#include "util/shared_library.h"

namespace trainjob {
namespace {

struct Loaded {
  CurlApi api{};
  std::string error;  ///< empty when `api` is complete
};

bool resolve_all(SharedLibrary* library, CurlApi* api) {
  return library->resolve("curl_global_init", &api->global_init) &&
         library->resolve("curl_easy_init", &api->easy_init) &&
         library->resolve("curl_easy_cleanup", &api->easy_cleanup) &&
         library->resolve("curl_easy_reset", &api->easy_reset) &&
         library->resolve("curl_easy_setopt", &api->easy_setopt) &&
         library->resolve("curl_easy_getinfo", &api->easy_getinfo) &&
         library->resolve("curl_easy_perform", &api->easy_perform) &&
         library->resolve("curl_easy_strerror", &api->easy_strerror) &&
         library->resolve("curl_easy_escape", &api->easy_escape) &&
         library->resolve("curl_free", &api->free) &&
         library->resolve("curl_slist_append", &api->slist_append) &&
         library->resolve("curl_slist_free_all", &api->slist_free_all) &&
         library->resolve("curl_multi_init", &api->multi_init) &&
         library->resolve("curl_multi_add_handle", &api->multi_add_handle) &&
         library->resolve("curl_multi_perform", &api->multi_perform) &&
         library->resolve("curl_multi_poll", &api->multi_poll) &&
         library->resolve("curl_multi_info_read", &api->multi_info_read) &&
         library->resolve("curl_multi_remove_handle", &api->multi_remove_handle) &&
         library->resolve("curl_multi_cleanup", &api->multi_cleanup);
}

Loaded load() {
  Loaded loaded;
  SharedLibrary library(kCurlLibrary, "apt-get install libcurl4");
  if (!resolve_all(&library, &loaded.api)) {
    loaded.error = library.error();
    return loaded;
  }
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
