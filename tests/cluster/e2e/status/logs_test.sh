#!/bin/bash
# logs on the real control plane, each pod's log served by kwok through the API server as a
# kubelet serves it: every pod at once in whole prefixed lines, one node, the filters, -f
# following lines as they are written, 16 pods at once; kubectl logs reads the same text.
# A step or container that is not there fails at once naming those that are; --all-containers;
# a pod in CrashLoopBackOff points to -p.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/cluster/testlib.sh"
use_control_plane
logs() { "$bin" logs "$@" > "$work/out" 2> "$work/err"; }

one_step_trainjob lg 2 '{test.kubectl-trainjob/duration: 1h}' | "$bin" submit -f - > /dev/null
one_step_trainjob wide 16 '{test.kubectl-trainjob/duration: 1h}' | "$bin" submit -f - > /dev/null
eventually pods_running lg-node-0 2
p0=$(job_pod lg-node-0 0)
p1=$(job_pod lg-node-0 1)
pod_logs "$p1" "epoch 1 loss 0.8
epoch 2 loss 0.4"
pod_logs "$p0" ""
# node-0's first line is two hours old, for --since.
{
  printf '%s stdout F epoch 0 loss 1.3\n' "$(date -u -d '-2 hours' +%Y-%m-%dT%H:%M:%S.%NZ)"
  printf '%s\n' "epoch 1 loss 0.9" "epoch 2 loss 0.5" | cri_lines
} > "$work/logs/$p0.log"
eventually log_served "$p0" && eventually log_served "$p1"

logs lg
check "all pods, each line prefixed with its node" diff - "$work/out" <<'OUT'
[node-0] epoch 0 loss 1.3
[node-0] epoch 1 loss 0.9
[node-0] epoch 2 loss 0.5
[node-1] epoch 1 loss 0.8
[node-1] epoch 2 loss 0.4
OUT
logs lg --node 1
check "--node: one pod, no prefix, the text kubectl logs reads" diff <(kubectl logs "$p1") "$work/out"
check "... which is the pod's log" diff <(printf 'epoch 1 loss 0.8\nepoch 2 loss 0.4\n') "$work/out"
logs lg --node 1 --prefix --tail 1
check "--prefix and --tail" diff <(printf '[node-1] epoch 2 loss 0.4\n') "$work/out"
logs lg --node 0 --timestamps
check "--timestamps: the log's own times, as kubectl logs --timestamps prints them" \
  diff <(kubectl logs "$p0" --timestamps) "$work/out"
check "... RFC 3339 times first" bash -c "[ \$(grep -cE '^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z epoch [0-2] loss' '$work/out') -eq 3 ]"
logs lg --since 1h --node 0
check "--since leaves out older lines, as kubectl logs --since does" \
  bash -c "diff <(kubectl logs '$p0' --since=1h) '$work/out' && diff <(printf 'epoch 1 loss 0.9\nepoch 2 loss 0.5\n') '$work/out'"
logs lg --step dataset-initializer
check "a step the job does not have is an error naming the steps it has" \
  bash -c "[ $? -eq 1 ] && grep -qx 'error: TrainJob lg: no step \"dataset-initializer\"; its steps are node' '$work/err'"
logs lg --step NODE --node 1
check "--step matches the step's name ignoring case" diff <(kubectl logs "$p1") "$work/out"

# --- -c: a container the pods do not have fails at once, with and without -f -------------------
logs lg -c nosuch
check "-c NOSUCH: exit 1 at once, naming the containers there are" \
  bash -c "[ $? -eq 1 ] && grep -qx 'error: container nosuch is not valid for the pods of job.batch/lg-node-0: their containers are node' '$work/err' && [ ! -s '$work/out' ]"
check "... as kubectl logs refuses it" \
  bash -c "kubectl logs '$p0' -c nosuch 2>&1 | grep -q 'container nosuch is not valid for pod $p0'"
timeout 10 "$bin" logs lg -f -c nosuch > "$work/out" 2> "$work/err"
check "-f -c NOSUCH: the same error, no wait" \
  bash -c "[ $? -eq 1 ] && grep -q '^error: container nosuch is not valid' '$work/err'"

# --- --all-containers: every container of each pod, init containers first -------------------------
sed 's/^\(                  containers:\)$/                  initContainers:\n                    - {name: fetch, image: busybox}\n\1\n                    - {name: sidecar, image: busybox}/' \
  <(one_step_trainjob multi 1 '{test.kubectl-trainjob/duration: 1h}') | "$bin" submit -f - > /dev/null
eventually pods_running multi-node-0 1
pm=$(job_pod multi-node-0)
mkdir -p "$work/logs"
echo fetched | cri_lines > "$work/logs/fetch.log"
echo "epoch 1" | cri_lines > "$work/logs/node.log"
echo "proxy up" | cri_lines > "$work/logs/sidecar.log"
kubectl apply -f - > /dev/null <<YAML
apiVersion: kwok.x-k8s.io/v1alpha1
kind: Logs
metadata:
  name: $pm
spec:
  logs:
  - {containers: [fetch], logsFile: $work/logs/fetch.log}
  - {containers: [node], logsFile: $work/logs/node.log}
  - {containers: [sidecar], logsFile: $work/logs/sidecar.log}
YAML
for c in fetch node sidecar; do
  eventually bash -c "[ -n \"\$(kubectl logs '$pm' -c $c 2> /dev/null)\" ]"
done
logs multi --all-containers
check "--all-containers: each container's lines in the pod's order, init containers first, prefixed node/container" \
  diff - "$work/out" <<'OUT'
[node-0/fetch] fetched
[node-0/sidecar] proxy up
[node-0/node] epoch 1
OUT
# kubectl reads the containers' logs from a Go map, in no set order: the lines are compared.
check "... the text kubectl logs --all-containers reads" \
  diff <(kubectl logs "$pm" --all-containers | sort) <(sed 's/^\[[^]]*\] //' "$work/out" | sort)
logs multi -c sidecar
check "-c names a container of the pods" diff <(printf 'proxy up\n') "$work/out"
logs multi --all-containers -c node
check "--all-containers with -c is a usage error" [ $? -eq 2 ]

# --- -f: lines appended to both pods' logs while it follows --------------------------------------
"$bin" logs lg -f > "$work/follow.out" 2> "$work/follow.err" &
follower=$!
eventually bash -c "[ \$(wc -l < '$work/follow.out') -ge 5 ]"
for n in 3 4 5; do
  echo "epoch $n loss 0.$((9 - n))" | cri_lines >> "$work/logs/$p0.log"
  echo "epoch $n loss 0.$((8 - n)) with a longer text" | cri_lines >> "$work/logs/$p1.log"
  sleep 0.2
done
cat > "$work/expected" <<'OUT'
[node-0] epoch 0 loss 1.3
[node-0] epoch 1 loss 0.9
[node-0] epoch 2 loss 0.5
[node-0] epoch 3 loss 0.6
[node-0] epoch 4 loss 0.5
[node-0] epoch 5 loss 0.4
[node-1] epoch 1 loss 0.8
[node-1] epoch 2 loss 0.4
[node-1] epoch 3 loss 0.5 with a longer text
[node-1] epoch 4 loss 0.4 with a longer text
[node-1] epoch 5 loss 0.3 with a longer text
OUT
check "-f: the appended lines follow" eventually bash -c "[ \$(wc -l < '$work/follow.out') -ge 11 ]"
sleep 0.5  # a line printed twice would come now
kill "$follower"
wait "$follower" 2> /dev/null
check "-f: every line exactly once, whole" diff <(sort "$work/expected") <(sort "$work/follow.out")
check "-f: each pod's lines in order" \
  bash -c "diff <(grep '^\[node-0\]' '$work/follow.out') <(grep '^\[node-0\]' '$work/expected') && diff <(grep '^\[node-1\]' '$work/follow.out') <(grep '^\[node-1\]' '$work/expected')"
check "-f: nothing on stderr" [ ! -s "$work/follow.err" ]
logs lg --node 0
check "kubectl logs reads the appended lines too, as logs does" diff <(kubectl logs "$p0") "$work/out"

# --- 16 pods at once, lines arriving concurrently: all lines, none broken or mixed ---------------
eventually pods_running wide-node-0 16
kubectl get pods -l job-name=wide-node-0 \
  -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.annotations.batch\.kubernetes\.io/job-completion-index}{"\n"}{end}' \
  > "$work/wide-pods"
# Each log: "POD line K of 200 (index N)", 100 lines now and 100 while -f follows.
write_wide() {  # write_wide FIRST LAST: lines FIRST..LAST of every pod, pod after pod per line
  python3 - "$work/logs" "$work/wide-pods" "$1" "$2" <<'PY'
import datetime, sys
logs, pods, first, last = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
pods = [line.split() for line in open(pods) if line.strip()]
files = {name: open(f"{logs}/{name}.log", "a") for name, _ in pods}
for k in range(first, last + 1):
    for name, index in pods:
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        files[name].write(f"{stamp} stdout F {name} line {k} of 200 (index {index})\n")
        files[name].flush()
PY
}
mkdir -p "$work/logs"
write_wide 1 100
while read -r pod _; do
  printf -- '---\napiVersion: kwok.x-k8s.io/v1alpha1\nkind: Logs\nmetadata:\n  name: %s\nspec:\n  logs:\n  - containers: []\n    logsFile: %s\n    follow: true\n' \
    "$pod" "$work/logs/$pod.log"
done < "$work/wide-pods" | kubectl apply -f - > /dev/null
while read -r pod _; do eventually log_served "$pod"; done < "$work/wide-pods"
"$bin" logs wide -f > "$work/wide.out" 2> "$work/wide.err" &
follower=$!
write_wide 101 200
check "16 pods: all 3,200 lines come" eventually bash -c "[ \$(wc -l < '$work/wide.out') -ge 3200 ]"
sleep 0.5
kill "$follower"
wait "$follower" 2> /dev/null
check "16 pods: 3,200 lines, every one whole, once, prefixed with its own pod's node" \
  bash -c "[ \$(wc -l < '$work/wide.out') -eq 3200 ] && [ \$(sort -u '$work/wide.out' | wc -l) -eq 3200 ] &&
    [ \$(grep -cE '^\[node-([0-9]|1[0-5])\] wide-node-0-([0-9]|1[0-5])-[a-z0-9]{5} line ([1-9][0-9]?|1[0-9][0-9]|200) of 200 \(index ([0-9]|1[0-5])\)$' '$work/wide.out') -eq 3200 ] &&
    [ -z \"\$(sed -nE 's/^\[node-([0-9]+)\] wide-node-0-([0-9]+)-.* \(index ([0-9]+)\)$/\1 \2 \3/p' '$work/wide.out' | awk '\$1 != \$2 || \$2 != \$3')\" ]"
# --- a pod in CrashLoopBackOff: its log, and a pointer to -p ---------------------------------------
kubectl patch pod "$p1" --subresource=status --type=merge -p '{"status":{"containerStatuses":[{"name":"node","image":"trainer:1","ready":false,"restartCount":3,"state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 40s"}},"lastState":{"terminated":{"exitCode":1,"reason":"Error"}}}]}}' > /dev/null
logs lg --node 1
check "CrashLoopBackOff: the log is printed, and -p suggested" \
  bash -c "[ $? -eq 0 ] && diff <(kubectl logs '$p1') '$work/out' &&
    grep -qx 'note: node-1 (pod $p1, container node) is in CrashLoopBackOff after 3 restarts: \`kubectl trainjob logs lg -p\` prints the log of the run that crashed' '$work/err'"
logs lg --node 1 -p
check "... not with -p itself" bash -c "! grep -q CrashLoopBackOff '$work/err'"
finish
