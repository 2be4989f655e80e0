#!/bin/bash
# Builds the release archive of each build directory given, its .sha256, and the krew
# manifest for them all:
#
#   dist/release.sh [--base-url URL] [--as-built] OUT_DIR BUILD_DIR[=OS/ARCH]...
#
# BUILD_DIR is a configured and built CMake build directory; OS/ARCH (krew's names: linux,
# darwin; amd64, arm64) defaults to this machine's. Each gives
# OUT_DIR/kubectl-trainjob_<version>_<os>_<arch>.tar.gz (the plugin, kubectl's completion
# helper and the README) and its .sha256; OUT_DIR/trainjob.yaml is dist/krew/trainjob.yaml with
# the version and one platform per archive. URL defaults to
# <homepage>/releases/download/v<version>, homepage taken from the template. Archives are
# reproducible: sorted, owned by 0:0, every mtime SOURCE_DATE_EPOCH (default: the time of the
# source's last commit), gzip without a name or time stamp.
#
# A linux archive holds a portable plugin, which runs on glibc 2.31 and later with nothing
# else installed (docs/install.md): BUILD_DIR's source is built again, in a Debian bullseye
# root (dist/debian_root.sh, made once and cached) and a build directory of its own there,
# for amd64 natively and for arm64 with bullseye's cross compiler; BUILD_DIR itself is only
# read. So `release.sh out build build=linux/arm64` makes both linux archives from one
# ordinary build directory. --as-built packs each BUILD_DIR's own plugin instead, as
# `cmake --install --strip` lays it out (what darwin archives always are), e.g. to test the
# packing.
set -euo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
template=$src/dist/krew/trainjob.yaml
base_url=""
as_built=false
while [ $# -gt 0 ]; do
  case $1 in
    --base-url)
      base_url=${2:-}
      shift 2 || shift
      ;;
    --as-built)
      as_built=true
      shift
      ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: dist/release.sh [--base-url URL] [--as-built] OUT_DIR BUILD_DIR[=OS/ARCH]..." >&2
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

# portable_plugin BUILD_DIR ARCH DIR: the portable plugin of BUILD_DIR's source for linux/ARCH,
# stripped, as DIR/kubectl-trainjob, and what its --version printed as DIR/version. Built in
# the bullseye root, in /build/<hash of the source's path>/<arch> there (kept, so that the
# next release rebuilds only what changed), with the source mounted read-only at /src.
portable_plugin() {
  local build=$1 arch=$2 dir=$3 source_dir toolchain="" strip=strip run="" key root log
  source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2> /dev/null)
  if [ -z "$source_dir" ] || [ ! -f "$source_dir/CMakeLists.txt" ]; then
    echo "error: $build is not a configured CMake build directory" >&2
    exit 1
  fi
  # The root and its compilers are amd64 (debootstrap makes the machine's architecture).
  if [ "$(uname -m)" != x86_64 ]; then
    echo "error: portable linux plugins are built on amd64 machines; --as-built packs $build as it is" >&2
    exit 1
  fi
  case $arch in
    amd64) ;;
    arm64)
      toolchain=-DCMAKE_TOOLCHAIN_FILE=/src/dist/aarch64-linux-gnu.cmake
      strip=aarch64-linux-gnu-strip
      run=qemu-aarch64-static
      ;;
    *)
      echo "error: no portable build for linux/$arch (amd64 and arm64 only); --as-built packs $build as it is" >&2
      exit 1
      ;;
  esac
  root=$("$src/dist/debian_root.sh" build) || exit 1
  key=$(printf '%s' "$source_dir" | sha256sum | cut -c1-12)
  log=$root/build/$key/$arch.log
  mkdir -p "$root/build/$key"
  echo "building the portable plugin for linux/$arch in $root/build/$key/$arch (log: $log)" >&2
  # -O2 as the default build (RelWithDebInfo) but without -g, which the strip would drop.
  if ! "$src/dist/debian_root.sh" build --bind "$source_dir:/src" -- sh -c "set -e
    cd /build/$key
    [ -f $arch/CMakeCache.txt ] || cmake -S /src -B $arch -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -DNDEBUG' \
      -DTRAINJOB_PORTABLE=ON -DTRAINJOB_TRAINER=OFF -DBUILD_TESTING=OFF $toolchain
    cmake --build $arch --target kubectl-trainjob -j ${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
    $strip -o $arch/kubectl-trainjob.stripped $arch/kubectl-trainjob
    $run $arch/kubectl-trainjob.stripped --version > $arch/version" > "$log" 2>&1; then
    echo "error: the portable build for linux/$arch failed; the end of $log:" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
  mkdir -p "$dir"
  cp "$root/build/$key/$arch/kubectl-trainjob.stripped" "$dir/kubectl-trainjob"
  cp "$root/build/$key/$arch/version" "$dir/version"
  cp "$src/dist/kubectl_complete-trainjob" "$dir/"
}

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
  if [ "$os" = linux ] && ! $as_built; then
    portable_plugin "$build" "$arch" "$prefix/bin"
    # The version the binary reports (run where it was built, under qemu for arm64), so the
    # archive can never be named after another one.
    this_version=$(awk '{print $2}' "$prefix/bin/version")
  else
    cmake --install "$build" --prefix "$prefix" --strip > /dev/null
    this_version=$("$prefix/bin/kubectl-trainjob" --version | awk '{print $2}')
  fi
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
