#include "cluster_flags.h"

#include <cstdio>

#include "command.h"
#include "kube/kube_error.h"
#include "status/cluster_output.h"
#include "status/job_not_found.h"
#include "status/trainjob_names.h"

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
  app->add_option_function<std::string>(
         "-v,--v",
         [flags](const std::string& text) {
           if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
             throw CLI::ValidationError("-v", "expected a level 0-9, found \"" + text + "\"");
           flags->verbosity = std::stoi(text);
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

int run_target_command(const ConnectionFlags& flags, const ManagedKind* kind,
                       const std::function<int(ClusterSession&)>& body) {
  return run_cluster_command([&] {
    ClusterSession session(flags);
    try {
      return body(session);
    } catch (const JobNotFound& e) {
      throw KubeError(job_not_found_message(
          e, kind, namespaces_holding(&session.client(), e.label(), e.name(), e.name_space())));
    }
  });
}

CLI::Option* add_target_arguments(CLI::App* app, std::vector<std::string>* words, bool sweeps) {
  std::string what = sweeps ? "The TrainJob or OptimizationJob" : "The TrainJob";
  std::string kinds = managed_kind_words() + (sweeps ? ", optimizationjob" : "");
  return app
      ->add_option(
          "NAME", *words,
          what + ": NAME, TYPE/NAME or TYPE NAME as kubectl takes them (TYPE: " + kinds + ")")
      ->required()
      ->expected(1, 2)
      ->type_name("TRAINJOB");  // completion offers the TrainJobs by this type name
}

std::optional<TrainJobTarget> target_of(const std::vector<std::string>& words) {
  std::string error;
  std::optional<TrainJobTarget> target = parse_trainjob_target(words, &error);
  if (!target) {
    // kubectl ends an unknown resource type with exit 1 ("the server doesn't have a
    // resource type"), not with its usage code.
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return std::nullopt;
  }
  return target;
}

void add_runtimes_from_cluster_flag(CLI::App* app, std::string* mode, bool automatic) {
  if (!automatic) {
    app->add_flag_callback(
        "--runtimes-from-cluster", [mode] { *mode = "true"; },
        "Also read the ClusterTrainingRuntimes and the namespace's TrainingRuntimes "
        "installed in the cluster (they replace built-in ones of the same name)");
    return;
  }
  app->add_option("--runtimes-from-cluster", *mode,
                  "Compile against the cluster's ClusterTrainingRuntimes and TrainingRuntimes, "
                  "before the built-in ones: auto (when the cluster serves the CRD), true, false")
      ->check(CLI::IsMember({"auto", "true", "false"}))
      ->capture_default_str();
}

void add_output_flag(CLI::App* app, std::string* output, const std::vector<std::string>& allowed,
                     const std::string& jsonpath_example) {
  std::string names;
  for (const std::string& format : allowed)
    names += format + ", ";
  app->add_option("-o,--output", *output,
                  "Output format: " + names + "or jsonpath=TEMPLATE as kubectl's (`" +
                      jsonpath_example + "`)")
      ->check(CLI::Validator(
          [allowed](std::string& value) { return check_output_format(value, allowed); },
          output_formats_text(allowed)))
      ->capture_default_str();
}

}  // namespace trainjob
