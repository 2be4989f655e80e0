#!/bin/bash
# The Indexed Job rules a runtime's Job template carries into the Jobs we render
# (successPolicy, backoffLimitPerIndex with maxFailedIndexes, podFailurePolicy), and the
# podFailurePolicy a legacy restartPolicy ExitCode becomes, as the real Job controller applies
# them: submit --wait and status report what it decided. The cases run side by side.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# indexed NAME ANNOTATIONS RULES: the TrainJob NAME of 3 nodes and its runtime NAME, whose
# node Job has RULES (YAML lines of a Job spec) and pods that restart Never, annotated
# ANNOTATIONS (a flow map of kwok's test.kubectl-trainjob/duration, exit-code, exit-index).
indexed() { one_step_trainjob "$1" 3 "$2" "" "$3" >"$work/$1.yaml"; }
# submit_wait NAME: submit --wait of $work/NAME.yaml in the background, its output in
# $work/NAME.out and .err, its exit status in $work/NAME.rc.
submit_wait() {
  ("$bin" submit --wait --timeout 60s -f "$work/$1.yaml" >"$work/$1.out" 2>"$work/$1.err"
    echo $? >"$work/$1.rc") &
  submits="${submits:-} $!"
}
# conditions JOB: the Job's true conditions, "TYPE REASON" each, one a line.
conditions() {
  kubectl get job "$1" -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type} {.reason}{"\n"}{end}'
}

# successPolicy: the Job succeeds once index 0 has, while indexes 1 and 2 still run; the Job
# controller then ends them.
indexed first '{test.kubectl-trainjob/duration: 1h}' '
successPolicy:
  rules: [{succeededIndexes: "0"}]'
# backoffLimitPerIndex: the first attempt of index 1 fails (below) and is retried on the
# index's own budget of one retry.
indexed retried '{test.kubectl-trainjob/duration: 1s}' '
backoffLimitPerIndex: 1'
fail_first_attempt() { [ "$2" = 1 ] && [ "$3" = 0 ] && end_pod "$1" 3; }
on_new_pods job-name=retried-node-0 \
  '{.metadata.annotations.batch\.kubernetes\.io/job-completion-index} {.metadata.annotations.batch\.kubernetes\.io/job-index-failure-count}' \
  fail_first_attempt
# backoffLimitPerIndex 3, but podFailurePolicy FailIndex on exit code 42: index 1 exits 42
# and is not retried; indexes 0 and 2 complete; then the Job fails for its failed index.
indexed failindex '{test.kubectl-trainjob/duration: 1s, test.kubectl-trainjob/exit-code: "42", test.kubectl-trainjob/exit-index: "1"}' '
backoffLimitPerIndex: 3
podFailurePolicy:
  rules:
    - action: FailIndex
      onExitCodes: {operator: In, values: [42]}'
# maxFailedIndexes 0: the Job fails as soon as index 2 has failed (below), ending the others.
indexed maxfailed '{test.kubectl-trainjob/duration: 1h}' '
backoffLimitPerIndex: 0
maxFailedIndexes: 0'
# legacy restartPolicy ExitCode: exit codes 1-127 fail the Job at once (podFailurePolicy
# FailJob), however many retries backoffLimit allows (none set: no limit) ...
cat >"$work/exitcode.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: exitcode
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        metadata:
          annotations: {test.kubectl-trainjob/duration: 1h}
        spec:
          containers: [{name: pytorch, image: pytorch-demo}]
    Worker:
      replicas: 1
      restartPolicy: ExitCode
      template:
        metadata:
          annotations: {test.kubectl-trainjob/duration: 1s, test.kubectl-trainjob/exit-code: "3"}
        spec:
          containers: [{name: pytorch, image: pytorch-demo}]
YAML
# ... and 128 and up (a signal) are retried, within backoffLimit: the first pod of worker-0
# is killed (137, below), the second succeeds.
cat >"$work/signal.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: TFJob
metadata:
  name: signal
spec:
  runPolicy: {backoffLimit: 1}
  tfReplicaSpecs:
    Worker:
      replicas: 1
      restartPolicy: ExitCode
      template:
        metadata:
          annotations: {test.kubectl-trainjob/duration: 1s}
        spec:
          containers: [{name: tensorflow, image: tensorflow/tensorflow:2.12.0}]
YAML
kill_first() { [ -n "${killed:-}" ] || { killed=1 && end_pod "$1" 137; }; }
on_new_pods job-name=signal-worker-0 '' kill_first

# A rule the Job's pods cannot follow (podFailurePolicy needs restartPolicy Never) is refused
# by the API server's validation: submit says so and leaves nothing behind.
indexed refused '{}' '
podFailurePolicy:
  rules: [{action: FailJob, onExitCodes: {operator: In, values: [1]}}]'
sed -i 's/restartPolicy: Never/restartPolicy: OnFailure/' "$work/refused.yaml"
"$bin" submit -f "$work/refused.yaml" >"$work/refused.out" 2>"$work/refused.err"
check "a rule the API server refuses: exit 1, with its reason" bash -c "
  [ $? = 1 ] && grep -q '^error: job.batch/refused-node-0: .*only \"Never\" is supported when podFailurePolicy is specified' '$work/refused.err'"
check "... and nothing applied" bash -c "[ -z \"\$(kubectl get jobs,services -o name)\" ]"

for case in first retried failindex maxfailed exitcode signal; do submit_wait $case; done
running() { [ "$(kubectl get pods -l "job-name=$1" -o jsonpath='{.items[*].status.phase}')" = "$2" ]; }
check "first: all three pods run" eventually running first-node-0 'Running Running Running'
end_pod "$(job_pod first-node-0 0)"
check "maxfailed: all three pods run" eventually running maxfailed-node-0 'Running Running Running'
end_pod "$(job_pod maxfailed-node-0 2)" 3
wait $submits
check "the rules reach the Jobs as written (the runtime's, and ExitCode's FailJob on 1-127)" bash -c "
  [ \"\$(kubectl get job first-node-0 -o jsonpath='{.spec.successPolicy}')\" = '{\"rules\":[{\"succeededIndexes\":\"0\"}]}' ] &&
  [ \"\$(kubectl get job failindex-node-0 -o jsonpath='{.spec.backoffLimitPerIndex} {.spec.podFailurePolicy.rules[0].action}')\" = '3 FailIndex' ] &&
  [ \"\$(kubectl get job maxfailed-node-0 -o jsonpath='{.spec.maxFailedIndexes}')\" = 0 ] &&
  [ \"\$(kubectl get job exitcode-worker-0 -o jsonpath='{.spec.backoffLimit} {.spec.podFailurePolicy.rules[0].action} {.spec.podFailurePolicy.rules[0].onExitCodes.values[0]} {.spec.podFailurePolicy.rules[0].onExitCodes.values[-1]}')\" = '2147483647 FailJob 1 127' ]"

# successPolicy
check "successPolicy: submit --wait: Complete once index 0 succeeded" bash -c "
  [ \$(cat '$work/first.rc') = 0 ] && grep -qx 'TrainJob first: Complete' '$work/first.out'"
check "... the Job controller's decision: SuccessPolicy, index 0 alone succeeded" \
  diff <(printf 'SuccessCriteriaMet SuccessPolicy\nComplete SuccessPolicy\n0 1\n') \
    <(conditions first-node-0; kubectl get job first-node-0 -o jsonpath='{.status.completedIndexes} {.status.succeeded}{"\n"}')
check "... and it ended the pods of indexes 1 and 2" eventually running first-node-0 Succeeded
"$bin" status first >"$work/first.status"
check "... status: Complete" grep -qx 'TrainJob first: Complete' "$work/first.status"

# backoffLimitPerIndex
check "backoffLimitPerIndex: index 1 retried once, then the TrainJob completes" bash -c "
  [ \$(cat '$work/retried.rc') = 0 ] && grep -q '^  node-1 (pod retried-node-0-1-.*): Error (exit code 3)$' '$work/retried.out' &&
  grep -qx 'TrainJob retried: Complete' '$work/retried.out'"
check "... the Job counted the failure against index 1's budget" bash -c "
  [ \"\$(kubectl get job retried-node-0 -o jsonpath='{.status.failed} {.status.succeeded} {.status.completedIndexes}')\" = '1 3 0-2' ] &&
  [ \"\$(kubectl get pods -l job-name=retried-node-0,batch.kubernetes.io/job-completion-index=1 -o jsonpath='{.items[*].metadata.annotations.batch\.kubernetes\.io/job-index-failure-count}' | tr ' ' '\n' | sort | tr '\n' ' ')\" = '0 1 ' ]"

# podFailurePolicy FailIndex
check "podFailurePolicy FailIndex: submit --wait fails, naming the reason and the exit code" bash -c "
  [ \$(cat '$work/failindex.rc') = 1 ] &&
  grep -qx 'error: TrainJob failindex failed: Job failindex-node-0 failed: FailedIndexes: Job has failed indexes; node-1: Error (exit code 42)' '$work/failindex.err'"
check "... index 1 was not retried, the others completed" \
  bash -c "[ \"\$(kubectl get job failindex-node-0 -o jsonpath='{.status.failedIndexes} {.status.completedIndexes} {.status.failed}')\" = '1 0,2 1' ]"
"$bin" status failindex >"$work/failindex.status"
check "... status: Failed, the failed node's row" bash -c "
  grep -qx 'TrainJob failindex: Failed' '$work/failindex.status' &&
  grep -qE '^node +node-1 +failindex-node-0-1-[a-z0-9]+ +kwok-node-[0-9]+ +Failed +false +0 +Error \(exit code 42\)$' '$work/failindex.status'"

# maxFailedIndexes
check "maxFailedIndexes: submit --wait fails as index 2 fails" bash -c "
  [ \$(cat '$work/maxfailed.rc') = 1 ] &&
  grep -q '^error: TrainJob maxfailed failed: Job maxfailed-node-0 failed: MaxFailedIndexesExceeded: .*node-2: Error (exit code 3)' '$work/maxfailed.err'"
check "... and the Job controller ended the pods still running" eventually running maxfailed-node-0 Failed

# legacy ExitCode
check "restartPolicy ExitCode, exit code 3: the PyTorchJob fails at once, by podFailurePolicy" bash -c "
  [ \$(cat '$work/exitcode.rc') = 1 ] &&
  grep -q '^error: PyTorchJob exitcode failed: Job exitcode-worker-0 failed: PodFailurePolicy: .*exit code 3 matching FailJob rule' '$work/exitcode.err' &&
  [ \"\$(kubectl get job exitcode-worker-0 -o jsonpath='{.status.failed}')\" = 1 ]"
check "... leaving the Master running (cleanPodPolicy None)" \
  grep -qx 'job.batch/exitcode-master-0 left running (cleanPodPolicy None)' "$work/exitcode.out"
check "restartPolicy ExitCode, exit code 137: retried, and the TFJob completes" bash -c "
  [ \$(cat '$work/signal.rc') = 0 ] && grep -qx 'TFJob signal: Complete' '$work/signal.out' &&
  [ \"\$(kubectl get job signal-worker-0 -o jsonpath='{.status.failed} {.status.succeeded}')\" = '1 1' ]"
finish
