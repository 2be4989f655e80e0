#!/bin/bash
# The rest of a TrainJob's lifecycle on the real control plane: Secrets created only if
# absent (as upstream creates the MPI SSH Secret once), suspended TrainJobs, resume/suspend
# with the real Job controller deleting and recreating the pods, Kueue's Jobs left alone, and
# the TrainJob's activeDeadlineSeconds across stages, enforced by the Job controller.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# trainjob FILE NAME EXTRA-SPEC-LINES [LABELS]: FILE gets the TrainJob NAME (one node) on
# three_step_runtime, whose arguments are taken from $dataset, $model and $node.
trainjob() {
  three_step_runtime "${dataset:-}" "${model:-}" "${node:-}" >"$1"
  cat >>"$1" <<YAML
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: $2
  labels: {${4:-}}
spec:
$3
  runtimeRef:
    kind: ClusterTrainingRuntime
    name: three-step
  trainer:
    numNodes: 1
YAML
}
secret() {
  cat >"$work/secret.yaml" <<YAML
apiVersion: v1
kind: Secret
metadata:
  name: keys
  annotations:
    kubectl-trainjob/create-only-if-absent: "true"
type: Opaque
data:
  key: $1
YAML
}
# pods_are TRAINJOB PHASES: its pods (not being deleted) are in these phases, e.g. "Running Running".
pods_are() {
  [ "$(kubectl get pods -l "trainer.kubeflow.org/trainjob-name=$1" \
    -o go-template='{{range .items}}{{if not .metadata.deletionTimestamp}}{{.status.phase}} {{end}}{{end}}')" = "${2:+$2 }" ]
}
# jobs_suspended TRAINJOB: the Job controller has marked each of its three Jobs Suspended.
jobs_suspended() {
  [ "$(kubectl get jobs -l "trainer.kubeflow.org/trainjob-name=$1" \
    -o jsonpath='{.items[*].status.conditions[?(@.type=="Suspended")].status}')" = "True True True" ]
}
suspended_without_pods() { jobs_suspended "$1" && pods_are "$1" ""; }

# --- Secrets created only if absent -----------------------------------------------------
trainjob "$work/s.yaml" s "  suspend: true"
secret "Zmlyc3Q="
"$bin" submit -f "$work/s.yaml" -f "$work/secret.yaml" >"$work/s1.out" 2>/dev/null
check "an absent create-only-if-absent Secret is created" grep -qx "secret/keys created" "$work/s1.out"
kubectl get secret keys -o json >"$work/before.json"
secret "c2Vjb25k"
audit_mark
"$bin" submit -f "$work/s.yaml" -f "$work/secret.yaml" >"$work/s2.out" 2>/dev/null
check "submitted again with another key: the existing Secret is kept, and said so" \
  grep -qx "secret/keys exists, kept (created only if absent)" "$work/s2.out"
kubectl get secret keys -o json >"$work/after.json"
check "... byte for byte (data and resourceVersion unchanged)" cmp -s "$work/before.json" "$work/after.json"
check "... only read, never patched, not even as a dry run" \
  bash -c "[ -n \"\$1\" ] && [ -z \"\$(grep -v '^get ' <<<\"\$1\")\" ]" _ "$(audit_requests | grep ' secrets keys')"
"$bin" submit -f "$work/s.yaml" -f "$work/secret.yaml" --dry-run=server >"$work/s3.out" 2>/dev/null
check "--dry-run=server says it would be kept" grep -qx "secret/keys exists, kept (server dry run)" "$work/s3.out"
"$bin" delete s >"$work/s.del"
check "delete removes it like every submitted object" \
  bash -c "grep -qx 'secret \"keys\" deleted' '$work/s.del' && ! kubectl get secret keys >/dev/null 2>&1"

# --- suspend, resume, Kueue -------------------------------------------------------------
dataset='{test.kubectl-trainjob/duration: 1h}' model=$dataset node=$dataset
trainjob "$work/p.yaml" p "  suspend: true"
"$bin" submit -f "$work/p.yaml" --wait >"$work/p.out" 2>/dev/null
check "submit --wait of a suspended TrainJob returns at once (exit 0)" [ $? -eq 0 ]
check "... saying how to start it" grep -qx 'TrainJob p: suspended; `kubectl trainjob resume p` starts it' "$work/p.out"
check "... and that it does not wait" grep -q "^not waiting: " "$work/p.out"
check "... having applied every Job, so that resume starts all of them" grep -qx "job.batch/p-node-0 created" "$work/p.out"
check "the Job controller holds the three Jobs suspended" eventually jobs_suspended p
check "... and makes no pod" pods_are p ""
"$bin" status p >"$work/p.status"
check "status: Suspended, with the same reason" \
  bash -c "grep -qx 'TrainJob p: Suspended' '$work/p.status' && grep -qx 'suspended; \`kubectl trainjob resume p\` starts it' '$work/p.status'"
audit_mark
"$bin" resume p >"$work/p.resume"
check "resume exits 0" [ $? -eq 0 ]
check "... reporting each Job" bash -c "grep -qx 'job.batch/p-node-0 resumed' '$work/p.resume' && grep -qx 'job.batch/p-dataset-initializer-0 resumed' '$work/p.resume'"
check "... one patch per Job" diff - <(audit_requests | grep '^patch' | sort) <<'OUT'
patch jobs p-dataset-initializer-0
patch jobs p-model-initializer-0
patch jobs p-node-0
OUT
check "... and the Job controller starts their pods" eventually pods_are p "Running Running Running"
"$bin" resume p >"$work/p.again"
check "resume again changes nothing" grep -qx "job.batch/p-node-0 unchanged (already resumed)" "$work/p.again"
"$bin" suspend p >"$work/p.suspend"
check "suspend reports each Job" grep -qx "job.batch/p-node-0 suspended" "$work/p.suspend"
check "... and the Job controller deletes their pods" \
  eventually suspended_without_pods p
"$bin" status p >"$work/p.status2"
check "status: Suspended again" grep -qx 'TrainJob p: Suspended' "$work/p.status2"
"$bin" resume nothing-here >/dev/null 2>"$work/none.err"
check "resume of an unknown TrainJob: exit 1" [ $? -eq 1 ]
check "... saying so" grep -q 'trainjob "nothing-here" not found' "$work/none.err"
"$bin" delete p --wait >/dev/null

# Kueue: no Kueue runs here, so the Jobs stay suspended; the plugin must not resume them.
trainjob "$work/q.yaml" q "  suspend: true" "kueue.x-k8s.io/queue-name: team-a"
"$bin" submit -f "$work/q.yaml" >"$work/q.out" 2>/dev/null
check "submit in a Kueue queue: waiting for admission" grep -qx "TrainJob q: suspended, waiting for Kueue admission in queue team-a" "$work/q.out"
check "the Job controller holds the Jobs suspended" eventually jobs_suspended q
"$bin" status q >"$work/q.status"
check "status: Suspended, waiting for Kueue" \
  bash -c "grep -qx 'TrainJob q: Suspended' '$work/q.status' && grep -qx 'waiting for Kueue admission in queue team-a' '$work/q.status'"
audit_mark
"$bin" resume q >"$work/q.resume" 2>"$work/q.err"
check "resume refuses Jobs Kueue manages: exit 1" [ $? -eq 1 ]
check "... saying why" grep -q "error: the Jobs of TrainJob q are managed by Kueue (job.batch/q-.* is in queue team-a)" "$work/q.err"
"$bin" suspend q >/dev/null 2>"$work/q.err2"
check "suspend refuses them too: exit 1" [ $? -eq 1 ]
check "... changing nothing: no patch was sent, no pod runs" \
  bash -c "! grep -q '^patch' <<<\"\$1\" && [ \"\$(kubectl get jobs -o jsonpath='{.items[*].spec.suspend}')\" = 'true true true' ]" _ "$(audit_requests)"
check "... no pod runs" pods_are q ""
"$bin" delete q --wait >/dev/null

# --- activeDeadlineSeconds: the whole TrainJob's ------------------------------------------
# Initializers take about 2 s of a 5 s deadline (their pods a second, the Job controller
# about another to mark them Complete): the trainer's Job gets what is left, and the Job
# controller fails it when that has passed.
dataset= model= node='{test.kubectl-trainjob/duration: 1h}'
trainjob "$work/d.yaml" d "  activeDeadlineSeconds: 5"
"$bin" submit -f "$work/d.yaml" --wait --timeout 60s >"$work/d.out" 2>"$work/d.err"
check "the trainer running past the TrainJob's deadline fails it: exit 1" [ $? -eq 1 ]
check "... with the Job controller's DeadlineExceeded as the reason" \
  grep -q "error: TrainJob d failed: Job d-node-0 failed: DeadlineExceeded: " "$work/d.err"
check "the later Job got the time left, not the whole deadline" \
  bash -c "kubectl get job d-node-0 -o json | python3 -c 'import json,sys; d = json.load(sys.stdin)[\"spec\"][\"activeDeadlineSeconds\"]; assert 1 <= d <= 4, d'"
"$bin" status d -o json >"$work/d.json"
check "status shows DeadlineExceeded as the reason" \
  python3 -c "import json; s = json.load(open('$work/d.json'))['status']; assert s['phase'] == 'Failed' and s['reason'] == 'DeadlineExceeded', s"
"$bin" delete d --wait >/dev/null

# Initializers that leave less than a second of the deadline (the trainer's Job is never
# created) stay on the test API server (tests/e2e/cluster/cluster_lifecycle_test.sh): here that is a
# race of a second with the Job controller's own deadline for the initializers.
finish
