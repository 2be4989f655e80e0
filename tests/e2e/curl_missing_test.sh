#!/bin/bash
# Without libcurl the offline commands still work and a cluster command says what to
# install. The library is hidden for real: in a private mount namespace (unshare, no root
# needed), the directory that holds libcurl.so.4 is replaced by one of symbolic links to
# every other file in it, so the dynamic loader finds everything but libcurl.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"

if ! unshare --user --map-root-user --mount true 2>/dev/null; then
  echo "unprivileged mount namespaces are not available here" >&2
  exit 77
fi
# Where the loader finds libcurl.so.4 today (its cache entry, links resolved).
libcurl=$(/sbin/ldconfig -p | awk '$1 == "libcurl.so.4" { print $NF; exit }')
if [ -z "$libcurl" ]; then
  echo "libcurl.so.4 is not installed here: nothing to hide" >&2
  exit 77
fi
libdir=$(dirname "$(readlink -f "$libcurl")")

# The stand-in directory, made before the namespace: links into $work/real, where the
# namespace will mount the real directory.
mkdir "$work/real" "$work/stand-in"
/usr/bin/python3 - "$libdir" "$work/real" "$work/stand-in" <<'PY'
import os, sys
libdir, real, stand_in = sys.argv[1:]
for name in os.listdir(libdir):
    if not name.startswith("libcurl.so"):
        os.symlink(os.path.join(real, name), os.path.join(stand_in, name))
PY

cat > "$work/kubeconfig" <<'YAML'
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
YAML

# without_libcurl COMMAND...: runs COMMAND in the namespace where libcurl is hidden.
without_libcurl() {
  unshare --user --map-root-user --mount /bin/bash -c '
    mount --bind "$1" "$2/real" && mount --bind "$2/stand-in" "$1" || exit 99
    shift 2
    exec "$@"' _ "$libdir" "$work" "$@" > "$work/out" 2> "$work/err"
}

without_libcurl /usr/bin/python3 -c 'import ctypes; ctypes.CDLL("libcurl.so.4")'
check "the namespace really hides libcurl.so.4 (a plain dlopen fails)" [ $? -eq 1 ]
without_libcurl /usr/bin/python3 -c 'import ctypes; ctypes.CDLL("libyaml-0.so.2")'
check "... and nothing else (libyaml loads)" [ $? -eq 0 ]

without_libcurl "$bin" render -f "$src/templates/image.yaml"
check "render works without libcurl" [ $? -eq 0 ]
check "... and prints the Jobs" grep -q '^kind: Job$' "$work/out"
without_libcurl "$bin" version
check "version works without libcurl" [ $? -eq 0 ]

without_libcurl "$bin" status demo --kubeconfig "$work/kubeconfig"
check "status without libcurl: exit 1" [ $? -eq 1 ]
check "... saying what is missing and what to install" \
  grep -q '^error: libcurl.so.4 not found: apt-get install libcurl4 (libcurl.so.4: cannot open shared object file: No such file or directory)$' "$work/err"
check "... and nothing else" [ "$(wc -l < "$work/err")" -eq 1 ]
without_libcurl "$bin" list --kubeconfig "$work/kubeconfig"
check "list without libcurl: exit 1 with the same message" \
  bash -c "[ $? -eq 1 ] && grep -q '^error: libcurl.so.4 not found' '$work/err'"

# The same command in the plain file system gets as far as the (absent) server.
"$bin" status demo --kubeconfig "$work/kubeconfig" --request-timeout 5s > "$work/out" 2> "$work/err"
check "with libcurl, status reaches the network and fails there" \
  grep -q 'Unable to connect to the server at https://127.0.0.1:1' "$work/err"
finish
