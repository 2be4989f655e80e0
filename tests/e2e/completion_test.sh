#!/bin/bash
# Shell completion: the scripts `completion` prints, driven by a real bash, and kubectl's
# plugin completion (`kubectl __complete trainjob ...`) through the installed
# kubectl_complete-trainjob, offline and against the test API server.
bin=$1
src=$2
build=$(dirname "$bin")
source "$src/tests/e2e/lib.sh"
source "$src/tests/apiserver/testlib.sh"

cmake --install "$build" --prefix "$work/p" > /dev/null
export PATH=$work/p/bin:$PATH

# kc WORDS...: the candidates kubectl's plugin completion offers (descriptions cut).
kc() { kubectl __complete trainjob "$@" 2> /dev/null | cut -f1; }
# has WORD < candidates
has() { grep -qx -- "$1"; }

kc "" > "$work/top"
check "kubectl completes the subcommands" \
  bash -c "grep -qx render '$work/top' && grep -qx status '$work/top' && grep -qx completion '$work/top'"
check "... never the hidden __complete" bash -c "! grep -q __complete '$work/top'"
check "... and ends with the no-file directive" bash -c "tail -1 '$work/top' | grep -qx ':4'"
check "subcommands by prefix" diff <(printf 'render\nrun\nruntimes\nresume\n:4\n' | sort) \
  <(kc r | sort)
check "descriptions after a tab" bash -c "kubectl __complete trainjob ren 2>/dev/null | grep -q \$'^render\tCompile'"
check "flags of render" bash -c "kc render --o | has --output && kc render --o | has --output-dir"
check "short flags after a single dash" bash -c "kc render - | has -o && kc render - | has -f"
check "-o values of render" diff <(printf 'yaml\njson\n:4\n') <(kc render -o "")
check "-o values of status (its own set)" bash -c "kc status x -o '' | has wide && kc status x -o '' | has name"
check "--output=... completes the value" diff <(printf 'json\n:4\n') <(kc render --output=j)
check "--trainer-version: the releases understood" \
  diff <(printf '2.0\n2.1\n2.2\n2.3\n:4\n') <(kc validate --trainer-version "")
check "convert --to: the releases and trainjob" bash -c "kc convert --to '' | has trainjob && kc convert --to '' | has 2.3"
check "init --mode values" diff <(printf 'configmap\nhostpath\nimage\n:4\n') <(kc init job --mode "")
"$bin" runtimes | awk 'NR > 1 {print $1}' | sort -u > "$work/runtimes"
check "init --runtime: every embedded runtime" diff <(cat "$work/runtimes"; echo :4) \
  <(kc init job --runtime "")
check "convert --runtime: by prefix" diff <(printf 'torch-distributed\n:4\n') <(kc convert --runtime torch-d)
check "-f: manifest files by extension (FilterFileExt)" diff <(printf 'yaml\nyml\njson\n:8\n') \
  <(kc render -f "")
check "--runtimes: directories (FilterDirs)" diff <(echo :16) <(kc render --runtimes "")
check "completion SHELL values" diff <(printf 'bash\nzsh\nfish\n:4\n') <(kc completion "")

# Against a cluster: the TrainJobs submitted to the namespace.
start_apiserver
"$bin" submit -f "$src/templates/image.yaml" > /dev/null
"$bin" submit -f "$src/tests/apiserver/fixtures/three-step.yaml" > /dev/null 2>&1
for command in status logs delete suspend resume; do
  check "$command: TrainJob names from the cluster" \
    diff <(printf 'trainjob-demo-with-image\ntune\n:4\n') <(kc $command "")
done
check "names by prefix" diff <(printf 'tune\n:4\n') <(kc status t)
check "the namespace typed is the one asked" diff <(echo :4) <(kc status -n elsewhere "")
check "--kubeconfig typed is the one used" diff <(echo :4) \
  <(kc status --kubeconfig "$work/missing" "")
check "no name after the first" diff <(echo :4) <(kc status tune "")
check "the standalone command answers the same" \
  diff <(printf 'trainjob-demo-with-image\ntune\n:4\n') <(kubectl-trainjob __complete status "" | cut -f1)
stop_apiserver
start=$(date +%s%N)
kc status "" > "$work/down"
elapsed=$((($(date +%s%N) - start) / 1000000))
check "a cluster that is down: no names, no error" diff <(echo :4) "$work/down"
check "... at once (${elapsed} ms)" [ "$elapsed" -lt 3000 ]
# A server that accepts connections and never answers: completion gives up in time.
/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1], "w").write(str(s.getsockname()[1])); time.sleep(60)' "$work/silent-port" &
silent_pid=$!
trap 'kill $silent_pid 2>/dev/null; rm -rf "$work"' EXIT
eventually test -s "$work/silent-port"
sed "s#server: https://127.0.0.1:[0-9]*#server: https://127.0.0.1:$(cat "$work/silent-port")#" \
  "$api/kubeconfig" > "$api/silent-kubeconfig"
start=$(date +%s%N)
kc status --kubeconfig "$api/silent-kubeconfig" "" > "$work/silent"
elapsed=$((($(date +%s%N) - start) / 1000000))
check "a silent cluster: no names" diff <(echo :4) "$work/silent"
check "... after the completion deadline, not the request's (${elapsed} ms)" \
  [ "$elapsed" -ge 1500 -a "$elapsed" -lt 5000 ]
kill $silent_pid 2> /dev/null

# The scripts, driven by bash as the shell drives them at TAB.
"$bin" completion bash > "$work/completion.bash"
check "the bash script parses" bash -n "$work/completion.bash"
check "installed bash completion is the one printed" \
  cmp "$work/completion.bash" "$work/p/share/bash-completion/completions/kubectl-trainjob"
check "zsh script installed for compinit" \
  cmp <("$bin" completion zsh) "$work/p/share/zsh/site-functions/_kubectl-trainjob"
check "fish script installed" \
  cmp <("$bin" completion fish) "$work/p/share/fish/vendor_completions.d/kubectl-trainjob.fish"
# tab [--bash-completion] LINE: COMPREPLY for the line with the cursor at its end.
tab() {
  local preload=""
  if [ "$1" = --bash-completion ]; then
    preload="source /usr/share/bash-completion/bash_completion;"
    shift
  fi
  bash -c "$preload"'
    source "$1"; line=$2
    read -r -a COMP_WORDS <<<"$line"; [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$line; COMP_POINT=${#line}
    _kubectl_trainjob; printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$work/completion.bash" "$2"
}
check "bash: subcommands" diff <(printf 'render\nrun\nruntimes\nresume\n' | sort) \
  <(tab plain "kubectl-trainjob r")
check "bash: -o values" diff <(printf 'json\nyaml\n') <(tab plain "kubectl-trainjob render -o ")
check "bash: --output=j" diff <(echo json) <(tab plain "kubectl-trainjob render --output=j")
mkdir -p "$work/files/sub"
touch "$work/files/a.yaml" "$work/files/b.json" "$work/files/c.txt"
check "bash: -f offers manifests and directories, not other files" \
  diff <(printf '%s\n' "$work/files/a.yaml" "$work/files/b.json" "$work/files/sub" | sort) \
  <(tab plain "kubectl-trainjob render -f $work/files/")
check "bash: --runtimes offers directories only" diff <(echo "$work/files/sub") \
  <(tab plain "kubectl-trainjob render --runtimes $work/files/")
if [ -f /usr/share/bash-completion/bash_completion ]; then
  check "bash with bash-completion: --output=y" \
    diff <(echo yaml) <(tab --bash-completion "kubectl-trainjob render --output=y")
  check "bash with bash-completion: runtimes" \
    diff <(echo torch-distributed) <(tab --bash-completion "kubectl-trainjob init x --runtime torch-d")
fi

"$bin" completion tcsh > "$work/out" 2> "$work/err"
check "an unknown shell is a usage error" [ $? -eq 2 ]
check "... printing nothing" [ ! -s "$work/out" ]
finish
