#!/bin/bash
# The legacy kinds on a cluster: a PyTorchJob submitted as its compiled Jobs and Services,
# complete when its Master succeeds (the Workers still running are left, cleanPodPolicy None),
# failed when a Job fails; status and list naming the kind, logs per replica, delete removing it all.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
cat > "$work/pt.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: pt
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
              command: ["python3", "demo.py"]
    Worker:
      replicas: 2
      restartPolicy: OnFailure
      template:
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
              command: ["python3", "demo.py"]
YAML

"$bin" submit -f "$work/pt.yaml" > "$work/submit.out" 2> "$work/submit.err"
check "submit of a PyTorchJob: exit 0" [ $? -eq 0 ]
check "... applying a Service and a Job per pod" bash -c "
  for n in pt-master-0 pt-worker-0 pt-worker-1; do
    grep -qx \"service/\$n created\" '$work/submit.out' && grep -qx \"job.batch/\$n created\" '$work/submit.out' || exit 1
  done"
check "kubectl sees the three headless Services" \
  bash -c "[ \$(kubectl get services -o name | grep -c '^service/pt-') -eq 3 ]"
for job in pt-master-0 pt-worker-0 pt-worker-1; do
  ctl run "{\"job\": \"$job\"}" > /dev/null
done
ctl log '{"job": "pt-master-0", "lines": ["rank 0 world_size 3"]}' > /dev/null
ctl log '{"job": "pt-worker-1", "lines": ["rank 2 world_size 3"]}' > /dev/null

"$bin" status pt > "$work/out" 2> "$work/err"
check "status names the kind" grep -qx "PyTorchJob pt: Running" "$work/out"
check "... with steps master (the rule's target) and worker" \
  bash -c "grep -qx '  step master: Running' '$work/out' && grep -qx '  step worker: Running (not a success-policy target)' '$work/out'"
check "... and nodes master-0, worker-0, worker-1" \
  bash -c "grep -q '^master   master-0   pt-master-0-' '$work/out' && grep -q '^worker   worker-0   pt-worker-0-' '$work/out' && grep -q '^worker   worker-1   pt-worker-1-' '$work/out'"
"$bin" status pt -o json > "$work/out"
check "status -o json: kind PyTorchJob, its apiVersion, the nodes by replica" \
  /usr/bin/python3 -c "
import json
s = json.load(open('$work/out'))
assert s['kind'] == 'PyTorchJob' and s['apiVersion'] == 'kubeflow.org/v1', s
assert [n['node'] for n in s['status']['nodes']] == ['master-0', 'worker-0', 'worker-1'], s
assert [n['index'] for n in s['status']['nodes']] == [0, 0, 1], s
assert [st['name'] for st in s['status']['steps']] == ['master', 'worker'], s
"
"$bin" submit -f "$src/templates/image.yaml" > /dev/null
"$bin" list > "$work/list"
check "list: a KIND column, the PyTorchJob's nodes counted" \
  bash -c "head -1 '$work/list' | grep -qE '^NAME +KIND +PHASE +STEPS +NODES +AGE$' && grep -qE '^pt +PyTorchJob +Running +2 +3 +[0-9]+s$' '$work/list' && grep -qE '^trainjob-demo-with-image +TrainJob +Pending +1 +2 ' '$work/list'"
"$bin" list -o name > "$work/names"
check "list -o name: kind/name" diff <(printf 'pytorchjob/pt\ntrainjob/trainjob-demo-with-image\n') "$work/names"
"$bin" delete trainjob-demo-with-image --wait > /dev/null

"$bin" logs pt > "$work/out" 2> "$work/err"
check "logs: lines prefixed by replica" diff - "$work/out" <<'OUT'
[master-0] rank 0 world_size 3
[worker-1] rank 2 world_size 3
OUT
"$bin" logs pt --step master > "$work/out" 2> "$work/err"
check "logs --step master: the Master alone, no prefix" diff <(printf 'rank 0 world_size 3\n') "$work/out"
"$bin" logs pt --step worker --node 1 --prefix > "$work/out" 2> "$work/err"
check "logs --step worker --node 1: the replica index" diff <(printf '[worker-1] rank 2 world_size 3\n') "$work/out"

"$bin" delete pt --wait > "$work/delete" 2> "$work/delete.err"
check "delete --wait: exit 0" [ $? -eq 0 ]
check "delete removes the Jobs, then the Services" diff - "$work/delete" <<'OUT'
job.batch "pt-master-0" deleted
job.batch "pt-worker-0" deleted
job.batch "pt-worker-1" deleted
service "pt-master-0" deleted
service "pt-worker-0" deleted
service "pt-worker-1" deleted
OUT
check "kubectl finds no Job, pod or Service of it" \
  bash -c "! kubectl get jobs,pods,services -o name | grep -q 'pt-'"

# submit --wait: complete when the Master succeeds; the Workers still running are left to
# run, as the operator's default cleanPodPolicy None does (cluster_stuck_test: Running, All).
ctl autopilot '{"rules": [{"job": "pt-master", "lines": 1, "after": 0.5}, {"job": "pt-worker", "after": 60}]}' > /dev/null
"$bin" submit -f "$work/pt.yaml" --wait --timeout 60s > "$work/ok.out" 2> "$work/ok.err"
check "submit --wait: exit 0 once the Master succeeded" [ $? -eq 0 ]
check "... saying so in the kind's name" grep -qx "PyTorchJob pt: Complete" "$work/ok.out"
check "... and leaving the Workers running (cleanPodPolicy None)" bash -c "
  grep -qx 'job.batch/pt-worker-0 left running (cleanPodPolicy None)' '$work/ok.out' &&
  grep -qx 'job.batch/pt-worker-1 left running (cleanPodPolicy None)' '$work/ok.out'"
"$bin" status pt > "$work/out"
check "status afterwards: Complete, the Workers still Running, none Failed" bash -c "
  grep -qx 'PyTorchJob pt: Complete' '$work/out' && grep -q '^worker   worker-1 .* Running ' '$work/out' &&
  ! grep -q Failed '$work/out'"
"$bin" delete pt --wait > /dev/null

# A failed Worker fails the PyTorchJob; under cleanPodPolicy None the Master is left as it is.
ctl autopilot '{"rules": [{"job": "pt-worker-1", "after": 0.3, "result": "Failed", "exit_code": 3}, {"job": "pt-(master|worker-0)", "after": 60}]}' > /dev/null
"$bin" submit -f "$work/pt.yaml" --wait --timeout 60s > "$work/fail.out" 2> "$work/fail.err"
check "a failed Job fails it: exit 1" [ $? -eq 1 ]
check "... naming the Job and the exit code" \
  grep -q "error: PyTorchJob pt failed: Job pt-worker-1 failed: BackoffLimitExceeded: .*worker-1: Error (exit code 3)" "$work/fail.err"
check "... and leaving the Master running" grep -qx "job.batch/pt-master-0 left running (cleanPodPolicy None)" "$work/fail.out"
"$bin" delete pt --wait > /dev/null
finish
