#!/usr/bin/env bash
# render as a whole command: determinism, output forms, --output-dir, exit codes.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

templates="$source_dir/templates"

"$binary" render -f "$templates" >"$work/a.yaml"
"$binary" render -f "$templates" >"$work/b.yaml"
check "render is deterministic (same bytes twice)" cmp -s "$work/a.yaml" "$work/b.yaml"
# Five TrainJobs of one Job each, and sweep-linear.yaml's eight trials of one Job each.
check "a directory renders every TrainJob and every trial of the sweep" \
  test "$(grep -c '^kind: Job$' "$work/a.yaml")" -eq 13

"$binary" render -f - <"$templates/image.yaml" >"$work/stdin.yaml"
"$binary" render -f "$templates/image.yaml" >"$work/file.yaml"
check "stdin renders like the file" cmp -s "$work/stdin.yaml" "$work/file.yaml"

"$binary" render -f "$templates/image.yaml" -o json >"$work/list.json"
check "-o json prints a v1 List" grep -q '"kind": "List"' "$work/list.json"

mkdir "$work/out"
"$binary" render -f "$templates" --output-dir "$work/out"
check "--output-dir writes one file per TrainJob, an OptimizationJob's trials in one" \
  test "$(ls "$work/out" | tr '\n' ' ')" = \
  "configmap-print-env-script.yaml linear-demo.yaml print-env.yaml sweep-linear.yaml trainjob-demo-with-configmap.yaml trainjob-demo-with-hostpath.yaml trainjob-demo-with-image.yaml "
check "--output-dir files hold the same objects" \
  bash -c "cat '$work/out/trainjob-demo-with-configmap.yaml' | cmp -s - <('$binary' render -f '$templates/configmap.yaml')"

cp "$templates/image.yaml" "$work/bad.yaml"
sed -i 's/numNodes: 2/numNodes: 0/' "$work/bad.yaml"
mkdir "$work/out2"
"$binary" render -f "$templates/configmap.yaml" -f "$work/bad.yaml" --output-dir "$work/out2" \
  2>"$work/err"
check "a failed render exits 1" test $? -eq 1
check "a failed render writes nothing" test -z "$(ls "$work/out2")"
check "the error names file, line, column and field" \
  grep -q "bad.yaml:[0-9]*:[0-9]*: error: spec.trainer.numNodes: expected an integer ≥ 1" "$work/err"

# Without -f, render reads a pipe (helm's --post-renderer) and refuses a terminal.
"$binary" render <"$templates/image.yaml" >"$work/piped.yaml" 2>/dev/null
check "render without -f reads standard input when it is not a terminal" \
  cmp -s "$work/piped.yaml" <("$binary" render -f - <"$templates/image.yaml" 2>/dev/null)
if command -v script >/dev/null; then
  script -qec "'$binary' render" /dev/null >"$work/tty.out" 2>&1
  check "render without -f on a terminal is a usage error" test $? -eq 2
  check "... that says what to give" grep -q -- '--filename is required' "$work/tty.out"
fi
"$binary" render -f "$templates/image.yaml" -o xml >/dev/null 2>&1
check "an unknown output format is a usage error" test $? -eq 2
"$binary" render -f "$templates/image.yaml" --trainer-version 9.9 >/dev/null 2>&1
check "an unknown --trainer-version is a usage error" test $? -eq 2
"$binary" runtimes >"$work/runtimes"
check "runtimes lists the embedded runtimes" \
  grep -q "^torch-distributed .*ClusterTrainingRuntime" "$work/runtimes"
# Generated Secrets: the Flux example's CURVE certificate, fresh keys on every run.
flux_case="$source_dir/testdata/render/policy-flux-lammps"
"$binary" render -f "$flux_case/runtime.yaml" -f "$flux_case/trainjob.yaml" \
  --generate-secrets >"$work/flux1.yaml" 2>"$work/flux1.err"
check "--generate-secrets succeeds" test $? -eq 0
"$binary" render -f "$flux_case/runtime.yaml" -f "$flux_case/trainjob.yaml" \
  --generate-secrets >"$work/flux2.yaml" 2>/dev/null
check "--generate-secrets emits the CURVE Secret" grep -q '^  name: lammps-flux-flux-curve$' "$work/flux1.yaml"
check "the Secret is created only if absent" \
  grep -q "kubectl-trainjob/create-only-if-absent: 'true'" "$work/flux1.yaml"
check "--generate-secrets warns that the output holds private keys" \
  grep -q "^warning: the output holds private keys (Secret lammps-flux-flux-curve)" "$work/flux1.err"
check "each run generates a new key" bash -c "! cmp -s '$work/flux1.yaml' '$work/flux2.yaml'"
"$binary" render -f "$flux_case/runtime.yaml" -f "$flux_case/trainjob.yaml" >"$work/flux3.yaml" 2>/dev/null
check "without --generate-secrets there is no Secret" bash -c "! grep -q '^kind: Secret' '$work/flux3.yaml'"
finish
