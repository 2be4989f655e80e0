#!/bin/bash
# volumeClaimPolicies on a cluster: submit applies the PersistentVolumeClaim before the Jobs
# that mount it, and delete removes it with the TrainJob's other objects.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
case_dir=$src/testdata/render/torchtune-llama3.2-3b

"$bin" submit --trainer-version 2.3 -f "$case_dir/trainjob.yaml" -f "$case_dir/runtime.yaml" \
  > "$work/submit" 2> "$work/submit.err"
check "submit exits 0" [ $? -eq 0 ]
check "the claim is applied first, before every Job that mounts it" diff - "$work/submit" <<'OUT'
persistentvolumeclaim/initializer-tune-3b created
service/tune-3b created
job.batch/tune-3b-dataset-initializer-0 created
job.batch/tune-3b-model-initializer-0 created
job.batch/tune-3b-node-0 created
OUT
check "kubectl finds the claim with its size" \
  bash -c "kubectl get persistentvolumeclaims initializer-tune-3b -o jsonpath='{.spec.resources.requests.storage}' | grep -qx 20Gi"
check "the trainer's pods mount it" \
  bash -c "kubectl get job tune-3b-node-0 -o jsonpath='{.spec.template.spec.volumes[0].persistentVolumeClaim.claimName}' | grep -qx initializer-tune-3b"

"$bin" delete tune-3b --wait > "$work/delete" 2> "$work/delete.err"
check "delete --wait exits 0" [ $? -eq 0 ]
check "delete removes the claim too" grep -qx 'persistentvolumeclaim "initializer-tune-3b" deleted' "$work/delete"
check "... and kubectl no longer finds it" bash -c "! kubectl get persistentvolumeclaims -o name | grep -q initializer-tune-3b"
finish
