#!/usr/bin/env bash
# run --local with the MPI policy: only the launcher runs, its hostfile names localhost
# with every slot, and a real MPI program built here with mpicc prints each rank.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"
export TMPDIR="$work"

if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
  echo "SKIP: Open MPI (openmpi-bin, libopenmpi-dev) is not installed"
  exit 77
fi
# Tests may run as root; Open MPI refuses that unless told. Here, not in the product.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

cat >"$work/hello.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  int rank = 0, size = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  printf("rank %d of %d\n", rank, size);
  MPI_Finalize();
  return 0;
}
C
mpicc -o "$work/hello" "$work/hello.c"
check "mpicc builds the MPI program" test -x "$work/hello"

# write_mpi_case FILE NUM_NODES NUM_PROC [PROGRAM]: launcher + node runtime, mpirun of
# PROGRAM (hello) as the command.
write_mpi_case() {
  cat >"$1" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: local-mpi
spec:
  mlPolicy:
    numNodes: 1
    mpi:
      numProcPerNode: 1
      sshAuthMountPath: /root/.ssh
  template:
    spec:
      replicatedJobs:
        - name: launcher
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: mpi-local
        - name: node
          template:
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: mpi-local
                      command: ["/usr/sbin/sshd", "-De"]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: hello
spec:
  runtimeRef:
    name: local-mpi
  trainer:
    numNodes: $2
    numProcPerNode: $3
    image: mpi-local
    command: ["mpirun", "--oversubscribe", "$work/${4:-hello}"]
YAML
}

write_mpi_case "$work/mpi.yaml" 2 2
"$binary" run --local -f "$work/mpi.yaml" >"$work/out" 2>&1
status=$?
check "an MPI TrainJob runs" test "$status" -eq 0
check "the hostfile names localhost with all 4 slots" \
  grep -q 'hostfile hello-mpi-hostfile -> localhost slots=4' "$work/out"
check "only the launcher runs (no sshd node pods)" bash -c "! grep -q 'node-0' '$work/out'"
for rank in 0 1 2 3; do
  check "rank $rank of 4 printed" grep -q "rank $rank of 4\$" "$work/out"
done
check "exactly 4 ranks" test "$(grep -c 'rank [0-9]* of' "$work/out")" -eq 4
[ "$status" -eq 0 ] || cat "$work/out" >&2

# Trainer v2.4: the launcher also gets PRTE_MCA_* for Open MPI 5 and spec.trainer.image
# goes to both jobs. Each rank prints its host and the PRTE values it inherited; Open MPI 4
# ignores them, Open MPI 5 reads its hostfile from them.
cat >"$work/ranks.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static const char* env(const char* name) {
  const char* value = getenv(name);
  return value == NULL ? "unset" : value;
}
int main(int argc, char** argv) {
  int rank = 0, size = 0;
  char host[256] = "";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  gethostname(host, sizeof host);
  printf("v24 rank %d of %d on %s hostfile=%s fqdn=%s slots=%s ssh=%s\n", rank, size, host,
         env("PRTE_MCA_prte_default_hostfile"), env("PRTE_MCA_prte_keep_fqdn_hostnames"),
         env("PRTE_MCA_prte_set_default_slots"), env("PRTE_MCA_plm_ssh_args"));
  MPI_Finalize();
  return 0;
}
C
mpicc -o "$work/ranks" "$work/ranks.c"
write_mpi_case "$work/mpi24.yaml" 2 2 ranks
"$binary" run --local --trainer-version 2.4 -f "$work/mpi24.yaml" >"$work/out" 2>&1
status=$?
check "a v2.4 MPI TrainJob runs with this Open MPI" test "$status" -eq 0
for rank in 0 1 2 3; do
  check "v2.4: rank $rank of 4 printed with its host" \
    grep -q "v24 rank $rank of 4 on [^ ]" "$work/out"
done
check "v2.4: every rank got the PRTE set (hostfile rewritten to a local file)" \
  test "$(grep -c ' hostfile=/[^ ]*hostfile fqdn=false slots=2 ssh=-o ConnectionAttempts=10$' \
    "$work/out")" -eq 4
check "v2.4: the PRTE hostfile is not the pod path" bash -c "! grep -q 'hostfile=/etc/mpi' '$work/out'"
[ "$status" -eq 0 ] || cat "$work/out" >&2

# The MPIJob kinds: mpi-operator's (ssh) and the Training Operator's (kubectl exec). Locally
# both run only the launcher, without the SSH key, kubectl or the init container that waits
# for the workers.
# Each launcher gets a session directory of its own: two mpiruns that start at once under one
# TMPDIR race to create Open MPI 4.1's ompi.<host>.<uid> there, and the loser fails with
# "File exists" (as it would on one machine outside the plugin too).
mkdir -p "$work/pi-mpi" "$work/old-mpi"
cat >"$work/mpijobs.yaml" <<YAML
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: pi
spec:
  slotsPerWorker: 2
  launcherCreationPolicy: WaitForWorkersReady
  mpiReplicaSpecs:
    Launcher:
      template:
        spec:
          containers:
          - name: launcher
            image: mpi-local
            command: [mpirun, --oversubscribe, $work/hello]
            env: [{name: OMPI_MCA_orte_tmpdir_base, value: $work/pi-mpi}]
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - name: worker
            image: mpi-local
---
apiVersion: kubeflow.org/v1
kind: MPIJob
metadata:
  name: old
spec:
  slotsPerWorker: 1
  mpiReplicaSpecs:
    Launcher:
      template:
        spec:
          containers:
          - name: launcher
            image: mpi-local
            command: [mpirun, --oversubscribe, $work/hello]
            env: [{name: OMPI_MCA_orte_tmpdir_base, value: $work/old-mpi}]
    Worker:
      replicas: 3
      template:
        spec:
          containers:
          - name: worker
            image: mpi-local
            command: [sleep, "3600"]
YAML
"$binary" run --local -f "$work/mpijobs.yaml" >"$work/out" 2>&1
status=$?
check "both MPIJobs run and succeed" test "$status" -eq 0
check "the v2beta1 hostfile names localhost with its 4 slots" \
  grep -q 'hostfile pi-config -> localhost slots=4' "$work/out"
check "the v1 hostfile names localhost with its 3 slots" \
  grep -q 'hostfile old-config -> localhost slots=3' "$work/out"
check "no worker pod runs" bash -c "! grep -q 'worker-[0-9]' '$work/out'"
check "the v2beta1 launcher's mpirun starts 4 ranks" \
  test "$(grep -c 'rank [0-9] of 4$' "$work/out")" -eq 4
check "the v1 launcher's mpirun starts 3 ranks" \
  test "$(grep -c 'rank [0-9] of 3$' "$work/out")" -eq 3
[ "$status" -eq 0 ] || cat "$work/out" >&2

mkdir "$work/empty"
PATH="$work/empty" "$binary" run --local -f "$work/mpi.yaml" >"$work/out" 2>&1
check "without mpirun on PATH, run fails" test $? -eq 1
check "and says mpirun is missing" grep -q 'needs mpirun, which is not on PATH' "$work/out"
finish
