#!/usr/bin/env bash
# run --local --launcher auto remembers a host torchrun that failed its trial launch: the
# first run launches it and says why it failed; later runs neither launch it again nor repeat
# the reason, until the torchrun changes. The torchrun here is a script on PATH that fails
# its trial launch (`-m site`) as Debian's 1.13 does on Python 3.11, and runs the rest.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

mkdir -p "$work/bin"
cat >"$work/bin/torchrun" <<SH
#!/bin/sh
case " \$* " in
  *" -m site "*) echo trial >>"$work/trials"
                 echo "AttributeError: 'NoneType' object has no attribute 'get'" >&2; exit 1 ;;
esac
echo "ran \$*"
SH
chmod +x "$work/bin/torchrun"
echo 'print("ran")' >"$work/train.py"
{
  local_runtime launch-case '["torchrun", "--nproc_per_node", "1", "'"$work"'/train.py"]'
  printf -- '---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: launch\nspec:\n  runtimeRef:\n    name: launch-case\n'
} >"$work/job.yaml"
run() { PATH="$work/bin:$PATH" XDG_CACHE_HOME="$work/cache" TRAINJOB_CACHE= \
  "$binary" run --local -f "$work/job.yaml" >"$work/out" 2>"$work/err"; }
trials() { wc -l <"$work/trials" 2>/dev/null || echo 0; }

run
check "first run: exit 0" test $? -eq 0
check "... the trial launch ran once and its reason is said" bash -c "
  [ $(trials) -eq 1 ] && grep -q \"failed a trial launch (torchrun --nproc_per_node 1 .*AttributeError: 'NoneType'\" '$work/err'"
check "... remembered under XDG_CACHE_HOME/kubectl-trainjob, keyed by the torchrun's path" \
  grep -q "^$work/bin/torchrun	[0-9]*	[0-9]*	exit status 1: AttributeError" "$work/cache/kubectl-trainjob/torchrun-trials"
run
check "second run: exit 0, no trial launch" bash -c "[ $? -eq 0 ] && [ $(trials) -eq 1 ]"
check "... the reason is not repeated; one line names the cache" bash -c "
  ! grep -q AttributeError '$work/err' &&
  grep -q \"the host's $work/bin/torchrun failed its trial launch before (remembered in $work/cache/kubectl-trainjob/torchrun-trials until it changes)\" '$work/err'"
echo '# upgraded' >>"$work/bin/torchrun"
run
check "a changed torchrun is tried again" bash -c "[ $(trials) -eq 2 ] && grep -q AttributeError '$work/err'"
finish
