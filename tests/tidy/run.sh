#!/usr/bin/env bash
# clang-tidy's readability-function-size over the sources of lib/, cmd/ and trainer/ (its tests
# aside), with the thresholds .clang-tidy sets: a function reads in one screen (CONTRIBUTING.md).
# Only that check runs, so that CI can afford it on every run:
#
#   tests/tidy/run.sh [BUILD_DIR]      (default build/; any configured build directory)
#
# The files and their flags come from BUILD_DIR's compile_commands.json; a unity batch stands
# for the files it includes, each checked on its own with the batch's flags. Each file's verdict
# is cached, as ccache caches objects, under the sha256 of what clang-tidy would read (the
# translation unit preprocessed by clang++, paths relative to the source), the configuration of
# the check and clang-tidy's version, in ${TRAINJOB_CACHE:-${XDG_CACHE_HOME:-~/.cache}/
# kubectl-trainjob}/tidy; so an unchanged file costs one preprocessing, not a parse (docs/
# benchmarks.md). Files run in parallel, one per core. Exits 1 when a function is over a
# threshold or a file cannot be parsed, after listing each; 2 when the tools are missing.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build}
cache=${TRAINJOB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-trainjob}/tidy
checks='-*,readability-function-size'
for tool in clang-tidy clang++ python3; do
  if ! command -v $tool > /dev/null; then
    echo "tests/tidy/run.sh: $tool is missing: apt-get install clang clang-tidy python3" >&2
    exit 2
  fi
done
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tests/tidy/run.sh: no $build/compile_commands.json: configure a build first" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$cache" "$work/args"

# One compile command per file of lib/, cmd/ and trainer/ into $work/compile_commands.json
# (clang-tidy's -p), and each file's clang++ arguments, NUL-separated, into $work/args/N.
python3 - "$build/compile_commands.json" "$src" "$work" << 'PY'
import json, os, re, shlex, sys
commands, src, work = sys.argv[1:]
wanted = re.compile(re.escape(src) + r"/(lib|cmd|trainer)/(?!.*(^|/)tests/).*\.cpp$")
entries = {}
for entry in json.load(open(commands)):
    argv = entry.get("arguments") or shlex.split(entry["command"])
    files = [entry["file"]]
    if re.search(r"/Unity/unity_\d+_cxx\.cxx$", entry["file"]):
        files = re.findall(r'^#include "(.*)"$', open(entry["file"]).read(), re.M)
    for file in files:
        if not wanted.match(file):
            continue
        # clang++ for g++; -Werror off, or a warning clang gives and GCC does not would stop
        # the check; no object file.
        args, skip = [], False
        for arg in argv[1:]:
            if skip:
                skip = False
            elif arg in ("-o", "-c"):
                skip = True
            elif arg != "-Werror" and arg != entry["file"]:
                args.append(arg)
        entries[file] = (entry["directory"], args)
database = []
for n, (file, (directory, args)) in enumerate(sorted(entries.items())):
    database.append({"directory": directory, "file": file,
                     "arguments": ["clang++"] + args + ["-c", file]})
    with open(os.path.join(work, "args", str(n)), "wb") as out:
        out.write(b"\0".join(a.encode() for a in [directory, file] + args) + b"\0")
json.dump(database, open(os.path.join(work, "compile_commands.json"), "w"), indent=1)
PY

# What the verdicts depend on besides the file: the check, its options and clang-tidy itself.
identity=$( (clang-tidy --version; cd "$src" && clang-tidy --checks="$checks" --dump-config) |
  sha256sum | cut -d' ' -f1)

# verdict ARGS_FILE: prints the file's findings (paths relative to the source) and fails when
# there are any, from the cache when the file was checked before.
verdict() {
  local argv key entry status=0
  mapfile -d '' argv < "$1"
  key=$({ echo "$identity"; (cd "${argv[0]}" && clang++ "${argv[@]:2}" -E "${argv[1]}" 2>&1) |
    sed "s#$src/##g"; } | sha256sum | cut -d' ' -f1)
  entry=$cache/${key:0:2}/$key
  if [ ! -f "$entry" ]; then
    mkdir -p "${entry%/*}"
    clang-tidy -p "$work" --quiet --checks="$checks" --warnings-as-errors='*' "${argv[1]}" \
      > "$entry.$$" 2>&1 || status=$?
    # The findings and the notes under them; not clang-tidy's count of suppressed warnings.
    { echo "$status"; grep -v -e '^[0-9]* warnings\? \(and [0-9]* errors\? \)\?generated' \
      -e '^Suppressed ' -e '^Use -header-filter' "$entry.$$" | sed "s#$src/##g" || true; } \
      > "$entry.tmp.$$"
    rm "$entry.$$"
    mv "$entry.tmp.$$" "$entry"
    echo checked >> "$work/checked"
  fi
  tail -n +2 "$entry"
  [ "$(head -n 1 "$entry")" = 0 ]
}
export -f verdict
export work src cache checks identity

start=$SECONDS
files=$(find "$work/args" -type f | wc -l)
status=0
# shellcheck disable=SC2016 # $1 is the argument xargs gives that shell
find "$work/args" -type f -print0 | xargs -0 -P "$(nproc)" -n 1 bash -c 'verdict "$1"' _ ||
  status=$?
checked=0
[ ! -f "$work/checked" ] || checked=$(wc -l < "$work/checked")
echo "tests/tidy/run.sh: $files files ($checked checked, $((files - checked)) from the cache)" \
  "in $((SECONDS - start)) s" >&2
if [ $status -ne 0 ]; then
  echo "tests/tidy/run.sh: readability-function-size failed (thresholds in .clang-tidy)" >&2
  exit 1
fi
