#!/usr/bin/env bash
# A 6-trial, 2-parallel sweep of the C++ trainer's learning rate under run --local: the
# trainer reads KUBEFLOW_TRAINER_OPT_LR, reports its loss, and the best trial the plugin names
# is the one whose own log ends with the lowest loss.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

cat >"$work/sweep.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: OptimizationJob
metadata:
  name: lr
spec:
  objectives:
    - metric: loss
  searchAlgorithm:
    grid: {}
  numTrials: 6
  parallelTrials: 2
  parameters:
    - name: lr
      searchSpace:
        categorical:
          choices: ["0.001", "0.01", "0.03", "0.1", "0.2", "0.35"]
  trainJobTemplate:
    spec:
      runtimeRef:
        name: cpp-trainer
      trainer:
        numNodes: 1
        numProcPerNode: 1
        env:
          - name: TRAINER_EPOCHS
            value: "3"
YAML
"$binary" run --local -f "$work/sweep.yaml" --trial-logs "$work/logs" --timeout 5m \
  >"$work/out" 2>"$work/err"
check "sweep: exit 0" test $? -eq 0
check "six trials succeeded" test "$(grep -c '^lr-trial-[1-6]  .*Succeeded' "$work/out")" -eq 6
for k in 1 2 3 4 5 6; do
  grep -o '"loss":[0-9.e-]*' "$work/logs/lr-trial-$k.log" | tail -1 | cut -d: -f2 |
    sed "s/^/lr-trial-$k /" >>"$work/final"
done
check "each trial's log reports a final loss" test "$(wc -l <"$work/final")" -eq 6
check "the learning rate reached the trainer: the losses differ" \
  test "$(cut -d' ' -f2 "$work/final" | sort -u | wc -l)" -eq 6
lowest=$(sort -g -k2 "$work/final" | head -1 | cut -d' ' -f1)
check "the best trial is the lowest final loss in the trials' logs" \
  grep -q "^best: $lowest (lr=[0-9.]*): loss " "$work/out"
check "the table shows that loss for it" \
  grep -q "^$lowest .* Succeeded  *$(sort -g -k2 "$work/final" | head -1 | cut -d' ' -f2)\$" "$work/out"
finish
