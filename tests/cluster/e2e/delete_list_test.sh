#!/bin/bash
# list and delete on the real control plane: TrainJobs found by their labels, their phases
# from the real Job controller and scheduler; delete removes every object with
# propagationPolicy=Background, so that the garbage collector removes the pods too.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# The demo TrainJob runs for an hour; tune's pods ask for a node label no node has: Pending.
{
  cat "$src/templates/image.yaml"
  cat <<'YAML'
  podTemplateOverrides:
    - targetJobs: [{name: node}]
      metadata:
        annotations: {test.kubectl-trainjob/duration: 1h}
YAML
} >"$work/image.yaml"
tune_trainjob >"$work/tune.yaml"
cat >>"$work/tune.yaml" <<'YAML'
  podTemplateOverrides:
    - targetJobs: [{name: dataset-initializer}, {name: model-initializer}, {name: node}]
      spec:
        nodeSelector: {test.kubectl-trainjob/nowhere: "true"}
YAML
"$bin" submit -f "$work/image.yaml" >/dev/null
"$bin" submit -f "$work/tune.yaml" >/dev/null 2>&1
# phases_are TRAINJOB PHASES: its pods' phases, in the order of their names.
phases_are() {
  [ "$(kubectl get pods -l "trainer.kubeflow.org/trainjob-name=$1" -o jsonpath='{.items[*].status.phase}')" = "$2" ]
}
# unschedulable: the scheduler has said of each of tune's four pods why it waits.
unschedulable() {
  [ "$(kubectl get pods -l trainer.kubeflow.org/trainjob-name=tune \
    -o jsonpath='{.items[*].status.conditions[?(@.type=="PodScheduled")].reason}')" = \
    "Unschedulable Unschedulable Unschedulable Unschedulable" ]
}
check "the demo's pods run" eventually phases_are trainjob-demo-with-image "Running Running"
check "tune's pods are unschedulable" eventually unschedulable

"$bin" list >"$work/list"
check "list: one row per TrainJob with kind, phase, steps and nodes" \
  bash -c "grep -qE '^trainjob-demo-with-image +TrainJob +Running +1 +2 +[0-9]+s$' '$work/list' && grep -qE '^tune +TrainJob +Pending +3 +2 +[0-9]+s$' '$work/list' && head -1 '$work/list' | grep -qE '^NAME +KIND +PHASE +STEPS +NODES +AGE$' && [ \$(wc -l <'$work/list') -eq 3 ]"
"$bin" list -o name >"$work/names"
check "list -o name" diff <(printf 'trainjob/trainjob-demo-with-image\ntrainjob/tune\n') "$work/names"
"$bin" list -o json >"$work/list.json"
check "list -o json: a List of TrainJob statuses, with the scheduler's reason" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['kind'] == 'List' and [i['status']['phase'] for i in d['items']] == ['Running', 'Pending'], d
assert 'Unschedulable' in json.dumps(d['items'][1]), d['items'][1]
" "$work/list.json"
"$bin" list -n "$ns-elsewhere" 2>"$work/err"
check "list in an empty namespace says so" grep -qx "No TrainJobs found in $ns-elsewhere namespace." "$work/err"

audit_mark
"$bin" delete tune --wait >"$work/delete" 2>"$work/delete.err"
check "delete --wait exits 0" [ $? -eq 0 ]
check "delete names each object, Jobs first" diff - "$work/delete" <<'OUT'
job.batch "tune-dataset-initializer-0" deleted
job.batch "tune-model-initializer-0" deleted
job.batch "tune-node-0" deleted
service "tune" deleted
OUT
check "... one DELETE each, in that order" diff - <(audit_requests | grep '^delete') <<'OUT'
delete jobs tune-dataset-initializer-0
delete jobs tune-model-initializer-0
delete jobs tune-node-0
delete services tune
OUT
# Without propagationPolicy the API server warns that a Job's pods are kept (orphaned).
check "... asking for Background propagation: no warning" bash -c "[ ! -s '$work/delete.err' ]"
check "after --wait, the garbage collector has removed the pods: kubectl finds nothing of tune" \
  bash -c "[ -z \"\$(kubectl get jobs,pods,services -o name -l trainer.kubeflow.org/trainjob-name=tune)\" ]"
check "the other TrainJob is untouched" phases_are trainjob-demo-with-image "Running Running"
"$bin" submit -f "$work/tune.yaml" -o name >"$work/names" 2>/dev/null
check "submit -o name: kind.group/name of each object" diff - "$work/names" <<'OUT'
service/tune
job.batch/tune-dataset-initializer-0
job.batch/tune-model-initializer-0
job.batch/tune-node-0
OUT
check "... its pods are made again" eventually unschedulable
"$bin" delete tune -o name --wait >"$work/names"
check "delete -o name" diff - "$work/names" <<'OUT'
job.batch/tune-dataset-initializer-0
job.batch/tune-model-initializer-0
job.batch/tune-node-0
service/tune
OUT
check "... and the pods are gone" \
  bash -c "[ -z \"\$(kubectl get pods -o name -l trainer.kubeflow.org/trainjob-name=tune)\" ]"
"$bin" delete tune 2>"$work/err"
check "deleting a TrainJob that is not there: exit 1" [ $? -eq 1 ]
check "... saying so" grep -q "trainjob \"tune\" not found in namespace \"$ns\"" "$work/err"
finish
