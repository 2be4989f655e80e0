#!/usr/bin/env bash
# Trainer v2.3.0's own examples and stock runtimes, as upstream ships them, compile for
# Trainer 2.4: nothing that worked on 2.3 breaks with the default release (and the example
# upstream's own webhook refuses is refused). Needs the
# reference copies (../shared/reference beside the repository); CMake registers the test
# only where they are.
set -uo pipefail
bin=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

reference="$source_dir/../shared/reference/kubeflow-trainer-v2.3.0"
render() {  # render FILE...: for 2.4, with the examples' own runtimes (Flux's) searchable
  local args=()
  for file in "$@"; do args+=(-f "$file"); done
  "$bin" render --trainer-version 2.4 --runtimes "$reference/examples" "${args[@]}" \
    > "$work/out" 2> "$work/err" || { cat "$work/err" >&2; return 1; }
  grep -q '^kind: Job$' "$work/out"
}

# refused FILE PATTERN: render refuses FILE with an error matching PATTERN.
refused() {
  ! "$bin" render --trainer-version 2.4 --runtimes "$reference/examples" -f "$1" >/dev/null 2>"$work/err" &&
    grep -q "$2" "$work/err"
}

for example in "$reference"/examples/*.yaml; do
  grep -q '^kind: TrainJob' "$example" || continue
  case $(basename "$example") in
    # Upstream's own webhook refuses it (tests/oracle shows it): its runtime's initializer
    # containers have no volumeMount named initializer.
    05-multi-step.yaml)
      check "example 05-multi-step.yaml is refused, as upstream's webhook refuses it" \
        refused "$example" 'has no volumeMount named "initializer"' ;;
    *) check "example $(basename "$example") renders for Trainer 2.4" render "$example" ;;
  esac
done
for runtime in "$reference"/runtimes/*.yaml; do
  name=$(sed -n 's/^  name: //p' "$runtime" | head -1)
  trainjob="$work/$name.yaml"
  printf 'apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: on-%s}\nspec:\n  runtimeRef: {name: %s}\n' \
    "${name//./-}" "$name" > "$trainjob"
  check "stock runtime $name renders for Trainer 2.4" render "$runtime" "$trainjob"
done
finish
