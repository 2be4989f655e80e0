#!/bin/bash
# Whole-job restart without a controller: a runtime's JobSet failurePolicy.maxRestarts, done by
# `submit --wait` and, detached, by `wait --restart`. One pod of a 4-node TrainJob fails on the
# first attempt only (kwok's test.kubectl-trainjob/exit-attempt); every Job is deleted and
# created again with the next jobset.sigs.k8s.io/restart-attempt, all four pods start again,
# and the TrainJob completes on the second attempt.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
# restarting NAME MAX_RESTARTS: $work/NAME.yaml, a 4-node TrainJob whose runtime allows
# MAX_RESTARTS restarts and whose pod at index 2 fails (exit code 1) on attempt 0 alone.
restarting() {
  one_step_trainjob "$1" 4 \
    '{test.kubectl-trainjob/exit-code: "1", test.kubectl-trainjob/exit-index: "2", test.kubectl-trainjob/exit-attempt: "0"}' |
    sed "s/^      replicatedJobs:/      failurePolicy: {maxRestarts: $2}\n&/" >"$work/$1.yaml"
}
# note_pod POD ATTEMPT INDEX: one line for each pod of the TrainJobs as it appears.
note_pod() { echo "$1 $2 $3" >>"$work/pods.seen"; }
on_new_pods "trainer.kubeflow.org/trainjob-name" \
  '{.metadata.labels.jobset\.sigs\.k8s\.io/restart-attempt} {.metadata.annotations.batch\.kubernetes\.io/job-completion-index}' \
  note_pod
# attempts NAME: "ATTEMPT INDEX" of every pod of TrainJob NAME seen so far, sorted.
attempts() { grep "^$1-node-0-" "$work/pods.seen" | cut -d' ' -f2- | sort | tr '\n' ' '; }

restarting r 1
# The attempt as the program reads it, through the downward API (docs/scheduling.md).
sed -i "s/^\( *\)command: \[train\]/&\n\1env:\n\1  - name: RESTART_ATTEMPT\n\1    valueFrom: {fieldRef: {fieldPath: \"metadata.annotations['jobset.sigs.k8s.io\/restart-attempt']\"}}/" "$work/r.yaml"
"$bin" render -f "$work/r.yaml" >/dev/null 2>"$work/r.render"
check "render says that submit --wait honours maxRestarts" \
  grep -q "failurePolicy.maxRestarts is honoured by \`submit --wait\` and \`wait --restart\`" "$work/r.render"
started=$(date +%s)
"$bin" submit -f "$work/r.yaml" --wait --timeout 120s >"$work/r.out" 2>"$work/r.err"
rc=$?
echo "# submit --wait with one restart took $(($(date +%s) - started)) s" >&2
check "submit --wait restarts the TrainJob and exits 0 once the second attempt completed" [ $rc -eq 0 ]
check "... saying so, naming the failed pod and why it failed" \
  grep -Eq '^TrainJob r: Restarting \(attempt 1 of 1\): pod r-node-0-2-[a-z0-9]{5} \(node-2\): .*exit code 1' "$work/r.out"
check "... creating the Job again" grep -qx "job.batch/r-node-0 created" <(sed -n '/Restarting/,$p' "$work/r.out")
check "... and ends Complete" bash -c "[ \"\$(tail -n 1 '$work/r.out')\" = 'TrainJob r: Complete' ]"
check "all four pods ran on attempt 0, and all four again on attempt 1" \
  eventually bash -c "[ \"\$(grep '^r-node-0-' '$work/pods.seen' | cut -d' ' -f2- | sort | tr '\n' ' ')\" = '0 0 0 1 0 2 0 3 1 0 1 1 1 2 1 3 ' ]"
check "the pods left are the second attempt's, all Succeeded" \
  bash -c "[ \"\$(kubectl get pods -l trainer.kubeflow.org/trainjob-name=r -o jsonpath='{range .items[*]}{.metadata.labels.jobset\.sigs\.k8s\.io/restart-attempt}{.status.phase} {end}')\" = '1Succeeded 1Succeeded 1Succeeded 1Succeeded ' ]"
check "the Job carries the attempt as JobSet's would: label and annotation, on it and its pods" \
  bash -c "[ \"\$(kubectl get job r-node-0 -o jsonpath='{.metadata.labels.jobset\.sigs\.k8s\.io/restart-attempt}{.metadata.annotations.jobset\.sigs\.k8s\.io/restart-attempt}{.spec.template.metadata.labels.jobset\.sigs\.k8s\.io/restart-attempt}{.spec.template.metadata.annotations.jobset\.sigs\.k8s\.io/restart-attempt}')\" = 1111 ]"
check "the API server takes the downward-API env of the attempt, which each pod's annotation feeds" \
  bash -c "[ \"\$(kubectl get pods -l trainer.kubeflow.org/trainjob-name=r -o jsonpath='{.items[0].spec.containers[0].env[?(@.name==\"RESTART_ATTEMPT\")].valueFrom.fieldRef.fieldPath} {.items[0].metadata.annotations.jobset\.sigs\.k8s\.io/restart-attempt}')\" = \"metadata.annotations['jobset.sigs.k8s.io/restart-attempt'] 1\" ]"
"$bin" status r >"$work/r.status"
check "status shows the attempt" grep -qx "Restart attempt: 1 of 1 (failurePolicy.maxRestarts)" "$work/r.status"
check "... and -o jsonpath reads it where JobSet keeps it (status.restarts)" \
  bash -c "[ \"\$('$bin' status r -o jsonpath='{.status.restarts}')\" = 1 ]"
"$bin" submit -f "$work/r.yaml" --wait --timeout 30s >"$work/again.out" 2>&1
rc=$?
check "submitting it again (at attempt 1, the file says 0) leaves its Jobs as they are: exit 0" \
  bash -c "[ $rc -eq 0 ] && grep -q 'r: its Jobs have finished and are left as they are' '$work/again.out' &&
    [ \"\$(tail -n 1 '$work/again.out')\" = 'TrainJob r: Complete' ]"

# Stages: a restart runs the initializers again, and the trainer's Job only once they completed.
tune_trainjob '{}' '{}' \
  '{test.kubectl-trainjob/exit-code: "1", test.kubectl-trainjob/exit-index: "1", test.kubectl-trainjob/exit-attempt: "0"}' |
  sed "s/^      replicatedJobs:/      failurePolicy: {maxRestarts: 1}\n&/" >"$work/tune.yaml"
"$bin" submit -f "$work/tune.yaml" --wait --timeout 120s >"$work/tune.out" 2>"$work/tune.err"
check "a TrainJob with dependsOn restarts and completes" \
  bash -c "[ $? -eq 0 ] && grep -Eq '^TrainJob tune: Restarting \(attempt 1 of 1\): pod tune-node-0-1-' '$work/tune.out'"
kubectl get jobs -o json >"$work/tune.json"
check "... all three Jobs at attempt 1, the trainer's created after both initializers completed" python3 -c "
import json, sys
jobs = {j['metadata']['name']: j for j in json.load(open(sys.argv[1]))['items'] if j['metadata']['name'].startswith('tune-')}
assert sorted(jobs) == ['tune-dataset-initializer-0', 'tune-model-initializer-0', 'tune-node-0'], sorted(jobs)
for j in jobs.values():
    assert j['metadata']['labels']['jobset.sigs.k8s.io/restart-attempt'] == '1', j['metadata']['name']
node = jobs['tune-node-0']['metadata']['creationTimestamp']
for init in ('tune-dataset-initializer-0', 'tune-model-initializer-0'):
    assert jobs[init]['status']['completionTime'] <= node, (init, jobs[init]['status'], node)
" "$work/tune.json"

# Detached: submit without --wait, then `wait --restart` (another process) does the restart.
restarting d 2
"$bin" submit -f "$work/d.yaml" >/dev/null 2>&1
"$bin" wait d --for=condition=Complete --restart --timeout=120s >"$work/d.out" 2>"$work/d.err"
rc=$?
check "wait --restart restarts a TrainJob submitted without --wait and waits for it to complete" \
  [ $rc -eq 0 ]
check "... saying which pod failed" \
  grep -Eq '^TrainJob d: Restarting \(attempt 1 of 2\): pod d-node-0-2-[a-z0-9]{5} \(node-2\): .*exit code 1' "$work/d.out"
check "... then as kubectl wait" bash -c "[ \"\$(tail -n 1 '$work/d.out')\" = 'trainjob.trainer.kubeflow.org/d condition met' ]"
check "... all four pods ran again" \
  eventually bash -c "[ \"\$(grep '^d-node-0-' '$work/pods.seen' | cut -d' ' -f2- | sort | tr '\n' ' ')\" = '0 0 0 1 0 2 0 3 1 0 1 1 1 2 1 3 ' ]"
check "status shows attempt 1 of 2" bash -c "'$bin' status d | grep -qx 'Restart attempt: 1 of 2 (failurePolicy.maxRestarts)'"

# A TrainJob that failed while nobody waited is restarted once `wait --restart` looks at it.
restarting late 1
"$bin" submit -f "$work/late.yaml" >/dev/null 2>&1
"$bin" wait late --for=condition=Failed --timeout=60s >/dev/null 2>&1
check "a TrainJob submitted without --wait fails at its first failed Job" [ $? -eq 0 ]
check "... and status says what restarts it" bash -c "'$bin' status late |
  grep -qx 'Restart attempt: 0 of 1 (failurePolicy.maxRestarts); \`kubectl trainjob wait late --for=condition=Complete --restart\` restarts it'"
"$bin" wait late --for=condition=Complete --restart --timeout=120s >"$work/late.out" 2>&1
check "wait --restart then restarts it, and it completes" \
  bash -c "grep -Eq '^TrainJob late: Restarting \(attempt 1 of 1\): pod late-node-0-2-' '$work/late.out' &&
    [ \"\$(tail -n 1 '$work/late.out')\" = 'trainjob.trainer.kubeflow.org/late condition met' ]"
finish
