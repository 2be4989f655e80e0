#!/usr/bin/env bash
# Every runtime of runtimes/ (embedded into the binary): `validate` finds no problem in it,
# `runtimes` lists it with the Trainer releases it serves, and a TrainJob of each of those
# releases compiles against exactly that file, while other releases are refused.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

"$binary" runtimes >"$work/listing"
check "runtimes exits 0" test $? -eq 0
check "runtimes prints NAME POLICY TRAINER FRAMEWORK KIND" \
  grep -q '^NAME  *POLICY  *TRAINER  *FRAMEWORK  *KIND$' "$work/listing"
files=$(cd "$source_dir/runtimes" && find . -name '*.yaml' | sed 's|^\./||' | sort)
check "runtimes lists one line per embedded file" \
  test "$(tail -n +2 "$work/listing" | wc -l)" -eq "$(echo "$files" | wc -l)"

# The releases a TRAINER column value covers: "2.0-2.4" -> "2.0 2.1 2.2 2.3 2.4".
expand_releases() {
  local first=${1%-*} last=${1#*-} out="" minor
  for minor in 0 1 2 3 4; do
    [[ "2.$minor" < "$first" || "2.$minor" > "$last" ]] || out+="2.$minor "
  done
  echo "$out"
}

for file in $files; do
  path="$source_dir/runtimes/$file"
  name=$(sed -n 's/^  name: //p' "$path" | head -1)
  # render parses only the embedded files named after the runtimes its TrainJobs refer to.
  check "$file holds the runtime of its own name" test "$name" = "$(basename "$file" .yaml)"
  "$binary" validate -f "$path" >"$work/out" 2>"$work/err"
  check "validate $file exits 0" test $? -eq 0
  check "validate $file: no problems found" grep -qx "no problems found" "$work/out"
  check "validate $file: nothing on stderr" test ! -s "$work/err"

  # v2.1/ files are the row starting at 2.0 that ends at 2.1; the others the last row.
  rows=$(grep "^$name " "$work/listing" | awk '{print $3}')
  if [[ $file == v2.1/* ]]; then
    releases=$(echo "$rows" | grep -x '2.0-2.1')
  else
    releases=$(echo "$rows" | tail -1)
  fi
  check "$file is listed with its releases" test -n "$releases"
  policy=$(grep "^$name " "$work/listing" | head -1 | awk '{print $2}')
  check "$file: the listed policy is the runtime's" \
    grep -Eq "^    ($policy: |$policy:\$)" "$path"

  cat >"$work/trainjob.yaml" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: probe
spec:
  runtimeRef:
    name: $name
  trainer:
    numNodes: 2
YAML
  for release in $(expand_releases "$releases"); do
    "$binary" validate --trainer-version "$release" -f "$path" >/dev/null 2>&1
    check "validate --trainer-version $release $file exits 0" test $? -eq 0
    "$binary" render --trainer-version "$release" -f "$work/trainjob.yaml" >"$work/rendered" \
      2>"$work/err"
    check "a Trainer $release TrainJob renders against $file" test $? -eq 0
    for image in $(sed -n 's/^ *image: //p' "$path"); do
      check "Trainer $release on $name gets $file's image $image" \
        grep -q "image: $image\$" "$work/rendered"
    done
  done
done

# jax-distributed is a v2.2+ runtime: a Trainer 2.1 TrainJob is refused with the reason.
cat >"$work/jax.yaml" <<YAML
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: probe
spec:
  runtimeRef:
    name: jax-distributed
YAML
"$binary" render --trainer-version 2.1 -f "$work/jax.yaml" >/dev/null 2>"$work/err"
check "jax-distributed under Trainer 2.1 exits 1" test $? -eq 1
check "the error says which releases the runtime serves" \
  grep -q 'built in only for Trainer 2.2-2.4 TrainJobs, and this one is read as Trainer 2.1' \
  "$work/err"
finish
