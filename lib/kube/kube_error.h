// The one error type of the cluster code: a message ready for the user. A failed request
// ends the command, so it is thrown to the command's top level and printed there once.
#ifndef TRAINJOB_KUBE_KUBE_ERROR_H_
#define TRAINJOB_KUBE_KUBE_ERROR_H_

#include <stdexcept>
#include <string>

namespace trainjob {

class KubeError : public std::runtime_error {
 public:
  explicit KubeError(const std::string& message, int http_status = 0, std::string reason = "")
      : std::runtime_error(message), http_status_(http_status), reason_(std::move(reason)) {}
  int http_status() const { return http_status_; }
  const std::string& reason() const { return reason_; }

 private:
  int http_status_;
  std::string reason_;
};

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_KUBE_ERROR_H_
