#!/usr/bin/env bash
# run --local with the JAX and XGBoost policies: each pod's shell prints what the policy
# gave it, after the local rewrites (the coordinator or tracker on 127.0.0.1, at the free
# port the run picked, the same for every pod).
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"
export TMPDIR="$work"

# write_policy_case FILE POLICY COMMAND: a two-pod TrainJob on a runtime with POLICY.
write_policy_case() { write_local_case "$1" 2 "['sh', '-c', '$3']" '[]' '[]' '{}' "$2"; }
# one_port: both pods print the same port, and it is not the cluster's 29500.
one_port() {
  local ports
  ports=$(grep -o 'at 127\.0\.0\.1:[0-9]*' "$work/out" | cut -d: -f2 | sort -u)
  test "$(echo "$ports" | wc -l)" -eq 1 && test -n "$ports" && test "$ports" != 29500
}

write_policy_case "$work/jax.yaml" jax \
  'echo "process $JAX_PROCESS_ID of $JAX_NUM_PROCESSES at $JAX_COORDINATOR_ADDRESS"'
"$binary" run --local -f "$work/jax.yaml" >"$work/out" 2>&1
check "a JAX TrainJob runs" test $? -eq 0
check "pod 0 is process 0 of 2" grep -q '^\[node-0\] process 0 of 2 at 127\.0\.0\.1:' "$work/out"
check "pod 1 is process 1 of 2" grep -q '^\[node-1\] process 1 of 2 at 127\.0\.0\.1:' "$work/out"
check "the coordinator is on one free port" one_port

write_policy_case "$work/xgboost.yaml" xgboost \
  'echo "task $DMLC_TASK_ID of $DMLC_NUM_WORKER at $DMLC_TRACKER_URI:$DMLC_TRACKER_PORT"'
"$binary" run --local -f "$work/xgboost.yaml" >"$work/out" 2>&1
check "an XGBoost TrainJob runs" test $? -eq 0
check "pod 0 is task 0 of 2" grep -q '^\[node-0\] task 0 of 2 at 127\.0\.0\.1:' "$work/out"
check "pod 1 is task 1 of 2" grep -q '^\[node-1\] task 1 of 2 at 127\.0\.0\.1:' "$work/out"
check "the tracker is on one free port" one_port
finish
