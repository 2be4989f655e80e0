#!/bin/bash
# A Debian bullseye root, made once and cached between runs, and commands run in it:
#
#   dist/debian_root.sh build|run                    # prints the root's path
#   dist/debian_root.sh build|run [--bind HOST_DIR:DIR]... -- COMMAND [ARG...]
#
# bullseye has glibc 2.31 (the oldest Debian on deb.debian.org; buster's 2.28 is only on
# archive.debian.org), so what is linked in it runs on glibc 2.31 and later.
#   build: minbase plus the tools and -dev packages that build the plugin for amd64 and, with
#          bullseye's cross compiler and multiarch arm64 packages, for arm64; qemu-user-static
#          to run what it built for arm64.
#   run:   minbase plus libssl1.1 (render's SHA-1 needs a libcrypto), its arm64 twin, the arm64
#          C library and qemu-user-static: a plain bullseye, where the archives are tried.
#
# COMMAND runs chrooted in the root, with /proc and each HOST_DIR (read-only, at DIR in the
# root) mounted in a mount namespace of its own: the mounts vanish with the command however it
# ends, and no other process (nor an rm -rf of the cache) ever sees them.
#
# The roots live in ${TRAINJOB_CACHE:-${XDG_CACHE_HOME:-~/.cache}/kubectl-trainjob}, made
# under a temporary name and renamed when complete, so that an interrupted run leaves
# nothing half-made; a root made from another recipe than this script's is made again.
# Needs root (debootstrap, chroot, mounts), debootstrap and network access to deb.debian.org.
# Exit codes: COMMAND's, or 0 when the root is ready; 1 when it cannot be made or entered
# here (the reason on stderr: what to install, no network, no space); 2 usage.
set -euo pipefail

usage() {
  echo "usage: dist/debian_root.sh build|run [--bind HOST_DIR:DIR]... [-- COMMAND [ARG...]]" >&2
  exit 2
}
kind=${1:-}
# TRAINJOB_DEBIAN_MIRROR: a mirror of deb.debian.org/debian to use instead.
mirror=${TRAINJOB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# Packages beyond minbase. CMake 3.18, g++ 10 and OpenSSL 1.1 headers are bullseye's own;
# nlohmann-json 3.10+ and CLI11 2.x (header-only, architecture all) come from bookworm.
case $kind in
  build)
    packages="g++ cmake ninja-build pkg-config libyaml-dev libssl-dev libcurl4-openssl-dev
      doctest-dev g++-aarch64-linux-gnu qemu-user-static libyaml-dev:arm64 libssl-dev:arm64
      libcurl4-openssl-dev:arm64 nlohmann-json3-dev/bookworm libcli11-dev/bookworm"
    ;;
  run) packages="libssl1.1 libc6:arm64 libssl1.1:arm64 qemu-user-static" ;;
  *) usage ;;
esac
shift
binds=()
while [ $# -gt 0 ]; do
  case $1 in
    --bind)
      [ $# -ge 2 ] && [[ $2 == *:/* ]] || usage
      binds+=("$2")
      shift 2
      ;;
    --)
      shift
      [ $# -gt 0 ] || usage
      break
      ;;
    *) usage ;;
  esac
done

packages=$(echo $packages) # one line: it goes into a shell command below
cache=${TRAINJOB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-trainjob}
root=$cache/bullseye-$kind
# What the root is made of, to know a root made by an older recipe: the packages and the
# text of make_root.
recipe=$(printf '%s\n' "$kind" "$packages" "$(sed -n '/^make_root()/,/^}/p' "$0")" | sha256sum |
  cut -c1-16)

cannot() {
  echo "cannot make the bullseye $kind root: $*" >&2
  exit 1
}

# in_root DIR [HOST_DIR:DIR]... -- COMMAND...: COMMAND chrooted in DIR, in a mount namespace
# of its own with /proc (dpkg's scripts and qemu need it) and the binds mounted.
in_root() {
  local dir=$1 mounts="mount -t proc proc '$1/proc'"
  shift
  while [ "$1" != "--" ]; do
    local host=${1%%:*} inside=${1#*:}
    mkdir -p "$dir$inside"
    mounts+=" && mount --bind -o ro '$host' '$dir$inside'"
    shift
  done
  shift
  unshare --mount --propagation private sh -c "$mounts && exec \"\$@\"" sh \
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive LC_ALL=C \
    chroot "$dir" "$@"
}

make_root() {
  local dir=$1
  debootstrap --variant=minbase bullseye "$dir" "$mirror" > "$dir.log" 2>&1 ||
    cannot "debootstrap failed (network, space?); the last lines of $dir.log:
$(tail -n 5 "$dir.log")"
  # bullseye's last point release only: multiarch needs the amd64 and arm64 builds of a
  # package at one version, and bullseye-security's pool no longer holds every arm64 build.
  cat > "$dir/etc/apt/sources.list" <<EOS
deb $mirror bullseye main
deb $mirror bookworm main
EOS
  # bookworm only where a package asks for it by name (pkg/bookworm).
  cat > "$dir/etc/apt/preferences.d/bookworm" <<EOS
Package: *
Pin: release n=bookworm
Pin-Priority: 1
EOS
  in_root "$dir" -- sh -c "dpkg --add-architecture arm64 && apt-get update -q &&
    apt-get install -y -q --no-install-recommends $packages &&
    apt-get clean && rm -rf /var/lib/apt/lists/*" >> "$dir.log" 2>&1 ||
    cannot "installing packages failed (network, space?); the last lines of $dir.log:
$(tail -n 5 "$dir.log")"
}

ready() {
  [ -f "$root/.recipe" ] && [ "$(cat "$root/.recipe")" = "$recipe" ]
}

[ "$(id -u)" -eq 0 ] || cannot "debootstrap, chroot and mount need root"
mkdir -p "$cache" 2> /dev/null || cannot "cannot create $cache"
exec 9> "$cache/bullseye-$kind.lock"
# Shared while the root is used, exclusive while it is made: a root is never remade under a
# command running in it.
flock -s 9
if ! ready; then
  command -v debootstrap > /dev/null ||
    cannot "debootstrap is missing: apt-get install debootstrap (Debian, Ubuntu) or dnf install debootstrap (Fedora, EPEL)"
  flock 9
  # Another run may have made it while this one waited for the lock.
  if ! ready; then
    echo "making the bullseye $kind root in $root (minutes; cached afterwards)" >&2
    rm -rf "$root.tmp"
    mkdir -p "$root.tmp"
    make_root "$root.tmp"
    echo "$recipe" > "$root.tmp/.recipe"
    rm -rf "$root"
    mv "$root.tmp" "$root"
    mv "$root.tmp.log" "$root.log"
  fi
  flock -s 9
fi
if [ $# -eq 0 ]; then
  echo "$root"
  exit 0
fi
in_root "$root" "${binds[@]}" -- "$@"
