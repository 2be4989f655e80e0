#!/bin/bash
# status and delete of an OptimizationJob on the real control plane: its trials, submitted one
# by one or rendered and applied with kubectl, run under the Job controller; kwok serves each
# rank-0 pod a log with the trial's loss (from its KUBEFLOW_TRAINER_OPT_TARGET) and fails one
# trial; status finds the trials by their labels, reads their metrics from rank 0's log and
# names the best; delete removes every trial.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# Two nodes per trial, whose pods run two seconds and are not retried.
cat >"$work/sweep.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: OptimizationJob
metadata:
  name: sweep
spec:
  objectives:
    - metric: loss
      direction: Minimize
  searchAlgorithm:
    grid: {}
  numTrials: 4
  parallelTrials: 2
  parameters:
    - name: target
      searchSpace:
        categorical:
          choices: ["0.5", "0.2", "0.9", "0.1"]
  trainJobTemplate:
    spec:
      runtimeRef:
        name: trial-runtime
      trainer:
        numNodes: 2
YAML
{ echo ---; one_step_runtime trial-runtime '{test.kubectl-trainjob/duration: 2s}'; } >>"$work/sweep.yaml"
# serve_trial POD TRIAL TARGET: rank 0's log. The accuracy comes on the epoch line only, the
# last loss on a later step line: both must survive. Trial 4 reports the lowest loss but
# fails (exit code 3): the best is trial 2.
serve_trial() {
  [ -n "${3:-}" ] || return 0
  pod_logs "$1" "TRAINJOB_PROGRESS {\"epoch\": 1, \"epochs\": 1, \"loss\": 7, \"accuracy\": 0.75}
some other line
TRAINJOB_PROGRESS {\"step\": 4, \"totalSteps\": 4, \"loss\": $3}"
  [ "$2" != sweep-trial-4 ] || end_pod "$1" 3
}
on_new_pods batch.kubernetes.io/job-completion-index=0 \
  '{.metadata.labels.trainer\.kubeflow\.org/trainjob-name} {.spec.containers[0].env[?(@.name=="KUBEFLOW_TRAINER_OPT_TARGET")].value}' \
  serve_trial

# Trial 2 as the search's driver submits it, the others rendered and applied with kubectl:
# status and delete find both.
"$bin" submit -f "$work/sweep.yaml" --trial 2 >/dev/null
for k in 1 3 4; do
  "$bin" render -f "$work/sweep.yaml" --trial $k | kubectl apply --server-side -f - >/dev/null
done

sweep_done() { "$bin" status sweep 2>/dev/null | grep -q '^OptimizationJob sweep: Complete'; }
check "status NAME: the sweep completes once no trial runs" eventually sweep_done
"$bin" status sweep >"$work/status" 2>"$work/err"
check "status NAME of an OptimizationJob: exit 0" [ $? -eq 0 ]
check "... the phase and the count of trials by state" \
  grep -qx 'OptimizationJob sweep: Complete (4 trials: 3 succeeded, 1 failed)' "$work/status"
check "... a table row per trial: values, state and the last loss reported" \
  bash -c "grep -qE '^TRIAL +TARGET +STATE +LOSS$' '$work/status' &&
    grep -qE '^sweep-trial-1 +0.5 +Succeeded +0.5$' '$work/status' &&
    grep -qE '^sweep-trial-2 +0.2 +Succeeded +0.2$' '$work/status' &&
    grep -qE '^sweep-trial-3 +0.9 +Succeeded +0.9$' '$work/status' &&
    grep -qE '^sweep-trial-4 +0.1 +Failed +0.1$' '$work/status'"
check "... why the failed trial failed: the Job controller's reason, the pod's exit code" \
  grep -q '^sweep-trial-4: Job sweep-trial-4-node-0 failed: BackoffLimitExceeded: .*exit code 3' "$work/status"
check "... the best trial: the lowest loss among those that succeeded" \
  grep -qx 'best: sweep-trial-2 (target=0.2): loss 0.2 (Minimize)' "$work/status"

"$bin" status optimizationjob/sweep -o json >"$work/status.json"
check "status optimizationjob/NAME -o json: upstream's shape, status.result the best trial" \
  /usr/bin/python3 -c "
import json
d = json.load(open('$work/status.json'))
assert d['apiVersion'] == 'trainer.kubeflow.org/v1alpha1' and d['kind'] == 'OptimizationJob', d
assert d['metadata'] == {'name': 'sweep', 'namespace': '$ns'}, d['metadata']
s = d['status']
assert s['result'] == {'trainJobName': 'sweep-trial-2', 'parameters': [{'name': 'target', 'value': '0.2'}]}, s
assert [c['type'] for c in s['conditions']] == ['Complete'], s['conditions']
assert [t['state'] for t in s['trials']] == ['Succeeded', 'Succeeded', 'Succeeded', 'Failed'], s['trials']
assert s['trials'][0]['metrics'] == [{'name': 'loss', 'value': '0.5'}, {'name': 'accuracy', 'value': '0.75'}], s['trials'][0]
"
"$bin" status optimizationjobs.trainer.kubeflow.org sweep -o 'jsonpath={.status.result.trainJobName}' \
  >"$work/best"
check "status TYPE NAME with the group, -o jsonpath" diff <(printf 'sweep-trial-2') "$work/best"
"$bin" status sweep-trial-4 >"$work/trial" 2>&1
check "a trial is an ordinary TrainJob for status" \
  grep -q '^TrainJob sweep-trial-4: Failed' "$work/trial"
"$bin" list -o name >"$work/list"
check "list shows the trials as TrainJobs" diff - "$work/list" <<'OUT'
trainjob/sweep-trial-1
trainjob/sweep-trial-2
trainjob/sweep-trial-3
trainjob/sweep-trial-4
OUT
"$bin" status sweep --watch >"$work/watch"
check "status --watch of a finished sweep: prints it once, exit 0" \
  bash -c "[ $? -eq 0 ] && [ \$(grep -c '^OptimizationJob sweep: Complete' '$work/watch') -eq 1 ]"
"$bin" status optimizationjob/nothere 2>"$work/err"
check "status optimizationjob/NAME of none: exit 1, kubectl's not found" \
  bash -c "[ $? -eq 1 ] && grep -q 'optimizationjob \"nothere\" not found in namespace \"$ns\"' '$work/err'"

# A trial whose Jobs are gone (only its Service is left) no longer runs.
kubectl delete job sweep-trial-3-node-0 --wait >/dev/null
"$bin" status sweep >"$work/status"
check "a trial whose Jobs are gone is Stopped, and says why" \
  bash -c "grep -qx 'OptimizationJob sweep: Complete (4 trials: 2 succeeded, 1 failed, 1 stopped)' '$work/status' &&
    grep -qE '^sweep-trial-3 +0.9 +Stopped +-$' '$work/status' &&
    grep -qx 'sweep-trial-3: its Jobs are gone (only its Service is left)' '$work/status'"

# A TrainJob of the sweep's name wins where no TYPE says which.
sed 's/^  name: trainjob-demo-with-image$/  name: sweep/' "$src/templates/image.yaml" >"$work/tj.yaml"
"$bin" submit -f "$work/tj.yaml" >/dev/null
"$bin" status sweep >"$work/tj-status"
check "status NAME: a TrainJob of that name wins over the sweep" grep -q '^TrainJob sweep: ' "$work/tj-status"
"$bin" status optimizationjob/sweep -o 'jsonpath={.status.result.trainJobName}' >"$work/best"
check "... and optimizationjob/NAME still names the sweep" diff <(printf 'sweep-trial-2') "$work/best"
"$bin" delete sweep --wait >"$work/delete" 2>/dev/null
check "delete NAME: the TrainJob alone" \
  bash -c "grep -qx 'job.batch \"sweep-node-0\" deleted' '$work/delete' && ! grep -q trial '$work/delete'"

"$bin" delete sweep --wait >"$work/delete" 2>"$work/delete.err"
check "delete NAME --wait of an OptimizationJob: exit 0" [ $? -eq 0 ]
check "... every object of every trial, named as delete names them" \
  bash -c "[ \$(grep -c '^job.batch \"sweep-trial-[124]-node-0\" deleted$' '$work/delete') -eq 3 ] &&
    [ \$(grep -c '^service \"sweep-trial-[1-4]\" deleted$' '$work/delete') -eq 4 ] &&
    [ \$(wc -l < '$work/delete') -eq 7 ]"
check "... saying which trials kubectl applied (not trial 2, which submit made)" \
  bash -c "[ \$(grep -c 'by the labels render writes' '$work/delete.err') -eq 3 ] && ! grep -q sweep-trial-2 '$work/delete.err'"
check "... nothing of the sweep is left, pods included (--wait waited for them)" \
  bash -c "[ -z \"\$(kubectl get jobs,services -l trainer.kubeflow.org/optimizationjob-name=sweep -o name)\" ] &&
    [ -z \"\$(kubectl get pods -o name)\" ]"
"$bin" status sweep 2>"$work/err"
check "status NAME after delete: exit 1, not found" \
  bash -c "[ $? -eq 1 ] && grep -q '\"sweep\" not found in namespace \"$ns\"' '$work/err'"
"$bin" delete optimizationjob/sweep 2>"$work/err"
check "delete optimizationjob/NAME of none: exit 1" \
  bash -c "[ $? -eq 1 ] && grep -q 'optimizationjob \"sweep\" not found' '$work/err'"
finish
