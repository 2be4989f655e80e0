#!/bin/bash
# Kueue, for real: upstream's Kueue (tests/cluster/addons/kueue) on a control plane of this
# test's own (its webhooks suspend every Job in a queue). A ClusterQueue with 4 CPUs of quota:
# a TrainJob in its LocalQueue is admitted and runs; a second waits until the first finishes;
# one that asks more than the quota stays suspended, and `status` says why with Kueue's words
# and where it stands in the queue. Then the same for a legacy PyTorchJob and a sweep's trials;
# a PyTorchJob of several Jobs in a queue is refused (kueue_half_admission_test shows why).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
started=$SECONDS
use_own_control_plane
"$src/tests/cluster/addons/start-kueue.sh" "$cluster" || exit 1
echo "kueue_test: control plane and Kueue up in $((SECONDS - started)) s" >&2

kueue_queue 4

# queued_trainjob NAME NODES CPU DURATION: on stdout, TrainJob NAME in LocalQueue lq, of NODES
# pods of CPU CPUs each that run DURATION, and its runtime.
queued_trainjob() {
  one_step_runtime "$1" "{test.kubectl-trainjob/duration: $4}"
  cat <<YAML
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: $1
  labels: {kueue.x-k8s.io/queue-name: lq}
spec:
  runtimeRef: {name: $1}
  trainer:
    numNodes: $2
    resourcesPerNode: {requests: {cpu: "$3"}}
YAML
}
phase_of() { "$bin" status "$1" -o json | python3 -c 'import json, sys; print(json.load(sys.stdin)["status"]["phase"])'; }
is_phase() { [ "$(phase_of "$1")" = "$2" ]; }
# ends_in NAME PHASE: true once NAME's phase is PHASE, polling for up to 60 s (a job that waits
# its turn behind another takes longer than `eventually` waits).
ends_in() { for _ in $(seq 200); do is_phase "$1" "$2" && return 0; sleep 0.3; done; return 1; }

# --- admitted, runs; a second waits; one beyond the quota stays suspended --------------------
queued_trainjob first 2 2 8s >"$work/first.yaml"
queued_trainjob second 2 2 2s >"$work/second.yaml"
queued_trainjob big 3 2 2s >"$work/big.yaml"
"$bin" submit -f "$work/first.yaml" >"$work/first.out"
check "kueue: submit into a queue says the TrainJob waits for Kueue" \
  grep -qx "TrainJob first: suspended, waiting for Kueue admission in queue lq" "$work/first.out"
check "kueue: Kueue admits the first (4 CPUs of 4): its pods run" eventually is_phase first Running
"$bin" submit -f "$work/second.yaml" >/dev/null
sleep 1.1  # Kueue orders a queue by creation time, which the API server keeps to the second
"$bin" submit -f "$work/big.yaml" >/dev/null
check "kueue: the second waits while the first runs" eventually is_phase second Suspended
"$bin" status second >"$work/second.status"
check "kueue: status of the waiting one: Kueue's reason and its place in the queue" \
  grep -qE "^Kueue: Workload job-second-node-0-[a-z0-9]+ of Job second-node-0: pending in LocalQueue lq \(position 1, from the queue's pending Workloads\): Pending: .*insufficient unused quota for cpu in flavor default" \
  "$work/second.status"
eventually grep -q . <("$bin" status big | grep "position 2")
"$bin" status big -o json >"$work/big.json"
check "kueue: status -o json of one beyond the quota: its position (2) and Kueue's message" \
  python3 - "$work/big.json" <<'PY'
import json, sys
kueue = json.load(open(sys.argv[1]))["status"]["kueue"]
assert len(kueue) == 1 and not kueue[0]["admitted"], kueue
assert kueue[0]["positionInLocalQueue"] == 2, kueue
assert "insufficient quota for cpu in flavor default" in kueue[0]["message"] or \
       "insufficient unused quota" in kueue[0]["message"], kueue
PY
check "kueue: the first completes" eventually is_phase first Complete
check "kueue: then the second is admitted and completes" \
  ends_in second Complete
"$bin" status big >"$work/big.status"
check "kueue: the one beyond the quota (6 CPUs of 4) stays suspended, saying why" \
  bash -c "grep -qx 'TrainJob big: Suspended' '$work/big.status' &&
    grep -qE '^Kueue: Workload .* of Job big-node-0: pending in LocalQueue lq \(position 1, .*\): Pending: .*insufficient quota for cpu in flavor default, previously considered podsets requests \(0\) \+ current podset request \(6\) > maximum capacity \(4\)' '$work/big.status'" ||
  cat "$work/big.status" >&2
"$bin" delete big >/dev/null

# --- a legacy kind: a PyTorchJob of one Master in the queue; one of several Jobs refused ------
pytorchjob() {  # pytorchjob NAME WORKERS: a PyTorchJob in lq, a Master of 4 CPUs and WORKERS Workers
  cat <<YAML
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: $1
  labels: {kueue.x-k8s.io/queue-name: lq}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: Never
      template:
        metadata: {annotations: {test.kubectl-trainjob/duration: 3s}}
        spec:
          containers: [{name: pytorch, image: trainer:1, resources: {requests: {cpu: "4"}}}]
YAML
  [ "$2" = 0 ] || cat <<YAML
    Worker:
      replicas: $2
      restartPolicy: Never
      template:
        spec:
          containers: [{name: pytorch, image: trainer:1, resources: {requests: {cpu: "1"}}}]
YAML
}
pytorchjob lone 0 >"$work/lone.yaml"
pytorchjob pair 0 >"$work/pair.yaml"
"$bin" submit -f "$work/lone.yaml" >"$work/lone.out"
"$bin" submit -f "$work/pair.yaml" >/dev/null
check "kueue: a PyTorchJob of one Master waits for Kueue too" \
  grep -qx "PyTorchJob lone: suspended, waiting for Kueue admission in queue lq" "$work/lone.out"
check "kueue: ... is admitted and completes" \
  ends_in lone Complete
check "kueue: the second PyTorchJob waited its turn, then completes too" \
  ends_in pair Complete
pytorchjob several 2 >"$work/several.yaml"
"$bin" submit -f "$work/several.yaml" >"$work/several.out" 2>"$work/several.err"
check "kueue: a PyTorchJob of a Master and 2 Workers in a queue is refused: exit 1" [ $? -eq 1 ]
check "... at its queue label, saying why and how to run it as one Workload" \
  grep -qE "several.yaml:[0-9]+:[0-9]+: error: metadata.labels\[kueue.x-k8s.io/queue-name\]: expected a job that runs as one Job in a Kueue queue, found 3 Jobs that run together \(Master x1, Worker x2\): .*half admitted.*kubectl trainjob convert.*--target jobset" \
  "$work/several.err"
check "... creating nothing" bash -c '[ -z "$(kubectl get jobs -l trainer.kubeflow.org/trainjob-name=several -o name)" ]'

# --- a sweep in the queue: two trials may run at once, the quota holds one ------------------
cat >"$work/sweep.yaml" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: OptimizationJob
metadata:
  name: sw
spec:
  objectives:
    - metric: loss
  searchAlgorithm: {grid: {}}
  numTrials: 2
  parallelTrials: 2
  parameters: [{name: lr, searchSpace: {categorical: {choices: ["0.1", "0.2"]}}}]
  trainJobTemplate:
    metadata:
      labels: {kueue.x-k8s.io/queue-name: lq}
    spec:
      runtimeRef: {name: trial-sw}
      trainer:
        numNodes: 2
        resourcesPerNode: {requests: {cpu: "2"}}
YAML
{ echo ---; one_step_runtime trial-sw "{test.kubectl-trainjob/duration: 4s}"; } >>"$work/sweep.yaml"
serve_loss() { pod_logs "$1" 'TRAINJOB_PROGRESS {"loss": 0.5}'; }
on_new_pods batch.kubernetes.io/job-completion-index=0 '' serve_loss
"$bin" submit --wait -f "$work/sweep.yaml" >"$work/sweep.out" 2>"$work/sweep.err" &
sweeper=$!
one_trial_waits() {
  "$bin" status sw-trial-1 2>/dev/null | grep -q "^Kueue: .*pending in LocalQueue lq" ||
    "$bin" status sw-trial-2 2>/dev/null | grep -q "^Kueue: .*pending in LocalQueue lq"
}
check "kueue: a sweep's trials in the queue: one waits for Kueue while the other runs" eventually one_trial_waits
wait $sweeper
check "... and the search completes: exit 0, both trials succeeded" \
  bash -c "[ $? -eq 0 ] && [ \$(grep -c '^sw-trial-[12]: Succeeded, loss ' '$work/sweep.out') -eq 2 ]" ||
  cat "$work/sweep.out" "$work/sweep.err" >&2

echo "kueue_test: $((SECONDS - started)) s in all" >&2
finish
