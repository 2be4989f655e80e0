#!/bin/bash
# Cluster command benchmarks against the loopback test API server (never pass/fail):
#   tests/bench/cluster/run.sh [BUILD_DIR]
# 1. logs -f of 16 pods through one process: throughput on logs that are already there,
#    and the latency each line sees from its kubelet timestamp to our output, against
#    following one pod alone;
# 2. submit of a 3-step TrainJob: HTTP requests and wall time.
src=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$src/build}
bin=$build/kubectl-trainjob
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
here=$src/tests/bench/cluster
wide() {  # wide NAME NODES
  sed -e "s/numNodes: 2/numNodes: $2/" -e "s/name: trainjob-demo-with-image/name: $1/" "$src/templates/image.yaml"
}
now() { date +%s.%N; }

echo "== logs -f, 16 pods, 20,000 lines each already written (throughput)"
wide bulk 16 > "$work/bulk.yaml"
"$bin" submit -f "$work/bulk.yaml" > /dev/null
ctl run '{"job": "bulk-node-0"}' > /dev/null
for index in $(seq 0 15); do
  /usr/bin/python3 -c "import json; print(json.dumps({'job': 'bulk-node-0', 'index': $index, 'lines': ['bulk line %d of node $index with some payload text to look like a training log' % i for i in range(20000)]}))" > "$work/lines.json"
  ctl log "@$work/lines.json" > /dev/null
done
ctl succeed '{"job": "bulk-node-0"}' > /dev/null
for run in 1 2 3; do
  start=$(now)
  /usr/bin/time -f "%U %S %M" -o "$work/time" "$bin" logs bulk -f > "$work/bulk.out"
  end=$(now)
  lines=$(wc -l < "$work/bulk.out")
  read -r user sys rss < "$work/time"
  /usr/bin/python3 -c "print('run $run: %d lines in %.2f s: %.0f lines/s; our process: %.2f s CPU (%.1f us a line), %d MiB peak RSS' % ($lines, $end - $start, $lines / ($end - $start), $user + $sys, 1e6 * ($user + $sys) / $lines, $rss // 1024))"
done
start=$(now)
"$bin" logs bulk --node 0 -f > "$work/one.out"
end=$(now)
/usr/bin/python3 -c "print('one pod alone: %d lines in %.2f s: %.0f lines/s' % ($(wc -l < "$work/one.out"), $end - $start, $(wc -l < "$work/one.out") / ($end - $start)))"

echo "== logs -f while 16 pods write (latency from kubelet timestamp to our stdout)"
# The pods start writing a second after they run, once every stream is open.
for nodes in 1 16; do
  wide live$nodes $nodes > "$work/live.yaml"
  ctl autopilot "{\"rules\": [{\"job\": \"live$nodes\", \"lines\": 300, \"interval\": 0.01, \"lines_after\": 1, \"after\": 0.2}]}" > /dev/null
  "$bin" submit -f "$work/live.yaml" > /dev/null
  echo -n "$nodes pod(s), 300 lines each, one line per pod every 10 ms: "
  "$bin" logs live$nodes -f --timestamps 2> /dev/null | /usr/bin/python3 "$here/latency.py"
done

echo "== submit of a 3-step TrainJob (Service + 3 Jobs)"
ctl autopilot '{"rules": []}' > /dev/null
for run in 1 2 3 4 5; do
  ctl requests/reset > /dev/null
  start=$(now)
  "$bin" submit -f "$src/tests/apiserver/fixtures/three-step.yaml" > /dev/null 2>&1
  end=$(now)
  requests=$(request_count)
  /usr/bin/python3 -c "print('run $run: %d requests, %.1f ms' % ($requests, 1000 * ($end - $start)))"
  "$bin" delete tune --wait > /dev/null
done
ctl requests/reset > /dev/null
start=$(now)
"$bin" submit -f "$src/tests/apiserver/fixtures/three-step.yaml" > /dev/null 2>&1
"$bin" submit -f "$src/tests/apiserver/fixtures/three-step.yaml" > /dev/null 2>&1
end=$(now)
echo "create then re-submit (no change): $(request_count) requests in all"
