#!/usr/bin/env bash
# Runs one golden case: `args` holds the command line (after the binary name), run from
# the case directory with `stdin` (if present) as standard input. Compares stdout, stderr
# and the exit code with expected.stdout, expected.stderr and expected.exit.
#
# A case with an `expected.tree` runs in a copy of itself, five directories deep in a
# fresh temp directory, after its `setup` script (if any) has run there; expected.tree
# holds what the command changed anywhere in that temp directory (`+`/`-` lines of a
# listing of types, modes, checksums and paths), so a case that must change nothing
# outside its output directory, or nothing at all, says so and is checked.
#
# UPDATE_GOLDEN=1 writes the expectations instead.
set -uo pipefail
binary=$(realpath "$1")
case_dir=$(realpath "$2")

actual=$(mktemp -d)
trap 'rm -rf "$actual"' EXIT

# Every entry below $1 except the case's own expectations: type, mode, checksum, path.
snapshot() {
  (cd "$1" && find . -mindepth 1 ! -path './p/a/t/h/case/expected.*' -printf '%y %m %p\n' |
    sort -k3 | while read -r type mode path; do
      case $type in
        f) echo "file $mode $(md5sum <"$path" | cut -c1-12) $path" ;;
        l) echo "link $path -> $(readlink "$path")" ;;
        *) echo "$type $mode $path" ;;
      esac
    done)
}

run_dir=$case_dir
if [ -f "$case_dir/expected.tree" ]; then
  sandbox="$actual/sandbox"
  run_dir="$sandbox/p/a/t/h/case"
  mkdir -p "$run_dir"
  cp -a "$case_dir/." "$run_dir/"
  if [ -f "$run_dir/setup" ]; then (cd "$run_dir" && bash ./setup) || exit 1; fi
  snapshot "$sandbox" >"$actual/before"
fi

cd "$run_dir" || exit 1
input=/dev/null
[ -f stdin ] && input=stdin
eval "set -- $(cat args)"
"$binary" "$@" <"$input" >"$actual/stdout" 2>"$actual/stderr"
echo $? >"$actual/exit"
streams=(stdout stderr exit)
if [ -f "$case_dir/expected.tree" ]; then
  snapshot "$sandbox" >"$actual/after"
  diff --old-line-format='- %L' --new-line-format='+ %L' --unchanged-line-format='' \
    "$actual/before" "$actual/after" >"$actual/tree"
  streams+=(tree)
fi

if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
  for stream in "${streams[@]}"; do cp "$actual/$stream" "$case_dir/expected.$stream"; done
  exit 0
fi
status=0
for stream in "${streams[@]}"; do
  if ! diff -u "$case_dir/expected.$stream" "$actual/$stream"; then
    echo "golden: $stream differs in $case_dir (UPDATE_GOLDEN=1 to accept)" >&2
    status=1
  fi
done
exit $status
