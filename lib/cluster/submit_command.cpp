#include "cluster/submit_command.h"

#include <cstdio>

#include "cluster/cluster_runtimes.h"
#include "cluster/submit_plan.h"
#include "kube/objects.h"
#include "load/file_system.h"
#include "output/diagnostic_report.h"
#include "output/render_output.h"
#include "sweep/sweep_plan.h"

namespace trainjob {
namespace {

/// --dry-run=client: the objects that would be applied, as YAML; with -o name their names,
/// as the server dry run prints them.
void print_plans(const std::vector<SubmitPlan>& plans, bool names_only) {
  std::vector<const Json*> objects;
  std::string names;
  for (const SubmitPlan& plan : plans) {
    for (const Json& object : plan.objects) {
      objects.push_back(&object);
      names += display_name(object) + "\n";
    }
  }
  std::string text = names_only ? names : format_objects(objects, OutputFormat::kYaml);
  std::fwrite(text.data(), 1, text.size(), stdout);
}

/// The jobs of `rendered`, each applied (or, with --dry-run=client, printed); the exit code.
int submit_plans(const SubmitRequest& request, const RenderResult& rendered, KubeClient* client,
                 const Clock* clock, std::string* usage) {
  std::vector<SubmitPlan> plans =
      plan_submit(rendered, request.from_files, client->config().name_space);
  if (request.options.wait && plans.size() > 1) {
    *usage = "--wait follows one job, and the inputs hold " + std::to_string(plans.size()) +
             ": submit them without --wait and follow each with `kubectl trainjob status "
             "--watch NAME`";
    return 2;
  }
  if (request.client_dry_run) {
    print_plans(plans, request.options.names_only);
    return 0;
  }
  int code = 0;
  for (const SubmitPlan& plan : plans) {
    Submitter submitter(client, clock, stdout, stderr);
    if (submitter.submit(plan, request.options) != 0) code = 1;
  }
  return code;
}

}  // namespace

int submit_inputs(SubmitRequest request, KubeClient* client, const Clock* clock,
                  std::string* usage) {
  const std::string& name_space = client->config().name_space;
  request.render.config_map_from_files = !request.from_files.empty();
  request.render.cluster_runtimes =
      runtimes_from_cluster(request.runtimes_from_cluster, client, name_space);
  // Secrets a policy needs (SSH keys) are generated; submit creates them only when absent.
  request.render.compile.generate_secrets = true;
  RealFileSystem fs;
  Diagnostics diagnostics;
  RenderResult rendered = render_inputs(request.render, fs, request.read_stdin, &diagnostics);
  if (!print_diagnostics(&diagnostics, stderr)) return 1;
  report_cluster_runtimes(rendered, request.render.cluster_runtimes);
  bool search = !request.render.sweep.trial && find_optimization_unit(rendered) != nullptr;
  if (!search || request.client_dry_run || request.options.server_dry_run)
    return submit_plans(request, rendered, client, clock, usage);
  if (!request.options.wait) {
    *usage =
        "an OptimizationJob's trials are started by this command as others end (nothing on "
        "the cluster runs OptimizationJobs): pass --wait to run the search, or --trial K to "
        "submit one trial";
    return 2;
  }
  return submit_search(client, name_space, rendered, request.options, request.drive_search);
}

}  // namespace trainjob
