#!/bin/bash
# logs on the stand-in, for what the real control plane cannot do (the rest is
# tests/cluster/e2e/status/logs_test.sh): a container restarted in place (--previous, and -f
# into its next instance), a stream cut mid-line, and -f ending when every pod finished
# (kwok's nodes never restart a container, and their log streams never end).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_with_demo
ctl run "{\"job\": \"$J\"}" > /dev/null
ctl log "{\"job\": \"$J\", \"index\": 0, \"lines\": [\"epoch 1 loss 0.9\", \"epoch 2 loss 0.5\"]}" > /dev/null
logs() { "$bin" logs "$@" > "$work/out" 2> "$work/err"; }

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
eventually grep -q "waiting for node-0" "$work/follow.err"
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
finish
