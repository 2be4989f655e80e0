# Sourced by the control-plane tests, after tests/e2e/lib.sh. `use_control_plane` puts the
# test on the real control plane of tests/cluster/up.sh: the one ctest's `control_plane`
# fixture started (its directory in $TRAINJOB_CLUSTER), or, when a test runs on its own, one
# it starts under $work and stops at exit. Each test works in a namespace of its own, so that
# tests sharing the cluster never see each other's objects; KUBECONFIG points at a copy of
# the admin's kubeconfig whose context is that namespace, and `kubectl` is the cluster's own
# release.
cluster_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

use_control_plane() {
  if [ -n "${TRAINJOB_CLUSTER:-}" ]; then
    cluster=$TRAINJOB_CLUSTER
  else
    cluster=$work/cluster
    "$cluster_lib/up.sh" "$cluster" >/dev/null || exit 1
  fi
  PATH=$cluster/bin:$PATH
  ns=t-$(basename "$0" _test.sh | tr _ - | cut -c1-40)-$(openssl rand -hex 3)
  cp "$cluster/kubeconfig" "$work/kubeconfig"
  cp "$cluster/developer.kubeconfig" "$work/developer.kubeconfig"
  kubectl --kubeconfig "$work/kubeconfig" config set-context --current --namespace "$ns" >/dev/null
  kubectl --kubeconfig "$work/developer.kubeconfig" config set-context --current --namespace "$ns" >/dev/null
  export KUBECONFIG=$work/kubeconfig
  trap 'control_plane_cleanup' EXIT
  kubectl create namespace "$ns" >/dev/null
  # Pods cannot be created before the namespace's default service account exists.
  eventually kubectl get serviceaccount default >/dev/null 2>&1 ||
    { echo "no default service account in $ns" >&2; exit 1; }
  audit_log=$cluster/logs/audit.log
}

control_plane_cleanup() {
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
  [ -n "${TRAINJOB_CLUSTER:-}" ] || "$cluster_lib/down.sh" "$cluster"
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}

# eventually COMMAND...: true once COMMAND succeeds, polling for up to 30 seconds; for states
# that the controllers reach in their own time.
eventually() {
  for _ in $(seq 150); do "$@" && return 0; sleep 0.2; done
  return 1
}

# pod_logs POD TEXT [CONTAINER]: kwok serves TEXT (lines) as the pod's log, to kubectl logs and
# to us alike through the API server; appending to $work/logs/POD.log later extends it (a
# follower sees the new lines).
pod_logs() {
  mkdir -p "$work/logs"
  local file=$work/logs/$1.log
  printf '%s\n' "$2" | cri_lines >"$file"
  kubectl apply -f - >/dev/null <<YAML
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Logs
metadata:
  name: $1
spec:
  logs:
  - containers: [${3:-}]
    logsFile: $file
    follow: true
YAML
}
# cri_lines: stdin's lines in the CRI log format kwok reads (timestamp, stream, tag, text).
cri_lines() {
  local line
  while IFS= read -r line; do
    printf '%s stdout F %s\n' "$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)" "$line"
  done
}

# audit_mark, then audit_requests [USER-AGENT-PREFIX]: the API requests made in this test's
# namespace since the mark (by the plugin, unless another user agent prefix is given), one
# "VERB RESOURCE[/SUBRESOURCE] [NAME]" line each, from the API server's audit log.
audit_mark() { audit_from=$(($(wc -l <"$audit_log") + 1)); }
audit_requests() {
  tail -n +"$audit_from" "$audit_log" | python3 -c '
import json, sys
agent, ns = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    e = json.loads(line)
    ref = e.get("objectRef", {})
    if e.get("stage") != "ResponseComplete" or ref.get("namespace") != ns:
        continue
    if not e.get("userAgent", "").startswith(agent):
        continue
    resource = ref.get("resource", "") + ("/" + ref["subresource"] if ref.get("subresource") else "")
    dry = " dryRun" if "dryRun=All" in e.get("requestURI", "") else ""
    print(e["verb"], resource, ref.get("name", "") + dry)
' "${1:-kubectl-trainjob/}" "$ns"
}
