#!/bin/bash
# JobSet's dependsOn and successPolicy done by `submit --wait` and `status` on plain Jobs, on
# an MPI TrainJob (embedded deepspeed-distributed: node Jobs run sshd, the launcher runs
# mpirun and is the success policy's only target): submit creates the SSH key Secret and the
# hostfile, the launcher starts once every node is Ready, its success completes the TrainJob
# and the node Jobs are deleted; its failure fails it; delete removes the Secret.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
mpi=$src/tests/apiserver/fixtures/mpi-deepspeed.yaml
# py CODE: runs CODE with `h`, the server's history of changes
py_history() { ctl get history | /usr/bin/python3 -c "import json, sys; h = json.load(sys.stdin)['history']
$1"; }
pods_of() { kubectl get pods --no-headers -l "batch.kubernetes.io/job-name=$1" 2>/dev/null | grep -c .; }
export -f pods_of

# Nodes take a second to become Ready and then run sshd until stopped; the launcher succeeds.
ctl autopilot '{"rules": [{"job": "mpi-node", "start_after": 1.0, "after": 600}, {"job": "mpi-launcher", "after": 0.5}]}' > /dev/null
"$bin" submit -f "$mpi" --wait --timeout 60s > "$work/ok.out" 2> "$work/ok.err"
check "--wait exits 0 once the launcher, the success policy's target, completed" [ $? -eq 0 ]
check "... and says Complete" grep -qx "TrainJob mpi: Complete" "$work/ok.out"
check "... never Complete before the launcher ran (no early Complete line)" \
  bash -c "[ \$(grep -c 'TrainJob mpi: Complete' '$work/ok.out') -eq 1 ]"
check "the node Jobs, still running sshd, are deleted and reported" \
  bash -c "grep -qx 'job.batch/mpi-node-0 deleted (the success policy is met)' '$work/ok.out'"
check "the launcher Job is created only after both node pods were Ready" py_history "
launcher = min(e['rv'] for e in h if e['name'] == 'mpi-launcher-0' and e['type'] == 'ADDED')
ready = {}
for e in h:
    if e['resource'] == 'v1/pods' and e['name'].startswith('mpi-node-0-') and 'Ready' in e['conditions']:
        ready.setdefault(e['name'], e['rv'])
assert len(ready) == 2 and max(ready.values()) < launcher, (ready, launcher)"
check "no node pod is left" eventually bash -c "[ \$(kubectl get pods --no-headers 2>/dev/null | grep -c mpi-node) -eq 0 ]"
check "submit created the SSH key Secret" \
  bash -c "kubectl get secret mpi-mpi-ssh-auth -o jsonpath='{.type} {.immutable}' | grep -qx 'kubernetes.io/ssh-auth true'"
check "... holding an ECDSA P-521 public key" \
  bash -c "kubectl get secret mpi-mpi-ssh-auth -o jsonpath='{.data.ssh-publickey}' | base64 -d | grep -q '^ecdsa-sha2-nistp521 '"
kubectl get configmap mpi-mpi-hostfile -o jsonpath='{.data.hostfile}' > "$work/hostfile"
printf 'mpi-node-0-0.mpi slots=1\nmpi-node-0-1.mpi slots=1\nmpi-launcher-0-0.mpi slots=1\n' > "$work/hostfile.expected"
check "... and the hostfile: both node pods, then the launcher" cmp "$work/hostfile" "$work/hostfile.expected"
kubectl get secret mpi-mpi-ssh-auth -o jsonpath='{.data.ssh-privatekey}' > "$work/key1"
check "the launcher Job is kept, complete" bash -c "kubectl get jobs --no-headers | grep -q '^mpi-launcher-0 *Complete'"
"$bin" status mpi > "$work/status.out"
check "status: Complete, judged by the launcher" grep -qx "TrainJob mpi: Complete" "$work/status.out"
check "... showing the launcher step's state" grep -qx "  step launcher: Complete" "$work/status.out"
"$bin" submit -f "$mpi" --wait --timeout 60s > "$work/again.out" 2>/dev/null
check "submitted again once complete: exit 0 at once" [ $? -eq 0 ]
check "... not creating the deleted node Job again" \
  bash -c "grep -qx 'job.batch/mpi-node-0 not created again (the TrainJob.s success policy is met)' '$work/again.out' && grep -qx 'TrainJob mpi: Complete' '$work/again.out'"
check "... (the node Job was added once only)" py_history "
assert sum(1 for e in h if e['name'] == 'mpi-node-0' and e['type'] == 'ADDED') == 1"
check "... keeping the SSH key the pods have" \
  bash -c "kubectl get secret mpi-mpi-ssh-auth -o jsonpath='{.data.ssh-privatekey}' | cmp -s - '$work/key1'"
"$bin" delete mpi --wait > /dev/null
check "delete removes the SSH key Secret and the hostfile" \
  bash -c "! kubectl get secret mpi-mpi-ssh-auth >/dev/null 2>&1 && ! kubectl get configmap mpi-mpi-hostfile >/dev/null 2>&1"

# Without --wait everything is applied at once; status judges by the target all the same.
ctl autopilot '{"rules": []}' > /dev/null
"$bin" submit -f "$mpi" > /dev/null 2>&1
ctl run '{"job": "mpi-node-0"}' > /dev/null
ctl run '{"job": "mpi-launcher-0"}' > /dev/null
"$bin" status mpi > "$work/running.out"
check "status while the launcher runs: Running, the node step marked as no target" \
  bash -c "grep -qx 'TrainJob mpi: Running' '$work/running.out' && grep -qx '  step node: Running (not a success-policy target)' '$work/running.out' && grep -qx '  step launcher: Running' '$work/running.out'"
ctl succeed '{"job": "mpi-launcher-0"}' > /dev/null
"$bin" status mpi -o json > "$work/done.json"
check "status -o json once the launcher succeeded: Complete while the nodes still run" \
  /usr/bin/python3 -c "
import json
s = json.load(open('$work/done.json'))['status']
assert s['phase'] == 'Complete', s
steps = {x['name']: x for x in s['steps']}
assert steps['node']['state'] == 'Running' and steps['node']['successPolicyTarget'] is False, steps
assert steps['launcher']['state'] == 'Complete' and 'successPolicyTarget' not in steps['launcher'], steps"
"$bin" delete mpi --wait > /dev/null

# Nodes never get Ready: status shows the launcher step waiting to be created.
"$bin" submit -f "$mpi" --wait --timeout 60s > /dev/null 2>&1 &
submit_pid=$!
eventually bash -c "kubectl get job mpi-node-0 --no-headers >/dev/null 2>&1"
"$bin" status mpi > "$work/waiting.out"
check "status before the nodes are Ready: Pending, launcher not created yet" \
  bash -c "grep -qx 'TrainJob mpi: Pending' '$work/waiting.out' && grep -qx '  step launcher: NotCreated' '$work/waiting.out'"
check "... and submit has not created the launcher" bash -c "! kubectl get job mpi-launcher-0 >/dev/null 2>&1"
kill "$submit_pid"
wait "$submit_pid" 2>/dev/null
"$bin" delete mpi --wait > /dev/null

# The launcher fails: the TrainJob fails and the node Jobs are stopped.
ctl autopilot '{"rules": [{"job": "mpi-node", "after": 600}, {"job": "mpi-launcher", "after": 0.3, "result": "Failed", "exit_code": 2}]}' > /dev/null
"$bin" submit -f "$mpi" --wait --timeout 60s > "$work/fail.out" 2> "$work/fail.err"
check "a launcher failure fails the TrainJob: exit 1" [ $? -eq 1 ]
check "... saying which Job failed and why" \
  grep -q "error: TrainJob mpi failed: Job mpi-launcher-0 failed: BackoffLimitExceeded: .*launcher-0: Error (exit code 2)" "$work/fail.err"
check "... deleting the node Job" grep -qx "deleted job.batch/mpi-node-0 (a sibling Job failed)" "$work/fail.err"
check "... so no node pod is left" eventually bash -c "[ \$(pods_of mpi-node-0) -eq 0 ]"
"$bin" status mpi > "$work/failed.out"
check "status: Failed" grep -qx "TrainJob mpi: Failed" "$work/failed.out"
"$bin" delete mpi --wait > /dev/null
finish
