#!/usr/bin/env bash
# run --local's feedback: runPolicy.cleanPodPolicy once a legacy kind's rule is met, the
# summary line every run ends with, the live progress line on a terminal (raw when piped),
# and colour on a terminal (off when piped, NO_COLOR honoured). The terminal is a pty from
# util-linux's `script -qc`; those checks are skipped where it is missing.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

# pytorchjob NAME MASTER_COMMAND WORKER_COMMAND [CLEAN_POD_POLICY]: Master 1 + Worker 1.
pytorchjob() {
  local policy=""
  [ -z "${4:-}" ] || policy="runPolicy: {cleanPodPolicy: $4}"
  cat <<YAML
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: $1
spec:
  $policy
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
              command: ["sh", "-c", '$2']
    Worker:
      replicas: 1
      template:
        spec:
          containers:
            - name: pytorch
              image: pytorch-demo
              command: ["sh", "-c", '$3']
YAML
}

# cleanPodPolicy None, the default: the Master ends at once, the Worker still prints.
pytorchjob pt-none 'echo master done' 'sleep 0.3; echo worker done' >"$work/none.yaml"
"$binary" run --local -f "$work/none.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "default cleanPodPolicy None: exit 0" test $? -eq 0
check "... the Worker ran to its end after the Master finished" \
  grep -qx "\[worker-0\] worker done" "$work/out.txt"
check "... and why it was left to run is said" \
  grep -q "PyTorchJob succeeded by its rule (master); cleanPodPolicy None: the pods still running run to their end" "$work/err.txt"
check "... the summary is the last line: both pods, their exit codes, the time" \
  bash -c "tail -1 '$work/err.txt' | grep -Eqx 'succeeded: 2 pods \(master-0 0, worker-0 0\) in [0-9]+\.[0-9]s'"

# A Worker failing after the Master succeeded does not change the outcome.
pytorchjob pt-late 'echo master done' 'sleep 0.3; exit 4' >"$work/late.yaml"
"$binary" run --local -f "$work/late.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "a Worker failing after the Master succeeded: still exit 0" test $? -eq 0
check "... said, with its exit code in the summary" \
  bash -c "grep -q 'failed with exit status 4; the PyTorchJob had already succeeded' '$work/err.txt' &&
           tail -1 '$work/err.txt' | grep -q '(master-0 0, worker-0 4)'"

# cleanPodPolicy Running: the Worker is stopped, what it printed so far is shown first.
pytorchjob pt-running 'sleep 0.3; echo master done' 'echo worker started; sleep 30; echo never' \
  Running >"$work/running.yaml"
start=$(date +%s)
"$binary" run --local -f "$work/running.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "cleanPodPolicy Running: exit 0" test $? -eq 0
check "... without waiting for the Worker" test $(($(date +%s) - start)) -lt 20
check "... whose output so far is shown, and nothing after" \
  bash -c "grep -qx '\[worker-0\] worker started' '$work/out.txt' && ! grep -q never '$work/out.txt'"
check "... and which the summary names as stopped by the policy, not failed" \
  bash -c "tail -1 '$work/err.txt' | grep -Eqx 'succeeded: 2 pods \(master-0 0, worker-0 stopped by cleanPodPolicy Running\) in [0-9.]+s'"
check "... with no failure reported for it" bash -c "! grep -q 'worker-0.*failed' '$work/err.txt'"

# A failed run: the summary says so, before the error.
pytorchjob pt-fail 'echo master fails; exit 3' 'sleep 30' >"$work/fail.yaml"
"$binary" run --local -f "$work/fail.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "Master exits 3: exit 1" test $? -eq 1
check "... the summary names the exit code and the pod the failure stopped" \
  grep -Eqx 'failed: 2 pods \(master-0 3, worker-0 stopped by the failure\) in [0-9.]+s' "$work/err.txt"

# A TrainJob (every pod must succeed) ends with the same line; progress lines stay raw
# when stdout is not a terminal.
progress='for s in 1 2 3; do echo "TRAINJOB_PROGRESS {\"epoch\":1,\"epochs\":1,\"step\":$s,\"totalSteps\":3,\"loss\":0.$s}"; sleep 0.1; done; echo trained'
write_local_case "$work/tj.yaml" 2 "[sh, -c, '$progress']" "[]" "[]" "{}"
"$binary" run --local -f "$work/tj.yaml" >"$work/out.txt" 2>"$work/err.txt"
check "TrainJob: exit 0" test $? -eq 0
check "... ends with the summary of its pods" \
  bash -c "tail -1 '$work/err.txt' | grep -Eqx 'succeeded: 2 pods \(node-0 0, node-1 0\) in [0-9.]+s'"
check "... piped: the progress lines are printed as they are" \
  test "$(grep -c '^\[node-[01]\] TRAINJOB_PROGRESS {"epoch":1' "$work/out.txt")" -eq 6
check "... piped: no colour and no cursor movement" bash -c "! grep -q $'\033' '$work/out.txt' '$work/err.txt'"

# Colour when forced, and NO_COLOR over it, on a diagnostic and on the summary.
printf 'apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: x}\nspec: {}\n' \
  >"$work/bad.yaml"
CLICOLOR_FORCE=1 "$binary" validate -f "$work/bad.yaml" >"$work/out.txt" 2>&1
check "CLICOLOR_FORCE=1: the diagnostic's error: is red" grep -q $'\033\[1;31merror:\033\[0m' "$work/out.txt"
NO_COLOR=1 CLICOLOR_FORCE=1 "$binary" validate -f "$work/bad.yaml" >"$work/out.txt" 2>&1
check "NO_COLOR=1 wins: no escape codes" bash -c "! grep -q $'\033' '$work/out.txt' && grep -q 'error:' '$work/out.txt'"
CLICOLOR_FORCE=1 "$binary" run -f "$work/tj.yaml" >/dev/null 2>"$work/err.txt"
check "CLICOLOR_FORCE=1: a usage error's error: is red" grep -q $'^\033\[1;31merror:\033\[0m run needs --local' "$work/err.txt"
CLICOLOR_FORCE=1 "$binary" run --local -f "$work/tj.yaml" >/dev/null 2>"$work/err.txt"
check "CLICOLOR_FORCE=1: the summary's succeeded: is green" grep -q $'^\033\[32msucceeded:\033\[0m 2 pods' "$work/err.txt"

# On a terminal (a pty from script(1)): colour by default, a live progress line.
if ! script -qc true /dev/null >/dev/null 2>&1; then
  echo "script(1) is not available: the terminal checks are skipped" >&2
  finish
  exit $?
fi
# on_tty ENV... -- COMMAND: COMMAND (one shell string) run on a pty, with ENV set (TERM=xterm).
on_tty() {
  local vars=()
  while [ "$1" != -- ]; do vars+=("$1"); shift; done
  env -u NO_COLOR -u CLICOLOR_FORCE TERM=xterm "${vars[@]}" script -qec "$2" /dev/null </dev/null
}
on_tty -- "'$binary' run --local -f '$work/tj.yaml'" >"$work/tty.txt" 2>&1
check "terminal: exit 0" test $? -eq 0
check "terminal: the progress lines become a live line, redrawn in place" \
  grep -q $'\r\033\[K\[node-[01]\] epoch 1/1, step 3/3 (100%), loss 0.3' "$work/tty.txt"
check "terminal: no raw progress line" bash -c "! grep -q 'TRAINJOB_PROGRESS' '$work/tty.txt'"
check "terminal: the other output is still there" grep -q '\[node-1\] trained' "$work/tty.txt"
check "terminal: the summary is coloured" grep -q $'\033\[32msucceeded:' "$work/tty.txt"
on_tty -- "'$binary' validate -f '$work/bad.yaml'" >"$work/tty.txt" 2>&1
check "terminal: the error is red" grep -q $'\033\[1;31merror:' "$work/tty.txt"
on_tty NO_COLOR=1 -- "'$binary' validate -f '$work/bad.yaml'" >"$work/tty.txt" 2>&1
check "terminal with NO_COLOR=1: the error is not coloured" \
  bash -c "grep -q 'error:' '$work/tty.txt' && ! grep -q $'\033\[1;31m' '$work/tty.txt'"
# Ctrl-C exits 130, as a shell reports a command SIGINT ended and as a sweep exits.
pytorchjob pt-int "echo started > $work/int-started; sleep 30" 'sleep 30' >"$work/int.yaml"
rm -f "$work/int-started"
"$binary" run --local -f "$work/int.yaml" >"$work/out.txt" 2>"$work/err.txt" &
plugin=$!
for _ in $(seq 100); do [ -e "$work/int-started" ] && break; sleep 0.1; done
kill -INT $plugin
wait $plugin
check "Ctrl-C: exit 130" test $? -eq 130
check "... the summary says the interrupt stopped the pods" \
  grep -q '^failed: 2 pods (master-0 stopped by interrupt, worker-0 stopped by interrupt)' "$work/err.txt"

finish
