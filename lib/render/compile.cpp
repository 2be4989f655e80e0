#include "render/compile.h"

#include <algorithm>

#include "k8s/names.h"
#include "model/trainjob.h"
#include "model/vocabulary.h"
#include "render/emit/emit.h"
#include "render/emit/emit_jobset.h"
#include "render/kai.h"
#include "render/ml_policy.h"
#include "render/pod_group.h"
#include "render/policy/torchtune.h"
#include "render/runtime_template.h"
#include "render/scheduling/kueue.h"
#include "render/scheduling/workload_scheduling.h"
#include "render/steps/advisories.h"
#include "render/steps/initializers.h"
#include "render/steps/overrides.h"
#include "render/steps/pod_checks.h"
#include "render/steps/trainer.h"
#include "render/steps/volume_claims.h"
#include "util/suggest.h"

namespace trainjob {
namespace {

/// "; did you mean X?" for a likely typo, and where to see the runtimes there are.
std::string runtime_hint(const RuntimeRegistry& runtimes, const TrainJob& job,
                         const std::string& name) {
  std::vector<std::string> names = runtimes.names(job.runtime_kind, job.name_space);
  std::vector<std::string_view> candidates(names.begin(), names.end());
  std::string match = closest_match(name, candidates);
  return (match.empty() ? "" : "; did you mean \"" + match + "\"?") +
         std::string(" (`kubectl trainjob runtimes` lists the built-in runtimes)");
}

const Runtime* find_runtime(const FieldReader& tj, const TrainJob& job,
                            const RuntimeRegistry& runtimes) {
  const std::string& name = job.runtime_name.value->get<std::string>();
  const Runtime* runtime = runtimes.find(job.runtime_kind, name, job.name_space, job.dialect);
  if (runtime != nullptr) return runtime;
  const Runtime* other = runtimes.find_any_release(job.runtime_kind, name, job.name_space);
  if (other != nullptr) {
    tj.error(job.runtime_name.path(),
             job.runtime_kind + " \"" + name + "\" is built in only for Trainer " +
                 other->releases.text() + " TrainJobs, and this one is read as Trainer " +
                 dialect_info(job.dialect).version +
                 "; give the runtime with -f or --runtimes, or set --trainer-version");
    return nullptr;
  }
  std::string where;
  if (job.runtime_kind == kTrainingRuntime) {
    where = job.name_space.empty()
                ? " (the TrainJob has no namespace: set metadata.namespace or -n)"
                : " in namespace \"" + job.name_space + "\"";
  }
  tj.error(job.runtime_name.path(), job.runtime_kind + " \"" + name + "\" not found" + where +
                                        "; looked in " + runtimes.searched_places() +
                                        runtime_hint(runtimes, job, name));
  return nullptr;
}

bool check_trainjob_name(const FieldReader& tj, const TrainJob& job) {
  if (is_dns1035_label(job.name)) return true;
  tj.error("metadata.name",
           "expected an RFC 1035 label (at most 63 lower-case letters, digits "
           "and '-', starting with a letter and ending with a letter or "
           "digit), found \"" +
               job.name + "\"");
  return false;
}

bool check_name_budget(const CompileState& state, const Runtime& runtime) {
  std::vector<JobNameShape> shapes;
  for (const ReplicatedJob& job : state.replicated_jobs)
    shapes.push_back({job.name, job.replicas, job.count});
  std::optional<NameBudgetProblem> problem = check_name_budget(state.trainjob.name, shapes);
  if (!problem) return true;
  state.trainjob_reader.error(
      "metadata.name",
      "name \"" + state.trainjob.name + "\" is too long for runtime \"" + runtime.document->name() +
          "\": pod names such as \"" + problem->longest_name + "\" would have " +
          std::to_string(problem->longest_name.size()) + " characters, " +
          std::to_string(problem->over_by) + " over the limit of 63; use at most " +
          std::to_string(problem->max_trainjob_name) + " characters");
  return false;
}

void warn_without_trainer(CompileState* state, const TrainerSettings& trainer) {
  if (trainer.present || !state->ml_policy["torch"]) return;
  std::string unset =
      "no spec.trainer: like Kubeflow Trainer, no PET_* variables and no port 29500 are "
      "injected, so torchrun gets no rendezvous settings";
  if (state->trainer_job() == nullptr) {
    // spec.trainer would be refused: there is nothing for it to apply to.
    const Document& runtime = state->runtime_reader.document();
    state->trainjob_reader.warning(
        "spec", unset + ", and " + runtime.kind() + " \"" + runtime.name() +
                    "\" cannot take one: none of its replicated jobs is labelled " +
                    kAncestorLabel + ": " + kTrainerStep +
                    "; use a runtime that has a trainer job, or label one in this runtime");
    return;
  }
  state->trainjob_reader.warning("spec", unset + "; add `trainer: {}` to get them");
}

void warn_deprecated(const FieldReader& tj, const TrainJob& job, const FieldReader& rt) {
  Field support = rt.root()["metadata"]["labels"][kRuntimeSupportLabel];
  if (!support || *support.value != "deprecated") return;
  tj.warning(job.runtime_name.path(), job.runtime_kind + " \"" + rt.document().name() +
                                          "\" is deprecated and will be removed in a future "
                                          "release of Kubeflow Trainer");
}

bool compile_steps(CompileState* state, const Runtime& runtime, const CompileOptions& options) {
  TrainerSettings trainer;
  std::string num_proc;
  // Every step that can still run does, so one run reports every problem; only a runtime
  // template that cannot be read stops the steps that work on its jobs.
  bool template_ok = read_runtime_template(state);
  bool ok = read_trainer(*state, &trainer) && template_ok;
  if (template_ok) {
    ok = apply_overrides(state) && ok;
    ok = size_jobs(state, trainer, &num_proc) && ok;
    ok = apply_initializers(state) && ok;
    ok = apply_pod_group_policy(state) && ok;
    ok = apply_workload_scheduling(state) && ok;
    apply_kai_gang(state);
    ok = check_torchtune(state, trainer) && ok;
    ok = check_volume_claims(*state) && ok;
    ok = check_name_budget(*state, runtime) && ok;
  }
  if (!ok) return false;
  warn_without_trainer(state, trainer);
  warn_advisories(*state, trainer, options.config_maps, options.claims);
  if (state->render_target == RenderTarget::kJobs) warn_jobset_features(*state);
  warn_suspended_without_queue(*state);
  refuse_queued_jobs_apart(*state);
  Json runtime_node = policy_runtime_node(state);
  Json tune_command = torchtune_command(state, trainer, num_proc);  // reads the runtime's
  apply_trainer(state, trainer);
  place_trainer_fields(state, trainer, runtime_node);
  inject_policy_env(state, trainer, num_proc);
  apply_torchtune(state, tune_command);
  if (!check_pod_templates(*state)) return false;
  // A JobSet creates and mounts the claims of its volumeClaimPolicies itself.
  if (state->render_target == RenderTarget::kJobs) apply_volume_claims(state);
  return build_policy(state, trainer, runtime_node);
}

}  // namespace

std::vector<Json> compile_trainjob(const Document& document, const RuntimeRegistry& runtimes,
                                   const CompileOptions& options, Diagnostics* diagnostics) {
  FieldReader tj(document, diagnostics);
  int errors_before = diagnostics->error_count();
  std::optional<TrainJob> job = read_trainjob(tj, options.dialect, options.default_namespace);
  if (!job || !check_trainjob_name(tj, *job)) return {};
  const Runtime* runtime = find_runtime(tj, *job, runtimes);
  if (runtime == nullptr) return {};
  FieldReader rt(*runtime->document, diagnostics);
  CompileState state{*job, tj, rt, dialect_info(job->dialect)};
  state.generate_secrets = options.generate_secrets;
  state.render_target = options.render_target;
  state.gitops_order = options.gitops_order;
  state.warn_gitops_traps = options.warn_gitops_traps;
  state.gang = options.gang;
  warn_deprecated(tj, *job, rt);
  if (!compile_steps(&state, *runtime, options) || diagnostics->error_count() > errors_before)
    return {};
  std::vector<Json> objects =
      options.render_target == RenderTarget::kJobSet ? emit_jobset(&state) : emit_objects(&state);
  if (!options.keep_objects) return {};
  for (Json& object : objects)
    sort_keys(&object);
  return objects;
}

}  // namespace trainjob
