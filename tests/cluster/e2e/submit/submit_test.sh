#!/bin/bash
# submit on the real control plane: server-side apply in order under our field manager, dry
# runs, idempotence, immutable Jobs and --replace, a conflict with another field manager,
# all or nothing against a real ResourceQuota and RBAC, --from-file, and a PodGroup through
# its CRD.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# The demo TrainJob, its pods running for an hour: it stays Running while we look at it.
image=$work/image.yaml
{
  cat "$src/templates/image.yaml"
  cat <<'YAML'
  podTemplateOverrides:
    - targetJobs: [{name: node}]
      metadata:
        annotations: {test.kubectl-trainjob/duration: 1h}
YAML
} >"$image"
job=trainjob-demo-with-image-node-0
# pods_of JOB N: the Job controller has made N pods for JOB, none of them being deleted.
pods_of() {
  [ "$(kubectl get pods -l "batch.kubernetes.io/job-name=$1" -o go-template='{{range .items}}{{if not .metadata.deletionTimestamp}}x{{end}}{{end}}')" = "$(printf "%${2}s" | tr ' ' x)" ]
}
# real_requests: the plugin's requests since audit_mark that could change something: neither
# dry runs nor reads.
real_requests() { audit_requests | grep -v ' dryRun$' | grep -v '^get '; }

audit_mark
"$bin" submit -f "$image" --dry-run=server >"$work/out"
check "dry run on the server reports what it would create" \
  grep -qx "job.batch/$job created (server dry run)" "$work/out"
check "... and creates nothing" bash -c "[ -z \"\$(kubectl get jobs,services -o name)\" ]"
check "... every request it sent was a dry run" \
  bash -c "[ -n \"\$1\" ] && [ -z \"\$2\" ]" _ "$(audit_requests)" "$(real_requests)"
audit_mark
"$bin" submit -f "$image" --dry-run=client >"$work/client"
check "client dry run prints the objects" grep -q 'kind: Job' "$work/client"
check "... and sends nothing" bash -c "[ -z \"\$1\" ]" _ "$(audit_requests)"

audit_mark
"$bin" submit -f "$image" >"$work/first" 2>"$work/first.err"
check "submit exits 0" [ $? -eq 0 ]
check "the Service is applied before the Job" \
  diff <(printf '%s\n' 'service/trainjob-demo-with-image created' "job.batch/$job created") "$work/first"
check "... in that order on the server, each after its dry run" diff - <(audit_requests) <<OUT
patch services trainjob-demo-with-image dryRun
patch jobs $job dryRun
patch services trainjob-demo-with-image
patch jobs $job
OUT
check "kubectl get finds the Job, with the TrainJob's label" \
  bash -c "[ \"\$(kubectl get job $job -o jsonpath='{.metadata.labels.trainer\.kubeflow\.org/trainjob-name}')\" = trainjob-demo-with-image ]"
kubectl get job "$job" -o json --show-managed-fields >"$work/managed.json"
check "kubectl get --show-managed-fields: kubectl-trainjob applied the spec" \
  python3 -c "
import json, sys
fields = [m for m in json.load(open(sys.argv[1]))['metadata']['managedFields'] if m['manager'] == 'kubectl-trainjob']
assert [m['operation'] for m in fields] == ['Apply'], fields
assert 'f:parallelism' in fields[0]['fieldsV1']['f:spec'], fields
" "$work/managed.json"
check "the Job controller makes two pods, and they run" \
  eventually bash -c "[ \"\$(kubectl get pods -l batch.kubernetes.io/job-name=$job -o jsonpath='{.items[*].status.phase}')\" = 'Running Running' ]"

audit_mark
"$bin" submit -f "$image" >"$work/again"
check "re-submitting the same TrainJob changes nothing" \
  diff <(printf '%s\n' 'service/trainjob-demo-with-image unchanged' "job.batch/$job unchanged") "$work/again"
# (Each object the dry run finds is read once: who created it decides its labels.)
check "... and sends only applies: dry run and a read of who made it, then real" diff - <(audit_requests) <<OUT
patch services trainjob-demo-with-image dryRun
get services trainjob-demo-with-image
patch jobs $job dryRun
get jobs $job
patch services trainjob-demo-with-image
patch jobs $job
OUT

# Jobs are immutable on the real API server: a changed TrainJob is refused by it.
sed 's/numNodes: 2/numNodes: 3/' "$image" >"$work/changed.yaml"
# (The Job controller updates its status meanwhile: its spec's generation must stay.)
generation=$(kubectl get job "$job" -o jsonpath='{.metadata.generation}')
audit_mark
"$bin" submit -f "$work/changed.yaml" >"$work/changed.out" 2>"$work/changed.err"
check "a changed TrainJob whose Jobs exist fails with exit 1" [ $? -eq 1 ]
check "... saying Jobs are immutable and offering --replace" grep -q "Jobs are immutable: use --replace" "$work/changed.err"
check "... and nothing changed: only dry runs were sent" \
  bash -c "[ ! -s '$work/changed.out' ] && [ -z \"\$1\" ] && [ \"\$(kubectl get job $job -o jsonpath='{.metadata.generation} {.spec.completions}')\" = '$generation 2' ]" _ "$(real_requests)"
"$bin" submit -f "$work/changed.yaml" --replace >"$work/replace.out" 2>&1
check "--replace deletes, waits and submits" [ $? -eq 0 ]
check "... a new Job that runs three pods" eventually pods_of "$job" 3
check "... none of them the old Job's" \
  bash -c "[ -z \"\$(kubectl get pods -o jsonpath='{.items[*].metadata.ownerReferences[*].uid}' | tr ' ' '\n' | grep -vx \"\$(kubectl get job $job -o jsonpath='{.metadata.uid}')\")\" ]"

# Another field manager takes a field of ours (as `kubectl scale`, or a person with
# kubectl apply --server-side, would): our apply must not silently take it back.
kubectl apply --server-side --field-manager=other --force-conflicts -f - >/dev/null <<YAML
apiVersion: batch/v1
kind: Job
metadata:
  name: $job
spec:
  parallelism: 1
YAML
"$bin" submit -f "$work/changed.yaml" >"$work/conflict.out" 2>"$work/conflict.err"
check "a field another manager owns now: exit 1" [ $? -eq 1 ]
check "... naming the manager and the field" \
  bash -c "grep -q 'Conflict' '$work/conflict.err' && grep -q 'conflict with \"other\"' '$work/conflict.err' && grep -q '\.spec\.parallelism' '$work/conflict.err'"
check "... and the field is left as the other manager set it" \
  bash -c "[ \"\$(kubectl get job $job -o jsonpath='{.spec.parallelism}')\" = 1 ] && [ ! -s '$work/conflict.out' ]"
"$bin" delete trainjob-demo-with-image --wait >/dev/null

# All or nothing against a real quota: one Job at most. Each object's dry run passes (the
# quota is checked, not charged); the real apply of the second Job, the third object, fails.
tune_trainjob >"$work/tune.yaml"
kubectl create quota one-job --hard=count/jobs.batch=1 >/dev/null
# quota_used N: the quota controller has counted N Jobs (admission needs its status).
quota_used() { [ "$(kubectl get quota one-job -o jsonpath='{.status.used.count/jobs\.batch}')" = "$1" ]; }
eventually quota_used 0
"$bin" submit -f "$work/tune.yaml" >"$work/partial.out" 2>"$work/partial.err"
check "a failing third apply exits 1" [ $? -eq 1 ]
check "... names the failed object and the server's reason" \
  bash -c "grep -q 'applying job.batch/tune-model-initializer-0 failed: Error from server (Forbidden): .*exceeded quota: one-job' '$work/partial.err'"
check "... with no hint to ask for a Role: no Role lifts a quota" \
  bash -c "! grep -q '^hint: ' '$work/partial.err'"
check "... says what was created" grep -q "created before the failure: service/tune, job.batch/tune-dataset-initializer-0" "$work/partial.err"
check "... and removes it again" \
  bash -c "grep -q 'removed job.batch/tune-dataset-initializer-0' '$work/partial.err' && grep -q 'removed service/tune' '$work/partial.err' && [ -z \"\$(kubectl get jobs,services -o name)\" ]"
check "the quota controller counts no Job again" eventually quota_used 0
"$bin" submit -f "$work/tune.yaml" --keep-on-error >/dev/null 2>"$work/keep.err"
check "--keep-on-error keeps the first two objects" \
  bash -c "[ \$(kubectl get jobs,services -o name | wc -l) -eq 2 ] && grep -q 'kept (--keep-on-error)' '$work/keep.err'"
"$bin" delete tune --wait >/dev/null
kubectl delete quota one-job >/dev/null

# A dry run that fails changes nothing and reports every object's problem: a quota that
# allows no Job and no Service refuses each of them.
kubectl create quota none --hard=count/jobs.batch=0,services=0 >/dev/null
eventually bash -c "[ -n \"\$(kubectl get quota none -o jsonpath='{.status.hard}')\" ]"
audit_mark
"$bin" submit -f "$work/tune.yaml" >"$work/dry.out" 2>"$work/dry.err"
check "a failing dry run exits 1" [ $? -eq 1 ]
check "... reports every object" \
  bash -c "[ \$(grep -c '^error: .*: Error from server (Forbidden): .* is forbidden: exceeded quota: none' '$work/dry.err') -eq 4 ]"
check "... and creates nothing: only dry runs were sent" \
  bash -c "[ ! -s '$work/dry.out' ] && [ -z \"\$(kubectl get jobs,services -o name)\" ] && [ -n \"\$1\" ] && [ -z \"\$2\" ]" _ "$(audit_requests)" "$(real_requests)"
kubectl delete quota none >/dev/null
# The developer may do nothing in this namespace: RBAC refuses, and the hint says who asked.
"$bin" submit -f "$work/tune.yaml" --kubeconfig "$work/developer.kubeconfig" >"$work/rbac.out" 2>"$work/rbac.err"
rc=$?
check "a user without the rights: exit 1, nothing created" \
  bash -c "[ $rc -eq 1 ] && [ ! -s '$work/rbac.out' ] && [ -z \"\$(kubectl get jobs,services -o name)\" ]"
check "... naming the right missing and the user" \
  bash -c "grep -q 'error: service/tune: Error from server (Forbidden): services \"tune\" is forbidden: User \"developer\" cannot patch resource \"services\"' '$work/rbac.err' && grep -q 'hint: user \"developer\" of context \"developer\" is authenticated but not allowed' '$work/rbac.err'"

# --from-file: the ConfigMap the TrainJob mounts, from local files.
printf 'print("hello")\n' >"$work/pytorch-demo.py"
"$bin" submit -f "$src/templates/configmap.yaml" --from-file "$work/pytorch-demo.py" >"$work/cm.out" 2>"$work/cm.err"
check "--from-file: no warning that the ConfigMap it builds is missing" \
  bash -c "! grep -q 'not among the inputs' '$work/cm.err'"
check "--from-file creates the mounted ConfigMap first" \
  bash -c "head -1 '$work/cm.out' | grep -qx 'configmap/pytorch-demo-script created' && kubectl get configmap pytorch-demo-script -o jsonpath='{.data.pytorch-demo\.py}' | grep -q hello"
head -c 1100000 /dev/zero | tr '\0' 'x' >"$work/big.py"
audit_mark
"$bin" submit -f "$src/templates/configmap.yaml" --from-file "$work/big.py" >/dev/null 2>"$work/big.err"
check "a ConfigMap over 1 MiB is refused (exit 1)" [ $? -eq 1 ]
check "... before anything is sent" \
  bash -c "grep -q 'over the limit of 1048576 bytes' '$work/big.err' && [ -z \"\$1\" ]" _ "$(audit_requests)"
"$bin" submit -f "$image" --from-file "$work/pytorch-demo.py" >"$work/hash.out" 2>/dev/null
check "without a mounted ConfigMap, a content-hashed one is created and mounted" \
  bash -c "grep -qE '^configmap/trainjob-demo-with-image-files-[0-9a-f]{10} created' '$work/hash.out' && kubectl get job $job -o yaml | grep -q 'name: trainjob-demo-with-image-files-'"

"$bin" submit -f "$image" -n "$ns-nowhere" >/dev/null 2>"$work/ns.err"
check "a missing namespace exits 1" [ $? -eq 1 ]
check "... with the server's NotFound" grep -q "namespaces \"$ns-nowhere\" not found" "$work/ns.err"
audit_mark
"$bin" submit -f "$src/testdata/invalid/53-numnodes-zero/trainjob.yaml" >/dev/null 2>"$work/invalid.err"
check "an invalid TrainJob exits 1" [ $? -eq 1 ]
check "... reported as render reports it, and nothing is sent" \
  bash -c "grep -q 'trainjob.yaml:.*spec.trainer.numNodes' '$work/invalid.err' && [ -z \"\$1\" ]" _ "$(audit_requests)"

# A coscheduling PodGroup goes after the Service and before every Job, checked by the
# scheduler-plugins CRD (build.sh prepares it). CRDs are cluster-scoped and the cluster is
# shared: installed idempotently, as golden_dry_run_test.sh does, and never deleted.
kubectl apply --server-side --force-conflicts --field-manager kubectl-trainjob-tests \
  -f "$cluster/crds/scheduling.x-k8s.io_podgroups.yaml" >/dev/null
kubectl wait --for condition=Established --timeout 60s crd/podgroups.scheduling.x-k8s.io >/dev/null
cosched=$src/testdata/render/gang-coscheduling-plainml
"$bin" submit -f "$cosched/trainjob.yaml" -f "$cosched/runtime.yaml" -o name >"$work/pg.out" 2>"$work/pg.err"
check "PodGroup after the Service, before the Jobs" diff - "$work/pg.out" <<'OUT'
service/test-job
podgroup.scheduling.x-k8s.io/test-job
job.batch/test-job-dataset-initializer-0
job.batch/test-job-model-initializer-0
job.batch/test-job-node-0
OUT
check "kubectl get podgroups finds it, as render writes it" \
  bash -c "[ \"\$(kubectl get podgroups.scheduling.x-k8s.io test-job -o jsonpath='{.spec.minMember} {.spec.minResources.cpu} {.spec.scheduleTimeoutSeconds}')\" = '32 32 120' ]"
finish
