#!/usr/bin/env bash
# Every flag of every command takes every spelling kubectl's pflag accepts, and reads it as
# the canonical one does: `-x v`, `-x=v`, `-xv`, `--long v`, `--long=v`, `-x==v` (the value
# "=v"); for switches `-x`, `--long`, `--long=true|false`, `-x=true|false`. The commands
# and their flags come from the binary's own --help (subcommands of subcommands too), so a
# flag or command added later is walked without a change here. KUBECTL_TRAINJOB_PARSE_ONLY=1
# makes the binary print the flags as it read them and run nothing, so each spelling's
# output, error and exit code are compared with the canonical spelling's.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"
export KUBECTL_TRAINJOB_PARSE_ONLY=1

# The option lines of one --help text, one a line: NAMES<TAB>TYPE (TYPE empty for a switch).
# CLI11 prints `  -o,--output TEXT:{a,b}=a  Description` (or the description on the next
# line when the names are long); names and type end at two spaces or at the line's end.
options_of() {
  sed -nE 's/^  (-[-A-Za-z0-9]+(,-[-A-Za-z0-9]+)*)( ([^ ]+( [^ ]+)*))?( {2,}.*)?$/\1\t\4/p'
}
# The positional lines of one --help text marked REQUIRED: NAME<TAB>TYPE.
required_positionals() {
  awk '/^Positionals:/ { inside = 1; next } /^[^ ]/ { inside = 0 }
    inside && /^  [^ -]/ && / REQUIRED/ { print $1 "\t" $2 }'
}
subcommands_of() {
  awk '/^Subcommands:/ { inside = 1; next } inside && /^  [a-z]/ { print $1 }
    inside && /^[^ ]/ { inside = 0 }'
}
# A value TYPE accepts: the first of its choices, a number, a duration, else a word.
value_for() {
  local type=${1%%=*}  # `DURATION=0`: the default is not part of the type
  if [[ $1 == *:\{* ]]; then
    local choices=${1#*:\{}
    choices=${choices%%\}*}
    echo "${choices%%,*}"
    return
  fi
  case $type in
    INT* | N | N:* | K | K:*) echo 3 ;;
    DURATION*) echo 5s ;;
    SHELL) echo bash ;;
    IMAGE=DIR*) echo img=dir ;;
    *) echo word ;;
  esac
}

# same COMMAND_WORDS CANONICAL_WORDS... -- SPELLED_WORDS...: both parse alike, and the
# canonical spelling parses (else the comparison would prove nothing).
same() {
  local words=() canonical=() spelled=()
  read -r -a words <<<"$1"
  shift
  while [ "$1" != -- ]; do canonical+=("$1"); shift; done
  shift
  spelled=("$@")
  local want got want_rc got_rc
  want=$("$binary" "${words[@]}" "${canonical[@]}" 2>&1)
  want_rc=$?
  got=$("$binary" "${words[@]}" "${spelled[@]}" 2>&1)
  got_rc=$?
  if [ "$want_rc" -ne 0 ]; then
    echo "canonical ${words[*]} ${canonical[*]} failed ($want_rc): $want" >&2
    return 1
  fi
  if [ "$got" != "$want" ] || [ "$got_rc" -ne "$want_rc" ]; then
    printf '%s\n' "${words[*]} ${spelled[*]} ($got_rc):" "$got" \
      "differs from ${canonical[*]} ($want_rc):" "$want" >&2
    return 1
  fi
}

walked=0
# walk COMMAND_WORDS: every flag of the command (and of its subcommands), every spelling.
walk() {
  local command=$1 help
  help=$("$binary" $command --help)
  # What the command needs to parse at all: its required positionals and flags (but not
  # the flag being walked, which would then be given twice).
  local base="" required=()
  while IFS=$'\t' read -r name type; do
    [ -n "$name" ] && base+=" $(value_for "$type")"
  done < <(required_positionals <<<"$help")
  while IFS=$'\t' read -r names type; do
    [[ $type == *REQUIRED* ]] || continue
    required+=("${names##*,}=$(value_for "${type%% *}")")
  done < <(options_of <<<"$help")

  while IFS=$'\t' read -r names type; do
    local short="" long=""
    case $names in
      -h,--help | --version) continue ;;  # they print and exit before anything is read
      -?,--*) short=${names%%,*} long=${names#*,} ;;
      --*) long=$names ;;
      -?) short=$names ;;
    esac
    local words="$command$base" flag
    for flag in "${required[@]}"; do
      [ "${flag%%=*}" = "${long:-$short}" ] || words+=" $flag"
    done
    walked=$((walked + 1))
    if [ -z "$type" ]; then  # a switch
      local canonical=${long:-$short}
      check "$command $canonical=true" same "$words" "$canonical" -- "$canonical=true"
      [ -z "$long" ] || check "$command $long=false" same "$words" "$long=false" -- "$long=false"
      if [ -n "$short" ]; then
        check "$command $short" same "$words" "$canonical" -- "$short"
        check "$command $short=true" same "$words" "$canonical" -- "$short=true"
        [ -z "$long" ] || check "$command $short=false" same "$words" "$long=false" -- "$short=false"
      fi
      continue
    fi
    local values=("$(value_for "${type%% *}")")
    # A value holding '=' after the first: kubectl's `-o=jsonpath=TEMPLATE`.
    [[ $type != *jsonpath* ]] || values+=("jsonpath={.metadata.name}")
    for value in "${values[@]}"; do
      local canonical=("${long:-$short}" "$value")
      [ -z "$long" ] || check "$command $long=$value" same "$words" "${canonical[@]}" -- "$long=$value"
      if [ -n "$short" ]; then
        check "$command $short $value" same "$words" "${canonical[@]}" -- "$short" "$value"
        check "$command $short=$value" same "$words" "${canonical[@]}" -- "$short=$value"
        check "$command $short$value" same "$words" "${canonical[@]}" -- "$short$value"
      fi
    done
    # A value that starts with '=' keeps it: pflag reads `-x==v` and `--long==v` as "=v"
    # (of a flag taking any word).
    if [ "${values[0]}" = word ] && [ -n "$short" ] && [ -n "$long" ]; then
      check "$command $short==v" same "$words" "$long" "=v" -- "$short==v"
      check "$command $long==v" same "$words" "$long" "=v" -- "$long==v"
    fi
  done < <(options_of <<<"$help")

  for sub in $(subcommands_of <<<"$help"); do
    walk "$command $sub"
  done
}

top=$("$binary" --help)
commands=$(subcommands_of <<<"$top")
check "--help lists the subcommands" test -n "$commands"
for command in $commands; do
  walk "$command"
done
echo "$walked flags walked"
check "every command's flags were walked (more than 100)" test "$walked" -gt 100
finish
