#!/bin/bash
# Builds the release archive of each build directory given, its .sha256, and the krew
# manifest for them all:
#
#   dist/release.sh [--base-url URL] OUT_DIR BUILD_DIR[=OS/ARCH]...
#
# BUILD_DIR is a configured and built CMake build directory; OS/ARCH (krew's names: linux,
# darwin; amd64, arm64) defaults to this machine's. Each gives
# OUT_DIR/kubectl-trainjob_<version>_<os>_<arch>.tar.gz (the plugin, kubectl's completion
# helper and the README, as `cmake --install --strip` lays them out) and its .sha256;
# OUT_DIR/trainjob.yaml is dist/krew/trainjob.yaml with the version and one platform per
# archive. URL defaults to <homepage>/releases/download/v<version>, homepage taken from the
# template. Archives are reproducible: sorted, owned by 0:0, every mtime SOURCE_DATE_EPOCH
# (default: the time of the source's last commit), gzip without a name or time stamp.
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
template=$src/dist/krew/trainjob.yaml
base_url=""
if [ "${1:-}" = "--base-url" ]; then
  base_url=$2
  shift 2
fi
if [ $# -lt 2 ]; then
  echo "usage: dist/release.sh [--base-url URL] OUT_DIR BUILD_DIR[=OS/ARCH]..." >&2
  exit 2
fi
out=$1
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)

native_platform() {
  local os arch
  os=$(uname -s | tr '[:upper:]' '[:lower:]')
  case $(uname -m) in
    x86_64) arch=amd64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) arch=$(uname -m) ;;
  esac
  echo "$os/$arch"
}

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$src" log -1 --format=%ct 2>/dev/null || echo 0)
fi
export SOURCE_DATE_EPOCH

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
version=""
platforms=""
block=$(sed -n '/# platform begin/,/# platform end/p' "$template" | sed '1d;$d')
homepage=$(sed -n 's/^  homepage: *//p' "$template")

for arg in "$@"; do
  build=${arg%%=*}
  platform=$(native_platform)
  [ "$arg" = "$build" ] || platform=${arg#*=}
  os=${platform%/*}
  arch=${platform#*/}
  prefix=$stage/$os-$arch/prefix
  cmake --install "$build" --prefix "$prefix" --strip > /dev/null
  # The version the binary reports, so the archive can never be named after another one.
  this_version=$("$prefix/bin/kubectl-trainjob" --version | awk '{print $2}')
  if [ -n "$version" ] && [ "$this_version" != "$version" ]; then
    echo "error: $build is version $this_version, not $version" >&2
    exit 1
  fi
  version=$this_version
  pack=$stage/$os-$arch/pack
  mkdir -p "$pack"
  cp "$prefix/bin/kubectl-trainjob" "$prefix/bin/kubectl_complete-trainjob" "$src/README.md" \
    "$pack/"
  [ ! -f "$src/LICENSE" ] || cp "$src/LICENSE" "$pack/"
  archive=kubectl-trainjob_${version}_${os}_${arch}.tar.gz
  (cd "$pack" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort |
    tar --create --no-recursion --files-from=- --format=gnu --owner=0 --group=0 \
      --numeric-owner --mode='u+rwX,go+rX,go-w' --mtime="@$SOURCE_DATE_EPOCH") |
    gzip -9 --no-name > "$out/$archive.tmp"
  mv "$out/$archive.tmp" "$out/$archive"
  (cd "$out" && sha256sum "$archive" > "$archive.sha256")
  sha=$(cut -d' ' -f1 "$out/$archive.sha256")
  url=${base_url:-$homepage/releases/download/v$version}
  entry=${block//@OS@/$os}
  entry=${entry//@ARCH@/$arch}
  entry=${entry//@URI@/$url/$archive}
  entry=${entry//@SHA256@/$sha}
  platforms+=$entry$'\n'
done

# The template from apiVersion (its own comments left out) up to the platform markers, the
# platforms, then anything after them.
{
  sed -n '/^apiVersion:/,/# platform begin/p' "$template" | sed '$d' | sed "s/@VERSION@/$version/"
  printf '%s' "$platforms"
  sed -n '/# platform end/,$p' "$template" | sed '1d'
} > "$out/trainjob.yaml.tmp"
mv "$out/trainjob.yaml.tmp" "$out/trainjob.yaml"
echo "$out/trainjob.yaml"
