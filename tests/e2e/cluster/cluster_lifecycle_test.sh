#!/bin/bash
# The TrainJob's activeDeadlineSeconds spent by its initializers, against the test API server:
# the rest of the lifecycle runs on the real control plane
# (tests/cluster/e2e/submit/lifecycle_test.sh), but there this case is a race of a second
# between submit's clock and the Job controller's deadline for the initializers themselves;
# the stand-in's Job controller finishes them when told.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
runtime=$work/runtime.yaml
sed -n '/^---/q;p' "$src/tests/apiserver/fixtures/three-step.yaml" > "$runtime"
cat > "$work/e.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: e
spec:
  activeDeadlineSeconds: 4
  runtimeRef:
    kind: ClusterTrainingRuntime
    name: three-step
  trainer:
    numNodes: 1
YAML

# Initializers finish with less than a second of a 4 s deadline left (about 0.75 s, which is
# also the margin before their own deadline fails them): the trainer's Job is never created.
ctl autopilot '{"rules": [{"job": "initializer", "after": 3.2}]}' > /dev/null
"$bin" submit -f "$runtime" -f "$work/e.yaml" --wait --timeout 60s > "$work/e.out" 2> "$work/e.err"
check "no time left for the next stage: exit 1" [ $? -eq 1 ]
check "... DeadlineExceeded, naming the Job that could not start" \
  grep -q "error: TrainJob e failed: DeadlineExceeded: activeDeadlineSeconds (4 s) passed before Job e-node-0 could start" "$work/e.err"
check "... which was never created" bash -c "! kubectl get job e-node-0 >/dev/null 2>&1"
finish
