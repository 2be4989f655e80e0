#!/usr/bin/env bash
# The README's GitOps section, run as written: every `sh` block of it, in a folder laid out
# as the section describes (jobs/, renderer.yaml, base/ and overlay/), with the installed
# plugin on PATH and the commands going through kubectl's plugin lookup and real kpt.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

for tool in kubectl kpt cmake python3; do
  command -v $tool >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done

# The fenced blocks of one language in the README's "## GitOps" section, NUL-separated.
section_blocks() {
  awk -v lang="$1" '
    /^## / { in_section = ($0 == "## GitOps") }
    in_section && /^```/ {
      if (inside) { inside = 0; printf "%c", 0 } else if ($0 == "```" lang) { inside = 1 }
      next
    }
    in_section && inside { print }' "$source_dir/README.md"
}

prefix="$work/prefix"
cmake --install "$(dirname "$(realpath "$binary")")" --prefix "$prefix" >"$work/install.log" 2>&1
check "cmake --install succeeds" test $? -eq 0 || cat "$work/install.log"
export PATH="$prefix/bin:$PATH"

cd "$work" || exit 1
mkdir -p jobs base overlay
cp "$source_dir/templates/image.yaml" "$source_dir/templates/print-env.yaml" jobs/
cp "$source_dir/templates/image.yaml" base/trainjob.yaml
printf 'apiVersion: kubectl-trainjob/v1\nkind: TrainJobRenderer\nmetadata:\n  name: render\nnamespace: ml\n' \
  >renderer.yaml
cp renderer.yaml base/renderer.yaml
printf 'resources:\n- trainjob.yaml\ntransformers:\n- renderer.yaml\n' >base/kustomization.yaml
printf 'namespace: ml\nresources:\n- ../base\n' >overlay/kustomization.yaml

blocks=()
while IFS= read -r -d '' block; do blocks+=("$block"); done < <(section_blocks sh)
check "the section has the pipe, --check and KRM blocks" test "${#blocks[@]}" -eq 3

# 1. Pipe.
bash -euo pipefail -c "${blocks[0]}" 2>"$work/err"
check "pipe: exit 0" test $? -eq 0
check "pipe: the same stream as render" \
  bash -c "'$binary' render -f jobs/ -R 2>/dev/null | cmp -s - rendered.yaml"

# 2. --prune writes the folder, --check passes; after an edit --check fails with a diff.
bash -euo pipefail -c "${blocks[1]}" >"$work/out" 2>"$work/err"
check "--output-dir then --check: exit 0" test $? -eq 0
check "a file per TrainJob" test -f rendered/trainjob-demo-with-image.yaml -a -f rendered/print-env.yaml
sed -i 's/numNodes: 2/numNodes: 3/' jobs/image.yaml
kubectl trainjob render -f jobs/ --output-dir rendered/ --check >"$work/out" 2>"$work/err"
check "a stale rendering: --check exits 1" test $? -eq 1
check "... with a unified diff" grep -q '^+++ b/trainjob-demo-with-image.yaml' "$work/out"
sed -i 's/numNodes: 3/numNodes: 2/' jobs/image.yaml

# 3. kpt and kustomize; the install path is the test's prefix.
block=${blocks[2]//\/usr\/local/$prefix}
bash -euo pipefail -c "$block" >"$work/kustomized.yaml" 2>"$work/err"
check "KRM: kpt and kustomize exit 0" test $? -eq 0 || cat "$work/err"
check "kpt wrote the rendered Jobs beside their source" \
  grep -q '^kind: Job$' rendered-kpt/image.yaml
check "kustomize rendered the TrainJob into Jobs in namespace ml" python3 -c "
import yaml
docs = [d for d in yaml.safe_load_all(open('$work/kustomized.yaml')) if d]
jobs = [d for d in docs if d['kind'] == 'Job']
assert len(jobs) == 1 and all(d['metadata']['namespace'] == 'ml' for d in docs), docs
assert not [d for d in docs if d['kind'] == 'TrainJob'], docs
"

# 4. Argo CD: the Application names the plugin that dist/argocd/plugin.yaml defines, and
# that plugin's generate renders jobs/ as render does.
section_blocks yaml | tr '\0' '\n' >application.yaml
check "the Application names the plugin" python3 -c "
import yaml
app = yaml.safe_load(open('application.yaml'))
plugin = yaml.safe_load(open('$source_dir/dist/argocd/plugin.yaml'))
assert app['spec']['source']['plugin']['name'] == plugin['metadata']['name'], (app, plugin)
assert app['spec']['source']['path'] == 'jobs'
"
generate=$(python3 -c "
import yaml
g = yaml.safe_load(open('$source_dir/dist/argocd/plugin.yaml'))['spec']['generate']
print(g['args'][0])")
(cd jobs && ARGOCD_APP_NAMESPACE=ml sh -c "$generate") >"$work/argocd.yaml" 2>"$work/err"
check "the plugin's generate renders the Application's directory" \
  bash -c "cd jobs && '$binary' render -f . -n ml --gitops-order argocd 2>/dev/null |
    cmp -s - '$work/argocd.yaml'"
finish
