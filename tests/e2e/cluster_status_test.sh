#!/bin/bash
# status: the phase and, per node, why a pod is stuck or failed; -o yaml/json; --watch
# through the watch API, listing again after the server compacted its history (410).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
T=trainjob-demo-with-image
J=$T-node-0
"$bin" submit -f "$src/templates/image.yaml" > /dev/null
status() { "$bin" status "$@" > "$work/out" 2> "$work/err"; }

status $T
check "just submitted: Pending, both nodes listed" \
  bash -c "grep -qx 'TrainJob $T: Pending' '$work/out' && grep -q '^node   node-0 ' '$work/out' && grep -q '^node   node-1 ' '$work/out'"
ctl unschedulable "{\"job\": \"$J\", \"index\": 0, \"message\": \"0/3 nodes are available: 3 Insufficient cpu.\"}" > /dev/null
ctl wait "{\"job\": \"$J\", \"index\": 1, \"reason\": \"ImagePullBackOff\", \"message\": \"Back-off pulling image \\\"pytorch-demo:latest\\\"\"}" > /dev/null
status $T
check "an unschedulable pod shows the scheduler's message" \
  grep -q "node-0 .*Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.$" "$work/out"
check "... and the TrainJob says why it waits" grep -qx "node-0: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu." "$work/out"
check "an image that cannot be pulled shows ImagePullBackOff" \
  grep -q 'node-1 .*ImagePullBackOff: Back-off pulling image "pytorch-demo:latest"' "$work/out"
ctl run "{\"job\": \"$J\"}" > /dev/null
ctl wait "{\"job\": \"$J\", \"index\": 1, \"reason\": \"CrashLoopBackOff\", \"message\": \"back-off 20s restarting failed container\", \"restart_reason\": \"OOMKilled\", \"exit_code\": 137}" > /dev/null
status $T -o json
check "-o json: Running, with CrashLoopBackOff and the OOMKilled last exit of node-1" \
  /usr/bin/python3 -c "
import json, sys
s = json.load(open('$work/out'))['status']
assert s['phase'] == 'Running', s
node1 = [n for n in s['nodes'] if n['node'] == 'node-1'][0]
assert node1['restarts'] == 1 and node1['reason'] == 'CrashLoopBackOff: back-off 20s restarting failed container; last exit: OOMKilled (exit code 137)', node1
node0 = [n for n in s['nodes'] if n['node'] == 'node-0'][0]
assert node0['phase'] == 'Running' and node0['ready'] and node0['nodeName'] == 'node-a' and 'reason' not in node0, node0
"
status $T -o yaml
check "-o yaml prints the same as YAML" bash -c "grep -q '^  phase: Running' '$work/out' && grep -q 'reason: .CrashLoopBackOff' '$work/out'"
ctl fail "{\"job\": \"$J\", \"index\": 0, \"reason\": \"Error\", \"exit_code\": 3}" > /dev/null
status $T
check "a failed pod fails the TrainJob, with the Job's reason and the exit code" \
  bash -c "grep -qx 'TrainJob $T: Failed' '$work/out' && grep -q 'Job $J failed: BackoffLimitExceeded' '$work/out' && grep -q 'node-0 .*Error (exit code 3)' '$work/out'"
# Failed is terminal (Trainer 2.4): resume refuses, and the TrainJob stays Failed.
"$bin" resume $T > "$work/resume.out" 2> "$work/resume.err"
check "resume of a failed TrainJob: exit 1, nothing changed" \
  bash -c "[ $? -eq 1 ] && grep -q 'error: TrainJob $T failed (Job $J failed: BackoffLimitExceeded' '$work/resume.err' && grep -q 'never runs again' '$work/resume.err' && [ ! -s '$work/resume.out' ]"
status $T
check "... and status still says Failed" grep -qx "TrainJob $T: Failed" "$work/out"
"$bin" delete $T --wait > /dev/null

# A ConfigMap that does not exist: the kubelet's FailedMount event says so.
"$bin" submit -f "$src/templates/configmap.yaml" > /dev/null 2>&1
ctl event '{"job": "trainjob-demo-with-configmap-node-0", "index": 0, "reason": "FailedMount", "message": "MountVolume.SetUp failed for volume \"training-script\" : configmap \"pytorch-demo-script\" not found"}' > /dev/null
status trainjob-demo-with-configmap
check "a mount failure is shown from the pod's events" \
  grep -q 'node-0 .*FailedMount: MountVolume.SetUp failed for volume "training-script" : configmap "pytorch-demo-script" not found' "$work/out"
"$bin" delete trainjob-demo-with-configmap > /dev/null
status nothing-here
check "an unknown TrainJob: exit 1, not found" \
  bash -c "grep -qx 'error: trainjob \"nothing-here\" not found in namespace \"default\"' '$work/err'"

# --watch: prints each change and ends with the TrainJob; the server compacts its history
# under the running watch, so the client must list again.
"$bin" submit -f "$src/templates/image.yaml" > /dev/null
"$bin" status $T --watch > "$work/watch.out" 2> "$work/watch.err" &
watcher=$!
eventually grep -q "TrainJob $T: Pending" "$work/watch.out"
ctl requests/reset > /dev/null
# The next pod watch is cut after one event; the client must resume from its resourceVersion.
ctl faults '{"rules": [{"path": "/pods$", "watch": true, "drop_after_events": 1, "times": 1}]}' > /dev/null
ctl compact > /dev/null
sleep 0.3
ctl run "{\"job\": \"$J\"}" > /dev/null
eventually grep -q "TrainJob $T: Running" "$work/watch.out"
check "... resumed the cut pod watch from its resourceVersion" \
  eventually bash -c "ctl get requests | /usr/bin/python3 -c 'import json,sys; r=[x for x in json.load(sys.stdin)[\"requests\"] if x[\"path\"].endswith(\"/pods\") and x[\"query\"].get(\"watch\")]; sys.exit(0 if len(r) >= 2 and r[-1][\"query\"].get(\"resourceVersion\") not in (None, \"\", \"0\") else 1)'"
ctl succeed "{\"job\": \"$J\"}" > /dev/null
wait $watcher
check "--watch ends with exit 0 when the TrainJob completes" [ $? -eq 0 ]
check "... having printed Pending, Running and Complete" \
  bash -c "grep -q 'TrainJob $T: Pending' '$work/watch.out' && grep -q 'TrainJob $T: Running' '$work/watch.out' && grep -q 'TrainJob $T: Complete' '$work/watch.out'"
check "... and listed again after the 410" \
  bash -c "ctl get requests | /usr/bin/python3 -c 'import json,sys; r=json.load(sys.stdin)[\"requests\"]; sys.exit(0 if sum(1 for x in r if x[\"path\"].endswith(\"/jobs\") and \"watch\" not in x[\"query\"]) >= 1 else 1)'"
finish
