#!/bin/bash
# submit --wait of an OptimizationJob against the test API server, whose autopilot plays the
# trials: each prints its loss from KUBEFLOW_TRAINER_OPT_TARGET. The search runs at most
# parallelTrials at a time, reads every trial's metrics from rank 0's log, goes on past a
# failed trial, names the best; a random search without a seed gets one, recorded on the
# trials; a metric never reported and Ctrl-C end it, Ctrl-C deleting the running trials.
# (status and delete of a sweep: cluster_sweep_status_test.)
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
# sweep NAME ALGORITHM PARAMETERS [METRIC]: 4 trials, 2 at a time, minimising METRIC (loss).
sweep() {
  cat > "$work/$1.yaml" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: OptimizationJob
metadata:
  name: $1
spec:
  objectives:
    - metric: ${4:-loss}
  searchAlgorithm: $2
  numTrials: 4
  parallelTrials: 2
  parameters: $3
  trainJobTemplate:
    spec:
      runtimeRef:
        name: cpp-trainer
YAML
}
targets='[{name: target, searchSpace: {categorical: {choices: ["0.5", "0.2", "0.9", "0.1"]}}}]'
sweep grid '{grid: {}}' "$targets"
# Trial 4 has the lowest loss but fails; the loss of every trial comes last, after a line
# with accuracy only.
cat > "$work/rules.json" <<'JSON'
{"rules": [
 {"job": "^grid-trial-4-", "after": 0.3, "result": "Failed", "exit_code": 3,
  "print": ["TRAINJOB_PROGRESS {\"loss\": {env:KUBEFLOW_TRAINER_OPT_TARGET}}"]},
 {"job": "^(grid|rnd)-trial-", "after": 0.3,
  "print": ["TRAINJOB_PROGRESS {\"epoch\": 1, \"epochs\": 1, \"accuracy\": 0.75}",
            "TRAINJOB_PROGRESS {\"loss\": {env:KUBEFLOW_TRAINER_OPT_TARGET}}"]},
 {"job": "^slow-trial-", "after": 600}]}
JSON
ctl autopilot @"$work/rules.json" > /dev/null

"$bin" submit -f "$work/grid.yaml" > "$work/out" 2> "$work/err"
check "without --wait: a usage error naming --wait" \
  bash -c "[ $? -eq 2 ] && grep -q 'pass --wait to run the search' '$work/err'"
"$bin" submit --wait -f "$work/grid.yaml" --trial-logs "$work/logs" > "$work/out" 2> "$work/err"
check "submit --wait: exit 0 with a failed trial" [ $? -eq 0 ]
check "the failed trial is reported, the others succeed" bash -c "
  grep -q '^grid-trial-4: Failed: ' '$work/out' &&
  [ \$(grep -c '^grid-trial-[123]: Succeeded, loss ' '$work/out') -eq 3 ]"
check "never more than parallelTrials at once" awk '
  / started$/ { running++; if (running > most) most = running } /: (Succeeded|Failed)/ { running-- }
  END { exit !(most == 2) }' "$work/out"
check "the metrics of each trial, read from its pod's log" \
  grep -qE '^grid-trial-3 +0.9 +Succeeded +0.9$' "$work/out"
check "the best: the lowest loss among the trials that succeeded" \
  grep -qx 'best: grid-trial-2 (target=0.2): loss 0.2 (Minimize)' "$work/out"
check "--trial-logs: each trial's submit output" grep -q 'TrainJob grid-trial-1: Complete' "$work/logs/grid-trial-1.log"
"$bin" status grid > "$work/status"
check "status NAME later: the same best" grep -qx 'best: grid-trial-2 (target=0.2): loss 0.2 (Minimize)' "$work/status"

# A random search without a seed: one is picked, printed and recorded on every trial.
sweep rnd '{random: {}}' '[{name: target, searchSpace: {uniform: {min: "0.1", max: "0.9"}}}]'
"$bin" submit --wait -f "$work/rnd.yaml" > "$work/out" 2> "$work/err"
check "random without a seed: exit 0" [ $? -eq 0 ]
seed=$(sed -n 's/.*, seed \([0-9]*\) (picked: .*/\1/p' "$work/out")
check "the picked seed is printed" test -n "$seed"
check "... and recorded on the trials" bash -c "
  [ \"\$(kubectl get jobs -l trainer.kubeflow.org/optimizationjob-name=rnd \
      -o jsonpath='{.items[*].metadata.annotations.kubectl-trainjob/optimization-seed}')\" = '$seed $seed $seed $seed' ]"
"$bin" render -f "$work/rnd.yaml" --seed "$seed" --trial 3 > "$work/trial3.yaml"
value=$(sed -n 's/.*optimization-parameters: .{"target":"\([0-9.]*\)"}.*/\1/p' "$work/trial3.yaml" | head -1)
check "render --seed SEED draws the same trial 3" grep -qE "^rnd-trial-3 +$value +Succeeded" "$work/out"

# An objective no trial reports ends the search after the first trial, naming what was.
sweep f1 '{grid: {}}' "$targets" f1
sed -i 's/\^(grid|rnd)/^(grid|rnd|f1)/' "$work/rules.json"
ctl autopilot @"$work/rules.json" > /dev/null
"$bin" submit --wait -f "$work/f1.yaml" > "$work/out" 2> "$work/err"
check "a metric never reported: exit 1" [ $? -eq 1 ]
check "... naming the metrics reported" \
  grep -q 'error: the objective metric "f1" was not reported by f1-trial-[12], which succeeded; it reported accuracy, loss' "$work/err"
check "... no other trial started" bash -c "! grep -q 'f1-trial-3 (' '$work/out'"

# Ctrl-C: the running trials are deleted, the rest never created.
sweep slow '{grid: {}}' "$targets"
"$bin" submit --wait -f "$work/slow.yaml" > "$work/out" 2> "$work/err" &
plugin=$!
two_running() { [ "$(kubectl get jobs -l trainer.kubeflow.org/optimizationjob-name=slow -o name | wc -l)" = 2 ]; }
check "two trials run" eventually two_running
"$bin" status slow > "$work/status"
check "status while it runs: the trials not created yet are counted" \
  grep -qx 'OptimizationJob slow: Running (4 trials: 2 running, 2 not created)' "$work/status"
kill -INT $plugin
wait $plugin
check "Ctrl-C: exit 130" [ $? -eq 130 ]
check "Ctrl-C: the running trials Stopped, the others Waiting" bash -c "
  grep -qE '^slow-trial-1 +0.5 +Stopped' '$work/out' && grep -qE '^slow-trial-4 +0.1 +Waiting' '$work/out'"
none_left() { [ -z "$(kubectl get jobs,services -l trainer.kubeflow.org/optimizationjob-name=slow -o name)" ]; }
check "Ctrl-C: nothing of the sweep is left" eventually none_left
finish
