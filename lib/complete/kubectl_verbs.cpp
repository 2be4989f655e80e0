#include "complete/kubectl_verbs.h"

namespace trainjob {
namespace {

struct VerbPointer {
  const char* verb;
  const char* pointer;
};

// A TrainJob lives on the cluster as Jobs, a Service and pods (no TrainJob object), so the
// verbs that read or change "the TrainJob" are ours, and those about one pod are kubectl's.
const VerbPointer kVerbPointers[] = {
    {"get",
     "use 'kubectl trainjob status NAME' for one TrainJob, 'kubectl trainjob list' for a "
     "namespace's"},
    {"describe", "use 'kubectl trainjob status NAME': phase, steps, each node's pod and events"},
    {"apply", "use 'kubectl trainjob submit -f FILE' (server-side apply of what it compiles to)"},
    {"create",
     "use 'kubectl trainjob submit -f FILE'; 'kubectl trainjob init NAME' writes a new "
     "TrainJob"},
    {"replace", "use 'kubectl trainjob submit -f FILE --replace'"},
    {"patch", "edit the TrainJob's file, then 'kubectl trainjob submit -f FILE --replace'"},
    {"edit",
     "edit the TrainJob's file, then 'kubectl trainjob submit -f FILE --replace' (the "
     "cluster holds no TrainJob object to edit)"},
    {"scale",
     "set spec.trainer.numNodes in the TrainJob's file, then 'kubectl trainjob submit "
     "-f FILE --replace'"},
    {"rollout",
     "use 'kubectl trainjob submit -f FILE --rerun' to run a TrainJob again, "
     "'kubectl trainjob suspend|resume NAME' to pause it"},
    {"top", "use 'kubectl top pods -l trainer.kubeflow.org/trainjob-name=NAME'"},
    {"exec", "use 'kubectl exec POD' ('kubectl trainjob status NAME' names each node's pod)"},
    {"attach", "use 'kubectl attach POD' ('kubectl trainjob status NAME' names each node's pod)"},
    {"cp", "use 'kubectl cp' with a pod 'kubectl trainjob status NAME' names"},
    {"port-forward",
     "use 'kubectl port-forward POD' ('kubectl trainjob status NAME' names "
     "each node's pod)"},
    {"explain",
     "the TrainJob's fields are checked by 'kubectl trainjob validate -f FILE'; see "
     "docs/commands.md"},
};

}  // namespace

std::string kubectl_verb_pointer(const std::string& verb) {
  for (const VerbPointer& entry : kVerbPointers)
    if (verb == entry.verb) return entry.pointer;
  return "";
}

}  // namespace trainjob
