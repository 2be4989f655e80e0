#!/usr/bin/env bash
# The oracle: upstream's own controllers make the pods of each input on a real control plane,
# the real Job controller makes ours from our render of the same input, and the two sets of
# pods (and Services, the ConfigMaps they read, PodGroups) are compared.
#
#   tests/oracle/run.sh [FILE...]
#
# The files given form one input set, as `render -f F1 -f F2` takes them; with none, the
# corpus runs (tests/oracle/inputs.py says which inputs). The plugin is $KUBECTL_TRAINJOB,
# else build/kubectl-trainjob. Each input prints `same`, `both refused`, `documented: ID` or
# `DIFF` with the differing fields; the last line counts them. Exit 0 only when no
# difference is unexplained. KEEP_WORK=1 keeps the work directory (each case's objects);
# ORACLE_LANES (e.g. "trainer mpi-operator") runs only those lanes' inputs.
#
# Inputs are grouped by lane (which controllers take them); each lane runs on a control plane
# of its own (tests/cluster/up.sh), since the Training Operator and mpi-operator both define
# mpijobs.kubeflow.org. All inputs of a lane are applied at once, each side in a namespace of
# its own, and read once every pod has settled.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
plugin=$(realpath "${KUBECTL_TRAINJOB:-$repo/build/kubectl-trainjob}")
[ -x "$plugin" ] || { echo "run.sh: no plugin at $plugin (build it, or set KUBECTL_TRAINJOB)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/trainjob-oracle.XXXXXX")
clusters=()
cleanup() {
  for cluster in ${clusters[@]+"${clusters[@]}"}; do "$repo/tests/cluster/down.sh" "$cluster"; done
  [ -n "${KEEP_WORK:-}" ] && echo "run.sh: kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

"$repo/tests/cluster/build.sh" >/dev/null
oracle_bin=$("$repo/tests/cluster/build_groups.sh" oracle)
upstream=$oracle_bin/trainer/upstream/trainer

# --- the inputs, each prepared in $work/cases/N ---------------------------------------------
if [ $# -gt 0 ]; then
  files=$(for file in "$@"; do realpath "$file"; done | python3 -c 'import json, sys; print(json.dumps([l.strip() for l in sys.stdin]))')
  echo "{\"id\": \"$*\", \"files\": $files, \"target\": \"\", \"runtimes\": \"\"}" >"$work/sets"
else
  python3 "$here/inputs.py" corpus "$repo" "$upstream" >"$work/sets"
fi
n=0
while IFS= read -r set; do
  n=$((n + 1))
  python3 "$here/inputs.py" prepare "$set" "$n" "$work/cases/$n"
done <"$work/sets"

# --- one lane on its control plane --------------------------------------------------------
kubectl() { "$cluster/bin/kubectl" --kubeconfig "$cluster/kubeconfig" "$@"; }

# start_controllers LANE: the controllers that take the lane's inputs, on $cluster.
start_controllers() {
  case $1 in
    trainer)
      "$here/start/trainer.sh" "$cluster"
      # Our own built-in runtimes that upstream does not ship, so that an input naming one
      # is compiled by upstream too.
      for name in cpp-trainer training-runtime-demo; do
        "$plugin" runtimes get "$name" --trainer-version 2.3 -o yaml
        echo ---
      done | kubectl apply -f - >/dev/null ;;
    training-operator*)
      local gang=${1#training-operator}
      GANG_SCHEDULER=${gang#-} "$here/start/training-operator.sh" "$cluster" ;;
    mpi-operator*)
      local gang=${1#mpi-operator}
      GANG_SCHEDULER=${gang#-} "$here/start/mpi-operator.sh" "$cluster" ;;
  esac
}

# stop_controllers: what start_controllers started (the cluster's own parts stay).
stop_controllers() {
  local file
  for file in "$cluster"/pids/*.pid; do
    case ${file##*/} in
      kwok.pid | kube-*.pid | etcd.pid) ;;
      *) kill "$(cat "$file")" 2>/dev/null || true; rm -f "$file" ;;
    esac
  done
  sleep 1
}

# prerequisites FILE...: what the inputs' pods need and assume exists, made in both namespaces
# (ServiceAccounts) or the cluster (PriorityClasses), so that both sides' pods are created.
prerequisites() {
  local up=$1 ours=$2 name
  shift 2
  for name in $(sed -n 's/^ *serviceAccountName: *["'\'']\{0,1\}\([a-z0-9.-]*\).*/\1/p' "$@" | sort -u); do
    [ "$name" = default ] || kubectl create serviceaccount "$name" -n "$up" >/dev/null 2>&1 || true
    [ "$name" = default ] || kubectl create serviceaccount "$name" -n "$ours" >/dev/null 2>&1 || true
  done
  for name in $(sed -n 's/^ *priorityClass\(Name\)\{0,1\}: *["'\'']\{0,1\}\([a-z0-9.-]*\).*/\2/p' "$@" | sort -u); do
    kubectl create priorityclass "$name" --value=1000 >/dev/null 2>&1 || true
  done
}

# apply_case N: both sides of case N in their namespaces; a side that refuses the input
# records why.
apply_case() {
  local case=$work/cases/$1 up=o$1-up ours=o$1-ours rendered=""
  echo "$up" >"$case/up.ns"
  echo "$ours" >"$case/ours.ns"
  # shellcheck disable=SC2046 # render-args is a list of words
  if "$plugin" render $(cat "$case/render-args") --generate-secrets -n "$ours" -f "$case/input.yaml" \
    >"$case/ours.yaml" 2>"$case/ours.err"; then
    rendered=1
  else
    mv "$case/ours.err" "$case/ours.refused"
  fi
  prerequisites "$up" "$ours" "$case/input.yaml" "$case/ours.yaml"
  # Upstream's webhook looks the runtime up in its controller's cache, which may not have the
  # runtime applied a moment before in the same file yet: then once more.
  if ! kubectl apply -n "$up" -f "$case/input.yaml" >/dev/null 2>"$case/up.err"; then
    if grep -q "must be created before the TrainJob is created" "$case/up.err" && sleep 2 &&
      kubectl apply -n "$up" -f "$case/input.yaml" >/dev/null 2>"$case/up.err"; then
      :
    else
      mv "$case/up.err" "$case/up.refused"
    fi
  fi
  if [ -n "$rendered" ]; then
    kubectl apply -n "$ours" -f "$case/ours.yaml" >/dev/null 2>"$case/ours.apply.err" ||
      { echo "the API server refused our render:"; cat "$case/ours.apply.err"; } >"$case/ours.refused"
  fi
}

# play_volcano: the part of Volcano's scheduler the operators wait for before they
# makes a gang's pods: each PodGroup without a phase is put in the queue (Inqueue).
play_volcano() {
  local group
  for group in $(kubectl get podgroups.scheduling.volcano.sh -A --no-headers \
    -o custom-columns=N:.metadata.namespace,P:.metadata.name,S:.status.phase | awk '$3 == "<none>" {print $1 "/" $2}'); do
    kubectl patch podgroups.scheduling.volcano.sh -n "${group%/*}" "${group#*/}" --type=merge \
      -p '{"status":{"phase":"Inqueue"}}' >/dev/null
  done
}

# play_kai: the part of KAI Scheduler the controllers wait for (an initializer that must
# complete before the nodes are made): each pod that names kai-scheduler is bound to a node
# as it comes, on both sides alike. KAI cannot be built here (docs/scheduling.md).
play_kai() {
  kubectl get pods -A --field-selector spec.schedulerName=kai-scheduler,spec.nodeName= -o json |
    python3 -c '
import json, sys
bindings = [{"apiVersion": "v1", "kind": "Binding",
             "metadata": {"name": p["metadata"]["name"], "namespace": p["metadata"]["namespace"]},
             "target": {"apiVersion": "v1", "kind": "Node", "name": "kwok-node-0"}}
            for p in json.load(sys.stdin)["items"]]
for binding in bindings:
    print(json.dumps(binding))' | while read -r binding; do
    kubectl create -f - <<<"$binding" >/dev/null 2>&1 || true  # one bound meanwhile: no matter
  done
}

# play_storage: the part of a storage provisioner the pods wait for: each claim still
# Pending gets a volume of its size bound to it, so that pods with claims (the torchtune
# runtimes' initializer volume) are scheduled and what waits on them plays out.
play_storage() {
  kubectl get persistentvolumeclaims -A -o json | python3 -c '
import json, sys
volumes = []
for claim in json.load(sys.stdin)["items"]:
    if claim.get("status", {}).get("phase") != "Pending":
        continue
    meta, spec = claim["metadata"], claim["spec"]
    volumes.append({"apiVersion": "v1", "kind": "PersistentVolume",
                    "metadata": {"name": "oracle-" + meta["uid"]},
                    "spec": {"capacity": {"storage": spec.get("resources", {}).get("requests", {}).get("storage", "1Gi")},
                             "accessModes": spec.get("accessModes", ["ReadWriteOnce"]),
                             "storageClassName": spec.get("storageClassName") or "",
                             "hostPath": {"path": "/oracle/" + meta["uid"]},
                             "claimRef": {"namespace": meta["namespace"], "name": meta["name"], "uid": meta["uid"]}}})
if volumes:
    print(json.dumps({"apiVersion": "v1", "kind": "List", "items": volumes}))' >"$work/volumes.json"
  [ ! -s "$work/volumes.json" ] || kubectl apply -f "$work/volumes.json" >/dev/null
}

# settle: waits until no pod of the cluster has changed (created, or its phase) for 12 s, or
# 180 s in all. (8 s once read the legacy lane before the Training Operator had made the pods
# of a gang-scheduled PyTorchJob.)
settle() {
  local last="" now quiet=0 deadline=$((SECONDS + 180))
  while [ $SECONDS -lt $deadline ] && [ $quiet -lt 6 ]; do
    sleep 2
    [[ ${lane:-} != *-volcano ]] || play_volcano
    [ "${lane:-}" != trainer ] || unwedge_trainer
    play_storage
    play_kai
    now=$(kubectl get pods -A --no-headers -o custom-columns=N:.metadata.namespace,P:.metadata.name,S:.status.phase | sha256sum)
    if [ "$now" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0; fi
    last=$now
  done
}

# restart NAME: the controller recorded as NAME stopped and started again as it was (its
# arguments and environment), its log continued; what else runs (JobSet, the webhooks) stays.
# A controller stuck in a reconcile does not stop by itself: it is killed after 10 s, and the
# new one starts once the old one is gone (it holds the ports the new one listens on).
restart() {
  local pid argv=() environ=() try
  pid=$(cat "$cluster/pids/$1.pid")
  mapfile -d '' argv <"/proc/$pid/cmdline"
  mapfile -d '' environ <"/proc/$pid/environ"
  kill "$pid"
  for try in $(seq 150); do
    kill -0 "$pid" 2>/dev/null || break
    [ "$try" -ne 100 ] || kill -KILL "$pid"
    sleep 0.1
  done
  for try in 1 2 3; do
    setsid env -i "${environ[@]}" "${argv[@]}" </dev/null >>"$cluster/logs/$1.log" 2>&1 &
    echo $! >"$cluster/pids/$1.pid"
    sleep 3
    kill -0 "$(cat "$cluster/pids/$1.pid")" 2>/dev/null && return 0
  done
  echo "run.sh: $1 did not start again; its log: $cluster/logs/$1.log" >&2
  return 1
}

# unwedge_trainer: the Trainer reconciles one TrainJob at a time, so one whose reconcile
# never ends (upstream hangs on it, growing meanwhile) leaves every later TrainJob without its
# JobSet. A reconcile still running after 20 s is recorded as one upstream hangs on, its
# TrainJob deleted and the Trainer restarted.
unwedge_trainer() {
  local stuck
  stuck=$(python3 "$here/controller_log.py" stuck "$cluster/logs/trainer.log" 20)
  [ -n "$stuck" ] && [ -n "$(kubectl get trainjobs -n "$stuck" -o name)" ] || return 0
  [ -z "$(kubectl get jobsets -n "$stuck" -o name)" ] || return 0
  echo "upstream's Trainer never finished reconciling it, and reconciled no other TrainJob until restarted" \
    >"$work/cases/${stuck//[^0-9]/}/up.hung"
  kubectl delete trainjobs --all -n "$stuck" --wait=false >/dev/null
  restart trainer
}

run_lane() {
  local lane=$1 cases=("${@:2}")
  echo "run.sh: lane $lane: ${#cases[@]} inputs" >&2
  {
    for i in "${cases[@]}"; do
      printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: o%s-up}\n---\n' "$i"
      printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: o%s-ours}\n---\n' "$i"
    done
  } | kubectl apply -f - >/dev/null
  # Pods wait for their namespace's default service account, which the controller manager makes.
  local deadline=$((SECONDS + 60))
  until [ "$(kubectl get serviceaccounts -A --field-selector metadata.name=default --no-headers |
    grep -c '^o[0-9]*-')" -ge $((2 * ${#cases[@]})) ] || [ $SECONDS -gt $deadline ]; do sleep 0.5; done
  local applied=0
  for i in "${cases[@]}"; do
    apply_case "$i"
    applied=$((applied + 1))
    [ "$lane" != trainer ] || [ $((applied % 10)) -ne 0 ] || unwedge_trainer
  done
  settle
  # What is compared, and what says why a side made no pods (the jobs' status, the events).
  local kinds=pods,services,configmaps,secrets,podgroups.scheduling.x-k8s.io,podgroups.scheduling.volcano.sh,events
  case $lane in
    trainer) kinds+=,trainjobs.trainer.kubeflow.org,jobsets.jobset.x-k8s.io ;;
    training-operator*) kinds+=,pytorchjobs,tfjobs,xgboostjobs,paddlejobs,jaxjobs,mpijobs ;;
    mpi-operator*) kinds+=,mpijobs ;;
  esac
  kubectl get "$kinds" -A -o json >"$work/$lane.json"
  python3 - "$work/$lane.json" "$work/cases" "${cases[@]}" <<'PY'
import json, sys
items = json.load(open(sys.argv[1]))["items"]
for i in sys.argv[3:]:
    for side in ("up", "ours"):
        ns = f"o{i}-{side}"
        mine = [x for x in items if x["metadata"].get("namespace") == ns]
        with open(f"{sys.argv[2]}/{i}/{side}.json", "w") as out:
            json.dump({"items": mine}, out)
PY
  # What upstream's controllers logged against each input: a JobSet their webhook refused, a panic.
  python3 "$here/controller_log.py" errors $(ls "$cluster"/logs/*.log | grep -v '/\(kube-\|etcd\|kwok\|audit\)') |
    python3 -c 'import json, sys
for ns, errors in json.load(sys.stdin).items():
    if ns.startswith("o") and ns.endswith("-up"):
        open(f"{sys.argv[1]}/{ns[1:-3]}/up.errors", "w").write("\n".join(errors) + "\n")' "$work/cases"
  kubectl delete namespace $(for i in "${cases[@]}"; do echo "o$i-up o$i-ours"; done) --wait=false >/dev/null
}

# Lanes in a fixed order; each operator's lanes share one control plane, the operator
# restarted with each gang scheduler.
declare -A lane_cases
for case in "$work"/cases/*/; do
  i=$(basename "$case")
  lane_cases[$(cat "$case/lane")]+=" $i"
done
for cp in trainer training-operator mpi-operator; do
  cluster=$work/cp-$cp
  started=""
  for lane in trainer training-operator{,-volcano,-scheduler-plugins} mpi-operator{,-volcano,-scheduler-plugins}; do
    [[ $lane == "$cp"* ]] && [ -n "${lane_cases[$lane]:-}" ] || continue
    [[ " ${ORACLE_LANES:-$lane} " == *" $lane "* ]] || continue
    if [ -z "$started" ]; then
      # Room for every pod of every input at once: what waits on Ready (an MPI launcher)
      # must not wait on another input's pods.
      POD_STAGES=$here/pod-stages.yaml NODE_CAPACITY='{"cpu": "100k", "memory": "1000Ti", "pods": "5000", "nvidia.com/gpu": "10k", "amd.com/gpu": "10k", "example.com/gpu": "10k", "custom.com/gpu": "10k"}' \
        "$repo/tests/cluster/up.sh" "$cluster" >/dev/null
      clusters+=("$cluster")
      # KAI's PodGroup, which render emits for pods that name kai-scheduler: a stand-in CRD,
      # since KAI's module cannot be had here (docs/scheduling.md).
      kubectl apply --server-side -f "$cluster/crds/" -f "$repo/tests/cluster/kai-podgroup-crd.yaml" >/dev/null
      started=1
    else
      stop_controllers
    fi
    start_controllers "$lane"
    # shellcheck disable=SC2086 # the lane's case numbers
    run_lane "$lane" ${lane_cases[$lane]}
  done
  if [ -n "$started" ]; then
    "$repo/tests/cluster/down.sh" "$cluster"
    clusters=("${clusters[@]/$cluster/}")
  fi
done

# --- the verdicts -------------------------------------------------------------------------
versions=$(python3 "$here/versions.py" "$here/modules")
same=0 documented=0 unexplained=0 total=0
for case in $(ls "$work/cases" | sort -n); do
  dir=$work/cases/$case
  [ -f "$dir/up.ns" ] || continue  # its lane did not run
  total=$((total + 1))
  verdict=$(python3 "$here/compare.py" "$dir") || true
  echo "$(cat "$dir/id"): $verdict"
  case $verdict in
    same* | both\ refused*) same=$((same + 1)) ;;
    documented*) documented=$((documented + 1)) ;;
    *) unexplained=$((unexplained + 1)) ;;
  esac
done
echo "$total compared with upstream $versions: $same same, $documented documented, $unexplained unexplained"
[ "$unexplained" -eq 0 ]
