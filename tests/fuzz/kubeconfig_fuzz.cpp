// libFuzzer target: any bytes as a kubeconfig, read, merged and resolved to a connection as
// every cluster command does it, and as an exec plugin's answer. A kubeconfig may come from
// anywhere (a CI secret, a download): every outcome must be a connection or a KubeError; any
// other exception, a crash, a leak or a hang is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "../support/kube_fakes.h"
#include "kube/credentials.h"
#include "kube/kube_error.h"
#include "kube/kubeconfig.h"
#include "kube/rest_config.h"
#include "util/duration.h"

namespace {

void resolve(const std::string& text) {
  trainjob::FakeEnvironment env;  // files only; no process is started, no variable set
  env.files["/k/config"] = text;
  env.files["/k/ca.pem"] = "CA";
  try {
    trainjob::Kubeconfig config = trainjob::load_kubeconfig("/k/config", env);
    trainjob::ConnectionFlags flags;
    trainjob::resolve_rest_config(config, flags, env);
    flags.context = "c";  // a named context and overrides take the other paths
    flags.cluster = "k";
    flags.user = "u";
    trainjob::resolve_rest_config(config, flags, env);
  } catch (const trainjob::KubeError&) {
  }
}

void exec_answer(const std::string& text) {
  try {
    trainjob::parse_exec_credential(text, "client.authentication.k8s.io/v1");
  } catch (const trainjob::KubeError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  resolve(text);
  exec_answer(text);
  // --request-timeout takes a user's text too.
  trainjob::parse_duration(text.substr(0, 64));
  return 0;
}
