#!/bin/bash
# status shows rank 0's training progress: the last TRAINJOB_PROGRESS line in the last lines
# of its pod's log, as a table line and as Trainer v2.2's trainerStatus in -o json.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
T=trainjob-demo-with-image
J=$T-node-0
"$bin" submit -f "$src/templates/image.yaml" > /dev/null
ctl run "{\"job\": \"$J\"}" > /dev/null

"$bin" status $T > "$work/out"
check "no progress line before rank 0 prints one" bash -c "! grep -q '^Progress:' '$work/out'"

# As the C++ trainer prints them; rank 1 runs ahead so that picking it would show.
ctl log "{\"job\": \"$J\", \"index\": 0, \"lines\": [
  \"[rank 0] training linear on 100 samples\",
  \"TRAINJOB_PROGRESS {\\\"epoch\\\":2,\\\"epochs\\\":10,\\\"step\\\":200,\\\"totalSteps\\\":1000,\\\"loss\\\":0.5,\\\"samplesPerSecond\\\":900.0,\\\"remainingSeconds\\\":400}\",
  \"Epoch [2/10], Average Loss: 0.500000, 900.0 samples/s\",
  \"TRAINJOB_PROGRESS {\\\"epoch\\\":3,\\\"epochs\\\":10,\\\"step\\\":300,\\\"totalSteps\\\":1000,\\\"loss\\\":0.021,\\\"samplesPerSecond\\\":1410.4,\\\"remainingSeconds\\\":130}\",
  \"Epoch [3/10], Average Loss: 0.021000, 1410.4 samples/s\"]}" > /dev/null
ctl log "{\"job\": \"$J\", \"index\": 1, \"lines\": [
  \"TRAINJOB_PROGRESS {\\\"epoch\\\":9,\\\"epochs\\\":10}\"]}" > /dev/null

"$bin" status $T > "$work/out"
check "status: rank 0's latest progress" \
  grep -qx 'Progress: epoch 3/10 (30%), loss 0.021, 1,410 samples/s, ~2m left' "$work/out"
"$bin" status $T -o json > "$work/out"
check "status -o json: trainerStatus with upstream's fields" /usr/bin/python3 -c "
import json, re
t = json.load(open('$work/out'))['status']['trainerStatus']
assert t['progressPercentage'] == 30, t
assert t['estimatedRemainingSeconds'] == 130, t
assert t['metrics'] == [{'name': 'loss', 'value': '0.021'}, {'name': 'samplesPerSecond', 'value': '1410.4'}], t
assert re.match(r'^20\d\d-\d\d-\d\dT[\d:.]+Z$', t['lastUpdatedTime']), t
"

# Any program may print the line: another prefix, steps only, a metric of its own.
ctl log "{\"job\": \"$J\", \"index\": 0, \"lines\": [
  \"[1,0]<stdout>: TRAINJOB_PROGRESS {\\\"step\\\":50,\\\"totalSteps\\\":200,\\\"accuracy\\\":0.91}\"]}" > /dev/null
"$bin" status $T > "$work/out"
check "a program's own line: steps and no rate" grep -qx 'Progress: step 50/200 (25%)' "$work/out"
"$bin" status $T -o json > "$work/out"
check "its own metric in metrics" /usr/bin/python3 -c "
import json
t = json.load(open('$work/out'))['status']['trainerStatus']
assert t['progressPercentage'] == 25 and t['metrics'] == [{'name': 'accuracy', 'value': '0.91'}], t
"

# A legacy kind: the Master is rank 0.
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
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
    Worker:
      replicas: 1
      template:
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
YAML
"$bin" submit -f "$work/pt.yaml" > /dev/null
for job in pt-master-0 pt-worker-0; do ctl run "{\"job\": \"$job\"}" > /dev/null; done
ctl log '{"job": "pt-master-0", "lines": ["TRAINJOB_PROGRESS {\"epoch\":1,\"epochs\":4,\"loss\":1.5}"]}' > /dev/null
"$bin" status pt > "$work/out"
check "a PyTorchJob: the Master's progress" grep -qx 'Progress: epoch 1/4 (25%), loss 1.5' "$work/out"

for i in 0 1; do ctl succeed "{\"job\": \"$J\", \"index\": $i}" > /dev/null; done
"$bin" status $T > "$work/out"
check "a finished TrainJob shows no progress" bash -c "! grep -q '^Progress:' '$work/out'"
finish
