#!/usr/bin/env bash
# run --local against hostile input: nothing is written outside its work directory, no
# pod count exhausts memory, no system directory is handed to a pod, and neither a
# refused run nor a killed plugin leaves a process or a work directory behind. Every
# check looks only at the files and processes this script made.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

# The run's work directory is made in $TMPDIR, inside a parent this script watches.
parent="$work/parent"
mkdir -p "$parent/tmp" "$parent/cwd"
export TMPDIR="$parent/tmp"
snapshot() { find "$parent" -printf '%p %m %s %y\n' | sort; }
no_work_dir() { test -z "$(ls -A "$TMPDIR")"; }
# A number unique to this run, so that the processes counted are this script's own.
nap="60.$$$RANDOM"
marked() { pgrep -f -x "sleep $nap.*" >/dev/null; }


# expect_refused DESCRIPTION MESSAGE_REGEX FILE [FLAGS...]: exit 1, the message, and the
# watched tree exactly as it was.
expect_refused() {
  local description=$1 message=$2 file=$3
  shift 3
  local before after
  before=$(snapshot)
  (cd "$parent/cwd" && "$binary" run --local -f "$file" "$@" >"$work/out.txt" 2>"$work/err.txt")
  local code=$?
  after=$(snapshot)
  check "$description: exit 1" test "$code" -eq 1
  check "$description: says why" grep -Eq -- "$message" "$work/err.txt"
  if ! check "$description: nothing outside the work dir changed" test "$before" = "$after"; then
    diff <(echo "$before") <(echo "$after") >&2
    cat "$work/err.txt" >&2
  fi
  check "$description: no work dir is left" no_work_dir
}

cmd='["sh", "-c", "cat /code/*"]'
mount='[{name: code, mountPath: /code}]'
data='{a.txt: hello}'
write_local_case "$work/items-up.yaml" 1 "$cmd" \
  '[{name: code, configMap: {name: code, items: [{key: a.txt, path: ../../../../x}]}}]' "$mount" "$data"
expect_refused "items path ../../../../x" 'items\[0\]\.path "\.\./\.\./\.\./\.\./x"|\.\./\.\./\.\./\.\./x' "$work/items-up.yaml"

write_local_case "$work/items-abs.yaml" 1 "$cmd" \
  "[{name: code, configMap: {name: code, items: [{key: a.txt, path: $parent/abs-x}]}}]" "$mount" "$data"
expect_refused "items path absolute" "$parent/abs-x.*(absolute|relative)|(absolute|relative).*$parent/abs-x" "$work/items-abs.yaml"

write_local_case "$work/key-up.yaml" 1 "$cmd" \
  '[{name: code, configMap: {name: code}}]' "$mount" '{"../../../../x": escaped}'
expect_refused "data key ../../../../x" '\.\./\.\./\.\./\.\./x' "$work/key-up.yaml"

write_local_case "$work/key-up2.yaml" 1 "$cmd" \
  '[{name: code, configMap: {name: code}}]' "$mount" '{"../../x": escaped}'
expect_refused "data key ../../x" 'data\[\.\./\.\./x\]: expected a key|"\.\./\.\./x"' "$work/key-up2.yaml"

write_local_case "$work/volume-up.yaml" 1 "$cmd" \
  '[{name: ../../x, configMap: {name: code}}]' '[{name: ../../x, mountPath: /code}]' "$data"
expect_refused "volume named ../../x" '"\.\./\.\./x"' "$work/volume-up.yaml"

write_local_case "$work/setuid.yaml" 1 "$cmd" \
  '[{name: code, configMap: {name: code, defaultMode: 2541}}]' "$mount" "$data"
expect_refused "defaultMode 2541" 'defaultMode.*2541' "$work/setuid.yaml"

write_local_case "$work/huge.yaml" 2147483647 '["true"]' '[]' '[]' "$data"
start=$(date +%s)
expect_refused "numNodes 2147483647" '2147483647 pods.*--max-pods' "$work/huge.yaml"
check "numNodes 2147483647: refused at once" test $(($(date +%s) - start)) -lt 10
write_local_case "$work/three.yaml" 3 '["true"]' '[]' '[]' "$data"
expect_refused "--max-pods 2 with 3 pods" 'would run 3 pods on this machine, more than --max-pods 2' \
  "$work/three.yaml" --max-pods 2
(cd "$parent/cwd" && "$binary" run --local -f "$work/three.yaml" --max-pods 3 >/dev/null 2>&1)
check "--max-pods 3 runs 3 pods" test $? -eq 0

write_local_case "$work/etc.yaml" 1 '["true"]' '[{name: conf, hostPath: {path: /etc}}]' \
  '[{name: conf, mountPath: /conf}]' "$data"
expect_refused "hostPath /etc" 'volume "conf".*hostPath.path "/etc" is refused.*--allow-host-path' "$work/etc.yaml"
ln -s /proc "$work/to-proc"
write_local_case "$work/proc-link.yaml" 1 '["true"]' \
  "[{name: conf, hostPath: {path: $work/to-proc/self}}]" '[{name: conf, mountPath: /conf}]' "$data"
expect_refused "hostPath through a symlink to /proc" 'is refused: a system directory \(/proc or beneath\)' \
  "$work/proc-link.yaml"
(cd "$parent/cwd" && "$binary" run --local -f "$work/etc.yaml" --allow-host-path >/dev/null 2>&1)
check "hostPath /etc runs with --allow-host-path" test $? -eq 0

write_local_case "$work/ro-host.yaml" 1 '["true"]' "[{name: data, hostPath: {path: $work}}]" \
  '[{name: data, mountPath: /data, readOnly: true}]' "$data"
(cd "$parent/cwd" && "$binary" run --local -f "$work/ro-host.yaml" >/dev/null 2>"$work/err.txt")
check "a readOnly hostPath runs" test $? -eq 0
check "and is said not to be enforced" grep -q 'warning: .*volume "data": readOnly is not enforced for a hostPath volume' "$work/err.txt"
finish
