#!/bin/bash
# Kueue and jobs of several Jobs, on real Kueue (tests/cluster/addons/kueue) and JobSet
# (tests/oracle/modules/trainer), under a ClusterQueue of 5 CPUs: two MPIJobs of a launcher
# (1 CPU) and two workers (2 CPUs each), 5 CPUs each, so the quota fits one of them.
#
# The finding: compiled to per-Job objects, each Job is a Workload Kueue admits on its own.
# Submitted at the same time (their creations interleave), both launchers and one worker get
# quota and the rest waits for quota nobody gives back: both jobs are half admitted, for good
# (an MPI launcher waits for all its workers). So render refuses a queued job of several Jobs,
# at its queue label, with the fix: as a TrainJob under --target jobset, the whole job is one
# JobSet, one Workload of two pod sets, admitted all or nothing; shown here: one runs, the
# other waits whole, then runs.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
started=$SECONDS
use_own_control_plane
"$src/tests/cluster/addons/start-kueue.sh" "$cluster" || exit 1
"$src/tests/oracle/start/trainer.sh" "$cluster" || exit 1  # JobSet's controller (and Trainer's)
echo "kueue_half_admission_test: control plane, Kueue and JobSet up in $((SECONDS - started)) s" >&2

for queue in 1 2; do
  kueue_queue 5 "$queue"
done

# mpijob NAME QUEUE DURATION: an MPIJob in LocalQueue QUEUE whose pods run DURATION.
mpijob() {
  cat <<YAML
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: $1
  namespace: $ns
  labels: {kueue.x-k8s.io/queue-name: $2}
spec:
  slotsPerWorker: 1
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        metadata: {annotations: {test.kubectl-trainjob/duration: $3}}
        spec:
          containers: [{name: launcher, image: mpi:1, command: [mpirun, pi], resources: {requests: {cpu: "1"}}}]
    Worker:
      replicas: 2
      template:
        metadata: {annotations: {test.kubectl-trainjob/duration: $3}}
        spec:
          containers: [{name: worker, image: mpi:1, resources: {requests: {cpu: "2"}}}]
YAML
}
# workloads: "JOB:QuotaReserved-status" for each Workload of the namespace, sorted.
workloads() {
  kubectl get workloads.kueue.x-k8s.io -o json | python3 -c '
import json, sys
for w in json.load(sys.stdin)["items"]:
    owner = w["metadata"]["ownerReferences"][0]["name"]
    state = {c["type"]: c["status"] for c in w.get("status", {}).get("conditions", [])}
    print(owner + ":" + state.get("QuotaReserved", "None"))' | sort | tr '\n' ' '
}

export -f workloads
# --- the finding: per-Job objects in a queue, half admitted ---------------------------------
# render refuses them now; what it gave before is its output without the queue label, with the
# label put back on each Job.
for job in a b; do
  mpijob $job lq1 10m >"$work/$job.yaml"
  "$bin" render -f "$work/$job.yaml" >/dev/null 2>"$work/$job.refused"
  check "half admission: render refuses MPIJob $job in a queue: exit 1" [ $? -eq 1 ]
  sed '/kueue.x-k8s.io\/queue-name/d' "$work/$job.yaml" >"$work/$job.unqueued.yaml"
  "$bin" render --generate-secrets -f "$work/$job.unqueued.yaml" 2>/dev/null |
    python3 -c '
import sys, yaml
for d in yaml.safe_load_all(sys.stdin):
    if not d: continue
    if d["kind"] == "Job": d["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] = "lq1"
    open(sys.argv[1] + "." + (d["metadata"]["name"] if d["kind"] == "Job" else "rest") + ".yaml", "a").write("---\n" + yaml.safe_dump(d))
' "$work/$job"
done
check "... at its queue label, with the fix" \
  grep -qE "a.yaml:[0-9]+:[0-9]+: error: metadata.labels\[kueue.x-k8s.io/queue-name\]: expected a job that runs as one Job in a Kueue queue, found 3 Jobs that run together \(Launcher x1, Worker x2\)" "$work/a.refused"
# Two users submit at once: their creations interleave (a second apart: Kueue orders by the
# creation time the API server keeps to the second).
kubectl apply -f "$work/a.rest.yaml" -f "$work/b.rest.yaml" >/dev/null
for file in a.a-launcher b.b-launcher a.a-worker-0 a.a-worker-1 b.b-worker-0 b.b-worker-1; do
  kubectl apply -f "$work/$file.yaml" >/dev/null
  sleep 1.1
done
half='a-launcher:True a-worker-0:True a-worker-1:False b-launcher:True b-worker-0:False b-worker-1:False '
check "half admission: Kueue admits both launchers and one worker of a: 5 CPUs of 5 held" \
  eventually bash -c "[ \"\$(workloads)\" = '$half' ]" 2>/dev/null || workloads >&2
sleep 10
check "... and 10 s on nothing has moved: neither job can ever get all its workers" \
  bash -c "[ \"\$(workloads)\" = '$half' ]"
"$bin" status a >"$work/a.status"
check "... status of a shows it half admitted, with Kueue's reason for the waiting worker" \
  bash -c "grep -qE '^Kueue: Workload job-a-launcher-[a-z0-9]+ of Job a-launcher: admitted in LocalQueue lq1$' '$work/a.status' &&
    grep -qE '^Kueue: Workload job-a-worker-1-[a-z0-9]+ of Job a-worker-1: pending in LocalQueue lq1 \(position [0-9], .*\): Pending: .*insufficient unused quota for cpu in flavor default, 1 more needed' '$work/a.status'"

# --- the fix: the same jobs as TrainJobs under --target jobset, one Workload each -----------
for job in c d; do
  mpijob $job lq2 4s >"$work/$job.yaml"
  "$bin" convert --with-runtime -f "$work/$job.yaml" >"$work/$job.trainjob.yaml" 2>/dev/null
  "$bin" render -f "$work/$job.trainjob.yaml" >/dev/null 2>"$work/$job.refused"
  check "jobset target: the TrainJob $job in a queue, under --target jobs, is refused: exit 1" [ $? -eq 1 ]
  "$bin" render --target jobset --generate-secrets -f "$work/$job.trainjob.yaml" >"$work/$job.jobset.yaml" 2>/dev/null
done
check "... saying to use --target jobset" \
  grep -qE "error: metadata.labels\[kueue.x-k8s.io/queue-name\]: .*found 2 Jobs that run together \(node, launcher\).*render it with --target jobset" "$work/c.refused"
kubectl apply -f "$work/c.jobset.yaml" -f "$work/d.jobset.yaml" >/dev/null
whole='jobset c:True jobset d:False '
jobset_workloads() {
  kubectl get workloads.kueue.x-k8s.io -o json 2>/dev/null | python3 -c '
import json, sys
for w in json.load(sys.stdin)["items"]:
    o = w["metadata"]["ownerReferences"][0]
    if o["kind"] != "JobSet": continue
    state = {c["type"]: c["status"] for c in w.get("status", {}).get("conditions", [])}
    print("jobset " + o["name"] + ":" + state.get("QuotaReserved", "None"))' | sort | tr '\n' ' '
}
export -f jobset_workloads
check "jobset target: one Workload per JobSet: c admitted whole, d waits whole" \
  eventually bash -c "[ \"\$(jobset_workloads)\" = '$whole' ] || [ \"\$(jobset_workloads)\" = 'jobset c:False jobset d:True ' ]" ||
  { jobset_workloads; kubectl get workloads.kueue.x-k8s.io; } >&2
check "... c's Workload holds both pod sets (node x2, launcher x1)" bash -c "
  kubectl get workloads.kueue.x-k8s.io -o jsonpath='{range .items[*]}{.metadata.ownerReferences[0].name}={.spec.podSets[*].name}/{.spec.podSets[*].count}{\"\\n\"}{end}' | grep -qx 'c=node launcher/2 1'"
first=c second=d
[ "$(jobset_workloads)" = "$whole" ] || { first=d second=c; }
check "... none of $second's Jobs runs meanwhile" \
  bash -c "[ \"\$(kubectl get jobs -l jobset.sigs.k8s.io/jobset-name=$second -o jsonpath='{.items[*].spec.suspend}')\" = 'true true' ]"
jobset_done() { [ "$(kubectl get jobset "$1" -o jsonpath='{.status.terminalState}')" = Completed ]; }
check "... $first completes" eventually jobset_done $first
check "... then $second is admitted and completes" eventually jobset_done $second

echo "kueue_half_admission_test: $((SECONDS - started)) s in all" >&2
finish
