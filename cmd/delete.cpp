// `kubectl trainjob delete`: every object `submit` applied for the TrainJob, pods included;
// of an OptimizationJob, those of every trial.
#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "command.h"
#include "input_flags.h"
#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "load/file_system.h"
#include "model/vocabulary.h"
#include "status/sweep_status.h"
#include "status/trainjob_names.h"
#include "status/trainjob_objects.h"
#include "status/trainjob_status.h"
#include "util/duration.h"

namespace trainjob {
namespace {

struct DeleteFlags {
  ConnectionFlags connection;
  std::vector<std::string> target;  ///< NAME..., TYPE/NAME... or TYPE NAME...
  InputOptions files;               ///< -f, -R: delete the jobs the files describe
  bool all = false;                 ///< every job submitted to the namespace (of TYPE)
  bool ignore_not_found = false;
  bool wait = false;
  std::string timeout = "0";
  std::string output;
};

/// Deletes what `found` holds of TrainJob `name`, printing each object as kubectl does.
void delete_found_objects(const DeleteFlags& flags, KubeClient* client,
                          const std::string& name_space, const std::string& name,
                          const FoundTrainJob& found) {
  if (found.applied_by_kubectl && flags.output != "name")
    std::fprintf(stderr, "%s\n", describe_found(found, name).c_str());
  delete_found(client, name_space, name, found, [&](const Json& object) {
    if (flags.output == "name") {
      std::printf("%s\n", display_name(object).c_str());
    } else {
      std::printf("%s \"%s\" deleted\n", resource_type_of(object).qualified_kind().c_str(),
                  name_of(object).c_str());
    }
  });
  std::fflush(stdout);
  // Not a word otherwise: an object used by the Jobs and still there would look forgotten.
  for (const std::string& left : left_behind(client, name_space, found))
    std::fprintf(stderr,
                 "note: %s is left: the Jobs used it, but %s (`kubectl delete %s` deletes it)\n",
                 left.c_str(),
                 found.applied_by_kubectl ? "it does not carry render's labels"
                                          : "submit did not create it for the TrainJob",
                 left.c_str());
}

/// Every trial of OptimizationJob `name`, one TrainJob after the other; the trials deleted.
std::vector<std::string> delete_sweep(const DeleteFlags& flags, KubeClient* client,
                                      const std::string& name_space, const std::string& name,
                                      const std::vector<TrialObject>& trials) {
  std::vector<std::string> deleted;
  for (const TrialObject& trial : trials) {
    FoundTrainJob found = find_deletable_objects(client, name_space, trial.trial);
    if (found.objects.empty()) continue;  // only the user's own objects carry its labels
    delete_found_objects(flags, client, name_space, trial.trial, found);
    deleted.push_back(trial.trial);
  }
  if (deleted.empty()) throw_sweep_not_found(name_space, name);
  return deleted;
}

/// Deletes the job `name` (of `kind`, when the TYPE was given): a TrainJob or legacy job, or
/// else the trials of OptimizationJob `name` (a TrainJob of that name wins). The TrainJobs
/// deleted, for --wait.
std::vector<std::string> delete_one(const DeleteFlags& flags, KubeClient* client,
                                    const std::string& name_space, const std::string& name,
                                    const ManagedKind* kind) {
  bool sweep = kind == &optimization_job_kind();
  FoundTrainJob found;
  if (!sweep) found = find_deletable_objects(client, name_space, name);
  if (found.objects.empty() && (sweep || kind == nullptr)) {
    std::vector<TrialObject> trials = find_sweep_trials(client, name_space, name);
    if (sweep || !trials.empty()) return delete_sweep(flags, client, name_space, name, trials);
  }
  check_found_kind(found, kind, name);
  delete_found_objects(flags, client, name_space, name, found);
  return {name};
}

/// The kind a -f document names: a managed kind, or OptimizationJob.
const ManagedKind* described_kind(const std::string& kind) {
  if (kind == optimization_job_kind().kind) return &optimization_job_kind();
  return find_managed_kind(kind);
}

/// --all: every job submitted to the namespace, of `kind` when given (each of another kind is
/// not found for it, and skipped); of optimizationjob, every sweep.
std::vector<DescribedTrainJob> all_targets(KubeClient* client, const std::string& name_space,
                                           const ManagedKind* kind) {
  bool sweeps = kind == &optimization_job_kind();
  std::vector<DescribedTrainJob> out;
  for (const std::string& name : submitted_label_values(
           client, name_space, sweeps ? kOptimizationJobNameLabel : kTrainJobNameLabel))
    out.push_back({name_space, name, kind == nullptr ? "" : kind->kind});
  return out;
}

/// What the command acts on: the named jobs, every job (--all), or every job the -f files
/// describe.
std::vector<DescribedTrainJob> targets_of(const DeleteFlags& flags, KubeClient* client,
                                          const std::string& name_space,
                                          const std::vector<TrainJobTarget>& named) {
  if (flags.all) return all_targets(client, name_space, named.empty() ? nullptr : named[0].kind);
  if (flags.files.paths.empty()) {
    std::vector<DescribedTrainJob> out;
    for (const TrainJobTarget& target : named)
      out.push_back({name_space, target.name, target.kind == nullptr ? "" : target.kind->kind});
    return out;
  }
  RealFileSystem fs;
  Diagnostics diagnostics;
  std::vector<Document> documents = load_inputs(flags.files, fs, read_all_stdin, &diagnostics);
  if (report_diagnostics(&diagnostics) != kExitOk) throw KubeError("cannot read the files");
  std::string error;
  std::vector<DescribedTrainJob> jobs =
      described_trainjobs(documents, name_space, !flags.connection.name_space.empty(), &error);
  if (!error.empty()) throw KubeError(error);
  return jobs;
}

/// --wait: until the objects and pods of every TrainJob deleted are gone.
void wait_for_deleted(ClusterSession* session, const std::vector<DescribedTrainJob>& deleted,
                      double timeout) {
  for (const DescribedTrainJob& job : deleted) {
    if (!wait_until_gone(&session->client(), session->clock(), job.name_space, job.name, timeout))
      throw KubeError("timed out waiting for the objects and pods of TrainJob " + job.name +
                      " to go");
  }
}

/// The named jobs (or, with --all, the TYPE given); nullopt after saying why not.
std::optional<std::vector<TrainJobTarget>> named_targets(const DeleteFlags& flags) {
  std::string error;
  if (flags.all) {
    // kubectl delete TYPE --all: a TYPE, no NAME.
    std::optional<TrainJobTarget> type =
        parse_trainjob_target({flags.target[0], "x"}, &error, true);
    if (!type) std::fprintf(stderr, "error: %s\n", error.c_str());
    if (!type) return std::nullopt;
    return std::vector<TrainJobTarget>{*type};
  }
  std::optional<std::vector<TrainJobTarget>> targets =
      parse_trainjob_targets(flags.target, &error, true);
  if (!targets) std::fprintf(stderr, "error: %s\n", error.c_str());
  return targets;
}

int run_delete(const DeleteFlags& flags) {
  std::optional<double> timeout = parse_duration(flags.timeout);
  if (!timeout)
    return usage_error("--timeout: expected a duration such as 5m, found \"" + flags.timeout +
                       "\"");
  if (flags.all && (!flags.files.paths.empty() || flags.target.size() > 1 ||
                    (!flags.target.empty() && flags.target[0].find('/') != std::string::npos)))
    return usage_error(
        "--all deletes every job of the namespace (of TYPE, if given): give no "
        "NAME and no -f with it");
  if (!flags.all && flags.files.paths.empty() == flags.target.empty())
    return usage_error("give either NAME (or TYPE/NAME) or -f FILE, not both");
  std::vector<TrainJobTarget> named;
  if (flags.files.paths.empty() && !flags.target.empty()) {
    std::optional<std::vector<TrainJobTarget>> targets = named_targets(flags);
    if (!targets) return static_cast<int>(kExitFailure);
    named = *targets;
  }
  // The kind in a not-found message is the one asked for, when one job was named.
  const ManagedKind* asked = named.size() == 1 ? named[0].kind : nullptr;
  return run_target_command(flags.connection, asked, [&](ClusterSession& session) {
    KubeClient& client = session.client();
    std::vector<DescribedTrainJob> jobs = targets_of(flags, &client, session.name_space(), named);
    if (flags.all && jobs.empty())
      std::printf("No resources found\n");  // as kubectl delete --all (on stdout), exit 0
    int code = kExitOk;
    std::vector<DescribedTrainJob> deleted;
    for (const DescribedTrainJob& job : jobs) {
      try {
        for (const std::string& trainjob :
             delete_one(flags, &client, job.name_space, job.name, described_kind(job.kind)))
          deleted.push_back({job.name_space, trainjob, ""});
      } catch (const KubeError& e) {
        // kubectl's --ignore-not-found, which --all implies.
        if ((flags.ignore_not_found || flags.all) && e.http_status() == 404) continue;
        if (jobs.size() == 1) throw;
        // As kubectl delete -f and delete A B: say what failed, go on with the others, exit 1.
        std::fprintf(stderr, "error: %s\n", e.what());
        code = kExitFailure;
      }
    }
    if (flags.wait) wait_for_deleted(&session, deleted, *timeout);
    return code;
  });
}

}  // namespace

CommandRunner declare_delete(CLI::App* app) {
  auto flags = std::make_shared<DeleteFlags>();
  app->footer(
      "Deletes what `submit` applied for the TrainJob and nothing else: its Jobs (their pods\n"
      "go with them), PodGroups, Service, ConfigMaps and Secrets, and any other kind that was\n"
      "among the inputs, all found by the labels trainer.kubeflow.org/trainjob-name=NAME and\n"
      "kubectl-trainjob/created-by-submit=true. A TrainJob rendered and applied with\n"
      "`kubectl apply` is found by render's labels (trainjob-name and\n"
      "app.kubernetes.io/managed-by=kubectl-trainjob) instead. Objects you made yourself\n"
      "are left alone, also when submit applied to them (it labels only what it creates);\n"
      "one the Jobs used is named in a note. With -f, every TrainJob and Training Operator\n"
      "job the files describe is deleted; with --all, every one of the namespace.\n"
      "An OptimizationJob (NAME when no TrainJob has that name, or optimizationjob/NAME) is\n"
      "its trials: each trial TrainJob labelled trainer.kubeflow.org/optimizationjob-name=NAME\n"
      "is deleted as above.");
  add_target_arguments(app, &flags->target, true)
      ->required(false)
      ->expected(0, -1)
      ->description(
          "The TrainJobs or OptimizationJobs: NAME..., TYPE/NAME... or TYPE NAME... as kubectl "
          "takes them (TYPE: " +
          managed_kind_words() + ", optimizationjob); with --all, TYPE alone or nothing");
  add_file_flags(app, &flags->files, "describing the TrainJobs to delete");
  app->get_option("-f")->required(false);
  app->add_flag("--all", flags->all,
                "Delete every TrainJob (of TYPE, if given) submitted to the namespace; implies "
                "--ignore-not-found");
  app->add_flag("--ignore-not-found", flags->ignore_not_found,
                "Treat a job that is not there as deleted: exit 0, no error");
  app->add_flag("--wait", flags->wait, "Return only once every object and pod is gone");
  app->add_option("--timeout", flags->timeout, "With --wait: give up after this long (0: never)")
      ->type_name("DURATION")
      ->capture_default_str();
  app->add_option("-o,--output", flags->output, "name: print only kind.group/name of each object")
      ->check(CLI::IsMember({"name"}));
  add_cluster_flags(app, &flags->connection);
  return [flags] { return run_delete(*flags); };
}

}  // namespace trainjob
