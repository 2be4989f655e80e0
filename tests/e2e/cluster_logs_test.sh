#!/bin/bash
# logs: every pod at once, whole prefixed lines; the filters; -f waiting for pods, following
# a restart and resuming a stream cut mid-line without repeating or losing a line.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
T=trainjob-demo-with-image
J=$T-node-0
"$bin" submit -f "$src/templates/image.yaml" > /dev/null
ctl run "{\"job\": \"$J\"}" > /dev/null
ctl log "{\"job\": \"$J\", \"index\": 0, \"lines\": [\"epoch 1 loss 0.9\", \"epoch 2 loss 0.5\"]}" > /dev/null
ctl log "{\"job\": \"$J\", \"index\": 1, \"lines\": [\"epoch 1 loss 0.8\", \"epoch 2 loss 0.4\"]}" > /dev/null
logs() { "$bin" logs "$@" > "$work/out" 2> "$work/err"; }

logs $T
check "all pods, each line prefixed with its node" diff - "$work/out" <<'OUT'
[node-0] epoch 1 loss 0.9
[node-0] epoch 2 loss 0.5
[node-1] epoch 1 loss 0.8
[node-1] epoch 2 loss 0.4
OUT
logs $T --node 1
check "--node: one pod, no prefix" diff <(printf 'epoch 1 loss 0.8\nepoch 2 loss 0.4\n') "$work/out"
logs $T --node 1 --prefix --tail 1
check "--prefix and --tail" diff <(printf '[node-1] epoch 2 loss 0.4\n') "$work/out"
logs $T --node 0 --timestamps
check "--timestamps: RFC 3339 times first" bash -c "[ \$(grep -cE '^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z epoch [12] loss' '$work/out') -eq 2 ]"
logs $T --step dataset-initializer
check "a step with no pods is an error" bash -c "grep -q 'has no pods in step dataset-initializer' '$work/err'"
logs $T --since 1h --node 0
check "--since keeps recent lines" [ "$(wc -l < "$work/out")" -eq 2 ]
ctl restart "{\"job\": \"$J\", \"index\": 0, \"reason\": \"OOMKilled\", \"exit_code\": 137}" > /dev/null
ctl log "{\"job\": \"$J\", \"index\": 0, \"lines\": [\"resumed from checkpoint\"]}" > /dev/null
logs $T --node 0 --previous
check "--previous: the container before the restart" diff <(printf 'epoch 1 loss 0.9\nepoch 2 loss 0.5\n') "$work/out"
logs $T --node 0
check "without --previous: the running container" diff <(printf 'resumed from checkpoint\n') "$work/out"
"$bin" delete $T --wait > /dev/null

# -f from before the pods run to their end.
"$bin" submit -f "$src/templates/image.yaml" > /dev/null
# node-0's stream is cut after 100 bytes, in the middle of its third line.
ctl faults '{"rules": [{"path": "/pods/'$J'-0-[a-z0-9]+/log$", "follow": true, "drop_after_bytes": 100, "times": 1}]}' > /dev/null
"$bin" logs $T -f > "$work/follow.out" 2> "$work/follow.err" &
follower=$!
check "-f says which pods it waits for and why" \
  eventually grep -q "waiting for node-0 (pod $J-0-.*): Pending" "$work/follow.err"
ctl run "{\"job\": \"$J\"}" > /dev/null
for n in 1 2 3; do ctl log "{\"job\": \"$J\", \"lines\": [\"before $n\"]}" > /dev/null; done
# node-1 restarts at once: its first instance may end before the follower ever opens it.
ctl restart "{\"job\": \"$J\", \"index\": 1}" > /dev/null
for n in 1 2 3; do ctl log "{\"job\": \"$J\", \"lines\": [\"after $n with a longer text\"]}" > /dev/null; done
eventually bash -c "[ \$(wc -l < '$work/follow.out') -ge 12 ]"
ctl succeed "{\"job\": \"$J\"}" > /dev/null
wait $follower
check "-f ends with exit 0 when every pod finished" [ $? -eq 0 ]
expected() {
  for node in 0 1; do
    for n in 1 2 3; do echo "[node-$node] before $n"; done
    for n in 1 2 3; do echo "[node-$node] after $n with a longer text"; done
  done
}
check "-f: every line exactly once, whole, across a restart (node-1) and a dropped stream" \
  diff <(expected | sort) <(sort "$work/follow.out")
expected > "$work/expected"
check "-f: each pod's lines in order" \
  bash -c "diff <(grep '^\[node-0\]' '$work/follow.out') <(grep '^\[node-0\]' '$work/expected') && diff <(grep '^\[node-1\]' '$work/follow.out') <(grep '^\[node-1\]' '$work/expected')"
check "the dropped stream was resumed with sinceTime" \
  bash -c "ctl get requests | grep -q sinceTime"
"$bin" delete $T --wait > /dev/null

# 16 pods at once, lines arriving concurrently: all lines, none broken or mixed.
sed -e 's/numNodes: 2/numNodes: 16/' -e 's/name: trainjob-demo-with-image/name: wide/' "$src/templates/image.yaml" > "$work/wide.yaml"
ctl autopilot '{"rules": [{"job": "wide", "lines": 200, "after": 0.2}]}' > /dev/null
"$bin" submit -f "$work/wide.yaml" > /dev/null
"$bin" logs wide -f > "$work/wide.out" 2> /dev/null
check "16 pods: exit 0" [ $? -eq 0 ]
check "16 pods: 3,200 lines, every one whole and prefixed" \
  bash -c "[ \$(wc -l < '$work/wide.out') -eq 3200 ] && [ \$(grep -cE '^\[node-([0-9]|1[0-5])\] wide-node-0-([0-9]|1[0-5])-[a-z0-9]{5} line [0-9]+ of 200 \(index ([0-9]|1[0-5])\)$' '$work/wide.out') -eq 3200 ] && [ \$(sort -u '$work/wide.out' | wc -l) -eq 3200 ]"
finish
