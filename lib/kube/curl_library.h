// libcurl, loaded when the first cluster request is made rather than when the program
// starts: the offline commands (render, validate, init, runtimes, version) never pay for
// loading it and the dozens of libraries it pulls in (TLS, Kerberos, LDAP, SSH, IDN, ...).
#ifndef TRAINJOB_KUBE_CURL_LIBRARY_H_
#define TRAINJOB_KUBE_CURL_LIBRARY_H_

#include <curl/curl.h>
#include <string>

namespace trainjob {

/// The soname loaded: libcurl's ABI 4, which every libcurl since 7.16 keeps.
inline constexpr char kCurlLibrary[] = "libcurl.so.4";

/// The libcurl functions the transport uses, resolved from the loaded library; their types
/// come from libcurl's own prototypes, so a call through the table is checked like a direct one.
struct CurlApi {
  decltype(&::curl_global_init) global_init;
  decltype(&::curl_easy_init) easy_init;
  decltype(&::curl_easy_cleanup) easy_cleanup;
  decltype(&::curl_easy_reset) easy_reset;
  decltype(&::curl_easy_setopt) easy_setopt;
  decltype(&::curl_easy_getinfo) easy_getinfo;
  decltype(&::curl_easy_perform) easy_perform;
  decltype(&::curl_easy_strerror) easy_strerror;
  decltype(&::curl_easy_escape) easy_escape;
  decltype(&::curl_free) free;
  decltype(&::curl_slist_append) slist_append;
  decltype(&::curl_slist_free_all) slist_free_all;
  decltype(&::curl_multi_init) multi_init;
  decltype(&::curl_multi_add_handle) multi_add_handle;
  decltype(&::curl_multi_perform) multi_perform;
  decltype(&::curl_multi_poll) multi_poll;
  decltype(&::curl_multi_info_read) multi_info_read;
  decltype(&::curl_multi_remove_handle) multi_remove_handle;
  decltype(&::curl_multi_cleanup) multi_cleanup;
};

/// libcurl, loaded and initialised (curl_global_init) on the first call, from any thread;
/// later calls return the same table. nullptr, with `*error` saying why and what to
/// install, when the library is missing or lacks a function.
const CurlApi* curl_api(std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_CURL_LIBRARY_H_
