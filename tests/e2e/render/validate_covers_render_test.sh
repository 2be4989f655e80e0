#!/usr/bin/env bash
# `validate` runs every check `render` runs: over every golden case of render
# (testdata/render/, testdata/gitops/), each finding render prints (warning or error) is
# printed by `validate` of the same inputs too. Cases whose flags change what render
# compiles (--target, --gitops-order, --generate-secrets, --trial, --seed: validate checks
# as a plain render does) are left out; render's output flags are dropped.
set -uo pipefail
binary=$(realpath "$1")
source_dir=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"

# Findings only render can make: where its output goes (--output-dir, --check), and its
# refusal of a sweep that would render other trials each time (validate checks it with
# seed 0, as docs/commands.md says).
render_only='--output-dir|--check:|differs from what render writes|missing: render writes|stale: render|random search without a seed'

cases=0
for case_dir in "$source_dir"/testdata/render/*/ "$source_dir"/testdata/gitops/*/; do
  [ -f "$case_dir/args" ] || continue
  eval "set -- $(cat "$case_dir/args")"
  [ "${1:-}" = render ] || continue
  shift
  args=(validate)
  skip=""
  has_file=""
  while [ $# -gt 0 ]; do
    case $1 in
      --target | --target=* | --gitops-order | --gitops-order=* | --generate-secrets | \
        --trial | --trial=* | --seed | --seed=*) skip=1 ;;
      -o | --output | --output-dir) shift ;;
      -o=* | --output=* | --output-dir=* | --check | --prune) ;;
      -f | --filename) has_file=1 && args+=("$1") ;;
      *) args+=("$1") ;;
    esac
    shift
  done
  [ -z "$skip" ] || continue
  [ -n "$has_file" ] || args+=(-f -)
  input=/dev/null
  [ -f "$case_dir/stdin" ] && input="$case_dir/stdin"
  # A case with a setup script runs in a copy, as the golden runner runs it.
  run_dir=$case_dir
  if [ -f "$case_dir/setup" ]; then
    run_dir="$work/case-$cases"
    mkdir -p "$run_dir" && cp -a "$case_dir/." "$run_dir/" && (cd "$run_dir" && bash ./setup)
  fi
  (cd "$run_dir" && "$binary" render "${args[@]:1}" <"$input" >/dev/null 2>"$work/render.err")
  (cd "$run_dir" && "$binary" "${args[@]}" <"$input" >"$work/validate.out" 2>&1)
  grep -E '(^|: )(warning|error): ' "$work/render.err" | grep -Ev -- "$render_only" >"$work/findings"
  missing=$(grep -vxF -f "$work/validate.out" "$work/findings")
  check "$(basename "$case_dir"): validate prints every finding of render${missing:+; missing:
$missing}" test -z "$missing"
  cases=$((cases + 1))
done
check "some render cases were compared ($cases)" test "$cases" -gt 100
finish
