# Helpers shared by the end-to-end tests: each test script sources this, calls `check`
# for every expectation, and ends with `finish`, which prints the tally. `$work` is a
# scratch directory, removed when the script exits.
work=$(mktemp -d)
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
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
# local_runtime NAME COMMAND [VOLUMES] [MOUNTS] [POLICY] [IMAGE]: for run --local, a
# one-container ClusterTrainingRuntime NAME running COMMAND (a YAML list) in IMAGE (default
# busybox), with mlPolicy.POLICY when given.
local_runtime() {
  local policy=""
  [ -z "${5:-}" ] || policy="$5: {}"
  cat <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata:
  name: $1
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
                      image: ${6:-busybox}
                      command: $2
                      volumeMounts: ${4:-[]}
                  volumes: ${3:-[]}
YAML
}
# write_local_case FILE NUM_NODES COMMAND VOLUMES MOUNTS CONFIG_MAP_DATA [POLICY]: for
# run --local, a TrainJob, its one-container runtime (with mlPolicy.POLICY when given) and
# the ConfigMap "code" in one file.
write_local_case() {
  {
    local_runtime local-case "$3" "$4" "$5" "${7:-}"
    cat <<YAML
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
  } >"$1"
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

# hide_library SONAME_PREFIX: prepares to hide the shared library whose soname starts with
# SONAME_PREFIX (libcurl.so.4, libcrypto.so.) for without_hidden_library: $work/stand-in gets
# a symbolic link to every other file of the directory that holds it, to be mounted over
# that directory in a private mount namespace (unshare, no root needed), so the dynamic
# loader finds everything but that library. Exits 77 (skipped) when unprivileged mount
# namespaces are not available or no such library is installed. Sets hidden_soname.
hide_library() {
  if ! unshare --user --map-root-user --mount true 2>/dev/null; then
    echo "unprivileged mount namespaces are not available here" >&2
    exit 77
  fi
  local path
  path=$(/sbin/ldconfig -p | awk -v prefix="$1" 'index($1, prefix) == 1 { print $NF; exit }')
  if [ -z "$path" ]; then
    echo "$1 is not installed here: nothing to hide" >&2
    exit 77
  fi
  hidden_soname=$(basename "$path")
  hidden_dir=$(dirname "$(readlink -f "$path")")
  mkdir "$work/real" "$work/stand-in"
  /usr/bin/python3 - "$hidden_dir" "$work/real" "$work/stand-in" "${1%%.so*}.so" <<'PY'
import os, sys
libdir, real, stand_in, stem = sys.argv[1:]
for name in os.listdir(libdir):
    if not name.startswith(stem):
        os.symlink(os.path.join(real, name), os.path.join(stand_in, name))
PY
}

# without_hidden_library COMMAND...: runs COMMAND where hide_library's library is hidden,
# its stdout in $work/out and its stderr in $work/err.
without_hidden_library() {
  unshare --user --map-root-user --mount /bin/bash -c '
    mount --bind "$1" "$2/real" && mount --bind "$2/stand-in" "$1" || exit 99
    shift 2
    exec "$@"' _ "$hidden_dir" "$work" "$@" > "$work/out" 2> "$work/err"
}
