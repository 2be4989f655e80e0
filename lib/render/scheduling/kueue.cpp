#include "render/scheduling/kueue.h"

#include <set>

namespace trainjob {

Json kueue_job_labels(const CompileState& state) {
  return kueue_job_labels(state.trainjob_reader.document().value);
}

void warn_suspended_without_queue(const CompileState& state) {
  if (state.render_target != RenderTarget::kJobSet) {
    warn_jobs_suspended_without_queue(state.trainjob_reader, "spec.suspend", state.trainjob.suspend,
                                      state.trainjob.name);
    return;
  }
  if (!state.trainjob.suspend || kueue_job_labels(state).contains(kKueueQueueLabel)) return;
  state.trainjob_reader.warning("spec.suspend", "the JobSet is created suspended and " +
                                                    no_kueue_queue_phrase() +
                                                    " will admit it: it waits until its "
                                                    "spec.suspend is set to false");
}

namespace {

/// The replicated jobs another waits for to complete (initializers): they run before, not with,
/// the rest.
std::set<std::string> completed_first(const std::vector<ReplicatedJob>& jobs) {
  std::set<std::string> out;
  for (const ReplicatedJob& job : jobs) {
    if (!job.depends_on.is_array()) continue;
    for (const Json& dependency : job.depends_on)
      if (string_member_ref(dependency, "status") == "Complete")
        out.insert(string_member(dependency, "name"));
  }
  return out;
}

}  // namespace

void refuse_queued_jobs_apart(const CompileState& state) {
  if (state.render_target != RenderTarget::kJobs) return;
  std::set<std::string> before = completed_first(state.replicated_jobs);
  int64_t jobs = 0;
  std::string which;
  for (const ReplicatedJob& job : state.replicated_jobs) {
    if (before.count(job.name) != 0 || job.replicas < 1) continue;
    jobs += job.replicas;
    which += (which.empty() ? "" : ", ") + job.name +
             (job.replicas > 1 ? " x" + std::to_string(job.replicas) : "");
  }
  refuse_queued_jobs_admitted_apart(
      state.trainjob_reader, jobs, which,
      "render it with --target jobset: Kueue's JobSet integration admits the JobSet, all of its "
      "Jobs, as one Workload (the JobSet controller must run in the cluster)");
}

}  // namespace trainjob
