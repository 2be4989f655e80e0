#!/bin/bash
# How the plugin reaches and authenticates to the real API server, as kubectl would: the
# user the server saw (from its audit log) for a client certificate, a bearer token, a
# tokenFile and an exec plugin; kubeconfig paths relative to the kubeconfig, embedded data,
# KUBECONFIG lists merged; TLS checked against the cluster's CA and tls-server-name; a proxy;
# 401 and 403 as the server answers them; -v tracing. Faults a real server does not make on
# demand (429, 5xx, a slow server, a certificate for another host, an exec credential that
# expires) are tested on the stand-in: tests/e2e/cluster/cluster_connection_test.sh.
bin=$(realpath "$1")  # the relative paths are tried from another directory
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
list() { "$bin" list "$@" >"$work/out" 2>"$work/err"; }
# The developer may read our namespace (list needs no more), and works in it by default.
kubectl create rolebinding developer-view --clusterrole=view --user=developer >/dev/null
kubectl config set-context developer --namespace "$ns" >/dev/null
server=$(kubectl config view -o jsonpath='{.clusters[0].cluster.server}')
port=${server##*:}
pki=$cluster/pki
token=$(kubectl config view --raw -o jsonpath='{.users[?(@.name=="developer")].user.token}')
# users_are USERS: the users the API server saw making the plugin's requests since the mark.
users_are() { diff <(printf '%s\n' "$@") <(audit_users) >/dev/null; }

audit_mark
list
check "a client certificate from the kubeconfig authenticates" \
  bash -c "grep -qx 'No TrainJobs found in $ns namespace.' '$work/err' && [ ! -s '$work/out' ]"
check "... as the admin" users_are kubernetes-admin
audit_mark
list --context developer
check "a bearer token authenticates" [ $? -eq 0 ]
check "... as the developer" users_are developer
audit_mark
list --user developer
check "--user overrides the context's user" users_are developer

# Paths in a kubeconfig are relative to the file; the context's namespace is used.
mkdir "$work/sub"
cp "$pki/ca.crt" "$pki/kubernetes-admin.crt" "$pki/kubernetes-admin.key" "$work/sub/"
printf '%s\n' "$token" >"$work/sub/token"
cat >"$work/sub/relative.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: t
clusters: [{name: c, cluster: {server: "$server", certificate-authority: ca.crt}}]
contexts:
- {name: t, context: {cluster: c, user: admin, namespace: $ns}}
- {name: dev, context: {cluster: c, user: dev, namespace: $ns}}
users:
- {name: admin, user: {client-certificate: kubernetes-admin.crt, client-key: kubernetes-admin.key}}
- {name: dev, user: {tokenFile: token}}
YAML
audit_mark
(cd / && "$bin" list --kubeconfig "$work/sub/relative.yaml" >"$work/out" 2>"$work/err")
check "a CA, certificate and key relative to their kubeconfig; the context's namespace is used" \
  bash -c "grep -qx 'No TrainJobs found in $ns namespace.' '$work/err' && [ \"\$1\" = kubernetes-admin ]" _ "$(audit_users)"
list --kubeconfig "$work/sub/relative.yaml" -n "$ns-elsewhere"
check "-n wins over the context's namespace" grep -qx "No TrainJobs found in $ns-elsewhere namespace." "$work/err"
audit_mark
(cd / && "$bin" list --kubeconfig "$work/sub/relative.yaml" --context dev >"$work/out" 2>"$work/err")
check "a tokenFile relative to its kubeconfig authenticates, as the developer" \
  bash -c "[ $? -eq 0 ] && [ \"\$1\" = developer ]" _ "$(audit_users)"
kubectl config view --raw --flatten --minify >"$work/flat.yaml"
check "(kubectl's --flatten embeds the CA and the admin's certificate and key)" \
  bash -c "grep -q 'certificate-authority-data:' '$work/flat.yaml' && grep -q 'client-key-data:' '$work/flat.yaml' && ! grep -q '$pki' '$work/flat.yaml'"
audit_mark
list --kubeconfig "$work/flat.yaml"
check "a kubeconfig with embedded data authenticates" \
  bash -c "grep -qx 'No TrainJobs found in $ns namespace.' '$work/err' && [ \"\$1\" = kubernetes-admin ]" _ "$(audit_users)"

# KUBECONFIG: the files are merged; the first file that names an entry wins it whole.
cat >"$work/bad-admin.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: admin
users: [{name: admin, user: {token: wrong-token}}]
YAML
KUBECONFIG="$work/kubeconfig:$work/bad-admin.yaml" "$bin" list >/dev/null 2>&1
check "KUBECONFIG: the first file's user wins" [ $? -eq 0 ]
KUBECONFIG="$work/bad-admin.yaml:$work/kubeconfig" "$bin" list >/dev/null 2>"$work/err"
check "KUBECONFIG: ...in either order (the wrong token is used, 401)" \
  grep -q "Error from server (Unauthorized)" "$work/err"
check "a 401 names the user and context and says what to check" \
  grep -q "hint: the server at $server did not accept the credentials of user \"admin\" of context \"admin\"" "$work/err"
cat >"$work/mine.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: mine
contexts: [{name: mine, context: {cluster: test, user: developer, namespace: $ns}}]
YAML
audit_mark
KUBECONFIG="$work/mine.yaml:$work/kubeconfig" "$bin" list >/dev/null 2>"$work/err"
check "KUBECONFIG: a context of the first file, with the cluster and user of the second" \
  bash -c "[ $? -eq 0 ] && [ \"\$1\" = developer ]" _ "$(audit_users)"
list --kubeconfig "$work/missing.yaml"
check "--kubeconfig naming a missing file is an error (exit 1)" [ $? -eq 1 ]
check "... naming the file" grep -q 'missing.yaml: no such file' "$work/err"
list --context nope
check "an unknown context is kubectl's error" grep -qx 'error: context "nope" does not exist' "$work/err"
"$bin" submit -f "$src/templates/image.yaml" --context developer >/dev/null 2>"$work/err"
check "403: the server's message and a hint naming the user" \
  bash -c "grep -q 'Error from server (Forbidden): .*User \"developer\" cannot patch' '$work/err' && grep -q 'hint: user \"developer\" of context \"developer\" is authenticated but not allowed' '$work/err'"

# An exec credential plugin: its token is the developer's; its args and env reach it.
cat >"$work/plugin.sh" <<SH
#!/bin/bash
printf '%s\n' "\$*" >"\$(dirname "\$0")/args"
printf '%s\n' "\$PLUGIN_MODE" >"\$(dirname "\$0")/env"
echo '{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"token": "$token"}}'
SH
chmod +x "$work/plugin.sh"
cat >"$work/exec.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: t
clusters: [{name: c, cluster: {server: "$server", certificate-authority: $pki/ca.crt}}]
contexts: [{name: t, context: {cluster: c, user: u, namespace: $ns}}]
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./plugin.sh
      args: [--cluster, test]
      env: [{name: PLUGIN_MODE, value: fast}]
      interactiveMode: Never
YAML
audit_mark
list --kubeconfig "$work/exec.yaml"
check "an exec plugin's token authenticates, as the developer" \
  bash -c "[ $? -eq 0 ] && [ \"\$1\" = developer ] && grep -qx -- '--cluster test' '$work/args' && grep -qx fast '$work/env'" _ "$(audit_users)"

# -v: requests traced, secrets never printed.
"$bin" list --context developer -v=8 >/dev/null 2>"$work/trace"
check "-v=6 and above trace each request with the server's status" \
  grep -q "^I GET $server/apis/batch/v1/namespaces/$ns/jobs?.* 200 in" "$work/trace"
check "... headers are shown with Authorization masked" grep -q "Authorization: Bearer <masked>" "$work/trace"
check "... and the token never appears" bash -c "! grep -q '$token' '$work/trace'"

# TLS: the server is checked against the kubeconfig's CA unless it says otherwise.
cluster_entry() {  # cluster_entry CLUSTER-FIELDS: the developer's kubeconfig on that cluster entry
  cat <<YAML
apiVersion: v1
kind: Config
current-context: t
clusters: [{name: c, cluster: {$1}}]
contexts: [{name: t, context: {cluster: c, user: u, namespace: $ns}}]
users: [{name: u, user: {token: $token}}]
YAML
}
cluster_entry "server: \"$server\", insecure-skip-tls-verify: true" >"$work/insecure.yaml"
list --kubeconfig "$work/insecure.yaml"
check "insecure-skip-tls-verify connects without a CA" [ $? -eq 0 ]
cluster_entry "server: \"$server\"" >"$work/noca.yaml"
list --kubeconfig "$work/noca.yaml"
check "without the CA the server is not trusted: a plain TLS error naming the server" \
  bash -c "[ $? -eq 1 ] && grep -q 'Unable to connect to the server at $server: .*certificate' '$work/err'"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=another-ca \
  -keyout "$work/other-ca.key" -out "$work/other-ca.crt" 2>/dev/null
cluster_entry "server: \"$server\", certificate-authority: $work/other-ca.crt" >"$work/otherca.yaml"
list --kubeconfig "$work/otherca.yaml"
check "a CA that is not the cluster's: exit 1, a TLS error naming the server" \
  bash -c "[ $? -eq 1 ] && grep -q 'Unable to connect to the server at $server: .*certificate' '$work/err' && [ \$(wc -l <'$work/err') -le 2 ]"
cluster_entry "server: \"https://localhost:$port\", certificate-authority: $pki/ca.crt, tls-server-name: kubernetes.default.svc" >"$work/sni.yaml"
list --kubeconfig "$work/sni.yaml"
check "tls-server-name: the certificate is checked for that name" [ $? -eq 0 ]
cluster_entry "server: \"https://localhost:$port\", certificate-authority: $pki/ca.crt, tls-server-name: wrong.example" >"$work/sni-wrong.yaml"
list --kubeconfig "$work/sni-wrong.yaml"
check "tls-server-name that the certificate does not hold fails" \
  bash -c "[ $? -eq 1 ] && grep -q 'Unable to connect to the server at https://localhost:$port: ' '$work/err'"
cluster_entry "server: \"https://127.0.0.1:1\", certificate-authority: $pki/ca.crt" >"$work/refused.yaml"
list --kubeconfig "$work/refused.yaml"
check "connection refused names the server" grep -q "Unable to connect to the server at https://127.0.0.1:1: " "$work/err"
cluster_entry "server: \"https://no-such-host.invalid:6443\", certificate-authority: $pki/ca.crt" >"$work/dns.yaml"
list --kubeconfig "$work/dns.yaml"
check "a name that does not resolve says so" grep -q "no-such-host.invalid.*resolve" "$work/err"

# proxy-url: a CONNECT proxy between the plugin and the server.
python3 -B "$src/tests/apiserver/proxy.py" --port-file "$work/proxy-port" --log "$work/proxy.log" &
background_pids="${background_pids:-} $!"
trap 'kill $background_pids 2>/dev/null; control_plane_cleanup' EXIT
for _ in $(seq 100); do [ -s "$work/proxy-port" ] && break; sleep 0.05; done
cluster_entry "server: \"$server\", certificate-authority: $pki/ca.crt, proxy-url: \"http://127.0.0.1:$(cat "$work/proxy-port")\"" >"$work/proxied.yaml"
list --kubeconfig "$work/proxied.yaml"
check "proxy-url: requests go through the proxy" \
  bash -c "grep -qx 'No TrainJobs found in $ns namespace.' '$work/err' && grep -qx '127.0.0.1:$port' '$work/proxy.log'"
cluster_entry "server: \"$server\", certificate-authority: $pki/ca.crt, proxy-url: \"ftp://proxy\"" >"$work/proxy.yaml"
list --kubeconfig "$work/proxy.yaml"
check "a proxy-url with an unsupported scheme is refused" grep -q 'proxy-url "ftp://proxy": scheme must be http, https or socks5' "$work/err"

# The server's Warning headers (here: a node label deprecated since 1.14) reach stderr.
one_step_trainjob warned 1 '{}' '{beta.kubernetes.io/os: linux}' >"$work/warned.yaml"
"$bin" submit -f "$work/warned.yaml" >/dev/null 2>"$work/err"
check "Warning headers are shown on stderr" \
  grep -qx 'Warning: spec.template.spec.nodeSelector\[beta.kubernetes.io/os\]: deprecated since v1.14; use "kubernetes.io/os" instead' "$work/err"
finish
