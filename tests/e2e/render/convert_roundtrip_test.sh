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
. "$(dirname "$0")/../lib.sh"

compared=0
skipped=0
skip() {
  skipped=$((skipped + 1))
  echo "skip: $1"
}

# A difference the releases have on purpose (docs/convert.md) is accepted only when it is
# the whole diff between a.yaml and b.yaml: prints its reason then, nothing otherwise.
deliberate() {
  local changed
  changed=$(diff "$work/a.yaml" "$work/b.yaml" | grep '^[<>]')
  if grep -q '^< *value: gpu$' <<<"$changed" &&
    ! grep -qvE "^[<>] +value: (gpu|'[0-9]+')$" <<<"$changed"; then
    echo "numProcPerNode gpu becomes the GPU count in 2.2+ (only PET_NPROC_PER_NODE changes)"
  fi
}

roundtrip() {  # roundtrip NAME DIR ARGS...
  local name=$1 dir=$2
  shift 2
  local target copy file reason
  for target in 2.0 2.1 2.2 2.3; do
    copy="$work/cases/${name//\//_}-$target"
    rm -rf "$copy"
    mkdir -p "$work/cases"
    cp -r "$dir" "$copy"
    local refused=""
    for file in $(grep -rlsE '^kind: (TrainJob|ClusterTrainingRuntime|TrainingRuntime)$' "$copy"); do
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
    local pin=(--runtimes "$source_dir/runtimes")
    case " $* " in *" --runtimes "*) pin=() ;; esac
    (cd "$dir" && "$binary" "$@" "${pin[@]}" >"$work/a.yaml" 2>/dev/null)
    local a=$?
    (cd "$copy" && "$binary" "$@" "${pin[@]}" >"$work/b.yaml" 2>"$work/b.err")
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
    reason=$(deliberate)
    if [ -n "$reason" ] && [ "$b" -eq 0 ]; then
      echo "ok: $name --to $target: differs only on purpose: $reason"
      passed=$((passed + 1))
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
  eval "args=($(cat "$dir/args"))"
  [ "${args[0]}" = render ] || continue
  case " ${args[*]} " in
    *" --trainer-version "*)
      skip "$name: its command line pins one Trainer release for every TrainJob"
      continue
      ;;
    *" - "* | *"--output-dir"*)
      skip "$name: reads stdin or writes files"
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

# Pods, images and WORLD_SIZE of a rendered stream (JSON List on stdin), one line.
summary() {
  python3 -c '
import json, sys
items = json.load(sys.stdin)["items"]
pods, images, world = 0, set(), set()
for item in items:
    if item.get("kind") != "Job":
        continue
    pods += item["spec"].get("parallelism", 1)
    for c in item["spec"]["template"]["spec"].get("containers", []):
        images.add(c.get("image", ""))
        for e in c.get("env", []):
            if e.get("name") == "WORLD_SIZE" and "value" in e:
                world.add(e["value"])
print(pods, sorted(images), sorted(world) if sys.argv[1] == "world" else "")
' "$1"
}

# v1 jobs, in the convert golden cases and in any golden case that renders one (with
# --with-runtime where convert asks for it): the converted TrainJob validates, and renders as many pods, with the same images (and WORLD_SIZE where the
# program reads it), as render gives the v1 job itself.
for dir in "$source_dir"/testdata/*/*/; do
  [ "$(cat "$dir/expected.exit" 2>/dev/null)" = 0 ] || continue
  input=$(grep -lE '^kind: (PyTorchJob|XGBoostJob|JAXJob|TFJob|PaddleJob|MPIJob)' "$dir"* 2>/dev/null |
    grep -v '/expected\.' | head -1)
  [ -n "$input" ] || continue
  grep -qs '^kind: TrainJob' "$input" && continue
  name=$(basename "$(dirname "$dir")")/$(basename "$dir")
  converted="$work/converted.yaml"
  if [ "$(basename "$(dirname "$dir")")" = convert ]; then
    cp "$dir/expected.stdout" "$converted"
  elif ! "$binary" convert -f "$input" >"$converted" 2>"$work/err" &&
    ! { grep -q -- '--with-runtime' "$work/err" &&
      "$binary" convert --with-runtime -f "$input" >"$converted" 2>"$work/err"; }; then
    # A refusal must say where and why: a located error, and nothing half-written.
    check "$name: convert refuses it with a located error and no output" \
      bash -c "grep -qE '^[^ ]+:[0-9]+:[0-9]+: error: ' '$work/err' && [ ! -s '$converted' ]"
    skip "$name: convert refuses it ($(grep -m1 ': error: ' "$work/err"))"
    continue
  fi
  check "$name: the converted TrainJob validates" \
    bash -c "'$binary' validate -f '$converted' >/dev/null 2>&1"
  if ! "$binary" render -o json -f "$input" >"$work/v1.json" 2>/dev/null; then
    skip "$name: render does not compile this v1 job by itself"
    continue
  fi
  "$binary" render -o json -f "$converted" >"$work/v2.json" 2>/dev/null
  # WORLD_SIZE only where the TrainJob sets it for the program (torchrun sets its own).
  what=plain
  grep -q '"WORLD_SIZE"' "$work/v2.json" && what=world
  v1=$(summary $what <"$work/v1.json")
  v2=$(summary $what <"$work/v2.json")
  check "$name: same pods, images and WORLD_SIZE as the v1 job" test "$v1" = "$v2"
  [ "$v1" = "$v2" ] || echo "  v1: $v1  v2: $v2" >&2
done

echo "$compared renders compared equal, $skipped skipped"
finish
