#!/usr/bin/env bash
# convert preserves meaning: for every TrainJob of the render golden cases, the templates and
# the seeds, and every Trainer release V, render(x) == render(convert --to V x), byte for
# byte, unless convert refuses V (an error: V cannot express x) or the releases differ on
# purpose (docs/convert.md); each such case is named with its reason. Both sides render
# against the same runtimes (--runtimes runtimes/): the stock runtimes of the releases
# differ on purpose, and what is compared here is the TrainJob's meaning.
# Then: every v1 job the convert golden cases convert gives a TrainJob that validates.
set -uo pipefail
binary=$(realpath "$1")
source_dir=$(realpath "$2")
. "$(dirname "$0")/lib.sh"

compared=0
skipped=0
skip() {
  skipped=$((skipped + 1))
  echo "skip: $1"
}

# Why render(x) and render(convert x) may differ on purpose, or empty.
deliberate() {  # deliberate CASE_DIR TARGET
  local dir=$1 target=$2 release
  if grep -rqs 'resourcesPerNode' "$dir"; then
    for release in 2.3; do
      if [ "$target" = "$release" ] || grep -rqs 'runtimePatches' "$dir"; then
        echo "resourcesPerNode: Trainer 2.3 merges it into the runtime's resources, older releases replace them"
        return
      fi
    done
  fi
  if grep -rqs 'numProcPerNode: gpu' "$dir"; then
    echo "numProcPerNode gpu becomes the GPU count in 2.2+ (PET_NPROC_PER_NODE shows the number)"
    return
  fi
  if grep -rqsE 'deepspeed-distributed|mlx-distributed|mpi:' "$dir"; then
    echo "MPI: Trainer 2.3 sets file modes on the SSH Secret volume"
  fi
}

roundtrip() {  # roundtrip NAME DIR ARGS...
  local name=$1 dir=$2
  shift 2
  local target copy file reason
  for target in 2.0 2.1 2.2 2.3; do
    copy="$work/$name-$target"
    rm -rf "$copy"
    cp -r "$dir" "$copy"
    local refused=""
    for file in $(grep -rls '^kind: TrainJob' "$copy"); do
      if ! "$binary" convert --to "$target" -f "$file" >"$file.new" 2>"$work/err"; then
        refused="$(head -1 "$work/err")"
        break
      fi
      mv "$file.new" "$file"
    done
    if [ -n "$refused" ]; then
      skip "$name --to $target: Trainer $target cannot express it ($refused)"
      continue
    fi
    (cd "$dir" && "$binary" "$@" --runtimes "$source_dir/runtimes" >"$work/a.yaml" 2>/dev/null)
    local a=$?
    (cd "$copy" && "$binary" "$@" --runtimes "$source_dir/runtimes" >"$work/b.yaml" 2>"$work/b.err")
    local b=$?
    if [ "$a" -ne 0 ]; then
      skip "$name: does not render against the runtimes of runtimes/ (exit $a)"
      return
    fi
    if [ "$b" -eq 0 ] && cmp -s "$work/a.yaml" "$work/b.yaml"; then
      compared=$((compared + 1))
      passed=$((passed + 1))
      continue
    fi
    reason=$(deliberate "$dir" "$target")
    if [ -n "$reason" ] && [ "$b" -eq 0 ]; then
      skip "$name --to $target: differs on purpose: $reason"
      continue
    fi
    failed=$((failed + 1))
    echo "FAIL: $name --to $target: render differs (exit $b)" >&2
    head -3 "$work/b.err" >&2
    diff "$work/a.yaml" "$work/b.yaml" | head -20 >&2
  done
}

for dir in "$source_dir"/testdata/render/*/; do
  name=render/$(basename "$dir")
  [ "$(cat "$dir/expected.exit" 2>/dev/null)" = 0 ] || continue
  grep -rqs '^kind: TrainJob' "$dir" || continue
  read -r -a args <"$dir/args"
  [ "${args[0]}" = render ] || continue
  case " ${args[*]} " in
    *" --runtimes "* | *" --trainer-version "* | *" -n "* | *" - "* | *"--output-dir"*)
      skip "$name: its command line pins runtimes, a release, a namespace or stdin"
      continue
      ;;
  esac
  roundtrip "$name" "$dir" "${args[@]}"
done

for file in "$source_dir"/templates/*.yaml; do
  grep -qs '^kind: TrainJob' "$file" || continue
  mkdir -p "$work/templates/$(basename "$file" .yaml)"
  cp "$file" "$work/templates/$(basename "$file" .yaml)/"
  roundtrip "templates/$(basename "$file")" "$work/templates/$(basename "$file" .yaml)" \
    render -f "$(basename "$file")"
done

# v1 jobs: the converted TrainJob validates.
for dir in "$source_dir"/testdata/convert/*/; do
  [ "$(cat "$dir/expected.exit")" = 0 ] || continue
  grep -rqs '^apiVersion: "\?kubeflow.org/v1"\?' "$dir" || continue
  check "convert/$(basename "$dir"): the converted TrainJob validates" \
    bash -c "'$binary' validate -f '$dir/expected.stdout' >/dev/null 2>&1"
done

echo "$compared renders compared equal, $skipped skipped"
finish
