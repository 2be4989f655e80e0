#!/bin/bash
# A control plane that cannot start stops everything it started and says which part failed
# and where its log is: here the API server's port is taken by another listener.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(60)' >"$work/port" &
listener=$!
trap 'kill $listener 2>/dev/null; "$src/tests/cluster/down.sh" "$work/cp"; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
API_PORT=$(cat "$work/port") "$src/tests/cluster/up.sh" "$work/cp" >"$work/out" 2>"$work/err"
check "up.sh with the API server's port taken: exit 1" [ $? -eq 1 ]
check "... naming the part that failed and its log" \
  grep -q "^up.sh: kube-apiserver exited during start-up; its log: $work/cp/logs/kube-apiserver.log" "$work/err"
check "... whose last lines say why" grep -q "address already in use" "$work/err"
check "... no KUBECONFIG line on stdout" bash -c "! grep -q KUBECONFIG '$work/out'"
none_left() { ! pgrep -f "$work/cp/" >/dev/null; }  # (pgrep never matches itself)
check "... and nothing it started still runs" none_left
check "... nor a pid file left" bash -c "[ -z \"\$(ls '$work/cp/pids')\" ]"
"$src/tests/cluster/down.sh" "$work/cp"
check "down.sh on a stopped control plane: exit 0" [ $? -eq 0 ]
finish
