#!/bin/bash
# The runtimes installed in a cluster (--runtimes-from-cluster, and submit reading them by
# itself once the Trainer's CRDs are served), on the stand-in: installing the Trainer's CRDs
# in the shared real control plane would change what every other test's submit does there
# (it would list the cluster's runtimes too). kubectl's forms and the rest run on the real
# control plane: tests/cluster/e2e/kubectl_forms_test.sh.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
image=$src/templates/image.yaml

ctl crd '{"group": "trainer.kubeflow.org"}' > /dev/null
/usr/bin/python3 - "$src/runtimes/training-runtime-demo.yaml" > "$work/cluster-rt.json" <<'PY'
import json, sys, yaml
runtime = yaml.safe_load(open(sys.argv[1]))
runtime["metadata"] = {"name": "cluster-only", "labels": {"trainer.kubeflow.org/framework": "from-cluster"}}
print(json.dumps({"object": runtime}))
PY
ctl object "@$work/cluster-rt.json" > /dev/null
"$bin" runtimes --runtimes-from-cluster > "$work/list"
check "runtimes --runtimes-from-cluster: the cluster's first, with a SOURCE" \
  bash -c "grep -qE '^cluster-only .*from-cluster +ClusterTrainingRuntime +the cluster$' '$work/list' && grep -qE '^torch-distributed .* the embedded runtimes$' '$work/list'"
"$bin" runtimes get cluster-only --runtimes-from-cluster -o json > "$work/rt.json" 2> "$work/err"
check "runtimes get NAME --runtimes-from-cluster, saying where it is from" \
  bash -c "grep -q 'read from the cluster' '$work/err' && /usr/bin/python3 -c \"import json; assert 'managedFields' not in json.load(open('$work/rt.json'))['metadata']\""
sed 's/name: training-runtime-demo/name: cluster-only/' "$image" > "$work/on-cluster.yaml"
"$bin" submit -f "$work/on-cluster.yaml" > "$work/out" 2> "$work/err"
check "submit reads the cluster's runtimes by itself once the CRD is served" \
  bash -c "[ $? -eq 0 ] && grep -q 'ClusterTrainingRuntime \"cluster-only\": using the cluster' '$work/err'"
ctl faults '{"rules": [{"method": "GET", "path": "clustertrainingruntimes$", "status": 403, "reason": "Forbidden", "message": "no"}]}' > /dev/null
"$bin" submit -f "$image" --dry-run=server > /dev/null 2> "$work/err"
check "submit: cluster runtimes not readable (403) by itself: goes on with the built-in ones, saying so" \
  bash -c "[ $? -eq 0 ] && grep -q 'not readable, using the built-in ones' '$work/err'"
"$bin" submit -f "$work/on-cluster.yaml" --runtimes-from-cluster=false > /dev/null 2> "$work/err"
check "--runtimes-from-cluster=false: offline runtimes only" \
  bash -c "[ $? -eq 1 ] && grep -q 'ClusterTrainingRuntime \"cluster-only\" not found' '$work/err'"
finish
