#!/usr/bin/env bash
# All-reduce bandwidth: trainjob-trainer's gradient sync (buckets of 25 MiB and 1 MiB, and
# the flat mode) against one gloo all-reduce of the same bytes, 2 ranks on loopback.
# usage: allreduce.sh BUILD_DIR
set -euo pipefail
bench=${1:-build}/trainer/trainjob-trainer-allreduce-bench
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export GLOO_SOCKET_IFNAME=lo OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port "$bench" &
RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port "$bench"
wait
