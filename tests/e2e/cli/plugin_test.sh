#!/usr/bin/env bash
# kubectl-trainjob works as a kubectl plugin through the real kubectl on PATH.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

if ! command -v kubectl >/dev/null; then
  echo "kubectl is not installed; ./setup.sh test installs it" >&2
  exit 1
fi
mkdir "$work/bin"
cp "$binary" "$work/bin/kubectl-trainjob"
export PATH="$work/bin:$PATH"
# kubectl must not need a cluster or a kubeconfig to run a plugin.
export KUBECONFIG="$work/no-such-kubeconfig"

check "kubectl plugin list finds kubectl-trainjob" \
  bash -c 'kubectl plugin list 2>/dev/null | grep -q "/kubectl-trainjob$"'
check "kubectl trainjob version" \
  bash -c 'kubectl trainjob version | grep -q "^kubectl-trainjob [0-9]"'
direct=$("$binary" render -f "$source_dir/templates/configmap.yaml")
via_kubectl=$(kubectl trainjob render -f "$source_dir/templates/configmap.yaml")
check "kubectl trainjob render prints what the binary prints" test "$direct" = "$via_kubectl"
check "render through kubectl prints a Job" grep -q "^kind: Job$" <<<"$via_kubectl"
kubectl trainjob render -f "$work/missing.yaml" >"$work/out" 2>"$work/err"
check "exit code 1 passes through kubectl" test $? -eq 1
check "nothing on stdout on error" test ! -s "$work/out"
kubectl trainjob render --no-such-flag >/dev/null 2>&1
check "usage errors exit 2 through kubectl" test $? -eq 2
check "usage text says kubectl trainjob" \
  bash -c 'kubectl trainjob --help | grep -q "kubectl trainjob"'
finish
