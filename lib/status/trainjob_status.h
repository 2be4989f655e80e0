// A TrainJob-like status computed from its Jobs and pods: the phase, and per step and node
// what the pod is doing and, when stuck or failed, why.
#ifndef TRAINJOB_STATUS_TRAINJOB_STATUS_H_
#define TRAINJOB_STATUS_TRAINJOB_STATUS_H_

#include <optional>
#include <string>
#include <vector>

#include "load/json.h"
#include "model/trainer_progress.h"
#include "model/vocabulary.h"
#include "status/job_phase.h"
#include "status/kueue_status.h"

namespace trainjob {

struct NodeStatus {
  std::string step;   ///< replicated job: node, dataset-initializer, ...; legacy: master, worker
  std::string label;  ///< node-0, node-1-2 (job index 1, pod 2); legacy: master-0, worker-1
  int job_index = 0;
  int index = 0;  ///< completion index; legacy: replica index
  std::string pod;
  std::string node_name;
  JobPhase phase = JobPhase::kPending;  ///< the pod's status.phase
  int restarts = 0;
  bool ready = false;
  std::string reason;            ///< why it is stuck or failed; empty when all is well
  std::optional<int> exit_code;  ///< its container's last exit code, once one ended
};

/// One entry of status.conditions, shaped as a TrainJob's (metav1.Condition).
struct StatusCondition {
  std::string type;  ///< Suspended, Complete, Failed (upstream TrainJob sets no others)
  std::string status = "True";
  std::string reason;
  std::string message;
  std::string last_transition_time;  ///< RFC 3339; empty when no object says when
};

struct StepStatus {
  std::string name;
  /// Pending, Running, Suspended, Complete, Failed; NotCreated
  JobPhase state = JobPhase::kPending;
  std::vector<std::string> jobs;
  /// False for a step the success policy does not look at: its state does not make the phase.
  bool success_policy_target = true;
};

struct TrainJobStatus {
  std::string kind = "TrainJob";  ///< or the legacy kind its Jobs came from (PyTorchJob)
  std::string api_version = kTrainerApiVersion;  ///< of `kind`
  std::string name;
  /// Pending, Running, Suspended, Complete, Failed
  JobPhase phase = JobPhase::kPending;
  std::string message;  ///< why it failed or waits
  std::string reason;   ///< the failed Job's reason (DeadlineExceeded, BackoffLimitExceeded)
  std::vector<StepStatus> steps;
  std::vector<NodeStatus> nodes;
  std::optional<TrainerProgress> progress;  ///< rank 0's last progress line while running
  BadProgressLines bad_progress;            ///< ... and those lines of it that were not JSON
  /// While Running: "pod X: reason" of a node being retried (its pod restarts, or failed and
  /// its Job made a new one); empty otherwise.
  std::string restarting;
  std::string start_time;       ///< the first Job's status.startTime; empty before it started
  std::string completion_time;  ///< when it completed or failed; empty before
  std::vector<StatusCondition> conditions;
  int restart_attempt = 0;  ///< JobSet's restart attempt of the Jobs (status.restarts)
  int max_restarts = 0;     ///< the runtime's failurePolicy.maxRestarts, from the Jobs
  /// Kueue's Workloads of the Jobs in a queue (status_from fills it in; compute_status not).
  std::vector<KueueWorkloadStatus> kueue;
  bool finished() const { return job_phase_finished(phase); }
};

/// The kind the Jobs were compiled from: their kubectl-trainjob/source-kind annotation
/// (PyTorchJob, TFJob, ...), else TrainJob.
std::string source_kind_of(const std::vector<Json>& jobs);
/// The apiVersion of that kind (kubeflow.org/v1; v2beta1 for mpi-operator's MPIJob).
std::string source_api_version_of(const std::vector<Json>& jobs);

/// Job states by their conditions' status (a condition whose status is not True does not count):
/// Failed, Complete, Suspended, Running (active and ready pods) or Pending.
JobPhase job_state(const Json& job);

/// Only the newest pod of each step and index counts (a retried pod replaces the old one).
/// With a success policy (the Jobs' kubectl-trainjob/success-policy annotation) the TrainJob
/// is Complete once its targets are, whatever the other steps do.
TrainJobStatus compute_status(const std::string& name, const std::vector<Json>& jobs,
                              const std::vector<Json>& pods, const std::vector<Json>& events);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_TRAINJOB_STATUS_H_
