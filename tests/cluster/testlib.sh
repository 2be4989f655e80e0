# Sourced by the control-plane tests, after tests/e2e/lib.sh. `use_control_plane` puts the
# test on the real control plane of tests/cluster/up.sh: the one ctest's `control_plane`
# fixture started (its directory in $TRAINJOB_CLUSTER), or, when a test runs on its own, one
# it starts under $work and stops at exit. Each test works in a namespace of its own, so that
# tests sharing the cluster never see each other's objects; KUBECONFIG points at a copy of
# the admin's kubeconfig whose context is that namespace, and `kubectl` is the cluster's own
# release.
cluster_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

use_control_plane() {
  if [ -n "${TRAINJOB_CLUSTER:-}" ]; then
    cluster=$TRAINJOB_CLUSTER
  else
    cluster=$work/cluster
    "$cluster_lib/up.sh" "$cluster" >/dev/null || exit 1
  fi
  PATH=$cluster/bin:$PATH
  ns=t-$(basename "$0" | sed 's/_test\.sh$//; s/\.sh$//' | tr _ - | cut -c1-40)-$(openssl rand -hex 3)
  cp "$cluster/kubeconfig" "$work/kubeconfig"
  cp "$cluster/developer.kubeconfig" "$work/developer.kubeconfig"
  kubectl --kubeconfig "$work/kubeconfig" config set-context --current --namespace "$ns" >/dev/null
  kubectl --kubeconfig "$work/developer.kubeconfig" config set-context --current --namespace "$ns" >/dev/null
  export KUBECONFIG=$work/kubeconfig
  trap 'control_plane_cleanup' EXIT
  kubectl create namespace "$ns" >/dev/null
  # Pods cannot be created before the namespace's default service account exists.
  eventually kubectl get serviceaccount default >/dev/null 2>&1 ||
    { echo "no default service account in $ns" >&2; exit 1; }
  audit_log=$cluster/logs/audit.log
}

# use_own_control_plane: use_control_plane on a control plane of the test's own, under
# $work/cluster, started with the environment's up.sh settings (FEATURE_GATES,
# RUNTIME_CONFIG, NODES, NODE_CAPACITY, POD_STAGES) and stopped at exit: for a test that
# turns on gates or runs a second scheduler or a queue controller, which would change what
# the other tests on the shared control plane see.
use_own_control_plane() {
  unset TRAINJOB_CLUSTER
  use_control_plane
}

control_plane_cleanup() {
  kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
  [ -n "${TRAINJOB_CLUSTER:-}" ] || "$cluster_lib/down.sh" "$cluster"
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}

# eventually COMMAND...: true once COMMAND succeeds, polling for up to 30 seconds; for states
# that the controllers reach in their own time.
eventually() {
  for _ in $(seq 150); do "$@" && return 0; sleep 0.2; done
  return 1
}

# pods_running JOB N: true when Job JOB has N running pods.
pods_running() {
  [ "$(kubectl get pods -l "job-name=$1" --field-selector status.phase=Running -o name | wc -l)" -eq "$2" ]
}

# log_served POD: true once the API server serves POD's log (kwok has taken the pod).
log_served() { kubectl logs "$1" > /dev/null 2>&1; }

# add_kwok_node NAME [PODS]: one more node, played by kwok as up.sh's are: 32 CPUs, 256Gi of
# memory and room for PODS pods (default 110).
add_kwok_node() {
  kubectl create -f - >/dev/null <<YAML
apiVersion: v1
kind: Node
metadata:
  name: $1
  annotations: {kwok.x-k8s.io/node: fake}
  labels: {kubernetes.io/hostname: $1, type: kwok}
status:
  capacity: {cpu: "32", memory: 256Gi, pods: "${2:-110}"}
  allocatable: {cpu: "32", memory: 256Gi, pods: "${2:-110}"}
YAML
}

# kueue_queue QUOTA [SUFFIX [FLAVOR]]: Kueue's ClusterQueue cqSUFFIX, open to every namespace,
# with QUOTA CPUs of ResourceFlavor FLAVOR, and the LocalQueue lqSUFFIX on it in the test's
# namespace. Without FLAVOR, the flavor is `default`, made here, which any node has.
kueue_queue() {
  {
    [ -n "${3:-}" ] || printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default}\n---\n'
    cat <<YAML
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq${2:-}}
spec:
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: [cpu]
      flavors:
        - name: ${3:-default}
          resources: [{name: cpu, nominalQuota: $1}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq${2:-}, namespace: $ns}
spec: {clusterQueue: cq${2:-}}
YAML
  } | kubectl apply -f - >/dev/null
}

# pod_logs POD TEXT [CONTAINER]: kwok serves TEXT (lines) as the pod's log, to kubectl logs and
# to us alike through the API server; appending to $work/logs/POD.log later extends it (a
# follower sees the new lines).
pod_logs() {
  mkdir -p "$work/logs"
  local file=$work/logs/$1.log
  printf '%s\n' "$2" | cri_lines >"$file"
  kubectl apply -f - >/dev/null <<YAML
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Logs
metadata:
  name: $1
spec:
  logs:
  - containers: [${3:-}]
    logsFile: $file
    follow: true
YAML
}
# cri_lines: stdin's lines in the CRI log format kwok reads (timestamp, stream, tag, text).
cri_lines() {
  local line
  while IFS= read -r line; do
    printf '%s stdout F %s\n' "$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)" "$line"
  done
}

# audit_mark, then audit_requests [USER-AGENT-PREFIX]: the API requests made in this test's
# namespace since the mark (by the plugin, unless another user agent prefix is given), one
# "VERB RESOURCE[/SUBRESOURCE] [NAME]" line each, from the API server's audit log.
audit_mark() { audit_from=$(($(wc -l <"$audit_log") + 1)); }
audit_requests() {
  tail -n +"$audit_from" "$audit_log" | python3 -c '
import json, sys
agent, ns = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    e = json.loads(line)
    ref = e.get("objectRef", {})
    if e.get("stage") != "ResponseComplete" or ref.get("namespace") != ns:
        continue
    if not e.get("userAgent", "").startswith(agent):
        continue
    resource = ref.get("resource", "") + ("/" + ref["subresource"] if ref.get("subresource") else "")
    dry = " dryRun" if "dryRun=All" in e.get("requestURI", "") else ""
    print(e["verb"], resource, ref.get("name", "") + dry)
' "${1:-kubectl-trainjob/}" "$ns"
}

# three_step_runtime [DATASET [MODEL [NODE]]]: on stdout, the ClusterTrainingRuntime
# "three-step": two initializer Jobs, then the trainer's node Job, which depends on both
# (under submit --wait); no Job retries a failed pod (backoffLimit 0). Each argument, a YAML
# flow map, is that step's pod annotations (kwok's test.kubectl-trainjob/duration, exit-code).
three_step_runtime() {
  local dataset=${1:-'{}'} model=${2:-'{}'} node=${3:-'{}'}
  cat <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: three-step
spec:
  mlPolicy:
    numNodes: 1
  template:
    spec:
      replicatedJobs:
        - name: dataset-initializer
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer
            spec:
              backoffLimit: 0
              template:
                metadata:
                  annotations: $dataset
                spec:
                  restartPolicy: Never
                  containers:
                    - name: dataset-initializer
                      image: ghcr.io/kubeflow/trainer/dataset-initializer
        - name: model-initializer
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: model-initializer
            spec:
              backoffLimit: 0
              template:
                metadata:
                  annotations: $model
                spec:
                  restartPolicy: Never
                  containers:
                    - name: model-initializer
                      image: ghcr.io/kubeflow/trainer/model-initializer
        - name: node
          dependsOn:
            - name: dataset-initializer
              status: Complete
            - name: model-initializer
              status: Complete
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              backoffLimit: 0
              template:
                metadata:
                  annotations: $node
                spec:
                  restartPolicy: Never
                  containers:
                    - name: node
                      image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime
YAML
}

# tune_trainjob [DATASET [MODEL [NODE]]]: on stdout, three_step_runtime with those arguments
# and the TrainJob "tune" of two nodes on it.
tune_trainjob() {
  three_step_runtime "$@"
  cat <<'YAML'
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: tune
spec:
  runtimeRef:
    kind: ClusterTrainingRuntime
    name: three-step
  trainer:
    numNodes: 2
YAML
}

# one_step_runtime NAME [ANNOTATIONS [JOB_SPEC [NODE_SELECTOR]]]: on stdout, the
# ClusterTrainingRuntime NAME: the torch policy, one `node` step whose Job spec has the lines
# JOB_SPEC (default `backoffLimit: 0`: no failed pod retried), pods that restart Never with no
# resource requests. ANNOTATIONS (kwok's test.kubectl-trainjob/duration, exit-code,
# exit-index) and NODE_SELECTOR are YAML flow maps.
one_step_runtime() {
  local annotations="{}" selector="{}"
  [ -z "${2:-}" ] || annotations=$2
  [ -z "${4:-}" ] || selector=$4
  cat <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: $1
spec:
  mlPolicy:
    numNodes: 1
    torch: {}
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
YAML
  printf '%s\n' "${3:-backoffLimit: 0}" | sed 's/^/              /'
  cat <<YAML
              template:
                metadata:
                  annotations: $annotations
                spec:
                  nodeSelector: $selector
                  restartPolicy: Never
                  containers:
                    - name: node
                      image: trainer:1
                      command: [train]
YAML
}

# one_step_trainjob NAME NODES [ANNOTATIONS [NODE_SELECTOR [JOB_SPEC]]]: on stdout, the
# TrainJob NAME of NODES nodes and its one_step_runtime NAME.
one_step_trainjob() {
  one_step_runtime "$1" "${3:-}" "${5:-}" "${4:-}"
  cat <<YAML
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: $1
spec:
  runtimeRef:
    name: $1
  trainer:
    numNodes: $2
YAML
}

# job_pod JOB [INDEX]: the name of the newest pod of Job JOB (at completion INDEX if given).
job_pod() {
  kubectl get pods -l "job-name=$1${2:+,batch.kubernetes.io/job-completion-index=$2}" \
    --sort-by=.metadata.creationTimestamp -o jsonpath='{.items[-1:].metadata.name}'
}

# end_pod POD [EXIT_CODE]: the running pod POD ends now, Succeeded, or Failed with EXIT_CODE
# (kwok reads a pod's test.kubectl-trainjob annotations again when they change).
end_pod() {
  kubectl annotate pod "$1" --overwrite test.kubectl-trainjob/duration=0s \
    ${2:+test.kubectl-trainjob/exit-code=$2} >/dev/null
}

# on_new_pods SELECTOR FIELDS HANDLER: from now until the test exits, a background watch runs
# `HANDLER POD WORD...` once for each pod of the namespace that matches the label SELECTOR,
# as soon as it appears; the words are FIELDS (a kubectl jsonpath template, such as
# '{.spec.nodeName}') of that pod, split at spaces. For what a kubelet would do as a pod
# starts: serve its log (pod_logs), make it fail (end_pod). The processes it starts are
# killed at exit, with any other whose pid the test adds to $background_pids.
on_new_pods() {
  local fifo=$work/pods.$RANDOM$RANDOM
  mkfifo "$fifo"
  kubectl get pods -l "$1" --watch -o "jsonpath={.metadata.name} $2{\"\n\"}" >"$fifo" 2>/dev/null &
  background_pids="${background_pids:-} $!"
  (
    seen=" "
    while read -r pod words; do
      case $seen in *" $pod "*) continue ;; esac
      seen="$seen$pod "
      # shellcheck disable=SC2086 # the fields are words
      "$3" "$pod" $words
    done <"$fifo"
  ) &
  background_pids="$background_pids $!"
  trap 'kill $background_pids 2>/dev/null; control_plane_cleanup' EXIT
}

# audit_users: the users (user.username) the API server saw making the plugin's requests in
# this test's namespace since audit_mark, one per line, each once: which credentials of the
# kubeconfig the plugin used.
audit_users() {
  tail -n +"$audit_from" "$audit_log" | python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if (e.get("stage") == "ResponseComplete" and e.get("objectRef", {}).get("namespace") == sys.argv[1]
            and e.get("userAgent", "").startswith("kubectl-trainjob/")):
        print(e["user"]["username"])
' "$ns" | sort -u
}

# record_changes RESOURCE: from now until the test exits, every change of every RESOURCE (pods,
# jobs) of the namespace, one line each in $work/RESOURCE.changes: "RESOURCE_VERSION NAME
# TRUE_CONDITION...". The resource versions order the changes of pods and Jobs alike;
# first_change FILE NAME_REGEX [CONDITION] prints the first one of a matching name (with
# CONDITION true), for "was X created only after Y was Ready".
record_changes() {
  kubectl get "$1" --watch -o jsonpath='{.metadata.resourceVersion} {.metadata.name} {.status.conditions[?(@.status=="True")].type}{"\n"}' \
    >"$work/$1.changes" 2>/dev/null &
  background_pids="${background_pids:-} $!"
  trap 'kill $background_pids 2>/dev/null; control_plane_cleanup' EXIT
}
first_change() {
  awk -v name="$2" -v condition="${3:-}" '$2 ~ name {
      for (i = 3; i <= NF; i++) if ($i == condition) break
      if (condition == "" || i <= NF) { print $1; exit } }' "$1"
}
