#!/usr/bin/env bash
# files.sh OUTDIR: what the start script (tests/oracle/start/trainer.sh) and the oracle's corpus
# need from the pinned modules, copied under OUTDIR/upstream/ with upstream's own paths, so that
# upstream's kustomizations still resolve their relative paths (OUTDIR itself holds the
# binaries, one named jobset):
#   trainer/manifests/base/crds/           Trainer's CRDs
#   trainer/manifests/base/webhook/        its webhook configurations (a kustomization)
#   trainer/manifests/base/runtimes/       its stock ClusterTrainingRuntimes, all of them
#                                          (torchtune/, data-cache/ included)
#   trainer/manifests/overlays/runtimes/   how upstream installs them (a label, image tags)
#   trainer/examples/{yaml,flux}/*.yaml    its example TrainJobs and runtimes
#   jobset/config/components/crd/bases/    JobSet's CRD
#   jobset/config/components/webhook/      its webhook configurations (a kustomization)
set -euo pipefail
out=$1/upstream
trainer=$(go list -m -f '{{.Dir}}' github.com/kubeflow/trainer/v2)
jobset=$(go list -m -f '{{.Dir}}' sigs.k8s.io/jobset)

# copy SOURCE_ROOT OUT_ROOT PATH...: each PATH (a file or a directory) to the same place under OUT_ROOT.
copy() {
  local from=$1 to=$2 path
  shift 2
  for path in "$@"; do
    mkdir -p "$to/$(dirname "$path")"
    cp -R "$from/$path" "$to/$path"
  done
}
copy "$trainer" "$out/trainer" manifests/base/crds manifests/base/webhook manifests/base/runtimes \
  manifests/overlays/runtimes
mkdir -p "$out/trainer/examples/yaml" "$out/trainer/examples/flux"
cp "$trainer"/examples/yaml/*.yaml "$out/trainer/examples/yaml/"
cp "$trainer"/examples/flux/*.yaml "$out/trainer/examples/flux/"
copy "$jobset" "$out/jobset" config/components/crd/bases config/components/webhook
# The module cache is read-only; the copies must not be, or replacing a build could not remove them.
chmod -R u+w "$out/trainer" "$out/jobset"
