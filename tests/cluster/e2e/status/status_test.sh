#!/bin/bash
# status on the real control plane: the phase from the Job controller's conditions (Pending,
# Running, Suspended, Complete, Failed), per node the scheduler's own message or the pod's
# exit code; -o json, yaml and jsonpath; --watch until its last frame is the final status.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
status() { "$bin" status "$@" > "$work/out" 2> "$work/err"; }
submit() { "$bin" submit -f - > /dev/null; }

# Five TrainJobs side by side: no node has the label `type: nowhere`; `run` runs for an hour;
# `fail`'s node-0 exits with 3 (no retry); `susp` is suspended; `done` ends after 3 s.
one_step_trainjob stuck 2 '{}' '{type: nowhere}' | submit
one_step_trainjob run 2 '{test.kubectl-trainjob/duration: 1h}' | submit
one_step_trainjob fail 2 \
  '{test.kubectl-trainjob/exit-code: "3", test.kubectl-trainjob/exit-index: "0"}' | submit
one_step_trainjob susp 2 | sed '/^kind: TrainJob$/,$ s/^spec:$/spec:\n  suspend: true/' | submit 2> /dev/null
one_step_trainjob done 2 '{test.kubectl-trainjob/duration: 3s}' | submit
"$bin" status done --watch > "$work/watch.out" 2> "$work/watch.err" &
watcher=$!

# --- Pending: the scheduler's message, as the pod's PodScheduled condition carries it -----
scheduled_message() {
  kubectl get pod "$(job_pod stuck-node-0 "$1")" \
    -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].message}'
}
unschedulable() {
  [ "$(kubectl get pods -l job-name=stuck-node-0 \
    -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="PodScheduled")].reason}{"\n"}{end}' |
    grep -c '^Unschedulable$')" -eq 2 ]
}
eventually unschedulable
message=$(scheduled_message 0)
check "the scheduler said why ($message)" \
  grep -qE "^0/[0-9]+ nodes are available: [0-9]+ node\(s\) didn't match Pod's node affinity/selector\." <<< "$message"
status stuck
check "unschedulable: Pending, both nodes listed" \
  bash -c "grep -qx 'TrainJob stuck: Pending' '$work/out' && grep -q '^node   node-0 ' '$work/out' && grep -q '^node   node-1 ' '$work/out'"
row_says() {  # row_says INDEX: node-INDEX's row has its pod, no node, Pending, the message
  [[ "$(grep "^node   node-$1 " "$work/out")" == "node   node-$1   $(job_pod stuck-node-0 "$1")   <none> "*" Pending "*"   Unschedulable: $(scheduled_message "$1")" ]]
}
check "... node-0's row: its pod, no node, and the scheduler's message" row_says 0
check "... node-1's row too" row_says 1
check "... and the TrainJob says why it waits" grep -qxF "node-0: Unschedulable: $message" "$work/out"

# --- Running: -o json and -o yaml ------------------------------------------------------------
# The Job's own counts (its step's state) follow its pods' a moment later: wait for both.
running() {
  status run -o json && grep -q '"phase": "Running"' "$work/out" &&
    grep -q '"state": "Running"' "$work/out" && [ "$(grep -c '"ready": true' "$work/out")" -eq 2 ]
}
check "an hour-long TrainJob: Running, its step too, both pods ready" eventually running
node_name=$(kubectl get pod "$(job_pod run-node-0 0)" -o jsonpath='{.spec.nodeName}')
check "-o json: Running; node-0 Running, ready, on its kwok node ($node_name), no reason" \
  python3 -c "
import json
s = json.load(open('$work/out'))['status']
assert s['phase'] == 'Running' and 'reason' not in s, s
node0 = [n for n in s['nodes'] if n['node'] == 'node-0'][0]
assert node0['phase'] == 'Running' and node0['ready'] and node0['restarts'] == 0, node0
assert node0['nodeName'] == '$node_name' and node0['pod'] == '$(job_pod run-node-0 0)', node0
assert 'reason' not in node0 and 'exitCode' not in node0, node0
"
cp "$work/out" "$work/run.json"
status run -o yaml
check "-o yaml: the same object as -o json" python3 -c "
import json, yaml
a, b = yaml.safe_load(open('$work/out')), json.load(open('$work/run.json'))
assert a == b, (a, b)
"

# --- Failed: the Job controller's reason, the pod's exit code ----------------------------------
failed() { status fail && grep -qx 'TrainJob fail: Failed' "$work/out"; }
check "a pod that exits 3 with no retry left: Failed" eventually failed
check "... with the Job's reason and node-0's exit code" bash -c "
  grep -q 'Job fail-node-0 failed: BackoffLimitExceeded' '$work/out' &&
  grep -q '^node   node-0 .* Failed .*Error (exit code 3)$' '$work/out'"
status fail -o json
check "-o json: reason, a Failed condition, exit code 3" python3 -c "
import json
s = json.load(open('$work/out'))['status']
assert s['phase'] == 'Failed' and 'BackoffLimitExceeded' in s['reason'], s
assert [(c['type'], c['status'], c['reason']) for c in s['conditions']] == [('Failed', 'True', 'FailedJobs')], s
node0 = [n for n in s['nodes'] if n['node'] == 'node-0'][0]
assert node0['phase'] == 'Failed' and node0['exitCode'] == 3, node0
"
# Failed is terminal (Trainer 2.4): resume refuses, and the TrainJob stays Failed.
"$bin" resume fail > "$work/resume.out" 2> "$work/resume.err"
check "resume of a failed TrainJob: exit 1, nothing changed" bash -c "[ $? -eq 1 ] &&
  grep -q 'error: TrainJob fail failed (Job fail-node-0 failed: BackoffLimitExceeded' '$work/resume.err' &&
  grep -q 'never runs again' '$work/resume.err' && [ ! -s '$work/resume.out' ] &&
  [ -z \"\$(kubectl get job fail-node-0 -o jsonpath='{.spec.suspend}' | grep -v false)\" ]"
status fail
check "... and status still says Failed" grep -qx "TrainJob fail: Failed" "$work/out"

# --- Suspended ----------------------------------------------------------------------------------
status susp
check "a suspended TrainJob: Suspended, no pod" bash -c "
  grep -qx 'TrainJob susp: Suspended' '$work/out' && [ -z \"\$(kubectl get pods -l job-name=susp-node-0 -o name)\" ]"
check "... saying it has no pods where the table would be, with no empty header" bash -c "
  grep -qx 'No pods: the TrainJob is suspended.' '$work/out' && ! grep -q '^STEP' '$work/out'"
status susp -o json
check "-o json: a Suspended condition from the Job's" python3 -c "
import json
s = json.load(open('$work/out'))['status']
assert s['phase'] == 'Suspended', s
assert [(c['type'], c['status'], c['reason']) for c in s['conditions']] == [('Suspended', 'True', 'Suspended')], s
"

# --- Complete, through --watch ---------------------------------------------------------------------
wait $watcher
check "--watch ends with exit 0 when the TrainJob completes" [ $? -eq 0 ]
check "... having printed Running, then Complete last" bash -c "
  diff <(grep '^TrainJob done: ' '$work/watch.out' | sed 's/ (.*//' | uniq | tail -2) <(printf 'TrainJob done: Running\nTrainJob done: Complete\n')"
status done
# The last frame: from the last heading line to the blank line that ends every frame.
awk '/^TrainJob done: / { frame = "" } { frame = frame $0 "\n" } END { printf "%s", frame }' \
  "$work/watch.out" > "$work/last-frame"
check "... its last frame is the final status, both pods Succeeded" bash -c "
  diff <(cat '$work/out'; echo) '$work/last-frame' && [ \"\$(grep -c ' Succeeded ' '$work/out')\" -eq 2 ]"
status done -o json
check "-o json: a Complete condition, startTime, completionTime, per-pod exit codes" python3 -c "
import json
s = json.load(open('$work/out'))['status']
c = s['conditions']
assert [x['type'] for x in c] == ['Complete'] and c[0]['status'] == 'True', c
assert c[0]['reason'] == 'AllJobsCompleted' and c[0]['lastTransitionTime'], c
assert s['startTime'] and s['completionTime'] >= s['startTime'], s
assert [n['exitCode'] for n in s['nodes']] == [0, 0], s['nodes']
"
status done -o 'jsonpath={.status.conditions[?(@.type=="Complete")].status}'
check "-o jsonpath: the user guide's query of a condition" diff <(printf 'True') "$work/out"
status done -o 'jsonpath={range .status.nodes[*]}{.node}={.phase}{"\n"}{end}'
check "-o jsonpath: range ... end" diff <(printf 'node-0=Succeeded\nnode-1=Succeeded\n') "$work/out"
"$bin" list -o 'jsonpath={.items[*].metadata.name}' > "$work/out"
check "list -o jsonpath: every TrainJob of the namespace" \
  diff <(tr ' ' '\n' < "$work/out" | sort) <(printf '%s\n' done fail run stuck susp)
audit_mark
status done -o 'jsonpath={.status.phase'
check "a template that cannot be read is a usage error (exit 2), before any request" \
  bash -c "[ $? -eq 2 ] && grep -q \"unclosed '{'\" '$work/err' && [ -z '$(audit_requests)' ]"

status nothing-here
check "an unknown TrainJob: exit 1, not found in this namespace" \
  bash -c "[ $? -eq 1 ] && grep -qx 'error: trainjob \"nothing-here\" not found in namespace \"$ns\"' '$work/err'"
finish
