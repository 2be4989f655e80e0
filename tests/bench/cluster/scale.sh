#!/bin/bash
# The cluster commands at scale, on the real control plane (never pass/fail):
#   tests/bench/cluster/scale.sh [BUILD_DIR] [NODES]     (NODES defaults to 1000)
# starts its own control plane with NODES kwok nodes, submits a TrainJob of NODES nodes and
# waits for it to complete, then times `status`, `list`, `logs` (the first lines of every pod)
# and `delete`, each beside what kubectl does for the same: `kubectl get pods -l SELECTOR` and
# `kubectl logs -l SELECTOR --prefix --max-log-requests=NODES`. For each: wall time, the API
# requests it made (the API server's audit log, by user agent; list requests apart) and its
# peak memory. Prints one markdown table.
set -uo pipefail
src=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$src/build}
nodes=${2:-1000}
bin=$build/kubectl-trainjob
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
unset TRAINJOB_CLUSTER  # a control plane of its own, stopped at exit
echo "starting a control plane with $nodes nodes..." >&2
NODES=$nodes use_control_plane

# The image-mode template, NODES nodes; each pod runs 1 s.
sed -e "s/numNodes: 2/numNodes: $nodes/" -e "s/name: trainjob-demo-with-image/name: wide/" \
  "$src/templates/image.yaml" >"$work/wide.yaml"
cat >>"$work/wide.yaml" <<'YAML'
  podTemplateOverrides:
    - targetJobs: [{name: node}]
      metadata:
        annotations: {test.kubectl-trainjob/duration: 1s}
YAML
selector=trainer.kubeflow.org/trainjob-name=wide

rows=()
# measure LABEL AGENT COMMAND...: runs COMMAND once, output to $work/out; a row of the table.
measure() {
  local label=$1 agent=$2
  shift 2
  audit_mark
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f %M -o "$work/rss" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  end=$(date +%s.%N)
  sleep 1  # the audit log is written as each request completes
  local requests lists
  requests=$(audit_requests "$agent" | grep -vc '^watch ')
  lists=$(audit_requests "$agent" | grep -c '^list ')
  rows+=("| $label | $(awk "BEGIN {printf \"%.2f\", $end - $start}") | $requests | $lists | $(($(cat "$work/rss") / 1024)) | $rc |")
}

measure "submit --wait (to Complete)" kubectl-trainjob/ "$bin" submit -f "$work/wide.yaml" --wait --timeout 30m
measure "status" kubectl-trainjob/ "$bin" status wide
measure "kubectl get pods -l" kubectl/ kubectl get pods -l "$selector"
measure "list" kubectl-trainjob/ "$bin" list
# kwok serves a pod's log once a Logs object names the pod: one each, in one apply.
kubectl get pods -l "$selector" -o name | cut -d/ -f2 | while read -r pod; do
  echo "training log of $pod" | cri_lines >"$work/logs-$pod.log"
  printf -- '---\napiVersion: kwok.x-k8s.io/v1alpha1\nkind: Logs\nmetadata: {name: %s}\nspec: {logs: [{containers: [], logsFile: %s}]}\n' \
    "$pod" "$work/logs-$pod.log"
done >"$work/logs.yaml"
kubectl apply -f "$work/logs.yaml" >/dev/null
sleep 2
measure "logs (every pod)" kubectl-trainjob/ "$bin" logs wide
logs_lines=$(grep -c "training log of" "$work/out")
measure "kubectl logs -l --prefix" kubectl/ kubectl logs -l "$selector" --prefix --max-log-requests="$nodes"
kubectl_lines=$(grep -c "training log of" "$work/out")
measure "delete --wait" kubectl-trainjob/ "$bin" delete wide --wait

echo "TrainJob of $nodes nodes on $nodes kwok nodes; logs printed $logs_lines pods' lines, kubectl logs $kubectl_lines"
echo
echo "| command | wall s | API requests | of them lists | peak RSS MiB | exit |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
