// `kubectl trainjob submit`: render, then server-side apply, all or nothing.
#include "kube/submit.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "command.h"
#include "input_flags.h"
#include "kube/config_map_files.h"
#include "kube/environment.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/trainjob_status.h"
#include "load/file_system.h"
#include "output/render_output.h"

namespace trainjob {
namespace {

struct SubmitFlags {
  ConnectionFlags connection;
  std::vector<std::string> files;
  bool recursive = false;
  std::string runtimes_dir;
  std::string trainer_version;
  std::string dry_run = "none";
  bool wait = false;
  std::string timeout = "0";
  bool keep_on_error = false;
  bool replace = false;
  std::vector<std::string> from_files;
  std::string output;
};

/// Adds the ConfigMap of --from-file files; false (after saying why) when it cannot be built.
bool add_files_config_map(const SubmitFlags& flags, const RenderResult& rendered,
                          SubmitPlan* plan) {
  std::vector<std::string> inputs;  // ConfigMaps given as inputs are not ours to fill
  for (const RenderedUnit& unit : rendered.units) {
    if (!unit.compiled && string_member(unit.objects[0], "kind") == "ConfigMap")
      inputs.push_back(name_of(unit.objects[0]));
  }
  std::string error;
  std::optional<Json> config_map = config_map_for_files(
      flags.from_files, plan->trainjob, plan->name_space, inputs, &plan->objects, &error);
  if (!config_map) {
    std::fprintf(stderr, "error: --from-file%s\n", error.c_str());
    return false;
  }
  plan->objects.push_back(std::move(*config_map));
  return true;
}

/// The one TrainJob's objects, plus the other input documents labelled as its own.
std::optional<SubmitPlan> make_plan(const SubmitFlags& flags, const RenderResult& rendered,
                                    const std::string& name_space) {
  SubmitPlan plan;
  int trainjobs = 0;
  for (const RenderedUnit& unit : rendered.units) {
    if (!unit.compiled) continue;
    ++trainjobs;
    plan.trainjob = unit.source->name();
    std::string own = unit.source->name_space();
    plan.name_space = own.empty() ? name_space : own;
  }
  if (trainjobs != 1) {
    std::fprintf(stderr,
                 "error: submit takes exactly one TrainJob (or PyTorchJob, TFJob, ...); the "
                 "inputs hold %d\n",
                 trainjobs);
    return std::nullopt;
  }
  for (const RenderedUnit& unit : rendered.units) {
    for (Json object : unit.objects) {
      Json& metadata = object["metadata"];
      if (!metadata.contains("namespace")) metadata["namespace"] = plan.name_space;
      if (string_member(metadata, "namespace") != plan.name_space) {
        std::fprintf(stderr, "error: %s is in namespace %s, the TrainJob in %s\n",
                     display_name(object).c_str(), string_member(metadata, "namespace").c_str(),
                     plan.name_space.c_str());
        return std::nullopt;
      }
      metadata["labels"][kTrainJobNameLabel] = plan.trainjob;
      metadata["labels"][kManagedByLabel] = kManagedByValue;
      plan.objects.push_back(std::move(object));
    }
  }
  if (!flags.from_files.empty() && !add_files_config_map(flags, rendered, &plan))
    return std::nullopt;
  plan.kind = source_kind_of(plan.objects);
  plan.objects = order_for_apply(std::move(plan.objects));
  mark_as_submitted(&plan);
  return plan;
}

int run_submit(const SubmitFlags& flags) {
  std::optional<double> timeout = parse_duration(flags.timeout);
  if (!timeout)
    return usage_error("--timeout: expected a duration such as 10m, found \"" + flags.timeout +
                       "\"");
  if (flags.dry_run != "none" && (flags.wait || flags.replace))
    return usage_error("--dry-run cannot be combined with --wait or --replace");
  return run_cluster_command([&] {
    ClusterSession session(flags.connection);
    InputFlags inputs{flags.files, flags.recursive, flags.runtimes_dir, flags.trainer_version,
                      session.name_space()};
    std::optional<RenderRequest> request = make_request(inputs);
    if (!request) return static_cast<int>(kExitUsage);
    request->config_map_from_files = !flags.from_files.empty();
    // Secrets a policy needs (SSH keys) are generated; submit creates them only when absent.
    request->compile.generate_secrets = true;
    RealFileSystem fs;
    Diagnostics diagnostics;
    RenderResult rendered = render_inputs(*request, fs, read_all_stdin, &diagnostics);
    int checked = report_diagnostics(&diagnostics);
    if (checked != kExitOk) return checked;
    std::optional<SubmitPlan> plan = make_plan(flags, rendered, session.name_space());
    if (!plan) return static_cast<int>(kExitFailure);
    if (flags.dry_run == "client") {
      std::vector<const Json*> objects;
      for (const Json& object : plan->objects)
        objects.push_back(&object);
      std::string text = format_objects(objects, OutputFormat::kYaml);
      std::fwrite(text.data(), 1, text.size(), stdout);
      return static_cast<int>(kExitOk);
    }
    SubmitOptions options{flags.dry_run == "server", flags.wait,    *timeout,
                          flags.keep_on_error,       flags.replace, flags.output == "name"};
    Submitter submitter(&session.client(), &session.clock(), stdout, stderr);
    return submitter.submit(*plan, options);
  });
}

}  // namespace

CommandRunner declare_submit(CLI::App* app) {
  auto flags = std::make_shared<SubmitFlags>();
  app->add_option("-f,--filename", flags->files, "The TrainJob (files, directories, - for stdin)")
      ->required()
      ->type_name("PATH");
  app->add_flag("-R,--recursive", flags->recursive, "Walk directories given with -f recursively");
  app->add_option("--runtimes", flags->runtimes_dir, "Directory of (Cluster)TrainingRuntimes")
      ->type_name("DIR");
  app->add_option("--trainer-version", flags->trainer_version, "Kubeflow Trainer API to follow")
      ->type_name("VERSION");
  app->add_option("--dry-run", flags->dry_run,
                  "none: apply; client: print what would be applied; server: ask the server to "
                  "check every object and change nothing")
      ->check(CLI::IsMember({"none", "client", "server"}))
      ->capture_default_str();
  app->add_flag("--wait", flags->wait,
                "Run initializers first, then the trainer; wait for the end (exit 1 on failure)");
  app->add_option("--timeout", flags->timeout, "With --wait: give up after this long (0: never)")
      ->type_name("DURATION")
      ->capture_default_str();
  app->add_flag("--keep-on-error", flags->keep_on_error,
                "Leave what was created when an apply fails half way");
  app->add_flag("--replace", flags->replace,
                "When the submitted Jobs differ (Jobs are immutable): delete them, wait, submit");
  app->add_option("--from-file", flags->from_files,
                  "Put this file in the ConfigMap the TrainJob mounts (repeatable)")
      ->type_name("PATH");
  app->add_option("-o,--output", flags->output, "name: print only kind.group/name of each object")
      ->check(CLI::IsMember({"name"}));
  add_cluster_flags(app, &flags->connection);
  return [flags] { return run_submit(*flags); };
}

}  // namespace trainjob
