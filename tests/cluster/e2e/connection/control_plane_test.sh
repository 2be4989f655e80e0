#!/bin/bash
# The control plane itself, as the other tests rely on it: the real release on both sides,
# Ready nodes, and kwok's pod stages (run, succeed, fail with a chosen exit code at a chosen
# index, after a chosen duration), logs through the API server, and the garbage collector.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane

kubectl version -o json >"$work/version.json"
check "kubectl version: client and server are v1.37.2" \
  python3 -c "import json; v = json.load(open('$work/version.json')); assert v['clientVersion']['gitVersion'] == v['serverVersion']['gitVersion'] == 'v1.37.2', v"
check "every node is Ready" \
  bash -c "[ -z \"\$(kubectl get nodes -o jsonpath='{range .items[*]}{.status.conditions[?(@.type==\"Ready\")].status}{\"\\n\"}{end}' | grep -v True)\" ]"

# job NAME COMPLETIONS ANNOTATIONS: an Indexed Job whose pods carry ANNOTATIONS.
job() {
  kubectl apply -f - >/dev/null <<YAML
apiVersion: batch/v1
kind: Job
metadata: {name: $1}
spec:
  completionMode: Indexed
  completions: $2
  parallelism: $2
  backoffLimit: 0
  template:
    metadata: {annotations: {$3}}
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox}]
YAML
}
# exit_codes JOB: "index=code" per pod, sorted.
exit_codes() {
  kubectl get pods -l job-name="$1" -o jsonpath='{range .items[*]}{.metadata.annotations.batch\.kubernetes\.io/job-completion-index}={.status.containerStatuses[0].state.terminated.exitCode}{"\n"}{end}' | sort
}
job_condition() { kubectl get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}'; }
export -f exit_codes job_condition  # for the checks run by bash -c

job ok 2 ""
check "pods of a Job run, then succeed after the default second" eventually bash -c "[ \"\$(exit_codes ok)\" = \"\$(printf '0=0\n1=0')\" ]"
check "... and the Job controller completes the Job" eventually bash -c "job_condition ok | grep -qw Complete"

job fails 3 'test.kubectl-trainjob/exit-code: "7", test.kubectl-trainjob/exit-index: "1"'
check "exit-code at exit-index: that pod fails with the code, the others succeed" \
  eventually bash -c "[ \"\$(exit_codes fails)\" = \"\$(printf '0=0\n1=7\n2=0')\" ]"
check "... and backoffLimit 0 fails the Job" eventually bash -c "job_condition fails | grep -qw Failed"

job slow 1 'test.kubectl-trainjob/duration: 1h'
check "a pod with a duration of an hour runs" \
  eventually bash -c "[ \"\$(kubectl get pods -l job-name=slow -o jsonpath='{.items[0].status.phase}')\" = Running ]"
pod=$(kubectl get pods -l job-name=slow -o name | cut -d/ -f2)
pod_logs "$pod" "first line"
check "kubectl logs reads the pod's log through the API server" bash -c "[ \"\$(kubectl logs $pod)\" = 'first line' ]"
kubectl logs -f "$pod" >"$work/follow" 2>&1 &
follower=$!
sleep 1
echo "second line" | cri_lines >>"$work/logs/$pod.log"
check "... and a follower sees a line appended to the file" \
  eventually grep -qx "second line" "$work/follow"
kill $follower 2>/dev/null
kubectl delete job slow --wait=false >/dev/null
check "deleting the Job: the garbage collector removes its pod" \
  eventually bash -c "[ -z \"\$(kubectl get pods -l job-name=slow -o name)\" ]"
finish
