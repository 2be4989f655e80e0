#!/usr/bin/env bash
# A 50 MB stream of TrainJobs validates and renders completely: no crash, no hang, and
# the findings of the last documents point at the right lines.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

# 60,000 copies of the image-mode seed, each with its own name (about 50 MB).
trainjob_stream 60000 large '
  trainer:
    image: registry.example.com/team/trainer:%d
    numNodes: 2
    numProcPerNode: 2
    resourcesPerNode:
      requests:
        cpu: "2"
        memory: 8Gi
      limits:
        cpu: "2"
        memory: 8Gi
    env:
      - name: RUN
        value: "%d"
      - name: NOTES
        value: "%0480d"
' >"$work/large.yaml"
check "the input is at least 50 MB" test "$(stat -c %s "$work/large.yaml")" -ge 50000000
"$binary" validate -f "$work/large.yaml" >"$work/report" 2>&1
check "validate accepts 60,000 TrainJobs" test $? -eq 0
check "validate reports no problems" grep -qx "no problems found" "$work/report"
"$binary" render -f "$work/large.yaml" >"$work/rendered.yaml" 2>"$work/err"
check "render compiles them all" test "$(grep -c '^kind: Job$' "$work/rendered.yaml")" -eq 60000
# A mistake in the very last document is found at its own line.
lines=$(wc -l <"$work/large.yaml")
sed -i '$ s/value: "0*59999"/value: 59999/' "$work/large.yaml"
"$binary" validate -f "$work/large.yaml" >"$work/report" 2>&1
check "a mistake in the last document fails validation" test $? -eq 1
check "and is reported at its line" grep -q "large.yaml:$lines:[0-9]*: error: spec.trainer.env\[1\].value" "$work/report"
finish
