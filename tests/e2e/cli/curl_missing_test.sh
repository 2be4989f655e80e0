#!/bin/bash
# Without libcurl the offline commands still work and a cluster command says what to
# install. The library is hidden for real (lib.sh's hide_library: a private mount namespace
# where the loader finds everything but libcurl).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"

hide_library libcurl.so.4

cat > "$work/kubeconfig" <<'YAML'
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
YAML

without_hidden_library /usr/bin/python3 -c 'import ctypes; ctypes.CDLL("libcurl.so.4")'
check "the namespace really hides libcurl.so.4 (a plain dlopen fails)" [ $? -eq 1 ]
without_hidden_library /usr/bin/python3 -c 'import ctypes; ctypes.CDLL("libyaml-0.so.2")'
check "... and nothing else (libyaml loads)" [ $? -eq 0 ]

without_hidden_library "$bin" render -f "$src/templates/image.yaml"
check "render works without libcurl" [ $? -eq 0 ]
check "... and prints the Jobs" grep -q '^kind: Job$' "$work/out"
without_hidden_library "$bin" version
check "version works without libcurl" [ $? -eq 0 ]

without_hidden_library "$bin" status demo --kubeconfig "$work/kubeconfig"
check "status without libcurl: exit 1" [ $? -eq 1 ]
check "... saying what is missing and what to install" \
  grep -q '^error: libcurl.so.4 not found: apt-get install libcurl4 (libcurl.so.4: cannot open shared object file: No such file or directory)$' "$work/err"
check "... and nothing else" [ "$(wc -l < "$work/err")" -eq 1 ]
without_hidden_library "$bin" list --kubeconfig "$work/kubeconfig"
check "list without libcurl: exit 1 with the same message" \
  bash -c "[ $? -eq 1 ] && grep -q '^error: libcurl.so.4 not found' '$work/err'"

# The same command in the plain file system gets as far as the (absent) server.
"$bin" status demo --kubeconfig "$work/kubeconfig" --request-timeout 5s > "$work/out" 2> "$work/err"
check "with libcurl, status reaches the network and fails there" \
  grep -q 'Unable to connect to the server at https://127.0.0.1:1' "$work/err"
finish
