#!/bin/bash
# kubectl's habits on the cluster commands: every spelling of -n/--namespace, --context and
# --kubeconfig; TYPE/NAME and TYPE NAME (and a clear error for a kind we do not manage);
# list -A; delete -f and delete of a TrainJob applied with `kubectl apply`; runtimes
# get, did-you-mean, and the runtimes installed in the cluster.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
three=$src/tests/apiserver/fixtures/three-step.yaml
image=$src/templates/image.yaml
T=trainjob-demo-with-image
ctl namespace '{"name": "other"}' > /dev/null
"$bin" submit -f "$three" > /dev/null 2>&1
"$bin" submit -f "$image" -n other > /dev/null

# -n=ns was read as the namespace "=ns"; each spelling must reach namespace "other".
for form in "-n=other" "-nother" "-n other" "--namespace=other" "--namespace other"; do
  # shellcheck disable=SC2086 # the form is two words or one, as typed
  "$bin" list $form -o name > "$work/names" 2> "$work/err"
  check "list $form" bash -c "[ \"\$(cat '$work/names')\" = trainjob/$T ]"
  # shellcheck disable=SC2086
  "$bin" status $T $form > /dev/null 2> "$work/err"
  check "status $form" [ $? -eq 0 ]
done
"$bin" render -f "$image" -n=other > "$work/rendered"
check "render -n=other writes namespace other" grep -q '^  namespace: other$' "$work/rendered"
"$bin" list --context=test --kubeconfig="$api/kubeconfig" --namespace=other -o name > "$work/names"
check "--context=NAME --kubeconfig=PATH" grep -qx "trainjob/$T" "$work/names"
"$bin" list --context=bob --kubeconfig "$api/kubeconfig" > /dev/null 2>&1
check "--context=bob picks bob's token" bash -c "ctl get requests | grep -q '\"user\": \"bob\"'"

# TYPE/NAME and TYPE NAME, with the words kubectl resolves for the CRDs.
for form in trainjob/tune "trainjob tune" trainjobs/tune TrainJob/tune trainjobs.trainer.kubeflow.org/tune \
  trainjob.v1alpha1.trainer.kubeflow.org/tune; do
  # shellcheck disable=SC2086
  "$bin" status $form > "$work/out" 2> "$work/err"
  check "status $form" bash -c "[ $? -eq 0 ] && grep -q tune '$work/out'"
done
ctl run '{"job": "tune-node-0", "index": 0}' > /dev/null
ctl log '{"job": "tune-node-0", "index": 0, "lines": ["step 1"]}' > /dev/null
"$bin" logs trainjob/tune --step node --node 0 > "$work/out" 2> "$work/err"
check "logs trainjob/NAME" grep -qx 'step 1' "$work/out"
"$bin" status deployment/foo > /dev/null 2> "$work/err"
check "a kind we do not manage: exit 1" [ $? -eq 1 ]
check "... naming what is accepted, not a server error" \
  bash -c "grep -q 'resource type \"deployment\" is not one kubectl trainjob manages' '$work/err' && grep -q 'trainjob, pytorchjob, tfjob' '$work/err' && ! grep -q 'Error from server' '$work/err'"
"$bin" logs pytorchjb/foo > /dev/null 2> "$work/err"
check "a misspelt type: did you mean" grep -q 'did you mean "pytorchjob"' "$work/err"
"$bin" delete trainjob/tune extra > /dev/null 2> "$work/err"
check "TYPE/NAME with another word is refused" grep -q 'no need to give the resource type' "$work/err"

# list -A: every namespace, NAMESPACE first as in kubectl.
"$bin" list -A > "$work/all"
check "list -A: a NAMESPACE column and both namespaces" \
  bash -c "head -1 '$work/all' | grep -qE '^NAMESPACE +NAME +KIND' && grep -qE '^default +tune +TrainJob' '$work/all' && grep -qE '^other +$T +TrainJob' '$work/all'"
"$bin" list --all-namespaces -o json > "$work/all.json"
check "list --all-namespaces -o json: each status in its own namespace" \
  /usr/bin/python3 -c "import json; d = json.load(open('$work/all.json')); assert sorted(i['metadata']['namespace'] for i in d['items']) == ['default', 'other']"

# delete: kubectl's forms, -f, and what kubectl apply made.
"$bin" delete pytorchjob/tune > /dev/null 2> "$work/err"
check "delete pytorchjob/NAME of a TrainJob: exit 1, nothing deleted" \
  bash -c "[ $? -eq 1 ] && grep -q '\"tune\" is a TrainJob' '$work/err' && kubectl get job tune-node-0 > /dev/null 2>&1"
"$bin" delete trainjob tune --wait > "$work/out"
check "delete trainjob NAME" grep -qx 'job.batch "tune-node-0" deleted' "$work/out"
"$bin" delete -f "$image" -n other > "$work/out"
check "delete -f FILE deletes the jobs it describes" grep -qx "job.batch \"$T-node-0\" deleted" "$work/out"
"$bin" delete -f "$image" -n=default > /dev/null 2> "$work/err"
check "delete -f of a job that is not there: exit 1, saying what was looked for" \
  bash -c "[ $? -eq 1 ] && grep -q 'not found in namespace \"default\"' '$work/err' && grep -q 'managed-by=kubectl-trainjob' '$work/err'"
sed 's/^  name: trainjob-demo-with-image$/  name: elsewhere\n  namespace: other/' "$image" > "$work/other.yaml"
"$bin" delete -f "$work/other.yaml" -n default > /dev/null 2> "$work/err"
check "delete -f: a file's namespace against -n is refused as kubectl does" \
  grep -q 'does not match -n "default"' "$work/err"
"$bin" render -f "$three" | kubectl apply --server-side --validate=false -f - > /dev/null
"$bin" delete trainjob/tune > "$work/out" 2> "$work/err"
check "delete finds what kubectl apply made, by render's labels" \
  bash -c "[ \$(grep -c '^job.batch \"tune-' '$work/out') -eq 3 ] && grep -qx 'service \"tune\" deleted' '$work/out'"
check "... and says what it found and how" \
  grep -q 'found 3 Jobs, 1 Service of trainjob "tune" by the labels render writes.*kubectl apply' "$work/err"

# Runtimes: get, did you mean, and those of the cluster.
"$bin" runtimes get torch-distributed -o yaml > "$work/rt.yaml"
check "runtimes get NAME -o yaml" \
  bash -c "grep -qx 'kind: ClusterTrainingRuntime' '$work/rt.yaml' && grep -qx '  name: torch-distributed' '$work/rt.yaml'"
"$bin" runtimes get torch-distributed -o json > "$work/rt.json"
check "runtimes get NAME -o json" \
  /usr/bin/python3 -c "import json; assert json.load(open('$work/rt.json'))['metadata']['name'] == 'torch-distributed'"
"$bin" runtimes get torch-distribute > /dev/null 2> "$work/err"
check "runtimes get: a misspelt name, exit 1 and did you mean" \
  bash -c "[ $? -eq 1 ] && grep -q 'did you mean \"torch-distributed\"' '$work/err'"
sed 's/name: training-runtime-demo/name: training-runtime-dem/' "$image" > "$work/typo.yaml"
"$bin" render -f "$work/typo.yaml" > /dev/null 2> "$work/err"
check "a misspelt runtimeRef.name: did you mean, and where to look" \
  bash -c "grep -q 'did you mean \"training-runtime-demo\"' '$work/err' && grep -q 'kubectl trainjob runtimes' '$work/err'"

ctl requests/reset > /dev/null
"$bin" submit -f "$image" --dry-run=server > /dev/null
check "submit without the Trainer's CRDs: asks discovery, lists no runtimes" \
  bash -c "ctl get discovery | grep -q '/apis/trainer.kubeflow.org/v1alpha1' && ! ctl get requests | grep -q trainingruntimes"
"$bin" runtimes --runtimes-from-cluster > /dev/null 2> "$work/err"
check "runtimes --runtimes-from-cluster without the CRDs: exit 1, saying so" \
  bash -c "[ $? -eq 1 ] && grep -q 'Trainer.s CRDs are not installed' '$work/err'"
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
