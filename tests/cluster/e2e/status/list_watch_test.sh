#!/bin/bash
# list as a kubectl user reaches for it, on the real control plane: -l (a label selector the
# API server applies to the TrainJobs' Jobs and Services), --no-headers, -w (the table, then
# a row for each change until interrupted); and submit --dry-run=client -o name printing the
# names the server dry run prints.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# alpha's runtime labels its Jobs team=vision (a replicated job's template labels reach its
# Job, as JobSet gives them); beta's do not. Both run for an hour unless ended.
one_step_trainjob alpha 1 '{test.kubectl-trainjob/duration: 1h}' |
  sed 's|^\( *\)trainer.kubeflow.org/trainjob-ancestor-step: trainer|&\n\1team: vision|' \
    >"$work/alpha.yaml"
one_step_trainjob beta 1 '{test.kubectl-trainjob/duration: 1h}' >"$work/beta.yaml"

"$bin" submit -f "$work/alpha.yaml" --dry-run=client -o name >"$work/client" 2>"$work/client.err"
"$bin" submit -f "$work/alpha.yaml" --dry-run=server -o name >"$work/server" 2>"$work/server.err"
check "submit --dry-run=client -o name prints names, as the server dry run" \
  diff "$work/server" "$work/client"
check "the names are kind.group/name" grep -qx 'job.batch/alpha-node-0' "$work/client"
"$bin" submit -f "$work/alpha.yaml" --dry-run >"$work/bare" 2>"$work/bare.err"
check "--dry-run alone is client, with kubectl's warning" bash -c "
  grep -qx 'kind: Job' '$work/bare' &&
  grep -qx 'warning: --dry-run is deprecated and can be replaced with --dry-run=client' '$work/bare.err'"
check "nothing was applied by the dry runs" [ -z "$(kubectl get jobs -o name)" ]

"$bin" submit -f "$work/alpha.yaml" >/dev/null
check "alpha's pod runs" eventually bash -c "[ \"\$(kubectl get pods -l trainer.kubeflow.org/trainjob-name=alpha -o jsonpath='{.items[*].status.phase}')\" = Running ]"

# -w: started now, it prints alpha's row, then one for each change.
"$bin" list -w >"$work/watch" 2>"$work/watch.err" &
watch_pid=$!
check "list -w prints the table first" eventually grep -qE '^alpha +TrainJob +Running ' "$work/watch"
"$bin" submit -f "$work/beta.yaml" >/dev/null
check "list -w prints a row for the TrainJob submitted since" eventually grep -qE '^beta +TrainJob ' "$work/watch"
end_pod "$(job_pod alpha-node-0)"
check "list -w prints alpha's row again once it completes" \
  eventually grep -qE '^alpha +TrainJob +Complete ' "$work/watch"
kill "$watch_pid"
wait "$watch_pid" 2>/dev/null
check "list -w printed its header once" [ "$(grep -c '^NAME ' "$work/watch")" -eq 1 ]
check "list -w printed no error" [ ! -s "$work/watch.err" ]

"$bin" list -l team=vision -o name >"$work/selected"
check "list -l selects by the Jobs' labels" diff <(echo trainjob/alpha) "$work/selected"
"$bin" list -l 'team notin (vision)' -o name >"$work/others"
check "list -l takes set-based selectors" diff <(echo trainjob/beta) "$work/others"
"$bin" list --selector=trainer.kubeflow.org/trainjob-name=beta --no-headers >"$work/plain"
check "list --no-headers: the rows alone" bash -c "
  [ \$(wc -l <'$work/plain') -eq 1 ] && grep -qE '^beta +TrainJob ' '$work/plain'"
"$bin" list -l app=nothing >"$work/none" 2>"$work/none.err"
check "list -l matching nothing says so, exit 0" bash -c "
  [ $? -eq 0 ] && [ ! -s '$work/none' ] && grep -qx 'No TrainJobs found in $ns namespace.' '$work/none.err'"
"$bin" list -l 'a in' 2>"$work/bad.err"
check "a malformed selector is the API server's error, exit 1" bash -c "
  [ $? -eq 1 ] && grep -q 'unable to parse requirement' '$work/bad.err'"
finish
