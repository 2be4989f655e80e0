#!/bin/bash
# volcano, on the shared control plane: Volcano's scheduler is not built here (its module,
# volcano.sh/volcano, is not served by the module proxy: see docs/scheduling.md), so this
# is the render check on the real API server. A TrainJob with podGroupPolicy.volcano lands
# whole: the PodGroup (scheduling.volcano.sh/v1beta1, judged by the CRD of volcano.sh/apis
# that Trainer v2.3.0 pins) with every pod as a member and the queue of the JobSet's
# annotation, each pod annotated with the group; the pods name schedulerName volcano and
# wait, unbound, as they would until Volcano's scheduler takes the group.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane

# CRDs are cluster-scoped and the cluster is shared: installed idempotently, never deleted
# (as golden_dry_run installs them).
crd=$cluster/crds/scheduling.volcano.sh_podgroups.yaml
check "Volcano's PodGroup CRD is installed" \
  kubectl apply --server-side --force-conflicts --field-manager kubectl-trainjob-tests -f "$crd" > /dev/null
check "... and established" \
  eventually kubectl wait --for condition=Established --timeout 30s crd/podgroups.scheduling.volcano.sh > /dev/null

cat > "$work/gang.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch-volcano
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  podGroupPolicy:
    volcano: {}
  template:
    metadata:
      annotations: {scheduling.volcano.sh/queue-name: research}
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
            spec:
              template:
                spec:
                  schedulerName: volcano
                  containers:
                    - name: node
                      image: trainer:1
                      resources: {requests: {cpu: "2"}}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: vgang
spec:
  runtimeRef: {name: torch-volcano}
  trainer: {numNodes: 3}
YAML
"$bin" submit -f "$work/gang.yaml" > "$work/gang.out" 2>&1
check "a TrainJob with podGroupPolicy.volcano: submitted" [ $? -eq 0 ]
check "... its PodGroup: three members, their CPU, the queue" bash -c "
  [ \"\$(kubectl get podgroups.scheduling.volcano.sh vgang -o jsonpath='{.spec.minMember} {.spec.minResources.cpu} {.spec.queue}')\" = '3 6 research' ]"
group_of() {  # each pod of the TrainJob: its group annotation, scheduler and node
  kubectl get pods -l trainer.kubeflow.org/trainjob-name=vgang -o jsonpath='{range .items[*]}{.metadata.annotations.scheduling\.k8s\.io/group-name} {.spec.schedulerName} node={.spec.nodeName}{"\n"}{end}'
}
check "... its three pods, each annotated with the group, naming volcano" \
  eventually bash -c "[ \$($(declare -f group_of); group_of | grep -c '^vgang volcano node=\$') -eq 3 ]"
sleep 3
check "... none bound: kube-scheduler leaves them to Volcano" \
  bash -c "[ \$($(declare -f group_of); group_of | grep -c 'node=\$') -eq 3 ]"
"$bin" status vgang > "$work/status.out" 2>&1
check "status: Pending" grep -q '^TrainJob vgang: Pending' "$work/status.out"
"$bin" delete vgang > "$work/delete.out" 2>&1
check "delete: exit 0" [ $? -eq 0 ]
check "... the PodGroup gone with the Jobs" bash -c "
  ! kubectl get podgroups.scheduling.volcano.sh vgang -o name 2>/dev/null | grep -q ."
finish
