#!/usr/bin/env bash
# init -> validate -> render -> run --local: every pod a local process, with the env,
# volumes and ordering a cluster would give it.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

# ConfigMap mode: a shell script reports what each pod sees.
cat >"$work/report.sh" <<'SCRIPT'
echo "rank=$PET_NODE_RANK nnodes=$PET_NNODES nproc=$PET_NPROC_PER_NODE addr=$PET_MASTER_ADDR port=$PET_MASTER_PORT host=$HOSTNAME script=$0 args=$*"
SCRIPT
"$binary" init report --script "$work/report.sh" --nodes 3 --procs 2 >"$work/report.yaml"
check "init writes a TrainJob that validates" "$binary" validate -f "$work/report.yaml"
check "and renders" "$binary" render -f "$work/report.yaml" -o json >/dev/null
"$binary" run --local -f "$work/report.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "configmap mode: exit 0" test $? -eq 0
for rank in 0 1 2; do
  check "pod $rank sees its rank and the PET_* values" \
    grep -Eq "^\[node-$rank\] rank=$rank nnodes=3 nproc=2 addr=127.0.0.1 port=[0-9]+ host=report-node-0-$rank script=/tmp/.*/report-node-0-$rank-local/training-script/report.sh" \
    "$work/out.txt"
done
check "every pod gets the same rendezvous port" \
  test "$(grep -o 'port=[0-9]*' "$work/out.txt" | sort -u | wc -l)" -eq 1
check "the rewrites are announced" \
  grep -q "PET_MASTER_ADDR report-node-0-0.report -> 127.0.0.1" "$work/err.txt"

# HostPath mode: the script is read from the host directory itself.
mkdir "$work/host"
echo 'echo "from the host path, rank $PET_NODE_RANK, in $(dirname "$0")"' >"$work/host/show.sh"
"$binary" init show --mode hostpath --host-path "$work/host" --script show.sh >"$work/show.yaml"
"$binary" run --local -f "$work/show.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "hostpath mode: exit 0" test $? -eq 0
check "hostpath mode: the script ran from the host directory" \
  grep -q "^\[node-1\] from the host path, rank 1, in $work/host$" "$work/out.txt"

# --from-file fills the ConfigMap the TrainJob mounts, as submit does.
sed '1,/^---$/d' "$work/report.yaml" >"$work/no-map.yaml"
"$binary" run --local -f "$work/no-map.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "a mounted ConfigMap that is not among the inputs is an error" test $? -eq 1
check "which says how to provide it" grep -q 'ConfigMap "report-script" is not among the inputs; add it with -f, or build it with --from-file' "$work/err.txt"
echo "from a file" >"$work/note.txt"
echo 'echo "rank $PET_NODE_RANK reads: $(cat "$(dirname "$0")/note.txt")"' >"$work/report.sh"
"$binary" run --local -f "$work/no-map.yaml" --from-file "$work/report.sh" --from-file "$work/note.txt" \
  >"$work/out.txt" 2>"$work/err.txt"
check "--from-file: exit 0" test $? -eq 0
check "--from-file: every file is in the mounted ConfigMap" \
  test "$(grep -c '^\[node-[012]\] rank [012] reads: from a file$' "$work/out.txt")" -eq 3
check "--from-file: no warning that the ConfigMap it builds is missing" \
  bash -c "! grep -q 'not among the inputs' '$work/err.txt'"

# A runtime with an initializer and an init container sharing an emptyDir with the node.
cat >"$work/runtime.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: staged
spec:
  mlPolicy:
    numNodes: 1
    torch: {}
  template:
    spec:
      replicatedJobs:
        - name: dataset-initializer
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer
            spec:
              template:
                spec:
                  containers:
                    - name: dataset-initializer
                      image: busybox
                      command: ["sh", "-c", "echo fetching; exit ${INIT_EXIT:-0}"]
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  initContainers:
                    - name: prepare
                      image: busybox
                      command: ["sh", "-c", "echo prepared > /scratch/note"]
                      volumeMounts:
                        - name: scratch
                          mountPath: /scratch
                  containers:
                    - name: node
                      image: busybox
                      command: ["sh", "-c", "echo node $(PET_NODE_RANK) read $(cat /scratch/note) '$$(KEPT)'"]
                      volumeMounts:
                        - name: scratch
                          mountPath: /scratch
                  volumes:
                    - name: scratch
                      emptyDir: {}
YAML
cat >"$work/staged.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: staged
spec:
  runtimeRef:
    name: staged
  trainer:
    numNodes: 2
YAML
"$binary" run --local -f "$work/staged.yaml" -f "$work/runtime.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "initializer, init container and emptyDir: exit 0" test $? -eq 0
check "the initializer ran before the nodes" \
  bash -c "head -1 '$work/out.txt' | grep -q '^\[dataset-initializer-0\] fetching$'"
check "each node read what its init container wrote; \$\$(VAR) stayed literal" \
  test "$(grep -c '^\[node-[01]/node\] node [01] read prepared $(KEPT)$' "$work/out.txt")" -eq 2

INIT_EXIT=4 "$binary" run --local -f "$work/staged.yaml" -f "$work/runtime.yaml" \
  >"$work/out.txt" 2>"$work/err.txt"
check "a failing initializer fails the run" test $? -eq 1
check "and is named with its exit status" \
  grep -q "error: pod staged-dataset-initializer-0-0-local (dataset-initializer-0), container dataset-initializer, failed with exit status 4" \
  "$work/err.txt"
check "and no node ran" bash -c "! grep -q '^\[node' '$work/out.txt'"
check "the summary names the initializer's exit code and the nodes as not started" \
  grep -Eqx 'failed: 3 pods \(dataset-initializer-0 4, node-0 not started, node-1 not started\) in [0-9.]+s' \
  "$work/err.txt"

# The first failure stops the other pods at once. `sleep 60.<pid><random>` names this
# script's own processes, so a parallel test's sleeps are not counted.
nap="60.$$$RANDOM"
sed -e 's/name: report$/name: stop/' -e 's/report-script/stop-script/' \
  -e 's|command: \["sh", "/workspace/report.sh"\]|command: ["sh", "-c", "if [ $PET_NODE_RANK = 2 ]; then exit 7; fi; exec sleep '"$nap"'"]|' \
  "$work/report.yaml" >"$work/stop.yaml"
start=$(date +%s)
"$binary" run --local -f "$work/stop.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "a failing pod fails the run" test $? -eq 1
check "the failing pod is named" grep -q "(node-2), container node, failed with exit status 7" "$work/err.txt"
check "the other pods were stopped, not waited for" test $(($(date +%s) - start)) -lt 30
check "no process is left behind" test "$(pgrep -c -f -x "sleep $nap")" -eq 0

sed -e "s|exit 7|sleep $nap|" "$work/stop.yaml" >"$work/slow.yaml"
"$binary" run --local -f "$work/slow.yaml" --timeout 1s >"$work/out.txt" 2>"$work/err.txt"
check "--timeout stops the run with exit 1" test $? -eq 1
check "--timeout says so" grep -q "error: timed out" "$work/err.txt"
check "--timeout leaves no process behind" test "$(pgrep -c -f -x "sleep $nap")" -eq 0

# What cannot exist locally is refused before anything runs, naming the variable.
cat >"$work/secret.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: secret
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    command: ["true"]
    env:
      - name: TOKEN
        valueFrom:
          secretKeyRef:
            name: creds
            key: token
YAML
"$binary" run --local -f "$work/secret.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "a Secret reference fails with exit 1" test $? -eq 1
check "and names the variable" grep -q "env TOKEN: secretKeyRef creds/token cannot be read locally" "$work/err.txt"

"$binary" run -f "$work/report.yaml" >/dev/null 2>&1
check "run without --local is a usage error" test $? -eq 2
"$binary" run --local -f "$work/report.yaml" --image-map nodir >/dev/null 2>&1
check "a malformed --image-map is a usage error" test $? -eq 2
# Image mode: the image is not pulled, so a script its command names that nothing mounts is
# named before any pod starts, with the --from-file that mounts the user's copy.
"$binary" run --local -f "$2/templates/image.yaml" >"$work/img.out" 2>"$work/img.err"
check "image mode without --from-file: exit 1" test $? -eq 1
check "... naming the script and the --from-file to add" grep -q \
  '^error: pod trainjob-demo-with-image-node-0-0-local (node-0), container node: its command runs /workspace/pytorch-demo.py, which no volume mounts and which is not on this machine (the image pytorch-demo:latest is not pulled): pass --from-file pytorch-demo.py ' "$work/img.err"
check "... before any pod started" bash -c "! grep -q '^Running ' '$work/img.err' && [ ! -s '$work/img.out' ]"
echo 'print("from my copy")' >"$work/pytorch-demo.py"
"$binary" run --local -f "$2/templates/image.yaml" --from-file "$work/pytorch-demo.py" --launcher host --timeout 30s \
  >"$work/img.out" 2>"$work/img.err"
check "... with --from-file the script is mounted: no such error" \
  bash -c "! grep -q 'no volume mounts' '$work/img.err' && grep -q '^Running 2 pods' '$work/img.err'"

finish
