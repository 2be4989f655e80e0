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
export -f kc has

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
check "-o values of list (its own set)" diff <(printf 'table\nwide\nyaml\njson\nname\njsonpath=\n:4\n') <(kc list -o "")
check "-o values of status, after its NAME" diff <(printf 'table\nyaml\njson\njsonpath=\n:4\n') <(kc status x -o "")
check "--output=... completes the value" diff <(printf 'json\n:4\n') <(kc render --output=j)
check "--trainer-version: the releases understood" \
  diff <(printf '2.0\n2.1\n2.2\n2.3\n2.4\n:4\n') <(kc validate --trainer-version "")
check "convert --to: the releases and trainjob" bash -c "kc convert --to '' | has trainjob && kc convert --to '' | has 2.4"
check "init --mode values" diff <(printf 'configmap\nhostpath\nimage\n:4\n') <(kc init job --mode "")
"$bin" runtimes | awk 'NR > 1 {print $1}' | sort -u > "$work/runtimes"
check "init --runtime: every embedded runtime" diff <(cat "$work/runtimes"; echo :4) \
  <(kc init job --runtime "")
check "convert --runtime: by prefix" diff <(printf 'xgboost-distributed\n:4\n') <(kc convert --runtime xgb)
check "-f: manifest files by extension (FilterFileExt)" diff <(printf 'yaml\nyml\njson\n:8\n') \
  <(kc render -f "")
check "--runtimes: directories (FilterDirs)" diff <(echo :16) <(kc render --runtimes "")
check "completion SHELL values" diff <(printf 'bash\nzsh\nfish\n:4\n') <(kc completion "")

# Against a cluster: the TrainJobs submitted to the namespace.
start_with_demo
"$bin" submit -f "$src/tests/apiserver/fixtures/three-step.yaml" > /dev/null 2>&1
for command in status logs delete suspend resume; do
  check "$command: TrainJob names from the cluster" \
    diff <(printf 'trainjob-demo-with-image\ntune\n:4\n') <(kc $command "")
done
check "names by prefix" diff <(printf 'tune\n:4\n') <(kc status tu)
check "TYPE/NAME: the names after the TYPE/ typed" \
  diff <(printf 'pytorchjob/trainjob-demo-with-image\npytorchjob/tune\n:4\n') <(kc status pytorchjob/)
check "TYPE/NAME by prefix" diff <(printf 'trainjob/tune\n:4\n') <(kc logs trainjob/tu)
check "TYPE NAME: the names after a TYPE word" diff <(printf 'tune\n:4\n') <(kc delete trainjobs tu)
check "the namespace typed is the one asked" diff <(echo :4) <(kc status -n elsewhere "")
check "--kubeconfig typed is the one used" diff <(echo :4) \
  <(kc status --kubeconfig "$work/missing" "")
check "no name after the first" diff <(echo :4) <(kc status tune "")
check "-n: the cluster's namespaces" diff <(printf 'default\nkube-system\n:4\n') <(kc status -n "")
check "--namespace=: by prefix" diff <(printf 'kube-system\n:4\n') <(kc list --namespace=k)
check "--context: the kubeconfig's contexts" diff <(printf 'bob\ncarol\ntest\n:4\n') \
  <(kc logs --context "")
check "the standalone command answers the same" \
  diff <(printf 'trainjob-demo-with-image\ntune\n:4\n') <(kubectl-trainjob __complete status "" | cut -f1)
# An OptimizationJob's trial submitted: its name follows the TrainJobs', by itself or its TYPE.
"$bin" submit -f "$src/templates/sweep-linear.yaml" --trial 1 > /dev/null 2>&1
check "delete: the OptimizationJob beside its trial" \
  bash -c "kc delete '' | grep -qx sweep-linear && kc delete '' | grep -qx sweep-linear-trial-1"
check "optimizationjob/: the OptimizationJobs alone" \
  diff <(printf 'optimizationjob/sweep-linear\n:4\n') <(kc status optimizationjob/)
stop_apiserver
check "a cluster that is down: no names, no error" diff <(echo :4) <(kc status "")
check "... no namespaces either" diff <(echo :4) <(kc status -n "")
check "--context needs no cluster" diff <(printf 'carol\n:4\n') <(kc status --context c)
# Timed on the helper as kubectl runs it: kubectl itself waits on a dead kubeconfig server
# for seconds of its own before it starts the helper.
helper=$work/p/bin/kubectl_complete-trainjob
start=$(date +%s%N)
"$helper" status "" > "$work/down" 2> "$work/down.err"
elapsed=$((($(date +%s%N) - start) / 1000000))
check "the helper: no names, nothing on stderr" bash -c "[ \"\$(cat '$work/down')\" = :4 ] && [ ! -s '$work/down.err' ]"
# Refused at once, so well before the 5 s completion deadline (a bound on the deadline, not a
# timing of this machine).
check "... without waiting for the deadline (${elapsed} ms)" [ "$elapsed" -lt 4500 ]
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
check "a silent cluster: no names through kubectl" diff <(echo :4) \
  <(kc status --kubeconfig "$api/silent-kubeconfig" "")
start=$(date +%s%N)
"$helper" status --kubeconfig "$api/silent-kubeconfig" "" > "$work/silent"
elapsed=$((($(date +%s%N) - start) / 1000000))
check "a silent cluster: no names from the helper" diff <(echo :4) "$work/silent"
check "... after the completion deadline, not the request's (${elapsed} ms)" \
  [ "$elapsed" -ge 4500 -a "$elapsed" -lt 9000 ]
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
# tab plain|--bash-completion LINE: COMPREPLY for the line with the cursor at its end, the
# words split as bash splits them (at blanks and at '=', which is in COMP_WORDBREAKS).
tab() {
  local preload=""
  [ "$1" = --bash-completion ] && preload="source /usr/share/bash-completion/bash_completion;"
  bash -c "$preload"'
    source "$1"; line=$2
    read -r -a COMP_WORDS <<<"${line//=/ = }"; [[ $line == *[\ =] ]] && COMP_WORDS+=("")
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
    diff <(echo xgboost-distributed) <(tab --bash-completion "kubectl-trainjob init x --runtime xgb")
fi

# fish completes a command line on request (complete -C), through the script's function.
if command -v fish > /dev/null; then
  "$bin" completion fish > "$work/completion.fish"
  fishc() { fish --no-config -c "source '$work/completion.fish'; complete -C'$1'" | cut -f1 | sort; }
  check "fish: subcommands" diff <(printf 'render\nrun\nruntimes\nresume\n' | sort) \
    <(fishc "kubectl-trainjob r")
  check "fish: -o values" diff <(printf 'json\nyaml\n') <(fishc "kubectl-trainjob render -o ")
  check "fish: --output=j keeps the flag" diff <(echo --output=json) \
    <(fishc "kubectl-trainjob render --output=j")
  check "fish: -f offers manifests and directories" \
    diff <(printf '%s\n' "$work/files/a.yaml" "$work/files/b.json" "$work/files/sub/" | sort) \
    <(fishc "kubectl-trainjob render -f $work/files/")
fi
# zsh: the function hands zsh's completion system the candidates (its helpers recorded).
if command -v zsh > /dev/null; then
  "$bin" completion zsh > "$work/completion.zsh"
  check "the zsh script parses" zsh -n "$work/completion.zsh"
  zshc() {
    zsh -f -c '
      _describe() { print -l -- ${(P)4}; }
      _files() { print -- "_files $*"; }
      compset() { :; }
      compdef() { :; }
      source "$1"; shift
      words=("$@"); CURRENT=$#
      _kubectl_trainjob' _ "$work/completion.zsh" "$@" | sed 's/\\:/:/g' | sort
  }
  zshc kubectl-trainjob ren > "$work/zsh-ren"
  check "zsh: subcommands with descriptions" grep -qx 'render:Compile.*' "$work/zsh-ren"
  check "zsh: -o values" diff <(printf 'json\nyaml\n') <(zshc kubectl-trainjob render -o "")
  check "zsh: -f hands _files the extensions" diff <(echo '_files -g *.(yaml|yml|json)') \
    <(zshc kubectl-trainjob render -f "")
  check "zsh: --runtimes hands _files directories" diff <(echo '_files -/') \
    <(zshc kubectl-trainjob render --runtimes "")
fi

"$bin" completion tcsh > "$work/out" 2> "$work/err"
check "an unknown shell is a usage error" [ $? -eq 2 ]
check "... printing nothing" [ ! -s "$work/out" ]
finish
