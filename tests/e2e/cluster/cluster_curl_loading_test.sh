#!/bin/bash
# libcurl is loaded on a cluster command's first request, never by the offline commands:
# the dynamic loader's own trace (LD_DEBUG=libs) lists every shared object a process maps.
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"

# loads_libcurl COMMAND...: runs the plugin and succeeds when the loader mapped libcurl.
loads_libcurl() {
  rm -rf "$work/trace" && mkdir "$work/trace"
  # The loader writes its trace to trace/ld.PID rather than into the command's stderr.
  LD_DEBUG=libs LD_DEBUG_OUTPUT="$work/trace/ld" "$bin" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  [ "$rc" -eq 0 ] || { echo "exit $rc: $*" >&2; cat "$work/err" >&2; return 2; }
  cat "$work"/trace/ld.* > "$work/ld.all"
  grep -q 'libcurl\.so' "$work/ld.all"
}
offline() {  # offline COMMAND...: succeeds, and without libcurl
  loads_libcurl "$@"
  [ $? -eq 1 ]
}

cd "$work" || exit 1
offline version
check "version does not load libcurl" [ $? -eq 0 ]
check "... and the loader trace was read (libstdc++ is in it)" grep -q 'libstdc++\.so' "$work/ld.all"
check "... nor libcrypto, which only digests, base64 and keys need" \
  bash -c "! grep -q 'libcrypto\.so' '$work/ld.all'"
offline render -f "$src/templates/image.yaml"
check "render does not load libcurl" [ $? -eq 0 ]
offline validate -f "$src/templates/image.yaml"
check "validate does not load libcurl" [ $? -eq 0 ]
offline init demo
check "init does not load libcurl" [ $? -eq 0 ]
offline runtimes
check "runtimes does not load libcurl" [ $? -eq 0 ]
offline convert -f "$src/testdata/convert/jaxjob/jax.yaml"
check "convert does not load libcurl" [ $? -eq 0 ]
offline completion bash
check "completion does not load libcurl" [ $? -eq 0 ]

# A cluster command loads it on its first request and works as before.
start_with_demo
loads_libcurl status trainjob-demo-with-image
check "status loads libcurl" [ $? -eq 0 ]
check "... and reports the TrainJob from the server" \
  grep -qx 'TrainJob trainjob-demo-with-image: Pending' "$work/out"
loads_libcurl list
check "list loads libcurl (url_escape of its label selector included)" [ $? -eq 0 ]
check "... and lists the TrainJob" grep -q '^trainjob-demo-with-image ' "$work/out"
finish
