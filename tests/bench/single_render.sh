#!/usr/bin/env bash
# Times one `kubectl-trainjob render -f templates/configmap.yaml` process end to end: what a
# user waits for, start-up (dynamic linking, embedded runtimes) included.
# Usage: single_render.sh [BINARY] [SOURCE_DIR]
set -euo pipefail

source_dir="${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
binary="${1:-${source_dir}/build/kubectl-trainjob}"
input="${source_dir}/templates/configmap.yaml"
runs=50

if [[ ! -x "${binary}" ]]; then
  echo "single_render.sh: ${binary} is not built" >&2
  exit 1
fi
# A failing render would time the error path, so check it once first.
"${binary}" render -f "${input}" >/dev/null

if command -v hyperfine >/dev/null; then
  # -N: no intermediate shell, whose start-up would dwarf a few-millisecond process.
  hyperfine -N --warmup 5 --runs "${runs}" --export-json /tmp/single_render.$$.json \
    "${binary} render -f ${input}" >&2
  mean_s=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["mean"])' \
    /tmp/single_render.$$.json)
  rm -f /tmp/single_render.$$.json
  awk -v s="${mean_s}" 'BEGIN { printf "single_render_mean_ms %.3f  (hyperfine, %d runs)\n", s * 1000, '"${runs}"' }'
else
  total_ns=0
  for ((i = 0; i < runs; i++)); do
    start=$(date +%s%N)
    "${binary}" render -f "${input}" >/dev/null
    total_ns=$((total_ns + $(date +%s%N) - start))
  done
  # The loop's own fork and date calls are included, so this overstates hyperfine's figure.
  awk -v ns="${total_ns}" -v n="${runs}" \
    'BEGIN { printf "single_render_mean_ms %.3f  (bash loop, %d runs)\n", ns / n / 1e6, n }'
fi

if [[ -x /usr/bin/time ]]; then
  rss_kib=$( { /usr/bin/time -v "${binary}" render -f "${input}" >/dev/null; } 2>&1 |
    awk -F': ' '/Maximum resident set size/ { print $2 }')
  awk -v k="${rss_kib}" 'BEGIN { printf "single_render_peak_rss_mib %.1f\n", k / 1024 }'
fi
