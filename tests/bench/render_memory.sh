#!/usr/bin/env bash
# Peak RSS, wall and CPU time of one `render` process over N generated TrainJobs (the documents
# of `trainjob-bench --print-stream`), N = 1,000, 10,000 and 100,000, for this build and,
# side by side, for an earlier binary (e.g. main's, built in a scratch directory).
# Usage: render_memory.sh BINARY BENCH_BINARY [BEFORE_BINARY]
#   BENCH_BINARY is build*/tests/bench/trainjob-bench; the inputs go to $TMPDIR.
set -euo pipefail

binary=$1
bench=$2
before=${3:-}
sizes=${SIZES:-"1000 10000 100000"}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One run: "<peak RSS MiB> <wall s> <CPU s> <output MB>", read from GNU time's -v report.
# CPU time (user + system) is the figure to judge linearity by on a shared machine: wall
# time also counts the time the process waited for a core.
measure() {
  local bin=$1 input=$2
  /usr/bin/time -v "$bin" render -f "$input" >"$scratch/out" 2>"$scratch/time" ||
    { echo "render failed:" >&2; cat "$scratch/time" >&2; exit 1; }
  local rss wall cpu
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$scratch/time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
    for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.2f", s }' "$scratch/time")
  cpu=$(awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { printf "%.2f", s }' \
    "$scratch/time")
  echo "$rss $wall $cpu $(stat -c %s "$scratch/out" | awk '{ printf "%.1f", $1 / 1e6 }')"
}

printf '| TrainJobs | input | output | %s | %s |\n' "peak RSS, wall, CPU (this build)" \
  "${before:+peak RSS, wall, CPU (before)}"
printf '|---|---|---|---|---|\n'
for n in $sizes; do
  "$bench" --n "$n" --print-stream >"$scratch/in.yaml"
  in_mb=$(stat -c %s "$scratch/in.yaml" | awk '{ printf "%.1f", $1 / 1e6 }')
  read -r rss wall cpu out_mb < <(measure "$binary" "$scratch/in.yaml")
  cell_before=""
  if [[ -n "$before" ]]; then
    read -r b_rss b_wall b_cpu _ < <(measure "$before" "$scratch/in.yaml")
    cell_before="$b_rss MiB, $b_wall s, $b_cpu s"
  fi
  printf '| %s | %s MB | %s MB | %s MiB, %s s, %s s | %s |\n' "$n" "$in_mb" "$out_mb" "$rss" \
    "$wall" "$cpu" "$cell_before"
done
