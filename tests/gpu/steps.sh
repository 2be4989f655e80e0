#!/usr/bin/env bash
# Sourced by run.sh (tests/gpu/README.md), after build.sh: the steps on the GPU (or their CPU
# stand-ins in a dry run), each recorded for the summary.
# --- the steps --------------------------------------------------------------------------------
# Sizes: the correctness runs are small, the throughput runs long enough for a steady epoch.
if [ "$dry_run" = 1 ]; then
  small=(--samples 256 --test-samples 64 --epochs 2) three=(--samples 256 --test-samples 64 --epochs 3)
  fast=(--samples 512 --epochs 2)
  device_nccl=(--backend gloo --device cpu) device_gloo=(--backend gloo --device cpu)
  ddp_nccl=(--backend gloo --device cpu) ddp_gloo=(--backend gloo --device cpu)
  export OMP_NUM_THREADS=1
else
  small=(--samples 8192 --epochs 2) three=(--samples 8192 --epochs 3)
  fast=(--samples 60000 --epochs 3)
  device_nccl=(--backend nccl) device_gloo=(--backend gloo --device cuda)
  ddp_nccl=(--backend nccl --device cuda) ddp_gloo=(--backend gloo --device cuda)
fi
# Every rank is on this machine: loopback, rather than whatever interface the host name
# resolves to (in a VM, possibly none).
export GLOO_SOCKET_IFNAME=lo NCCL_SOCKET_IFNAME=lo
gpu_nccl="--backend nccl" gpu_gloo="--backend gloo --device cuda"
gpu_ddp_nccl="--backend nccl --device cuda" gpu_ddp_gloo="--backend gloo --device cuda"
cnn=(--model mnist-cnn)
# step NAME GPU-COMMAND -- COMMAND...: runs COMMAND (the GPU command itself, or its stand-in).
step() {
  local name=$1 shown=$2
  shift 3
  [ "$dry_run" = 1 ] && say "would run on the GPU: $shown"
  run_logged "$name" "$@"
}

if [ -x "$trainer" ]; then
  # 1. One rank on the GPU over NCCL, checkpointing; then a resume from epoch 2 to 3, the
  # same three epochs uninterrupted, and the GPU's checkpoint resumed on the CPU.
  ck=$work/checkpoints
  if step nccl1 "trainjob-trainer $gpu_nccl ${cnn[*]} ${small[*]} --checkpoint-dir DIR" -- \
    "$trainer" --master-port "$(free_port)" "${device_nccl[@]}" "${cnn[@]}" "${small[@]}" \
    --checkpoint-dir "$ck"; then
    record "1 CNN, 1 rank, nccl" "trainjob-trainer $gpu_nccl ${cnn[*]} ${small[*]}" \
      "$(grep -o 'world size 1, [^,]*' "$work/nccl1.out"); checksum $(checksum_of "$work/nccl1.out" 0), test accuracy $(accuracy_of "$work/nccl1.out"), $(cd "$ck" && echo checkpoint-*.pt)"
  else
    record "1 CNN, 1 rank, nccl" "trainjob-trainer $gpu_nccl ${cnn[*]} ${small[*]}" \
      "failed: $(tail -1 "$work/nccl1.err" | cut -c1-200)" FAIL
  fi
  cp -r "$ck" "$work/checkpoints-cpu" 2>/dev/null
  step resume "trainjob-trainer $gpu_nccl ${cnn[*]} ${three[*]} --checkpoint-dir DIR" -- \
    "$trainer" --master-port "$(free_port)" "${device_nccl[@]}" "${cnn[@]}" "${three[@]}" \
    --checkpoint-dir "$ck"
  step straight "trainjob-trainer $gpu_nccl ${cnn[*]} ${three[*]}" -- \
    "$trainer" --master-port "$(free_port)" "${device_nccl[@]}" "${cnn[@]}" "${three[@]}"
  resumed=$(grep -o 'resuming from [^ ]*: [0-9]* epochs done' "$work/resume.out" | sed 's|from .*/|from |')
  if [ -n "$resumed" ] && grep -q 'parameter checksum' "$work/resume.out"; then
    same=$([ "$(checksum_of "$work/resume.out" 0)" = "$(checksum_of "$work/straight.out" 0)" ] &&
      echo "equal to" || echo "differs from")
    record "1 resumed" "trainjob-trainer ... ${three[*]} --checkpoint-dir DIR" \
      "$resumed; checksum $(checksum_of "$work/resume.out" 0) $same 3 epochs straight ($(checksum_of "$work/straight.out" 0))"
  else
    record "1 resumed" "trainjob-trainer ... ${three[*]} --checkpoint-dir DIR" \
      "failed: $(tail -1 "$work/resume.err" | cut -c1-200)" FAIL
  fi
  if step resume_cpu "trainjob-trainer --device cpu ${cnn[*]} ${three[*]} --checkpoint-dir DIR" -- \
    "$trainer" --master-port "$(free_port)" --device cpu "${cnn[@]}" "${three[@]}" \
    --checkpoint-dir "$work/checkpoints-cpu" &&
    grep -q 'resuming from' "$work/resume_cpu.out"; then
    record "1 resumed on the CPU" "trainjob-trainer --device cpu ... --checkpoint-dir DIR" \
      "the checkpoint of epoch 2 restored on the CPU; test accuracy $(accuracy_of "$work/resume_cpu.out")"
  else
    record "1 resumed on the CPU" "trainjob-trainer --device cpu ... --checkpoint-dir DIR" \
      "failed: $(tail -1 "$work/resume_cpu.err" | cut -c1-200)" FAIL
  fi

  # 2. Two ranks sharing the GPU over gloo with CUDA tensors; NCCL refused for two ranks on
  # one GPU, before the rendezvous, with the launcher naming the rank.
  if step gloo2 "trainjob-trainer --nproc-per-node 2 $gpu_gloo ${cnn[*]} ${small[*]}" -- \
    "$trainer" --nproc-per-node 2 --master-port "$(free_port)" "${device_gloo[@]}" "${cnn[@]}" \
    "${small[@]}" && [ "$(grep -c 'parameter checksum' "$work/gloo2.out")" = 2 ] &&
    [ "$(checksums "$work/gloo2.out" | wc -w)" = 1 ]; then
    record "2 CNN, 2 ranks, gloo, CUDA tensors" \
      "trainjob-trainer --nproc-per-node 2 $gpu_gloo ${cnn[*]} ${small[*]}" \
      "$(grep -o 'world size 2, [^,]*' "$work/gloo2.out"); both ranks' checksum $(checksums "$work/gloo2.out")"
  else
    record "2 CNN, 2 ranks, gloo, CUDA tensors" \
      "trainjob-trainer --nproc-per-node 2 $gpu_gloo ${cnn[*]} ${small[*]}" \
      "failed: $(tail -1 "$work/gloo2.err" | cut -c1-200)" FAIL
  fi
  # On a CPU build the refusal is the missing NCCL, said the same way.
  step refuse "trainjob-trainer --nproc-per-node 2 --backend nccl ${cnn[*]}" -- \
    "$trainer" --nproc-per-node 2 --master-port "$(free_port)" --backend nccl "${cnn[@]}" --epochs 1
  refusal=$(grep -m1 'trainjob-trainer: error: ' "$work/refuse.err" | sed 's/^trainjob-trainer: error: //')
  launcher=$(grep -m1 'failed with exit status' "$work/refuse.err" | sed 's/^trainjob-trainer: error: //')
  expected=$([ "$dry_run" = 1 ] && echo 'backend nccl: this build has no NCCL' ||
    echo 'local rank 1 has no GPU of its own')
  if grep -q "$expected" "$work/refuse.err" && [ -n "$launcher" ]; then
    record "2 nccl, 2 ranks, 1 GPU" "trainjob-trainer --nproc-per-node 2 --backend nccl" \
      "refused, exit 1: \"$refusal\"; launcher: \"$launcher\""
  else
    record "2 nccl, 2 ranks, 1 GPU" "trainjob-trainer --nproc-per-node 2 --backend nccl" \
      "not refused as expected: $(tail -2 "$work/refuse.err" | paste -sd' ' - | cut -c1-200)" FAIL
  fi
fi

# 3. Throughput: trainjob-trainer and PyTorch DDP, same CNN, data shape, batch and Adam, the
# last epoch's samples/s. PyTorch runs under trainjob-trainer as torchrun.
ddp=$root/tests/bench/trainer/ddp_cnn.py
rate() {  # rate NAME: the last epoch's samples/s, or why none
  local value
  value=$(last_rate "$work/$1.out")
  echo "${value:-failed}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
if [ -x "$trainer" ]; then
  step t_nccl "trainjob-trainer $gpu_nccl ${cnn[*]} ${fast[*]}" -- \
    "$trainer" --master-port "$(free_port)" "${device_nccl[@]}" "${cnn[@]}" "${fast[@]}"
  step t_gloo "trainjob-trainer --nproc-per-node 2 $gpu_gloo ${cnn[*]} ${fast[*]}" -- \
    "$trainer" --nproc-per-node 2 --master-port "$(free_port)" "${device_gloo[@]}" "${cnn[@]}" \
    "${fast[@]}"
fi
if [ "$py_torch" = none ]; then
  # Compiled into the scratch directory: no __pycache__ left in the tree.
  if python3 -c 'import py_compile, sys; py_compile.compile(sys.argv[1], sys.argv[2], doraise=True)' \
    "$ddp" "$work/ddp_cnn.pyc" 2>>"$log"; then
    record "3 PyTorch DDP" "python3 tests/bench/trainer/ddp_cnn.py" "not run: no torch for $python here; the script compiles"
  else
    record "3 PyTorch DDP" "python3 tests/bench/trainer/ddp_cnn.py" "the script does not compile" FAIL
  fi
elif [ -x "$trainer" ]; then
  step p_nccl "trainjob-trainer --python python3 --nproc_per_node 1 ddp_cnn.py $gpu_ddp_nccl ${fast[*]}" -- \
    "$trainer" --python "$python" --nproc_per_node 1 --master_port "$(free_port)" "$ddp" \
    "${ddp_nccl[@]}" "${fast[@]}"
  step p_gloo "trainjob-trainer --python python3 --nproc_per_node 2 ddp_cnn.py $gpu_ddp_gloo ${fast[*]}" -- \
    "$trainer" --python "$python" --nproc_per_node 2 --master_port "$(free_port)" "$ddp" \
    "${ddp_gloo[@]}" "${fast[@]}"
fi
if [ -x "$trainer" ]; then
  for pair in "nccl:1 rank, nccl" "gloo:2 ranks on one GPU, gloo"; do
    kind=${pair%%:*} label=${pair#*:}
    ours=$(rate "t_$kind") theirs="not run"
    if [ "$py_torch" != none ]; then theirs=$(rate "p_$kind"); fi
    verdict=$([ "$ours" = failed ] || [ "$theirs" = failed ] && echo FAIL || echo ok)
    record "3 samples/s, $label" "${fast[*]}, batch 64 per rank, last epoch" \
      "trainjob-trainer $ours, PyTorch DDP $theirs (torch $py_torch), ratio $(ratio "$ours" "$theirs")" \
      "$verdict"
  done
fi
