#!/bin/bash
# status shows rank 0's training progress on the real control plane: the last
# TRAINJOB_PROGRESS line in the last lines of its pod's log, read through the API server from
# kwok, as a table line and as Trainer v2.2's trainerStatus in -o json.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane

one_step_trainjob pj 2 '{test.kubectl-trainjob/duration: 1h}' | "$bin" submit -f - > /dev/null
# A legacy kind: the Master is rank 0; its Worker runs ahead, so that picking it would show.
cat > "$work/pt.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: pt
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        metadata:
          annotations: {test.kubectl-trainjob/duration: 1h}
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
    Worker:
      replicas: 1
      template:
        metadata:
          annotations: {test.kubectl-trainjob/duration: 1h}
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
YAML
"$bin" submit -f "$work/pt.yaml" > /dev/null
eventually pods_running pj-node-0 2
rank0=$(job_pod pj-node-0 0)
rank1=$(job_pod pj-node-0 1)
# Rank 1 runs ahead, so that picking it would show.
pod_logs "$rank1" 'TRAINJOB_PROGRESS {"epoch":9,"epochs":10}'
pod_logs "$rank0" "[rank 0] training linear on 100 samples"
eventually log_served "$rank0" && eventually log_served "$rank1"

"$bin" status pj > "$work/out"
check "a running TrainJob: no progress line before rank 0 prints one" \
  bash -c "grep -qx 'TrainJob pj: Running' '$work/out' && ! grep -q '^Progress:' '$work/out'"

# As the C++ trainer prints them, appended to rank 0's log.
cri_lines >> "$work/logs/$rank0.log" <<'LOG'
TRAINJOB_PROGRESS {"epoch":2,"epochs":10,"step":200,"totalSteps":1000,"loss":0.5,"samplesPerSecond":900.0,"remainingSeconds":400}
Epoch [2/10], Average Loss: 0.500000, 900.0 samples/s
TRAINJOB_PROGRESS {"epoch":3,"epochs":10,"step":300,"totalSteps":1000,"loss":0.021,"samplesPerSecond":1410.4,"remainingSeconds":130}
Epoch [3/10], Average Loss: 0.021000, 1410.4 samples/s
LOG
"$bin" status pj > "$work/out"
check "status: rank 0's latest progress" \
  grep -qx 'Progress: epoch 3/10 (30%), loss 0.021, 1,410 samples/s, ~2m left' "$work/out"
"$bin" status pj -o json > "$work/out"
check "status -o json: trainerStatus with upstream's fields" python3 -c "
import json, re
t = json.load(open('$work/out'))['status']['trainerStatus']
assert t['progressPercentage'] == 30, t
assert t['estimatedRemainingSeconds'] == 130, t
assert t['metrics'] == [{'name': 'loss', 'value': '0.021'}, {'name': 'samplesPerSecond', 'value': '1410.4'}], t
assert re.match(r'^20\d\d-\d\d-\d\dT[\d:.]+Z$', t['lastUpdatedTime']), t
"

# Any program may print the line: another prefix, steps only, a metric of its own.
echo '[1,0]<stdout>: TRAINJOB_PROGRESS {"step":50,"totalSteps":200,"accuracy":0.91}' |
  cri_lines >> "$work/logs/$rank0.log"
"$bin" status pj > "$work/out"
check "a program's own line: steps and no rate" grep -qx 'Progress: step 50/200 (25%)' "$work/out"
"$bin" status pj -o json > "$work/out"
check "its own metric in metrics" python3 -c "
import json
t = json.load(open('$work/out'))['status']['trainerStatus']
assert t['progressPercentage'] == 25 and t['metrics'] == [{'name': 'accuracy', 'value': '0.91'}], t
"

eventually pods_running pt-master-0 1 && eventually pods_running pt-worker-0 1
master=$(job_pod pt-master-0)
worker=$(job_pod pt-worker-0)
pod_logs "$worker" 'TRAINJOB_PROGRESS {"epoch":3,"epochs":4,"loss":0.5}'
pod_logs "$master" 'TRAINJOB_PROGRESS {"epoch":1,"epochs":4,"loss":1.5}'
eventually log_served "$master" && eventually log_served "$worker"
"$bin" status pt > "$work/out"
check "a PyTorchJob: the Master's progress" grep -qx 'Progress: epoch 1/4 (25%), loss 1.5' "$work/out"

end_pod "$rank0"
end_pod "$rank1"
complete() { "$bin" status pj > "$work/out" && grep -qx 'TrainJob pj: Complete' "$work/out"; }
check "the TrainJob completes" eventually complete
check "a finished TrainJob shows no progress" bash -c "! grep -q '^Progress:' '$work/out'"
finish
