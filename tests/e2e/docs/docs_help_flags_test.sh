#!/usr/bin/env bash
# docs/commands.md documents every command and every flag the binary's --help prints. The
# commands come from `kubectl-trainjob --help` itself; each command's flags must appear in
# that command's section of commands.md (the `kubectl trainjob CMD` heading down to the next
# heading of its level, plus the text its enclosing sections have before their first
# subsection: the page's introduction, "Cluster commands"), so a flag added to a command
# fails here until the page says what it does. Top-level flags may appear anywhere.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
doc="$source_dir/docs/commands.md"

# The flag names of one --help text, one a line: CLI11 prints `  -f,--filename PATH ...`,
# `  --launcher ENUM:value in {...}`, so the names are the comma-joined words that start an
# indented line with a dash.
flags_of() {
  sed -nE 's/^ +(-[-A-Za-z0-9]+(,-[-A-Za-z0-9]+)*).*/\1/p' | tr ',' '\n'
}
# The subcommands `--help` lists under "Subcommands:".
"$binary" --help >"$work/top.help"
commands=$(awk '/^Subcommands:/ { inside = 1; next } inside && /^  [a-z]/ { print $1 }
  inside && /^[^ ]/ { inside = 0 }' "$work/top.help")
check "--help lists the subcommands" test -n "$commands"

# documented TEXT_FILE FLAG: FLAG appears in TEXT_FILE as a word of its own (`--node` is not
# found in `--nodes`, `-n` not in `--n`).
documented() {
  grep -qE -- "(^|[^-A-Za-z0-9])$2([^-A-Za-z0-9]|\$)" "$1"
}

for flag in $(flags_of <"$work/top.help"); do
  check "commands.md documents kubectl trainjob $flag" documented "$doc" "$flag"
done

# section CMD: the text that documents CMD (empty when the page has no heading for it).
section() {
  python3 - "$doc" "$1" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
command = sys.argv[2]
headings = []  # (line index, level)
fenced = False
for i, line in enumerate(lines):
    if line.startswith("```"):
        fenced = not fenced
    m = None if fenced else re.match(r"(#+) ", line)
    if m:
        headings.append((i, len(m.group(1))))
own = re.compile(r"`kubectl trainjob " + re.escape(command) + r"[` ]")
for n, (start, level) in enumerate(headings):
    if not own.search(lines[start]):
        continue
    end = next((i for i, l in headings[n + 1:] if l <= level), len(lines))
    text = lines[start:end]
    # Each enclosing section's text before its first subsection.
    wanted = level
    for i, l in reversed(headings[:n]):
        if l < wanted:
            first_sub = next((j for j, _ in headings if j > i), len(lines))
            text += lines[i:first_sub]
            wanted = l
    if start > 0 and headings[0][0] > 0:
        text += lines[:headings[0][0]]
    print("\n".join(text))
    break
PY
}

for cmd in $commands; do
  section "$cmd" >"$work/section"
  check "commands.md has a section headed \`kubectl trainjob $cmd\`" test -s "$work/section"
  "$binary" "$cmd" --help >"$work/help" 2>&1
  check "$cmd --help exits 0" test $? -eq 0
  for flag in $(flags_of <"$work/help"); do
    check "commands.md documents $cmd $flag" documented "$work/section" "$flag"
  done
done
finish
