#!/bin/bash
# submit --wait: initializer Jobs first, the trainer Job only once they completed; the first
# failed Job fails the TrainJob and its sibling Jobs are deleted (JobSet's behaviour).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
tune=$src/tests/apiserver/fixtures/three-step.yaml
history() { ctl get history; }

ctl autopilot '{"rules": [{"job": ".", "lines": 2, "after": 0.3}]}' > /dev/null
"$bin" submit -f "$tune" --wait --timeout 60s > "$work/ok.out" 2> "$work/ok.err"
check "--wait exits 0 once every Job completed" [ $? -eq 0 ]
check "... and says so" grep -qx "TrainJob tune: Complete" "$work/ok.out"
check "the trainer Job is created only after both initializers completed" \
  bash -c "ctl get history | /usr/bin/python3 -c '
import json, sys
h = json.load(sys.stdin)[\"history\"]
def first(name, pred): return min(e[\"rv\"] for e in h if e[\"name\"] == name and pred(e))
node = first(\"tune-node-0\", lambda e: e[\"type\"] == \"ADDED\")
for init in (\"tune-dataset-initializer-0\", \"tune-model-initializer-0\"):
    assert first(init, lambda e: \"Complete\" in e[\"conditions\"]) < node, init
'"
check "kubectl sees the three completed Jobs" \
  bash -c "[ \$(kubectl get jobs --no-headers | grep -c Complete) -eq 3 ]"
"$bin" submit -f "$tune" --wait --timeout 60s > "$work/again.out" 2>&1
rc=$?
check "waiting on a TrainJob that already completed returns at once, leaving its Jobs as they are" \
  bash -c "[ $rc -eq 0 ] && grep -q 'tune: its Jobs have finished and are left as they are' '$work/again.out' &&
    ! grep -q 'job.batch/tune-node-0' '$work/again.out' && grep -qx 'TrainJob tune: Complete' '$work/again.out'"
"$bin" delete tune --wait > /dev/null

# The dataset initializer is killed for memory; the model initializer is still running.
ctl autopilot '{"rules": [{"job": "dataset", "after": 0.5, "result": "Failed", "reason": "OOMKilled", "exit_code": 137}, {"job": "model", "after": 30}]}' > /dev/null
"$bin" submit -f "$tune" --wait --timeout 60s > "$work/fail.out" 2> "$work/fail.err"
check "the first failed Job fails the TrainJob: exit 1" [ $? -eq 1 ]
check "... saying which Job failed and why" \
  grep -q "error: TrainJob tune failed: Job tune-dataset-initializer-0 failed: BackoffLimitExceeded: .*dataset-initializer-0: OOMKilled (exit code 137)" "$work/fail.err"
check "... deleting the sibling Job that was still running" \
  grep -qx "deleted job.batch/tune-model-initializer-0 (a sibling Job failed)" "$work/fail.err"
check "... and never creating the trainer Job (created once, by the first run only)" \
  bash -c "[ \$(ctl get history | /usr/bin/python3 -c 'import json,sys; print(sum(1 for e in json.load(sys.stdin)[\"history\"] if e[\"name\"] == \"tune-node-0\" and e[\"type\"] == \"ADDED\"))') -eq 1 ]"
"$bin" delete tune --wait > /dev/null

ctl autopilot '{"rules": []}' > /dev/null
"$bin" submit -f "$tune" --wait --timeout 1s > /dev/null 2> "$work/timeout.err"
check "--timeout ends the wait with exit 1" [ $? -eq 1 ]
check "... saying so" grep -q "timed out waiting for TrainJob tune" "$work/timeout.err"
finish
