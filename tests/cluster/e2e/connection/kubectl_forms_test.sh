#!/bin/bash
# kubectl's habits on the cluster commands, against the real API server: every spelling of
# -n/--namespace, --context, --kubeconfig and --user (the user the API server saw, from its
# audit log); TYPE/NAME and TYPE NAME (and a clear error for a kind we do not manage);
# list -A; delete -f and delete of what `kubectl apply` made from render's output; runtimes
# get, did-you-mean, and what --runtimes-from-cluster does where the Trainer's CRDs are not
# installed (the shared cluster has none: the runtimes a cluster serves are tested on a
# control plane of their own, in tests/cluster/e2e/submit/runtimes_from_cluster_test.sh).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
other=$ns-other
kubectl create namespace "$other" >/dev/null
trap 'kubectl delete namespace "$other" --wait=false >/dev/null 2>&1; control_plane_cleanup' EXIT
eventually kubectl get serviceaccount default -n "$other" >/dev/null 2>&1
# The developer's context in our copy of the kubeconfig works in our namespace too.
kubectl config set-context developer --namespace "$ns" >/dev/null
image=$src/templates/image.yaml
T=trainjob-demo-with-image
# tune: two initializers, then two nodes that run for an hour (their logs are read below).
tune_trainjob '{}' '{}' '{test.kubectl-trainjob/duration: 1h}' >"$work/three.yaml"
three=$work/three.yaml
"$bin" submit -f "$three" >/dev/null 2>&1
"$bin" submit -f "$image" -n "$other" >/dev/null 2>&1

# -n=ns was read as the namespace "=ns"; each spelling must reach namespace $other.
for form in "-n=$other" "-n$other" "-n $other" "--namespace=$other" "--namespace $other"; do
  # shellcheck disable=SC2086 # the form is two words or one, as typed
  "$bin" list $form -o name >"$work/names" 2>"$work/err"
  check "list $form" bash -c "[ \"\$(cat '$work/names')\" = trainjob/$T ]"
  # shellcheck disable=SC2086
  "$bin" status $T $form >/dev/null 2>"$work/err"
  check "status $form" [ $? -eq 0 ]
done
"$bin" render -f "$image" -n="$other" >"$work/rendered" 2>/dev/null
check "render -n=NS writes that namespace" grep -q "^  namespace: $other\$" "$work/rendered"
KUBECONFIG=$work/none "$bin" list --context=admin --kubeconfig="$work/kubeconfig" --namespace="$other" \
  -o name >"$work/names"
check "--context=NAME --kubeconfig=PATH" grep -qx "trainjob/$T" "$work/names"

# Which credentials reached the server: the API server's audit log names the user.
audit_mark
"$bin" list >/dev/null 2>&1
check "the current context: the admin's client certificate" diff <(echo kubernetes-admin) <(audit_users)
audit_mark
"$bin" list --context=developer >/dev/null 2>&1
check "--context=developer: the developer's token" diff <(echo developer) <(audit_users)
audit_mark
"$bin" list --context developer --kubeconfig "$work/kubeconfig" >/dev/null 2>&1
check "--context NAME --kubeconfig PATH: the developer's token" diff <(echo developer) <(audit_users)
audit_mark
"$bin" list --user=developer >/dev/null 2>&1
check "--user=developer in the admin's context: the developer's token" diff <(echo developer) <(audit_users)

# TYPE/NAME and TYPE NAME, with the words kubectl resolves for the CRDs.
for form in trainjob/tune "trainjob tune" trainjobs/tune TrainJob/tune trainjobs.trainer.kubeflow.org/tune \
  trainjob.v1alpha1.trainer.kubeflow.org/tune; do
  # shellcheck disable=SC2086
  "$bin" status $form >"$work/out" 2>"$work/err"
  check "status $form" bash -c "[ $? -eq 0 ] && grep -q tune '$work/out'"
done
eventually bash -c "[ -n \"\$(kubectl get pods -l job-name=tune-node-0,batch.kubernetes.io/job-completion-index=0 --field-selector status.phase=Running -o name)\" ]"
pod=$(job_pod tune-node-0 0)
pod_logs "$pod" "step 1"
eventually kubectl logs "$pod" >/dev/null 2>&1
"$bin" logs trainjob/tune --step node --node 0 >"$work/out" 2>"$work/err"
check "logs trainjob/NAME" grep -qx 'step 1' "$work/out"
"$bin" status deployment/foo >/dev/null 2>"$work/err"
check "a kind we do not manage: exit 1" [ $? -eq 1 ]
check "... naming what is accepted, not a server error" \
  bash -c "grep -q 'resource type \"deployment\" is not one kubectl trainjob manages' '$work/err' && grep -q 'trainjob, pytorchjob, tfjob' '$work/err' && ! grep -q 'Error from server' '$work/err'"
"$bin" logs pytorchjb/foo >/dev/null 2>"$work/err"
check "a misspelt type: did you mean" grep -q 'did you mean "pytorchjob"' "$work/err"
"$bin" delete trainjob/tune extra >/dev/null 2>"$work/err"
check "TYPE/NAME with another word is refused" grep -q 'no need to give the resource type' "$work/err"

# list -A: every namespace, NAMESPACE first as in kubectl. Other tests share the cluster:
# only our two namespaces' rows are ours to judge.
"$bin" list -A >"$work/all"
check "list -A: a NAMESPACE column and both our namespaces, one row each" \
  bash -c "head -1 '$work/all' | grep -qE '^NAMESPACE +NAME +KIND' && [ \$(grep -cE '^$ns +' '$work/all') -eq 1 ] && grep -qE '^$ns +tune +TrainJob' '$work/all' && [ \$(grep -cE '^$other +' '$work/all') -eq 1 ] && grep -qE '^$other +$T +TrainJob' '$work/all'"
"$bin" list --all-namespaces -o json >"$work/all.json"
check "list --all-namespaces -o json: each status in its own namespace" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
ours = sorted((i['metadata']['namespace'], i['metadata']['name']) for i in d['items']
              if i['metadata']['namespace'] in sys.argv[2:])
assert ours == sorted([(sys.argv[2], 'tune'), (sys.argv[3], '$T')]), ours
" "$work/all.json" "$ns" "$other"

# delete: kubectl's forms, -f, and what kubectl apply made.
"$bin" delete pytorchjob/tune >/dev/null 2>"$work/err"
check "delete pytorchjob/NAME of a TrainJob: exit 1, nothing deleted" \
  bash -c "[ $? -eq 1 ] && grep -q '\"tune\" is a TrainJob' '$work/err' && kubectl get job tune-node-0 >/dev/null 2>&1"
"$bin" delete trainjob tune --wait >"$work/out"
check "delete trainjob NAME" \
  bash -c "grep -qx 'job.batch \"tune-node-0\" deleted' '$work/out' && [ -z \"\$(kubectl get jobs,services -o name)\" ]"
"$bin" delete -f "$image" -n "$other" >"$work/out"
check "delete -f FILE deletes the jobs it describes" \
  bash -c "grep -qx 'job.batch \"$T-node-0\" deleted' '$work/out' && [ -z \"\$(kubectl get jobs -n '$other' -o name)\" ]"
"$bin" delete -f "$image" -n="$ns" >/dev/null 2>"$work/err"
check "delete -f of a job that is not there: exit 1, saying what was looked for" \
  bash -c "[ $? -eq 1 ] && grep -q 'not found in namespace \"$ns\"' '$work/err' && grep -q 'managed-by=kubectl-trainjob' '$work/err'"
sed "s/^  name: $T\$/  name: elsewhere\n  namespace: $other/" "$image" >"$work/other.yaml"
"$bin" delete -f "$work/other.yaml" -n "$ns" >/dev/null 2>"$work/err"
check "delete -f: a file's namespace against -n is refused as kubectl does" \
  grep -q "does not match -n \"$ns\"" "$work/err"
"$bin" render -f "$three" 2>/dev/null | kubectl apply --server-side -f - >/dev/null
check "kubectl apply made tune's Jobs from render's output" \
  bash -c "[ \$(kubectl get jobs -o name | grep -c '^job.batch/tune-') -eq 3 ]"
"$bin" delete trainjob/tune >"$work/out" 2>"$work/err"
check "delete finds what kubectl apply made, by render's labels" \
  bash -c "[ \$(grep -c '^job.batch \"tune-' '$work/out') -eq 3 ] && grep -qx 'service \"tune\" deleted' '$work/out' && [ -z \"\$(kubectl get jobs,services -o name)\" ]"
check "... and says what it found and how" \
  grep -q 'found 3 Jobs, 1 Service of trainjob "tune" by the labels render writes.*kubectl apply' "$work/err"

# Runtimes: get and did you mean, from the built-in ones.
"$bin" runtimes get torch-distributed -o yaml >"$work/rt.yaml"
check "runtimes get NAME -o yaml" \
  bash -c "grep -qx 'kind: ClusterTrainingRuntime' '$work/rt.yaml' && grep -qx '  name: torch-distributed' '$work/rt.yaml'"
"$bin" runtimes get torch-distributed -o json >"$work/rt.json"
check "runtimes get NAME -o json" \
  python3 -c "import json; assert json.load(open('$work/rt.json'))['metadata']['name'] == 'torch-distributed'"
"$bin" runtimes get torch-distribute >/dev/null 2>"$work/err"
check "runtimes get: a misspelt name, exit 1 and did you mean" \
  bash -c "[ $? -eq 1 ] && grep -q 'did you mean \"torch-distributed\"' '$work/err'"
sed 's/name: training-runtime-demo/name: training-runtime-dem/' "$image" >"$work/typo.yaml"
"$bin" render -f "$work/typo.yaml" >/dev/null 2>"$work/err"
check "a misspelt runtimeRef.name: did you mean, and where to look" \
  bash -c "grep -q 'did you mean \"training-runtime-demo\"' '$work/err' && grep -q 'kubectl trainjob runtimes' '$work/err'"

# A cluster without the Trainer's CRDs: the real API server answers discovery with a 404.
audit_mark
"$bin" submit -f "$image" --dry-run=server -v=6 >/dev/null 2>"$work/trace"
audit_requests >"$work/requests"
check "submit without the Trainer's CRDs: asks discovery (404), lists no runtimes" \
  bash -c "grep -q '^I GET https://[^ ]*/apis/trainer.kubeflow.org/v1alpha1 404 in' '$work/trace' && ! grep -q trainingruntimes '$work/trace' '$work/requests' && grep -q '^patch jobs .* dryRun\$' '$work/requests'"
"$bin" runtimes --runtimes-from-cluster >/dev/null 2>"$work/err"
check "runtimes --runtimes-from-cluster without the CRDs: exit 1, saying so" \
  bash -c "[ $? -eq 1 ] && grep -q 'Trainer.s CRDs are not installed' '$work/err'"
finish
