#!/usr/bin/env bash
# The Argo CD Config Management Plugin (dist/argocd/plugin.yaml): its discover and
# generate commands run as Argo CD's cmp-server runs them (argv = command + args, cwd =
# the Application directory, Argo's build env plus ARGOCD_ENV_* and PARAM_*), with
# kubectl-trainjob found on PATH; and the repo-server sidecar patch applied by kubectl.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

plugin="$source_dir/dist/argocd/plugin.yaml"
mkdir "$work/bin"
ln -s "$(realpath "$binary")" "$work/bin/kubectl-trainjob"
export PATH="$work/bin:$PATH"

# run_cmp STEP APP_DIR: runs spec.discover.find or spec.generate of the plugin in APP_DIR,
# exactly as cmp-server does; stdout, stderr and the exit status are the command's.
run_cmp() {
  python3 - "$plugin" "$1" "$2" <<'PY'
import os, subprocess, sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
assert config["apiVersion"] == "argoproj.io/v1alpha1", config["apiVersion"]
assert config["kind"] == "ConfigManagementPlugin", config["kind"]
spec = config["spec"]
step = spec["discover"]["find"] if sys.argv[2] == "discover" else spec["generate"]
argv = step["command"] + step.get("args", [])
sys.exit(subprocess.run(argv, cwd=sys.argv[3], env=os.environ).returncode)
PY
}

# The build environment Argo CD gives every plugin command.
export ARGOCD_APP_NAME=training ARGOCD_APP_NAMESPACE=ml-team ARGOCD_APP_REVISION=0123abc
export ARGOCD_APP_SOURCE_PATH=jobs ARGOCD_APP_SOURCE_REPO_URL=https://git.example.com/ml.git
export ARGOCD_APP_SOURCE_TARGET_REVISION=HEAD KUBE_VERSION=1.32.0 KUBE_API_VERSIONS=v1,batch/v1

app="$work/app"
mkdir "$app"
cp "$source_dir/templates/image.yaml" "$source_dir/templates/print-env.yaml" "$app/"
printf 'README for the team\n' >"$app/README.md"

# Discover: matches a directory with TrainJobs, not one without.
check "discover matches a directory of TrainJobs" \
  test -n "$(run_cmp discover "$app")"
mkdir "$work/plain"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n' >"$work/plain/cm.yaml"
check "discover does not match a directory without training jobs" \
  test -z "$(run_cmp discover "$work/plain")"
printf '{"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob"}\n' >"$work/plain/job.json"
check "discover matches a JSON PyTorchJob" test "$(run_cmp discover "$work/plain")" = job.json

# Generate: the YAML stream of every Job, in the Application's namespace.
run_cmp generate "$app" >"$work/out.yaml" 2>"$work/err"
check "generate exits 0" test $? -eq 0
check "generate prints nothing on stderr" test ! -s "$work/err"
python3 - "$work/out.yaml" >"$work/objects" <<'PY'
import sys, yaml
for doc in yaml.safe_load_all(open(sys.argv[1])):
    meta = doc["metadata"]
    print(doc["kind"], meta.get("namespace", "-"), meta["name"])
PY
check "generate prints a valid YAML stream" test $? -eq 0
check "generate prints the Jobs of both TrainJobs in the app namespace" \
  test "$(grep -c '^Job ml-team ' "$work/objects")" -eq 2
check "the image TrainJob's node Job is there" \
  grep -qx 'Job ml-team trainjob-demo-with-image-node-0' "$work/objects"
check "the headless Services are there" \
  grep -qx 'Service ml-team print-env' "$work/objects"
check "nothing is rendered into another namespace" \
  test -z "$(grep -v ' ml-team ' "$work/objects" | grep -v '^ConfigMap - ')"
check "generate prints what render -n prints" \
  cmp -s "$work/out.yaml" <(cd "$app" && kubectl-trainjob render -f . -n ml-team --gitops-order argocd)
check "... with sync waves, and without the Jobs' TTL (Argo CD would re-create them)" \
  bash -c "grep -q 'argocd.argoproj.io/sync-wave' '$work/out.yaml' && ! grep -q ttlSecondsAfterFinished '$work/out.yaml'"

# Parameters: PARAM_* (the Application's spec.source.plugin.parameters) win over
# ARGOCD_ENV_* (spec.source.plugin.env), which win over the destination namespace.
ARGOCD_ENV_TRAINJOB_NAMESPACE=from-env run_cmp generate "$app" >"$work/env.yaml"
check "ARGOCD_ENV_TRAINJOB_NAMESPACE sets the namespace" \
  grep -q '^  namespace: from-env$' "$work/env.yaml"
PARAM_NAMESPACE=from-param ARGOCD_ENV_TRAINJOB_NAMESPACE=from-env \
  run_cmp generate "$app" >"$work/param.yaml"
check "PARAM_NAMESPACE wins" test "$(grep -c '^  namespace: from-param$' "$work/param.yaml")" -gt 0
check "... and nothing else is used" test "$(grep -c 'from-env' "$work/param.yaml")" -eq 0
PARAM_TRAINER_VERSION=2.1 run_cmp generate "$app" >"$work/v21.yaml"
check "PARAM_TRAINER_VERSION is passed on" \
  cmp -s "$work/v21.yaml" <(cd "$app" &&
    kubectl-trainjob render -f . -n ml-team --gitops-order argocd --trainer-version 2.1)
PARAM_TRAINER_VERSION=9.9 run_cmp generate "$app" >/dev/null 2>"$work/v99.err"
check "an unknown trainer version fails generate" test $? -ne 0
mkdir "$app/more"
cp "$source_dir/templates/hostpath.yaml" "$app/more/"
run_cmp generate "$app" >"$work/flat.yaml"
PARAM_RECURSIVE=true run_cmp generate "$app" >"$work/deep.yaml" 2>/dev/null
check "subdirectories are read only with the recursive parameter" \
  test "$(grep -c '^kind: Job$' "$work/flat.yaml")" -eq 2 -a \
  "$(grep -c '^kind: Job$' "$work/deep.yaml")" -eq 3

# A bad TrainJob fails generate with the located error on stderr and no manifests.
sed 's/numNodes: 2/numNodes: 0/' "$source_dir/templates/image.yaml" >"$app/image.yaml"
run_cmp generate "$app" >"$work/bad.yaml" 2>"$work/bad.err"
check "a bad TrainJob makes generate exit non-zero" test $? -ne 0
check "its error names file, line, column and field" \
  grep -q '^\./image.yaml:[0-9]*:[0-9]*: error: spec.trainer.numNodes: ' "$work/bad.err"
check "and nothing is printed on stdout" test ! -s "$work/bad.yaml"

# The sidecar patch of docs/gitops.md, applied to a repo-server Deployment by kubectl.
cat >"$work/repo-server.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: argocd-repo-server
spec:
  selector:
    matchLabels: {app: repo}
  template:
    metadata:
      labels: {app: repo}
    spec:
      containers:
        - name: argocd-repo-server
          image: quay.io/argoproj/argocd:latest
      volumes:
        - {name: var-files, emptyDir: {}}
        - {name: plugins, emptyDir: {}}
YAML
kubectl patch --local -f "$work/repo-server.yaml" --type strategic -o json \
  --patch-file "$source_dir/dist/argocd/repo-server-patch.yaml" >"$work/patched.json"
check "kubectl applies the sidecar patch" test $? -eq 0
python3 - "$work/patched.json" <<'PY'
import json, sys
pod = json.load(open(sys.argv[1]))["spec"]["template"]["spec"]
names = [c["name"] for c in pod["containers"]]
assert names == ["kubectl-trainjob", "argocd-repo-server"], names
sidecar = pod["containers"][0]
assert sidecar["command"] == ["/var/run/argocd/argocd-cmp-server"]
assert sidecar["securityContext"]["runAsUser"] == 999
mounts = {m["mountPath"]: m for m in sidecar["volumeMounts"]}
config = mounts["/home/argocd/cmp-server/config/plugin.yaml"]
assert config["subPath"] == "plugin.yaml", config
volumes = {v["name"]: v for v in pod["volumes"]}
assert volumes[config["name"]]["configMap"]["name"] == "kubectl-trainjob-cmp"
for path in ("/var/run/argocd", "/home/argocd/cmp-server/plugins", "/tmp"):
    assert mounts[path]["name"] in volumes, path
PY
check "the sidecar runs cmp-server with plugin.yaml mounted where Argo CD reads it" \
  test $? -eq 0

finish
