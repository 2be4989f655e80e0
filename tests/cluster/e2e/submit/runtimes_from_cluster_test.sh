#!/bin/bash
# The runtimes installed in a cluster: --runtimes-from-cluster, and submit reading them by
# itself once Kubeflow Trainer's CRDs (v2.3.0's own) are served. On a control plane of its
# own (one node): with those CRDs served, every other test's submit would read the
# cluster's runtimes too.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
unset TRAINJOB_CLUSTER
NODES=1 use_control_plane
image=$src/templates/image.yaml

kubectl apply --server-side -f "$cluster/trainer-crds/" >/dev/null
established() {
  kubectl wait --for condition=Established --timeout 30s crd/trainjobs.trainer.kubeflow.org \
    crd/clustertrainingruntimes.trainer.kubeflow.org crd/trainingruntimes.trainer.kubeflow.org
} >/dev/null 2>&1
check "Kubeflow Trainer's CRDs are established" eventually established
# A ClusterTrainingRuntime of the cluster's own (the API server fills in its defaults), and
# a namespaced TrainingRuntime.
sed -e 's/name: training-runtime-demo/name: cluster-only/' \
  -e 's/trainer.kubeflow.org\/framework: .*/trainer.kubeflow.org\/framework: from-cluster/' \
  "$src/runtimes/training-runtime-demo.yaml" | kubectl apply -f - >/dev/null
sed -e 's/kind: ClusterTrainingRuntime/kind: TrainingRuntime/' -e 's/name: training-runtime-demo/name: team-runtime/' \
  "$src/runtimes/training-runtime-demo.yaml" | kubectl apply -f - >/dev/null
check "... and take runtimes" bash -c "kubectl get clustertrainingruntime cluster-only >/dev/null"

"$bin" runtimes --runtimes-from-cluster >"$work/list"
check "runtimes --runtimes-from-cluster: the cluster's first, with a SOURCE" \
  bash -c "grep -qE '^cluster-only .*ClusterTrainingRuntime +the cluster$' '$work/list' && grep -qE '^torch-distributed .* the embedded runtimes$' '$work/list'"
check "... the namespace's TrainingRuntime too" grep -qE '^team-runtime .*TrainingRuntime +the cluster' "$work/list"
"$bin" runtimes get cluster-only --runtimes-from-cluster -o json >"$work/rt.json" 2>"$work/err"
check "runtimes get NAME --runtimes-from-cluster, saying where it is from" grep -q 'read from the cluster' "$work/err"
check "... without what the server set" \
  python3 -c "import json; m = json.load(open('$work/rt.json'))['metadata']; assert not {'managedFields', 'uid', 'resourceVersion', 'creationTimestamp'} & set(m), m"

sed 's/name: training-runtime-demo/name: cluster-only/' "$image" >"$work/on-cluster.yaml"
"$bin" submit -f "$work/on-cluster.yaml" >"$work/out" 2>"$work/err"
check "submit reads the cluster's runtimes by itself once the CRD is served" \
  bash -c "[ $? -eq 0 ] && grep -q 'ClusterTrainingRuntime \"cluster-only\": using the cluster' '$work/err'"
"$bin" submit -f "$work/on-cluster.yaml" --runtimes-from-cluster=false >/dev/null 2>"$work/err"
check "--runtimes-from-cluster=false: offline runtimes only" \
  bash -c "[ $? -eq 1 ] && grep -q 'ClusterTrainingRuntime \"cluster-only\" not found' '$work/err'"

# The developer may manage Jobs and Services in the namespace but not read runtimes: the
# real authorizer's 403 on clustertrainingruntimes.
kubectl create role jobs --verb='*' --resource=jobs.batch,services,configmaps,pods >/dev/null
kubectl create rolebinding jobs --role=jobs --user=developer >/dev/null
KUBECONFIG=$work/developer.kubeconfig "$bin" submit -f "$image" --dry-run=server >/dev/null 2>"$work/err"
check "submit: cluster runtimes not readable (403) by itself: goes on with the built-in ones, saying so" \
  bash -c "[ $? -eq 0 ] && grep -q 'not readable, using the built-in ones' '$work/err'"
finish
