#!/usr/bin/env bash
# MPI render: the SSH Secret --generate-secrets prints (a key pair ssh-keygen agrees
# with), the warnings without it, and the node wrapper script run for real with a fake
# `getent` that resolves the launcher for a while and then stops.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

input="$source_dir/testdata/render/policy-mpi-launcher-as-node/trainjob.yaml"

# field FILE EXPR: a value of the rendered List, by a Python expression over `items`.
field() {
  python3 -c 'import json,sys; items=json.load(open(sys.argv[1]))["items"]; print(eval(sys.argv[2]), end="")' "$1" "$2"
}

"$binary" render --trainer-version 2.3 -f "$input" -o json >"$work/plain.json" 2>"$work/plain.err"
check "without --generate-secrets, no Secret is printed" \
  test "$(field "$work/plain.json" 'sum(o["kind"] == "Secret" for o in items)')" = 0
check "and a warning says it must exist" \
  grep -q 'warning: metadata.name: Secret "lan-mpi-ssh-auth" .* must exist' "$work/plain.err"

"$binary" render --trainer-version 2.3 --generate-secrets -f "$input" -o json \
  >"$work/gen.json" 2>"$work/gen.err"
check "render --generate-secrets succeeds" test $? -eq 0
secret='[o for o in items if o["kind"] == "Secret"][0]'
check "the Secret is named after the TrainJob" \
  test "$(field "$work/gen.json" "$secret['metadata']['name']")" = lan-mpi-ssh-auth
check "it is an immutable ssh-auth Secret" \
  test "$(field "$work/gen.json" "($secret['type'], $secret['immutable'])")" = \
  "('kubernetes.io/ssh-auth', True)"
check "submit creates it only when absent" \
  test "$(field "$work/gen.json" "$secret['metadata']['annotations']['kubectl-trainjob/create-only-if-absent']")" = true
check "a warning says the output holds a private key" grep -q 'private key' "$work/gen.err"
field "$work/gen.json" "$secret['data']['ssh-privatekey']" | base64 -d >"$work/id"
field "$work/gen.json" "$secret['data']['ssh-publickey']" | base64 -d >"$work/id.pub"
chmod 600 "$work/id"
check "the private key is a PEM EC PRIVATE KEY" grep -q '^-----BEGIN EC PRIVATE KEY-----$' "$work/id"
if command -v ssh-keygen >/dev/null; then
  check "ssh-keygen derives the same public key" \
    test "$(ssh-keygen -y -f "$work/id" | cut -d' ' -f1-2)" = "$(cut -d' ' -f1-2 "$work/id.pub")"
fi
"$binary" render --trainer-version 2.3 --generate-secrets -f "$input" -o json >"$work/gen2.json" 2>/dev/null
check "each render makes a fresh key" \
  test "$(field "$work/gen.json" "$secret['data']['ssh-publickey']")" != \
  "$(field "$work/gen2.json" "$secret['data']['ssh-publickey']")"

# The node wrapper: the launcher resolves for the first 3 polls, then never again.
node='[o for o in items if o["kind"] == "Job" and o["metadata"]["name"] == "lan-node-0"][0]'
field "$work/plain.json" "$node['spec']['template']['spec']['containers'][0]['command'][2]" \
  >"$work/wrapper.sh"
check "the wrapper waits on the launcher's pod name" \
  grep -q '^launcher=lan-launcher-0-0.lan$' "$work/wrapper.sh"
mkdir "$work/bin"
cat >"$work/bin/getent" <<FAKE
#!/bin/sh
n=\$(cat "$work/polls" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$work/polls"
[ "\$1 \$2" = "hosts lan-launcher-0-0.lan" ] && [ "\$n" -lt 3 ] && echo "10.0.0.9 \$2"
FAKE
chmod +x "$work/bin/getent"
start=$(date +%s)
PATH="$work/bin:$PATH" /bin/sh -c "$(cat "$work/wrapper.sh")" mpi-node \
  sh -c 'echo $$ >"$1"; exec sleep 600' child "$work/child.pid"
status=$?
elapsed=$(($(date +%s) - start))
check "the node exits 0 once the launcher is gone" test "$status" -eq 0
check "after the launcher was gone for about 30 s" test "$elapsed" -ge 35 -a "$elapsed" -le 60
check "the wrapped command is gone" bash -c "! kill -0 $(cat "$work/child.pid") 2>/dev/null"

# A wrapped command that ends by itself ends the node with its status, launcher or not.
rm -f "$work/polls"
PATH="$work/bin:$PATH" /bin/sh -c "$(cat "$work/wrapper.sh")" mpi-node sh -c 'exit 7'
check "the wrapped command's own exit status is kept" test $? -eq 7
finish
