#!/bin/bash
# Stuck → why, on the real control plane: pods that no node can take make submit --wait fail
# after the progress deadline with the scheduler's message, and logs say what they wait for;
# a pod the Job controller retries shows as `Running (restarting ...)`, never back to Pending.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane

# --- pods that cannot be scheduled: no node has the label `type: nowhere` ------------------
one_step_trainjob stuck 2 '{}' '{type: nowhere}' > "$work/stuck.yaml"
"$bin" submit -f "$work/stuck.yaml" --wait --progress-deadline 3s > "$work/stuck.out" 2> "$work/stuck.err"
check "--wait gives up after the progress deadline: exit 1" [ $? -eq 1 ]
unschedulable='Unschedulable: 0/[0-9]+ nodes are available: [0-9]+ node\(s\) didn.t match Pod.s node affinity/selector\.'
check "... having printed each pod's reason, the scheduler's message" bash -c "
  grep -qE '^  node-0 \(pod stuck-node-0-0-[a-z0-9]{5}\): $unschedulable' '$work/stuck.out' &&
  grep -qE '^  node-1 \(pod stuck-node-0-1-[a-z0-9]{5}\): $unschedulable' '$work/stuck.out'"
check "... and saying which pods made no progress, and why" \
  grep -qE "^error: TrainJob stuck made no progress for 3 s: pod stuck-node-0-0-[a-z0-9]{5} \(node-0\) Pending: $unschedulable" "$work/stuck.err"
check "... the objects left as they are" kubectl get job stuck-node-0 -o name --no-headers > /dev/null

# --- logs of pods that have not started --------------------------------------------------------
"$bin" logs stuck > "$work/logs.out" 2> "$work/logs.err"
check "logs of pods waiting to start: exit 1, nothing on stdout" bash -c "[ $? -eq 1 ] && [ ! -s '$work/logs.out' ]"
check "... saying on stderr what each waits for" bash -c "
  grep -qE '^error: node-0 \(pod stuck-node-0-0-[a-z0-9]{5}, container node\) is waiting to start: Pending: $unschedulable' '$work/logs.err' &&
  grep -qE '^error: node-1 \(pod stuck-node-0-1-[a-z0-9]{5}, container node\) is waiting to start: Pending: $unschedulable' '$work/logs.err'"
"$bin" logs stuck -f > "$work/follow.out" 2> "$work/follow.err" &
follower=$!
check "logs -f says which pods it waits for, and why" eventually bash -c "
  grep -qE '^waiting for node-0 \(pod stuck-node-0-0-[a-z0-9]{5}\): Pending: $unschedulable' '$work/follow.err' &&
  grep -qE '^waiting for node-1 \(pod stuck-node-0-1-[a-z0-9]{5}\): Pending: $unschedulable' '$work/follow.err'"
kill "$follower"
wait "$follower" 2> /dev/null
check "... and prints no log line meanwhile" [ ! -s "$work/follow.out" ]

# --- a retried pod: Running (restarting ...), never back to Pending ---------------------------
# Hour-long pods whose Job retries a failed pod once (after the Job controller's 10 s back-off).
one_step_trainjob retry 2 '{test.kubectl-trainjob/duration: 1h}' |
  sed 's/backoffLimit: 0/backoffLimit: 1/' > "$work/retry.yaml"
"$bin" submit -f "$work/retry.yaml" --wait --timeout 60s > "$work/retry.out" 2>&1 &
submitter=$!
eventually kubectl get job retry-node-0 -o name > /dev/null 2>&1
"$bin" status retry --watch > "$work/watch.out" 2>&1 &
watcher=$!
eventually grep -q "^TrainJob retry: Running$" "$work/retry.out"
first=$(job_pod retry-node-0 0)
end_pod "$first" 7
check "a pod that exits 7: the TrainJob still Running, restarting" \
  eventually grep -q "restarting" "$work/retry.out"
retried() { p=$(job_pod retry-node-0 0) && [ "$p" != "$first" ] && [ "$(kubectl get pod "$p" -o jsonpath='{.status.phase}')" = Running ]; }
check "... the Job controller retries it in a new pod" eventually retried
end_pod "$(job_pod retry-node-0 0)"
end_pod "$(job_pod retry-node-0 1)"
wait $submitter
check "the retried TrainJob completes: exit 0" [ $? -eq 0 ]
wait $watcher
check "status --watch: exit 0 too" [ $? -eq 0 ]
phases() {  # the phases a file shows, in order, each once
  grep "^TrainJob retry: " "$1" | sed "s/^TrainJob retry: //; s/ (.*//" | uniq | tr '\n' ' '
}
waited=$(phases "$work/retry.out")
check "submit --wait: Pending, Running, Complete; never back to Pending ($waited)" \
  grep -qxE '(Pending )?Running Complete ' <<< "$waited"
check "... the retry shown as restarting, with the pod and its exit" \
  grep -qx "TrainJob retry: Running (restarting pod $first: Error (exit code 7))" "$work/retry.out"
watched=$(phases "$work/watch.out")
check "status --watch: never back to Pending either ($watched)" \
  grep -qxE '(Pending )?Running Complete ' <<< "$watched"
check "... nor its step (once Running)" bash -c "
  ! grep '^  step node: ' '$work/watch.out' | uniq | sed -n '/Running/,\$p' | grep -q Pending"
finish
