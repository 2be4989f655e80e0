#!/bin/bash
# Gang scheduling with nothing installed: Kubernetes' own Workload API (1.37) on a control
# plane of this test's own, with the gates GenericWorkload, WorkloadWithJob and
# TopologyAwareWorkloadScheduling on and three nodes that each fit one pod (pods ask for 20
# of a node's 32 CPUs). First the API server judges the objects of the gang goldens.
#   - without --gang, a TrainJob of 4 nodes starts 3 pods, and the fourth waits;
#   - with --gang (one Job: its own spec.scheduling), submit warns that the nodes cannot
#     hold the gang, none binds and `status` says why; a fourth node, and all 4 bind;
#   - a TrainJob of two Jobs (launcher + nodes) gets one Workload and PodGroup: 5 pods on 4
#     nodes, none binds; a fifth node, all 5 bind;
#   - a suspended gang TrainJob still gets its PodGroup from the Job controller: resumed
#     with 6 pods on 5 nodes, none binds.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
export FEATURE_GATES=GenericWorkload=true,WorkloadWithJob=true,TopologyAwareWorkloadScheduling=true
export RUNTIME_CONFIG=scheduling.k8s.io/v1beta1=true NODES=3
use_own_control_plane

# runtime NAME [LAUNCHER]: a ClusterTrainingRuntime whose pods each take most of a node and
# run for an hour; with LAUNCHER, a one-pod `launcher` Job beside the `node` Job.
runtime() {
  local policy="    torch: {}"
  [ -z "${2:-}" ] || policy=""
  cat <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: $1
spec:
  mlPolicy:
    numNodes: 1
$policy
  template:
    spec:
      replicatedJobs:
YAML
  [ -z "${2:-}" ] || job launcher ""
  job node trainer
}
# job NAME [ANCESTOR]: one replicated job of `runtime`.
job() {
  local labels="{}"
  [ -z "$2" ] || labels="{trainer.kubeflow.org/trainjob-ancestor-step: $2}"
  cat <<YAML
        - name: $1
          template:
            metadata:
              labels: $labels
            spec:
              template:
                metadata:
                  annotations: {test.kubectl-trainjob/duration: 1h}
                spec:
                  restartPolicy: Never
                  containers:
                    - name: node
                      image: trainer:1
                      resources: {requests: {cpu: "20"}}
YAML
}
# trainjob NAME RUNTIME NODES [SUSPEND]
trainjob() {
  printf 'apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: %s\n' "$1"
  printf 'spec:\n  runtimeRef: {name: %s}\n  suspend: %s\n  trainer: {numNodes: %s}\n' \
    "$2" "${4:-false}" "$3"
}
# bound TRAINJOB: how many of its pods are on a node; pending TRAINJOB: how many are not.
bound() { kubectl get pods -l "jobset.sigs.k8s.io/jobset-name=$1" -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c .; }
pods() { kubectl get pods -l "jobset.sigs.k8s.io/jobset-name=$1" -o name | grep -c .; }
# none_bound_for TRAINJOB COUNT: COUNT pods exist and, three seconds on, none is bound.
none_bound_for() {
  eventually bash -c "[ \"\$(pods $1)\" = $2 ] && [ \"\$(kubectl get podgroups.scheduling.k8s.io -o jsonpath='{.items[*].status.conditions[0].reason}')\" = Unschedulable ]" &&
    sleep 3 && [ "$(bound "$1")" = 0 ]
}
gone() { [ "$(pods "$1")" = 0 ]; }
export -f bound pods
# The gang goldens' objects, judged by this API server (the shared control plane does not
# serve scheduling.k8s.io/v1beta1): accepted, and nothing that gangs the pods dropped.
for case in "$src"/testdata/render/gang-workload-*/ "$src"/testdata/render/legacy-gang-workload-*/; do
  sed '/^  namespace: /d' "$case/expected.stdout" >"$work/sent.yaml"  # into this test's
  kubectl apply --server-side --dry-run=server -o json -f "$work/sent.yaml" \
    >"$work/dry-run.json" 2>"$work/dry-run.err"
  check "the API server accepts $(basename "$case")'s objects" [ $? -eq 0 ]
  check "... and keeps every field that gangs the pods" python3 - "$work/sent.yaml" "$work/dry-run.json" <<'PY'
import json, sys, yaml
def kept(sent, answered):  # the server may add defaults (disruptionMode, priority): a subset
    if isinstance(sent, dict):
        return isinstance(answered, dict) and all(kept(v, answered.get(k)) for k, v in sent.items())
    if isinstance(sent, list):
        return isinstance(answered, list) and len(sent) == len(answered) and all(map(kept, sent, answered))
    return sent == answered
def gang(o):
    spec = o.get("spec", {})
    if o["kind"] in ("Workload", "PodGroup"):
        return spec
    return {"scheduling": spec.get("scheduling"),
            "group": spec.get("template", {}).get("spec", {}).get("schedulingGroup")}
sent = [o for o in yaml.safe_load_all(open(sys.argv[1])) if o]
answer = json.load(open(sys.argv[2]))
answered = answer["items"] if answer.get("kind") == "List" else [answer]
for s, a in zip(sent, answered):
    assert kept(gang(s), gang(a)), (s["kind"], s["metadata"]["name"], gang(s), gang(a))
PY
done

runtime one-job >"$work/one-job.yaml"
runtime two-jobs launcher >"$work/two-jobs.yaml"

trainjob loose one-job 4 >"$work/loose.yaml"
"$bin" submit -f "$work/loose.yaml" -f "$work/one-job.yaml" >"$work/out" 2>&1
check "without --gang: no word of gangs (the nodes are not even listed)" \
  bash -c "! grep -q gang '$work/out'"
check "without --gang, 4 pods on 3 nodes: 3 bind" eventually bash -c '[ "$(bound loose)" = 3 ]'
check "... and the fourth waits" [ "$(pods loose)" = 4 ]
"$bin" delete loose >/dev/null
check "... deleted" eventually gone loose

trainjob gang one-job 4 >"$work/gang.yaml"
"$bin" submit --gang -f "$work/gang.yaml" -f "$work/one-job.yaml" >"$work/out" 2>&1
check "with --gang: submitted" grep -q "job.batch/gang-node-0" "$work/out"
check "... with a warning that the 3 nodes cannot hold the gang of 4" \
  grep -q "^warning: job.batch/gang-node-0: the gang of 4 pods fits at most 3 at once on the 3 nodes" "$work/out"
check "... the Job carries its own gang" \
  [ "$(kubectl get job gang-node-0 -o jsonpath='{.spec.scheduling.schedulingPolicy}')" = '{"gang":{}}' ]
check "... 4 pods on 3 nodes: none binds" none_bound_for gang 4
"$bin" status gang >"$work/status" 2>&1
check "... status names the gang as why the pods wait" \
  grep -q "Unschedulable: pod group is unschedulable, .*minCount (4) cannot be satisfied" "$work/status"
add_kwok_node kwok-node-3
check "... a fourth node: all 4 bind" eventually bash -c '[ "$(bound gang)" = 4 ]'
"$bin" delete gang >/dev/null
check "... deleted, with the Job controller's Workload and PodGroup" \
  eventually bash -c "[ -z \"\$(kubectl get pods,workloads,podgroups.scheduling.k8s.io -o name)\" ]"

trainjob pair two-jobs 4 >"$work/pair.yaml"
"$bin" submit --gang -f "$work/pair.yaml" -f "$work/two-jobs.yaml" >"$work/out" 2>&1
check "two Jobs with --gang: a warning that 4 nodes cannot hold the gang of 5" \
  grep -q "^warning: podgroup.scheduling.k8s.io/pair: the gang of 5 pods fits at most 4" "$work/out"
check "... one Workload and its PodGroup submitted" \
  grep -q "^workload.scheduling.k8s.io/pair created" "$work/out"
check "... every pod template names the PodGroup" \
  [ "$(kubectl get jobs -o jsonpath='{.items[*].spec.template.spec.schedulingGroup.podGroupName}')" = "pair pair" ]
check "... 5 pods on 4 nodes: none binds" none_bound_for pair 5
add_kwok_node kwok-node-4
check "... a fifth node: all 5 bind" eventually bash -c '[ "$(bound pair)" = 5 ]'
"$bin" delete pair >"$work/out" 2>&1
check "... delete removes the Workload and the PodGroup too" \
  eventually bash -c "[ -z \"\$(kubectl get pods,workloads,podgroups.scheduling.k8s.io -o name)\" ]"

trainjob held one-job 6 true >"$work/held.yaml"
"$bin" submit --gang -f "$work/held.yaml" -f "$work/one-job.yaml" >/dev/null 2>&1
check "a suspended gang TrainJob: the Job controller made its PodGroup all the same" \
  eventually bash -c "[ -n \"\$(kubectl get podgroups.scheduling.k8s.io -o name)\" ]"
"$bin" resume held >/dev/null
check "... resumed, 6 pods on 5 nodes: none binds" none_bound_for held 6
finish
