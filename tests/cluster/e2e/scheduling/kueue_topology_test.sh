#!/bin/bash
# Kueue's topology-aware scheduling (TAS), for real: upstream's Kueue on a control plane of
# this test's own whose 4 kwok nodes (32 CPUs each) stand in two racks of one block. A
# TrainJob whose runtime asks, on its node pod template, for one rack
# (kueue.x-k8s.io/podset-required-topology) is admitted with a topology assignment and its
# pods land in one rack; one whose pods cannot share a rack stays pending with Kueue's reason
# in `status`, though the quota would fit it; the same annotation on the TrainJob's own
# metadata is warned about at submit (Kueue would ignore it).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
started=$SECONDS
NODES=4 use_own_control_plane
"$src/tests/cluster/addons/start-kueue.sh" "$cluster" || exit 1
echo "kueue_topology_test: control plane and Kueue up in $((SECONDS - started)) s" >&2

block=cloud.provider.com/topology-block rack=cloud.provider.com/topology-rack
mapfile -t nodes < <(kubectl get nodes -o name | sort)
for i in "${!nodes[@]}"; do
  kubectl label "${nodes[$i]}" --overwrite "$block=b1" "$rack=r$((i / 2 + 1))" >/dev/null
done

kubectl apply -f - >/dev/null <<YAML
apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {name: racks}
spec:
  levels:
    - nodeLabel: $block
    - nodeLabel: $rack
    - nodeLabel: kubernetes.io/hostname
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: tas}
spec:
  nodeLabels: {$block: b1}
  topologyName: racks
YAML
kueue_queue 128 "" tas

# racked_trainjob NAME NODES TOPOLOGY: TrainJob NAME in lq of NODES pods of 20 CPUs (one a
# node), whose runtime's node pod template carries TOPOLOGY (a flow map of annotations).
racked_trainjob() {
  cat <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata:
  name: $1
spec:
  mlPolicy:
    numNodes: 1
    torch: {}
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              backoffLimit: 0
              template:
                metadata:
                  annotations: $3
                spec:
                  restartPolicy: Never
                  containers:
                    - name: node
                      image: trainer:1
                      command: [train]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: $1
  labels: {kueue.x-k8s.io/queue-name: lq}
spec:
  runtimeRef: {name: $1, kind: TrainingRuntime}
  trainer:
    numNodes: $2
    resourcesPerNode: {requests: {cpu: "20"}}
YAML
}
rack_of() { kubectl get node "$1" -o jsonpath="{.metadata.labels['cloud\.provider\.com/topology-rack']}"; }
racks_of_pods() {  # the racks the pods of Job $1 run in, sorted, each once
  local node
  for node in $(kubectl get pods -l "job-name=$1" -o jsonpath='{.items[*].spec.nodeName}'); do
    rack_of "$node"
    echo
  done | sort -u | tr '\n' ' '
}
export -f rack_of racks_of_pods
pods_placed() { [ "$(kubectl get pods -l "job-name=$1" -o jsonpath='{.items[*].spec.nodeName}' | wc -w)" = "$2" ]; }

# --- one rack, required: admitted with a topology assignment, both pods in one rack -----------
racked_trainjob one-rack 2 "{kueue.x-k8s.io/podset-required-topology: $rack, test.kubectl-trainjob/duration: 1h}" \
  >"$work/one-rack.yaml"
"$bin" submit -f "$work/one-rack.yaml" >/dev/null 2>"$work/one-rack.err"
check "topology: a TrainJob asking for one rack is submitted without a warning" [ ! -s "$work/one-rack.err" ]
# (Kueue writes the assignment at the lowest level, node by node.)
assigned() {
  kubectl get workloads.kueue.x-k8s.io -o json | python3 -c '
import json, sys
items = [w for w in json.load(sys.stdin)["items"] if w["metadata"]["ownerReferences"][0]["name"] == "one-rack-node-0"]
assert items[0]["status"]["admission"]["podSetAssignments"][0]["topologyAssignment"]["slices"]' 2>/dev/null
}
check "topology: Kueue admits it with a topology assignment" eventually assigned
check "topology: ... and its 2 pods are placed" eventually pods_placed one-rack-node-0 2
check "topology: ... both in one rack" bash -c '[ "$(racks_of_pods one-rack-node-0 | wc -w)" = 1 ]' ||
  racks_of_pods one-rack-node-0 >&2

# --- pods that no rack can hold together: pending with Kueue's reason, quota to spare ---------
racked_trainjob three 3 "{kueue.x-k8s.io/podset-required-topology: $rack, test.kubectl-trainjob/duration: 1s}" \
  >"$work/three.yaml"
"$bin" submit -f "$work/three.yaml" >/dev/null 2>&1
three_waits() { "$bin" status three >"$work/three.status" && grep -q "^Kueue: Workload .* of Job three-node-0: pending in LocalQueue lq" "$work/three.status"; }
check "topology: 3 pods of 20 CPUs in one rack (2 nodes of 32): Kueue keeps it pending" eventually three_waits
check "... and status gives Kueue's topology reason" \
  grep -qiE "^Kueue: Workload .*: Pending: .*(topology|domain)" "$work/three.status" || cat "$work/three.status" >&2
check "... no pod of it is created" bash -c '[ -z "$(kubectl get pods -l job-name=three-node-0 -o name)" ]'

# --- the annotation on the TrainJob itself: Kueue would ignore it, submit says so -------------
racked_trainjob misplaced 2 "{test.kubectl-trainjob/duration: 1s}" |
  sed "s#^  labels: {kueue.x-k8s.io/queue-name: lq}#&\n  annotations: {kueue.x-k8s.io/podset-required-topology: $rack}#" >"$work/misplaced.yaml"
"$bin" submit -f "$work/misplaced.yaml" >/dev/null 2>"$work/misplaced.err"
check "topology: the annotation on the TrainJob's metadata: submit warns, at the annotation, with the fix" \
  grep -qE "misplaced.yaml:[0-9]+:[0-9]+: warning: metadata.annotations\[kueue.x-k8s.io/podset-required-topology\]: Kueue reads its topology annotations on pod templates only.*move it to .*template.spec.template.metadata.annotations" "$work/misplaced.err"

echo "kueue_topology_test: $((SECONDS - started)) s in all" >&2
finish
