#!/bin/bash
# JobSet's dependsOn and successPolicy done by `submit --wait` and `status` on plain Jobs under
# the real Job controller, on an MPI TrainJob (the embedded deepspeed-distributed runtime: node
# Jobs run sshd, the launcher runs mpirun and is the success policy's only target): submit
# creates the SSH key Secret and the hostfile, the launcher starts once every node pod is
# Ready, its success completes the TrainJob and the node Jobs are deleted; its failure fails
# it; delete removes the Secret. Then volumeClaimPolicies: the claim applied before the Jobs
# that mount it, and deleted with them.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
mpi=$work/mpi.yaml
# mpi_case NODE LAUNCHER [NODE_SELECTOR]: $work/mpi.yaml, the MPI TrainJob of 3 nodes (the
# launcher is one of them) and the embedded runtime as written, but for pod annotations
# (kwok's test.kubectl-trainjob/duration, exit-code: NODE and LAUNCHER, YAML flow maps), the
# node pods' NODE_SELECTOR, and a launcher that is not retried (backoffLimit 0).
mpi_case() {
  cat >"$mpi" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: mpi
spec:
  runtimeRef:
    kind: ClusterTrainingRuntime
    name: deepspeed-distributed
  trainer:
    numNodes: 3
    command: [mpirun, hostname]
---
YAML
  /usr/bin/python3 - "$src/runtimes/deepspeed-distributed.yaml" "$@" >>"$mpi" <<'PY'
import sys, yaml
runtime = yaml.safe_load(open(sys.argv[1]))
node, launcher = yaml.safe_load(sys.argv[2]), yaml.safe_load(sys.argv[3])
for job in runtime['spec']['template']['spec']['replicatedJobs']:
    spec = job['template']['spec']
    pod = spec['template']
    pod.setdefault('metadata', {})['annotations'] = node if job['name'] == 'node' else launcher
    if job['name'] == 'node' and len(sys.argv) > 4:
        pod['spec']['nodeSelector'] = yaml.safe_load(sys.argv[4])
    if job['name'] == 'launcher':
        spec['backoffLimit'] = 0
print(yaml.safe_dump(runtime), end='')
PY
}
node_pods() { kubectl get pods -l job-name=mpi-node-0 -o name | grep -c .; }
long='{test.kubectl-trainjob/duration: 1h}'
record_changes pods
record_changes jobs

# Nodes run sshd until stopped; the launcher succeeds after a second.
mpi_case "$long" '{test.kubectl-trainjob/duration: 1s}'
audit_mark
"$bin" submit -f "$mpi" --wait --timeout 60s >"$work/ok.out" 2>"$work/ok.err"
check "--wait exits 0 once the launcher, the success policy's target, completed" [ $? -eq 0 ]
check "... and says Complete" grep -qx "TrainJob mpi: Complete" "$work/ok.out"
check "... never Complete before the launcher ran (no early Complete line)" \
  bash -c "[ \$(grep -c 'TrainJob mpi: Complete' '$work/ok.out') -eq 1 ]"
check "the node Jobs, still running sshd, are deleted and reported" \
  bash -c "grep -qx 'job.batch/mpi-node-0 deleted (the success policy is met)' '$work/ok.out'"
launcher=$(first_change "$work/jobs.changes" '^mpi-launcher-0$')
ready0=$(first_change "$work/pods.changes" '^mpi-node-0-0-' Ready)
ready1=$(first_change "$work/pods.changes" '^mpi-node-0-1-' Ready)
check "the launcher Job is created only after both node pods were Ready" \
  bash -c "[ -n '$ready0' ] && [ -n '$ready1' ] && [ '$launcher' -gt '$ready0' ] && [ '$launcher' -gt '$ready1' ]"
check "no node pod is left" eventually bash -c "[ -z \"\$(kubectl get pods -o name | grep '^pod/mpi-node-')\" ]"
check "submit created the SSH key Secret" \
  bash -c "kubectl get secret mpi-mpi-ssh-auth -o jsonpath='{.type} {.immutable}' | grep -qx 'kubernetes.io/ssh-auth true'"
check "... holding an ECDSA P-521 public key" \
  bash -c "kubectl get secret mpi-mpi-ssh-auth -o jsonpath='{.data.ssh-publickey}' | base64 -d | grep -q '^ecdsa-sha2-nistp521 '"
kubectl get configmap mpi-mpi-hostfile -o jsonpath='{.data.hostfile}' >"$work/hostfile"
printf 'mpi-node-0-0.mpi slots=1\nmpi-node-0-1.mpi slots=1\nmpi-launcher-0-0.mpi slots=1\n' >"$work/hostfile.expected"
check "... and the hostfile: both node pods, then the launcher" cmp "$work/hostfile" "$work/hostfile.expected"
kubectl get secret mpi-mpi-ssh-auth -o jsonpath='{.data.ssh-privatekey}' >"$work/key1"
check "the launcher Job is kept, Complete by the Job controller" \
  bash -c "kubectl get jobs --no-headers | grep -q '^mpi-launcher-0 *Complete '"
"$bin" status mpi >"$work/status.out"
check "status: Complete, judged by the launcher" grep -qx "TrainJob mpi: Complete" "$work/status.out"
check "... showing the launcher step's state" grep -qx "  step launcher: Complete" "$work/status.out"
audit_mark
"$bin" submit -f "$mpi" --wait --timeout 60s >"$work/again.out" 2>/dev/null
check "submitted again once complete: exit 0 at once" [ $? -eq 0 ]
check "... not creating the deleted node Job again" \
  bash -c "grep -qx 'job.batch/mpi-node-0 not created again (the TrainJob.s success policy is met)' '$work/again.out' && grep -qx 'TrainJob mpi: Complete' '$work/again.out'"
audit_requests >"$work/again.requests"
check "... (no write to it reached the API server)" bash -c "
  ! grep -qE '^(create|patch|update) jobs mpi-node-0$' '$work/again.requests' && ! kubectl get job mpi-node-0 >/dev/null 2>&1"
check "... keeping the SSH key the pods have" \
  bash -c "kubectl get secret mpi-mpi-ssh-auth -o jsonpath='{.data.ssh-privatekey}' | cmp -s - '$work/key1'"
"$bin" delete mpi --wait >/dev/null
check "delete removes the SSH key Secret and the hostfile" \
  bash -c "! kubectl get secret mpi-mpi-ssh-auth >/dev/null 2>&1 && ! kubectl get configmap mpi-mpi-hostfile >/dev/null 2>&1"

# Without --wait everything is applied at once; status judges by the target all the same.
mpi_case "$long" "$long"
"$bin" submit -f "$mpi" >/dev/null 2>&1
# (a step's state is its Job's: the Job controller counts the ready pods a moment later)
ready_pods() { [ "$(kubectl get job "$1" -o jsonpath='{.status.ready}' 2>/dev/null)" = "$2" ]; }
both_run() { ready_pods mpi-node-0 2 && ready_pods mpi-launcher-0 1; }
check "without --wait: node and launcher pods run together" eventually both_run
"$bin" status mpi >"$work/running.out"
check "status while the launcher runs: Running, the node step marked as no target" \
  bash -c "grep -qx 'TrainJob mpi: Running' '$work/running.out' && grep -qx '  step node: Running (not a success-policy target)' '$work/running.out' && grep -qx '  step launcher: Running' '$work/running.out'"
end_pod "$(job_pod mpi-launcher-0)"
launcher_done() { "$bin" status mpi -o json >"$work/done.json" && grep -q '"phase": *"Complete"' "$work/done.json"; }
check "once the launcher's Job completes, status says Complete" eventually launcher_done
check "... while the nodes still run, as status -o json shows" \
  /usr/bin/python3 -c "
import json
s = json.load(open('$work/done.json'))['status']
assert s['phase'] == 'Complete', s
steps = {x['name']: x for x in s['steps']}
assert steps['node']['state'] == 'Running' and steps['node']['successPolicyTarget'] is False, steps
assert steps['launcher']['state'] == 'Complete' and 'successPolicyTarget' not in steps['launcher'], steps"
"$bin" delete mpi --wait >/dev/null

# Node pods no node can take never get Ready: the launcher waits, status shows it not created.
mpi_case "$long" "$long" '{type: none}'
"$bin" submit -f "$mpi" --wait --timeout 60s >/dev/null 2>&1 &
submit_pid=$!
pending() { [ "$(kubectl get pods -l job-name=mpi-node-0 -o jsonpath='{.items[*].status.conditions[0].reason}')" = 'Unschedulable Unschedulable' ]; }
check "node pods no node can take: the scheduler says Unschedulable" eventually pending
"$bin" status mpi >"$work/waiting.out"
check "status before the nodes are Ready: Pending, launcher not created yet" \
  bash -c "grep -qx 'TrainJob mpi: Pending' '$work/waiting.out' && grep -qx '  step launcher: NotCreated' '$work/waiting.out'"
check "... and submit has not created the launcher" bash -c "! kubectl get job mpi-launcher-0 >/dev/null 2>&1"
kill "$submit_pid"
wait "$submit_pid" 2>/dev/null
"$bin" delete mpi --wait >/dev/null

# The launcher fails: the TrainJob fails and the node Jobs are stopped.
mpi_case "$long" '{test.kubectl-trainjob/duration: 1s, test.kubectl-trainjob/exit-code: "2"}'
"$bin" submit -f "$mpi" --wait --timeout 60s >"$work/fail.out" 2>"$work/fail.err"
check "a launcher failure fails the TrainJob: exit 1" [ $? -eq 1 ]
check "... saying which Job failed and why" \
  grep -q "error: TrainJob mpi failed: Job mpi-launcher-0 failed: BackoffLimitExceeded: .*launcher-0: Error (exit code 2)" "$work/fail.err"
check "... deleting the node Job" grep -qx "deleted job.batch/mpi-node-0 (a sibling Job failed)" "$work/fail.err"
check "... so no node pod is left" eventually bash -c "[ -z \"\$(kubectl get pods -o name | grep '^pod/mpi-node-')\" ]"
"$bin" status mpi >"$work/failed.out"
check "status: Failed" grep -qx "TrainJob mpi: Failed" "$work/failed.out"
"$bin" delete mpi --wait >/dev/null

# volumeClaimPolicies: the claim is applied before every Job that mounts it (no provisioner
# binds it here: its pods stay Pending, which delete does not mind).
case_dir=$src/testdata/render/torchtune-llama3.2-3b
audit_mark
"$bin" submit --trainer-version 2.3 -f "$case_dir/trainjob.yaml" -f "$case_dir/runtime.yaml" \
  >"$work/submit" 2>"$work/submit.err"
check "volumeClaimPolicies: submit exits 0" [ $? -eq 0 ]
check "the claim is applied first, before every Job that mounts it" diff - "$work/submit" <<'OUT'
persistentvolumeclaim/initializer-tune-3b created
service/tune-3b created
job.batch/tune-3b-dataset-initializer-0 created
job.batch/tune-3b-model-initializer-0 created
job.batch/tune-3b-node-0 created
OUT
check "... in that order on the server" diff <(printf 'persistentvolumeclaims\nservices\njobs\njobs\njobs\n') \
  <(audit_requests | awk '$1 == "patch" && !/dryRun$/ { print $2 }')
check "kubectl finds the claim with its size" \
  bash -c "kubectl get persistentvolumeclaims initializer-tune-3b -o jsonpath='{.spec.resources.requests.storage}' | grep -qx 20Gi"
check "the trainer's pods mount it" \
  bash -c "kubectl get job tune-3b-node-0 -o jsonpath='{.spec.template.spec.volumes[0].persistentVolumeClaim.claimName}' | grep -qx initializer-tune-3b"
"$bin" delete tune-3b --wait >"$work/delete" 2>"$work/delete.err"
check "delete --wait exits 0" [ $? -eq 0 ]
check "delete removes the claim too" grep -qx 'persistentvolumeclaim "initializer-tune-3b" deleted' "$work/delete"
check "... and kubectl no longer finds it" bash -c "[ -z \"\$(kubectl get persistentvolumeclaims -o name)\" ]"
finish
