#!/usr/bin/env bash
# Pushes the trainer image layout (cmake --build build --target trainer-image) to a registry
# with skopeo, and prints the pushed reference by digest, the form a TrainJob should pin:
#   dist/push-trainer-image.sh [--layout DIR] [SKOPEO_COPY_FLAG...] [REGISTRY/NAME[:TAG]]
# The default destination, localhost:5000/trainjob-trainer:VERSION, is the image the
# embedded cpp-trainer runtime names. Flags other than --layout go to `skopeo copy`, e.g.
# --dest-tls-verify=false for a plain-HTTP local registry, --dest-creds USER:PASSWORD.
set -euo pipefail

readonly kDefaultRepository=localhost:5000/trainjob-trainer

die() {
  echo "push-trainer-image.sh: error: $*" >&2
  exit 1
}

usage() {
  echo "usage: dist/push-trainer-image.sh [--layout DIR] [SKOPEO_COPY_FLAG...] [REGISTRY/NAME[:TAG]]" >&2
  exit 2
}

layout=$(cd "$(dirname "$0")/.." && pwd)/build/trainer-image
destination=""
skopeo_flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --layout) [ $# -ge 2 ] || usage; layout=$2; shift 2 ;;
    --layout=*) layout=${1#--layout=}; shift ;;
    -h | --help) usage ;;
    # skopeo's flags that take a separate value.
    --dest-creds | --dest-cert-dir | --dest-authfile | --dest-registry-token | --authfile)
      [ $# -ge 2 ] || usage; skopeo_flags+=("$1" "$2"); shift 2 ;;
    -*) skopeo_flags+=("$1"); shift ;;
    *) [ -z "$destination" ] || usage; destination=$1; shift ;;
  esac
done

command -v skopeo >/dev/null ||
  die "skopeo not found: run ./setup.sh image (or apt-get install umoci skopeo)"
[ -f "$layout/index.json" ] ||
  die "no image layout at $layout: cmake --build build --target trainer-image first"

# The layout's one tag (umoci records it as the ref.name annotation of index.json).
tag=$(grep -o '"org.opencontainers.image.ref.name":"[^"]*"' "$layout/index.json" |
  head -n 1 | cut -d'"' -f4)
[ -n "$tag" ] || die "$layout/index.json names no tag"
[ -n "$destination" ] || destination=$kDefaultRepository:$tag
# The repository is everything before a tag (a ':' after the last '/') or a digest.
repository=${destination%%@*}
case "${repository##*/}" in *:*) repository=${repository%:*} ;; esac

digest_file=$(mktemp)
trap 'rm -f "$digest_file"' EXIT
skopeo copy --quiet --digestfile "$digest_file" "${skopeo_flags[@]}" \
  "oci:$layout:$tag" "docker://$destination" >&2
echo "$repository@$(cat "$digest_file")"
