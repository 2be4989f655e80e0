#include "kube/curl_transport.h"

#include <cctype>
#include <cstdio>
#include <memory>
#include <string>

#include "kube/curl_library.h"
#include "kube/kube_error.h"
#include "util/temp_file.h"

namespace trainjob {
namespace {

struct Transfer {
  const CurlApi* curl;
  const HttpRequest* request;
  HttpResponse* response;
  CURL* handle;
  bool stopped_by_reader = false;
};

std::string trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return "";
  size_t end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  std::string_view line(data, size * count);
  // A proxy's CONNECT answer or a 100 Continue comes first: only the last block counts.
  if (line.substr(0, 5) == "HTTP/") transfer->response->headers.clear();
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    transfer->response->headers.emplace_back(trim(line.substr(0, colon)),
                                             trim(line.substr(colon + 1)));
  }
  return size * count;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  long status = 0;
  transfer->curl->easy_getinfo(transfer->handle, CURLINFO_RESPONSE_CODE, &status);
  std::string_view piece(data, size * count);
  // Errors are kept whole so that their Status object can be decoded.
  if (!transfer->request->on_body || status < 200 || status >= 300) {
    transfer->response->body.append(piece);
    return piece.size();
  }
  if (!transfer->request->on_body(piece)) {
    transfer->stopped_by_reader = true;
    return 0;
  }
  return piece.size();
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::atomic<bool>* cancel = transfer->request->cancel;
  return cancel != nullptr && cancel->load() ? 1 : 0;
}

curl_blob blob_of(const std::string& text) {
  return curl_blob{const_cast<char*>(text.data()), text.size(), CURL_BLOB_COPY};
}

using FilePtr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

/// PEM files for libcurl versions that read them only from a path, open for one transfer.
struct PemFiles {
  FilePtr ca{nullptr, std::fclose};
  FilePtr cert{nullptr, std::fclose};
  FilePtr key{nullptr, std::fclose};
};

/// Gives libcurl `pem` from memory (`blob_option`), else, where libcurl.so.4 does not know that
/// option (CURLOPT_CAINFO_BLOB came in 7.77, the certificate and key blobs in 7.71: Debian
/// bullseye has 7.74, Ubuntu 20.04 7.68, RHEL 8 7.61), as the path (`path_option`) of an
/// unlinked temporary file that *file keeps open for the transfer. An error, or empty.
std::string set_pem(const CurlApi& curl, CURL* handle, CURLoption blob_option,
                    CURLoption path_option, const std::string& pem, FilePtr* file) {
  curl_blob blob = blob_of(pem);
  if (curl.easy_setopt(handle, blob_option, &blob) == CURLE_OK) return "";
  std::string error;
  file->reset(open_temp_file(&error));
  if (!*file) return error;
  if (std::fwrite(pem.data(), 1, pem.size(), file->get()) != pem.size() ||
      std::fflush(file->get()) != 0) {
    return temp_write_error();
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fileno(file->get()));
  curl.easy_setopt(handle, path_option, path.c_str());  // libcurl copies the string
  return "";
}

/// An error, or empty.
std::string set_tls(const CurlApi& curl, CURL* handle, const TlsSettings& tls, PemFiles* files) {
  // By number: bullseye's headers, which the release build uses, do not name it.
  constexpr auto kCaInfoBlob = static_cast<CURLoption>(CURLOPTTYPE_BLOB + 309);
  std::string error;
  if (!tls.ca_pem.empty())
    error = set_pem(curl, handle, kCaInfoBlob, CURLOPT_CAINFO, tls.ca_pem, &files->ca);
  if (error.empty() && !tls.client_cert_pem.empty()) {
    error = set_pem(curl, handle, CURLOPT_SSLCERT_BLOB, CURLOPT_SSLCERT, tls.client_cert_pem,
                    &files->cert);
    curl.easy_setopt(handle, CURLOPT_SSLCERTTYPE, "PEM");
  }
  if (error.empty() && !tls.client_key_pem.empty()) {
    error =
        set_pem(curl, handle, CURLOPT_SSLKEY_BLOB, CURLOPT_SSLKEY, tls.client_key_pem, &files->key);
    curl.easy_setopt(handle, CURLOPT_SSLKEYTYPE, "PEM");
  }
  if (!error.empty()) return error;
  if (tls.insecure_skip_verify) {
    curl.easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 0L);
    curl.easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!tls.proxy_url.empty()) {
    // Go resolves names through a SOCKS5 proxy, not locally.
    std::string proxy = tls.proxy_url;
    if (proxy.rfind("socks5://", 0) == 0) proxy = "socks5h://" + proxy.substr(9);
    curl.easy_setopt(handle, CURLOPT_PROXY, proxy.c_str());
  }
  return "";
}

/// libcurl checks the certificate against the URL's host, so for tls-server-name the URL
/// names the server that way and CONNECT_TO sends the connection to the real address.
std::string url_for_server_name(const CurlApi& curl, const HttpRequest& request,
                                curl_slist** connect_to) {
  std::string scheme, host;
  int port = 0;
  if (request.tls.server_name.empty() || !split_url_authority(request.url, &scheme, &host, &port))
    return request.url;
  size_t host_start = request.url.find("://") + 3;
  size_t host_end = request.url.find_first_of("/?", host_start);
  std::string rest = host_end == std::string::npos ? "" : request.url.substr(host_end);
  std::string mapping = request.tls.server_name + ":" + std::to_string(port) + ":" + host + ":" +
                        std::to_string(port);
  *connect_to = curl.slist_append(*connect_to, mapping.c_str());
  return scheme + "://" + request.tls.server_name + ":" + std::to_string(port) + rest;
}

/// For streams that another thread may stop: waits on the socket in 50 ms slices, so a
/// cancel takes effect at once rather than at libcurl's next once-a-second progress call.
CURLcode perform_cancellable(const CurlApi& curl, CURL* handle, const std::atomic<bool>& cancel) {
  CURLM* multi = curl.multi_init();
  curl.multi_add_handle(multi, handle);
  CURLcode code = CURLE_OK;
  int running = 1;
  while (running > 0) {
    if (curl.multi_perform(multi, &running) != CURLM_OK) break;
    if (running == 0) break;
    if (cancel.load()) {
      code = CURLE_ABORTED_BY_CALLBACK;
      break;
    }
    curl.multi_poll(multi, nullptr, 0, 50, nullptr);
  }
  int left = 0;
  while (CURLMsg* message = curl.multi_info_read(multi, &left)) {
    if (message->msg == CURLMSG_DONE) code = message->data.result;
  }
  curl.multi_remove_handle(multi, handle);
  curl.multi_cleanup(multi);
  return code;
}

/// One easy handle per thread, reset between requests: its connection cache stays, so
/// requests to the same server reuse the TLS connection (keep-alive).
CURL* thread_handle(const CurlApi& curl) {
  struct Holder {
    const CurlApi* curl;
    CURL* handle;
    ~Holder() { curl->easy_cleanup(handle); }
  };
  thread_local Holder holder{&curl, curl.easy_init()};
  curl.easy_reset(holder.handle);
  return holder.handle;
}

/// The lists a request hands libcurl, freed however the transfer ends.
struct RequestLists {
  const CurlApi& curl;
  curl_slist* headers = nullptr;
  curl_slist* connect_to = nullptr;
  ~RequestLists() {
    curl.slist_free_all(headers);
    curl.slist_free_all(connect_to);
  }
};

curl_slist* header_list(const CurlApi& curl, const HttpRequest& request) {
  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers) {
    std::string line = name;
    line.append(": ").append(value);
    headers = curl.slist_append(headers, line.c_str());
  }
  return headers;
}

void set_method(const CurlApi& curl, CURL* handle, const HttpRequest& request) {
  curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  if (request.method == "GET") curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
  if (!request.body.empty() || request.method == "POST" || request.method == "PATCH") {
    curl.easy_setopt(handle, CURLOPT_POSTFIELDS, request.body.data());
    curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
}

/// Headers, body and progress (for cancelling) go to `transfer`; no signals, as other
/// threads run transfers too; any encoding libcurl can decode is accepted.
void set_callbacks(const CurlApi& curl, CURL* handle, Transfer* transfer) {
  curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
  curl.easy_setopt(handle, CURLOPT_HEADERDATA, transfer);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, transfer);
  curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl.easy_setopt(handle, CURLOPT_XFERINFODATA, transfer);
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl.easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
}

void set_timeouts(const CurlApi& curl, CURL* handle, const HttpRequest& request) {
  if (request.timeout_seconds > 0)
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout_seconds * 1000));
  if (request.connect_timeout_seconds > 0)
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(request.connect_timeout_seconds * 1000));
}

/// The status, and for a transfer that failed (rather than one its reader stopped) why.
void read_outcome(const CurlApi& curl, CURL* handle, CURLcode code, bool stopped_by_reader,
                  const char* error_text, HttpResponse* response) {
  long status = 0;
  curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
  response->status = static_cast<int>(status);
  if (code == CURLE_OK || stopped_by_reader) return;
  response->error = error_text[0] != '\0' ? error_text : curl.easy_strerror(code);
  response->timed_out = code == CURLE_OPERATION_TIMEDOUT;
  // A response cut short is no response: the caller must not take it as complete.
  if (code != CURLE_ABORTED_BY_CALLBACK) response->status = 0;
}

}  // namespace

CurlTransport::CurlTransport() {
  // A session that cannot reach any cluster is refused before its first request.
  std::string error;
  if (curl_api(&error) == nullptr) throw KubeError(error);
}

HttpResponse CurlTransport::perform(const HttpRequest& request) {
  HttpResponse response;
  const CurlApi* api = curl_api(&response.error);
  if (api == nullptr) return response;
  const CurlApi& curl = *api;
  CURL* handle = thread_handle(curl);
  Transfer transfer{api, &request, &response, handle};
  RequestLists lists{curl};
  lists.headers = header_list(curl, request);
  std::string url = url_for_server_name(curl, request, &lists.connect_to);
  curl.easy_setopt(handle, CURLOPT_URL, url.c_str());
  if (lists.connect_to != nullptr) curl.easy_setopt(handle, CURLOPT_CONNECT_TO, lists.connect_to);
  set_method(curl, handle, request);
  curl.easy_setopt(handle, CURLOPT_HTTPHEADER, lists.headers);
  set_callbacks(curl, handle, &transfer);
  set_timeouts(curl, handle, request);
  PemFiles pem_files;
  response.error = set_tls(curl, handle, request.tls, &pem_files);
  if (!response.error.empty()) return response;
  char error_text[CURL_ERROR_SIZE] = {0};
  curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, error_text);
  CURLcode code = request.cancel != nullptr ? perform_cancellable(curl, handle, *request.cancel)
                                            : curl.easy_perform(handle);
  read_outcome(curl, handle, code, transfer.stopped_by_reader, error_text, &response);
  return response;
}

}  // namespace trainjob
