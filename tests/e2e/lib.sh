# Helpers shared by the end-to-end tests: each test script sources this, calls `check`
# for every expectation, and ends with `finish`, which prints the tally. `$work` is a
# scratch directory, removed when the script exits.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
check() {  # check DESCRIPTION COMMAND...
  local description=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $description" >&2
  fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
# write_local_case FILE NUM_NODES COMMAND VOLUMES MOUNTS CONFIG_MAP_DATA [POLICY]: for
# run --local, a TrainJob, its one-container runtime (with mlPolicy.POLICY when given) and
# the ConfigMap "code" in one file.
write_local_case() {
  local policy=""
  [ -z "${7:-}" ] || policy="$7: {}"
  cat >"$1" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: local-case
spec:
  mlPolicy:
    numNodes: 1
    $policy
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels:
                trainer.kubeflow.org/trainjob-ancestor-step: trainer
            spec:
              template:
                spec:
                  containers:
                    - name: node
                      image: busybox
                      command: $3
                      volumeMounts: $5
                  volumes: $4
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: code
data: $6
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: local-case
spec:
  runtimeRef:
    name: local-case
  trainer:
    numNodes: $2
YAML
}
# trainjob_stream N PREFIX SPEC_TAIL: N TrainJobs, PREFIX-0 to PREFIX-(N-1), on the
# torch-distributed runtime; SPEC_TAIL follows `runtimeRef` in each spec. It is an awk printf
# format whose every conversion takes the TrainJob's index (`image: x:%d`, `"%0400d"`); a
# leading newline is dropped, so that it can start on a line of its own.
trainjob_stream() {
  awk -v n="$1" -v prefix="$2" -v tail="$3" 'BEGIN { sub(/^\n/, "", tail)
  for (i = 0; i < n; i++) {
    printf "---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n";
    printf "  name: %s-%d\nspec:\n  runtimeRef:\n    name: torch-distributed\n", prefix, i;
    printf tail, i, i, i, i } }'
}
