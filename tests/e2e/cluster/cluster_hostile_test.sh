#!/bin/bash
# Cluster commands against hostile surroundings: an exec credential plugin that hangs or
# floods its output is stopped within the request timeout and named; a CA together with
# insecure-skip-tls-verify is refused as kubectl refuses it; `delete` removes exactly what
# `submit` applied and leaves the user's own objects that carry the TrainJob's label.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver

# exec_kubeconfig NAME COMMAND: a kubeconfig at $work/NAME.yaml whose user runs COMMAND.
exec_kubeconfig() {
  cat > "$work/$1.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: t
clusters: [{name: c, cluster: {server: "$server", certificate-authority: $api/ca.pem}}]
contexts: [{name: t, context: {cluster: c, user: u}}]
users:
- name: u
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: $2, interactiveMode: Never}
YAML
}
# gone PID: the process has ended (or is a zombie some other parent will reap).
gone() { [ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat"; }
export -f gone
# elapsed START: whole seconds since START (date +%s%N).
elapsed() { echo $((($(date +%s%N) - $1) / 1000000000)); }

# A plugin that never answers; it starts a child of its own, which must go with it.
cat > "$work/hang.sh" <<'SH'
#!/bin/bash
dir=$(dirname "$0")
echo $$ > "$dir/hang.pid"
sleep 300 &
echo $! > "$dir/hang-child.pid"
wait
SH
chmod +x "$work/hang.sh"
exec_kubeconfig hang ./hang.sh
start=$(date +%s%N)
"$bin" status some-job --kubeconfig "$work/hang.yaml" --request-timeout 1s > /dev/null 2> "$work/err"
code=$?
took=$(elapsed "$start")
check "a hanging exec plugin: status fails (exit 1)" [ $code -eq 1 ]
check "... within the request timeout, not the plugin's 300 s" [ "$took" -lt 10 ]
check "... saying the plugin gave no answer within it" \
  grep -qx "error: exec plugin \"$work/./hang.sh\": no answer within 1s" "$work/err"
check "... and the plugin and the child it started are gone" \
  eventually bash -c "gone $(cat "$work/hang.pid") && gone $(cat "$work/hang-child.pid")"
rm -f "$work/hang.pid" "$work/hang-child.pid"
start=$(date +%s%N)
"$bin" submit -f "$src/templates/image.yaml" --kubeconfig "$work/hang.yaml" \
  --request-timeout 2s > /dev/null 2> "$work/err"
code=$?
took=$(elapsed "$start")
check "a hanging exec plugin: submit fails too, within its 2 s" \
  bash -c "[ $code -eq 1 ] && [ $took -lt 10 ] && grep -q 'hang.sh\": no answer within 2s' '$work/err'"
check "... having created nothing" bash -c "[ -z \"\$(kubectl get jobs,services -o name)\" ]"
check "... and leaving no plugin process" \
  eventually bash -c "gone $(cat "$work/hang.pid") && gone $(cat "$work/hang-child.pid")"

# Plugins that print more than 1 MiB, then would go on for ever.
cat > "$work/flood.sh" <<'SH'
#!/bin/bash
head -c 1100000 /dev/zero | tr '\0' x
sleep 300
SH
cat > "$work/noisy.sh" <<'SH'
#!/bin/bash
head -c 1100000 /dev/zero | tr '\0' x >&2
sleep 300
SH
chmod +x "$work/flood.sh" "$work/noisy.sh"
exec_kubeconfig flood ./flood.sh
start=$(date +%s%N)
"$bin" list --kubeconfig "$work/flood.yaml" > /dev/null 2> "$work/err"
code=$?
check "an exec plugin printing more than 1 MiB: exit 1 at once, naming it" \
  bash -c "[ $code -eq 1 ] && [ $(elapsed "$start") -lt 10 ] && grep -qx 'error: exec plugin \"$work/./flood.sh\": printed more than 1 MiB' '$work/err'"
exec_kubeconfig noisy ./noisy.sh
"$bin" list --kubeconfig "$work/noisy.yaml" > /dev/null 2> "$work/err"
code=$?
check "... on stderr too, of which at most 1 MiB is passed on" \
  bash -c "[ $code -eq 1 ] && tail -1 '$work/err' | grep -qx 'error: exec plugin \"$work/./noisy.sh\": printed more than 1 MiB on stderr' && [ \$(stat -c %s '$work/err') -lt 1100000 ]"

# A CA and insecure-skip-tls-verify together: refused before any request, as kubectl does.
sed "s|certificate-authority: ca.pem|certificate-authority: ca.pem\n    insecure-skip-tls-verify: true|" \
  "$api/kubeconfig" > "$api/insecure-ca.yaml"
ctl requests/reset > /dev/null
"$bin" list --kubeconfig "$api/insecure-ca.yaml" > /dev/null 2> "$work/err"
code=$?
check "a CA file with insecure-skip-tls-verify is refused (exit 1), with kubectl's words" \
  bash -c "[ $code -eq 1 ] && grep -qx 'error: specifying a root certificates file with the insecure flag is not allowed' '$work/err'"
check "... before any request" [ "$(request_count)" -eq 0 ]
kubectl --kubeconfig "$api/insecure-ca.yaml" get pods > /dev/null 2> "$work/kubectl.err"
check "... the line kubectl prints for the same kubeconfig" \
  grep -qx 'error: specifying a root certificates file with the insecure flag is not allowed' "$work/kubectl.err"
sed -e "s|certificate-authority: ca.pem|certificate-authority-data: $(base64 -w0 < "$api/ca.pem")\n    insecure-skip-tls-verify: true|" \
  "$api/kubeconfig" > "$api/insecure-ca-data.yaml"
"$bin" status x --kubeconfig "$api/insecure-ca-data.yaml" > /dev/null 2> "$work/err"
check "certificate-authority-data with insecure-skip-tls-verify is refused the same way" \
  grep -qx 'error: specifying a root certificates file with the insecure flag is not allowed' "$work/err"

# submit -> delete: exactly what submit applied, the inputs' ConfigMap and Secret included;
# the user's own objects labelled with the TrainJob's name stay.
cat "$src/templates/image.yaml" - > "$work/with-inputs.yaml" <<'YAML'
---
apiVersion: v1
kind: ConfigMap
metadata: {name: inputs-cm}
data: {a: b}
---
apiVersion: v1
kind: Secret
metadata: {name: inputs-secret}
stringData: {token: t}
YAML
"$bin" submit -f "$work/with-inputs.yaml" > "$work/submit.out" 2> "$work/err"
check "submit applies the inputs' ConfigMap and Secret with the TrainJob" \
  bash -c "grep -qx 'configmap/inputs-cm created' '$work/submit.out' && grep -qx 'secret/inputs-secret created' '$work/submit.out'"
# user_object KIND PLURAL NAME: the user's own object with the TrainJob's label.
user_object() {
  curl -sf --cacert "$api/ca.pem" --cert "$api/client.pem" --key "$api/client-key.pem" -X PATCH \
    -H 'Content-Type: application/apply-patch+yaml' \
    "$server/api/v1/namespaces/default/$2/$3?fieldManager=someone" \
    -d "{\"apiVersion\": \"v1\", \"kind\": \"$1\", \"metadata\": {\"name\": \"$3\", \"labels\": {\"trainer.kubeflow.org/trainjob-name\": \"trainjob-demo-with-image\"}}}"
}
user_object Secret secrets mine > /dev/null
user_object ConfigMap configmaps mine-cm > /dev/null
check "the user's own Secret and ConfigMap carry the TrainJob's label" \
  bash -c "[ \$(kubectl get secrets,configmaps -l trainer.kubeflow.org/trainjob-name=trainjob-demo-with-image -o name | wc -l) -eq 4 ]"
"$bin" delete trainjob-demo-with-image --wait > "$work/delete.out" 2> "$work/err"
check "delete exits 0" [ $? -eq 0 ]
check "delete removes what submit created: Job, Service, ConfigMap and Secret" diff - "$work/delete.out" <<'OUT'
job.batch "trainjob-demo-with-image-node-0" deleted
service "trainjob-demo-with-image" deleted
configmap "inputs-cm" deleted
secret "inputs-secret" deleted
OUT
check "... and leaves the user's own Secret and ConfigMap" \
  diff <(printf 'configmap/mine-cm\nsecret/mine\n') <(kubectl get configmaps,secrets -o name | sort)
"$bin" delete --help > "$work/help"
check "delete --help names the kinds it deletes" \
  bash -c "grep -q 'Jobs' '$work/help' && grep -q 'ConfigMaps and Secrets' '$work/help'"
finish
