#include "input_flags.h"

#include <iostream>
#include <iterator>

#include "cluster_flags.h"
#include "command.h"
#include "k8s/names.h"
#include "model/dialect.h"

namespace trainjob {

void add_file_flags(CLI::App* app, InputOptions* inputs, const std::string& what) {
  app->add_option("-f,--filename", inputs->paths,
                  "Files or directories (.yaml, .yml, .json) " + what + "; - reads stdin")
      ->required()
      ->type_name("PATH");
  app->add_flag("-R,--recursive", inputs->recursive, "Walk directories given with -f recursively");
}

void add_input_flags(CLI::App* app, InputFlags* flags, bool declare_namespace) {
  add_file_flags(app, &flags->inputs, "of TrainJobs, runtimes and ConfigMaps");
  app->add_option("--runtimes", flags->runtimes_dir,
                  "Directory of (Cluster)TrainingRuntimes, searched after the inputs and before "
                  "the embedded runtimes")
      ->type_name("DIR");
  app->add_option("--trainer-version", flags->trainer_version,
                  "Kubeflow Trainer API to follow (" + dialect_names() +
                      "); when unset, the newest release the fields and values allow, " +
                      dialect_info(kDefaultDialect).version + " when nothing pins one")
      ->type_name("VERSION");
  if (!declare_namespace) return;
  app->add_option(
      "-n,--namespace", flags->name_space,
      "Namespace for TrainJobs that do not set one (one that sets another is an error)");
}

void add_input_and_gang_flags(CLI::App* app, InputFlags* flags, bool declare_namespace) {
  add_input_flags(app, flags, declare_namespace);
  app->add_flag("--gang", flags->gang,
                "Gang-schedule each TrainJob with Kubernetes' own Workload API (1.37, gate "
                "GenericWorkload; one-Job TrainJobs: WorkloadWithJob): all pods start or none, "
                "as a runtime's spec.scheduling: {} asks");
}

void add_from_file_flag(CLI::App* app, std::vector<std::string>* paths) {
  app->add_option("--from-file", *paths,
                  "Put FILE (or each file in a directory) into the ConfigMap the TrainJob "
                  "mounts, replacing the entry of that name (else into a new one mounted at "
                  "/workspace); repeatable")
      ->type_name("FILE");
}

void add_sweep_flags(CLI::App* app, InputFlags* flags, const std::string& trial_help,
                     const std::string& seed_help) {
  app->add_option("--trial", flags->trial, trial_help)->type_name("K")->check(CLI::PositiveNumber);
  flags->seed_option = app->add_option("--seed", flags->seed,
                                       "The seed of an OptimizationJob's random search when its "
                                       "spec gives none (searchAlgorithm.random.seed); " +
                                           seed_help)
                           ->type_name("N");
}

std::optional<RenderRequest> make_request(const InputFlags& flags) {
  RenderRequest request;
  request.inputs = flags.inputs;
  request.runtimes_dir = flags.runtimes_dir;
  request.compile.default_namespace = flags.name_space;
  request.compile.gang = flags.gang;
  request.namespace_from_flag = !flags.name_space.empty();
  if (!flags.name_space.empty() && !is_dns1123_label(flags.name_space)) {
    // It becomes part of file names under --output-dir, like the documents' own.
    usage_error(
        "--namespace: expected an RFC 1123 label (at most 63 lower-case letters, digits "
        "and '-'), found \"" +
        cut_long_runs(flags.name_space) + "\"");
    return std::nullopt;
  }
  if (!flags.trainer_version.empty()) {
    request.compile.dialect = parse_dialect(flags.trainer_version);
    if (!request.compile.dialect) {
      usage_error("--trainer-version: expected one of " + dialect_names() + ", found \"" +
                  flags.trainer_version + "\"");
      return std::nullopt;
    }
  }
  if (flags.trial > 0) request.sweep.trial = flags.trial;
  if (flags.seed_option != nullptr && flags.seed_option->count() > 0)
    request.sweep.seed = flags.seed;
  return request;
}

std::string read_all_stdin() {
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

void keep_until_exit(RenderResult result) {
  // A plain pointer: a container would be destroyed at exit and take the result with it.
  static RenderResult* kept = nullptr;
  delete kept;
  kept = new RenderResult(std::move(result));
}

}  // namespace trainjob
