#!/bin/bash
# Stuck → why: submit --wait prints each pod's first reason and fails after the progress
# deadline instead of hanging; the phase never goes back while a pod is retried; a legacy
# kind's cleanPodPolicy is applied and its stopped pods are not shown as failed; logs of a
# pod that has not started say why; status -o json carries conditions and times, and
# -o jsonpath queries them.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
T=trainjob-demo-with-image
J=$T-node-0
pods_exist() { [ "$(kubectl get pods -o name 2> /dev/null | grep -c "$J")" -ge "$1" ]; }

# --- a pod that cannot be scheduled, another whose image cannot be pulled -------------
"$bin" submit -f "$src/templates/image.yaml" --wait --progress-deadline 3s \
  > "$work/stuck.out" 2> "$work/stuck.err" &
submit_pid=$!
eventually pods_exist 2
ctl unschedulable "{\"job\": \"$J\", \"index\": 0, \"message\": \"0/3 nodes are available: 3 Insufficient cpu.\"}" > /dev/null
ctl wait "{\"job\": \"$J\", \"index\": 1, \"reason\": \"ImagePullBackOff\", \"message\": \"Back-off pulling image \\\"pytorch-demo:latest\\\"\"}" > /dev/null
wait $submit_pid
check "--wait gives up after the progress deadline: exit 1" [ $? -eq 1 ]
check "... having printed each pod's reason as it appeared" bash -c "
  grep -q '^  node-0 (pod $J-0-[a-z0-9]*): Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.$' '$work/stuck.out' &&
  grep -q '^  node-1 (pod $J-1-[a-z0-9]*): ImagePullBackOff: Back-off pulling image \"pytorch-demo:latest\"$' '$work/stuck.out'"
check "... and saying which pods made no progress, and why" \
  grep -q "^error: TrainJob $T made no progress for 3 s: pod $J-0-[a-z0-9]* (node-0) Pending: Unschedulable: 0/3 nodes" "$work/stuck.err"

# --- logs of pods that have not started ------------------------------------------------
"$bin" logs $T > "$work/logs.out" 2> "$work/logs.err"
check "logs of pods waiting to start: exit 1, nothing on stdout" \
  bash -c "[ $? -eq 1 ] && [ ! -s '$work/logs.out' ]"
check "... saying on stderr what each waits for" bash -c "
  grep -q '^error: node-0 (pod $J-0-[a-z0-9]*, container node) is waiting to start: Pending: Unschedulable: 0/3 nodes' '$work/logs.err' &&
  grep -q '^error: node-1 (pod .*) is waiting to start: Pending: ImagePullBackOff: Back-off pulling image' '$work/logs.err'"
"$bin" delete $T --wait > /dev/null

# --- a retried pod: Running (restarting ...), never back to Pending ------------------------
"$bin" submit -f "$src/templates/image.yaml" --wait --timeout 30s > "$work/retry.out" 2>&1 &
submit_pid=$!
eventually pods_exist 2
"$bin" status $T --watch > "$work/watch.out" 2>&1 &
watch_pid=$!
ctl run "{\"job\": \"$J\"}" > /dev/null
eventually grep -q "^TrainJob $T: Running$" "$work/retry.out"
ctl fail "{\"job\": \"$J\", \"index\": 0, \"retry\": true, \"exit_code\": 7}" > /dev/null
pending_pod() {
  kubectl get pods -o json | /usr/bin/python3 -c '
import json, sys
print(" ".join(p["metadata"]["name"] for p in json.load(sys.stdin)["items"] if p["status"]["phase"] == "Pending"))'
}
eventually grep -q "restarting" "$work/retry.out"
retry=$(pending_pod)
ctl run "{\"pod\": \"$retry\"}" > /dev/null
ctl succeed "{\"pod\": \"$retry\"}" > /dev/null
ctl succeed "{\"job\": \"$J\", \"index\": 1}" > /dev/null
wait $submit_pid
check "the retried TrainJob completes: exit 0" [ $? -eq 0 ]
wait $watch_pid
phases() {  # the phases a file shows, in order, each once
  grep "^TrainJob $T: " "$1" | sed "s/^TrainJob $T: //; s/ (.*//" | uniq
}
waited=$(phases "$work/retry.out" | tr '\n' ' ')
check "submit --wait: Pending, Running, Complete; never back to Pending ($waited)" \
  grep -qxE '(Pending )?Running Complete ' <<< "$waited"
check "... the retry shown as restarting, with the pod and its exit" \
  grep -q "^TrainJob $T: Running (restarting pod $J-0-[a-z0-9]*: Error (exit code 7))$" "$work/retry.out"
watched=$(phases "$work/watch.out" | tr '\n' ' ')
check "status --watch: never back to Pending either ($watched)" \
  grep -qxE '(Pending )?Running Complete ' <<< "$watched"

# --- conditions, times and -o jsonpath ------------------------------------------------------
"$bin" status $T -o json > "$work/status.json"
check "status -o json: a Complete condition, startTime, completionTime, per-pod exit codes" \
  /usr/bin/python3 -c "
import json
s = json.load(open('$work/status.json'))['status']
c = s['conditions']
assert [x['type'] for x in c] == ['Complete'] and c[0]['status'] == 'True', c
assert c[0]['reason'] == 'AllJobsCompleted' and c[0]['lastTransitionTime'], c
assert s['startTime'] and s['completionTime'] >= s['startTime'], s
assert [n['exitCode'] for n in s['nodes']] == [0, 0], s['nodes']
"
"$bin" status $T -o 'jsonpath={.status.conditions[?(@.type=="Complete")].status}' > "$work/jp"
check "-o jsonpath: the user guide's query of a condition" diff <(printf 'True') "$work/jp"
"$bin" status $T -o 'jsonpath={range .status.nodes[*]}{.node}={.phase}{"\n"}{end}' > "$work/jp"
check "-o jsonpath: range ... end" diff <(printf 'node-0=Succeeded\nnode-1=Succeeded\n') "$work/jp"
"$bin" list -o 'jsonpath={.items[*].metadata.name}' > "$work/jp"
check "list -o jsonpath" diff <(printf '%s' $T) "$work/jp"
"$bin" status $T -o 'jsonpath={.status.phase' > /dev/null 2> "$work/jp.err"
check "a template that cannot be read is a usage error (exit 2), before any request" \
  bash -c "[ $? -eq 2 ] && grep -q \"unclosed '{'\" '$work/jp.err'"
"$bin" delete $T --wait > /dev/null

# --- cleanPodPolicy Running and All -----------------------------------------------------
pytorchjob() {
  cat <<YAML
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: pt
spec:
  runPolicy:
    cleanPodPolicy: $1
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
        spec:
          containers: [{name: pytorch, image: pytorch-demo}]
YAML
}
ctl autopilot '{"rules": [{"job": "pt-master", "after": 0.5}, {"job": "pt-worker", "after": 60}]}' > /dev/null
pytorchjob Running > "$work/running.yaml"
"$bin" submit -f "$work/running.yaml" --wait --timeout 60s > "$work/running.out" 2> "$work/running.err"
check "cleanPodPolicy Running: exit 0, the running Workers stopped and said so" bash -c "
  [ $? -eq 0 ] && grep -qx 'job.batch/pt-worker-0 stopped (cleanPodPolicy Running)' '$work/running.out' &&
  grep -qx 'job.batch/pt-worker-1 stopped (cleanPodPolicy Running)' '$work/running.out' &&
  ! grep -q 'pt-master-0 stopped' '$work/running.out'"
eventually bash -c "! kubectl get pods -o name | grep -q pt-worker"
"$bin" status pt > "$work/out"
check "status: Complete, the Workers Stopped by the policy, nothing Failed" bash -c "
  grep -qx 'PyTorchJob pt: Complete' '$work/out' &&
  grep -q '^worker   worker-0   <none> .* Stopped .*stopped by cleanPodPolicy Running$' '$work/out' &&
  grep -q '^worker   worker-1   <none> .* Stopped ' '$work/out' && ! grep -q Failed '$work/out'"
"$bin" list > "$work/list"
check "list: still three nodes, Complete" grep -qE '^pt +PyTorchJob +Complete +2 +3 ' "$work/list"
"$bin" delete pt --wait > /dev/null

pytorchjob All > "$work/all.yaml"
"$bin" submit -f "$work/all.yaml" --wait --timeout 60s > "$work/all.out" 2> "$work/all.err"
check "cleanPodPolicy All: the finished Master's pod deleted too" bash -c "
  [ $? -eq 0 ] && grep -qx 'job.batch/pt-master-0 pods deleted (cleanPodPolicy All)' '$work/all.out' &&
  grep -qx 'job.batch/pt-worker-0 stopped (cleanPodPolicy All)' '$work/all.out'"
eventually bash -c "! kubectl get pods -o name | grep -q pt-"
"$bin" status pt > "$work/out"
check "status: the Master Succeeded with its pod deleted by the policy" \
  grep -q '^master   master-0   <none> .* Succeeded .*pod deleted by cleanPodPolicy All$' "$work/out"
"$bin" delete pt --wait > /dev/null
finish
