#!/usr/bin/env bash
# Validation throughput: `kubectl trainjob validate` on N generated TrainJobs (one YAML
# stream, one process), the in-process phases, and Python's jsonschema on the same
# documents against the same schema, side by side. Needs python3-jsonschema and
# python3-yaml (Debian). A measurement, never a pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-10000}
cmake --build build --target kubectl-trainjob trainjob-bench >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/tests/bench/trainjob-bench --n "$n" --print-stream >"$work/trainjobs.yaml"
echo "documents                   $n ($(du -h "$work/trainjobs.yaml" | cut -f1) of YAML)"

# Five runs: the machine's speed varies from run to run, so the best and the median.
times=()
for run in 1 2 3 4 5; do
  start=$(date +%s%N)
  /usr/bin/time -f "%M" -o "$work/rss" build/kubectl-trainjob validate -f "$work/trainjobs.yaml" \
    -o json >"$work/report.json" || true
  end=$(date +%s%N)
  times+=($(((end - start) / 1000000)))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
best=${sorted[0]}
median=${sorted[2]}
echo "cli_validate_ms             ${times[*]}"
echo "cli_validate_docs_per_s     best $((n * 1000 / (best > 0 ? best : 1))), median $((n * 1000 / (median > 0 ? median : 1)))  (parse + schema + semantic checks + report)"
echo "cli_validate_peak_rss_mib   $(($(cat "$work/rss") / 1024))"
build/tests/bench/trainjob-bench --n "$n" --validate --phase | grep -E "per_s|phase_(parse|schema|compile)"
/usr/bin/python3 tests/bench/python_jsonschema.py schemas/trainer/v2.1/trainjob.json \
  "$work/trainjobs.yaml"
