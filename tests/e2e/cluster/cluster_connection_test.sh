#!/bin/bash
# How the plugin meets a server that misbehaves in ways a real API server does not on
# demand, on the stand-in: a certificate for another host, 429 with Retry-After, 5xx,
# a server slower than --request-timeout, exec credentials that expire on the server.
# Authentication, kubeconfig loading, TLS, proxies and tracing against the real API server:
# tests/cluster/e2e/connection/connection_test.sh.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
list() { "$bin" list "$@" > "$work/out" 2> "$work/err"; }

printf 'bob-token\n' > "$work/token"
cat > "$work/tokenfile.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: t
clusters: [{name: c, cluster: {server: "$server", certificate-authority: $api/ca.pem}}]
contexts: [{name: t, context: {cluster: c, user: u, namespace: team-a}}]
users: [{name: u, user: {tokenFile: token}}]
YAML

# A server whose certificate names another host.
/usr/bin/python3 -B "$apiserver_dir/apiserver.py" --cert "$api/wrong-host.pem" --key "$api/wrong-host-key.pem" \
  --tokens "$api/tokens.json" --port-file "$work/wrong-port" 2>/dev/null &
wrong_pid=$!
for _ in $(seq 100); do [ -f "$work/wrong-port" ] && break; sleep 0.05; done
wrong_port=$(cat "$work/wrong-port")
sed "s|server: \"$server\"|server: \"https://127.0.0.1:$wrong_port\"|" "$work/tokenfile.yaml" > "$work/wrong-host.yaml"
list --kubeconfig "$work/wrong-host.yaml"
check "a certificate for another host: exit 1, a TLS error naming the server" \
  bash -c "[ $? -eq 1 ] && grep -q \"Unable to connect to the server at https://127.0.0.1:$wrong_port: .*127.0.0.1\" '$work/err'"
sed "s|server: \"$server\"|server: \"https://127.0.0.1:$wrong_port\", tls-server-name: wrong.example|" "$work/tokenfile.yaml" > "$work/wrong-host-named.yaml"
list --kubeconfig "$work/wrong-host-named.yaml"
check "... and tls-server-name with the name it holds makes it trusted" grep -q "No TrainJobs" "$work/err"
kill $wrong_pid

# Retries: 429 honours Retry-After, 5xx back off, both bounded.
ctl requests/reset > /dev/null
ctl faults '{"rules": [{"path": "/jobs$", "status": 429, "reason": "TooManyRequests", "retry_after": 1, "times": 1, "message": "too many requests"}]}' > /dev/null
list
check "429 then success: retried after Retry-After" bash -c "[ \$(request_count) -eq 4 ] && grep -q 'No TrainJobs' '$work/err'"
ctl faults '{"rules": [{"path": "/jobs$", "status": 500, "times": 2, "message": "etcd hiccup"}]}' > /dev/null
list
check "two 500s then success" grep -q "No TrainJobs" "$work/err"
ctl requests/reset > /dev/null
ctl faults '{"rules": [{"path": "/jobs$", "status": 503, "reason": "ServiceUnavailable", "times": 99, "message": "overloaded"}]}' > /dev/null
list
check "a server that keeps failing: exit 1 with its Status after bounded retries" \
  bash -c "grep -qx 'Error from server (ServiceUnavailable): overloaded' '$work/err' && [ \$(request_count) -eq 6 ]"
ctl faults '{"rules": [{"path": "/jobs$", "delay": 3, "times": 1}]}' > /dev/null
list --request-timeout 1s
check "a server slower than --request-timeout: a timeout error naming the server" \
  grep -q "the server at https://127.0.0.1:$port did not answer in time (--request-timeout 1s)" "$work/err"
ctl faults '{"rules": []}' > /dev/null

# Exec credential plugins: the first token has expired on the server though the plugin
# says it is valid; after the 401 the plugin runs once more and its new token works.
ctl tokens '{"exec-token-1": {"user": "dora", "expires": 1}, "exec-token-2": {"user": "dora"}}' > /dev/null
cat > "$work/plugin.sh" <<'SH'
#!/bin/bash
dir=$(dirname "$0")
n=$(( $(cat "$dir/runs" 2>/dev/null || echo 0) + 1 ))
echo $n > "$dir/runs"
printf '%s\n' "$KUBERNETES_EXEC_INFO" > "$dir/exec-info"
printf '%s\n' "$*" > "$dir/args"
printf '%s\n' "$PLUGIN_MODE" > "$dir/env"
echo "{\"apiVersion\": \"$API\", \"kind\": \"ExecCredential\", \"status\": {\"token\": \"exec-token-$n\", \"expirationTimestamp\": \"2099-01-01T00:00:00Z\"}}"
SH
chmod +x "$work/plugin.sh"
for version in v1 v1beta1; do
  rm -f "$work/runs"
  cat > "$work/exec.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: t
clusters: [{name: c, cluster: {server: "$server", certificate-authority: $api/ca.pem}}]
contexts: [{name: t, context: {cluster: c, user: u}}]
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/$version
      command: ./plugin.sh
      args: [--cluster, test]
      env: [{name: PLUGIN_MODE, value: fast}, {name: API, value: client.authentication.k8s.io/$version}]
      interactiveMode: Never
      provideClusterInfo: true
YAML
  list --kubeconfig "$work/exec.yaml"
  check "exec $version: an expired credential is replaced once after a 401" \
    bash -c "grep -q 'No TrainJobs' '$work/err' && [ \$(cat '$work/runs') -eq 2 ]"
  check "exec $version: args, env and KUBERNETES_EXEC_INFO reach the plugin" \
    bash -c "grep -qx -- '--cluster test' '$work/args' && grep -qx fast '$work/env' && grep -q '\"apiVersion\":\"client.authentication.k8s.io/$version\"' '$work/exec-info' && grep -q '\"server\":\"$server\"' '$work/exec-info'"
done
sed -e 's|command: ./plugin.sh|command: no-such-plugin\n      installHint: install it with apt-get install no-such-plugin|' "$work/exec.yaml" > "$work/exec-missing.yaml"
list --kubeconfig "$work/exec-missing.yaml"
check "a missing exec plugin is named, with its install hint" \
  bash -c "grep -q 'executable \"no-such-plugin\" not found' '$work/err' && grep -q 'install it with apt-get' '$work/err'"
finish
