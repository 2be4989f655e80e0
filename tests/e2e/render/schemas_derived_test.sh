#!/usr/bin/env bash
# The schemas in schemas/ are what schemas/tools/derive_*.py make of the upstream
# CRDs: regenerating them from the reference copies changes nothing. Needs the reference
# CRDs (../shared/reference beside the repository) and python3-yaml.
set -uo pipefail
source_dir=$2
. "$(dirname "$0")/../lib.sh"

reference="$source_dir/../shared/reference"
mkdir -p "$work/repo"
cp -r "$source_dir/schemas" "$work/repo/"
(cd "$work/repo" && /usr/bin/python3 schemas/tools/derive_schemas.py "$reference")
# The JobSet schema comes from kubernetes-sigs/jobset v0.12.0's CRD, when a copy is beside
# the others (config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml of that tag).
jobset_crd="$reference/jobset-v0.12.0/crds/jobset.x-k8s.io_jobsets.yaml"
if [ -f "$jobset_crd" ]; then
  (cd "$work/repo" && /usr/bin/python3 schemas/tools/derive_jobset_schema.py "$jobset_crd")
else
  echo "note: no $jobset_crd: the JobSet schema is compared unchanged"
fi
check "derived schemas match the committed ones" \
  diff -r "$source_dir/schemas" "$work/repo/schemas"
for dialect in v2.0 v2.1 v2.3; do
  check "$dialect TrainJob schema keeps the CRD's spec fields" \
    grep -q '"runtimeRef"' "$source_dir/schemas/trainer/$dialect/trainjob.json"
done
finish
