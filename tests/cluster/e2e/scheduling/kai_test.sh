#!/bin/bash
# kai, on a control plane of its own: a PyTorchJob and a TrainJob whose pods name KAI
# Scheduler. KAI's pod grouper gangs a PyTorchJob by the PyTorchJob, but the Jobs render
# emits have no such owner (KAI would group their pods one by one), so render emits one KAI
# PodGroup per job and joins every pod of every Job to it; the job's queue label reaches the
# pods. KAI itself cannot be built here (its module is not served by the proxy: see
# docs/scheduling.md), so its PodGroup CRD is a stand-in of the fields render writes
# (tests/cluster/kai-podgroup-crd.yaml) and the pods wait for a scheduler that never comes.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
NODES=1 use_own_control_plane
kubectl apply --server-side -f "$src/tests/cluster/kai-podgroup-crd.yaml" > /dev/null
check "the stand-in KAI PodGroup CRD is established" \
  eventually kubectl wait --for condition=Established --timeout 30s crd/podgroups.scheduling.run.ai > /dev/null

# --- a PyTorchJob: Master and Worker Jobs, one gang ---------------------------------------
cat > "$work/pt.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: pt
  labels: {kai.scheduler/queue: research}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          schedulerName: kai-scheduler
          containers: [{name: pytorch, image: pytorch/pytorch:2.0.0}]
    Worker:
      replicas: 2
      template:
        spec:
          schedulerName: kai-scheduler
          containers: [{name: pytorch, image: pytorch/pytorch:2.0.0}]
YAML
"$bin" submit -f "$work/pt.yaml" > "$work/pt.out" 2>&1
check "a PyTorchJob for KAI: submitted (three Jobs and the KAI PodGroup)" [ $? -eq 0 ]
check "... the PodGroup: the whole job, three members, in the job's queue" bash -c "
  [ \"\$(kubectl get podgroups.scheduling.run.ai pt -o jsonpath='{.spec.minMember} {.spec.queue}')\" = '3 research' ]"
pods_of() {  # the pods of TrainJob or job $1: name, group, queue, skip, scheduler, node
  kubectl get pods -l "trainer.kubeflow.org/trainjob-name=$1" -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.annotations.pod-group-name} {.metadata.labels.kai\.scheduler/queue} {.metadata.annotations.kai\.scheduler/skip-podgrouper} {.spec.schedulerName} node={.spec.nodeName}{"\n"}{end}'
}
check "... its three pods created by the Job controller" eventually bash -c "[ \$($(declare -f pods_of); pods_of pt | wc -l) -eq 3 ]"
pods_of pt > "$work/pt.pods"
check "... every pod, Master's and Workers', joins PodGroup pt, in queue research, grouper skipped" \
  bash -c "[ \$(grep -c ' pt research true kai-scheduler node=\$' '$work/pt.pods') -eq 3 ]"
check "... the Jobs, KAI's owners of the pods, say skip-podgrouper too" bash -c "
  [ \$(kubectl get jobs -l trainer.kubeflow.org/trainjob-name=pt -o jsonpath='{range .items[*]}{.metadata.annotations.kai\.scheduler/skip-podgrouper}{\"\n\"}{end}' | grep -c true) -eq 3 ]"
sleep 3
check "... and no pod is bound: kube-scheduler leaves pods that name kai-scheduler alone" \
  bash -c "$(declare -f pods_of); ! pods_of pt | grep -v 'node=\$'"

# --- a TrainJob: every replicated job in one gang -----------------------------------------
cat > "$work/tj.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: torch-kai
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
            spec:
              template:
                spec:
                  schedulerName: kai-scheduler
                  containers: [{name: node, image: trainer:1}]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: tj
  labels: {kai.scheduler/queue: team-a}
spec:
  runtimeRef: {name: torch-kai}
  trainer: {numNodes: 2}
YAML
"$bin" submit -f "$work/tj.yaml" > "$work/tj.out" 2>&1
check "a TrainJob for KAI: submitted" [ $? -eq 0 ]
check "... its PodGroup: two members, queue team-a" bash -c "
  [ \"\$(kubectl get podgroups.scheduling.run.ai tj -o jsonpath='{.spec.minMember} {.spec.queue}')\" = '2 team-a' ]"
check "... both pods join it, in queue team-a" eventually bash -c "
  [ \$($(declare -f pods_of); pods_of tj | grep -c ' tj team-a true kai-scheduler node=\$') -eq 2 ]"
"$bin" status tj > "$work/status.out" 2>&1
check "status: Pending (no KAI Scheduler runs here)" grep -q '^TrainJob tj: Pending' "$work/status.out"

# --- the queue label, but no pod names KAI: a warning with the fix ------------------------
sed 's/                  schedulerName: kai-scheduler//' "$work/tj.yaml" > "$work/plain.yaml"
"$bin" render -f "$work/plain.yaml" > "$work/plain.rendered" 2> "$work/plain.err"
check "render without kai-scheduler: exit 0, a warning at the label naming the fix" bash -c "
  grep -q 'metadata.labels' '$work/plain.err' && grep -q 'schedulerName: kai-scheduler' '$work/plain.err'"
check "... and no KAI PodGroup" bash -c "! grep -q 'scheduling.run.ai' '$work/plain.rendered'"

"$bin" delete pt > "$work/delete.out" 2>&1
check "delete pt: exit 0" [ $? -eq 0 ]
check "... the KAI PodGroup gone with the Jobs" bash -c "
  ! kubectl get podgroups.scheduling.run.ai pt -o name 2>/dev/null | grep -q ."
finish
