#!/usr/bin/env bash
# Starts Kueue (tests/cluster/addons/kueue: the newest release the module proxy serves) on a
# control plane that `tests/cluster/up.sh DIR` started:
#
#   tests/cluster/addons/start-kueue.sh DIR
#
# Upstream's own controller manager, run out of cluster with upstream's configuration but for
# what a loopback run needs: no leader election, no metrics, health and webhook servers on free
# loopback ports, its own certificate management off (it writes a Secret and a certificate for a
# Service name a loopback run cannot reach): the webhooks and the CRDs' conversion webhook serve
# a certificate for 127.0.0.1 from DIR's CA, and upstream's webhook configurations reach them by
# URL instead of by Service. Only the webhooks of the integrations enabled (batch/job, JobSet)
# and of Kueue's own kinds are registered. KUEUE_FEATURE_GATES, when set, is added to
# --feature-gates; KUEUE_FRAMEWORKS (default "batch/job jobset.x-k8s.io/jobset") names the
# integrations. The visibility API (gate VisibilityOnDemand) is off: its server reads its
# certificate from the fixed path /visibility (pkg/visibility/server.go, a package Go's build
# overlays may not replace), and the control plane's API server has no front-proxy client
# certificate to reach an aggregated API with; `status` then orders the pending Workloads itself.
# Prints nothing but errors; exits 0 once a dry-run Job with a queue name comes back suspended
# (Kueue's Job webhook ran), 1 with the log's tail when something fails.
# `tests/cluster/down.sh DIR` stops it with the rest; so does a rerun.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: tests/cluster/addons/start-kueue.sh DIR" >&2; exit 2; }
dir=$(cd "$1" && pwd)
state=$dir/kueue
kubectl() { "$dir/bin/kubectl" --kubeconfig "$dir/kubeconfig" "$@"; }

stop() {  # what a run of this script started on DIR; its webhooks would refuse Jobs once it is gone
  [ ! -f "$state/webhooks.yaml" ] || kubectl delete --ignore-not-found -f "$state/webhooks.yaml" >/dev/null 2>&1 || true
  local pid
  pid=$(cat "$dir/pids/kueue.pid" 2>/dev/null) || return 0
  if [[ $(tr '\0' '\n' 2>/dev/null <"/proc/$pid/cmdline") == *"$dir/"* ]]; then
    kill "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$dir/pids/kueue.pid"
}
fail() {  # fail MESSAGE: says what failed with the tail of Kueue's log, stops what started
  echo "start-kueue.sh: $1" >&2
  [ ! -f "$dir/logs/kueue.log" ] || { echo "--- the last lines of $dir/logs/kueue.log:" >&2; tail -20 "$dir/logs/kueue.log" >&2; }
  stop
  exit 1
}
wait_for() {  # wait_for SECONDS COMMAND...: polls COMMAND while Kueue runs
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    [ ! -f "$dir/pids/kueue.pid" ] || kill -0 "$(cat "$dir/pids/kueue.pid")" 2>/dev/null ||
      fail "kueue exited during start-up"
    [ $SECONDS -lt $deadline ] || fail "kueue was not ready within $1 s"
    sleep 0.3
  done
}

kubectl get --raw /readyz >/dev/null 2>&1 || { echo "start-kueue.sh: no control plane answers in $dir (tests/cluster/up.sh starts one)" >&2; exit 1; }

# --- the binary and upstream's manifests (built once per pin, into the cache) ----------------
build_log=$(mktemp)
bin=$("$here/../build_groups.sh" addons kueue 2>"$build_log")/kueue || { cat "$build_log" >&2; rm -f "$build_log"; exit 1; }
rm -f "$build_log"
up=$bin/upstream/kueue/config/components
stop
rm -rf "$state"
mkdir -p "$state/certs" "$dir/pids" "$dir/logs"

# --- certificates: the webhooks' (and, as upstream's main wants one, the metrics server's) for
# 127.0.0.1, and Kueue's client one (system:masters under a name of its own) ---------------
issue() {  # issue FILE SUBJECT EXTENSIONS: a key and a certificate signed by DIR's CA
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "$2" \
    -keyout "$1.key" -out "$1.csr" 2>/dev/null && printf '%b\n' "$3" >"$1.ext" &&
    openssl x509 -req -in "$1.csr" -CA "$dir/pki/ca.crt" -CAkey "$dir/pki/ca.key" -days 30 \
      -set_serial "0x$(openssl rand -hex 8)" -extfile "$1.ext" -out "$1.crt" 2>/dev/null ||
    fail "could not issue $1.crt"
}
issue "$state/certs/tls" /CN=127.0.0.1 "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth"
issue "$state/certs/client" /O=system:masters/CN=kueue "extendedKeyUsage=clientAuth"
sed -e "s#$dir/pki/kubernetes-admin\.#$state/certs/client.#" "$dir/kubeconfig" >"$state/kubeconfig"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
webhook=$(free_port) health=$(free_port)
ca=$(base64 -w0 "$dir/pki/ca.crt")

# --- CRDs: upstream's, with the conversion webhook its kustomization patches in reached by URL --
python3 - "$up/crd" "https://127.0.0.1:$webhook/convert" "$ca" >"$state/crds.yaml" <<'PY'
import glob, os, sys, yaml
crd_dir, url, ca = sys.argv[1:]
patched = set()
for path in glob.glob(os.path.join(crd_dir, "patches", "webhook_in_*.yaml")):
    patched.add(yaml.safe_load(open(path))["metadata"]["name"])
docs = []
for path in sorted(glob.glob(os.path.join(crd_dir, "bases", "*.yaml"))):
    crd = yaml.safe_load(open(path))
    if crd["metadata"]["name"] in patched:
        crd["spec"]["conversion"] = {"strategy": "Webhook", "webhook": {
            "conversionReviewVersions": ["v1"], "clientConfig": {"url": url, "caBundle": ca}}}
    docs.append(crd)
yaml.safe_dump_all(docs, sys.stdout)
PY
kubectl apply --server-side --force-conflicts -f "$state/crds.yaml" -f "$dir/crds/" >/dev/null || fail "the CRDs were refused"
for try in $(seq 100); do  # a CRD with no conditions yet fails the wait at once: again
  kubectl wait --for=condition=Established --timeout=30s -f "$state/crds.yaml" -f "$dir/crds/" >/dev/null 2>&1 && break
  [ "$try" -lt 100 ] || fail "the CRDs were not Established"
  sleep 0.3
done
kubectl create namespace kueue-system >/dev/null 2>&1 || true

# --- configuration: upstream's config/components/manager, changed only as said above --------
frameworks=${KUEUE_FRAMEWORKS:-batch/job jobset.x-k8s.io/jobset}
cat >"$state/config.yaml" <<YAML
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespace: kueue-system
health: {healthProbeBindAddress: "127.0.0.1:$health"}
metrics: {bindAddress: "0"}
webhook: {host: 127.0.0.1, port: $webhook, certDir: $state/certs}
leaderElection: {leaderElect: false}
internalCertManagement: {enable: false}
controller:
  groupKindConcurrency: {Job.batch: 5, Pod: 5, Workload.kueue.x-k8s.io: 5, LocalQueue.kueue.x-k8s.io: 1, Cohort.kueue.x-k8s.io: 1, ClusterQueue.kueue.x-k8s.io: 1, ResourceFlavor.kueue.x-k8s.io: 1}
clientConnection: {qps: 50, burst: 100}
integrations:
  frameworks: [$(printf '"%s",' $frameworks | sed 's/,$//')]
YAML
setsid env KUEUE_METRICS_CERT_DIR="$state/certs" "$bin/kueue" --config="$state/config.yaml" \
  --kubeconfig="$state/kubeconfig" --zap-log-level=2 \
  --feature-gates="VisibilityOnDemand=false${KUEUE_FEATURE_GATES:+,$KUEUE_FEATURE_GATES}" \
  </dev/null >"$dir/logs/kueue.log" 2>&1 &
echo $! >"$dir/pids/kueue.pid"
wait_for 90 curl -sf --max-time 2 "http://127.0.0.1:$health/readyz"

# --- webhook configurations: upstream's, the Service replaced by the URL on loopback, only the
# webhooks of the kinds Kueue runs here ---------------------------------------------------
python3 - "$up/webhook/manifests.yaml" "$webhook" "$ca" >"$state/webhooks.yaml" <<'PY' || fail "could not make the webhook configurations"
import sys, yaml
path, port, ca = sys.argv[1:]
groups = {"batch", "jobset.x-k8s.io", "kueue.x-k8s.io"}
docs = []
for d in yaml.safe_load_all(open(path)):
    if not d:
        continue
    d["metadata"]["name"] = "kueue-" + d["metadata"]["name"]
    d["webhooks"] = [w for w in d["webhooks"]
                     if any(set(r.get("apiGroups", [])) & groups for r in w.get("rules", []))]
    for w in d["webhooks"]:
        w["clientConfig"] = {"url": f"https://127.0.0.1:{port}" + w["clientConfig"]["service"]["path"], "caBundle": ca}
    docs.append(d)
yaml.safe_dump_all(docs, sys.stdout)
PY
kubectl apply --server-side -f "$state/webhooks.yaml" >/dev/null || fail "the webhook configurations were refused"

# --- the Job webhook runs: a dry-run Job with a queue name comes back suspended --------------
job_suspended() {
  [ "$(kubectl create --dry-run=server -o 'jsonpath={.spec.suspend}' -f - <<'YAML'
{apiVersion: batch/v1, kind: Job, metadata: {name: kueue-check, namespace: default, labels: {kueue.x-k8s.io/queue-name: check}},
 spec: {suspend: false, template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
YAML
)" = true ]
}
wait_for 30 job_suspended
