#!/bin/bash
# list and delete: TrainJobs found by their labels; delete removes every object and, with
# propagationPolicy=Background, the pods too.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
"$bin" submit -f "$src/templates/image.yaml" > /dev/null
"$bin" submit -f "$src/tests/apiserver/fixtures/three-step.yaml" > /dev/null 2>&1
ctl run '{"job": "trainjob-demo-with-image-node-0"}' > /dev/null

"$bin" list > "$work/list"
check "list: one row per TrainJob with kind, phase, steps and nodes" \
  bash -c "grep -qE '^trainjob-demo-with-image +TrainJob +Running +1 +2 +[0-9]+s$' '$work/list' && grep -qE '^tune +TrainJob +Pending +3 +2 +[0-9]+s$' '$work/list' && head -1 '$work/list' | grep -qE '^NAME +KIND +PHASE +STEPS +NODES +AGE$'"
"$bin" list -o name > "$work/names"
check "list -o name" diff <(printf 'trainjob/trainjob-demo-with-image\ntrainjob/tune\n') "$work/names"
"$bin" list -o json > "$work/list.json"
check "list -o json: a List of TrainJob statuses" \
  /usr/bin/python3 -c "import json; d = json.load(open('$work/list.json')); assert d['kind'] == 'List' and [i['status']['phase'] for i in d['items']] == ['Running', 'Pending']"
"$bin" list -n elsewhere 2> "$work/err"
check "list in an empty namespace says so" grep -qx "No TrainJobs found in elsewhere namespace." "$work/err"

ctl requests/reset > /dev/null
"$bin" delete tune --wait > "$work/delete" 2> "$work/delete.err"
check "delete --wait exits 0" [ $? -eq 0 ]
check "delete names each object, Jobs first" diff - "$work/delete" <<'OUT'
job.batch "tune-dataset-initializer-0" deleted
job.batch "tune-model-initializer-0" deleted
job.batch "tune-node-0" deleted
service "tune" deleted
OUT
check "every DELETE asks for Background propagation (no orphaned pods, no warning)" \
  bash -c "ctl get requests | /usr/bin/python3 -c 'import json,sys; r=[x for x in json.load(sys.stdin)[\"requests\"] if x[\"method\"]==\"DELETE\"]; sys.exit(0 if len(r)==4 and all(x[\"query\"].get(\"propagationPolicy\")==\"Background\" for x in r) else 1)' && [ ! -s '$work/delete.err' ]"
check "after --wait, kubectl finds neither its Jobs nor its pods" \
  bash -c "! kubectl get jobs,pods -o name | grep -q tune"
check "the other TrainJob is untouched" bash -c "[ \$(kubectl get pods -o name | wc -l) -eq 2 ]"
"$bin" submit -f "$src/tests/apiserver/fixtures/three-step.yaml" -o name > "$work/names" 2> /dev/null
check "submit -o name: kind.group/name of each object" diff - "$work/names" <<'OUT'
service/tune
job.batch/tune-dataset-initializer-0
job.batch/tune-model-initializer-0
job.batch/tune-node-0
OUT
"$bin" delete tune -o name --wait > "$work/names"
check "delete -o name" bash -c "[ \$(grep -c '^job.batch/tune-' '$work/names') -eq 3 ] && grep -qx service/tune '$work/names'"
"$bin" delete tune 2> "$work/err"
check "deleting a TrainJob that is not there: exit 1" [ $? -eq 1 ]
check "... saying so" grep -q 'trainjob "tune" not found in namespace "default"' "$work/err"
finish
