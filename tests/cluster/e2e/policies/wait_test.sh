#!/bin/bash
# submit --wait on the real control plane: initializer Jobs first, the trainer Job only once
# the Job controller marked them Complete; the first Job the Job controller fails fails the
# TrainJob, and its sibling Jobs are deleted (JobSet's behaviour), their pods with them.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# tune RUNTIME-ARGS...: $work/tune.yaml, the TrainJob tune (two nodes) on three_step_runtime.
tune() { tune_trainjob "$@" >"$work/tune.yaml"; }
# real_requests: the plugin's requests since audit_mark that were not dry runs.
real_requests() { audit_requests | grep -v ' dryRun$'; }

tune # every pod succeeds after a second
"$bin" submit -f "$work/tune.yaml" --wait --timeout 60s >"$work/ok.out" 2>"$work/ok.err"
check "--wait exits 0 once every Job completed" [ $? -eq 0 ]
check "... and says so" grep -qx "TrainJob tune: Complete" "$work/ok.out"
kubectl get jobs -o json >"$work/jobs.json"
check "the trainer Job is created only after both initializers completed" python3 -c "
import json, sys
jobs = {j['metadata']['name']: j for j in json.load(open(sys.argv[1]))['items']}
node = jobs['tune-node-0']['metadata']['creationTimestamp']
for init in ('tune-dataset-initializer-0', 'tune-model-initializer-0'):
    assert jobs[init]['status']['completionTime'] <= node, (init, jobs[init]['status'], node)
" "$work/jobs.json"
check "kubectl sees the three Jobs Complete" \
  bash -c "[ \"\$(kubectl get jobs -o jsonpath='{.items[*].status.conditions[?(@.type==\"Complete\")].status}')\" = 'True True True' ]"
audit_mark
"$bin" submit -f "$work/tune.yaml" --wait --timeout 60s >"$work/again.out" 2>&1
rc=$?
check "waiting on a TrainJob that already completed returns at once, leaving its Jobs as they are" \
  bash -c "[ $rc -eq 0 ] && grep -q 'tune: its Jobs have finished and are left as they are' '$work/again.out' &&
    ! grep -q 'job.batch/tune-node-0' '$work/again.out' && grep -qx 'TrainJob tune: Complete' '$work/again.out'"
check "... no Job is applied for real, only the Service" \
  bash -c "[ \"\$1\" = 'patch services tune' ]" _ "$(real_requests | grep '^patch')"
"$bin" delete tune --wait >/dev/null

# The dataset initializer fails (exit code 137; no retries); the model initializer still runs.
tune '{test.kubectl-trainjob/exit-code: "137"}' '{test.kubectl-trainjob/duration: 1h}'
audit_mark
"$bin" submit -f "$work/tune.yaml" --wait --timeout 60s >"$work/fail.out" 2>"$work/fail.err"
check "the first failed Job fails the TrainJob: exit 1" [ $? -eq 1 ]
check "... saying which Job failed, with the Job controller's reason and the pod's exit" \
  grep -q "error: TrainJob tune failed: Job tune-dataset-initializer-0 failed: BackoffLimitExceeded: .*dataset-initializer-0: Error (exit code 137)" "$work/fail.err"
check "... deleting the sibling Job that was still running" \
  grep -qx "deleted job.batch/tune-model-initializer-0 (a sibling Job failed)" "$work/fail.err"
check "... whose pod the garbage collector removes" \
  eventually bash -c "[ -z \"\$(kubectl get jobs,pods -o name -l batch.kubernetes.io/job-name=tune-model-initializer-0)\" ]"
check "... and never creating the trainer Job" \
  bash -c "! kubectl get job tune-node-0 >/dev/null 2>&1 && ! grep -q '^patch jobs tune-node-0$' <<<\"\$1\"" _ "$(real_requests)"
check "the failed Job stays for status to show" \
  bash -c "[ \"\$(kubectl get job tune-dataset-initializer-0 -o jsonpath='{.status.conditions[?(@.type==\"Failed\")].reason}')\" = BackoffLimitExceeded ]"
"$bin" delete tune --wait >/dev/null

tune '{test.kubectl-trainjob/duration: 1h}' '{test.kubectl-trainjob/duration: 1h}'
"$bin" submit -f "$work/tune.yaml" --wait --timeout 1s >/dev/null 2>"$work/timeout.err"
check "--timeout ends the wait with exit 1" [ $? -eq 1 ]
check "... saying so" grep -q "timed out waiting for TrainJob tune" "$work/timeout.err"
finish
