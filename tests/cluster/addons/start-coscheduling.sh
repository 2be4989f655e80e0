#!/usr/bin/env bash
# Starts the scheduler-plugins scheduler (the Coscheduling plugin; addons/coscheduling) as a
# second scheduler beside the control plane that `up.sh DIR` started:
#
#   tests/cluster/addons/start-coscheduling.sh DIR
#
# It installs the PodGroup CRD (scheduling.x-k8s.io, from DIR/crds) and runs one profile,
# `scheduler-plugins-scheduler` (the name upstream's as-a-second-scheduler chart gives it),
# with kube-scheduler's defaults plus Coscheduling at every point it plugs into, and
# Coscheduling's queue sort in place of the default one, as upstream's own
# manifests/coscheduling/scheduler-config.yaml does. permitWaitingTimeSeconds is 10 (that
# file's value): a gang member that passed waits that long at Permit for the others.
# Coscheduling asks to be woken only by a pod added or a PodGroup changed, not by a node
# that joins: a gang it turned away for want of room is tried again when kube-scheduler
# flushes its unschedulable pods, after 5 minutes by default. Here that is 5 seconds
# (--pod-max-in-unschedulable-pods-duration), so that a test sees the gang bind soon after
# room appears.
# Its pid goes to DIR/pids/coscheduling.pid, so down.sh stops it; its log is
# DIR/logs/coscheduling.log. Nothing updates PodGroup status (upstream's controller does;
# the plugin reads the PodGroup's spec and the pods, not its status).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: tests/cluster/addons/start-coscheduling.sh DIR" >&2; exit 2; }
dir=$(cd "$1" && pwd)
log=$dir/logs/coscheduling.log
kubectl() { "$dir/bin/kubectl" --kubeconfig "$dir/kubeconfig" "$@"; }
fail() { echo "start-coscheduling.sh: $1; its log: $log (last lines below)" >&2; tail -15 "$log" >&2; exit 1; }

bin=$("$here/../build_groups.sh" addons coscheduling 2>"$dir/logs/coscheduling-build.log") ||
  { cat "$dir/logs/coscheduling-build.log" >&2; exit 1; }
bin=$bin/coscheduling

crd=$dir/crds/scheduling.x-k8s.io_podgroups.yaml
kubectl apply --server-side --force-conflicts --field-manager kubectl-trainjob-tests -f "$crd" >/dev/null 2>"$log" ||
  fail "the API server refused the PodGroup CRD"
for try in $(seq 100); do  # a CRD with no conditions yet fails the wait at once: again
  kubectl wait --for=condition=Established --timeout=30s -f "$crd" >/dev/null 2>>"$log" && break
  [ "$try" -lt 100 ] || fail "the PodGroup CRD was not Established"
  sleep 0.3
done

cat >"$dir/coscheduling.yaml" <<YAML
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection: {kubeconfig: $dir/kube-scheduler.kubeconfig, qps: 500, burst: 1000}
leaderElection: {leaderElect: false}
profiles:
- schedulerName: scheduler-plugins-scheduler
  plugins:
    multiPoint:
      enabled: [{name: Coscheduling}]
    queueSort:
      enabled: [{name: Coscheduling}]
      disabled: [{name: "*"}]
  pluginConfig:
  - name: Coscheduling
    args: {permitWaitingTimeSeconds: 10}
YAML
setsid "$bin/coscheduling" --config="$dir/coscheduling.yaml" --secure-port=0 \
  --pod-max-in-unschedulable-pods-duration=5s </dev/null >>"$log" 2>&1 &
echo $! >"$dir/pids/coscheduling.pid"
# Ready once it has synced its caches and logged its first scheduling attempt's readiness.
for _ in $(seq 150); do
  kill -0 "$(cat "$dir/pids/coscheduling.pid")" 2>/dev/null || fail "the scheduler exited during start-up"
  grep -q "Attempting to acquire leader lease\|Starting Kubernetes Scheduler\|Waiting for caches" "$log" 2>/dev/null && break
  sleep 0.2
done
