#!/bin/bash
# status on the stand-in, for what the real control plane cannot show (the rest is
# tests/cluster/e2e/status/status_test.sh): the kubelet's reasons, which kwok's nodes never give
# (ImagePullBackOff, CrashLoopBackOff with an OOMKilled last exit, a FailedMount event), and
# --watch through a pod watch cut after one event and a compacted history (410).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_with_demo
status() { "$bin" status "$@" > "$work/out" 2> "$work/err"; }

ctl wait "{\"job\": \"$J\", \"index\": 1, \"reason\": \"ImagePullBackOff\", \"message\": \"Back-off pulling image \\\"pytorch-demo:latest\\\"\"}" > /dev/null
status $T
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
"
"$bin" delete $T --wait > /dev/null

# A ConfigMap that does not exist: the kubelet's FailedMount event says so.
"$bin" submit -f "$src/templates/configmap.yaml" > /dev/null 2>&1
ctl event '{"job": "trainjob-demo-with-configmap-node-0", "index": 0, "reason": "FailedMount", "message": "MountVolume.SetUp failed for volume \"training-script\" : configmap \"pytorch-demo-script\" not found"}' > /dev/null
status trainjob-demo-with-configmap
check "a mount failure is shown from the pod's events" \
  grep -q 'node-0 .*FailedMount: MountVolume.SetUp failed for volume "training-script" : configmap "pytorch-demo-script" not found' "$work/out"
"$bin" delete trainjob-demo-with-configmap > /dev/null

# --watch: the server compacts its history under the running watch, so the client must list
# again.
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
