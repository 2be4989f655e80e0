#!/bin/bash
# submit of a file that holds only a runtime: nothing is applied, and the error says why
# (a runtime is compiled into the TrainJobs client-side, never applied) and how to pass it.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane

"$bin" submit -f "$src/runtimes/training-runtime-demo.yaml" >"$work/out" 2>"$work/err"
check "submit of a runtime alone: exit 1" [ $? -eq 1 ]
check "... saying the inputs hold no TrainJob, only runtimes" \
  grep -q "^error: the inputs hold no TrainJob .* to submit; only runtimes, and" "$work/err"
check "... that runtimes are compiled in client-side" grep -q "compiled, client-side" "$work/err"
check "... and how to pass one: -f next to the TrainJob, or --runtimes DIR" \
  grep -q -- "-f runtime.yaml -f trainjob.yaml), or put it in a directory given with --runtimes DIR" \
  "$work/err"
check "... and nothing was created in the namespace" \
  test -z "$(kubectl get jobs,services,configmaps -o name |
    grep -v kube-root-ca.crt)"
finish
