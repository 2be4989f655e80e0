#!/bin/bash
# docs/kubectl.md maps kubectl's commands to ours: every `kubectl trainjob ...` in the
# second column of its tables runs here, in the order written and as written (pipes and
# quotes included), against the test API server, and must exit 0.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"
start_apiserver
ctl namespace '{"name": "team-a"}' > /dev/null
ctl autopilot '{"rules": [{"job": ".", "after": 0.3, "lines": 2}]}' > /dev/null

cd "$work" || exit 1
cp "$src/tests/e2e/fixtures/pytorch-demo.py" .
"$bin" init demo --mode configmap --script pytorch-demo.py > demo.yaml
cat > tfjob.yaml <<'YAML'
apiVersion: kubeflow.org/v1
kind: TFJob
metadata:
  name: tensorflow-job
  namespace: team-a
spec:
  tfReplicaSpecs:
    Worker:
      replicas: 2
      template:
        spec:
          containers: [{name: tensorflow, image: tensorflow-demo}]
YAML

# `kubectl trainjob ...` is this build; any other kubectl is the real one.
kubectl() {
  if [ "$1" = trainjob ]; then shift; "$bin" "$@"; else command kubectl "$@"; fi
}
# The second cell of each table row, unescaped as markdown shows it.
commands=$(python3 - "$src/docs/kubectl.md" <<'PY'
import re, sys
for line in open(sys.argv[1], encoding="utf-8"):
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
    if len(cells) == 3 and cells[1].startswith("`kubectl trainjob "):
        print(cells[1].strip("`").replace("\\|", "|"))
PY
)
check "the tables hold commands" test "$(wc -l <<< "$commands")" -ge 15
while IFS= read -r command; do
  eval "$command" > out.txt 2> err.txt
  rc=$?
  check "$command" bash -c "[ $rc -eq 0 ] && [ -s out.txt ]"
  [ $rc -eq 0 ] || sed 's/^/  /' err.txt | head -20 >&2
done <<< "$commands"
finish
