#!/usr/bin/env bash
# Runs one golden case: `args` holds the command line (after the binary name), run from
# the case directory with `stdin` (if present) as standard input. Compares stdout, stderr
# and the exit code with expected.stdout, expected.stderr and expected.exit.
# UPDATE_GOLDEN=1 writes the expectations instead.
set -uo pipefail
binary=$(realpath "$1")
case_dir=$2
cd "$case_dir" || exit 1

input=/dev/null
[ -f stdin ] && input=stdin
actual=$(mktemp -d)
trap 'rm -rf "$actual"' EXIT
eval "set -- $(cat args)"
"$binary" "$@" <"$input" >"$actual/stdout" 2>"$actual/stderr"
echo $? >"$actual/exit"

if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
  for stream in stdout stderr exit; do cp "$actual/$stream" "expected.$stream"; done
  exit 0
fi
status=0
for stream in stdout stderr exit; do
  if ! diff -u "expected.$stream" "$actual/$stream"; then
    echo "golden: $stream differs in $case_dir (UPDATE_GOLDEN=1 to accept)" >&2
    status=1
  fi
done
exit $status
