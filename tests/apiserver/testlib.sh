# Sourced by the cluster end-to-end tests, after tests/e2e/lib.sh: creates a test CA and
# certificates with the openssl CLI, starts apiserver.py on an ephemeral loopback port and
# writes a kubeconfig for it. Everything lives under $work/api.
apiserver_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
api=$work/api
mkdir -p "$api"

make_certs() {
  local d=$api
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj /CN=test-ca -keyout "$d/ca-key.pem" -out "$d/ca.pem" 2>/dev/null
  # issue NAME SUBJECT SAN
  issue() {
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "$2" \
      -keyout "$d/$1-key.pem" -out "$d/$1.csr" 2>/dev/null
    printf '%s\n' "$3" > "$d/$1.ext"
    openssl x509 -req -in "$d/$1.csr" -CA "$d/ca.pem" -CAkey "$d/ca-key.pem" -CAcreateserial \
      -days 2 -extfile "$d/$1.ext" -out "$d/$1.pem" 2>/dev/null
  }
  issue server /CN=apiserver "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.test"
  issue wrong-host /CN=wrong "subjectAltName=DNS:wrong.example"
  issue client "/CN=alice/O=system:masters" "extendedKeyUsage=clientAuth"
}

# start_apiserver [server|wrong-host]: the certificate the server presents
start_apiserver() {
  local cert=${1:-server}
  [ -f "$api/ca.pem" ] || make_certs
  cat > "$api/tokens.json" <<JSON
{"bob-token": {"user": "bob"}, "carol-token": {"user": "carol", "readonly": true}}
JSON
  rm -f "$api/port"
  /usr/bin/python3 -B "$apiserver_dir/apiserver.py" --cert "$api/$cert.pem" --key "$api/$cert-key.pem" \
    --client-ca "$api/ca.pem" --tokens "$api/tokens.json" --port-file "$api/port" \
    2> "$api/server.log" &
  api_pid=$!
  trap 'kill $api_pid 2>/dev/null; wait $api_pid 2>/dev/null; rm -rf "$work"' EXIT
  for _ in $(seq 100); do [ -f "$api/port" ] && break; sleep 0.05; done
  port=$(cat "$api/port")
  server=https://127.0.0.1:$port
  write_kubeconfig
}

# start_with_demo: start_apiserver, then submit templates/image.yaml (the TrainJob $T, its one
# Job $J), as a user's first job on a cluster.
start_with_demo() {
  start_apiserver
  T=trainjob-demo-with-image
  J=$T-node-0
  "$bin" submit -f "$src/templates/image.yaml" > /dev/null
}

stop_apiserver() {
  kill "$api_pid" 2>/dev/null
  wait "$api_pid" 2>/dev/null
}

write_kubeconfig() {
  local cert_data key_data
  cert_data=$(base64 -w0 < "$api/client.pem")
  key_data=$(base64 -w0 < "$api/client-key.pem")
  cat > "$api/kubeconfig" <<YAML
apiVersion: v1
kind: Config
current-context: test
clusters:
- name: test
  cluster:
    server: $server
    certificate-authority: ca.pem
contexts:
- name: test
  context: {cluster: test, user: alice, namespace: default}
- name: bob
  context: {cluster: test, user: bob}
- name: carol
  context: {cluster: test, user: carol}
users:
- name: alice
  user:
    client-certificate-data: $cert_data
    client-key-data: $key_data
- name: bob
  user:
    token: bob-token
- name: carol
  user:
    token: carol-token
YAML
  export KUBECONFIG=$api/kubeconfig
}

ctl() { /usr/bin/python3 "$apiserver_dir/ctl.py" "$api" "$@"; }
# The number of API requests the server has seen (admin requests not counted).
request_count() { ctl get requests | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["requests"]))'; }
export api apiserver_dir
export -f ctl request_count
# eventually COMMAND...: true once COMMAND succeeds, polling for up to 10 seconds; for states
# that another process reaches in its own time.
eventually() {
  for _ in $(seq 100); do "$@" && return 0; sleep 0.1; done
  return 1
}
