#!/usr/bin/env bash
# `krm` as a KRM function through the real kpt: `kpt fn eval --exec` over a package of
# TrainJobs, a runtime and an unrelated ConfigMap, with the configuration and commands of
# docs/krm.md as written there.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

command -v kpt >/dev/null || { echo "kpt not installed"; exit 77; }

# The Nth fenced block (from 1) after the first line of docs/krm.md that holds MARKER.
doc_block() {
  awk -v marker="$1" -v want="${2:-1}" '
    index($0, marker) { found = 1 }
    found && /^```/ { if (inside) { inside = 0; if (++n == want) exit } else { inside = 1; next } }
    found && inside && n + 1 == want { print }' "$source_dir/docs/krm.md"
}

mkdir -p "$work/bin" "$work/pkg/jobs/jobs" "$work/pkg/jobs/runtimes" "$work/pkg/jobs/other"
ln -s "$(realpath "$binary")" "$work/bin/kubectl-trainjob"
export PATH="$work/bin:$PATH"
cd "$work/pkg" || exit 1
doc_block 'as `renderer.yaml`:' >renderer.yaml
check "docs/krm.md has the renderer configuration" grep -q '^kind: TrainJobRenderer$' renderer.yaml

cat >jobs/jobs/a.yaml <<'YAML'
# TrainJob a, on the runtime of this package.
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: a
spec:
  runtimeRef:
    name: team-runtime
  trainer:
    numNodes: 2
YAML
cat >jobs/jobs/b.yaml <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata:
  name: before-b
data:
  note: "kept first"
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: b
  namespace: research
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    image: example.com/train:1
    numNodes: 1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: after-b
data:
  note: "kept last"
YAML
local_runtime team-runtime '[train]' '' '' torch example.com/team:2 >jobs/runtimes/team.yaml
cat >jobs/other/settings.yaml <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings # a comment kpt keeps
data:
  level: "3"
YAML
cp -a jobs pristine

# The first command of the kpt snippet: render into `rendered`, sources left alone.
mapfile -t commands < <(doc_block '## kpt' 2 | grep -v '^#')
check "docs/krm.md shows two kpt commands" test "${#commands[@]}" -eq 2
bash -c "${commands[0]}" >out.log 2>&1
check "kpt fn eval -o rendered succeeds" test $? -eq 0 || cat out.log
check "the package itself is untouched" diff -r pristine jobs
check "each source file has its rendered file, the runtime's none" \
  test "$(cd rendered && find . -type f | sort | tr '\n' ' ')" = \
  "./jobs/a.yaml ./jobs/b.yaml ./other/settings.yaml "
check "the unrelated ConfigMap is written as it was" cmp -s jobs/other/settings.yaml \
  rendered/other/settings.yaml
check "a.yaml holds a's Service and Job, no TrainJob" \
  test "$(grep -E '^kind:' rendered/jobs/a.yaml | tr '\n' ' ')" = "kind: Service kind: Job "
check "the configuration's namespace reaches the objects" \
  test "$(grep -c '^  namespace: ml$' rendered/jobs/a.yaml)" -eq 2
check "the runtime of the package was used" grep -q 'image: example.com/team:2' rendered/jobs/a.yaml
check "no kpt annotation is left in the files" \
  bash -c "! grep -rq 'config.kubernetes.io\|config.k8s.io' rendered"

# The objects are render's: same documents, same order, once kpt's formatting is taken off.
kubectl-trainjob render -n ml -f jobs/jobs/a.yaml -f jobs/runtimes/team.yaml >render-a.yaml 2>/dev/null
check "a.yaml holds exactly what render prints" \
  cmp -s <(kubectl-trainjob render -f rendered/jobs/a.yaml) render-a.yaml
# Each document's kind and name, in file order.
kinds_and_names() { awk '/^kind:/ { kind = $2 } /^  name:/ { printf "%s/%s ", kind, $2 }' "$1"; }
check "b.yaml keeps the ConfigMap before b, b's objects, then the other" \
  test "$(kinds_and_names rendered/jobs/b.yaml)" = \
  "ConfigMap/before-b Service/b Job/b-node-0 ConfigMap/after-b "
check "the ConfigMap before b, whose index stays, is written as it was" \
  grep -q '^  note: "kept first"$' rendered/jobs/b.yaml
check "the one after b keeps its data" grep -q "^  note: ['\"]\?kept last" rendered/jobs/b.yaml
check "b keeps its own namespace" \
  test "$(grep -c '^  namespace: research$' rendered/jobs/b.yaml)" -eq 2

# Deterministic: the same package renders to the same bytes.
bash -c "${commands[0]/ rendered/ again}" >/dev/null 2>&1
check "rendering twice gives the same files" diff -r rendered again

# In place (the second command): the TrainJobs and the runtime are replaced.
cp -a pristine inplace
bash -c "${commands[1]/eval jobs/eval inplace}" >out.log 2>&1
check "kpt fn eval in place succeeds" test $? -eq 0 || cat out.log
check "in place, the runtime's file is removed" test ! -e inplace/runtimes/team.yaml
check "in place gives the files -o gives" diff -r -x runtimes rendered inplace

# Options as a ConfigMap built by kpt from key=value arguments.
kpt fn eval pristine --exec "kubectl-trainjob krm" -o cm-out -- namespace=cm-ns trainerVersion=2.3 \
  >out.log 2>&1
check "a ConfigMap configuration from key=value works" test $? -eq 0 || cat out.log
check "its namespace is used" grep -q '^  namespace: cm-ns$' cm-out/jobs/a.yaml

# A bad TrainJob fails kpt; the message names the resource, field and file; nothing changes.
cp -a pristine bad
sed -i 's/numNodes: 2/numNodes: 0/' bad/jobs/a.yaml
cp -a bad bad-before
kpt fn eval bad --exec "kubectl-trainjob krm" --fn-config renderer.yaml >out.log 2>&1
check "a bad TrainJob fails kpt fn eval" test $? -ne 0
check "kpt prints the located result" grep -q \
  '\[error\] trainer.kubeflow.org/v1alpha1/TrainJob/a spec.trainer.numNodes: expected an integer ≥ 1' \
  out.log
check "the function's stderr names file and index" \
  grep -q 'jobs/a.yaml\[0\]: error: spec.trainer.numNodes' out.log
check "the failed package is left as it was" diff -r bad-before bad

# An unknown configuration field is an error at that field.
printf 'apiVersion: kubectl-trainjob/v1\nkind: TrainJobRenderer\nmetadata: {name: r}\nnamespaces: ml\n' \
  >typo.yaml
kpt fn eval pristine --exec "kubectl-trainjob krm" --fn-config typo.yaml -o typo-out >out.log 2>&1
check "an unknown configuration field fails kpt" test $? -ne 0
check "the result names the field" \
  grep -q '\[error\] kubectl-trainjob/v1/TrainJobRenderer/r namespaces: .*unknown option "namespaces"' out.log
check "and nothing was written" test ! -e typo-out

# The ResourceList protocol directly: results with file and index, exit 1, items unchanged.
kpt fn source bad >list.yaml 2>/dev/null
kubectl-trainjob krm <list.yaml >answer.yaml 2>err.log
check "krm exits 1 on an error" test $? -eq 1
check "the answer holds a result with file path and index" \
  grep -A12 '^results:' answer.yaml | grep -q 'path: jobs/a.yaml'
printf '{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [%s]}' \
  '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}' >list.json
kubectl-trainjob krm <list.json >answer.json
check "JSON in gives JSON out, the item passed through" \
  grep -q '^      "kind": "ConfigMap",$' answer.json

finish
