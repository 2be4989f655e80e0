#!/usr/bin/env bash
# tests/gpu/run.sh --dry-run over this build (no build of its own): the GPU script's steps
# with their CPU stand-ins, its parsing and its summary, so that the script a GPU machine's
# short lease runs has run here first. About 35 s on 2 cores.
. "$(dirname "$0")/lib.sh"

"$source_dir/tests/gpu/run.sh" --dry-run --bin-dir "$(dirname "$trainer")" --out "$work/out" \
  >"$work/run.out" 2>&1
check "the dry run passes" [ $? -eq 0 ]
summary=$work/out/summary.txt
check "it writes a summary" [ -s "$summary" ]
for row in "unit tests | \`" "1 CNN, 1 rank, nccl" "1 resumed | .*2 epochs done" \
  "1 resumed on the CPU" "2 CNN, 2 ranks, gloo, CUDA tensors" "2 nccl, 2 ranks, 1 GPU | .*refused" \
  "3 samples/s, 1 rank, nccl" "3 samples/s, 2 ranks on one GPU, gloo"; do
  check "summary row: $row" has "$summary" "^| $row"
done
check "each step names the command it would run on a GPU" has "$work/run.out" \
  '^would run on the GPU: trainjob-trainer --backend nccl --model mnist-cnn'
check "no failed step" has "$summary" 'failed steps: 0$'
finish
