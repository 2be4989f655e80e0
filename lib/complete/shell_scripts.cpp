#include "complete/shell_scripts.h"

namespace trainjob {
namespace {

// The scripts use PROGRAM for the command's name and FUNC for a shell-safe form of it.
// Directive bits (see completion.h): 1 error, 2 no space, 4 no file names, 8 the
// candidates are file extensions, 16 directories only.

const char* const kBashScript = R"SCRIPT(# bash completion for PROGRAM
# Load it with: source <(PROGRAM completion bash)
_FUNC() {
    local cur words cword
    if declare -F _get_comp_words_by_ref >/dev/null; then
        # bash-completion keeps --flag=value and a:b as one word
        _get_comp_words_by_ref -n =: cur words cword
    else
        read -r -a words <<<"${COMP_LINE:0:COMP_POINT}"
        [[ ${COMP_LINE:COMP_POINT-1:1} == " " ]] && words+=("")
        cword=$((${#words[@]} - 1))
        cur=${words[cword]}
    fi
    local out
    out=$("${words[0]}" __complete "${words[@]:1:cword-1}" "$cur" 2>/dev/null) || return 0
    local -a lines candidates
    mapfile -t lines <<<"$out"
    local last=${lines[${#lines[@]}-1]}
    [[ $last == :* ]] || return 0
    local directive=${last#:}
    local line
    for line in "${lines[@]:0:${#lines[@]}-1}"; do
        candidates+=("${line%%$'\t'*}")
    done
    (( directive & 1 )) && return 0
    # bash splits --flag=value at '=': only the value is replaced
    [[ $cur == --*=* ]] && cur=${cur#*=}
    (( directive & 2 )) && compopt -o nospace 2>/dev/null
    if (( directive & 8 )); then
        local ext
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur"))
        for ext in "${candidates[@]}"; do
            COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur"))
        done
    elif (( directive & 16 )); then
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur"))
    elif (( ${#candidates[@]} > 0 )); then
        COMPREPLY=($(compgen -W "${candidates[*]}" -- "$cur"))
    elif (( (directive & 4) == 0 )); then
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _FUNC PROGRAM
)SCRIPT";

const char* const kZshScript = R"SCRIPT(#compdef PROGRAM
# zsh completion for PROGRAM
# Load it with: source <(PROGRAM completion zsh), or put it in $fpath as _PROGRAM
_FUNC() {
    local out directive line value
    local -a lines candidates
    out=$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
    lines=("${(@f)out}")
    [[ ${lines[-1]} == :* ]] || return 1
    directive=${lines[-1]#:}
    lines=("${(@)lines[1,-2]}")
    (( directive & 1 )) && return 1
    # --flag=value: only the value is completed
    [[ ${words[CURRENT]} == --*=* ]] && compset -P '*='
    if (( directive & 8 )); then
        local -a exts
        for line in "${lines[@]}"; do exts+=("${line%%$'\t'*}"); done
        _files -g "*.(${(j:|:)exts})"
        return
    fi
    if (( directive & 16 )); then
        _files -/
        return
    fi
    for line in "${lines[@]}"; do
        [[ -z $line ]] && continue
        value=${line%%$'\t'*}
        if [[ $line == *$'\t'* ]]; then
            candidates+=("${value//:/\\:}:${line#*$'\t'}")
        else
            candidates+=("${value//:/\\:}")
        fi
    done
    if (( ${#candidates} > 0 )); then
        if (( directive & 2 )); then
            _describe -t values 'values' candidates -S ''
        else
            _describe -t values 'values' candidates
        fi
    elif (( (directive & 4) == 0 )); then
        _files
    fi
}
if [[ $funcstack[1] == _FUNC ]]; then
    _FUNC "$@"
else
    compdef _FUNC PROGRAM
fi
)SCRIPT";

const char* const kFishScript = R"SCRIPT(# fish completion for PROGRAM
# Load it with: PROGRAM completion fish | source
function __FUNC_complete
    set -l args (commandline -opc)
    set -l current (commandline -ct)
    set -l out ($args[1] __complete $args[2..-1] "$current" 2>/dev/null)
    or return
    string match -q -r '^:[0-9]+$' -- $out[-1]; or return
    set -l directive (string sub -s 2 -- $out[-1])
    set -e out[-1]
    test (math "bitand($directive, 1)") -ne 0; and return
    # --flag=value: fish replaces the whole word, so the flag is written back in front
    set -l prefix ""
    if string match -q -- '--*=*' $current
        set prefix (string replace -r '=.*' '=' -- $current)
        set current (string replace -r '^[^=]*=' '' -- $current)
    end
    if test (math "bitand($directive, 8)") -ne 0
        for path in (__fish_complete_path $current)
            set -l name (string split -m 1 \t -- $path)[1]
            if string match -q -- '*/' $name
                echo $prefix$path
                continue
            end
            for ext in $out
                string match -q -- "*.$ext" $name; and echo $prefix$path
            end
        end
        return
    end
    if test (math "bitand($directive, 16)") -ne 0
        for path in (__fish_complete_directories $current)
            echo $prefix$path
        end
        return
    end
    if test (count $out) -gt 0
        for line in $out
            string match -q -- "$current*" $line; and echo $prefix$line
        end
    else if test (math "bitand($directive, 4)") -eq 0
        __fish_complete_path $current
    end
end
complete -c PROGRAM -f -a '(__FUNC_complete)'
)SCRIPT";

void replace_all(const std::string& from, const std::string& to, std::string* text) {
  for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size()))
    text->replace(at, from.size(), to);
}

}  // namespace

const std::vector<std::string>& completion_shells() {
  static const std::vector<std::string> shells = {"bash", "zsh", "fish"};
  return shells;
}

std::optional<std::string> completion_script(const std::string& shell, const std::string& program) {
  std::string script;
  if (shell == "bash") {
    script = kBashScript;
  } else if (shell == "zsh") {
    script = kZshScript;
  } else if (shell == "fish") {
    script = kFishScript;
  } else {
    return std::nullopt;
  }
  std::string function = program;
  for (char& c : function)
    if (c == '-' || c == '.') c = '_';
  // FUNC first: PROGRAM never contains it, while a replaced PROGRAM may contain FUNC's text.
  replace_all("FUNC", function, &script);
  replace_all("PROGRAM", program, &script);
  return script;
}

}  // namespace trainjob
