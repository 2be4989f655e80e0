#!/usr/bin/env bash
# overlay.sh SCRATCH: Kueue's main package with one line changed, for build_groups.sh's
# `go build -overlay` (see packages: ./kueue is that package, present only in the overlay; Go
# refuses overlays of files in the module cache). With its own certificate management off (it
# writes a Secret and a certificate for a Service name, which a loopback run cannot reach),
# Kueue's main reads the metrics server's certificate from the fixed path
# /etc/kueue/metrics/certs, outside any test directory; the path comes from
# $KUEUE_METRICS_CERT_DIR instead, which the start script sets. Fails when the line is not
# found (a new release moved it: look again).
set -euo pipefail
upstream=$(go list -m -f '{{.Dir}}' sigs.k8s.io/kueue)/cmd/kueue
line='metricsCertPath := "/etc/kueue/metrics/certs"'
grep -qF "$line" "$upstream/main.go" || { echo "overlay.sh: no '$line' in $upstream/main.go" >&2; exit 1; }
replace=()
for file in "$upstream"/*.go; do
  name=$(basename "$file")
  case $name in *_test.go) continue ;; esac
  sed "s#$line#metricsCertPath := os.Getenv(\"KUEUE_METRICS_CERT_DIR\")#" "$file" >"$1/$name"
  replace+=("\"$PWD/kueue/$name\": \"$1/$name\"")
done
(IFS=,; echo "{\"Replace\": {${replace[*]}}}") >"$1/overlay.json"
echo "$1/overlay.json"
