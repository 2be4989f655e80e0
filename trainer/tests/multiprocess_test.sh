#!/usr/bin/env bash
# Two "nodes" of two workers each, started as separate launchers the way two pods start:
# world size 4, every replica ends with the same parameters, and those equal one process
# trained with a batch four times larger.
. "$(dirname "$0")/lib.sh"

port=$(free_port)
for node in 1 0; do
  PET_NNODES=2 PET_NPROC_PER_NODE=2 PET_NODE_RANK=$node PET_MASTER_ADDR=127.0.0.1 \
    PET_MASTER_PORT=$port "$trainer" >"$work/node$node.out" 2>"$work/node$node.err" &
  pids[node]=$!
done
wait "${pids[0]}"
status0=$?
wait "${pids[1]}"
status1=$?
check "node 0 exits 0" [ "$status0" -eq 0 ]
check "node 1 exits 0" [ "$status1" -eq 0 ]
check "world size 4 on every worker" [ "$(cat "$work"/node*.out | grep -c 'WORLD_SIZE=4, ')" -eq 4 ]
check "global ranks 2 and 3 on node 1" has "$work/node1.out" 'RANK=3, WORLD_SIZE=4, LOCAL_RANK=1'
check "rank 0 prints five epochs" [ "$(grep -c '^Epoch \[[1-5]/5\], Average Loss' "$work/node0.out")" -eq 5 ]
check "the linear demo's loss decreases every epoch" loss_decreases "$work/node0.out"
check "4 replicas with identical parameters" checksums_agree 4 "$work"/node0.out "$work"/node1.out

check "rank 0 reports progress at each epoch's end" \
  [ "$(grep -c '^TRAINJOB_PROGRESS {"epoch":[1-5],"epochs":5,' "$work/node0.out")" -eq 5 ]
check "other ranks report none" lacks "$work/node1.out" TRAINJOB_PROGRESS

# Progress every step: steps count up over both epochs to the total, time left down to 0.
"$trainer" --nproc-per-node 1 --master-port "$(free_port)" --epochs 2 --progress-steps 1 >"$work/steps.out" 2>&1
check "--progress-steps 1 exits 0" [ $? -eq 0 ]
check "a line per step, each one JSON object with the fields status reads" python3 -c "
import json, sys
lines = [json.loads(l.split(' ', 1)[1]) for l in open('$work/steps.out') if l.startswith('TRAINJOB_PROGRESS ')]
assert [l['step'] for l in lines] == list(range(1, 21)), lines
assert all(l['totalSteps'] == 20 and l['epochs'] == 2 and l['loss'] > 0 for l in lines), lines
assert [l['epoch'] for l in lines] == [1] * 10 + [2] * 10, lines
assert lines[-1]['remainingSeconds'] == 0 and all(l['samplesPerSecond'] > 0 for l in lines), lines
"

# One process, batch 4 × 10.
"$trainer" --master-port "$(free_port)" --batch-size 40 >"$work/single.out" 2>&1
check "single process exits 0" [ $? -eq 0 ]
distributed=$(final_parameters "$work/node0.out")
single=$(final_parameters "$work/single.out")
check "4 × batch 10 equals 1 × batch 40 within 1e-6 ($distributed | $single)" \
  parameters_close "$distributed" "$single" 1e-6

# The flat all-reduce gives the same replicas as the buckets.
"$trainer" --nproc-per-node 4 --master-port "$(free_port)" --ddp flat >"$work/flat.out" 2>&1
check "flat mode exits 0" [ $? -eq 0 ]
check "flat equals bucketed" [ "$(final_parameters "$work/flat.out")" = "$distributed" ]

# One node sums through shared memory unless told otherwise; gloo's TCP agrees with it.
check "one node sums through shared memory" has "$work/flat.out" 'gloo, shared-memory all-reduce'
check "two nodes sum through gloo" has "$work/node0.out" 'world size 4, gloo, ddp'
"$trainer" --nproc-per-node 4 --master-port "$(free_port)" --local-allreduce gloo \
  >"$work/tcp.out" 2>&1
check "--local-allreduce gloo exits 0" [ $? -eq 0 ]
check "--local-allreduce gloo is said" has "$work/tcp.out" 'world size 4, gloo, ddp'
check "shared memory and gloo train alike" \
  parameters_close "$(final_parameters "$work/tcp.out")" "$distributed" 1e-6
# The segment's name is gone once every worker has mapped it, however they end.
# A name is /trainjob-allreduce-PID-RANDOM; one whose creator is gone was left behind.
no_segment_left() {
  local segment pid
  for segment in /dev/shm/trainjob-allreduce-*; do
    [ -e "$segment" ] || continue
    pid=${segment#/dev/shm/trainjob-allreduce-}
    kill -0 "${pid%%-*}" 2>/dev/null || return 1
  done
}
check "no shared segment left behind" no_segment_left

# The MNIST CNN in PyTorch's buckets (fc2 and fc1, then the convolutions, whose backward
# runs while the first bucket is being all-reduced): replicas stay identical.
"$trainer" --nproc-per-node 2 --master-port "$(free_port)" --model mnist-cnn --samples 256 \
  --test-samples 128 --batch-size 32 --epochs 1 >"$work/cnn.out" 2>&1
check "mnist-cnn exits 0" [ $? -eq 0 ]
check "mnist-cnn uses 2 buckets" has "$work/cnn.out" 'ddp bucketed (2 buckets)'
check "mnist-cnn replicas identical" checksums_agree 2 "$work/cnn.out"
check "mnist-cnn prints the test accuracy" has "$work/cnn.out" '^Test accuracy: [0-9.]*% ([0-9]*/128)$'
finish
