#!/usr/bin/env bash
# Starts the oracle's Kubeflow Trainer v2.3.0 and JobSet v0.12.0 on a control plane that
# `tests/cluster/up.sh DIR` started:
#
#   tests/oracle/start/trainer.sh DIR
#
# Both are upstream's own controller managers, unchanged (tests/oracle/modules/trainer), run out
# of cluster with upstream's configuration but for what a loopback run needs: no leader
# election, no metrics, health and webhook servers on free loopback ports, and their own
# certificate rotation off (it writes a Secret and reads a Service in the cluster; upstream's
# configuration has the switch): the webhooks serve a certificate for 127.0.0.1 from DIR's CA,
# and upstream's webhook configurations reach them by URL instead of by Service. Then
# upstream's stock ClusterTrainingRuntimes are installed as its kustomize install does.
# Prints nothing but errors; exits 0 once both webhooks are seen to run (a dry-run JobSet comes
# back defaulted, a dry-run TrainJob defaulted and a wrong one refused), 1 with a log's tail when
# something fails. `tests/cluster/down.sh DIR` stops them with the rest; so does a rerun.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: tests/oracle/start/trainer.sh DIR" >&2; exit 2; }
dir=$(cd "$1" && pwd)
state=$dir/oracle-trainer  # configurations, certificates, the webhook configurations made
kubectl() { "$dir/bin/kubectl" --kubeconfig "$dir/kubeconfig" "$@"; }

# stop: what a run of this script started on DIR (its webhook configurations would refuse, with
# failurePolicy Fail, what they cover once their servers are gone).
stop() {
  [ ! -f "$state/webhooks.yaml" ] || kubectl delete --ignore-not-found -f "$state/webhooks.yaml" >/dev/null 2>&1 || true
  for name in jobset trainer; do
    pid=$(cat "$dir/pids/$name.pid" 2>/dev/null) || continue
    [[ $(tr '\0' '\n' 2>/dev/null <"/proc/$pid/cmdline") != *"$dir/"* ]] || kill "$pid" 2>/dev/null || true
    rm -f "$dir/pids/$name.pid"
  done
}
fail() {  # fail MESSAGE [NAME]: says what failed with the tail of NAME's log, stops what started
  echo "trainer.sh: $1" >&2
  [ ! -f "$dir/logs/${2:-}.log" ] || { echo "--- the last lines of $dir/logs/$2.log:" >&2; tail -20 "$dir/logs/$2.log" >&2; }
  stop
  exit 1
}
wait_for() {  # wait_for NAME SECONDS COMMAND...: polls COMMAND (while NAME runs, if it was started)
  local name=$1 seconds=$2 deadline=$((SECONDS + $2))
  shift 2
  until "$@" >/dev/null 2>&1; do
    [ ! -f "$dir/pids/$name.pid" ] || kill -0 "$(cat "$dir/pids/$name.pid")" 2>/dev/null ||
      fail "$name exited during start-up" "$name"
    [ $SECONDS -lt $deadline ] || fail "$name was not ready within $seconds s" "$name"
    sleep 0.3
  done
}

kubectl get --raw /readyz >/dev/null 2>&1 || { echo "trainer.sh: no control plane answers in $dir (tests/cluster/up.sh starts one)" >&2; exit 1; }

# --- the binaries and upstream's manifests (built once per pin, into the cache) ------------
build_log=$(mktemp)
bin=$("$here/../../cluster/build_groups.sh" oracle trainer 2>"$build_log")/trainer || { cat "$build_log" >&2; rm -f "$build_log"; exit 1; }
rm -f "$build_log"
up=$bin/upstream
stop
rm -rf "$state"
mkdir -p "$state/certs"

# --- CRDs: Trainer's, JobSet's (without the conversion webhook upstream's kustomization adds:
# with one version served the API server never calls it), and the PodGroups' of DIR/crds/ ---
files=()
for file in "$up"/trainer/manifests/base/crds/*_*.yaml "$up"/jobset/config/components/crd/bases/*.yaml "$dir"/crds/*.yaml; do
  files+=(-f "$file")
done
kubectl apply --server-side "${files[@]}" >/dev/null || fail "the CRDs were refused"
# (A CRD just made may have no conditions yet, and then kubectl wait fails at once: ask again.)
wait_for CRDs 60 kubectl wait --for=condition=Established --timeout=10s "${files[@]}"

# --- certificates: the webhooks' serving one, and the controllers' client one (system:masters
# under a name of its own, so that DIR's audit log, kept to the test users, leaves them out) ---
issue() {  # issue FILE SUBJECT EXTENSIONS: a key and a certificate signed by DIR's CA
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "$2" \
    -keyout "$1.key" -out "$1.csr" 2>/dev/null && printf '%b\n' "$3" >"$1.ext" &&
    openssl x509 -req -in "$1.csr" -CA "$dir/pki/ca.crt" -CAkey "$dir/pki/ca.key" -days 30 \
      -set_serial "0x$(openssl rand -hex 8)" -extfile "$1.ext" -out "$1.crt" 2>/dev/null ||
    fail "could not issue $1.crt"
}
issue "$state/certs/tls" /CN=127.0.0.1 "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth"
issue "$state/certs/client" /O=system:masters/CN=oracle-trainer "extendedKeyUsage=clientAuth"
sed -e "s#$dir/pki/kubernetes-admin\.#$state/certs/client.#" "$dir/kubeconfig" >"$state/kubeconfig"
# Trainer's configuration has no certificate directory: controller-runtime's default,
# $TMPDIR/k8s-webhook-server/serving-certs, is pointed at them by TMPDIR.
mkdir -p "$state/tmp/k8s-webhook-server"
ln -s "$state/certs" "$state/tmp/k8s-webhook-server/serving-certs"

# --- configurations: upstream's (JobSet's config/components/manager, Trainer's
# manifests/base/manager), changed only as said above --------------------------------------
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
jobset_webhook=$(free_port) jobset_health=$(free_port) trainer_webhook=$(free_port) trainer_health=$(free_port)
cat >"$state/jobset.yaml" <<YAML
apiVersion: config.jobset.x-k8s.io/v1alpha1
kind: Configuration
leaderElection: {leaderElect: false}
internalCertManagement: {enable: false}
webhook: {host: 127.0.0.1, port: $jobset_webhook, certDir: $state/certs}
health: {healthProbeBindAddress: "127.0.0.1:$jobset_health"}
metrics: {bindAddress: "0"}
YAML
cat >"$state/trainer.yaml" <<YAML
apiVersion: config.trainer.kubeflow.org/v1alpha1
kind: Configuration
health: {healthProbeBindAddress: "127.0.0.1:$trainer_health", readinessEndpointName: readyz, livenessEndpointName: healthz}
metrics: {bindAddress: "0", secureServing: false}
webhook: {port: $trainer_webhook, host: 127.0.0.1}
leaderElection: {leaderElect: false}
controller:
  groupKindConcurrency: {TrainJob.trainer.kubeflow.org: 5, TrainingRuntime.trainer.kubeflow.org: 1, ClusterTrainingRuntime.trainer.kubeflow.org: 1}
certManagement: {enable: false}
clientConnection: {qps: 50, burst: 100}
YAML

# --- the controller managers, detached, with upstream's arguments; down.sh stops them (their
# arguments name DIR/); readyz answers once the webhook server serves its certificate ------
start() {  # start NAME COMMAND...
  setsid "${@:2}" </dev/null >"$dir/logs/$1.log" 2>&1 &
  echo $! >"$dir/pids/$1.pid"
}
start jobset "$bin/jobset" --config="$state/jobset.yaml" --kubeconfig="$state/kubeconfig" --zap-log-level=2
start trainer env TMPDIR="$state/tmp" "$bin/trainer-controller-manager" --config="$state/trainer.yaml" \
  --kubeconfig="$state/kubeconfig" --zap-log-level=2
wait_for jobset 60 curl -sf --max-time 2 "http://127.0.0.1:$jobset_health/readyz"
wait_for trainer 60 curl -sf --max-time 2 "http://127.0.0.1:$trainer_health/readyz"

# --- webhook configurations: upstream's kustomizations, each webhook's Service replaced by the
# URL of the same path on loopback; JobSet's names take the prefix of its config/default ------
render() {  # render KUSTOMIZATION PORT NAME_PREFIX
  kubectl kustomize "$1" | python3 -c '
import sys, yaml
port, prefix, ca = sys.argv[1:]
docs = [d for d in yaml.safe_load_all(sys.stdin) if d and d["kind"].endswith("WebhookConfiguration")]
for d in docs:
    d["metadata"]["name"] = prefix + d["metadata"]["name"]
    for w in d["webhooks"]:
        w["clientConfig"] = {"url": f"https://127.0.0.1:{port}" + w["clientConfig"]["service"]["path"], "caBundle": ca}
yaml.safe_dump_all(docs, sys.stdout)' "$2" "$3" "$(base64 -w0 "$dir/pki/ca.crt")"
}
{ render "$up/jobset/config/components/webhook" "$jobset_webhook" jobset- && echo --- &&
  render "$up/trainer/manifests/base/webhook" "$trainer_webhook" ""; } >"$state/webhooks.yaml" ||
  fail "could not make the webhook configurations"
kubectl apply --server-side -f "$state/webhooks.yaml" >/dev/null || fail "the webhook configurations were refused"

# --- upstream's stock ClusterTrainingRuntimes, as manifests/overlays/runtimes installs them ---
kubectl kustomize "$up/trainer/manifests/overlays/runtimes" | kubectl apply --server-side -f - >/dev/null ||
  fail "the stock runtimes were refused" trainer
# torch-distributed-with-cache too, which that overlay leaves out (its cache service needs
# LeaderWorkerSet), with the overlay's labels and image tags: the oracle compares the pods of
# TrainJobs on it; nothing here runs the cache.
mkdir -p "$state/data-cache"
{
  echo "resources: [$(realpath --relative-to="$state/data-cache" "$up/trainer/manifests/base/runtimes/data-cache")]"
  sed -n '/^labels:/,$p' "$up/trainer/manifests/overlays/runtimes/kustomization.yaml"
} >"$state/data-cache/kustomization.yaml"
kubectl kustomize "$state/data-cache" | kubectl apply --server-side -f - >/dev/null ||
  fail "torch-distributed-with-cache was refused" trainer

# --- both webhooks run: what only they set comes back, what only they refuse is refused -------
jobset_defaulted() {
  [ "$(kubectl create --dry-run=server -o 'jsonpath={.spec.network.enableDNSHostnames}' -f - <<'YAML'
{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, metadata: {name: oracle-check, namespace: default},
 spec: {replicatedJobs: [{name: w, template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}}]}}
YAML
)" = true ]
}
trainjob() {  # trainjob RUNTIME_KIND: a dry-run TrainJob on torch-distributed; its runtime patch's time
  kubectl create --dry-run=server -o 'jsonpath={.spec.runtimePatches[0].time}' -f - <<YAML
{apiVersion: trainer.kubeflow.org/v1alpha1, kind: TrainJob, metadata: {name: oracle-check, namespace: default},
 spec: {runtimeRef: {name: torch-distributed, kind: $1}, runtimePatches: [{manager: oracle.test/check}]}}
YAML
}
trainjob_defaulted() { [ -n "$(trainjob ClusterTrainingRuntime)" ]; }
trainjob_refused() {
  local out
  ! out=$(trainjob NoSuchRuntimeKind 2>&1) && [[ $out == *'validator.trainjob.trainer.kubeflow.org" denied'* ]]
}
wait_for jobset 30 jobset_defaulted
wait_for trainer 30 trainjob_defaulted
wait_for trainer 30 trainjob_refused
