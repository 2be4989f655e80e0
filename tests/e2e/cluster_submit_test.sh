#!/bin/bash
# submit against the test API server: server-side apply in order, dry runs, idempotence,
# immutable Jobs and --replace, all-or-nothing with rollback, --from-file, and the real
# kubectl reading what was created through the same kubeconfig.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
image=$src/templates/image.yaml
fixtures=$src/tests/apiserver/fixtures

check "dry run on the server creates nothing" \
  bash -c "'$bin' submit -f '$image' --dry-run=server > '$work/out' && grep -q 'job.batch/trainjob-demo-with-image-node-0 created (server dry run)' '$work/out' && [ -z \"\$(kubectl get jobs -o name)\" ]"
check "client dry run prints the objects and sends nothing" \
  bash -c "'$bin' submit -f '$image' --dry-run=client | grep -q 'kind: Job' && [ -z \"\$(kubectl get jobs -o name)\" ]"

"$bin" submit -f "$image" > "$work/first" 2> "$work/first.err"
check "submit exits 0" [ $? -eq 0 ]
check "the Service is applied before the Job" \
  diff <(printf '%s\n' 'service/trainjob-demo-with-image created' 'job.batch/trainjob-demo-with-image-node-0 created') "$work/first"
check "kubectl get finds the Job" bash -c "kubectl get jobs -o name | grep -qx job.batch/trainjob-demo-with-image-node-0"
check "kubectl get -o yaml shows our field manager and labels" \
  bash -c "kubectl get job trainjob-demo-with-image-node-0 -o yaml | grep -q 'trainer.kubeflow.org/trainjob-name: trainjob-demo-with-image' && kubectl get job trainjob-demo-with-image-node-0 -o yaml --show-managed-fields | grep -q 'manager: kubectl-trainjob'"
check "the Job controller made two pods" bash -c "[ \$(kubectl get pods -o name | wc -l) -eq 2 ]"

ctl requests/reset > /dev/null
"$bin" submit -f "$image" > "$work/again"
check "re-submitting the same TrainJob changes nothing" \
  diff <(printf '%s\n' 'service/trainjob-demo-with-image unchanged' 'job.batch/trainjob-demo-with-image-node-0 unchanged') "$work/again"
check "re-submitting sends only applies (dry run, then real)" \
  bash -c "ctl get requests | /usr/bin/python3 -c 'import json,sys; r=json.load(sys.stdin)[\"requests\"]; sys.exit(0 if len(r)==4 and all(x[\"method\"]==\"PATCH\" and x[\"query\"][\"fieldManager\"]==\"kubectl-trainjob\" for x in r) else 1)'"

sed 's/numNodes: 2/numNodes: 3/' "$image" > "$work/changed.yaml"
"$bin" submit -f "$work/changed.yaml" > "$work/changed.out" 2> "$work/changed.err"
check "a changed TrainJob whose Jobs exist fails with exit 1" [ $? -eq 1 ]
check "... saying Jobs are immutable and offering --replace" grep -q "Jobs are immutable: use --replace" "$work/changed.err"
check "... and nothing changed" bash -c "[ \$(kubectl get pods -o name | wc -l) -eq 2 ] && [ ! -s '$work/changed.out' ]"
"$bin" submit -f "$work/changed.yaml" --replace > "$work/replace.out" 2>&1
check "--replace deletes, waits and submits" [ $? -eq 0 ]
check "... and the new Job runs three pods" bash -c "[ \$(kubectl get pods -o name | wc -l) -eq 3 ]"
"$bin" delete trainjob-demo-with-image --wait > /dev/null

# All or nothing: the third apply fails; the first two objects are removed again.
ctl faults '{"rules": [{"method": "PATCH", "dry_run": false, "skip": 2, "times": 1, "status": 422, "reason": "Invalid", "message": "admission webhook \"policy.example\" denied the request", "causes": [{"reason": "FieldValueForbidden", "field": "spec.template.spec.containers[0].image", "message": "images must come from registry.example"}]}]}' > /dev/null
"$bin" submit -f "$fixtures/three-step.yaml" > "$work/partial.out" 2> "$work/partial.err"
check "a failing third apply exits 1" [ $? -eq 1 ]
check "... names the failed object and the server's cause" \
  bash -c "grep -q 'applying job.batch/tune-model-initializer-0 failed' '$work/partial.err' && grep -q 'spec.template.spec.containers\[0\].image: images must come from registry.example' '$work/partial.err'"
check "... says what was created" grep -q "created before the failure: service/tune, job.batch/tune-dataset-initializer-0" "$work/partial.err"
check "... and removes it again" bash -c "grep -q 'removed job.batch/tune-dataset-initializer-0' '$work/partial.err' && sleep 0.5 && [ -z \"\$(kubectl get jobs,services -o name)\" ]"
ctl faults '{"rules": [{"method": "PATCH", "dry_run": false, "skip": 2, "times": 1, "status": 422, "reason": "Invalid", "message": "denied"}]}' > /dev/null
"$bin" submit -f "$fixtures/three-step.yaml" --keep-on-error > /dev/null 2> "$work/keep.err"
check "--keep-on-error keeps the first two objects" \
  bash -c "[ \$(kubectl get jobs,services -o name | wc -l) -eq 2 ] && grep -q 'kept (--keep-on-error)' '$work/keep.err'"
ctl faults '{"rules": []}' > /dev/null
"$bin" delete tune --wait > /dev/null

# A dry run that fails changes nothing and reports every object's problem.
ctl faults '{"rules": [{"method": "PATCH", "dry_run": true, "times": 9, "status": 403, "reason": "Forbidden", "message": "jobs.batch is forbidden: quota"}]}' > /dev/null
"$bin" submit -f "$fixtures/three-step.yaml" > "$work/dry.out" 2> "$work/dry.err"
check "a failing dry run exits 1" [ $? -eq 1 ]
check "... creates nothing and reports every object" \
  bash -c "[ ! -s '$work/dry.out' ] && [ -z \"\$(kubectl get jobs,services -o name)\" ] && [ \$(grep -c 'Error from server (Forbidden)' '$work/dry.err') -eq 4 ]"
ctl faults '{"rules": []}' > /dev/null

# --from-file: the ConfigMap the TrainJob mounts, from local files.
printf 'print("hello")\n' > "$work/pytorch-demo.py"
"$bin" submit -f "$src/templates/configmap.yaml" --from-file "$work/pytorch-demo.py" > "$work/cm.out" 2>"$work/cm.err"
check "--from-file: no warning that the ConfigMap it builds is missing" \
  bash -c "! grep -q 'not among the inputs' '$work/cm.err'"
check "--from-file creates the mounted ConfigMap first" \
  bash -c "head -1 '$work/cm.out' | grep -qx 'configmap/pytorch-demo-script created' && kubectl get configmap pytorch-demo-script -o jsonpath='{.data.pytorch-demo\.py}' | grep -q hello"
head -c 1100000 /dev/zero | tr '\0' 'x' > "$work/big.py"
ctl requests/reset > /dev/null
"$bin" submit -f "$src/templates/configmap.yaml" --from-file "$work/big.py" > /dev/null 2> "$work/big.err"
check "a ConfigMap over 1 MiB is refused (exit 1)" [ $? -eq 1 ]
check "... before anything is sent" \
  bash -c "grep -q 'over the limit of 1048576 bytes' '$work/big.err' && [ \$(request_count) -eq 0 ]"
"$bin" submit -f "$image" --from-file "$work/pytorch-demo.py" > "$work/hash.out" 2>/dev/null
check "without a mounted ConfigMap, a content-hashed one is created and mounted" \
  bash -c "grep -qE '^configmap/trainjob-demo-with-image-files-[0-9a-f]{10} created' '$work/hash.out' && kubectl get job trainjob-demo-with-image-node-0 -o yaml | grep -q 'name: trainjob-demo-with-image-files-'"

"$bin" submit -f "$image" -n nowhere > /dev/null 2> "$work/ns.err"
check "a missing namespace exits 1" [ $? -eq 1 ]
check "... with the server's NotFound" bash -c "grep -q 'namespaces \"nowhere\" not found' '$work/ns.err'"
ctl requests/reset > /dev/null
"$bin" submit -f "$src/testdata/invalid/53-numnodes-zero/trainjob.yaml" > /dev/null 2> "$work/invalid.err"
check "an invalid TrainJob exits 1" [ $? -eq 1 ]
check "... reported as render reports it, and nothing is sent" \
  bash -c "grep -q 'trainjob.yaml:.*spec.trainer.numNodes' '$work/invalid.err' && [ \$(request_count) -eq 0 ]"

# A coscheduling PodGroup goes after the Service and before every Job; kubectl sees it.
cosched=$src/testdata/render/gang-coscheduling-plainml
"$bin" submit -f "$cosched/trainjob.yaml" -f "$cosched/runtime.yaml" -o name > "$work/pg.out" 2>/dev/null
check "PodGroup after the Service, before the Jobs" diff - "$work/pg.out" <<'OUT'
service/test-job
podgroup.scheduling.x-k8s.io/test-job
job.batch/test-job-dataset-initializer-0
job.batch/test-job-model-initializer-0
job.batch/test-job-node-0
OUT
check "kubectl get podgroups finds it" bash -c "kubectl get podgroups -o name | grep -qx podgroup.scheduling.x-k8s.io/test-job"
finish
