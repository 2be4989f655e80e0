#!/usr/bin/env bash
# Builds (default preset: RelWithDebInfo, -O2) and runs the render benchmarks:
# n=1000, n=10000 twice (per-TrainJob cost should not depend on N), the phase breakdown,
# and one whole CLI process. Figures only; nothing here passes or fails.
set -euo pipefail

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "${source_dir}"
cmake --preset default >/dev/null
cmake --build build --target trainjob-bench kubectl-trainjob >/dev/null
bench=build/tests/bench/trainjob-bench

# ns per TrainJob (parse+compile+emit) from one `--json` run's output.
ns_per_trainjob() {
  python3 -c 'import json,sys; print(json.loads(sys.argv[1])["ns_per_trainjob"]["total"])' "$1"
}

run_json() {
  echo "== trainjob-bench --n $1" >&2
  "${bench}" --n "$1" --json
}

small=$(run_json 1000)
echo "${small}"
large_a=$(run_json 10000)
echo "${large_a}"
large_b=$(run_json 10000)
echo "${large_b}"
# Ratio of per-TrainJob cost at 10000 to that at 1000: ~1.0 means cost is linear in N.
python3 - "$(ns_per_trainjob "${small}")" "$(ns_per_trainjob "${large_a}")" \
  "$(ns_per_trainjob "${large_b}")" <<'PY'
import sys
small, a, b = map(float, sys.argv[1:])
print(f"linearity_ratio_10000_over_1000  {a / small:.3f}  (run 1)")
print(f"linearity_ratio_10000_over_1000  {b / small:.3f}  (run 2)")
PY

echo "== trainjob-bench --n 10000 --phase"
"${bench}" --n 10000 --phase
echo "== single_render.sh"
tests/bench/single_render.sh build/kubectl-trainjob "${source_dir}"
echo "== startup.sh"
tests/bench/startup.sh build/kubectl-trainjob "${source_dir}" 100
