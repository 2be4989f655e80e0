#include "cluster_flags.h"

#include <cstdio>

#include "command.h"
#include "kube/kube_error.h"

namespace trainjob {

void add_cluster_flags(CLI::App* app, ConnectionFlags* flags) {
  app->add_option("--kubeconfig", flags->kubeconfig,
                  "Path to the kubeconfig file (KUBECONFIG and ~/.kube/config are not read then)")
      ->type_name("PATH");
  app->add_option("--context", flags->context, "The kubeconfig context to use")
      ->type_name("CONTEXT");
  app->add_option("--cluster", flags->cluster, "The kubeconfig cluster to use")->type_name("NAME");
  app->add_option("--user", flags->user, "The kubeconfig user to use")->type_name("NAME");
  app->add_option("-n,--namespace", flags->name_space,
                  "Namespace (default: the context's, else \"default\")")
      ->type_name("NAMESPACE");
  app->add_option("--request-timeout", flags->request_timeout,
                  "How long to wait for one answer: 0 (no limit), 30 (seconds), 1s, 2m, 3h")
      ->type_name("DURATION")
      ->capture_default_str();
  // kubectl users write -v=6; CLI11 hands a short option's "=6" over as the value.
  app->add_option_function<std::string>(
         "-v,--v",
         [flags](const std::string& text) {
           std::string digits = !text.empty() && text[0] == '=' ? text.substr(1) : text;
           if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
             throw CLI::ValidationError("-v", "expected a level 0-9, found \"" + text + "\"");
           flags->verbosity = std::stoi(digits);
         },
         "Log level: 6 traces each request and its status, 7 headers (secrets masked), 8 bodies")
      ->type_name("N");
}

ClusterSession::ClusterSession(const ConnectionFlags& flags) {
  Kubeconfig config = load_kubeconfig(flags.kubeconfig, env_);
  RestConfig rest = resolve_rest_config(config, flags, env_);
  if (rest.verbosity >= 6) {
    std::fprintf(stderr,
                 "I Config loaded from %zu file(s); context \"%s\", server %s, namespace %s\n",
                 config.files.size(), rest.context_name.c_str(), rest.server.c_str(),
                 rest.name_space.c_str());
  }
  client_ = std::make_unique<KubeClient>(std::move(rest), &transport_, &env_, &clock_);
}

int run_cluster_command(const std::function<int()>& body) {
  try {
    return body();
  } catch (const KubeError& e) {
    std::string message = e.what();
    // Server errors already say "Error from server" or "error:"; others get kubectl's prefix.
    bool prefixed = message.rfind("Error from server", 0) == 0 || message.rfind("error:", 0) == 0;
    std::fprintf(stderr, "%s%s\n", prefixed ? "" : "error: ", message.c_str());
    return kExitFailure;
  }
}

void add_output_flag(CLI::App* app, std::string* output, const std::vector<std::string>& allowed) {
  app->add_option("-o,--output", *output, "Output format")
      ->check(CLI::IsMember(allowed))
      ->capture_default_str();
}

}  // namespace trainjob
