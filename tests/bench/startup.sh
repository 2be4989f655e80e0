#!/usr/bin/env bash
# Start-up of the offline commands, measured side by side in one run (docs/benchmarks.md):
#   - `kubectl-trainjob version` against a trivial C++ program that prints a version string
#     with std::cout, built here with the same compiler and flags as the plugin;
#   - one `render` of a small TrainJob against `kubectl kustomize` of one Job with one
#     strategic-merge patch.
# The commands run in turn, round after round (startup_timer.cpp), and the median of each is
# printed with the ratios the goals are stated in.
# Usage: startup.sh [BINARY] [SOURCE_DIR] [ROUNDS]
set -euo pipefail

source_dir="${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
binary="${1:-${source_dir}/build-lite/kubectl-trainjob}"
rounds="${3:-200}"
cxx="${CXX:-c++}"
# CMake's RelWithDebInfo flags, which the plugin is built with.
cxx_flags=(-std=c++17 -O2 -g -DNDEBUG)

if [[ ! -x "${binary}" ]]; then
  echo "startup.sh: ${binary} is not built" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

cat >"${work}/trivial.cpp" <<'CPP'
#include <iostream>
int main() {
  std::cout << "trivial 0.1.0\n";
  return 0;
}
CPP
"${cxx}" "${cxx_flags[@]}" -o "${work}/trivial" "${work}/trivial.cpp"
"${cxx}" "${cxx_flags[@]}" -o "${work}/startup_timer" "${source_dir}/tests/bench/startup_timer.cpp"

# One Job and a strategic-merge patch that sets its parallelism and adds an env variable.
mkdir "${work}/kustomize"
cat >"${work}/kustomize/job.yaml" <<'YAML'
apiVersion: batch/v1
kind: Job
metadata:
  name: train
spec:
  completions: 2
  parallelism: 2
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: node
          image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime
          command: [torchrun, /workspace/train.py]
YAML
cat >"${work}/kustomize/patch.yaml" <<'YAML'
apiVersion: batch/v1
kind: Job
metadata:
  name: train
spec:
  parallelism: 4
  template:
    spec:
      containers:
        - name: node
          env:
            - name: NCCL_DEBUG
              value: INFO
YAML
cat >"${work}/kustomize/kustomization.yaml" <<'YAML'
resources:
  - job.yaml
patches:
  - path: patch.yaml
YAML

trainjob="${source_dir}/templates/configmap.yaml"
# A failing command would time its error path: run each once first.
"${binary}" version >/dev/null
"${binary}" render -f "${trainjob}" >/dev/null 2>&1
kubectl="$(command -v kubectl || true)"
kustomize_cmd=()
if [[ -n "${kubectl}" ]]; then
  "${kubectl}" kustomize "${work}/kustomize" >/dev/null
  kustomize_cmd=(-- "${kubectl}" kustomize "${work}/kustomize")
fi

mapfile -t medians < <("${work}/startup_timer" "${rounds}" \
  "${work}/trivial" -- "${binary}" version -- "${binary}" render -f "${trainjob}" \
  "${kustomize_cmd[@]}")
libraries=$(LD_DEBUG=libs "${binary}" version 2>&1 >/dev/null | grep -c 'calling init' || true)

echo "rounds: ${rounds} (median wall time of each command, run in turn)"
echo "shared objects initialised by \`version\`: ${libraries}"
printf '| %-44s | %10s | %-16s |\n' "command" "median" "ratio"
printf '|%s|%s|%s|\n' "----------------------------------------------" "------------" "------------------"
printf '| %-44s | %7.2f ms | %-16s |\n' "trivial C++ (std::cout)" "${medians[0]}" ""
printf '| %-44s | %7.2f ms | %-16s |\n' "kubectl-trainjob version" "${medians[1]}" \
  "$(awk -v a="${medians[1]}" -v b="${medians[0]}" 'BEGIN { printf "%.2fx trivial", a / b }')"
if [[ -n "${kubectl}" ]]; then
  printf '| %-44s | %7.2f ms | %-16s |\n' "kubectl-trainjob render (one TrainJob)" "${medians[2]}" \
    "$(awk -v a="${medians[2]}" -v b="${medians[3]}" 'BEGIN { printf "%.3fx kustomize", a / b }')"
  printf '| %-44s | %7.2f ms | %-16s |\n' "kubectl kustomize (one Job, one patch)" "${medians[3]}" ""
else
  printf '| %-44s | %7.2f ms | %-16s |\n' "kubectl-trainjob render (one TrainJob)" "${medians[2]}" \
    "(no kubectl)"
fi
