#!/bin/bash
# `events` on the real control plane: a TrainJob's events (its Jobs' and pods', those of a
# pod since replaced too), oldest first, in the very table kubectl events prints for a
# namespace that holds only that job; another job's events are left out; -o json.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane

# Two nodes; node 1's first pod fails and is replaced (backoffLimit 1), then all succeed.
one_step_trainjob ev 2 '{test.kubectl-trainjob/duration: 1h}' '' 'backoffLimit: 1' |
  "$bin" submit -f - > /dev/null
eventually bash -c "[ \$(kubectl get pods -l job-name=ev-node-0 --field-selector status.phase=Running -o name | wc -l) -eq 2 ]"
running_pod() {  # running_pod INDEX: the running pod of node INDEX
  kubectl get pods -l "job-name=ev-node-0,batch.kubernetes.io/job-completion-index=$1" \
    --field-selector status.phase=Running -o jsonpath='{.items[0].metadata.name}' 2> /dev/null
}
first=$(running_pod 1)
end_pod "$first" 3
eventually bash -c "[ -n \"\$(kubectl get pods -l job-name=ev-node-0 --field-selector status.phase=Running -o name |
  grep -v '$first' | sed -n 2p)\" ]"
kubectl delete pod "$first" --wait=false > /dev/null  # replaced: only its events are left
for index in 0 1; do end_pod "$(running_pod $index)"; done
"$bin" wait ev --for=condition=Complete --timeout=60s > /dev/null
same_as_kubectl() {
  "$bin" events ev > "$work/out" 2> "$work/err" && kubectl events > "$work/kubectl.out" &&
    diff "$work/kubectl.out" "$work/out" > "$work/diff"
}
check "the table kubectl events prints of a namespace with only this job" eventually same_as_kubectl
check "... with the Job's, the pods' and the replaced pod's events, oldest first" \
  bash -c "grep -q 'Normal   SuccessfulCreate   Job/ev-node-0 ' '$work/out' &&
    grep -q 'Pod/$first ' '$work/out' && grep -q 'Normal   Completed          Job/ev-node-0 ' '$work/out' &&
    [ \"\$(tail -1 '$work/out' | awk '{print \$3}')\" = Completed ] && [ ! -s '$work/err' ]"

# Another job's events in the namespace are not this one's.
one_step_trainjob other 1 '{test.kubectl-trainjob/duration: 1h}' | "$bin" submit -f - > /dev/null
eventually bash -c "kubectl events | grep -q 'Pod/other-node-0'"
"$bin" events ev > "$work/again"
check "another job's events are left out" bash -c "! grep -q other '$work/again' && [ \$(wc -l < '$work/again') -eq \$(wc -l < '$work/out') ]"
"$bin" events trainjob/ev -o json > "$work/json"
check "-o json: an EventList of the same events, oldest first" python3 -c "
import json, sys
events = json.load(open(sys.argv[1]))
assert events['kind'] == 'EventList', events['kind']
reasons = [e['reason'] for e in events['items']]
table = [line.split()[2] for line in open(sys.argv[2]).readlines()[1:]]
assert reasons == table, (reasons, table)
" "$work/json" "$work/again"
finish
