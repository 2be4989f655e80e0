#!/usr/bin/env bash
# trainjob-trainer against PyTorch DDP (Debian's python3-torch, same libtorch and BLAS) on
# this machine, 2 ranks x 1 thread on loopback. Prints one line per run; README keeps the
# ranges. Not a pass/fail test.
# usage: run.sh BUILD_DIR [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
trainer=$build/trainer/trainjob-trainer
python=/usr/bin/python3  # the interpreter Debian's python3-torch is installed for
export GLOO_SOCKET_IFNAME=lo OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
# Debian's torchrun on Python 3.11 fails with its default --redirects/--tee (an IntFlag
# parsing bug); 1/1 is the working spelling of the same behaviour.
torchrun=("$python" -m torch.distributed.run --redirects 1 --tee 1)
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
last_rate() { grep -o '[0-9.]* samples/s' | tail -1 | awk '{print $1}'; }
now() { date +%s.%N; }

cnn=(--samples 8192 --epochs 2 --batch-size 64)
# A ratio over a figure marked "(starved)" is put in parentheses: it does not count.
ratio() {
  local r
  r=$(echo "scale=2; ${1%%(*} / ${2%%(*}" | bc)
  case "$1$2" in *starved*) echo "($r)" ;; *) echo "$r" ;; esac
}
echo "== MNIST-shaped CNN, 2 ranks x 1 thread, samples/s of epoch 2 (8192 samples, batch 64/rank)"
echo "   efficiency: with sync / without (no-sync timed to the slowest rank, as the job's pace,"
echo "   in a try where that rank had its core: wall within 1.5x its CPU time)"
echo "   C++ bucketed sums through shared memory (the default on one node); 'over gloo' through"
echo "   gloo's loopback TCP, as PyTorch does"
for run in $(seq "$runs"); do
  declare -A rate=() workers=()
  for mode in bucketed flat none tcp; do
    flags=(--ddp "$mode")
    [ "$mode" = tcp ] && flags=(--ddp bucketed --local-allreduce gloo)
    # Without sync each worker keeps its core busy for the whole epoch, so a worker that
    # loses its core to anything else (wall far above its CPU time) slows the job's pace
    # alone: that run measures the machine, not the trainer. It is run again, up to 3 times,
    # and marked "starved" when no try had its core.
    for try in 1 2 3; do
      out=$("$trainer" --nproc-per-node 2 --master-port "$(port)" --model mnist-cnn "${cnn[@]}" \
        "${flags[@]}" 2>/dev/null)
      rate[$mode]=$(last_rate <<<"$out")
      # Each worker's own epoch 2: "slowest rank R W s (CPU C s), fastest rank ...".
      workers[$mode]=$(grep -o 'epoch 2 per worker: .*' <<<"$out" | sed 's/epoch 2 per worker: //')
      read -r wall cpu < <(sed -E 's/^slowest rank [0-9]+ ([0-9.]+) s \(CPU ([0-9.]+) s\).*/\1 \2/' \
        <<<"${workers[$mode]}")
      [ "$mode" != none ] && break
      [ "$(echo "$wall <= 1.5 * $cpu" | bc)" = 1 ] && break
      [ "$try" = 3 ] && rate[$mode]="${rate[$mode]}(starved)"
    done
  done
  for variant in ddp no-sync; do
    flags=()
    [ "$variant" = no-sync ] && flags=(--no-sync)
    rate[py-$variant]=$("${torchrun[@]}" --nproc_per_node 2 --master_port "$(port)" \
      --monitor_interval 0.1 "$here/ddp_cnn.py" "${cnn[@]}" "${flags[@]}" 2>/dev/null | last_rate)
  done
  echo "run $run: C++ bucketed ${rate[bucketed]} (over gloo ${rate[tcp]}), flat ${rate[flat]}," \
    "no sync ${rate[none]}; PyTorch DDP ${rate[py-ddp]}, no sync ${rate[py-no-sync]};" \
    "efficiency C++ $(ratio "${rate[bucketed]}" "${rate[none]}")" \
    "(over gloo $(ratio "${rate[tcp]}" "${rate[none]}")), PyTorch $(ratio "${rate[py-ddp]}" "${rate[py-no-sync]}");" \
    "C++/PyTorch $(ratio "${rate[bucketed]}" "${rate[py-ddp]}")" \
    "(over gloo $(ratio "${rate[tcp]}" "${rate[py-ddp]}"))"
  echo "  epoch 2 per worker: no sync: ${workers[none]}; bucketed: ${workers[bucketed]}"
done

echo "== linear demo, 2 nodes x 2 processes, end-to-end wall seconds"
two_nodes() {  # two_nodes COMMAND... (@NODE@ and @PORT@ substituted)
  local p pids=() started args
  p=$(port)
  started=$(now)
  for node in 1 0; do
    args=("${@//@NODE@/$node}")
    "${args[@]//@PORT@/$p}" >/dev/null 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  echo "$(now) - $started" | bc
}
for run in $(seq "$runs"); do
  port_c=$(port)
  started=$(now)
  PET_NNODES=2 PET_NPROC_PER_NODE=2 PET_NODE_RANK=1 PET_MASTER_PORT=$port_c "$trainer" >/dev/null 2>&1 &
  PET_NNODES=2 PET_NPROC_PER_NODE=2 PET_NODE_RANK=0 PET_MASTER_PORT=$port_c "$trainer" >/dev/null 2>&1
  wait
  cpp=$(echo "$(now) - $started" | bc)
  py=$(two_nodes "${torchrun[@]}" --nnodes 2 --nproc_per_node 2 --node_rank @NODE@ \
    --master_addr 127.0.0.1 --master_port @PORT@ "$here/linear_demo.py")
  printf 'run %d: trainjob-trainer %.2f s, PyTorch under default torchrun %.2f s\n' "$run" "$cpp" "$py"
done

echo "== all-reduce bandwidth"
"$here/allreduce.sh" "$build"
