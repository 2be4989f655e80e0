// What the compile steps share while one TrainJob is turned into objects.
#ifndef TRAINJOB_RENDER_COMPILE_STATE_H_
#define TRAINJOB_RENDER_COMPILE_STATE_H_

#include <string>
#include <string_view>
#include <vector>

#include "load/json.h"
#include "model/dialect.h"
#include "model/field.h"
#include "model/trainjob.h"
#include "render/render_target.h"

namespace trainjob {

/// One `spec.template.spec.replicatedJobs[i]` of the runtime, being turned into Jobs.
struct ReplicatedJob {
  std::string name;
  std::string ancestor;  ///< value of trainer.kubeflow.org/trainjob-ancestor-step, or empty
  std::string group = "default";
  int64_t replicas = 1;  ///< Jobs made from it
  int64_t count = 1;     ///< pods of each Job: parallelism = completions
  Json job_template;     ///< the runtime's `template` ({metadata, spec}), patched as we go
  Json depends_on;       ///< JobSet dependsOn, or null
  Field field;           ///< where it is in the runtime, for messages

  std::string path() const { return field.path(); }

  Json& pod_template() { return job_template["spec"]["template"]; }
  Json& pod_spec() { return pod_template()["spec"]; }
};

struct CompileState {
  CompileState(const TrainJob& trainjob_model, const FieldReader& trainjob_fields,
               const FieldReader& runtime_fields, const DialectInfo& dialect_info)
      : trainjob(trainjob_model),
        trainjob_reader(trainjob_fields),
        runtime_reader(runtime_fields),
        dialect(dialect_info) {}

  const TrainJob& trainjob;            ///< the TrainJob as read (model/trainjob.h)
  const FieldReader& trainjob_reader;  ///< reports into the TrainJob's file
  const FieldReader& runtime_reader;   ///< reports into the runtime's file
  const DialectInfo& dialect;
  Field ml_policy;         ///< runtime spec.mlPolicy
  Field pod_group_policy;  ///< runtime spec.podGroupPolicy
  Field scheduling;        ///< runtime spec.scheduling (KEP-3015)
  bool gang = false;       ///< CompileOptions::gang
  Json jobset_spec;        ///< runtime spec.template.spec, less replicatedJobs
  /// Labels and annotations upstream gives the JobSet object: the runtime's
  /// spec.template.metadata, overwritten per key by the TrainJob's.
  Json jobset_metadata = Json::object();
  std::vector<ReplicatedJob> replicated_jobs;
  Json pod_labels = Json::object();  ///< added to every pod template (scheduler plugins)
  Json pod_annotations = Json::object();
  std::vector<Json> extra_objects;  ///< PodGroups and the like, emitted before the Jobs
  /// Emit Secrets that hold generated keys (CompileOptions::generate_secrets).
  bool generate_secrets = false;
  /// What is emitted; under kJobSet the steps that stand in for the JobSet controller
  /// (claims, the MPI node wrapper, the Service) are left to it.
  RenderTarget render_target = RenderTarget::kJobs;
  GitOpsOrder gitops_order = GitOpsOrder::kNone;
  bool warn_gitops_traps = false;  ///< CompileOptions::warn_gitops_traps

  /// The first job labelled as the trainer ancestor, as upstream picks it.
  ReplicatedJob* trainer_job();
  ReplicatedJob* find_job(std::string_view name);
  ReplicatedJob* find_ancestor(std::string_view ancestor);
};

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_COMPILE_STATE_H_
