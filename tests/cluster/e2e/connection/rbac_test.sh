#!/bin/bash
# RBAC as users meet it, on the real API server's authorizer: a user bound to a namespaced
# Role over Jobs, Services, ConfigMaps, pods and pods/log does the whole loop (submit --wait,
# status, logs, list, suspend, resume, delete); a user missing one verb is told, in one line,
# which verb on which resource it lacks, as `kubectl auth can-i` would name it; and so is a
# user with no rights at all in another namespace.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
other=$ns-other
kubectl create namespace "$other" >/dev/null
trap 'kubectl delete namespace "$other" --wait=false >/dev/null 2>&1; control_plane_cleanup' EXIT

# role VERBS-OF-JOBS: the developer's Role in $ns, with those verbs on Jobs.
role() {
  kubectl apply -f - >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: trainjob-user}
rules:
  - apiGroups: [batch]
    resources: [jobs]
    verbs: [$1]
  - apiGroups: [""]
    resources: [services, configmaps, pods]
    verbs: [get, list, watch, create, update, patch, delete]
  - apiGroups: [""]
    resources: [pods/log]
    verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: trainjob-user}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: trainjob-user}
subjects: [{kind: User, name: developer, apiGroup: rbac.authorization.k8s.io}]
YAML
}
all_verbs="get, list, watch, create, update, patch, delete"
role "$all_verbs"
sed -e 's/name: trainjob-demo-with-image/name: rbac/' "$src/templates/image.yaml" >"$work/job.yaml"
dev() { KUBECONFIG=$work/developer.kubeconfig "$bin" "$@"; }
# one_error FILE VERB RESOURCE: FILE holds exactly one error line, naming VERB and RESOURCE.
one_error() {
  [ "$(grep -c 'error\|Error' "$1")" -eq 1 ] &&
    grep -q "cannot $2 resource \"$3\"" "$1"
}

# --- the whole loop with the Role ---------------------------------------------------------
check "the developer cannot read Jobs before the binding (kubectl agrees)" \
  bash -c "KUBECONFIG=$work/developer.kubeconfig kubectl auth can-i patch jobs.batch -n $other | grep -qx no"
dev submit -f "$work/job.yaml" --wait --timeout 2m >"$work/submit.out" 2>"$work/submit.err"
check "submit --wait as the developer: exit 0" [ $? -eq 0 ]
check "... the job completed" grep -q "Complete" "$work/submit.out"
pod=$(kubectl get pods -l trainer.kubeflow.org/trainjob-name=rbac -o name | head -1 | cut -d/ -f2)
pod_logs "$pod" "hello from rank 0"
dev status rbac >"$work/status.out" 2>"$work/status.err"
check "status: exit 0, Complete" bash -c "[ $? -eq 0 ] && grep -qx 'TrainJob rbac: Complete' '$work/status.out'"
check "... without a word about rights" bash -c "! grep -qi forbidden '$work/status.err'"
dev logs rbac --node 0 >"$work/logs.out" 2>"$work/logs.err"
check "logs of node 0 (pods/log): the pod's text" grep -q "hello from rank 0" "$work/logs.out"
dev list >"$work/list.out" 2>"$work/list.err"
check "list: the job, no error" bash -c "grep -q '^rbac ' '$work/list.out' && [ ! -s '$work/list.err' ]"
dev delete rbac --wait >"$work/delete.out" 2>"$work/delete.err"
check "delete --wait: exit 0" [ $? -eq 0 ]
check "... the Jobs and their pods are gone" \
  eventually bash -c "[ -z \"\$(kubectl get jobs,pods -l trainer.kubeflow.org/trainjob-name=rbac -o name)\" ]"

# --- one verb missing ------------------------------------------------------------------
role "get, list, watch, create, update, delete"
dev submit -f "$work/job.yaml" >"$work/nopatch.out" 2>"$work/nopatch.err"
check "without patch on Jobs, submit: exit 1" [ $? -eq 1 ]
check "... one error line, naming patch on jobs" one_error "$work/nopatch.err" patch jobs
check "... and nothing was created" bash -c "[ -z \"\$(kubectl get jobs,services -o name)\" ]"

role "$all_verbs"
dev submit -f "$work/job.yaml" >/dev/null 2>&1
role "get, list, watch, create, update, patch"
dev delete rbac >"$work/nodelete.out" 2>"$work/nodelete.err"
check "without delete on Jobs, delete: exit 1" [ $? -eq 1 ]
check "... one error line, naming delete on jobs" one_error "$work/nodelete.err" delete jobs
check "... and the Job is still there" bash -c "kubectl get job rbac-node-0 >/dev/null"

role "get, create, update, patch, delete"
dev status rbac >"$work/nolist.out" 2>"$work/nolist.err"
check "without list on Jobs, status: exit 1" [ $? -eq 1 ]
check "... one error line, naming list on jobs" one_error "$work/nolist.err" list jobs

# --- another namespace, no rights at all --------------------------------------------------
for command in "submit -f $work/job.yaml" "status rbac" "list" "delete rbac" "logs rbac"; do
  # shellcheck disable=SC2086
  dev $command -n "$other" >"$work/other.out" 2>"$work/other.err"
  check "$command in a namespace with no rights: exit 1" [ $? -eq 1 ]
  check "... one error line naming the namespace" \
    bash -c "[ \$(grep -c 'error\|Error' '$work/other.err') -eq 1 ] && grep -q 'in the namespace \"$other\"' '$work/other.err'"
done
finish
