#!/usr/bin/env bash
# render --output-dir, --check and --prune as a CI pipeline uses them: exit codes, the
# diffs (which `patch` applies), missing and stale files, a DIR --check never changes,
# prune removing only what render wrote; and docs/gitops.md's CI snippet run verbatim
# through kubectl's plugin lookup.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

mkdir "$work/bin"
ln -s "$(realpath "$binary")" "$work/bin/kubectl-trainjob"
export PATH="$work/bin:$PATH"
repo="$work/repo"
mkdir -p "$repo/jobs"
cp "$source_dir/templates/image.yaml" "$source_dir/templates/print-env.yaml" "$repo/jobs/"
cd "$repo" || exit 1

render() { kubectl-trainjob render -f jobs/ --output-dir rendered/ "$@"; }
# Every entry of rendered/ with inode, mtime and size: what --check must leave alone.
snapshot() { find rendered -printf '%p %i %T@ %s %m\n' | sort; }

render
check "--output-dir writes into a new DIR" test -f rendered/trainjob-demo-with-image.yaml
check "--output-dir keeps the manifest of what it wrote" \
  bash -c 'cd rendered && sha256sum --quiet -c .kubectl-trainjob'

render --check >"$work/out" 2>"$work/err"
check "--check on an up-to-date DIR exits 0" test $? -eq 0
# The seed runtime's Jobs carry a TTL, which render warns about; nothing else is said.
check "... and prints nothing but render's warnings" \
  test ! -s "$work/out" -a -z "$(grep -v ': warning: ' "$work/err")"

# A changed TrainJob: exit 1, a unified diff on stdout, the file named on stderr.
sed -i 's/numNodes: 2/numNodes: 3/' jobs/image.yaml
before=$(snapshot)
render --check >"$work/diff" 2>"$work/err"
check "--check on a changed rendering exits 1" test $? -eq 1
check "the diff names a/ and b/ paths" \
  grep -qx -- '--- a/trainjob-demo-with-image.yaml' "$work/diff"
check "the diff shows the changed env value" \
  bash -c "grep -qx -- \"-          value: '2'\" '$work/diff' && grep -qx -- \"+          value: '3'\" '$work/diff'"
check "stderr names the changed file" \
  grep -qx 'rendered/trainjob-demo-with-image.yaml: error: differs from what render writes (unified diff on standard output)' "$work/err"
check "stderr names nothing else" test "$(grep -vc ': warning: ' "$work/err")" -eq 1
cp -r rendered "$work/patched"
patch -s -p1 -d "$work/patched" <"$work/diff"
check "patch -p1 applies the diff" test $? -eq 0
kubectl-trainjob render -f jobs/ --output-dir "$work/fresh"
check "the patched DIR is what render writes" \
  diff -r -x .kubectl-trainjob "$work/patched" "$work/fresh"
check "--check changed nothing in DIR (inode, mtime, size, mode)" test "$(snapshot)" = "$before"

# Missing and stale files: a removed TrainJob leaves its files stale; a file of ours
# deleted by hand is missing; a YAML file render never wrote is stale too, another file
# is not looked at.
rm jobs/print-env.yaml rendered/trainjob-demo-with-image.yaml
printf 'kind: Notes\n' >rendered/notes.yaml
printf 'hello\n' >rendered/README.md
before=$(snapshot)
render --check >"$work/out" 2>"$work/err"
check "--check with missing and stale files exits 1" test $? -eq 1
check "a missing file is named" \
  grep -qx 'rendered/trainjob-demo-with-image.yaml: error: missing: render writes this file' "$work/err"
check "stale files render wrote are named, with --prune" \
  test "$(grep -c 'stale: render no longer writes this file (--prune removes it)$' "$work/err")" -eq 2
check "... the TrainJob's and its ConfigMap's" \
  bash -c "grep -q '^rendered/print-env.yaml: ' '$work/err' && grep -q '^rendered/configmap-print-env-script.yaml: ' '$work/err'"
check "a stale file render never wrote is named as such" \
  grep -qx 'rendered/notes.yaml: error: stale: render does not write this file, and did not write it earlier (remove it by hand)' "$work/err"
check "other files are not looked at" bash -c "! grep -q README '$work/err'"
check "missing and stale files print no diff" test ! -s "$work/out"
check "--check changed nothing in DIR" test "$(snapshot)" = "$before"

# Without --prune nothing is removed; with it, only the files render wrote.
render
check "without --prune the stale files stay" test -f rendered/print-env.yaml
render --prune 2>"$work/err"
check "--prune succeeds" test $? -eq 0
check "--prune removes the stale files render wrote" \
  test ! -e rendered/print-env.yaml -a ! -e rendered/configmap-print-env-script.yaml
check "--prune keeps files it did not write" test -f rendered/notes.yaml -a -f rendered/README.md
render --check 2>"$work/err"
check "after --prune only the foreign file is out of date" \
  test "$(grep -v ': warning: ' "$work/err")" = 'rendered/notes.yaml: error: stale: render does not write this file, and did not write it earlier (remove it by hand)'
rm rendered/notes.yaml
render --check
check "and once it is gone --check passes" test $? -eq 0

# Errors: usage, a missing DIR, invalid input.
kubectl-trainjob render -f jobs/ --check 2>"$work/err"
check "--check without --output-dir is a usage error" test $? -eq 2
check "... that says so" grep -q -- '--check needs --output-dir' "$work/err"
kubectl-trainjob render -f jobs/ --prune 2>/dev/null
check "--prune without --output-dir is a usage error" test $? -eq 2
render --check --generate-secrets 2>/dev/null
check "--check with --generate-secrets (fresh keys each run) is a usage error" test $? -eq 2
kubectl-trainjob render -f jobs/ --output-dir "$work/none/out" --check 2>"$work/err"
check "--check on a missing DIR exits 1" test $? -eq 1
check "... naming the files render would write" grep -q 'missing: render writes this file' "$work/err"
check "... without creating DIR" test ! -e "$work/none"
sed -i 's/numNodes: 3/numNodes: 0/' jobs/image.yaml
before=$(snapshot)
render --check >"$work/out" 2>"$work/err"
check "--check on invalid input exits 1" test $? -eq 1
check "... with the located error" \
  grep -q '^jobs/image.yaml:[0-9]*:[0-9]*: error: spec.trainer.numNodes: ' "$work/err"
check "... and no diff" test ! -s "$work/out"
render --prune 2>/dev/null
check "a failed render --prune changes nothing" test "$(snapshot)" = "$before"
sed -i 's/numNodes: 0/numNodes: 2/' jobs/image.yaml

# docs/gitops.md's CI snippet, run verbatim through `kubectl trainjob`.
snippet=$(awk '/^## Output directory and --check in CI/ {in_section = 1}
               in_section && /^```sh$/ {in_block = 1; next}
               in_block && /^```$/ {exit}
               in_block {print}' "$source_dir/docs/gitops.md")
check "docs/gitops.md has a CI snippet" test -n "$snippet"
render
bash -e -c "$snippet" >"$work/out" 2>&1
check "the CI snippet passes on an up-to-date rendering" test $? -eq 0
sed -i 's/numNodes: 2/numNodes: 4/' jobs/image.yaml
bash -e -c "$snippet" >"$work/out" 2>&1
check "the CI snippet fails when the rendering is out of date" test $? -ne 0
check "... and shows the diff" grep -q "^+          value: '4'" "$work/out"

finish
