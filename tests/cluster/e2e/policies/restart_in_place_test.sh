#!/bin/bash
# In-place restart of a pod's containers (container restartPolicyRules, action
# RestartAllContainers, beta and on by default since Kubernetes 1.36): a runtime that writes
# the rule on its trainer container gets it as written on every pod, and the 1.37 API server
# takes it. The scheduler then places such a pod only on a node that declares the feature
# (node status.declaredFeatures: RestartAllContainersOnContainerExits, NodeDeclaredFeatures GA
# in 1.37): on nodes that do not, `submit --wait` says why the pods stay Pending; once the
# nodes declare it, the TrainJob runs. The restart itself is the kubelet's, which kwok does not
# play. A control plane of its own: the test changes what its nodes declare.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_own_control_plane
# in_place NAME: $work/NAME.yaml, a 2-node TrainJob whose runtime restarts all containers of
# a pod in place when its node container exits with a code other than 0.
in_place() {
  one_step_trainjob "$1" 2 |
    sed 's/^\( *\)command: \[train\]/&\n\1restartPolicy: Never\n\1restartPolicyRules:\n\1  - action: RestartAllContainers\n\1    exitCodes: {operator: NotIn, values: [0]}/' \
      >"$work/$1.yaml"
}

in_place ip
"$bin" render -f "$work/ip.yaml" -o json >"$work/ip.json" 2>/dev/null
check "render keeps the runtime's RestartAllContainers rule on the node container" python3 -c "
import json, sys
jobs = [o for o in json.load(open(sys.argv[1]))['items'] if o['kind'] == 'Job']
c = jobs[0]['spec']['template']['spec']['containers'][0]
assert c['restartPolicy'] == 'Never', c
assert c['restartPolicyRules'] == [{'action': 'RestartAllContainers', 'exitCodes': {'operator': 'NotIn', 'values': [0]}}], c
" "$work/ip.json"
"$bin" submit -f "$work/ip.yaml" --wait --progress-deadline 5s --timeout 60s >"$work/pending.out" 2>"$work/pending.err"
check "the API server takes it; on nodes that do not declare the feature the pods stay Pending: exit 1" [ $? -eq 1 ]
check "... with the scheduler's reason" \
  grep -q "made no progress for 5 s: .*didn't match Pod's required features" "$work/pending.err"
check "... the Job is there with the rule" \
  bash -c "[ \"\$(kubectl get job ip-node-0 -o jsonpath='{.spec.template.spec.containers[0].restartPolicyRules[0].action}')\" = RestartAllContainers ]"
for node in $(kubectl get nodes -o name); do
  kubectl patch "$node" --subresource=status --type=merge \
    -p '{"status":{"declaredFeatures":["RestartAllContainersOnContainerExits"]}}' >/dev/null
done
"$bin" wait ip --for=condition=Complete --timeout=60s >"$work/ip.out" 2>&1
check "once the nodes declare it, the pods are placed and the TrainJob completes" \
  grep -qx "trainjob.trainer.kubeflow.org/ip condition met" "$work/ip.out"
finish
