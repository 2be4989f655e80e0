#!/usr/bin/env bash
# trainjob-trainer as a drop-in torchrun. The seed's ConfigMap flow (its TrainJob, whose
# runtime starts `torchrun ... /workspace/pytorch-demo.py`, with the seed's own script)
# trains to its last epoch under run --local, through the builtin launcher when the
# host's torchrun fails its trial launch (Debian's 1.13 on Python 3.11 does); and the
# launcher run directly gives a Python script torchrun's environment, its own words, and a
# store hosted by rank 0 for init_process_group(env://).
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"
trainer="$(dirname "$binary")/trainer/trainjob-trainer"
[ -x "$trainer" ] || { echo "skip: trainjob-trainer is not built beside $binary"; exit 77; }
python=""
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import torch.distributed' 2>/dev/null; then python=$candidate; break; fi
done
[ -n "$python" ] || { echo "skip: no Python with torch (apt-get install python3-torch)"; exit 77; }
fixture="$source_dir/tests/e2e/fixtures/pytorch-demo.py"

# The seed's flow: 2 pods x 2 workers, the script from --from-file. Workers of a pod share
# its stream as under torchrun, and Python writes a line's text and its newline apart, so
# lines of two ranks may merge: occurrences are counted, not lines.
# A cache of its own: a failed trial launch that an earlier run remembered is not tried.
TRAINJOB_CACHE="$work/cache" "$binary" run --local -f "$source_dir/templates/configmap.yaml" \
  --from-file "$fixture" --timeout 10m >"$work/seed.out" 2>"$work/seed.err"
check "seed flow: exit 0" test $? -eq 0
check "seed flow: the launcher is said once" test "$(grep -c '^torchrun: ' "$work/seed.err")" -eq 1
if grep -q '^torchrun: the builtin launcher' "$work/seed.err"; then
  check "seed flow: the builtin launcher says why (the host's trial failed)" \
    grep -q 'failed a trial launch (torchrun --nproc_per_node 1' "$work/seed.err"
  check "seed flow: the builtin launcher started 2 workers in each pod" bash -c "
    grep -q '^\[node-0\] trainjob-trainer: node 0 of 2: starting workers 0-1 of 4' '$work/seed.out' &&
    grep -q '^\[node-1\] trainjob-trainer: node 1 of 2: starting workers 2-3 of 4' '$work/seed.out'"
fi
for epoch in 1 2 3 4 5; do
  check "seed flow: epoch $epoch of 5 printed" grep -q "Epoch \[$epoch/5\], Average Loss: " "$work/seed.out"
done
check "seed flow: four ranks of world size 4" \
  test "$(grep -o 'RANK=[0-3], WORLD_SIZE=4, LOCAL_RANK=[01]' "$work/seed.out" | sort -u | wc -l)" -eq 4
check "seed flow: ranks 2 and 3 on node 1" bash -c \
  "grep -q '^\[node-1\] .*RANK=2, WORLD_SIZE=4, LOCAL_RANK=0' '$work/seed.out' &&
   grep -q '^\[node-1\] .*RANK=3, WORLD_SIZE=4, LOCAL_RANK=1' '$work/seed.out'"
check "seed flow: every rank destroyed its process group" \
  test "$(grep -o '\[Rank [0-3]\] 进程组已' "$work/seed.out" | sort -u | wc -l)" -eq 4

# Directly: the environment, the script's own words, and init_process_group(env://).
cat >"$work/probe.py" <<'PY'
import os, socket, sys, time
import torch
import torch.distributed as dist
keys = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK", "GROUP_WORLD_SIZE",
        "ROLE_RANK", "ROLE_NAME", "ROLE_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
        "TORCHELASTIC_RESTART_COUNT", "TORCHELASTIC_MAX_RESTARTS", "TORCHELASTIC_RUN_ID",
        "TORCHELASTIC_USE_AGENT_STORE", "OMP_NUM_THREADS"]
rank = int(os.environ["RANK"])
def say(line):
    # Both ranks share one stream: one write per line keeps their lines apart.
    os.write(1, (line + "\n").encode())
say(f"[{rank}] env " + " ".join(f"{k}={os.environ.get(k, '-')}" for k in keys))
say(f"[{rank}] args {sys.argv[1:]}")
address = (os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]))
if rank == 0:
    # Nothing (no agent) listens on the master port before rank 0 starts the store.
    with socket.socket() as probe:
        say(f"[0] store before init: {'taken' if probe.connect_ex(address) == 0 else 'free'}")
dist.init_process_group(backend="gloo", init_method="env://")
total = torch.tensor([rank + 1.0])
dist.all_reduce(total)
say(f"[{rank}] all_reduce {total.item():g}")
dist.destroy_process_group()
if rank == 1 and os.environ.get("PROBE_FAIL") == "1":
    sys.exit(3)
PY
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
env -u OMP_NUM_THREADS "$trainer" --python "$python" --nproc_per_node 2 --master_port "$port" \
  --rdzv_id job7 --redirects 3 --tee 0 "$work/probe.py" --epochs 3 -m x >"$work/probe.out" 2>&1
check "direct: exit 0" test $? -eq 0
for rank in 0 1; do
  check "direct: rank $rank sees torchrun's environment" grep -q "^\[$rank\] env RANK=$rank LOCAL_RANK=$rank WORLD_SIZE=2 LOCAL_WORLD_SIZE=2 GROUP_RANK=0 GROUP_WORLD_SIZE=1 ROLE_RANK=$rank ROLE_NAME=default ROLE_WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port TORCHELASTIC_RESTART_COUNT=0 TORCHELASTIC_MAX_RESTARTS=0 TORCHELASTIC_RUN_ID=job7 TORCHELASTIC_USE_AGENT_STORE=False OMP_NUM_THREADS=1$" "$work/probe.out"
  check "direct: rank $rank gets the script's own words" \
    grep -qF "[$rank] args ['--epochs', '3', '-m', 'x']" "$work/probe.out"
  check "direct: rank $rank summed over both ranks" grep -q "^\[$rank\] all_reduce 3$" "$work/probe.out"
done
check "direct: the store is rank 0's, no agent's" grep -q '^\[0\] store before init: free$' "$work/probe.out"

# A failed worker: the launcher names it and exits 1.
PROBE_FAIL=1 "$trainer" --python "$python" --nproc_per_node 2 --master_port "$port" \
  "$work/probe.py" >"$work/fail.out" 2>&1
check "direct: a failed worker exits 1" test $? -eq 1
check "direct: the failed worker is named" \
  grep -q 'worker rank 1 (local rank 1) failed with exit status 3; no restarts left' "$work/fail.out"

# -m runs a module, as python3 -m.
"$trainer" --python "$python" --nproc_per_node 1 --master_port "$port" -m json.tool --help \
  >"$work/module.out" 2>&1
check "direct: -m runs the module" grep -q 'usage: python.* -m json.tool' "$work/module.out"
finish
