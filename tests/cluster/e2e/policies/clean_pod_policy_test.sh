#!/bin/bash
# A legacy kind's runPolicy.cleanPodPolicy, applied by submit --wait on the real control
# plane once the Master succeeded: Running stops the Workers still running (their Jobs
# suspended, so the Job controller deletes their pods), All deletes the Master's pod too;
# status and list still show every node, the stopped ones Stopped and never Failed.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane

pytorchjob() {  # pytorchjob NAME POLICY: a Master that ends after 1 s, two hour-long Workers
  cat <<YAML
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: $1
spec:
  runPolicy:
    cleanPodPolicy: $2
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        spec:
          containers: [{name: pytorch, image: pytorch-demo}]
    Worker:
      replicas: 2
      restartPolicy: OnFailure
      template:
        metadata:
          annotations: {test.kubectl-trainjob/duration: 1h}
        spec:
          containers: [{name: pytorch, image: pytorch-demo}]
YAML
}

# --- cleanPodPolicy Running ----------------------------------------------------------------
pytorchjob run Running > "$work/running.yaml"
"$bin" submit -f "$work/running.yaml" --wait --timeout 60s > "$work/running.out" 2> "$work/running.err"
check "cleanPodPolicy Running: exit 0, the running Workers stopped and said so" bash -c "
  [ $? -eq 0 ] && grep -qx 'job.batch/run-worker-0 stopped (cleanPodPolicy Running)' '$work/running.out' &&
  grep -qx 'job.batch/run-worker-1 stopped (cleanPodPolicy Running)' '$work/running.out' &&
  ! grep -q 'run-master-0 stopped' '$work/running.out'"
check "... their Jobs suspended, and the Job controller deletes their pods" bash -c "
  [ \"\$(kubectl get job run-worker-0 run-worker-1 -o jsonpath='{.items[*].spec.suspend}')\" = 'true true' ]" &&
  eventually bash -c "[ -z \"\$(kubectl get pods -l job-name=run-worker-0 -o name)\$(kubectl get pods -l job-name=run-worker-1 -o name)\" ]"
"$bin" status run > "$work/out"
check "status: Complete, the Workers Stopped by the policy, nothing Failed" bash -c "
  grep -qx 'PyTorchJob run: Complete' '$work/out' &&
  grep -q '^worker   worker-0   <none> .* Stopped .*stopped by cleanPodPolicy Running$' '$work/out' &&
  grep -q '^worker   worker-1   <none> .* Stopped ' '$work/out' && ! grep -q Failed '$work/out'"
"$bin" list > "$work/list"
check "list: still three nodes, Complete" grep -qE '^run +PyTorchJob +Complete +2 +3 ' "$work/list"
"$bin" submit -f "$work/running.yaml" > "$work/again.out" 2>&1
check "submit again: the stopped Workers stay suspended (a finished job is left as it is)" bash -c "
  grep -q 'its Jobs have finished and are left as they are' '$work/again.out' &&
  [ \"\$(kubectl get job run-worker-0 -o jsonpath='{.spec.suspend}')\" = true ] &&
  [ -z \"\$(kubectl get pods -l job-name=run-worker-0 -o name)\" ]"

# --- cleanPodPolicy All ----------------------------------------------------------------------
pytorchjob all All > "$work/all.yaml"
"$bin" submit -f "$work/all.yaml" --wait --timeout 60s > "$work/all.out" 2> "$work/all.err"
check "cleanPodPolicy All: the finished Master's pod deleted too" bash -c "
  [ $? -eq 0 ] && grep -qx 'job.batch/all-master-0 pods deleted (cleanPodPolicy All)' '$work/all.out' &&
  grep -qx 'job.batch/all-worker-0 stopped (cleanPodPolicy All)' '$work/all.out'"
check "... no pod of it left" eventually bash -c "[ -z \"\$(kubectl get pods -o name | grep '^pod/all-')\" ]"
"$bin" status all > "$work/out"
check "status: the Master Succeeded with its pod deleted by the policy" \
  grep -q '^master   master-0   <none> .* Succeeded .*pod deleted by cleanPodPolicy All$' "$work/out"
check "... the Workers Stopped" bash -c "
  grep -qx 'PyTorchJob all: Complete' '$work/out' && [ \$(grep -c '^worker   worker-[01]   <none> .* Stopped .*stopped by cleanPodPolicy All$' '$work/out') -eq 2 ]"
finish
