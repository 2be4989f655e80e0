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

# --- kubectl's delete flags: --ignore-not-found, several names, --all --------------------------
"$bin" delete tune --ignore-not-found >"$work/out" 2>"$work/err"
rc=$?
kubectl delete configmap nothere --ignore-not-found >"$work/kubectl.out" 2>"$work/kubectl.err"
check "--ignore-not-found: exit 0 and not a word, as kubectl's" bash -c "
  [ $rc -eq 0 ] && [ $? -eq 0 ] && [ ! -s '$work/out' ] && [ ! -s '$work/err' ] && [ ! -s '$work/kubectl.out' ] && [ ! -s '$work/kubectl.err' ]"
for name in a b c; do
  one_step_trainjob "$name" 1 '{test.kubectl-trainjob/duration: 1h}' | "$bin" submit -f - >/dev/null
done
"$bin" delete a b >"$work/out" 2>"$work/err"
check "delete a b: both, in order" bash -c "[ $? -eq 0 ] && diff - '$work/out' <<'OUT'
job.batch \"a-node-0\" deleted
service \"a\" deleted
job.batch \"b-node-0\" deleted
service \"b\" deleted
OUT"
"$bin" delete trainjob c nothere >"$work/out" 2>"$work/err"
rc=$?
check "delete trainjob c nothere: c deleted, nothere reported, exit 1" bash -c "
  [ $rc -eq 1 ] && grep -qx 'job.batch \"c-node-0\" deleted' '$work/out' &&
  [ \$(wc -l <'$work/err') -eq 1 ] && grep -q '^error: trainjob \"nothere\" not found' '$work/err'"
check "... the ConfigMaps and Services of the runtimes were never ours to touch: kubectl finds a, b, c gone" \
  bash -c "[ -z \"\$(kubectl get jobs -o name -l 'trainer.kubeflow.org/trainjob-name in (a,b,c)')\" ]"
"$bin" delete trainjob/x pytorchjob/y --ignore-not-found >"$work/out" 2>&1
check "delete TYPE/NAME TYPE/NAME --ignore-not-found: exit 0, nothing said" bash -c "[ $? -eq 0 ] && [ ! -s '$work/out' ]"
"$bin" delete trainjob/x y >"$work/out" 2>"$work/err"
check "a TYPE/NAME beside a NAME is refused, as kubectl does" bash -c "
  [ $? -eq 1 ] && grep -q 'no need to give the resource type as a separate argument' '$work/err'"
for name in d e; do
  one_step_trainjob "$name" 1 '{test.kubectl-trainjob/duration: 1h}' | "$bin" submit -f - >/dev/null
done
kubectl create configmap keep --from-literal=k=v >/dev/null
"$bin" delete pytorchjob --all >"$work/out" 2>"$work/err"
check "delete pytorchjob --all with only TrainJobs: exit 0, nothing deleted" bash -c "
  [ $? -eq 0 ] && [ ! -s '$work/out' ] && kubectl get job d-node-0 e-node-0 >/dev/null"
"$bin" delete --all >"$work/out" 2>"$work/err"
check "delete --all: every TrainJob of the namespace" bash -c "
  [ $? -eq 0 ] && grep -qx 'job.batch \"d-node-0\" deleted' '$work/out' && grep -qx 'job.batch \"e-node-0\" deleted' '$work/out' &&
  grep -qx 'job.batch \"trainjob-demo-with-image-node-0\" deleted' '$work/out' && [ ! -s '$work/err' ]"
check "... and nothing else: the user's ConfigMap stays" bash -c "kubectl get configmap keep >/dev/null"
"$bin" delete --all -n "$ns-empty" >"$work/out" 2>"$work/err"
rc=$?
kubectl delete jobs --all -n "$ns-empty" >"$work/kubectl.out" 2>"$work/kubectl.err"
check "delete --all with nothing there: exit 0, kubectl's words, where kubectl writes them" bash -c "
  [ $rc -eq 0 ] && diff '$work/kubectl.out' '$work/out' && diff '$work/kubectl.err' '$work/err'"
"$bin" delete trainjob a --all >/dev/null 2>"$work/err"
check "--all with a NAME: a usage error" bash -c "[ $? -eq 2 ] && grep -q 'give no NAME' '$work/err'"

# --- rendered, then applied with kubectl apply: the ConfigMap render leaves as written ---------
printf 'echo hi\n' >"$work/train.sh"
"$bin" init applied --script "$work/train.sh" --nodes 1 | "$bin" render -f - | kubectl apply -f - >/dev/null
"$bin" delete applied >"$work/out" 2>"$work/err"
check "delete of a kubectl-applied TrainJob says the ConfigMap its Jobs mounted is left, and why" \
  grep -qx "note: configmap/applied-script is left: the Jobs used it, but it does not carry render's labels (\`kubectl delete configmap/applied-script\` deletes it)" "$work/err"
check "... which is there" bash -c "kubectl get configmap applied-script >/dev/null"
finish
