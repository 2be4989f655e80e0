#!/bin/bash
# docs/kubectl.md maps kubectl's commands to ours;
# tests/cluster/e2e/connection/docs_kubectl_test.sh runs its rows on the real control plane.
# The rows that follow logs (`logs ... -f`) end there only here, on the test API server:
# kwok's log streams never end. Each runs as written, after the file it follows was submitted,
# and must end with exit 0 and print the logs.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
ctl autopilot '{"rules": [{"job": ".", "after": 0.3, "lines": 2}]}' > /dev/null

cd "$work" || exit 1
cp "$src/tests/e2e/fixtures/pytorch-demo.py" .
"$bin" init demo --mode configmap --script pytorch-demo.py > demo.yaml

# `kubectl trainjob ...` is this build; any other kubectl is the real one.
kubectl() {
  if [ "$1" = trainjob ]; then shift; "$bin" "$@"; else command kubectl "$@"; fi
}
# The second cell of each table row, unescaped as markdown shows it, when it follows logs.
commands=$(python3 - "$src/docs/kubectl.md" <<'PY'
import re, sys
for line in open(sys.argv[1], encoding="utf-8"):
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
    if len(cells) == 3 and cells[1].startswith("`kubectl trainjob logs ") and " -f" in cells[1]:
        print(cells[1].strip("`").replace("\\|", "|"))
PY
)
check "the tables hold a row that follows logs" [ -n "$commands" ]
"$bin" submit -f demo.yaml > /dev/null
while IFS= read -r command; do
  timeout 30 bash -c "$(declare -f kubectl); bin='$bin'; $command" < /dev/null > out.txt 2> err.txt
  rc=$?
  check "$command" bash -c "[ $rc -eq 0 ] && [ -s out.txt ]"
  [ $rc -eq 0 ] || sed 's/^/  /' err.txt | head -20 >&2
done <<< "$commands"
finish
