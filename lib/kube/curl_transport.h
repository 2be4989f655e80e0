// The HTTP transport of the cluster commands: libcurl, loaded on first use.
#ifndef TRAINJOB_KUBE_CURL_TRANSPORT_H_
#define TRAINJOB_KUBE_CURL_TRANSPORT_H_

#include "kube/http.h"

namespace trainjob {

/// The real transport: libcurl, one easy handle per request, safe to use from several threads.
/// libcurl is loaded when the first transport is made (lib/kube/curl_library.h), so commands
/// that never make one never load it.
class CurlTransport : public HttpTransport {
 public:
  /// Throws KubeError ("libcurl.so.4 not found: apt-get install libcurl4 (...)") when
  /// libcurl cannot be loaded.
  CurlTransport();
  HttpResponse perform(const HttpRequest& request) override;
};

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_CURL_TRANSPORT_H_
