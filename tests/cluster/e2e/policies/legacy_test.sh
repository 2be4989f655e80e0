#!/bin/bash
# The legacy kinds on the real control plane: a PyTorchJob submitted as its compiled Jobs and
# Services, complete when its Master succeeds (the Workers still running are left,
# cleanPodPolicy None), failed when a Job fails; status and list naming the kind, logs per
# replica, delete removing it all; then every other kind run to completion by the Job
# controller under submit --wait.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# pytorchjob MASTER WORKER [RUN_POLICY]: $work/pt.yaml, the PyTorchJob pt of a Master and two
# Workers whose pods are annotated MASTER and WORKER (flow maps of kwok's
# test.kubectl-trainjob/duration, exit-code).
pytorchjob() {
  local policy=${3:-'{}'}
  cat >"$work/pt.yaml" <<YAML
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: pt
spec:
  runPolicy: $policy
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        metadata:
          annotations: $1
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
              command: ["python3", "demo.py"]
    Worker:
      replicas: 2
      restartPolicy: OnFailure
      template:
        metadata:
          annotations: $2
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
              command: ["python3", "demo.py"]
YAML
}
# running JOB: the Job controller counts JOB's pod ready (a moment after the pod is: status
# reads a step's state from its Jobs)
running() { [ "$(kubectl get job "$1" -o jsonpath='{.status.ready}' 2>/dev/null)" = 1 ]; }
pt_running() { running pt-master-0 && running pt-worker-0 && running pt-worker-1; }

pytorchjob '{test.kubectl-trainjob/duration: 1h}' '{test.kubectl-trainjob/duration: 1h}'
"$bin" submit -f "$work/pt.yaml" >"$work/submit.out" 2>"$work/submit.err"
check "submit of a PyTorchJob: exit 0" [ $? -eq 0 ]
check "... applying a Service and a Job per pod" bash -c "
  for n in pt-master-0 pt-worker-0 pt-worker-1; do
    grep -qx \"service/\$n created\" '$work/submit.out' && grep -qx \"job.batch/\$n created\" '$work/submit.out' || exit 1
  done"
check "kubectl sees the three headless Services" \
  bash -c "[ \"\$(kubectl get services -o jsonpath='{range .items[*]}{.metadata.name} {.spec.clusterIP}{\"\n\"}{end}')\" = \"\$(printf 'pt-master-0 None\npt-worker-0 None\npt-worker-1 None')\" ]"
check "the Job controller runs a pod per Job" eventually pt_running
check "... each selected by its Service, by the operator's labels" bash -c "
  for n in pt-master-0 pt-worker-0 pt-worker-1; do
    selector=\$(kubectl get service \$n -o go-template='{{range \$k, \$v := .spec.selector}}{{\$k}}={{\$v}},{{end}}')
    [ \"\$(kubectl get pods -l \"\${selector%,}\" -o jsonpath='{.items[*].metadata.labels.job-name}')\" = \$n ] || exit 1
  done"
pod_logs "$(job_pod pt-master-0)" 'rank 0 world_size 3'
pod_logs "$(job_pod pt-worker-1)" 'rank 2 world_size 3'

"$bin" status pt >"$work/out" 2>"$work/err"
check "status names the kind" grep -qx "PyTorchJob pt: Running" "$work/out"
check "... with steps master (the rule's target) and worker" \
  bash -c "grep -qx '  step master: Running' '$work/out' && grep -qx '  step worker: Running (not a success-policy target)' '$work/out'"
check "... and nodes master-0, worker-0, worker-1, each on a kwok node" bash -c "
  grep -qE '^master +master-0 +pt-master-0-[a-z0-9]+ +kwok-node-[0-9]+ +Running ' '$work/out' &&
  grep -qE '^worker +worker-0 +pt-worker-0-[a-z0-9]+ +kwok-node-[0-9]+ +Running ' '$work/out' &&
  grep -qE '^worker +worker-1 +pt-worker-1-[a-z0-9]+ +kwok-node-[0-9]+ +Running ' '$work/out'"
"$bin" status pt -o json >"$work/out"
check "status -o json: kind PyTorchJob, its apiVersion, the nodes by replica" \
  /usr/bin/python3 -c "
import json
s = json.load(open('$work/out'))
assert s['kind'] == 'PyTorchJob' and s['apiVersion'] == 'kubeflow.org/v1', s
assert [n['node'] for n in s['status']['nodes']] == ['master-0', 'worker-0', 'worker-1'], s
assert [n['index'] for n in s['status']['nodes']] == [0, 0, 1], s
assert [st['name'] for st in s['status']['steps']] == ['master', 'worker'], s
"
# A TrainJob whose pods no node can take stays Pending beside it.
one_step_trainjob waiting 2 '{}' '{type: none}' >"$work/waiting.yaml"
"$bin" submit -f "$work/waiting.yaml" >/dev/null
"$bin" list >"$work/list"
check "list: a KIND column, the PyTorchJob's nodes counted" bash -c "
  head -1 '$work/list' | grep -qE '^NAME +KIND +PHASE +STEPS +NODES +AGE$' &&
  grep -qE '^pt +PyTorchJob +Running +2 +3 +[0-9]+s$' '$work/list' &&
  grep -qE '^waiting +TrainJob +Pending +1 +2 ' '$work/list'"
"$bin" list -o name >"$work/names"
check "list -o name: kind/name" diff <(printf 'pytorchjob/pt\ntrainjob/waiting\n') "$work/names"
"$bin" delete waiting --wait >/dev/null

"$bin" logs pt >"$work/out" 2>"$work/err"
check "logs: lines prefixed by replica, from the API server" diff - "$work/out" <<'OUT'
[master-0] rank 0 world_size 3
[worker-1] rank 2 world_size 3
OUT
"$bin" logs pt --step master >"$work/out" 2>"$work/err"
check "logs --step master: the Master alone, no prefix" diff <(printf 'rank 0 world_size 3\n') "$work/out"
"$bin" logs pt --step worker --node 1 --prefix >"$work/out" 2>"$work/err"
check "logs --step worker --node 1: the replica index" diff <(printf '[worker-1] rank 2 world_size 3\n') "$work/out"

"$bin" delete pt --wait >"$work/delete" 2>"$work/delete.err"
check "delete --wait: exit 0" [ $? -eq 0 ]
check "delete removes the Jobs, then the Services" diff - "$work/delete" <<'OUT'
job.batch "pt-master-0" deleted
job.batch "pt-worker-0" deleted
job.batch "pt-worker-1" deleted
service "pt-master-0" deleted
service "pt-worker-0" deleted
service "pt-worker-1" deleted
OUT
check "kubectl finds no Job, pod or Service of it" bash -c "[ -z \"\$(kubectl get jobs,pods,services -o name)\" ]"

# submit --wait: complete when the Master succeeds; the Workers still running are left to
# run, as the operator's default cleanPodPolicy None does (stuck_test: Running, All).
pytorchjob '{test.kubectl-trainjob/duration: 1s}' '{test.kubectl-trainjob/duration: 1h}'
"$bin" submit -f "$work/pt.yaml" --wait --timeout 60s >"$work/ok.out" 2>"$work/ok.err"
check "submit --wait: exit 0 once the Master succeeded" [ $? -eq 0 ]
check "... saying so in the kind's name" grep -qx "PyTorchJob pt: Complete" "$work/ok.out"
check "... and leaving the Workers running (cleanPodPolicy None)" bash -c "
  grep -qx 'job.batch/pt-worker-0 left running (cleanPodPolicy None)' '$work/ok.out' &&
  grep -qx 'job.batch/pt-worker-1 left running (cleanPodPolicy None)' '$work/ok.out'"
"$bin" status pt >"$work/out"
check "status afterwards: Complete, the Workers still Running, none Failed" bash -c "
  grep -qx 'PyTorchJob pt: Complete' '$work/out' && grep -qE '^worker +worker-1 .* Running ' '$work/out' &&
  ! grep -q Failed '$work/out'"
check "... as the Job controller has it" bash -c "
  [ \"\$(kubectl get jobs -o jsonpath='{range .items[*]}{.metadata.name} {.status.succeeded} {.status.active}{\"\n\"}{end}')\" = \
    \"\$(printf 'pt-master-0 1 \npt-worker-0  1\npt-worker-1  1')\" ]"
"$bin" delete pt --wait >/dev/null

# A failed Worker fails the PyTorchJob; under cleanPodPolicy None the Master is left as it is.
# Worker 1's pod fails with exit code 3, once both Workers run; no retry (backoffLimit 0).
pytorchjob '{test.kubectl-trainjob/duration: 1h}' '{test.kubectl-trainjob/duration: 1h}' '{backoffLimit: 0}'
"$bin" submit -f "$work/pt.yaml" --wait --timeout 60s >"$work/fail.out" 2>"$work/fail.err" &
plugin=$!
eventually pt_running
end_pod "$(job_pod pt-worker-1)" 3
wait $plugin
check "a failed Job fails it: exit 1" [ $? -eq 1 ]
check "... naming the Job, the Job controller's reason and the exit code" \
  grep -q "error: PyTorchJob pt failed: Job pt-worker-1 failed: BackoffLimitExceeded: .*worker-1: Error (exit code 3)" "$work/fail.err"
check "... and leaving the Master running" grep -qx "job.batch/pt-master-0 left running (cleanPodPolicy None)" "$work/fail.out"
"$bin" delete pt --wait >/dev/null

# Every other kind, run to completion side by side: each completes when its success rule's
# Jobs have succeeded (pods of a second; Workers and parameter servers left running as
# cleanPodPolicy None has it; the MPIJob's workers stopped, as its cleanPodPolicy Running
# asks; the v1 MPIJob's too, its launcher after its kubectl-delivery init container).
short='{test.kubectl-trainjob/duration: 1s}'
long='{test.kubectl-trainjob/duration: 1h}'
cat >"$work/kinds.yaml" <<YAML
apiVersion: kubeflow.org/v1
kind: TFJob
metadata:
  name: tf
spec:
  tfReplicaSpecs:
    Chief:
      template:
        metadata: {annotations: $short}
        spec: {containers: [{name: tensorflow, image: tensorflow/tensorflow:2.12.0}]}
    PS:
      template:
        metadata: {annotations: $long}
        spec: {containers: [{name: tensorflow, image: tensorflow/tensorflow:2.12.0}]}
    Worker:
      replicas: 2
      template:
        metadata: {annotations: $long}
        spec: {containers: [{name: tensorflow, image: tensorflow/tensorflow:2.12.0}]}
---
apiVersion: kubeflow.org/v1
kind: XGBoostJob
metadata:
  name: xgb
spec:
  xgbReplicaSpecs:
    Master:
      replicas: 1
      template:
        metadata: {annotations: $short}
        spec: {containers: [{name: xgboost, image: docker.io/kubeflow/xgboost-dist-iris:latest}]}
    Worker:
      replicas: 2
      template:
        metadata: {annotations: $short}
        spec: {containers: [{name: xgboost, image: docker.io/kubeflow/xgboost-dist-iris:latest}]}
---
apiVersion: kubeflow.org/v1
kind: PaddleJob
metadata:
  name: paddle
spec:
  paddleReplicaSpecs:
    Master:
      template:
        metadata: {annotations: $short}
        spec: {containers: [{name: paddle, image: registry.baidubce.com/paddlepaddle/paddle:2.4.0-cpu}]}
    Worker:
      replicas: 2
      template:
        metadata: {annotations: $long}
        spec: {containers: [{name: paddle, image: registry.baidubce.com/paddlepaddle/paddle:2.4.0-cpu}]}
---
apiVersion: kubeflow.org/v1
kind: JAXJob
metadata:
  name: jax
spec:
  jaxReplicaSpecs:
    Worker:
      replicas: 3
      template:
        metadata: {annotations: $short}
        spec: {containers: [{name: jax, image: docker.io/kubeflow/jaxjob-simple:latest}]}
---
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: mpi
spec:
  launcherCreationPolicy: WaitForWorkersReady
  runPolicy: {cleanPodPolicy: Running}
  mpiReplicaSpecs:
    Launcher:
      template:
        metadata: {annotations: $short}
        spec: {containers: [{name: mpi-launcher, image: mpioperator/mpi-pi:openmpi, command: [mpirun, /home/mpiuser/pi]}]}
    Worker:
      replicas: 2
      template:
        metadata: {annotations: $long}
        spec: {containers: [{name: mpi-worker, image: mpioperator/mpi-pi:openmpi}]}
---
apiVersion: kubeflow.org/v1
kind: MPIJob
metadata:
  name: mpi1
spec:
  slotsPerWorker: 1
  runPolicy: {cleanPodPolicy: Running}
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        metadata: {annotations: $short}
        spec: {containers: [{name: mpi-launcher, image: mpioperator/mpi-pi:openmpi, command: [mpirun, /home/mpiuser/pi]}]}
    Worker:
      replicas: 2
      template:
        metadata: {annotations: $long}
        spec: {containers: [{name: mpi-worker, image: mpioperator/mpi-pi:openmpi}]}
YAML
record_changes pods
record_changes jobs
kinds="TFJob:tf XGBoostJob:xgb PaddleJob:paddle JAXJob:jax MPIJob:mpi MPIJob:mpi1"
pids=
for kind in $kinds; do
  name=${kind#*:}
  # one job per submit: split the file at its documents
  awk -v name="$name" 'BEGIN { RS = "---\n" } $0 ~ "\n  name: " name "\n" { printf "%s", $0 }' \
    "$work/kinds.yaml" >"$work/$name.yaml"
  "$bin" submit --wait --timeout 60s -f "$work/$name.yaml" >"$work/$name.out" 2>"$work/$name.err" &
  pids="$pids $!"
done
set -- $pids
for kind in $kinds; do
  wait "$1"
  check "${kind%:*} ${kind#*:}: submit --wait exits 0, Complete" \
    bash -c "[ $? -eq 0 ] && grep -qx '${kind%:*} ${kind#*:}: Complete' '$work/${kind#*:}.out'"
  shift
done
check "TFJob: the Chief's Job succeeded; the PS and Workers left running" bash -c "
  [ \"\$(kubectl get job tf-chief-0 -o jsonpath='{.status.succeeded}')\" = 1 ] &&
  grep -qx 'job.batch/tf-ps-0 left running (cleanPodPolicy None)' '$work/tf.out' &&
  grep -qx 'job.batch/tf-worker-1 left running (cleanPodPolicy None)' '$work/tf.out'"
check "JAXJob: every Worker's Job succeeded" bash -c "
  [ \"\$(kubectl get jobs -l trainer.kubeflow.org/trainjob-name=jax -o jsonpath='{.items[*].status.succeeded}')\" = '1 1 1' ]"
check "MPIJob: the launcher's Job succeeded" \
  bash -c "[ \"\$(kubectl get job mpi-launcher -o jsonpath='{.status.succeeded}')\" = 1 ]"
launcher=$(first_change "$work/jobs.changes" '^mpi-launcher$')
ready0=$(first_change "$work/pods.changes" '^mpi-worker-0-' Ready)
ready1=$(first_change "$work/pods.changes" '^mpi-worker-1-' Ready)
check "... WaitForWorkersReady: created only once both workers were Ready" \
  bash -c "[ -n '$ready0' ] && [ -n '$ready1' ] && [ '$launcher' -gt '$ready0' ] && [ '$launcher' -gt '$ready1' ]"
check "... then its workers stopped by cleanPodPolicy Running" bash -c "
  grep -qx 'job.batch/mpi-worker-0 stopped (cleanPodPolicy Running)' '$work/mpi.out' &&
  grep -qx 'job.batch/mpi-worker-1 stopped (cleanPodPolicy Running)' '$work/mpi.out'"
check "v1 MPIJob: its launcher's service account may exec into the pods, by the real RBAC" \
  bash -c "[ \"\$(kubectl auth can-i create pods --subresource=exec --as=system:serviceaccount:$ns:mpi1-launcher)\" = yes ]"
workers_gone() { [ -z "$(kubectl get pods -o name | grep '^pod/mpi-worker-')" ]; }
check "... so no worker pod is left" eventually workers_gone
finish
