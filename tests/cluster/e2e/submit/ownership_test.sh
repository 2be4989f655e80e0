#!/bin/bash
# What the user made stays the user's, on the real control plane: submit never labels as
# the TrainJob's an object it did not create (a ConfigMap made with `kubectl create
# configmap`, as the seed guide says; a Secret, a Service, a Job, a PVC), refuses to change
# one without --force-conflicts, and delete leaves it, saying so. A re-submit that changes
# the script of a running job says that the running pods keep the old one. A missing
# namespace is said once.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
cd "$work" || exit 1
# The seed's ConfigMap-mode TrainJob, its pods running for an hour.
sed '/^      spec:$/i\      metadata:\n        annotations: {test.kubectl-trainjob/duration: 1h}' \
  "$src/templates/configmap.yaml" > demo.yaml
job=trainjob-demo-with-configmap
cm=pytorch-demo-script
# snapshot KIND/NAME: its labels, annotations, data and spec, as kubectl shows them.
snapshot() {
  kubectl get "$1" -o json | python3 -c '
import json, sys
o = json.load(sys.stdin)
m = o["metadata"]
print(json.dumps([m.get("labels"), m.get("annotations"), m["uid"], o.get("data"), o.get("spec")], sort_keys=True))'
}
export -f snapshot

# --- the seed guide: kubectl create configmap, then submit --from-file of the same script ---
printf 'print("version A")\n' > pytorch-demo.py
kubectl create configmap "$cm" --from-file=pytorch-demo.py > /dev/null
before=$(snapshot "configmap/$cm")
"$bin" submit -f demo.yaml --from-file pytorch-demo.py > submit.out 2> submit.err
check "submit --from-file onto the user's ConfigMap, same script: exit 0" [ $? -eq 0 ]
check "... which it reports unchanged and not its own" \
  grep -qx "configmap/$cm unchanged (it was not created by submit: delete leaves it)" submit.out
check "... and leaves as it was: no label of ours, same data" \
  bash -c "[ '$before' = \"\$(snapshot configmap/$cm)\" ]"
check "... while the Job and Service are created" \
  bash -c "grep -qx 'job.batch/$job-node-0 created' submit.out && grep -qx 'service/$job created' submit.out"

# An edited script would change the user's ConfigMap: refused, nothing applied.
printf 'print("version B")\n' > pytorch-demo.py
"$bin" submit -f demo.yaml --from-file pytorch-demo.py > edit.out 2> edit.err
rc=$?
check "an edited script for the user's ConfigMap: exit 1" [ $rc -eq 1 ]
check "... saying whose it is, what would change and the flag" \
  grep -qx "error: configmap/$cm: it exists and was not created by submit, and submitting would change data.pytorch-demo.py: nothing was applied; pass --force-conflicts to change it all the same (delete still leaves it)" edit.err
check "... and changing nothing" bash -c "[ ! -s edit.out ] && [ '$before' = \"\$(snapshot configmap/$cm)\" ]"
"$bin" submit -f demo.yaml --from-file pytorch-demo.py --force-conflicts > force.out 2> force.err
check "--force-conflicts changes it: exit 0" [ $? -eq 0 ]
check "... saying so" \
  grep -qx "configmap/$cm configured (--force-conflicts; it was not created by submit: delete leaves it)" force.out
check "... the new script is in it, and still no label of ours" \
  bash -c "kubectl get configmap $cm -o jsonpath='{.data.pytorch-demo\.py}' | grep -qx 'print(\"version B\")' && [ -z \"\$(kubectl get configmap $cm -o jsonpath='{.metadata.labels}')\" ]"
# The Jobs run the old script: submit says so (finding: a silent half-applied edit).
check "... and says that the running pods keep what they read, and how to run the new one" \
  grep -qx "TrainJob $job: its Jobs are running and are left as they are: their pods keep what they read of configmap/$cm when they started, and a pod started again would read the new one; \`kubectl trainjob submit --rerun\` deletes and recreates them to run it" force.out
after=$(snapshot "configmap/$cm")
"$bin" delete "$job" > delete.out 2> delete.err
check "delete: exit 0, the Job and Service deleted, not the ConfigMap" \
  bash -c "[ $? -eq 0 ] && diff <(printf '%s\n' 'job.batch \"$job-node-0\" deleted' 'service \"$job\" deleted') delete.out"
check "... saying what it left and why" \
  grep -qx "note: configmap/$cm is left: the Jobs used it, but submit did not create it for the TrainJob (\`kubectl delete configmap/$cm\` deletes it)" delete.err
check "... which is there, unchanged (labels too)" bash -c "[ '$after' = \"\$(snapshot configmap/$cm)\" ]"
kubectl delete configmap "$cm" > /dev/null
eventually bash -c "[ -z \"\$(kubectl get pods -o name)\" ]"

# --- a ConfigMap submit created: a re-submit while the job runs changes it, and says so ----
printf 'print("version A")\n' > pytorch-demo.py
"$bin" submit -f demo.yaml --from-file pytorch-demo.py > ours.out 2>&1
check "without a ConfigMap of the user's, submit creates it, labelled as the TrainJob's" \
  bash -c "grep -qx 'configmap/$cm created' ours.out && [ \"\$(kubectl get configmap $cm -o jsonpath='{.metadata.labels.kubectl-trainjob/created-by-submit}')\" = true ]"
running() { [ "$(kubectl get pods -l "job-name=$job-node-0" -o jsonpath='{.items[*].status.phase}')" = "Running Running" ]; }
check "... its pods run" eventually running
printf 'print("version B")\n' > pytorch-demo.py
"$bin" submit -f demo.yaml --from-file pytorch-demo.py > running.out 2> running.err
check "a re-submit with an edited script while the job runs: exit 0" [ $? -eq 0 ]
check "... the ConfigMap configured, the Job unchanged, and a note" bash -c "
  grep -qx 'configmap/$cm configured' running.out && grep -qx 'job.batch/$job-node-0 unchanged' running.out &&
  grep -q '^TrainJob $job: its Jobs are running and are left as they are: their pods keep what they read of configmap/$cm' running.out"
"$bin" submit -f demo.yaml --from-file pytorch-demo.py > same.out 2>&1
check "... an unchanged re-submit says nothing of the kind" bash -c "! grep -q 'are running' same.out"
"$bin" submit -f demo.yaml --from-file pytorch-demo.py -o name > names.out 2> names.err
check "... with -o name the note goes to stderr, stdout holds names" bash -c "
  ! grep -q ' ' names.out && grep -qx 'configmap/$cm' names.out"
"$bin" delete "$job" --wait > delete.out 2> delete.err
check "delete removes the ConfigMap submit created, with no note" bash -c "
  grep -qx 'configmap \"$cm\" deleted' delete.out && [ ! -s delete.err ] && ! kubectl get configmap $cm > /dev/null 2>&1"

# --- every kind submit applies: a Secret, a PVC (inputs), the Service, a Job ----------------
one_step_trainjob kinds 1 '{test.kubectl-trainjob/duration: 1h}' > kinds.yaml
cat >> kinds.yaml <<'YAML'
---
apiVersion: v1
kind: Secret
metadata:
  name: kinds-token
stringData:
  token: abc
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: kinds-data
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
YAML
kubectl create secret generic kinds-token --from-literal=token=abc > /dev/null
kubectl apply -f - > /dev/null <<'YAML'
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: kinds-data
  labels: {team: a}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
YAML
secret=$(snapshot secret/kinds-token)
pvc=$(snapshot persistentvolumeclaim/kinds-data)
"$bin" submit -f kinds.yaml > kinds.out 2> kinds.err
check "the user's Secret and PVC among the inputs, same content: exit 0, both unchanged" bash -c "
  grep -qx 'secret/kinds-token unchanged (it was not created by submit: delete leaves it)' kinds.out &&
  grep -qx 'persistentvolumeclaim/kinds-data unchanged (it was not created by submit: delete leaves it)' kinds.out"
check "... neither labelled" bash -c "
  [ '$secret' = \"\$(snapshot secret/kinds-token)\" ] && [ '$pvc' = \"\$(snapshot persistentvolumeclaim/kinds-data)\" ]"
"$bin" delete kinds > kinds-delete.out 2>&1
check "delete leaves both" bash -c "
  ! grep -q 'kinds-token\|kinds-data' kinds-delete.out && kubectl get secret/kinds-token persistentvolumeclaim/kinds-data > /dev/null"
# The user's own Service and Job of the names the TrainJob's would have.
one_step_trainjob mine 1 '{test.kubectl-trainjob/duration: 1h}' > mine.yaml
kubectl create service clusterip mine --clusterip=None > /dev/null
service=$(snapshot service/mine)
"$bin" submit -f mine.yaml > mine.out 2> mine.err
rc=$?
check "the user's Service of the TrainJob's name: exit 1, nothing applied" \
  bash -c "[ $rc -eq 1 ] && [ ! -s mine.out ] && ! kubectl get job mine-node-0 > /dev/null 2>&1"
check "... naming it, whose it is, and what would change" \
  grep -q "^error: service/mine: it exists and was not created by submit, and submitting would change .*spec.selector.*: nothing was applied; pass --force-conflicts" mine.err
check "... and it is left as it was" bash -c "[ '$service' = \"\$(snapshot service/mine)\" ]"
kubectl delete service mine > /dev/null
kubectl create job mine-node-0 --image=busybox > /dev/null
userjob=$(snapshot job/mine-node-0)
"$bin" submit -f mine.yaml > job.out 2> job.err
rc=$?
check "the user's Job of a TrainJob Job's name: exit 1, refused, left as it was" bash -c "
  [ $rc -eq 1 ] && [ '$userjob' = \"\$(snapshot job/mine-node-0)\" ] &&
  grep -q '^error: job.batch/mine-node-0: it exists and was not created by submit, and the server refuses the change submit would make: .*field is immutable' job.err"
check "... not offering --replace, which would not delete it" bash -c "! grep -q -- --replace job.err"
check "... and the Service submit would have made first was not created" \
  bash -c "! kubectl get service mine > /dev/null 2>&1"

# --- another TrainJob's object is not this one's ---------------------------------------------
printf 'print("version A")\n' > pytorch-demo.py
"$bin" submit -f demo.yaml --from-file pytorch-demo.py > /dev/null 2>&1
sed "s/name: $job/name: second/" demo.yaml > second.yaml
"$bin" submit -f second.yaml --from-file pytorch-demo.py > second.out 2>&1
check "a second TrainJob mounting the first one's ConfigMap leaves it the first one's" bash -c "
  grep -qx 'configmap/$cm unchanged (it was created by submit for TrainJob $job: delete leaves it)' second.out &&
  [ \"\$(kubectl get configmap $cm -o jsonpath='{.metadata.labels.trainer\.kubeflow\.org/trainjob-name}')\" = $job ]"
"$bin" delete second > /dev/null 2>&1
check "... deleting the second keeps it" bash -c "kubectl get configmap $cm > /dev/null"
"$bin" delete "$job" > /dev/null 2>&1

# --- a namespace that is not there: one line, not one per object -----------------------------
"$bin" submit -f demo.yaml --from-file pytorch-demo.py -n "$ns-missing" > missing.out 2> missing.err
rc=$?
check "submit to a missing namespace: exit 1, one line" bash -c "
  [ $rc -eq 1 ] && [ \$(wc -l < missing.err) -eq 1 ] && [ ! -s missing.out ] &&
  grep -qx 'error: Error from server (NotFound): namespaces \"$ns-missing\" not found: nothing was applied; \`kubectl create namespace $ns-missing\` creates it' missing.err"
finish
