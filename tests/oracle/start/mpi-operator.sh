#!/usr/bin/env bash
# Starts mpi-operator v0.7 (tests/oracle/modules/mpi-operator: upstream's MPIJob v2beta1
# controller) against the control plane of `tests/cluster/up.sh DIR`:
#
#   [GANG_SCHEDULER=none|volcano|scheduler-plugins] tests/oracle/start/mpi-operator.sh DIR
#
# It builds the operator if needed, installs the v2beta1 MPIJob CRD (and DIR/crds/*, the
# PodGroups gang scheduling makes) and runs the operator detached (log DIR/logs/mpi-operator.log,
# pid DIR/pids/mpi-operator.pid, stopped by down.sh). It prints nothing unless it fails; it exits
# 0 once the operator watches MPIJobs. Run again, it replaces the operator it started before.
# The Training Operator's v1 MPIJob CRD has the same name: the two run on separate clusters.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ] || [ ! -f "$1/kubeconfig" ]; then
  echo "usage: tests/oracle/start/mpi-operator.sh DIR (a control plane from tests/cluster/up.sh DIR)" >&2
  exit 2
fi
dir=$(cd "$1" && pwd)
name=mpi-operator
log=$dir/logs/$name.log
fail() {  # fail MESSAGE: say what failed, with the last lines of the operator's log
  echo "start/$name.sh: $1; its log: $log (last lines below)" >&2
  tail -20 "$log" >&2 2>/dev/null || true
  exit 1
}
kubectl() { "$dir/bin/kubectl" --kubeconfig "$dir/kubeconfig" "$@"; }

# The gang scheduler is chosen per process (--gang-scheduling), with the values upstream's e2e
# tests pass: volcano, or the scheduler-plugins scheduler's name, which it sets on every pod and
# on which it takes the scheduler-plugins PodGroup. No such scheduler runs here, so those pods
# stay Pending: the oracle compares what is created, not where it runs.
case ${GANG_SCHEDULER:-none} in
  none) gang=() ;;
  volcano) gang=(--gang-scheduling=volcano) ;;
  scheduler-plugins) gang=(--gang-scheduling=scheduler-plugins-scheduler) ;;
  *) echo "start/$name.sh: GANG_SCHEDULER is none, volcano or scheduler-plugins, not $GANG_SCHEDULER" >&2; exit 2 ;;
esac

# The build, the operator started before gone, the CRDs Established.
source "$here/operator_prelude.sh"

# No leader election, health or metrics server (the glue has none); the glue's /readyz on a
# free loopback port says when the caches have synced. The API rate limits are those of the
# cluster's controller manager (up.sh), so that a large job is not paced by upstream's 5 a second.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
setsid "$bin/$name" --kubeConfig="$dir/kubeconfig" --ready-address="127.0.0.1:$port" \
  --kube-api-qps=500 --kube-api-burst=1000 ${gang[@]+"${gang[@]}"} \
  </dev/null >"$log" 2>&1 &
echo $! >"$pidfile"

deadline=$((SECONDS + 60))
until curl -sf --max-time 2 "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
  kill -0 "$(cat "$pidfile")" 2>/dev/null || fail "the operator exited during start-up"
  [ $SECONDS -lt $deadline ] || fail "it was not ready within 60 s"
  sleep 0.2
done
