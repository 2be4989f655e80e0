#!/usr/bin/env bash
# Starts a real Kubernetes control plane on loopback, with its state in DIR:
#
#   tests/cluster/up.sh DIR       (NODES=4 fake nodes by default)
#
# etcd, kube-apiserver (TLS with a CA made here, RBAC and the default admission plugins),
# kube-controller-manager (every default controller: Job, garbage collector, namespace,
# service accounts, ...), kube-scheduler, and kwok, which plays the kubelet of NODES fake
# nodes with the pod stages of pod-stages.yaml and serves pod logs through the API server.
# Everything listens on ephemeral loopback ports. It writes DIR/kubeconfig (context `admin`,
# a client certificate in system:masters, is current; context `developer` is the user
# `developer` by bearer token, with no rights until a test grants some), links
# DIR/bin/kubectl to the kubectl of the same release, and prints KUBECONFIG=DIR/kubeconfig
# as its last line once every node is Ready. Stop it with down.sh DIR.
#
# API_PORT, when set, is the API server's port instead of an ephemeral one. FEATURE_GATES and
# RUNTIME_CONFIG, when set, go to every component (e.g.
# FEATURE_GATES=GenericWorkload=true,WorkloadWithJob=true
# RUNTIME_CONFIG=scheduling.k8s.io/v1beta1=true). POD_STAGES, when set, is the file of pod
# stages kwok plays instead of pod-stages.yaml; NODE_CAPACITY, when set, is a JSON object of
# resources every node has besides (or instead of) the defaults, e.g. '{"nvidia.com/gpu":
# "8"}' (the oracle's GPU pods are scheduled and started like the others).
#
# A part that fails to start stops everything started so far and says which part and where
# its log is (DIR/logs/).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ]; then
  echo "usage: tests/cluster/up.sh DIR" >&2
  exit 2
fi
mkdir -p "$1"
dir=$(cd "$1" && pwd)
nodes=${NODES:-4}
bin=$("$here/build.sh")
# A control plane left running in DIR (a run that was interrupted) goes first, with its state.
"$here/down.sh" "$dir"
rm -rf "$dir/etcd" "$dir/logs"
mkdir -p "$dir/logs" "$dir/pids" "$dir/pki" "$dir/bin"
ln -sfn "$bin/kubectl" "$dir/bin/kubectl"
# The CRDs tests may install (none is by default): JobSet's and the PodGroups', Trainer's.
ln -sfn "$bin/crds" "$dir/crds"
ln -sfn "$bin/trainer-crds" "$dir/trainer-crds"

fail() {  # fail PART MESSAGE: stop what started, name the part and its log
  echo "up.sh: $1 $2; its log: $dir/logs/$1.log (last lines below)" >&2
  tail -15 "$dir/logs/$1.log" >&2 2>/dev/null || true
  "$here/down.sh" "$dir" >&2 || true
  exit 1
}

# A port that is free now on 127.0.0.1; a clash with another process that takes it before
# the component binds it shows as that component failing to start.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start NAME COMMAND...: runs it detached (its own session, no terminal, output to its
# log), records its pid for down.sh.
start() {
  local name=$1
  shift
  setsid "$@" </dev/null >"$dir/logs/$name.log" 2>&1 &
  echo $! >"$dir/pids/$name.pid"
}

# wait_for NAME SECONDS COMMAND...: polls COMMAND; fails NAME if its process ends or time runs out.
wait_for() {
  local name=$1 seconds=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    kill -0 "$(cat "$dir/pids/$name.pid")" 2>/dev/null || fail "$name" "exited during start-up"
    [ $SECONDS -lt $deadline ] || fail "$name" "was not ready within $seconds s"
    sleep 0.2
  done
}

# --- PKI: one CA; the API server's serving certificate; the admin's client certificate ---
pki=$dir/pki
openssl_quiet() { openssl "$@" 2>/dev/null; }
if [ ! -f "$pki/ca.crt" ]; then
  openssl_quiet req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
    -subj /CN=kubectl-trainjob-test-ca -keyout "$pki/ca.key" -out "$pki/ca.crt"
  issue() {  # issue NAME SUBJECT EXTENSIONS
    openssl_quiet req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "$2" \
      -keyout "$pki/$1.key" -out "$pki/$1.csr"
    printf '%b\n' "$3" >"$pki/$1.ext"
    openssl_quiet x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" \
      -CAcreateserial -days 30 -extfile "$pki/$1.ext" -out "$pki/$1.crt"
  }
  issue apiserver /CN=kube-apiserver \
    "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default.svc,IP:10.96.0.1\nextendedKeyUsage=serverAuth"
  # The admin, and each component under its own name, so that the audit log can keep to the
  # requests of the users (tests and benchmarks) and leave out the control plane's own.
  for user in kubernetes-admin kube-controller-manager kube-scheduler kwok; do
    issue "$user" "/O=system:masters/CN=$user" "extendedKeyUsage=clientAuth"
  done
  # The service-account token signer (RSA: the API server's default signing algorithm).
  openssl_quiet genrsa -out "$pki/sa.key" 2048
  # The second user authenticates by bearer token (static token file: token,user,uid).
  printf '%s,developer,developer-uid\n' "$(openssl rand -hex 16)" >"$pki/tokens.csv"
fi
token=$(cut -d, -f1 "$pki/tokens.csv")

# --- ports ----------------------------------------------------------------------------
etcd_port=$(free_port)
etcd_peer_port=$(free_port)
api_port=${API_PORT:-$(free_port)}
kwok_port=$(free_port)
server=https://127.0.0.1:$api_port

# --- kubeconfig: admin by certificate (current), developer by token --------------------
write_kubeconfig() {  # write_kubeconfig FILE CONTEXT [CERT]: a kubeconfig, CERT the admin's
  local cert=${3:-kubernetes-admin}
  cat >"$1" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: $server
    certificate-authority: $pki/ca.crt
users:
- name: admin
  user:
    client-certificate: $pki/$cert.crt
    client-key: $pki/$cert.key
- name: developer
  user:
    token: $token
contexts:
- name: admin
  context: {cluster: test, user: admin, namespace: default}
- name: developer
  context: {cluster: test, user: developer, namespace: default}
current-context: $2
YAML
}
write_kubeconfig "$dir/kubeconfig" admin
write_kubeconfig "$dir/developer.kubeconfig" developer
for component in kube-controller-manager kube-scheduler kwok; do
  write_kubeconfig "$dir/$component.kubeconfig" admin "$component"
done
kubectl() { "$bin/kubectl" --kubeconfig "$dir/kubeconfig" "$@"; }

gates=()
[ -z "${FEATURE_GATES:-}" ] || gates=(--feature-gates="$FEATURE_GATES")

# --- etcd -------------------------------------------------------------------------------
# No fsync: the state lives as long as the test run.
start etcd "$bin/etcd" --name=test --data-dir="$dir/etcd" --unsafe-no-fsync \
  --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
  --listen-peer-urls="http://127.0.0.1:$etcd_peer_port" \
  --initial-advertise-peer-urls="http://127.0.0.1:$etcd_peer_port" \
  --initial-cluster="test=http://127.0.0.1:$etcd_peer_port" --log-level=warn
wait_for etcd 30 curl -sf --max-time 2 "http://127.0.0.1:$etcd_port/health"

# --- kube-apiserver ---------------------------------------------------------------------
# The endpoint reconciler is off: it would publish the loopback address as the `kubernetes`
# Service's endpoint, which the API server refuses; nothing here dials that Service.
runtime_config=()
[ -z "${RUNTIME_CONFIG:-}" ] || runtime_config=(--runtime-config="$RUNTIME_CONFIG")
start kube-apiserver "$bin/kube-apiserver" --etcd-servers="http://127.0.0.1:$etcd_port" \
  --bind-address=127.0.0.1 --secure-port="$api_port" --advertise-address=127.0.0.1 \
  --endpoint-reconciler-type=none --allow-privileged=true \
  --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
  --client-ca-file="$pki/ca.crt" --token-auth-file="$pki/tokens.csv" \
  --kubelet-client-certificate="$pki/kubernetes-admin.crt" --kubelet-client-key="$pki/kubernetes-admin.key" \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$pki/sa.key" --service-account-signing-key-file="$pki/sa.key" \
  --service-cluster-ip-range=10.96.0.0/16 --authorization-mode=Node,RBAC \
  --audit-policy-file="$here/audit-policy.yaml" --audit-log-path="$dir/logs/audit.log" \
  --audit-log-format=json --audit-log-maxsize=1024 \
  ${gates[@]+"${gates[@]}"} ${runtime_config[@]+"${runtime_config[@]}"}
wait_for kube-apiserver 90 curl -sf --max-time 2 --cacert "$pki/ca.crt" --cert "$pki/kubernetes-admin.crt" --key "$pki/kubernetes-admin.key" \
  "$server/readyz"

# --- kube-controller-manager and kube-scheduler -----------------------------------------
# Their own HTTPS endpoints are off (port 0): nothing scrapes them.
# The API rate limits are raised so that a 1,000-pod job is created and bound at the speed
# of the control plane, not of the client's default 20 requests a second.
start kube-controller-manager "$bin/kube-controller-manager" --kubeconfig="$dir/kube-controller-manager.kubeconfig" \
  --leader-elect=false --controllers='*' --secure-port=0 \
  --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
  --kube-api-qps=500 --kube-api-burst=1000 --concurrent-job-syncs=10 \
  --node-monitor-grace-period=30m \
  ${gates[@]+"${gates[@]}"}
cat >"$dir/scheduler.yaml" <<YAML
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection: {kubeconfig: $dir/kube-scheduler.kubeconfig, qps: 500, burst: 1000}
leaderElection: {leaderElect: false}
YAML
start kube-scheduler "$bin/kube-scheduler" --config="$dir/scheduler.yaml" --secure-port=0 \
  ${gates[@]+"${gates[@]}"}

# --- kwok: the nodes' kubelet -------------------------------------------------------------
# Node leases last 10 minutes (renewed every 150 s) and the node controller waits 30 before
# it calls a node lost: 1,000 fake nodes renewing every 10 s, the default, would take a core.
# Its Logs custom resource says which file a pod's logs are read from (tests make those).
kubectl apply --server-side -f "$bin/kwok-logs-crd.yaml" >/dev/null ||
  fail kube-apiserver "refused kwok's Logs CRD"
{ cat "$bin/kwok-node-stages.yaml"; echo ---; cat "${POD_STAGES:-$here/pod-stages.yaml}"; } >"$dir/kwok-stages.yaml"
start kwok "$bin/kwok" --kubeconfig="$dir/kwok.kubeconfig" \
  --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
  --node-ip=127.0.0.1 --node-port="$kwok_port" --server-address="127.0.0.1:$kwok_port" \
  --node-lease-duration-seconds=600 --enable-crds=Logs -c "$dir/kwok-stages.yaml"

# --- nodes ------------------------------------------------------------------------------
python3 - "$nodes" "${NODE_CAPACITY:-{\}}" >"$dir/nodes.yaml" <<'PY'
import json, sys
capacity = {"cpu": "32", "memory": "256Gi", "ephemeral-storage": "1Ti", "pods": "110"}
capacity.update(json.loads(sys.argv[2]))
items = [{"apiVersion": "v1", "kind": "Node",
          "metadata": {"name": f"kwok-node-{i}", "annotations": {"kwok.x-k8s.io/node": "fake"},
                       "labels": {"kubernetes.io/hostname": f"kwok-node-{i}", "type": "kwok"}},
          "status": {"capacity": capacity, "allocatable": capacity}}
         for i in range(int(sys.argv[1]))]
print(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
PY
kubectl create -f "$dir/nodes.yaml" >/dev/null || fail kube-apiserver "refused the nodes"
ready_nodes() {
  [ "$(kubectl get nodes -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' |
    grep -c True)" -eq "$nodes" ]
}
wait_for kwok $((60 + nodes / 10)) ready_nodes
# Pods need the namespace's default service account, which the controller manager makes.
wait_for kube-controller-manager 60 kubectl get serviceaccount default
echo "KUBECONFIG=$dir/kubeconfig"
