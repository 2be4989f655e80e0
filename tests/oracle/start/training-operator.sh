#!/usr/bin/env bash
# Starts Kubeflow Training Operator v1.9 (tests/oracle/modules/training-operator: upstream's
# controllers and validating webhooks) against the control plane of `tests/cluster/up.sh DIR`:
#
#   [GANG_SCHEDULER=none|volcano|scheduler-plugins] tests/oracle/start/training-operator.sh DIR
#
# It builds the operator if needed, installs the CRDs of PyTorchJob, TFJob, XGBoostJob,
# PaddleJob, JAXJob and the v1 MPIJob (and DIR/crds/*, the PodGroups gang scheduling makes),
# serves the webhooks on 127.0.0.1 with a certificate from the cluster's CA, and runs the
# operator detached (log DIR/logs/training-operator.log, pid DIR/pids/training-operator.pid,
# stopped by down.sh). It prints nothing unless it fails; it exits 0 once the webhooks answer.
# Run again, it replaces the operator it started before (e.g. with another GANG_SCHEDULER).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ] || [ ! -f "$1/kubeconfig" ]; then
  echo "usage: tests/oracle/start/training-operator.sh DIR (a control plane from tests/cluster/up.sh DIR)" >&2
  exit 2
fi
dir=$(cd "$1" && pwd)
name=training-operator
log=$dir/logs/$name.log
fail() {  # fail MESSAGE: say what failed, with the last lines of the operator's log
  echo "start/$name.sh: $1; its log: $log (last lines below)" >&2
  tail -20 "$log" >&2 2>/dev/null || true
  exit 1
}
kubectl() { "$dir/bin/kubectl" --kubeconfig "$dir/kubeconfig" "$@"; }

# The gang scheduler is chosen per process: upstream takes --gang-scheduler-name=volcano, or
# =scheduler-plugins (its own CI's value; it treats any other name as scheduler-plugins under
# that name), and sets that schedulerName on pods that name none. No such scheduler runs here,
# so those pods stay Pending: the oracle compares what is created, not where it runs.
case ${GANG_SCHEDULER:-none} in
  none) gang=() ;;
  volcano | scheduler-plugins) gang=(--gang-scheduler-name="$GANG_SCHEDULER") ;;
  *) echo "start/$name.sh: GANG_SCHEDULER is none, volcano or scheduler-plugins, not $GANG_SCHEDULER" >&2; exit 2 ;;
esac

# The build, the operator started before gone, the CRDs Established.
source "$here/operator_prelude.sh"

# The webhook server's certificate: IP 127.0.0.1, signed by the cluster's CA, which the API
# server is then given as the webhooks' caBundle. up.sh keeps DIR/pki: one issued before is
# kept while that CA still verifies it.
pki=$dir/pki/$name
mkdir -p "$pki"
if ! openssl verify -CAfile "$dir/pki/ca.crt" "$pki/tls.crt" >/dev/null 2>&1; then
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=$name \
    -keyout "$pki/tls.key" -out "$pki/tls.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$pki/tls.ext"
  openssl x509 -req -in "$pki/tls.csr" -CA "$dir/pki/ca.crt" -CAkey "$dir/pki/ca.key" \
    -CAcreateserial -days 30 -extfile "$pki/tls.ext" -out "$pki/tls.crt" 2>/dev/null ||
    fail "could not issue the webhook's certificate"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# Upstream's ValidatingWebhookConfiguration, with the name its kustomization gives it and each
# webhook's clientConfig turned from its Service into https://127.0.0.1:PORT/<its path>.
kubectl create --dry-run=client -o json -f "$bin/webhook.yaml" |
  python3 -c '
import base64, json, sys
config, port, ca = json.load(sys.stdin), sys.argv[1], open(sys.argv[2], "rb").read()
config["metadata"]["name"] = "validator.training-operator.kubeflow.org"
for hook in config["webhooks"]:
    path = hook["clientConfig"]["service"]["path"]
    hook["clientConfig"] = {"url": f"https://127.0.0.1:{port}{path}",
                            "caBundle": base64.b64encode(ca).decode()}
json.dump(config, sys.stdout)' "$port" "$dir/pki/ca.crt" | kubectl apply -f - >/dev/null 2>>"$log" ||
  fail "the API server refused the webhook configuration"

# The six v1 kinds; leader election off (the glue has none); metrics and probes off: readiness
# is read through the API server below. The API rate limits are those of the cluster's
# controller manager (up.sh), so that a large job is not paced by upstream's 20 a second.
schemes=()
for kind in pytorchjob tfjob xgboostjob paddlejob jaxjob mpijob; do schemes+=(--enable-scheme=$kind); done
setsid "$bin/$name" --kubeconfig="$dir/kubeconfig" --webhook-cert-dir="$pki" \
  --webhook-host=127.0.0.1 --webhook-server-port="$port" --metrics-bind-address=0 \
  --health-probe-bind-address=0 --kube-api-qps=500 --kube-api-burst=1000 \
  "${schemes[@]}" ${gang[@]+"${gang[@]}"} \
  </dev/null >"$log" 2>&1 &
echo $! >"$pidfile"

# Ready when the API server gets the webhook's answer: a server-side dry run of a PyTorchJob
# whose name upstream's webhook refuses (not a DNS-1035 label) comes back "denied".
probe='{"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "probe.1"},
  "spec": {"pytorchReplicaSpecs": {"Worker": {"replicas": 1,
  "template": {"spec": {"containers": [{"name": "pytorch", "image": "probe"}]}}}}}}'
deadline=$((SECONDS + 60))
until [[ $(kubectl create --dry-run=server -f - <<<"$probe" 2>&1) == *"denied the request"* ]]; do
  kill -0 "$(cat "$pidfile")" 2>/dev/null || fail "the operator exited during start-up"
  [ $SECONDS -lt $deadline ] || fail "its webhooks did not answer within 60 s"
  sleep 0.3
done
