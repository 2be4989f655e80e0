#!/usr/bin/env bash
# Failures: a master that never answers, a worker that dies mid-epoch (the group restarts
# and resumes from the last checkpoint, ending where an uninterrupted run ends), and a
# failure with no restarts left.
. "$(dirname "$0")/lib.sh"

# Nothing listens on this port, and the name does not resolve at all.
port=$(free_port)
PET_NNODES=2 PET_NODE_RANK=1 PET_MASTER_ADDR=127.0.0.1 PET_MASTER_PORT=$port \
  "$trainer" --rdzv-timeout 1.5 >"$work/unreachable.out" 2>"$work/unreachable.err"
check "unreachable master: exit 1" [ $? -eq 1 ]
check "unreachable master: the error names the address" has "$work/unreachable.err" \
  "rendezvous: the master 127.0.0.1:$port did not answer within 1.5 s (connect to 127.0.0.1:$port: Connection refused)"
check "unreachable master: the launcher names the rank" has "$work/unreachable.err" \
  'worker rank 1 (local rank 0) failed with exit status 1; no restarts left'
PET_NNODES=2 PET_NODE_RANK=1 PET_MASTER_ADDR=master.invalid PET_MASTER_PORT=$port \
  "$trainer" --rdzv-timeout 1 >/dev/null 2>"$work/dns.err"
check "unresolvable master: exit 1" [ $? -eq 1 ]
check "unresolvable master: the error names the host" has "$work/dns.err" \
  "the master master.invalid:$port did not answer within 1 s (cannot resolve master.invalid"

# Uninterrupted, with checkpoints.
"$trainer" --nproc-per-node 2 --master-port "$(free_port)" --checkpoint-dir "$work/clean" \
  >"$work/clean.out" 2>&1
check "uninterrupted run exits 0" [ $? -eq 0 ]
check "a checkpoint per epoch" [ "$(ls "$work/clean" | grep -c '^checkpoint-00000[1-5].pt$')" -eq 5 ]

# Rank 1 dies at step 7 (the third batch of epoch 2, after the epoch-1 checkpoint).
"$trainer" --nproc-per-node 2 --master-port "$(free_port)" --checkpoint-dir "$work/restart" \
  --max-restarts 2 --fail-at-step 7 --fail-rank 1 >"$work/restart.out" 2>"$work/restart.err"
check "restarted run exits 0" [ $? -eq 0 ]
check "the launcher restarts the group" has "$work/restart.err" \
  'worker rank 1 (local rank 1) failed with exit status 3; restarting the workers (restart 1 of 2)'
check "attempt 1 started" has "$work/restart.err" 'starting workers 0-1 of 2 (attempt 1)'
check "resumed after epoch 1" has "$work/restart.out" 'resuming from .*checkpoint-000001.pt: 1 epochs done'
check "restarted run ends where the uninterrupted one does" \
  [ "$(final_parameters "$work/restart.out")" = "$(final_parameters "$work/clean.out")" ]
check "restarted replicas identical" checksums_agree 2 "$work/restart.out"
check "same checksum as the uninterrupted run" \
  [ "$(grep -m1 checksum "$work/restart.out" | awk '{print $NF}')" = "$(grep -m1 checksum "$work/clean.out" | awk '{print $NF}')" ]

# Two nodes: rank 3 on node 1 dies; node 1 restarts its workers, node 0's lose their peer and
# restart too, and all four resume together from rank 0's checkpoint.
"$trainer" --nproc-per-node 4 --master-port "$(free_port)" >"$work/four.out" 2>&1
port=$(free_port)
for node in 1 0; do
  PET_NNODES=2 PET_NPROC_PER_NODE=2 PET_NODE_RANK=$node PET_MASTER_PORT=$port "$trainer" \
    --checkpoint-dir "$work/two-nodes" --max-restarts 3 --fail-at-step 7 --fail-rank 3 \
    >"$work/restart$node.out" 2>"$work/restart$node.err" &
  pids[node]=$!
done
wait "${pids[0]}"
status0=$?
wait "${pids[1]}"
status1=$?
check "two nodes, rank 3 fails: node 0 exits 0" [ "$status0" -eq 0 ]
check "two nodes, rank 3 fails: node 1 exits 0" [ "$status1" -eq 0 ]
check "two nodes: node 1 restarted" has "$work/restart1.err" 'worker rank 3 (local rank 1) failed with exit status 3; restarting'
check "two nodes: resumed from a checkpoint" has "$work/restart0.out" 'resuming from'
check "two nodes: same result as an uninterrupted run" \
  [ "$(final_parameters "$work/restart0.out")" = "$(final_parameters "$work/four.out")" ]
check "two nodes: 4 replicas identical" checksums_agree 4 "$work"/restart0.out "$work"/restart1.out

# No restarts left: the launcher stops the healthy worker and names the failed one.
"$trainer" --nproc-per-node 2 --master-port "$(free_port)" --max-restarts 0 --fail-at-step 3 \
  --fail-rank 1 >"$work/norestart.out" 2>"$work/norestart.err"
check "no restarts left: exit 1" [ $? -eq 1 ]
check "no restarts left: names the rank and status" has "$work/norestart.err" \
  'error: worker rank 1 (local rank 1) failed with exit status 3; no restarts left (--max-restarts 0)'
check "no restarts left: no final line" [ -z "$(final_parameters "$work/norestart.out")" ]

# SIGTERM reaches the workers and ends the launcher.
port=$(free_port)
: >"$work/term.out"
PET_NNODES=2 PET_NPROC_PER_NODE=2 PET_MASTER_PORT=$port "$trainer" >"$work/term.out" 2>&1 &
launcher=$!
for _ in $(seq 100); do has "$work/term.out" 'RANK=1,' && break; sleep 0.1; done
workers=$(pgrep -P "$launcher")
kill -TERM "$launcher"
wait "$launcher"
check "SIGTERM: the launcher exits 128+15" [ $? -eq 143 ]
check "SIGTERM: two workers were running" [ "$(echo "$workers" | wc -w)" -eq 2 ]
none_alive() { for pid in $workers; do kill -0 "$pid" 2>/dev/null && return 1; done; return 0; }
check "SIGTERM: no worker left behind" none_alive
finish
