#!/usr/bin/env bash
# The cost of a clean build, per group of targets, for this tree and for an older commit in
# the same run (docs/benchmarks.md). Each tree is checked out into a scratch directory,
# configured with the default preset and built group after group, so a group's figure is
# what it adds to the groups before it:
#   plugin   kubectl-trainjob (what render, validate and the cluster commands need)
#   trainer  trainjob-trainer and its worker (with the plugin: what ./setup.sh builds)
#   tests    everything else the default build makes (unit tests, benchmarks, completions)
# CPU seconds are user + system time of the whole build, children included; wall seconds
# depend on the machine's other load, CPU seconds much less.
# Usage: build_time.sh [BASE_COMMIT] [JOBS]   (default: no base; JOBS: nproc)
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
base=${1:-}
jobs=${2:-$(nproc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build_group DIR GROUP TARGET...: prints "GROUP CPU_SECONDS WALL_SECONDS".
build_group() {
  local dir=$1 group=$2
  shift 2
  /usr/bin/time -f "%U %S %e" -o "$work/time" \
    cmake --build "$dir/build" -j "$jobs" ${1:+--target "$@"} >"$work/$group.log" 2>&1 ||
    { tail -20 "$work/$group.log" >&2; exit 1; }
  read -r user system wall <"$work/time"
  awk -v g="$group" -v u="$user" -v s="$system" -v w="$wall" \
    'BEGIN { printf "%s %.0f %.0f\n", g, u + s, w }'
}

# measure LABEL COMMIT: a clean checkout of COMMIT (the work tree as it is, uncommitted
# changes included, when COMMIT is empty), configured and built; prints one table row.
measure() {
  local label=$1 commit=$2
  local dir=$work/tree-${commit:-head}
  if [ -n "$commit" ]; then
    git -C "$source_dir" worktree add --detach --quiet "$dir" "$commit"
  else
    mkdir -p "$dir"
    (cd "$source_dir" && git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' file; do [ ! -e "$file" ] || cp --parents "$file" "$dir"; done)
  fi
  (cd "$dir" && cmake --preset default >"$work/configure.log" 2>&1)
  local plugin trainer tests
  plugin=$(build_group "$dir" plugin kubectl-trainjob)
  trainer=$(build_group "$dir" trainer trainjob-trainer)
  tests=$(build_group "$dir" tests)
  read -r _ plugin_cpu plugin_wall <<<"$plugin"
  read -r _ trainer_cpu trainer_wall <<<"$trainer"
  read -r _ tests_cpu tests_wall <<<"$tests"
  printf '| %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s |\n' "$label" \
    "$plugin_cpu" "$plugin_wall" "$trainer_cpu" "$trainer_wall" \
    "$((plugin_cpu + trainer_cpu))" "$((plugin_wall + trainer_wall))" \
    "$tests_cpu" "$tests_wall" \
    "$((plugin_cpu + trainer_cpu + tests_cpu))" "$((plugin_wall + trainer_wall + tests_wall))"
  [ -z "$commit" ] || git -C "$source_dir" worktree remove --force "$dir"
}

echo "clean build, CPU-s / wall-s, $jobs jobs on $(nproc) cores:"
echo "| tree | plugin | trainer | ./setup.sh (plugin + trainer) | tests | all |"
echo "|---|---|---|---|---|---|"
measure "this tree" ""
[ -z "$base" ] || measure "$(git -C "$source_dir" rev-parse --short "$base")" "$base"
