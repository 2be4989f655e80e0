#!/usr/bin/env bash
# run --local ends every process its pods started and removes its work directory however
# the run ends: success, a failure, SIGTERM, --timeout, and a SIGKILL of the plugin itself
# (the watchdog's case). Also: readOnly configMap mounts cannot be written. Every check
# looks only at the processes and files this script made (its own marker, its own TMPDIR).
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
chmod 1777 "$work" "$TMPDIR"  # the readOnly case runs as an unprivileged user when root
no_work_dir() { test -z "$(ls -A "$TMPDIR")"; }
# A number unique to this run: `sleep 60.<pid><random>` is one of this script's processes.
nap="60.$$$RANDOM"
marked() { pgrep -f -x "sleep $nap" >/dev/null; }
all_four_marked() { test "$(pgrep -f -x "sleep $nap" | wc -l)" -ge 4; }
# eventually SECONDS COMMAND...: COMMAND holds within SECONDS.
eventually() {
  local deadline=$(($(date +%s) + $1))
  shift
  until "$@"; do
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.1
  done
}
not() { ! "$@"; }

# write_case FILE COMMAND [VOLUMES MOUNTS]: two pods; the ConfigMap "code" holds a.txt.
write_case() { write_local_case "$1" 2 "$2" "${3:-[]}" "${4:-[]}" "{a.txt: hello}"; }

# Grandchildren: one in the pod's process group, one that left it (setsid), both waited on.
write_case "$work/wait.yaml" "[\"sh\", \"-c\", \"sleep $nap & setsid sleep $nap & echo started; wait\"]"
# start_run FLAGS...: run --local in the background; $run is its pid, once its pods started.
start_run() {
  "$binary" run --local -f "$work/wait.yaml" "$@" >"$work/out.txt" 2>"$work/err.txt" &
  run=$!
  eventually 10 all_four_marked
}

check "SIGKILL: the pods and their grandchildren started" start_run
check "SIGKILL: a work dir exists while they run" not no_work_dir
kill -9 "$run"
wait "$run" 2>/dev/null
check "SIGKILL of the plugin: every marked process ends within 5 s" eventually 5 not marked
check "SIGKILL of the plugin: the work dir is removed within 5 s" eventually 5 no_work_dir
pkill -KILL -f -x "sleep $nap" 2>/dev/null

check "SIGKILL with --keep-workdir: started" start_run --keep-workdir
kill -9 "$run"
wait "$run" 2>/dev/null
check "SIGKILL with --keep-workdir: every marked process ends" eventually 5 not marked
check "SIGKILL with --keep-workdir: the work dir is kept" not no_work_dir
remove_work_dirs() { chmod -R u+w "$TMPDIR" && rm -rf "${TMPDIR:?}"/*; }
remove_work_dirs

check "SIGTERM: started" start_run
kill -TERM "$run"
wait "$run"
check "SIGTERM: exit 130, as a sweep exits" test $? -eq 130
check "SIGTERM: says it was interrupted" grep -q "error: interrupted" "$work/err.txt"
check "SIGTERM: no marked process is left" not marked
check "SIGTERM: no work dir is left" no_work_dir

"$binary" run --local -f "$work/wait.yaml" --timeout 1s >"$work/out.txt" 2>"$work/err.txt"
check "--timeout: exit 1" test $? -eq 1
check "--timeout: no marked process is left" not marked
check "--timeout: no work dir is left" no_work_dir

# A pod that succeeds while a process it started in its own session still runs: as in a
# cluster, that process ends with the pod.
write_case "$work/escape.yaml" "[\"sh\", \"-c\", \"setsid sleep $nap & echo left\"]"
"$binary" run --local -f "$work/escape.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "a pod that leaves a process behind: exit 0" test $? -eq 0
check "that process ended with its pod" not marked
check "success: no work dir is left" no_work_dir

# A pod fails while the other's grandchildren run.
write_case "$work/fail.yaml" \
  "[\"sh\", \"-c\", \"case \$HOSTNAME in *-1) sleep 0.5; exit 3;; esac; setsid sleep $nap & sleep $nap & wait\"]"
"$binary" run --local -f "$work/fail.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "failure: exit 1" test $? -eq 1
check "failure: no marked process is left" not marked
check "failure: no work dir is left" no_work_dir

# readOnly: configMap volumes are materialised without write permission. Root ignores
# permission bits, so as root the pods run as nobody (and the plugin warns when it is root).
as_user=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
volumes='[{name: code, configMap: {name: code}}]'
mounts='[{name: code, mountPath: /code, readOnly: true}]'
write_case "$work/read.yaml" '["sh", "-c", "cat /code/a.txt"]' "$volumes" "$mounts"
write_case "$work/write.yaml" '["sh", "-c", "echo x > /code/new"]' "$volumes" "$mounts"
write_case "$work/append.yaml" '["sh", "-c", "echo x >> /code/a.txt"]' "$volumes" "$mounts"
chmod a+r "$work"/*.yaml
(cd "$TMPDIR" && "${as_user[@]}" "$binary" run --local -f "$work/read.yaml" >"$work/out.txt" 2>&1)
check "readOnly configMap: a pod reads it (exit 0)" test $? -eq 0
check "readOnly configMap: and sees the file" grep -q "hello" "$work/out.txt"
for case in write append; do
  (cd "$TMPDIR" && "${as_user[@]}" "$binary" run --local -f "$work/$case.yaml" >"$work/out.txt" 2>&1)
  check "readOnly configMap: a pod that tries to $case fails (exit 1)" test $? -eq 1
  check "readOnly configMap: $case is denied" grep -qi "permission denied\|read-only" "$work/out.txt"
  check "readOnly configMap: $case leaves no work dir" no_work_dir
done
if [ "$(id -u)" = 0 ]; then
  "$binary" run --local -f "$work/read.yaml" >"$work/out.txt" 2>"$work/err.txt"
  check "as root: read-only volumes are said not to hold" grep -q "warning: running as root" "$work/err.txt"
fi
finish
