#include "render/kueue.h"

namespace trainjob {

Json kueue_job_labels(const CompileState& state) {
  Json out = Json::object();
  Field labels = state.trainjob_reader.root()["metadata"]["labels"];
  if (!labels || !labels.value->is_object()) return out;
  for (const char* key : {kKueueQueueLabel, kKueuePriorityLabel}) {
    auto it = labels.value->find(key);
    if (it != labels.value->end() && it->is_string()) out[key] = *it;
  }
  return out;
}

void warn_suspended_without_queue(const CompileState& state) {
  if (!state.trainjob.suspend || kueue_job_labels(state).contains(kKueueQueueLabel)) return;
  std::string queue = "no Kueue queue (metadata.labels." + std::string(kKueueQueueLabel) + ")";
  if (state.render_target == RenderTarget::kJobSet) {
    state.trainjob_reader.warning("spec.suspend",
                                  "the JobSet is created suspended and " + queue +
                                      " will admit it: it waits until its spec.suspend "
                                      "is set to false");
    return;
  }
  state.trainjob_reader.warning("spec.suspend", "the Jobs are created suspended and " + queue +
                                                    " will admit them: they wait until `kubectl "
                                                    "trainjob resume " +
                                                    state.trainjob.name + "`");
}

}  // namespace trainjob
