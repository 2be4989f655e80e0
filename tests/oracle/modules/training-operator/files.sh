#!/usr/bin/env bash
# files.sh OUTDIR: what start/training-operator.sh installs, from the pinned module:
# OUTDIR/crds/ (the six kinds' CRDs: PyTorchJob, TFJob, XGBoostJob, PaddleJob, JAXJob and the v1
# MPIJob) and OUTDIR/webhook.yaml (upstream's ValidatingWebhookConfiguration, whose
# clientConfig the start script points at the process on loopback).
set -euo pipefail
src=$(go list -m -f '{{.Dir}}' github.com/kubeflow/training-operator)
mkdir -p "$1/crds"
cp "$src"/manifests/base/crds/kubeflow.org_*.yaml "$1/crds/"
cp "$src/manifests/base/webhook/manifests.yaml" "$1/webhook.yaml"
