#include "render/kueue.h"

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

}  // namespace trainjob
