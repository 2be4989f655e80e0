#!/usr/bin/env bash
# run --local of the legacy kinds: the seed CPU demo PyTorchJob with the env the operator
# gives its pods, a TFJob's TF_CONFIG with a local port per pod, and the kind's success rule
# deciding the exit code.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

# pytorchjob NAME MASTER_COMMAND WORKER_COMMAND: the seed's CPU demo (Master 1 + Worker 1,
# OnFailure), with the given shell commands in place of `python3 demo.py`.
pytorchjob() {
  cat <<YAML
apiVersion: "kubeflow.org/v1"
kind: PyTorchJob
metadata:
  name: $1
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: OnFailure
      template:
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
              command: ["sh", "-c", '$2']
    Worker:
      replicas: 1
      restartPolicy: OnFailure
      template:
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
              command: ["sh", "-c", '$3']
YAML
}

show='echo "rank=$RANK world=$WORLD_SIZE addr=$MASTER_ADDR port=$MASTER_PORT pet_addr=$PET_MASTER_ADDR pet_port=$PET_MASTER_PORT pet_rank=$PET_NODE_RANK nnodes=$PET_NNODES nproc=$PET_NPROC_PER_NODE unbuffered=$PYTHONUNBUFFERED host=$HOSTNAME"'
# The Master lingers: once it ends, the rule is met and a Worker still running is stopped.
pytorchjob torchrun-cpu "$show; sleep 1" "$show" >"$work/pt.yaml"
check "the seed PyTorchJob validates" "$binary" validate -f "$work/pt.yaml"
"$binary" run --local -f "$work/pt.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "seed PyTorchJob: exit 0" test $? -eq 0
for pod in master-0 worker-0; do
  rank=0
  [ "$pod" = worker-0 ] && rank=1
  check "$pod: RANK $rank, WORLD_SIZE 2, MASTER_ADDR and PET_* as the operator sets them, on loopback" \
    grep -Eq "^\[$pod\] rank=$rank world=2 addr=127\.0\.0\.1 port=[0-9]+ pet_addr=127\.0\.0\.1 pet_port=[0-9]+ pet_rank=$rank nnodes=2 nproc=auto unbuffered=1 host=torchrun-cpu-$pod$" \
    "$work/out.txt"
done
check "MASTER_PORT and PET_MASTER_PORT: one port, the same on both pods, not the operator's 23456" \
  bash -c "[ \$(grep -oE 'port=[0-9]+' '$work/out.txt' | sort -u | wc -l) -eq 1 ] && ! grep -q 'port=23456' '$work/out.txt'"
port=$(grep -oE ' port=[0-9]+' "$work/out.txt" | head -1 | cut -d= -f2)
check "that port is free again once the run ended" \
  /usr/bin/python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', $port))"
check "the rewrites are announced" \
  bash -c "grep -q 'MASTER_ADDR torchrun-cpu-master-0 -> 127.0.0.1' '$work/err.txt' && grep -q 'MASTER_PORT 23456 -> $port' '$work/err.txt'"
check "the rule that decided is named" grep -q "PyTorchJob succeeded by its rule (master)" "$work/err.txt"

# A TFJob with 2 workers and 1 PS: TF_CONFIG names every pod at 127.0.0.1 with its own port.
cat >"$work/tf.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: TFJob
metadata:
  name: tfdist
spec:
  tfReplicaSpecs:
    PS:
      replicas: 1
      template:
        spec:
          containers:
            - name: tensorflow
              image: tf-demo
              command: ["sh", "-c", 'echo "TF_CONFIG=$TF_CONFIG"']
    Worker:
      replicas: 2
      template:
        spec:
          containers:
            - name: tensorflow
              image: tf-demo
              command: ["sh", "-c", 'echo "TF_CONFIG=$TF_CONFIG"; sleep 1']
YAML
"$binary" run --local -f "$work/tf.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "TFJob: exit 0" test $? -eq 0
check "TF_CONFIG: valid JSON in every pod, the same cluster, distinct local ports, each pod its own task" \
  /usr/bin/python3 - "$work/out.txt" <<'PY'
import json, re, sys
configs = {}
for line in open(sys.argv[1]):
    m = re.match(r"^\[(\w+)-(\d+)\] TF_CONFIG=(.*)$", line)
    if m:
        configs[(m.group(1), int(m.group(2)))] = json.loads(m.group(3))
assert sorted(configs) == [("ps", 0), ("worker", 0), ("worker", 1)], configs
clusters = [c["cluster"] for c in configs.values()]
assert all(c == clusters[0] for c in clusters), clusters
addresses = clusters[0]["ps"] + clusters[0]["worker"]
assert len(addresses) == 3 and all(a.startswith("127.0.0.1:") for a in addresses), addresses
assert len({a.split(":")[1] for a in addresses}) == 3, addresses
assert "2222" not in {a.split(":")[1] for a in addresses}, addresses
for (kind, index), config in configs.items():
    assert config["task"] == {"type": kind, "index": index}, config
    assert config["environment"] == "cloud", config
PY
check "the TF_CONFIG rewrites are listed" grep -q "TF_CONFIG .*tfdist-worker-1\.default\.svc:2222.* -> " "$work/err.txt"

# The kind's rule decides: a PyTorchJob succeeds with its Master, whatever a Worker does.
pytorchjob pt-rule 'sleep 0.5; echo master done' 'echo worker fails; exit 3' >"$work/rule.yaml"
"$binary" run --local -f "$work/rule.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "Master exits 0, Worker exits 3: exit 0 (the Master decides)" test $? -eq 0
check "... the Worker's failure is said, and that the rule looks at the Master" \
  grep -q "pod pt-rule-worker-0-local (worker-0), container pytorch, failed with exit status 3; the PyTorchJob's rule looks at master, the other pods go on" "$work/err.txt"
check "... and the Master ran to its end" grep -qx "\[master-0\] master done" "$work/out.txt"
pytorchjob pt-rule 'echo master fails; exit 3' 'sleep 0.5; echo worker done' >"$work/rule.yaml"
"$binary" run --local -f "$work/rule.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "Master exits 3, Worker exits 0: exit 1" test $? -eq 1
check "... naming the failed Master and the rule" \
  grep -q "error: pod pt-rule-master-0-local (master-0), container pytorch, failed with exit status 3: the PyTorchJob's success rule (master) cannot be met" "$work/err.txt"
finish
