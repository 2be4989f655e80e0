#!/usr/bin/env bash
# files.sh OUTDIR: what start/mpi-operator.sh installs, from the pinned module: OUTDIR/crds/,
# the MPIJob (v2beta1) CRD. mpi-operator v0.7 has no webhooks.
set -euo pipefail
src=$(go list -m -f '{{.Dir}}' github.com/kubeflow/mpi-operator)
mkdir -p "$1/crds"
cp "$src/manifests/base/kubeflow.org_mpijobs.yaml" "$1/crds/"
