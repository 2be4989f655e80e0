#!/usr/bin/env bash
# The command line: --help, usage errors (exit 2), bad environment (exit 1), and a worker
# started by torchrun's environment rather than our launcher.
. "$(dirname "$0")/lib.sh"

"$trainer" --help >"$work/help.out"
check "--help exits 0" [ $? -eq 0 ]
for word in PET_NNODES PET_NPROC_PER_NODE PET_NODE_RANK PET_MASTER_ADDR PET_MASTER_PORT \
  PET_MAX_RESTARTS PET_RDZV_TIMEOUT TRAINER_BACKEND TRAINER_MODEL TRAINER_DATA_DIR \
  TRAINER_CHECKPOINT_DIR TRAINER_DDP TRAINER_BUCKET_CAP_MB GLOO_SOCKET_IFNAME; do
  check "--help documents $word" has "$work/help.out" "$word"
done

"$trainer" --epochs zero >"$work/usage.out" 2>"$work/usage.err"
check "bad flag value: exit 2" [ $? -eq 2 ]
check "bad flag value: message" has "$work/usage.err" \
  '^trainjob-trainer: error: --epochs: expected an integer ≥ 1, found "zero"$'
check "bad flag value: nothing on stdout" [ ! -s "$work/usage.out" ]
"$trainer" --nprocs 2 2>"$work/unknown.err"
check "unknown flag: exit 2" [ $? -eq 2 ]
check "unknown flag: named" has "$work/unknown.err" 'unknown flag --nprocs; see --help'
PET_NPROC_PER_NODE=npu "$trainer" 2>"$work/env.err"
check "bad PET_NPROC_PER_NODE: exit 1" [ $? -eq 1 ]
check "bad PET_NPROC_PER_NODE: named" has "$work/env.err" \
  'PET_NPROC_PER_NODE: expected an integer ≥ 1 or one of auto, cpu, gpu, found "npu"'
KUBEFLOW_TRAINER_OPT_LR=fast "$trainer" --lr 0.1 2>"$work/trial.err"
check "bad KUBEFLOW_TRAINER_OPT_LR: exit 1, even under --lr" [ $? -eq 1 ]
check "bad KUBEFLOW_TRAINER_OPT_LR: named" has "$work/trial.err" \
  '^trainjob-trainer: error: KUBEFLOW_TRAINER_OPT_LR: expected a number > 0, found "fast"$'
# An OptimizationJob trial's values reach the worker, over the TrainJob's own TRAINER_*.
TRAINER_EPOCHS=7 KUBEFLOW_TRAINER_OPT_EPOCHS=2 KUBEFLOW_TRAINER_OPT_BATCH_SIZE=20 \
  "$trainer" --master-port "$(free_port)" >"$work/trial.out" 2>&1
check "a trial's values: trained as they say" has "$work/trial.out" \
  'batch 20 per worker, epochs 1-2$'
PET_NNODES=2 PET_NODE_RANK=2 "$trainer" 2>"$work/rank.err"
check "node rank out of range: exit 1" [ $? -eq 1 ]
check "node rank out of range: named" has "$work/rank.err" \
  '\-\-node-rank: expected 0 … 1 for --nnodes 2, found 2'
"$trainer" --backend nccl --master-port "$(free_port)" >/dev/null 2>"$work/nccl.err"
check "nccl on a CPU build: exit 1" [ $? -eq 1 ]
check "nccl on a CPU build: said" has "$work/nccl.err" 'backend nccl: '
check "nccl on a CPU build: the launcher names the worker" has "$work/nccl.err" \
  'worker rank 0 (local rank 0) failed with exit status 1; no restarts left'
# --device cuda: gloo over CUDA tensors needs a CUDA libtorch, which this build may lack;
# --device cpu cannot be NCCL's on any build.
"$trainer" --backend gloo --device cuda --master-port "$(free_port)" >/dev/null \
  2>"$work/cuda.err"
check "--device cuda without CUDA or a GPU: exit 1" [ $? -eq 1 ]
check "--device cuda without CUDA or a GPU: said" has "$work/cuda.err" \
  "device cuda: \(this build's libtorch has no CUDA\|no GPU is visible\)"
"$trainer" --backend nccl --device cpu --master-port "$(free_port)" >/dev/null 2>"$work/cpu.err"
check "--device cpu with nccl: exit 1" [ $? -eq 1 ]
check "--device cpu with nccl: said" has "$work/cpu.err" \
  'device cpu: NCCL runs on GPUs only (use --backend gloo)'
CUDA_VISIBLE_DEVICES='' "$trainer" --nproc-per-node gpu >/dev/null 2>"$work/gpu.err"
check "one worker per GPU without a GPU: exit 1" [ $? -eq 1 ]
check "one worker per GPU without a GPU: said" has "$work/gpu.err" \
  '^trainjob-trainer: error: --nproc-per-node: gpu: no GPU is visible on this node$'

# As torchrun starts it: LOCAL_RANK and the rest set, no launcher of ours.
port=$(free_port)
for rank in 1 0; do
  RANK=$rank LOCAL_RANK=$rank WORLD_SIZE=2 LOCAL_WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 \
    MASTER_PORT=$port TORCHELASTIC_RESTART_COUNT=0 "$trainer" >"$work/torchrun$rank.out" 2>&1 &
  pids[rank]=$!
done
wait "${pids[0]}" && wait "${pids[1]}"
check "under torchrun's environment: both workers exit 0" [ $? -eq 0 ]
check "under torchrun's environment: no launcher line" lacks "$work/torchrun0.out" 'starting workers'
check "under torchrun's environment: replicas identical" checksums_agree 2 "$work"/torchrun*.out

finish
