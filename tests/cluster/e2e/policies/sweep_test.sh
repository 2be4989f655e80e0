#!/bin/bash
# submit --wait of an OptimizationJob on the real control plane: the plugin drives the search,
# its trials' Jobs run under the real Job controller, at most parallelTrials at a time; each
# trial's metrics are read from rank 0's pod log (served by kwok: a watch here gives each
# rank-0 pod a log with a loss taken from its KUBEFLOW_TRAINER_OPT_TARGET, and makes trial 4
# fail). The search goes on past a failed trial and names the best; the same search again
# stops before starting unless --rerun runs every trial again; a random search without a
# seed gets one, recorded on the trials; a metric never reported (status then says the search
# stopped, and why), progress lines that are not JSON (named) and Ctrl-C end it, Ctrl-C
# deleting the running trials. (status and delete of a sweep: sweep_status_test.)
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# sweep NAME ALGORITHM PARAMETERS METRIC DURATION: 4 trials of 2 nodes, 2 at a time,
# minimising METRIC, with the runtime (in the same file) whose pods run for DURATION and
# are not retried.
sweep() {
  cat >"$work/$1.yaml" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: OptimizationJob
metadata:
  name: $1
spec:
  objectives:
    - metric: $4
  searchAlgorithm: $2
  numTrials: 4
  parallelTrials: 2
  parameters: $3
  trainJobTemplate:
    spec:
      runtimeRef:
        name: trial-$1
      trainer:
        numNodes: 2
YAML
  { echo ---; one_step_runtime "trial-$1" "{test.kubectl-trainjob/duration: $5}"; } >>"$work/$1.yaml"
}
# trial_log TRIAL TARGET: what the trial's rank 0 prints: its loss is its target, and comes
# last, after a line with accuracy only; trial 4 of the grid prints its loss alone.
trial_log() {
  # Python's print("TRAINJOB_PROGRESS", {...}): a dict, no JSON.
  case $1 in dict-*) printf "TRAINJOB_PROGRESS {'loss': %s}\n" "$2" "$2"; return ;; esac
  [ "$1" = grid-trial-4 ] || echo 'TRAINJOB_PROGRESS {"epoch": 1, "epochs": 1, "accuracy": 0.75}'
  echo "TRAINJOB_PROGRESS {\"loss\": $2}"
}
# serve_trial POD TRIAL TARGET: as a trial's rank-0 pod starts, kwok gets its log and, for
# grid-trial-4, makes it fail with exit code 3 once that is served.
serve_trial() {
  [ -n "${3:-}" ] || return 0
  pod_logs "$1" "$(trial_log "$2" "$3")"
  [ "$2" != grid-trial-4 ] || end_pod "$1" 3
}
on_new_pods batch.kubernetes.io/job-completion-index=0 \
  '{.metadata.labels.trainer\.kubeflow\.org/trainjob-name} {.spec.containers[0].env[?(@.name=="KUBEFLOW_TRAINER_OPT_TARGET")].value}' \
  serve_trial
# Every change of every Job, in order: which trials ran at once.
record_changes jobs

targets='[{name: target, searchSpace: {categorical: {choices: ["0.5", "0.2", "0.9", "0.1"]}}}]'
sweep grid '{grid: {}}' "$targets" loss 3s
"$bin" submit -f "$work/grid.yaml" >"$work/out" 2>"$work/err"
check "without --wait: a usage error naming --wait" \
  bash -c "[ $? -eq 2 ] && grep -q 'pass --wait to run the search' '$work/err'"
check "... creating nothing" bash -c "[ -z \"\$(kubectl get jobs,services -o name)\" ]"
"$bin" submit --wait -f "$work/grid.yaml" --trial-logs "$work/trial-logs" >"$work/out" 2>"$work/err"
check "submit --wait: exit 0 with a failed trial" [ $? -eq 0 ]
check "the failed trial is reported, the others succeed" bash -c "
  grep -q '^grid-trial-4: Failed: .*exit code 3' '$work/out' &&
  [ \$(grep -c '^grid-trial-[123]: Succeeded, loss ' '$work/out') -eq 3 ]"
check "never more than parallelTrials at once, by the plugin's account" awk '
  / started$/ { running++; if (running > most) most = running } /: (Succeeded|Failed)/ { running-- }
  END { exit !(most == 2) }' "$work/out"
check "... and by the Jobs: two unfinished at most, and two at some time" awk '
  $2 ~ /^grid-trial-/ { live[$2] = !/ (Complete|Failed)( |$)/; n = 0; for (j in live) n += live[j]
                        if (n > most) most = n }
  END { exit !(most == 2 && length(live) == 4) }' "$work/jobs.changes"
check "the metrics of each trial, read from its rank 0's log" \
  grep -qE '^grid-trial-3 +0.9 +Succeeded +0.9$' "$work/out"
check "... a failed trial's too, as far as it got (lower than the best's, yet not the best)" \
  grep -qE '^grid-trial-4 +0.1 +Failed +0.1$' "$work/out"
check "the best: the lowest loss among the trials that succeeded" \
  grep -qx 'best: grid-trial-2 (target=0.2): loss 0.2 (Minimize)' "$work/out"
check "--trial-logs: each trial's submit output" grep -q 'TrainJob grid-trial-1: Complete' "$work/trial-logs/grid-trial-1.log"
check "the Job controller ran each trial: 4 Jobs, one Failed by its backoff limit" bash -c "
  [ \"\$(kubectl get jobs -l trainer.kubeflow.org/optimizationjob-name=grid \
      -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[-1].type} {.status.conditions[-1].reason}{\"\n\"}{end}')\" = \
    \"\$(printf 'grid-trial-1-node-0 Complete CompletionsReached\ngrid-trial-2-node-0 Complete CompletionsReached\ngrid-trial-3-node-0 Complete CompletionsReached\ngrid-trial-4-node-0 Failed BackoffLimitExceeded')\" ]"
"$bin" status grid >"$work/grid.status"
check "status NAME later: the same best" grep -qx 'best: grid-trial-2 (target=0.2): loss 0.2 (Minimize)' "$work/grid.status"

# The same search again: its trials exist and have finished, and a search would only read
# their old results (under "started" lines): it stops before starting, naming --rerun.
uids() { kubectl get jobs -l trainer.kubeflow.org/optimizationjob-name=grid -o jsonpath='{.items[*].metadata.uid}'; }
before=$(uids)
"$bin" submit --wait -f "$work/grid.yaml" >"$work/again.out" 2>"$work/again.err"
check "again without --rerun: exit 1" [ $? -eq 1 ]
check "... saying what exists and that --rerun runs it again" grep -q \
  '^error: OptimizationJob grid: the trials of an earlier search exist (4 trials: 3 succeeded, 1 failed), and this search would only read their old results again: pass --rerun to delete them and run every trial again .*; nothing was started$' "$work/again.err"
check "... no trial shown as started, no best" bash -c "! grep -q 'started\|best:' '$work/again.out'"
check "... the Jobs are those of the first search" [ "$(uids)" = "$before" ]
"$bin" submit --wait --rerun -f "$work/grid.yaml" >"$work/rerun.out" 2>"$work/rerun.err"
check "--rerun: exit 0" [ $? -eq 0 ]
check "... the earlier trials deleted first" \
  grep -qx 'OptimizationJob grid: 4 trials of an earlier search deleted (--rerun)' "$work/rerun.out"
check "... every trial ran again: four new Jobs, the same best" bash -c "
  [ \$(grep -c '^grid-trial-[1-4] (target=[0-9.]*): started$' '$work/rerun.out') -eq 4 ] &&
  grep -qx 'best: grid-trial-2 (target=0.2): loss 0.2 (Minimize)' '$work/rerun.out' &&
  now=\$(kubectl get jobs -l trainer.kubeflow.org/optimizationjob-name=grid -o jsonpath='{.items[*].metadata.uid}') &&
  [ \$(echo \$now | wc -w) -eq 4 ] && for u in $before; do case \" \$now \" in *\" \$u \"*) exit 1 ;; esac; done"

# A random search without a seed: one is picked, printed and recorded on every trial.
sweep rnd '{random: {}}' '[{name: target, searchSpace: {uniform: {min: "0.1", max: "0.9"}}}]' loss 2s
"$bin" submit --wait -f "$work/rnd.yaml" >"$work/rnd.out" 2>"$work/rnd.err"
check "random without a seed: exit 0" [ $? -eq 0 ]
seed=$(sed -n 's/.*, seed \([0-9]*\) (picked: .*/\1/p' "$work/rnd.out")
check "the picked seed is printed" test -n "$seed"
check "... and recorded on the trials" bash -c "
  [ \"\$(kubectl get jobs -l trainer.kubeflow.org/optimizationjob-name=rnd \
      -o jsonpath='{.items[*].metadata.annotations.kubectl-trainjob/optimization-seed}')\" = '$seed $seed $seed $seed' ]"
"$bin" render -f "$work/rnd.yaml" --seed "$seed" --trial 3 >"$work/trial3.yaml"
value=$(sed -n 's/.*optimization-parameters: .{"target":"\([0-9.]*\)"}.*/\1/p' "$work/trial3.yaml" | head -1)
# (the loss, that value as its pod got it, is printed to 6 digits)
check "render --seed SEED draws the same trial 3, whose pod got that value" bash -c "
  [ -n '$value' ] && grep -qE '^rnd-trial-3 +$value +Succeeded +$(printf %g "$value")\$' '$work/rnd.out'"

# An objective no trial reports ends the search after the first trial, naming what was.
sweep f1 '{grid: {}}' "$targets" f1 2s
"$bin" submit --wait -f "$work/f1.yaml" >"$work/f1.out" 2>"$work/f1.err"
check "a metric never reported: exit 1" [ $? -eq 1 ]
check "... naming the metrics reported" \
  grep -q 'error: the objective metric "f1" was not reported by f1-trial-[12], which succeeded; it reported accuracy, loss' "$work/f1.err"
check "... no other trial started" bash -c "! grep -q 'f1-trial-3 (' '$work/f1.out' && ! kubectl get job f1-trial-3-node-0 >/dev/null 2>&1"

"$bin" status f1 >"$work/f1.status"
check "status of the stopped search: Stopped, not Complete, and why" bash -c "
  grep -qEx 'OptimizationJob f1: Stopped \(4 trials: [12] succeeded, [23] not created\)' '$work/f1.status' &&
  grep -q '^The search stopped: the objective metric \"f1\" was not reported by f1-trial-' '$work/f1.status'"
check "... read from what the search recorded on its trials" bash -c "
  kubectl get services -l trainer.kubeflow.org/optimizationjob-name=f1 \
    -o jsonpath='{.items[*].metadata.annotations.kubectl-trainjob/optimization-stopped}' |
  grep -q 'the objective metric \"f1\" was not reported'"

# Progress lines that are not JSON (a Python dict): the error counts them and shows the first.
sweep dict '{grid: {}}' "$targets" loss 2s
"$bin" submit --wait -f "$work/dict.yaml" >"$work/dict.out" 2>"$work/dict.err"
check "progress lines that are not JSON: exit 1" [ $? -eq 1 ]
check "... the error counts them and shows the first, from the pod's log" grep -q \
  "error: the objective metric \"loss\" was not reported by dict-trial-[12], which succeeded without reporting any metric; 2 TRAINJOB_PROGRESS lines were not JSON: {'loss': 0\.[52]}" "$work/dict.err"
"$bin" status dict >"$work/dict.status"
check "... and status names them for each trial" \
  grep -q "^dict-trial-[12]: 2 TRAINJOB_PROGRESS lines were not JSON: {'loss': " "$work/dict.status"

# Ctrl-C: the running trials are deleted, the rest never created.
sweep slow '{grid: {}}' "$targets" loss 1h
"$bin" submit --wait -f "$work/slow.yaml" >"$work/slow.out" 2>"$work/slow.err" &
plugin=$!
two_running() {
  [ "$(kubectl get pods -l trainer.kubeflow.org/trainjob-name -o jsonpath='{range .items[*]}{.metadata.labels.trainer\.kubeflow\.org/trainjob-name} {.status.phase}{"\n"}{end}' |
    grep -c '^slow-trial-[12] Running$')" = 4 ]
}
check "two trials run, two pods each" eventually two_running
"$bin" status slow >"$work/status"
check "status while it runs: the trials not created yet are counted" \
  grep -qx 'OptimizationJob slow: Running (4 trials: 2 running, 2 not created)' "$work/status"
kill -INT $plugin
wait $plugin
check "Ctrl-C: exit 130" [ $? -eq 130 ]
check "Ctrl-C: the running trials Stopped, the others Waiting" bash -c "
  grep -qE '^slow-trial-1 +0.5 +Stopped' '$work/slow.out' && grep -qE '^slow-trial-4 +0.1 +Waiting' '$work/slow.out'"
none_left() {
  [ -z "$(kubectl get jobs,services -l trainer.kubeflow.org/optimizationjob-name=slow -o name)" ] &&
    [ -z "$(kubectl get pods -o name | grep '^pod/slow-trial-')" ]
}
check "Ctrl-C: nothing of the sweep is left, pods included" eventually none_left
check "... and no trial after the second was ever created" bash -c "[ -n '$(first_change "$work/jobs.changes" '^slow-trial-2-')' ] &&
  [ -z '$(first_change "$work/jobs.changes" '^slow-trial-[34]-')' ]"
finish
