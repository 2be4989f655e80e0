#!/usr/bin/env bash
# `krm` as kustomize's legacy exec plugin through the real `kubectl kustomize`: the plugin
# installed by `cmake --install`, and the kustomizations of docs/krm.md as written there.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

command -v kubectl >/dev/null || { echo "kubectl not installed"; exit 77; }
command -v cmake >/dev/null || { echo "cmake not installed"; exit 77; }

# The Nth fenced block (from 1) after the first line of docs/krm.md that holds MARKER.
doc_block() {
  awk -v marker="$1" -v want="${2:-1}" '
    index($0, marker) { found = 1 }
    found && /^```/ { if (inside) { inside = 0; if (++n == want) exit } else { inside = 1; next } }
    found && inside && n + 1 == want { print }' "$source_dir/docs/krm.md"
}

prefix="$work/prefix"
cmake --install "$(dirname "$(realpath "$binary")")" --prefix "$prefix" >"$work/install.log" 2>&1
check "cmake --install succeeds" test $? -eq 0 || cat "$work/install.log"
plugin="$prefix/share/kubectl-trainjob/kustomize/plugin/kubectl-trainjob/v1/trainjobrenderer/TrainJobRenderer"
check "the exec plugin is installed, executable" test -x "$plugin"
check "the plugin binary is installed" test -x "$prefix/bin/kubectl-trainjob"

mkdir -p "$work/docs/base" "$work/docs/overlay"
cd "$work/docs" || exit 1
doc_block '`base/kustomization.yaml`' >base/kustomization.yaml
doc_block '`base/renderer.yaml`' >base/renderer.yaml
doc_block '`overlay/kustomization.yaml`' >overlay/kustomization.yaml
command=$(doc_block '`overlay/kustomization.yaml`' 2)
check "docs/krm.md gives the kustomize command" grep -q 'kubectl kustomize' <<<"$command"
cat >base/trainjob.yaml <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: vision
spec:
  runtimeRef:
    name: vision-runtime
  trainer:
    image: example.com/vision:1
    numNodes: 2
YAML
# The runtime, consumed: no runtime of that name is built in, so a render without it fails.
local_runtime vision-runtime '[train]' '' '' torch example.com/base:1 >base/runtime.yaml

# The command of the docs, with this test's installation prefix.
bash -c "${command//\/usr\/local/$prefix}" >overlay.yaml 2>err.log
check "kubectl kustomize --enable-alpha-plugins renders the overlay" test $? -eq 0 || cat err.log
check "the TrainJob and the runtime are gone" bash -c "! grep -qE '^kind: (TrainJob|ClusterTrainingRuntime)$' overlay.yaml"
check "a Service and two Jobs come out" \
  test "$(grep -E '^kind:' overlay.yaml | sort | tr '\n' ' ')" = "kind: Job kind: Service "
check "the overlay's namespace is on every object" \
  test "$(grep -c '^  namespace: ml$' overlay.yaml)" -eq 2
check "the overlay's labels reach the Jobs' pods" \
  test "$(grep -c '^        team: vision$' overlay.yaml)" -ge 1
check "no tool annotation is left" bash -c "! grep -q 'config.k8s.io\|config.kubernetes.io' overlay.yaml"
check "the image of the TrainJob is there" grep -q 'image: example.com/vision:1' overlay.yaml

# One kustomization with namespace, commonLabels and an unrelated ConfigMap.
mkdir single
cp base/trainjob.yaml base/runtime.yaml base/renderer.yaml single/
cat >single/kustomization.yaml <<'YAML'
namespace: team-a
commonLabels:
  team: vision
resources:
- trainjob.yaml
- runtime.yaml
- settings.yaml
transformers:
- renderer.yaml
YAML
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: "3"\n' \
  >single/settings.yaml
XDG_CONFIG_HOME="$prefix/share/kubectl-trainjob" kubectl kustomize --enable-alpha-plugins single \
  >single.yaml 2>err.log
check "a single kustomization renders" test $? -eq 0 || cat err.log
check "its namespace reached the TrainJob, so every object" \
  test "$(grep -c '^  namespace: team-a$' single.yaml)" -eq 3
check "the unrelated ConfigMap passes through with kustomize's changes" \
  grep -A8 '^kind: ConfigMap$' single.yaml | grep -q 'team: vision'
# What kustomize prints is what render prints for the TrainJob in that namespace.
"$binary" render -n team-a -f single/trainjob.yaml -f single/runtime.yaml >render.yaml
check "the Jobs are render's Jobs" \
  test "$(grep -c '^kind: Job$' single.yaml)" -eq "$(grep -c '^kind: Job$' render.yaml)"
check "with render's pod env" \
  test "$(grep -A1 'name: PET_MASTER_ADDR' single.yaml | tail -1)" = \
  "$(grep -A1 'name: PET_MASTER_ADDR' render.yaml | tail -1)"

# A bad TrainJob fails kustomize with the located message.
sed -i 's/numNodes: 2/numNodes: 0/' base/trainjob.yaml
bash -c "${command//\/usr\/local/$prefix}" >bad.yaml 2>err.log
check "a bad TrainJob fails kubectl kustomize" test $? -ne 0
check "the message is located" \
  grep -q 'STDIN:[0-9]*:[0-9]*: error: spec.trainer.numNodes: expected an integer ≥ 1' err.log
check "nothing is printed" test ! -s bad.yaml

# A bad configuration: located in the configuration file.
sed -i 's/numNodes: 0/numNodes: 2/' base/trainjob.yaml
printf 'target: jobsets\n' >>base/renderer.yaml
bash -c "${command//\/usr\/local/$prefix}" >/dev/null 2>err.log
check "a bad target fails" test $? -ne 0
check "the configuration error names the configuration and the field" \
  grep -q 'TrainJobRenderer/render: error: target: expected one of jobs, jobset, found "jobsets"' err.log

finish
