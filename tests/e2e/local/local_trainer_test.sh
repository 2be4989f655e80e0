#!/usr/bin/env bash
# The whole product on one machine: init a TrainJob for the C++ trainer runtime, check
# and compile it, and train it with run --local (2 nodes x 2 processes, world size 4).
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

"$binary" init linear --runtime cpp-trainer --mode image --nodes 2 --procs 2 >"$work/linear.yaml"
check "init: exit 0" test $? -eq 0
check "validate: no problems" "$binary" validate -f "$work/linear.yaml"
"$binary" render -f "$work/linear.yaml" >"$work/rendered.yaml"
check "render: the node container runs trainjob-trainer" \
  grep -q -- '- trainjob-trainer' "$work/rendered.yaml"

"$binary" run --local -f "$work/linear.yaml" --timeout 5m >"$work/out.txt" 2>"$work/err.txt"
check "run --local: exit 0" test $? -eq 0
check "world size 4: every rank reports it" \
  test "$(grep -c 'WORLD_SIZE=4' "$work/out.txt")" -eq 4
check "ranks 0-1 on node 0, 2-3 on node 1" bash -c "
  grep -q '^\[node-0\] .*RANK=0,' '$work/out.txt' && grep -q '^\[node-0\] .*RANK=1,' '$work/out.txt' &&
  grep -q '^\[node-1\] .*RANK=2,' '$work/out.txt' && grep -q '^\[node-1\] .*RANK=3,' '$work/out.txt'"
grep -o 'Average Loss: [0-9.]*' "$work/out.txt" | cut -d' ' -f3 >"$work/losses"
check "five epochs of loss" test "$(wc -l <"$work/losses")" -eq 5
check "the loss falls every epoch" \
  awk 'NR > 1 && $1 >= previous { exit 1 } { previous = $1 }' "$work/losses"
check "every rank ends with the same parameters" \
  test "$(grep -o 'parameter checksum [0-9a-f]*' "$work/out.txt" | sort | uniq -c | awk '{print $1}')" = 4

# Pinned by digest, as docs/trainer-image.md advises: still the trainer built beside us.
digest=sha256:$(printf '%064d' 0)
"$binary" init pinned --runtime cpp-trainer --mode image --nodes 1 --procs 2 \
  --image "localhost:5000/trainjob-trainer@$digest" >"$work/pinned.yaml"
check "init --image REPOSITORY@DIGEST pins it" \
  grep -q "image: localhost:5000/trainjob-trainer@$digest" "$work/pinned.yaml"
"$binary" run --local -f "$work/pinned.yaml" --timeout 5m >"$work/pinned.txt" 2>&1
check "run --local of the pinned image: exit 0" test $? -eq 0
check "run --local of the pinned image: both workers trained alike" \
  test "$(grep -o 'parameter checksum [0-9a-f]*' "$work/pinned.txt" | sort | uniq -c | awk '{print $1}')" = 2

# The quick start's example: five epochs at a larger learning rate get w close to 2.
"$binary" run --local -f "$source_dir/templates/cpp-trainer-linear.yaml" >"$work/out.txt" 2>&1
check "quick start example: exit 0" test $? -eq 0
check "quick start example: w within 0.1 of 2" bash -c "
  grep -o 'weight=[0-9.]*' '$work/out.txt' | cut -d= -f2 | awk '{ exit !(\$1 > 1.9 && \$1 < 2.1) }'"
finish
