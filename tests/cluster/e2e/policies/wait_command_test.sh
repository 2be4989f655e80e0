#!/bin/bash
# `wait` on the real control plane, in kubectl wait's words and exit codes (checked beside
# kubectl wait on the TrainJob's own Job): condition met, timed out, a failed job that will
# never complete ending at once, jsonpath, delete; `status` agrees with what it waited for.
# (wait_test.sh is submit --wait.)
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
wait_for() { "$bin" wait "$@" > "$work/out" 2> "$work/err"; }

one_step_trainjob long 1 '{test.kubectl-trainjob/duration: 1h}' | "$bin" submit -f - > /dev/null
one_step_trainjob ok 1 '{test.kubectl-trainjob/duration: 2s}' | "$bin" submit -f - > /dev/null
one_step_trainjob bad 1 '{test.kubectl-trainjob/duration: 2s, test.kubectl-trainjob/exit-code: "3"}' |
  "$bin" submit -f - > /dev/null

# --- timed out, as kubectl wait words it ----------------------------------------------------------
wait_for long --for=condition=Complete --timeout=1s
check "timed out: exit 1 and kubectl wait's message, naming trainjobs/NAME" \
  bash -c "[ $? -eq 1 ] && [ ! -s '$work/out' ] && diff <(echo 'error: timed out waiting for the condition on trainjobs/long') '$work/err'"
kubectl wait job/long-node-0 --for=condition=Complete --timeout=1s 2> "$work/kubectl.err"
check "... the same words as kubectl wait on its Job" \
  diff <(sed 's|jobs/long-node-0|trainjobs/long|' "$work/kubectl.err") "$work/err"
wait_for long --for=jsonpath='{.status.phase}'=Running --timeout=30s
check "--for=jsonpath on the object status -o json prints" \
  bash -c "[ $? -eq 0 ] && diff <(echo 'trainjob.trainer.kubeflow.org/long condition met') '$work/out'"

# --- condition met ---------------------------------------------------------------------------------
wait_for ok --for=condition=Complete --timeout=60s
check "Complete: exit 0, NAME condition met" \
  bash -c "[ $? -eq 0 ] && diff <(echo 'trainjob.trainer.kubeflow.org/ok condition met') '$work/out'"
kubectl wait job/ok-node-0 --for=condition=Complete --timeout=10s > "$work/kubectl.out"
check "... as kubectl wait says it of the Job" \
  diff <(sed 's|job.batch/ok-node-0|trainjob.trainer.kubeflow.org/ok|' "$work/kubectl.out") "$work/out"
check "... and status agrees" bash -c "'$bin' status ok | head -1 | grep -qx 'TrainJob ok: Complete'"
wait_for trainjob/ok --for=condition=complete=true --timeout=0
check "TYPE/NAME, the condition in any case, --timeout=0 looks once" \
  bash -c "[ $? -eq 0 ] && grep -qx 'trainjob.trainer.kubeflow.org/ok condition met' '$work/out'"
wait_for ok --for=condition=Failed --timeout=60s
check "Failed on a job that completed: exit 1 at once, saying why" \
  bash -c "[ $? -eq 1 ] && grep -qx 'error: TrainJob ok is Complete: it will never be Failed' '$work/err'"

# --- a failed job never completes: the SDK's wait_for_job_status stops too -------------------------
start=$(date +%s)
wait_for bad --for=condition=Complete --timeout=5m
code=$?
check "Complete on a job that fails: exit 1 as soon as it failed, not at the timeout" \
  bash -c "[ $code -eq 1 ] && [ $(($(date +%s) - start)) -lt 30 ]"
check "... saying it failed and why, as status does" \
  bash -c "grep -q '^error: TrainJob bad is Failed (Job bad-node-0 failed: BackoffLimitExceeded' '$work/err' &&
    grep -q 'exit code 3)): it will never be Complete$' '$work/err' && '$bin' status bad | head -1 | grep -qx 'TrainJob bad: Failed'"
wait_for bad --for=condition=Failed --timeout=10s
check "Failed on it: condition met" \
  bash -c "[ $? -eq 0 ] && grep -qx 'trainjob.trainer.kubeflow.org/bad condition met' '$work/out'"

# --- delete ------------------------------------------------------------------------------------------
"$bin" wait ok --for=delete --timeout=60s > "$work/delete.out" 2> "$work/delete.err" &
waiter=$!
sleep 1
"$bin" delete ok > /dev/null
wait "$waiter"
check "--for=delete: exit 0 once every object and pod is gone" \
  bash -c "[ $? -eq 0 ] && grep -qx 'trainjob.trainer.kubeflow.org/ok condition met' '$work/delete.out' &&
    [ -z \"\$(kubectl get jobs,pods,services -l trainer.kubeflow.org/trainjob-name=ok -o name)\" ]"
wait_for ok --for=delete --timeout=1s
check "--for=delete of nothing: exit 0, silent, as kubectl wait" \
  bash -c "[ $? -eq 0 ] && [ ! -s '$work/out' ] && [ ! -s '$work/err' ] && kubectl wait job/ok-node-0 --for=delete --timeout=1s"
wait_for ok --for=condition=Complete
check "a condition of nothing: not found, exit 1" \
  bash -c "[ $? -eq 1 ] && grep -qx 'error: trainjob \"ok\" not found in namespace \"$ns\"' '$work/err'"

# --- usage ---------------------------------------------------------------------------------------
wait_for long --for=bogus
check "--for that kubectl wait does not take: usage error" \
  bash -c "[ $? -eq 2 ] && grep -q '^error: --for: unrecognized condition \"bogus\"' '$work/err'"
wait_for long
check "--for is required" [ $? -eq 2 ]
wait_for long --for=condition=Complete --timeout=1x
check "--timeout that is no duration: usage error" [ $? -eq 2 ]
finish
