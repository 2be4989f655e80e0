#!/bin/bash
# coscheduling, on a control plane of its own with the scheduler-plugins scheduler
# (Coscheduling) beside kube-scheduler: the PodGroup render emits for
# podGroupPolicy.coscheduling gates the pods as upstream's does. One node with room for two
# pods; a gang of three binds none (the second scheduler's reason shown by `status`), and all
# three together once a second node joins. The same TrainJob without the policy gets two of
# its three pods bound at once. A PyTorchJob for the scheduler-plugins scheduler is three Jobs
# and one PodGroup: with room for one pod, none of its pods binds until there is room for all.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
command -v go >/dev/null || { echo "skipped: no go to build the scheduler-plugins scheduler"; exit 77; }
NODES=1 NODE_CAPACITY='{"pods": "2"}' use_own_control_plane
"$src/tests/cluster/addons/start-coscheduling.sh" "$cluster" || exit 1

# trainjob NAME [POLICY]: a runtime and TrainJob NAME of three hour-long pods that name the
# second scheduler, with podGroupPolicy POLICY (a YAML flow map) when given.
trainjob() {
  cat <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: $1
spec:
  mlPolicy:
    numNodes: 3
    torch: {}
${2:+  podGroupPolicy: $2}
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                metadata:
                  annotations: {test.kubectl-trainjob/duration: 1h}
                spec:
                  schedulerName: scheduler-plugins-scheduler
                  containers:
                    - name: node
                      image: trainer:1
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: $1
spec:
  runtimeRef:
    name: $1
  trainer: {}
YAML
}
bound() {  # bound JOB: how many of the Job's pods a scheduler has bound to a node
  kubectl get pods -l "job-name=$1" -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c .
}

# --- without a PodGroup: the scheduler binds what fits ------------------------------------
trainjob loose > "$work/loose.yaml"
"$bin" submit -f "$work/loose.yaml" > "$work/loose.out" 2>&1
check "a TrainJob of three pods, no podGroupPolicy: submitted" [ $? -eq 0 ]
check "... two of its pods bound (the node has room for two)" eventually bash -c "[ \$($(declare -f bound); bound loose-node-0) -eq 2 ]"
sleep 2
check "... and still two, the third Pending" [ "$(bound loose-node-0)" -eq 2 ]
"$bin" delete loose > /dev/null 2>&1
kubectl delete pods -l job-name=loose-node-0 --wait=true --timeout=60s > /dev/null 2>&1

# --- podGroupPolicy.coscheduling: all or nothing ------------------------------------------
trainjob gang '{coscheduling: {scheduleTimeoutSeconds: 60}}' > "$work/gang.yaml"
"$bin" render -f "$work/gang.yaml" > "$work/gang.rendered.yaml"
check "render: the PodGroup of three members" \
  grep -q "minMember: 3" "$work/gang.rendered.yaml"
check "... and the pods name the second scheduler and the group" bash -c "
  grep -q 'schedulerName: scheduler-plugins-scheduler' '$work/gang.rendered.yaml' &&
  grep -q 'scheduling.x-k8s.io/pod-group: gang' '$work/gang.rendered.yaml'"
"$bin" submit -f "$work/gang.yaml" > "$work/gang.out" 2>&1
check "the gang of three on room for two: submitted" [ $? -eq 0 ]
check "... its PodGroup on the cluster" kubectl get podgroups.scheduling.x-k8s.io gang -o name
check "... the scheduler says why the pods wait" eventually bash -c "
  kubectl get pods -l job-name=gang-node-0 -o jsonpath='{.items[*].status.conditions[?(@.type==\"PodScheduled\")].reason}' | grep -q Unschedulable"
sleep 5
check "... and binds none of them" [ "$(bound gang-node-0)" -eq 0 ]
"$bin" status gang > "$work/status.out" 2>&1
check "status: the TrainJob Pending, with Coscheduling's reason (no room for the whole group)" bash -c "
  grep -q '^TrainJob gang: Pending' '$work/status.out' &&
  grep -qE '^node-0: Unschedulable: .*resource gap: .*pods.*PodGroup $ns/gang gets rejected' '$work/status.out'"

# --- room for all three: they bind together ------------------------------------------------
add_kwok_node kwok-node-room 2
check "a second node joins: all three pods bound" eventually bash -c "[ \$($(declare -f bound); bound gang-node-0) -eq 3 ]"
check "... and running" eventually bash -c "
  [ \$(kubectl get pods -l job-name=gang-node-0 --field-selector status.phase=Running -o name | wc -l) -eq 3 ]"
"$bin" status gang > "$work/status2.out" 2>&1
check "status: Running" grep -q '^TrainJob gang: Running' "$work/status2.out"

# --- a PyTorchJob's three Jobs are one gang: the PodGroup spans them --------------------------
# One pod's room is left; the Master's and the Workers' Jobs wait together until there is room
# for all three.
cat > "$work/pt.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: ptgang
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        metadata:
          annotations: {test.kubectl-trainjob/duration: 1h}
        spec:
          schedulerName: scheduler-plugins-scheduler
          containers: [{name: pytorch, image: pytorch/pytorch:2.0.0}]
    Worker:
      replicas: 2
      template:
        metadata:
          annotations: {test.kubectl-trainjob/duration: 1h}
        spec:
          schedulerName: scheduler-plugins-scheduler
          containers: [{name: pytorch, image: pytorch/pytorch:2.0.0}]
YAML
pt_bound() {
  kubectl get pods -l trainer.kubeflow.org/trainjob-name=ptgang -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c .
}
"$bin" submit -f "$work/pt.yaml" > "$work/pt.out" 2>&1
check "a PyTorchJob of three pods (three Jobs) on room for one: submitted" [ $? -eq 0 ]
check "... one PodGroup of three members over its Jobs" bash -c "
  [ \"\$(kubectl get podgroups.scheduling.x-k8s.io ptgang -o jsonpath='{.spec.minMember}')\" = 3 ]"
check "... its three pods created" eventually bash -c "
  [ \$(kubectl get pods -l trainer.kubeflow.org/trainjob-name=ptgang -o name | wc -l) -eq 3 ]"
sleep 5
check "... none bound, not even the one that would fit" [ "$(pt_bound)" -eq 0 ]
"$bin" delete gang > /dev/null 2>&1
check "the TrainJob deleted: the PyTorchJob's three pods bind" eventually bash -c "[ \$($(declare -f pt_bound); pt_bound) -eq 3 ]"
finish
