#!/bin/bash
# Without libcrypto, a render that needs a digest (the JobSet job-key label) ends with one
# line saying what to install, exit 1: a missing library is no internal error. Render of a
# TrainJob that needs no digest still works. libcrypto is hidden for real, as
# curl_missing_test.sh hides libcurl: in a private mount namespace the directory that holds
# it is replaced by symbolic links to every other file in it.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"

if ! unshare --user --map-root-user --mount true 2>/dev/null; then
  echo "unprivileged mount namespaces are not available here" >&2
  exit 77
fi
libcrypto=$(/sbin/ldconfig -p | awk '$1 ~ /^libcrypto\.so\./ { print $NF; exit }')
if [ -z "$libcrypto" ]; then
  echo "libcrypto is not installed here: nothing to hide" >&2
  exit 77
fi
libdir=$(dirname "$(readlink -f "$libcrypto")")

mkdir "$work/real" "$work/stand-in"
/usr/bin/python3 - "$libdir" "$work/real" "$work/stand-in" <<'PY'
import os, sys
libdir, real, stand_in = sys.argv[1:]
for name in os.listdir(libdir):
    if not name.startswith("libcrypto.so"):
        os.symlink(os.path.join(real, name), os.path.join(stand_in, name))
PY

# without_libcrypto COMMAND...: runs COMMAND in the namespace where libcrypto is hidden.
without_libcrypto() {
  unshare --user --map-root-user --mount /bin/bash -c '
    mount --bind "$1" "$2/real" && mount --bind "$2/stand-in" "$1" || exit 99
    shift 2
    exec "$@"' _ "$libdir" "$work" "$@" > "$work/out" 2> "$work/err"
}

without_libcrypto /usr/bin/python3 -c 'import ctypes; ctypes.CDLL("'"$(basename "$libcrypto")"'")'
check "the namespace really hides libcrypto (a plain dlopen fails)" [ $? -eq 1 ]

without_libcrypto "$bin" render -f "$src/templates/image.yaml"
check "render of a TrainJob without a namespace needs no digest: exit 0" [ $? -eq 0 ]
check "... and prints the Jobs" grep -q '^kind: Job$' "$work/out"

without_libcrypto "$bin" render -f "$src/templates/image.yaml" -n team-a
check "render with a namespace (the job-key label is a SHA-1) without libcrypto: exit 1" \
  [ $? -eq 1 ]
check "... saying what is missing, not 'internal error'" \
  bash -c "grep -q '^error: libcrypto' '$work/err' && ! grep -q 'internal error' '$work/err'"
check "... in one line" [ "$(wc -l < "$work/err")" -eq 1 ]
check "... and no partial output" [ ! -s "$work/out" ]
finish
