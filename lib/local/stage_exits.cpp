// How a container's end moves its pod on: the next init container, the main ones, the
// pod's end; and, for a legacy kind, its success rule deciding when the run ends.
#include <algorithm>
#include <sys/wait.h>

#include "local/stage_runner.h"

namespace trainjob {

void StageRunner::on_exit(const Process& process) {
  const LocalPod& pod = pods_[process.pod];
  const auto& list = process.init ? pod.init_containers : pod.containers;
  // A pod the run stopped did not fail: the summary says it was stopped, and by what.
  if (!failure_.empty() || process.stopped) return;
  if (!WIFEXITED(process.status) || WEXITSTATUS(process.status) != 0) {
    std::string what = "pod " + pod.name + " (" + pod.label + "), " +
                       (process.init ? "init container " : "container ") +
                       list[process.container].name + ", failed with " +
                       describe_status(process.status);
    if (rule_ == nullptr) {
      failure_ = what;
      return;
    }
    pod_ended(process.pod, PodOutcome::kFailed, what);
    return;
  }
  if (!process.init && rule_ != nullptr &&
      ++succeeded_containers_[process.pod] == pod.containers.size()) {
    pod_ended(process.pod, PodOutcome::kSucceeded, "");
    return;
  }
  if (process.init) {
    if (process.container + 1 < pod.init_containers.size()) {
      start(process.pod, true, process.container + 1);
    } else {
      start_main_containers(process.pod);
    }
  }
}

/// A legacy kind's pod ended: its rule, not the first failure, decides when the run ends.
void StageRunner::pod_ended(size_t pod, PodOutcome outcome, const std::string& failure) {
  if (results_[pod].outcome != PodOutcome::kRunning) return;
  results_[pod].outcome = outcome;
  if (rule_met_) {
    // The operator's job is final once Succeeded: a pod failing later does not change it.
    if (outcome == PodOutcome::kFailed)
      note(failure + "; the " + rule_->kind + " had already succeeded, which this does not change");
    return;
  }
  bool target = is_rule_target(*rule_, results_[pod]);
  if (outcome == PodOutcome::kFailed) {
    if (target && first_failure_.empty()) first_failure_ = failure;
    note(failure + (target ? ""
                           : "; the " + rule_->kind + "'s rule looks at " + rule_->describe() +
                                 ", the other pods go on"));
  }
  switch (judge(*rule_, results_)) {
    case RuleVerdict::kMet:
      rule_met_ = true;
      announce_rule_met();
      break;
    case RuleVerdict::kFailed:
      failure_ = (first_failure_.empty() ? failure : first_failure_) + ": the " + rule_->kind +
                 "'s success rule (" + rule_->describe() + ") cannot be met";
      break;
    case RuleVerdict::kUndecided:
      break;
  }
}

/// Says the rule decided, and what becomes of the pods still running.
void StageRunner::announce_rule_met() {
  bool running = std::any_of(results_.begin(), results_.end(), [](const PodResult& result) {
    return result.outcome == PodOutcome::kRunning;
  });
  std::string what = rule_->kind + " succeeded by its rule (" + rule_->describe() + ")";
  if (running) {
    what += std::string("; cleanPodPolicy ") + clean_pod_policy_name(rule_->clean_pod_policy) +
            (policy_stops() ? ": the pods still running are stopped"
                            : ": the pods still running run to their end");
  }
  note(what);
}

bool StageRunner::policy_stops() const {
  return rule_ != nullptr && rule_->clean_pod_policy != CleanPodPolicy::kNone;
}

}  // namespace trainjob
