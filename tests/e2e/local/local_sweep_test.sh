#!/usr/bin/env bash
# run --local of an OptimizationJob with trials that are shell commands: at most
# parallelTrials at a time, the objective read from TRAINJOB_PROGRESS lines (ours and
# upstream's metrics shape), Maximize, a failed trial that does not stop the search, a metric
# no trial reports, a picked seed that --seed draws again, --trial, Ctrl-C, and the inputs
# a search cannot take. (The C++ trainer's sweep: local_sweep_trainer_test.)
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

# sweep FILE NAME ALGORITHM PARAMETERS COMMAND [METRIC] [DIRECTION] [TRIALS] [PARALLEL]:
# an OptimizationJob on a one-container runtime whose command is COMMAND (a YAML list).
sweep() {
  {
    local_runtime sweep-case "$5"
    cat <<YAML
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: OptimizationJob
metadata:
  name: $2
spec:
  objectives:
    - metric: ${6:-score}
      direction: ${7:-Maximize}
  searchAlgorithm: $3
  numTrials: ${8:-4}
  parallelTrials: ${9:-2}
  parameters: $4
  trainJobTemplate:
    spec:
      runtimeRef:
        name: sweep-case
YAML
  } >"$1"
}

# Each trial notes when it starts and ends, so the test can count how many ran at once.
score='["sh", "-c", "echo start >> '"$work"'/events; sleep 1; [ $KUBEFLOW_TRAINER_OPT_X != bad ] || { echo end >> '"$work"'/events; echo error: bad x >&2; exit 3; }; echo \"TRAINJOB_PROGRESS {\\\"epoch\\\": 1, \\\"score\\\": $KUBEFLOW_TRAINER_OPT_X}\"; echo end >> '"$work"'/events"]'
grid='[{name: x, searchSpace: {categorical: {choices: ["1", "7", "bad", "3", "5"]}}}]'
sweep "$work/grid.yaml" grid '{grid: {}}' "$grid" "$score" score Maximize 5 2
"$binary" run --local -f "$work/grid.yaml" --trial-logs "$work/logs" >"$work/out" 2>"$work/err"
check "grid: exit 0 with a failed trial" test $? -eq 0
check "the failed trial is reported with its error" \
  grep -q '^grid-trial-3: Failed: pod grid-trial-3-node-0-0-local (node-0), container node, failed with exit status 3 ' "$work/out"
check "the trial's own error in its log" grep -q 'error: bad x' "$work/logs/grid-trial-3.log"
check "the search goes on after it" grep -q '^grid-trial-5: Succeeded, score 5' "$work/out"
check "a warning counts the failed trials" grep -qx 'warning: 1 of 5 trials failed' "$work/err"
check "the best by Maximize" grep -qx 'best: grid-trial-2 (x=7): score 7 (Maximize)' "$work/out"
check "the table: a row per trial" bash -c "
  grep -q '^TRIAL  *X  *STATE  *SCORE$' '$work/out' &&
  grep -q '^grid-trial-3  *bad  *Failed  *-$' '$work/out' &&
  grep -q '^grid-trial-4  *3  *Succeeded  *3$' '$work/out'"
check "never more than parallelTrials at once" awk '
  /start/ { running++; if (running > most) most = running } /end/ { running-- }
  END { exit !(most == 2) }' "$work/events"
check "--trial-logs: each trial's output in its file" \
  grep -q 'TRAINJOB_PROGRESS {"epoch": 1, "score": 7}' "$work/logs/grid-trial-2.log"

# On a terminal (a pty from util-linux's script, where it exists) the table is redrawn in
# place instead of a line per start and end.
if script -qc true /dev/null >/dev/null 2>&1; then
  TERM=xterm script -qec "'$binary' run --local -f '$work/grid.yaml'" /dev/null </dev/null >"$work/tty" 2>&1
  check "terminal: the table is redrawn in place" grep -q $'\033\[[0-9]*A\033\[J' "$work/tty"
  check "terminal: no line per start" bash -c "! grep -q ': started' '$work/tty'"
  check "terminal: the failed trial still has its line" grep -q 'grid-trial-3: Failed: pod' "$work/tty"
  check "terminal: the best at the end" grep -q 'best: grid-trial-2 (x=7): score 7' "$work/tty"
fi

# Minimize, upstream's metrics shape, a random search without a seed: one is picked.
upstream='["sh", "-c", "echo \"TRAINJOB_PROGRESS {\\\"trainerStatus\\\": {\\\"metrics\\\": [{\\\"name\\\": \\\"loss\\\", \\\"value\\\": \\\"$KUBEFLOW_TRAINER_OPT_LR\\\"}]}}\""]'
random='[{name: lr, searchSpace: {logUniform: {min: "0.001", max: "1"}}}]'
sweep "$work/random.yaml" rnd '{random: {}}' "$random" "$upstream" loss Minimize 3 3
"$binary" run --local -f "$work/random.yaml" >"$work/out" 2>"$work/err"
check "random without a seed: exit 0" test $? -eq 0
seed=$(sed -n 's/.*seed \([0-9]*\) (picked: pass --seed [0-9]* to draw these trials again)$/\1/p' "$work/out")
check "the picked seed is printed" test -n "$seed"
best=$(grep '^best: ' "$work/out")
check "the best is the lowest of upstream's metrics" /usr/bin/python3 -c "
import re, sys
rows = [l.split() for l in open('$work/out') if l.startswith('rnd-trial-')and 'Succeeded' in l and '(' not in l]
low = min(rows, key=lambda r: float(r[3]))
assert '$best'.startswith('best: %s (lr=%s): loss %s' % (low[0], low[1], low[1])), ('$best', rows)"
"$binary" run --local -f "$work/random.yaml" --seed "$seed" >"$work/again" 2>&1
check "--seed draws the same trials again" \
  test "$(grep '^rnd-trial-' "$work/again" | grep -v ':' | sort)" = "$(grep '^rnd-trial-' "$work/out" | grep -v ':' | sort)"
"$binary" render -f "$work/random.yaml" --seed "$seed" --trial 2 >"$work/trial2.yaml"
check "the trials record the seed" grep -q "kubectl-trainjob/optimization-seed: '$seed'" "$work/trial2.yaml"

# --trial K runs that trial alone, as the TrainJob it is.
"$binary" run --local -f "$work/grid.yaml" --trial 4 >"$work/out" 2>&1
check "--trial: one trial, exit 0" test $? -eq 0
check "--trial: its value" grep -q '"score": 3}' "$work/out"
check "--trial: no search" bash -c "! grep -q '^best:' '$work/out'"

# A metric no trial reports ends the search, naming those that were.
sweep "$work/missing.yaml" missing '{grid: {}}' "$grid" "$score" accuracy Maximize 5 1
"$binary" run --local -f "$work/missing.yaml" >"$work/out" 2>"$work/err"
check "a metric never reported: exit 1" test $? -eq 1
check "it names the metrics reported" grep -q \
  'error: the objective metric "accuracy" was not reported by missing-trial-1, which succeeded; it reported score: set spec.objectives\[0\].metric to one of them' "$work/err"
check "no trial starts after that" bash -c "! grep -q 'missing-trial-2 (' '$work/out'"
check "and no second error" test "$(grep -c error: "$work/err")" -eq 1

# Python's print("TRAINJOB_PROGRESS", {...}) prints a dict, no JSON: the error counts those
# lines and shows the first, rather than saying that none was printed; `run --local --trial`
# warns of them too. One trial: "1 trial", not "1 trials".
dict='["sh", "-c", "for l in 0.3 0.2 0.1; do echo \"TRAINJOB_PROGRESS {'"'"'loss'"'"': $l}\"; done"]'
sweep "$work/dict.yaml" dict '{grid: {}}' "$grid" "$dict" loss Minimize 1 1
"$binary" run --local -f "$work/dict.yaml" >"$work/out" 2>"$work/err"
check "progress lines that are not JSON: exit 1" test $? -eq 1
check "... the error counts them and shows the first" grep -q \
  "error: the objective metric \"loss\" was not reported by dict-trial-1, which succeeded without reporting any metric; 3 TRAINJOB_PROGRESS lines were not JSON: {'loss': 0.3} (a program prints json.dumps of its dict" "$work/err"
check "one trial is \"1 trial\"" grep -q '^OptimizationJob dict: 1 trial, 1 at a time' "$work/out"
"$binary" run --local -f "$work/dict.yaml" --trial 1 >"$work/out" 2>"$work/err"
check "--trial: the run warns of them before its summary" bash -c "
  grep -q \"^warning: 3 TRAINJOB_PROGRESS lines were not JSON: {'loss': 0.3} \" '$work/err' &&
  tail -1 '$work/err' | grep -q '^succeeded: '"

# Ctrl-C: the running trials are stopped, their processes gone, the rest never started.
slow='["sh", "-c", "echo $$ >> '"$work"'/pids; sleep 30"]'
sweep "$work/slow.yaml" slow '{grid: {}}' "$grid" "$slow" score Maximize 5 2
"$binary" run --local -f "$work/slow.yaml" >"$work/out" 2>"$work/err" &
plugin=$!
for _ in $(seq 100); do [ "$(wc -l 2>/dev/null <"$work/pids")" = 2 ] && break; sleep 0.1; done
kill -INT $plugin
wait $plugin
check "Ctrl-C: exit 130" test $? -eq 130
check "Ctrl-C: the running trials stopped" bash -c "
  grep -q '^slow-trial-1: Stopped' '$work/out' && grep -q '^slow-trial-2: Stopped' '$work/out'"
check "Ctrl-C: the others never started" bash -c "
  ! grep -q 'slow-trial-3 (' '$work/out' && grep -q '^slow-trial-5  *5  *Waiting  *-$' '$work/out'"
check "Ctrl-C: no trial process left" bash -c "! kill -0 \$(cat '$work/pids') 2>/dev/null"

# What a search cannot take: stdin (each trial reads the inputs again), other TrainJobs.
"$binary" run --local -f - <"$work/grid.yaml" >"$work/out" 2>"$work/err"
check "stdin: exit 1" test $? -eq 1
check "stdin: says why" grep -q 'give them as files (-f FILE), not on stdin' "$work/err"
{ cat "$work/grid.yaml"; printf -- '---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: other\nspec:\n  runtimeRef:\n    name: sweep-case\n'; } >"$work/both.yaml"
"$binary" run --local -f "$work/both.yaml" >"$work/out" 2>"$work/err"
check "with a TrainJob: exit 1" test $? -eq 1
check "with a TrainJob: says why" grep -q 'an OptimizationJob runs alone' "$work/err"
finish
