#!/usr/bin/env bash
# render over a stream far larger than one piece (256 KiB): the output is whole and the same
# from a file and from a pipe; an error in the LAST document, whether the schema finds it
# or only compiling does, still prints nothing and writes nothing; a spill that cannot be
# written is a clear error.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

# 5,000 TrainJobs (about 3.5 MB).
trainjob_stream 5000 stream '
  trainer:
    image: registry.example.com/trainer:%d
    numNodes: 2
    env:
      - name: NOTES
        value: "%0400d"
' >"$work/big.yaml"
check "the input spans several pieces" test "$(stat -c %s "$work/big.yaml")" -ge 3000000
"$binary" render -f "$work/big.yaml" >"$work/out.yaml" 2>"$work/err"
check "render compiles them all" test "$(grep -c '^kind: Job$' "$work/out.yaml")" -eq 5000
check "in input order" test "$(grep -m1 -n 'name: stream-4999$' "$work/out.yaml" | cut -d: -f1)" \
  -gt "$(grep -m1 -n 'name: stream-4998$' "$work/out.yaml" | cut -d: -f1)"
cat "$work/big.yaml" | "$binary" render -f - >"$work/piped.yaml" 2>/dev/null
check "a pipe on stdin gives the same bytes" cmp -s "$work/out.yaml" "$work/piped.yaml"
"$binary" render -o json -f "$work/big.yaml" >"$work/out.json" 2>/dev/null
check "-o json is one List of them all" \
  test "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["items"]))' \
    "$work/out.json")" -eq 10000

# A schema error in the last document.
lines=$(wc -l <"$work/big.yaml")
cp "$work/big.yaml" "$work/bad.yaml"
sed -i '$ s/value: "0*4999"/value: 4999/' "$work/bad.yaml"
"$binary" render -f "$work/bad.yaml" >"$work/out" 2>"$work/err"
check "an error in the last document fails" test $? -eq 1
check "and prints nothing" test ! -s "$work/out"
check "at its line" grep -q "bad.yaml:$lines:[0-9]*: error: spec.trainer.env\[0\].value" "$work/err"
cat "$work/bad.yaml" | "$binary" render -f - >"$work/out" 2>/dev/null
check "from a pipe too" test $? -eq 1 -a ! -s "$work/out"

# An error only compiling finds (the runtime does not exist) in the last document.
awk '/^---$/ { last = NR } { line[NR] = $0 } END {
  for (i = 1; i <= NR; i++) { if (i > last) sub(/torch-distributed/, "no-such-runtime", line[i])
    print line[i] } }' "$work/big.yaml" >"$work/late2.yaml"
"$binary" render -f "$work/late2.yaml" >"$work/out" 2>"$work/err"
check "a missing runtime in the last document fails" test $? -eq 1
check "and prints nothing" test ! -s "$work/out"
check "naming the runtime" grep -q "no-such-runtime" "$work/err"
"$binary" render -f "$work/late2.yaml" --output-dir "$work/dir" >"$work/out" 2>/dev/null
check "--output-dir writes nothing" test ! -e "$work/dir"

# The spill cannot be written: no temporary directory, or a full disk (a file size limit).
TMPDIR="$work/missing" "$binary" render -f "$work/big.yaml" >"$work/out" 2>"$work/err"
check "no temporary directory is an error" test $? -eq 1 -a ! -s "$work/out"
check "that says so" grep -q "cannot create a temporary file in $work/missing" "$work/err"
(trap '' XFSZ; ulimit -f 1024; "$binary" render -f "$work/big.yaml" 2>"$work/err" | cat >"$work/out")
check "a full spill prints nothing" test ! -s "$work/out"
check "and says why" grep -q "cannot write a temporary file in" "$work/err"
finish
