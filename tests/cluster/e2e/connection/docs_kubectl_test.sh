#!/bin/bash
# docs/kubectl.md maps kubectl's commands to ours: every `kubectl trainjob ...` in the
# second column of its tables runs here, in the order written and as written (pipes and
# quotes included), on the real control plane, and must exit 0. Its namespace team-a
# becomes one of this test's own, so that tests sharing the cluster never meet in it.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
team=$ns-team-a
kubectl create namespace "$team" >/dev/null
cleanup='kill ${background_pids:-} 2>/dev/null; kubectl delete namespace "$team" --wait=false >/dev/null 2>&1; control_plane_cleanup'
trap "$cleanup" EXIT
cp "$work/kubeconfig" "$work/team.kubeconfig"
kubectl --kubeconfig "$work/team.kubeconfig" config set-context --current --namespace "$team" >/dev/null
eventually kubectl -n "$team" get serviceaccount default >/dev/null 2>&1 ||
  { echo "no default service account in $team" >&2; exit 1; }
# Each pod prints two lines (kwok serves them) and ends by itself after a second.
two_lines() { pod_logs "$1" "$1 line 1
$1 line 2"; }
on_new_pods job-name '' two_lines
KUBECONFIG=$work/team.kubeconfig on_new_pods job-name '' two_lines
trap "$cleanup" EXIT  # on_new_pods set its own

cd "$work" || exit 1
cp "$src/tests/e2e/fixtures/pytorch-demo.py" .
"$bin" init demo --mode configmap --script pytorch-demo.py > demo.yaml
cat > tfjob.yaml <<YAML
apiVersion: kubeflow.org/v1
kind: TFJob
metadata:
  name: tensorflow-job
  namespace: $team
spec:
  tfReplicaSpecs:
    Worker:
      replicas: 2
      template:
        spec:
          containers: [{name: tensorflow, image: tensorflow-demo}]
YAML

# `kubectl trainjob ...` is this build; any other kubectl is the real one.
kubectl() {
  if [ "$1" = trainjob ]; then shift; "$bin" "$@"; else command kubectl "$@"; fi
}
# The second cell of each table row, unescaped as markdown shows it.
commands=$(python3 - "$src/docs/kubectl.md" <<'PY'
import re, sys
for line in open(sys.argv[1], encoding="utf-8"):
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
    if len(cells) == 3 and cells[1].startswith("`kubectl trainjob "):
        print(cells[1].strip("`").replace("\\|", "|"))
PY
)
check "the tables hold commands" test "$(wc -l <<< "$commands")" -ge 15
check "... some of them in namespace team-a" grep -qw -- '-n team-a' <<< "$commands"
commands=$(sed "s/\bteam-a\b/$team/g" <<< "$commands")
# follow_row COMMAND N: `logs demo -f`. kwok's log streams never end (its kubelet takes every
# container for running), so the row cannot end here: it runs until every line of every pod
# of demo has come; that it then ends with exit 0 is checked on the stand-in
# (tests/e2e/cluster/cluster_docs_kubectl_test.sh).
demo_lines() { grep -cE '^(\[node-[0-9]+\] )?demo-node-0-[0-9]+-[a-z0-9]{5} line [12]$' "$1"; }
has_lines() { [ "$(demo_lines "$1")" -ge "$2" ]; }
follow_row() {
  (eval "exec \"\$bin\"${1#kubectl trainjob}") < /dev/null > "out.$2" 2> "err.$2" &
  local follower=$! lines
  background_pids="$background_pids $follower"
  lines=$((2 * $(command kubectl get job demo-node-0 -o jsonpath='{.spec.completions}')))
  check "$1: every line of every pod of demo comes" eventually has_lines "out.$2" "$lines"
  sleep 0.5  # a line printed twice would come now
  kill "$follower"
  wait "$follower" 2> /dev/null
  check "... each once, and nothing else" \
    bash -c "[ $lines -ge 2 ] && [ \$(wc -l < out.$2) -eq $lines ] && [ \$(sort -u out.$2 | grep -cE '^(\[node-[0-9]+\] )?demo-node-0-[0-9]+-[a-z0-9]{5} line [12]\$') -eq $lines ]"
}
n=0
while IFS= read -r command; do
  n=$((n + 1))
  case $command in
    "kubectl trainjob logs demo -f") follow_row "$command" $n; continue ;;
    *" logs "*" -f"*) check "$command: a row that follows logs, which this test cannot end" false; continue ;;
  esac
  eval "$command" < /dev/null > "out.$n" 2> "err.$n"
  rc=$?
  # (--ignore-not-found of what is gone says nothing, as kubectl's.)
  quiet=false
  [[ $command != *--ignore-not-found* ]] || quiet=true
  check "$command" bash -c "[ $rc -eq 0 ] && { [ -s out.$n ] || $quiet; }"
  [ $rc -eq 0 ] || sed 's/^/  /' "err.$n" | head -20 >&2
  case $command in  # what the rows' notes promise
    *"logs tfjob/tensorflow-job --node 0"*)
      check "... worker 0's two lines" \
        bash -c "[ \$(grep -cxE 'tensorflow-job-worker-0-([0-9]+-)?[a-z0-9]{5} line [12]' out.$n) -eq 2 ]" ;;
    *"list -n $team")
      check "... the TFJob" grep -q tensorflow-job "out.$n" ;;
    *"delete -f tfjob.yaml")
      check "... and nothing of either job is left" eventually bash -c \
        "[ -z \"\$(kubectl get jobs,services,configmaps -l trainer.kubeflow.org/trainjob-name -o name; kubectl -n '$team' get jobs,services -o name)\" ]" ;;
  esac
done <<< "$commands"
finish
