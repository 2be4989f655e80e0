#!/bin/bash
# Whole-job restart, when no restart is left: with failurePolicy.maxRestarts 0 the first failed
# pod of a 4-node TrainJob fails it at once, as JobSet does, naming the pod; with maxRestarts 1
# and a pod that fails on every attempt it fails after one restart (JobSet's
# ReachedMaxRestarts).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# failing NAME MAX_RESTARTS: $work/NAME.yaml, a 4-node TrainJob whose runtime allows
# MAX_RESTARTS restarts and whose pod at index 2 fails (exit code 1) on every attempt.
failing() {
  one_step_trainjob "$1" 4 '{test.kubectl-trainjob/exit-code: "1", test.kubectl-trainjob/exit-index: "2"}' |
    sed "s/^      replicatedJobs:/      failurePolicy: {maxRestarts: $2}\n&/" >"$work/$1.yaml"
}

failing zero 0
"$bin" submit -f "$work/zero.yaml" --wait --timeout 60s >"$work/zero.out" 2>"$work/zero.err"
check "with maxRestarts 0 the first failed Job fails the TrainJob: exit 1" [ $? -eq 1 ]
check "... without a restart" bash -c "! grep -q Restarting '$work/zero.out' '$work/zero.err'"
check "... saying which Job failed" \
  grep -q "^error: TrainJob zero failed: Job zero-node-0 failed: BackoffLimitExceeded" "$work/zero.err"
check "... and naming the failed pod" \
  grep -Eq '^  failed pod zero-node-0-2-[a-z0-9]{5} \(node-2\): .*exit code 1' "$work/zero.err"
check "... whose Job is the first attempt's" \
  bash -c "[ \"\$(kubectl get job zero-node-0 -o jsonpath='{.metadata.labels.jobset\.sigs\.k8s\.io/restart-attempt}')\" = 0 ]"

failing once 1
"$bin" submit -f "$work/once.yaml" --wait --timeout 120s >"$work/once.out" 2>"$work/once.err"
check "with maxRestarts 1 and a pod that always fails: exit 1" [ $? -eq 1 ]
check "... after one restart" \
  bash -c "[ \"\$(grep -c '^TrainJob once: Restarting' '$work/once.out')\" = 1 ] &&
    grep -Eq '^TrainJob once: Restarting \(attempt 1 of 1\): pod once-node-0-2-[a-z0-9]{5} \(node-2\)' '$work/once.out'"
check "... saying that no restart is left" \
  grep -q "^error: TrainJob once failed after 1 restart (ReachedMaxRestarts: failurePolicy.maxRestarts 1): Job once-node-0 failed: BackoffLimitExceeded" "$work/once.err"
check "... naming the pod of the last attempt" \
  bash -c "pod=\$(grep -Eo 'failed pod once-node-0-2-[a-z0-9]{5}' '$work/once.err' | cut -d' ' -f3) &&
    [ \"\$(kubectl get pod \$pod -o jsonpath='{.metadata.labels.jobset\.sigs\.k8s\.io/restart-attempt}')\" = 1 ]"
check "... status's Failed condition has JobSet's reason" \
  bash -c "[ \"\$('$bin' status once -o jsonpath='{.status.conditions[?(@.type==\"Failed\")].reason}')\" = ReachedMaxRestarts ]"
check "... and FailedJobs without restarts" \
  bash -c "[ \"\$('$bin' status zero -o jsonpath='{.status.conditions[?(@.type==\"Failed\")].reason}')\" = FailedJobs ]"
"$bin" wait once --for=condition=Complete --restart --timeout=10s >/dev/null 2>"$work/wait.err"
check "wait --restart on it has no restart left either: exit 1 at once" \
  bash -c "[ $? -eq 1 ] && grep -q '^error: TrainJob once is Failed' '$work/wait.err'"
finish
