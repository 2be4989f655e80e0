#!/usr/bin/env bash
# files.sh OUTDIR: what tests/cluster/addons/start-kueue.sh needs from the pinned module, under
# OUTDIR/upstream/kueue/ with upstream's own paths:
#   config/components/crd/        Kueue's CRDs and the patches that give them a conversion webhook
#   config/components/webhook/    its webhook configurations
#   config/components/visibility/ its visibility API's APIServices
set -euo pipefail
out=$1/upstream/kueue
kueue=$(go list -m -f '{{.Dir}}' sigs.k8s.io/kueue)
for path in config/components/crd config/components/webhook config/components/visibility; do
  mkdir -p "$out/$(dirname "$path")"
  cp -R "$kueue/$path" "$out/$path"
done
# The module cache is read-only; the copies must not be, or replacing a build could not remove them.
chmod -R u+w "$out"
