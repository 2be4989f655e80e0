#!/usr/bin/env bash
# All-reduce bandwidth: trainjob-trainer's gradient sync (buckets of 25 MiB and 1 MiB, and
# the flat mode) against one all-reduce of the same bytes, 2 ranks on loopback: through
# gloo's TCP, then through shared memory (the trainer's default within one node).
# usage: allreduce.sh BUILD_DIR
set -euo pipefail
bench=${1:-build}/trainer/trainjob-trainer-allreduce-bench
export GLOO_SOCKET_IFNAME=lo OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
export WORLD_SIZE=2 LOCAL_WORLD_SIZE=2 MASTER_ADDR=127.0.0.1
for path in gloo shm; do
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  export TRAINER_LOCAL_ALLREDUCE=$path MASTER_PORT=$port
  RANK=1 LOCAL_RANK=1 "$bench" &
  RANK=0 LOCAL_RANK=0 "$bench"
  wait
done
