#!/bin/bash
# A job looked for in the wrong namespace: every command pointed at one job (status, logs,
# delete, suspend, resume, wait, events) says it is not found, under the TYPE the user typed,
# and in which namespace it is; a user who may not list the whole cluster gets the plain
# "not found"; nothing in the other namespace is touched.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
other=$ns-team-a
kubectl create namespace "$other" > /dev/null
trap 'kubectl delete namespace "$other" --wait=false >/dev/null 2>&1; control_plane_cleanup' EXIT

# A name of its own: the cluster is shared, and the hint lists every namespace that has it.
tj=lost-$(openssl rand -hex 3)
one_step_trainjob "$tj" 1 '{test.kubectl-trainjob/duration: 1h}' | "$bin" submit -n "$other" -f - > /dev/null
hint="; found in $other (use -n $other)"
for command in status logs delete suspend resume events "wait --for=condition=Complete"; do
  # shellcheck disable=SC2086 # the command's words
  "$bin" $command "$tj" > "$work/out" 2> "$work/err"
  # delete and suspend say which labels they looked for before the hint
  check "$command NAME: exit 1, the namespace it is in" \
    bash -c "[ $? -eq 1 ] && [ \$(wc -l < '$work/err') -eq 1 ] &&
      grep -q '^error: trainjob \"$tj\" not found in namespace \"$ns\"' '$work/err' && grep -q -- '$hint\$' '$work/err'"
done
"$bin" status pytorchjob/"$tj" > "$work/out" 2> "$work/err"
check "status pytorchjob/NAME: named as the user typed it, exactly" \
  diff <(echo "error: pytorchjob \"$tj\" not found in namespace \"$ns\"$hint") "$work/err"
"$bin" logs pytorchjob/"$tj" > "$work/out" 2> "$work/err"
check "logs pytorchjob/NAME: the same" \
  diff <(echo "error: pytorchjob \"$tj\" not found in namespace \"$ns\"$hint") "$work/err"
"$bin" status nosuch > "$work/out" 2> "$work/err"
check "a job in no namespace: the plain not found" \
  bash -c "[ $? -eq 1 ] && diff <(echo 'error: trainjob \"nosuch\" not found in namespace \"$ns\"') '$work/err'"

# The developer may read only this namespace: the cluster-wide look is refused (403), silently.
kubectl create role reader --verb=get,list,watch --resource=jobs,services,pods,events > /dev/null
kubectl create rolebinding reader --role=reader --user=developer > /dev/null
KUBECONFIG=$work/developer.kubeconfig "$bin" status "$tj" > "$work/out" 2> "$work/err"
check "no right to list the cluster: the plain not found, no word of the 403" \
  bash -c "[ $? -eq 1 ] && diff <(echo 'error: trainjob \"$tj\" not found in namespace \"$ns\"') '$work/err'"

check "nothing in $other was deleted or suspended" \
  bash -c "[ \"\$(kubectl get jobs -n '$other' -o jsonpath='{.items[*].metadata.name} {.items[*].spec.suspend}')\" = '$tj-node-0 false' ]"
"$bin" status "$tj" -n "$other" > "$work/out" 2> "$work/err"
check "-n as the hint says finds it" grep -q "^TrainJob $tj: " "$work/out"
finish
