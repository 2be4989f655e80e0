#!/bin/bash
# --gang on a cluster without the Workload API (the shared control plane: Kubernetes 1.37
# with its defaults, GenericWorkload and WorkloadWithJob off): the server would drop a
# Job's spec.scheduling silently and serves no scheduling.k8s.io/v1beta1, so submit refuses,
# says which gate or API is missing, and applies nothing.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane

nothing_applied() { [ -z "$(kubectl get jobs,services,configmaps,secrets -o name | grep -v kube-root-ca.crt)" ]; }

cat >"$work/torch.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: one-job
spec:
  runtimeRef: {name: torch-distributed}
  trainer: {numNodes: 2}
YAML
"$bin" submit --gang -f "$work/torch.yaml" >"$work/out" 2>"$work/err"
check "one Job with --gang, WorkloadWithJob off: exit 1" [ $? -eq 1 ]
check "... the server would drop its spec.scheduling, and the error says so with the gate" \
  grep -q "^error: job.batch/one-job-node-0: the API server dropped spec.scheduling, .*feature gate WorkloadWithJob" "$work/err"
check "... and nothing was applied" nothing_applied

cat >"$work/mpi.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: two-jobs
spec:
  runtimeRef: {name: deepspeed-distributed}
  trainer: {numNodes: 2, command: [deepspeed, /app/train.py]}
YAML
"$bin" submit --gang -f "$work/mpi.yaml" >"$work/out" 2>"$work/err"
check "two Jobs with --gang, scheduling.k8s.io/v1beta1 not served: exit 1" [ $? -eq 1 ]
check "... the error names the API and how a cluster serves it" \
  grep -q "^error: workload.scheduling.k8s.io/two-jobs: this cluster does not serve scheduling.k8s.io/v1beta1 Workload .*GenericWorkload" "$work/err"
check "... and nothing was applied" nothing_applied
finish
