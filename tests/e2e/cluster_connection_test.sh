#!/bin/bash
# How the plugin reaches and authenticates to the API server, as kubectl would: kubeconfig
# merging and overrides, client certificates, tokens, exec plugins, TLS checks, retries,
# timeouts, and errors that name the server and the user.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
list() { "$bin" list "$@" > "$work/out" 2> "$work/err"; }

list
check "a client certificate from the kubeconfig authenticates" grep -q "No TrainJobs found in default" "$work/err"
list --context bob
check "a bearer token authenticates" [ $? -eq 0 ]
list --user bob
check "--user overrides the context's user" bash -c "ctl get requests | grep -q '\"user\": \"bob\"'"
printf 'bob-token\n' > "$work/token"
cat > "$work/tokenfile.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: t
clusters: [{name: c, cluster: {server: "$server", certificate-authority: $api/ca.pem}}]
contexts: [{name: t, context: {cluster: c, user: u, namespace: team-a}}]
users: [{name: u, user: {tokenFile: token}}]
YAML
cp "$work/tokenfile.yaml" "$work/sub.yaml"
list --kubeconfig "$work/tokenfile.yaml"
check "a tokenFile relative to its kubeconfig authenticates; the context's namespace is used" \
  grep -q "No TrainJobs found in team-a" "$work/err"
list --kubeconfig "$work/tokenfile.yaml" -n other
check "-n wins over the context's namespace" grep -q "No TrainJobs found in other" "$work/err"

# KUBECONFIG: the first file that names an entry wins it whole.
cat > "$work/bad-alice.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: test
users: [{name: alice, user: {token: wrong-token}}]
YAML
KUBECONFIG="$api/kubeconfig:$work/bad-alice.yaml" "$bin" list > /dev/null 2>&1
check "KUBECONFIG: the first file's user wins" [ $? -eq 0 ]
KUBECONFIG="$work/bad-alice.yaml:$api/kubeconfig" "$bin" list > /dev/null 2> "$work/err"
check "KUBECONFIG: ...in either order (the wrong token is used, 401)" grep -q "Unauthorized" "$work/err"
check "a 401 names the user and context and says what to check" \
  grep -q 'hint: the server at https://127.0.0.1:[0-9]* did not accept the credentials of user "alice" of context "test"' "$work/err"
list --kubeconfig "$work/missing.yaml"
check "--kubeconfig naming a missing file is an error (exit 1)" [ $? -eq 1 ]
check "... naming the file" grep -q 'missing.yaml: no such file' "$work/err"
list --context nope
check "an unknown context is kubectl's error" grep -qx 'error: context "nope" does not exist' "$work/err"
"$bin" submit -f "$src/templates/image.yaml" --context carol > /dev/null 2> "$work/err"
check "403: the server's message and a hint naming the user" \
  bash -c "grep -q 'Error from server (Forbidden): .*User \"carol\" cannot patch' '$work/err' && grep -q 'hint: user \"carol\" of context \"carol\" is authenticated but not allowed' '$work/err'"

# -v: requests traced, secrets never printed.
"$bin" list --context bob -v=8 > /dev/null 2> "$work/trace"
check "-v=6 and above trace each request with its status" grep -q "^I GET https://127.0.0.1:$port/apis/batch/v1/namespaces/default/jobs?.* 200 in" "$work/trace"
check "... headers are shown with Authorization masked" grep -q "Authorization: Bearer <masked>" "$work/trace"
check "... and the token never appears" bash -c "! grep -q bob-token '$work/trace'"

# TLS: the server is checked unless the kubeconfig says otherwise.
sed "s|certificate-authority: $api/ca.pem|insecure-skip-tls-verify: true|" "$work/tokenfile.yaml" > "$work/insecure.yaml"
list --kubeconfig "$work/insecure.yaml"
check "insecure-skip-tls-verify connects without a CA" [ $? -eq 0 ]
sed "s|, certificate-authority: $api/ca.pem||" "$work/tokenfile.yaml" > "$work/noca.yaml"
list --kubeconfig "$work/noca.yaml"
check "without the CA the server is not trusted: a plain TLS error naming the server" \
  grep -q "Unable to connect to the server at https://127.0.0.1:$port: .*certificate" "$work/err"
sed "s|server: \"$server\"|server: \"https://127.0.0.1:1\"|" "$work/tokenfile.yaml" > "$work/refused.yaml"
list --kubeconfig "$work/refused.yaml"
check "connection refused names the server" grep -q "Unable to connect to the server at https://127.0.0.1:1: " "$work/err"
sed "s|server: \"$server\"|server: \"https://no-such-host.invalid:6443\"|" "$work/tokenfile.yaml" > "$work/dns.yaml"
list --kubeconfig "$work/dns.yaml"
check "a name that does not resolve says so" grep -q "no-such-host.invalid.*resolve" "$work/err"
# A server whose certificate names another host.
/usr/bin/python3 -B "$apiserver_dir/apiserver.py" --cert "$api/wrong-host.pem" --key "$api/wrong-host-key.pem" \
  --tokens "$api/tokens.json" --port-file "$work/wrong-port" 2>/dev/null &
wrong_pid=$!
for _ in $(seq 100); do [ -f "$work/wrong-port" ] && break; sleep 0.05; done
wrong_port=$(cat "$work/wrong-port")
sed "s|server: \"$server\"|server: \"https://127.0.0.1:$wrong_port\"|" "$work/tokenfile.yaml" > "$work/wrong-host.yaml"
list --kubeconfig "$work/wrong-host.yaml"
check "a certificate for another host: exit 1, a TLS error naming the server" \
  bash -c "[ \$? -eq 0 ]; grep -q \"Unable to connect to the server at https://127.0.0.1:$wrong_port: .*127.0.0.1\" '$work/err'"
sed "s|server: \"$server\"|server: \"https://127.0.0.1:$wrong_port\", tls-server-name: wrong.example|" "$work/tokenfile.yaml" > "$work/wrong-host-named.yaml"
list --kubeconfig "$work/wrong-host-named.yaml"
check "... and tls-server-name with the name it holds makes it trusted" grep -q "No TrainJobs" "$work/err"
kill $wrong_pid
sed "s|server: \"$server\"|server: \"https://localhost:$port\", tls-server-name: kubernetes.test|" "$work/tokenfile.yaml" > "$work/sni.yaml"
list --kubeconfig "$work/sni.yaml"
check "tls-server-name: the certificate is checked for that name" [ $? -eq 0 ]
sed "s|server: \"$server\"|server: \"https://localhost:$port\", tls-server-name: wrong.example|" "$work/tokenfile.yaml" > "$work/sni-wrong.yaml"
list --kubeconfig "$work/sni-wrong.yaml"
check "tls-server-name that the certificate does not hold fails" grep -q "Unable to connect" "$work/err"
/usr/bin/python3 -B "$apiserver_dir/proxy.py" --port-file "$work/proxy-port" --log "$work/proxy.log" &
proxy_pid=$!
for _ in $(seq 100); do [ -f "$work/proxy-port" ] && break; sleep 0.05; done
sed "s|server: \"$server\"|server: \"$server\", proxy-url: \"http://127.0.0.1:$(cat "$work/proxy-port")\"|" "$work/tokenfile.yaml" > "$work/proxied.yaml"
list --kubeconfig "$work/proxied.yaml"
check "proxy-url: requests go through the proxy" \
  bash -c "grep -q 'No TrainJobs' '$work/err' && grep -qx '127.0.0.1:$port' '$work/proxy.log'"
kill $proxy_pid
sed "s|server: \"$server\"|server: \"$server\", proxy-url: \"ftp://proxy\"|" "$work/tokenfile.yaml" > "$work/proxy.yaml"
list --kubeconfig "$work/proxy.yaml"
check "a proxy-url with an unsupported scheme is refused" grep -q 'proxy-url "ftp://proxy": scheme must be http, https or socks5' "$work/err"

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
ctl faults '{"rules": [{"method": "PATCH", "warning": "spec.foo: deprecated field"}]}' > /dev/null
"$bin" submit -f "$src/templates/image.yaml" > /dev/null 2> "$work/err"
check "Warning headers are shown on stderr" grep -qx "Warning: spec.foo: deprecated field" "$work/err"
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
    bash -c "grep -q trainjob-demo-with-image '$work/out' && [ \$(cat '$work/runs') -eq 2 ]"
  check "exec $version: args, env and KUBERNETES_EXEC_INFO reach the plugin" \
    bash -c "grep -qx -- '--cluster test' '$work/args' && grep -qx fast '$work/env' && grep -q '\"apiVersion\":\"client.authentication.k8s.io/$version\"' '$work/exec-info' && grep -q '\"server\":\"$server\"' '$work/exec-info'"
done
sed -e 's|command: ./plugin.sh|command: no-such-plugin\n      installHint: install it with apt-get install no-such-plugin|' "$work/exec.yaml" > "$work/exec-missing.yaml"
list --kubeconfig "$work/exec-missing.yaml"
check "a missing exec plugin is named, with its install hint" \
  bash -c "grep -q 'executable \"no-such-plugin\" not found' '$work/err' && grep -q 'install it with apt-get' '$work/err'"
finish
