#!/usr/bin/env bash
# The command line as kubectl users expect it: no arguments prints the help (exit 0, as
# kubectl does), a misspelt command gets cobra's "Did you mean this?", and every usage
# error, CLI11's or the commands' own, reads `error: ...` then points at the command's own
# --help, with exit code 2.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

"$binary" >"$work/out" 2>"$work/err"
check "no arguments: exit 0" test $? -eq 0
check "... and the help on stdout, listing the commands" \
  bash -c "grep -q '^Subcommands:' '$work/out' && grep -q '^  render' '$work/out'"
check "... nothing on stderr" test ! -s "$work/err"

check "help: the same help" cmp -s "$work/out" <("$binary" help)
check "help COMMAND: the command's help" cmp -s <("$binary" render --help) <("$binary" help render)

"$binary" rendr -f x.yaml >"$work/out" 2>"$work/err"
check "a misspelt command: exit 2" test $? -eq 2
check "... cobra's message and suggestion" diff - "$work/err" <<'TEXT'
error: unknown command "rendr" for "kubectl trainjob"

Did you mean this?
	render

See 'kubectl trainjob --help'.
TEXT
"$binary" xyzzy >/dev/null 2>"$work/err"
check "nothing close: no suggestion" \
  bash -c "grep -q 'unknown command \"xyzzy\"' '$work/err' && ! grep -q 'Did you mean' '$work/err'"

# usage_style CMD WORDS...: exit 2, `error: ` first, the command's own help last, and never
# CLI11's own "Run with --help" line.
usage_style() {
  local command=$1
  "$binary" "$@" >"$work/out" 2>"$work/err"
  local code=$?
  [ "$code" -eq 2 ] && [ ! -s "$work/out" ] &&
    head -1 "$work/err" | grep -q '^error: ' &&
    [ "$(tail -1 "$work/err")" = "See 'kubectl trainjob $command --help'." ] &&
    ! grep -q 'Run with --help' "$work/err" ||
    { echo "-- $* (exit $code):" >&2; cat "$work/err" >&2; return 1; }
}
check "a bad value of a checked flag" usage_style render -f x.yaml -o xml
check "a missing required argument" usage_style status
check "an extra argument" usage_style list extra
check "an unknown flag" usage_style validate -f x.yaml --no-such-flag
check "a flag without its value" usage_style render -f
check "a missing positional of completion" usage_style completion
check "a command's own usage error" usage_style logs x --since soon
check "another command's own usage error" usage_style run -f x.yaml
check "CLI11's sentences start in lower case, as kubectl's" \
  bash -c "'$binary' list extra 2>&1 | head -1 | grep -qx 'error: the following argument was not expected: extra'"

"$binary" run --help >"$work/help"
check "run --help: exit 0" test $? -eq 0
check "run --help names the launchers" grep -q -- '--launcher TEXT:{auto,builtin,host}' "$work/help"
check "... without CLI11's enum mapping" bash -c "! grep -qE 'ENUM|->[0-9]' '$work/help'"
check "an unknown launcher is a usage error" usage_style run -f x.yaml --local --launcher nope
check "... naming the launchers" grep -q 'nope not in {auto,builtin,host}' "$work/err"
check "--version still exits 0" bash -c "'$binary' --version | grep -q '^kubectl-trainjob '"
finish
