#!/bin/bash
# What submit does for the rest of a TrainJob's lifecycle on plain Jobs: Secrets marked
# create-only-if-absent (as upstream creates the MPI SSH Secret only once), the TrainJob's
# activeDeadlineSeconds across stages, suspended TrainJobs, resume/suspend and Kueue.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
runtime=$work/runtime.yaml
sed -n '/^---/q;p' "$src/tests/apiserver/fixtures/three-step.yaml" > "$runtime"
# trainjob FILE NAME EXTRA-SPEC-LINES: a TrainJob on the three-step runtime (two
# initializers, then the trainer's node Job)
trainjob() {
  cat > "$1" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: $2
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
  cat > "$work/secret.yaml" <<YAML
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

# --- Secrets created only if absent -----------------------------------------------------
trainjob "$work/s.yaml" s "  suspend: true"
secret "Zmlyc3Q="
"$bin" submit -f "$runtime" -f "$work/s.yaml" -f "$work/secret.yaml" > "$work/s1.out" 2>/dev/null
check "an absent create-only-if-absent Secret is created" grep -qx "secret/keys created" "$work/s1.out"
kubectl get secret keys -o json > "$work/before.json"
secret "c2Vjb25k"
ctl requests/reset > /dev/null
"$bin" submit -f "$runtime" -f "$work/s.yaml" -f "$work/secret.yaml" > "$work/s2.out" 2>/dev/null
check "submitted again with another key: the existing Secret is kept, and said so" \
  grep -qx "secret/keys exists, kept (created only if absent)" "$work/s2.out"
kubectl get secret keys -o json > "$work/after.json"
check "... byte for byte (data and resourceVersion unchanged)" cmp -s "$work/before.json" "$work/after.json"
check "... never patched, not even as a dry run" \
  bash -c "! ctl get requests | grep -q '\"method\": \"PATCH\", \"path\": \"/api/v1/namespaces/default/secrets/keys\"'"
"$bin" submit -f "$runtime" -f "$work/s.yaml" -f "$work/secret.yaml" --dry-run=server > "$work/s3.out" 2>/dev/null
check "--dry-run=server says it would be kept" grep -qx "secret/keys exists, kept (server dry run)" "$work/s3.out"
"$bin" delete s > "$work/s.del"
check "delete removes it like every submitted object" grep -qx 'secret "keys" deleted' "$work/s.del"

# --- suspend, resume, Kueue -------------------------------------------------------------
trainjob "$work/p.yaml" p "  suspend: true"
"$bin" submit -f "$runtime" -f "$work/p.yaml" --wait > "$work/p.out" 2>/dev/null
check "submit --wait of a suspended TrainJob returns at once (exit 0)" [ $? -eq 0 ]
check "... saying how to start it" grep -qx 'TrainJob p: suspended; `kubectl trainjob resume p` starts it' "$work/p.out"
check "... and that it does not wait" grep -q "^not waiting: " "$work/p.out"
check "... having applied every Job, so that resume starts all of them" grep -qx "job.batch/p-node-0 created" "$work/p.out"
check "no pod runs" bash -c "[ \$(kubectl get pods --no-headers 2>/dev/null | grep -c '^p-') -eq 0 ]"
"$bin" status p > "$work/p.status"
check "status: Suspended, with the same reason" \
  bash -c "grep -qx 'TrainJob p: Suspended' '$work/p.status' && grep -qx 'suspended; \`kubectl trainjob resume p\` starts it' '$work/p.status'"
"$bin" resume p > "$work/p.resume"
check "resume exits 0" [ $? -eq 0 ]
check "... reporting each Job" bash -c "grep -qx 'job.batch/p-node-0 resumed' '$work/p.resume' && grep -qx 'job.batch/p-dataset-initializer-0 resumed' '$work/p.resume'"
check "... and their pods start" eventually bash -c "[ \$(kubectl get pods --no-headers 2>/dev/null | grep -c '^p-') -eq 3 ]"
check "... through a merge patch of spec.suspend" \
  bash -c "ctl get requests | grep -q '\"method\": \"PATCH\", \"path\": \"/apis/batch/v1/namespaces/default/jobs/p-node-0\"'"
"$bin" resume p > "$work/p.again"
check "resume again changes nothing" grep -qx "job.batch/p-node-0 unchanged (already resumed)" "$work/p.again"
"$bin" suspend p > "$work/p.suspend"
check "suspend reports each Job" grep -qx "job.batch/p-node-0 suspended" "$work/p.suspend"
check "... and the pods go" eventually bash -c "[ \$(kubectl get pods --no-headers 2>/dev/null | grep -c '^p-') -eq 0 ]"
"$bin" resume nothing-here > /dev/null 2> "$work/none.err"
check "resume of an unknown TrainJob: exit 1" [ $? -eq 1 ]
check "... saying so" grep -q 'trainjob "nothing-here" not found' "$work/none.err"
"$bin" delete p --wait > /dev/null

# Kueue: the runtime puts the queue label on the Jobs (as render will for TrainJobs in a queue).
sed 's/trainer.kubeflow.org\/trainjob-ancestor-step: \(.*\)/trainer.kubeflow.org\/trainjob-ancestor-step: \1\n                kueue.x-k8s.io\/queue-name: team-a/' "$runtime" > "$work/queued-runtime.yaml"
trainjob "$work/q.yaml" q "  suspend: true"
"$bin" submit -f "$work/queued-runtime.yaml" -f "$work/q.yaml" > "$work/q.out" 2>/dev/null
check "submit in a Kueue queue: waiting for admission" grep -qx "TrainJob q: suspended, waiting for Kueue admission in queue team-a" "$work/q.out"
"$bin" status q > "$work/q.status"
check "status: Suspended, waiting for Kueue" \
  bash -c "grep -qx 'TrainJob q: Suspended' '$work/q.status' && grep -qx 'waiting for Kueue admission in queue team-a' '$work/q.status'"
"$bin" resume q > "$work/q.resume" 2> "$work/q.err"
check "resume refuses Jobs Kueue manages: exit 1" [ $? -eq 1 ]
check "... saying why" grep -q "error: the Jobs of TrainJob q are managed by Kueue (job.batch/q-.* is in queue team-a)" "$work/q.err"
check "... changing nothing" bash -c "kubectl get job q-node-0 -o json | grep -q '\"suspend\": true'"
"$bin" delete q --wait > /dev/null

# --- activeDeadlineSeconds: the whole TrainJob's ------------------------------------------
# Initializers take about 1.5 s of a 4 s deadline: the trainer's Job gets what is left.
trainjob "$work/d.yaml" d "  activeDeadlineSeconds: 4"
ctl autopilot '{"rules": [{"job": "initializer", "after": 1.5}, {"job": "node", "after": 600}]}' > /dev/null
"$bin" submit -f "$runtime" -f "$work/d.yaml" --wait --timeout 60s > "$work/d.out" 2> "$work/d.err"
check "the trainer running past the TrainJob's deadline fails it: exit 1" [ $? -eq 1 ]
check "... with DeadlineExceeded as the reason" \
  grep -q "error: TrainJob d failed: Job d-node-0 failed: DeadlineExceeded: " "$work/d.err"
check "the later Job got the time left, not the whole deadline" \
  bash -c "kubectl get job d-node-0 -o json | /usr/bin/python3 -c 'import json,sys; d = json.load(sys.stdin)[\"spec\"][\"activeDeadlineSeconds\"]; assert 1 <= d <= 3, d'"
"$bin" status d -o json > "$work/d.json"
check "status shows DeadlineExceeded as the reason" \
  /usr/bin/python3 -c "import json; s = json.load(open('$work/d.json'))['status']; assert s['phase'] == 'Failed' and s['reason'] == 'DeadlineExceeded', s"
"$bin" delete d --wait > /dev/null

# Initializers finish with less than a second of a 4 s deadline left (about 0.75 s, which is
# also the margin before their own deadline fails them): the trainer's Job is never created.
trainjob "$work/e.yaml" e "  activeDeadlineSeconds: 4"
ctl autopilot '{"rules": [{"job": "initializer", "after": 3.2}]}' > /dev/null
"$bin" submit -f "$runtime" -f "$work/e.yaml" --wait --timeout 60s > "$work/e.out" 2> "$work/e.err"
check "no time left for the next stage: exit 1" [ $? -eq 1 ]
check "... DeadlineExceeded, naming the Job that could not start" \
  grep -q "error: TrainJob e failed: DeadlineExceeded: activeDeadlineSeconds (4 s) passed before Job e-node-0 could start" "$work/e.err"
check "... which was never created" bash -c "! kubectl get job e-node-0 >/dev/null 2>&1"
"$bin" delete e --wait > /dev/null
finish
