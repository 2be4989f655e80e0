# Sourced by start/training-operator.sh and start/mpi-operator.sh after they set `here`, `dir`,
# `name`, `log`, `fail` and `kubectl`: what both do before their operator starts. It builds
# the group (sets `bin`), stops the operator a run before started on DIR (sets `pidfile`), and
# installs the group's CRDs and DIR/crds/*, Established, since the operator reads its kinds at
# start-up.

# Build output goes to a log: only a failure is shown.
bin=$("$here/../../cluster/build_groups.sh" oracle "$name" 2>"$dir/logs/$name-build.log") ||
  { cat "$dir/logs/$name-build.log" >&2; exit 1; }
bin=$bin/$name

# An operator this script started before on DIR goes first (down.sh's test: DIR/ in its cmdline).
pidfile=$dir/pids/$name.pid
if [ -f "$pidfile" ] && tr '\0' '\n' <"/proc/$(cat "$pidfile")/cmdline" 2>/dev/null | grep -qF "$dir/"; then
  kill "$(cat "$pidfile")"
  while kill -0 "$(cat "$pidfile")" 2>/dev/null; do sleep 0.1; done
fi

# CRDs, server-side (they are too large for the last-applied annotation).
kubectl apply --server-side --force-conflicts -f "$bin/crds/" -f "$dir/crds/" >/dev/null 2>"$log" ||
  fail "the API server refused the CRDs"
for try in $(seq 100); do  # a CRD with no conditions yet fails the wait at once: again
  kubectl wait --for=condition=Established --timeout=30s -f "$bin/crds/" -f "$dir/crds/" >/dev/null 2>>"$log" && break
  [ "$try" -lt 100 ] || fail "the CRDs were not Established"
  sleep 0.3
done
