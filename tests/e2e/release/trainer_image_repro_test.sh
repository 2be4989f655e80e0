#!/usr/bin/env bash
# The trainer image is reproducible: a second build from the same tree, into a directory of
# its own, gives the layout the trainer-image target wrote (trainer_image_test builds it
# first, as a ctest fixture) byte for byte: same manifest digest, same blobs.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"
build_dir=$(dirname "$binary")
first=$build_dir/trainer-image

[ -f "$first/index.json" ] || cmake --build "$build_dir" --target trainer-image >/dev/null 2>&1
check "the trainer-image target's layout is there" test -f "$first/index.json"
tag=$(grep -o '"org.opencontainers.image.ref.name":"[^"]*"' "$first/index.json" | cut -d'"' -f4)
# The same time as the first build's (its config's `created`), which took the last commit's:
# a commit made between the two builds must not count as a change of the tree.
created=$(python3 -c '
import json, sys
blobs = sys.argv[1] + "/blobs/sha256/"
index = json.load(open(sys.argv[1] + "/index.json"))
manifest = json.load(open(blobs + index["manifests"][0]["digest"].split(":")[1]))
print(json.load(open(blobs + manifest["config"]["digest"].split(":")[1]))["created"])' "$first")
SOURCE_DATE_EPOCH=$(date -d "$created" +%s) \
  "$source_dir/trainer/image/build_image.sh" "$build_dir/trainer" "$work/second" "$tag" \
  2>"$work/build.err"
check "a second build: exit 0" test $? -eq 0
check "same manifest digest" cmp "$first/index.json" "$work/second/index.json"
check "same blobs" diff <(cd "$first/blobs/sha256" && ls) <(cd "$work/second/blobs/sha256" && ls)
[ "$failed" -eq 0 ] || cat "$work/build.err" >&2
finish
