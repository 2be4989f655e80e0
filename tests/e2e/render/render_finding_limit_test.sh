#!/usr/bin/env bash
# render prints at most the first 1,000 findings of the sorted report and counts the rest
# in one line, so that a stream with a finding in every TrainJob keeps a flat memory; an
# error past the limit still fails the render and prints nothing on stdout.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

# N TrainJobs, each mounting a ConfigMap that is not among the inputs (one warning each).
stream() {
  trainjob_stream "$1" limit '
  trainer:
    numNodes: 1
  podTemplateOverrides:
    - targetJobs:
        - name: node
      spec:
        volumes:
          - name: code
            configMap:
              name: script-%d
'
}
warnings() { grep -c ': warning: ' "$1"; }

stream 900 >"$work/900.yaml"
"$binary" render -f "$work/900.yaml" >"$work/out" 2>"$work/err"
check "900 findings: exit 0" test $? -eq 0
check "all 900 shown" test "$(warnings "$work/err")" -eq 900
check "and no count of the rest" test "$(grep -c '^note:' "$work/err")" -eq 0

stream 1500 >"$work/1500.yaml"
"$binary" render -f "$work/1500.yaml" >"$work/out" 2>"$work/err"
check "1,500 findings: exit 0" test $? -eq 0
check "every TrainJob is printed" test "$(grep -c '^kind: Job$' "$work/out")" -eq 1500
check "the first 1,000 are shown" test "$(warnings "$work/err")" -eq 1000
check "in report order: the 1,000th TrainJob's is the last shown" \
  grep -q 'ConfigMap "script-999" is not among' "$work/err"
check "the 1,001st's is not" test "$(grep -c 'ConfigMap "script-1000" is not' "$work/err")" -eq 0
check "the rest are counted in the last line" test "$(tail -n 1 "$work/err")" = \
  "note: 500 more warnings not shown; only the first 1,000 findings are printed"

# An error in the last TrainJob, far past the limit: shown ahead of the warnings, and fatal.
stream 1500 | awk -v last="$(grep -c '^---$' "$work/1500.yaml")" \
  '/^---$/ { doc++ } { if (doc == last) sub(/numNodes: 1/, "numNodes: \"x\"") } 1' >"$work/bad.yaml"
"$binary" render -f "$work/bad.yaml" >"$work/out" 2>"$work/err"
check "an error past the limit fails" test $? -eq 1
check "and prints nothing" test ! -s "$work/out"
# (the rejected TrainJob is not compiled, so its ConfigMap is not looked at: 499 warnings)
check "the error is shown" grep -q 'error: .*numNodes' "$work/err"
check "the count names the warnings it displaced" test "$(tail -n 1 "$work/err")" = \
  "note: 500 more warnings not shown; only the first 1,000 findings are printed"
cat "$work/bad.yaml" | "$binary" render -o json -f - >"$work/out" 2>/dev/null
check "the same from a pipe, -o json" test $? -eq 1 -a ! -s "$work/out"
finish
