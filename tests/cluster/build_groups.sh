#!/usr/bin/env bash
# Builds upstream programs that run beside the control plane (controllers, schedulers) from
# released Go modules pinned one group per directory (groups pin different k8s.io/*
# releases), into a cache outside the tree, like build.sh builds the control plane. Each
# group is built once per pin: the key is its go.mod, go.sum and the files of its directory.
#
#   tests/cluster/build_groups.sh SET [GROUP...]
#       builds what is missing of SET (every group of it when none is named) and prints the
#       directory that holds one link per group. The sets: `oracle` (tests/oracle/modules/,
#       upstream's controllers the compiled pods are compared with) and `addons`
#       (tests/cluster/addons/, schedulers and queues the scheduling tests run).
#
# A group's directory holds go.mod and go.sum, `packages` (the packages to build, one a line;
# `.` is the module's own main package), and optionally files.sh, which runs in the module's
# directory with the output directory as its argument to copy what the programs need
# beside their binaries (CRDs, webhook configurations) out of the pinned modules, and
# optionally overlay.sh, which runs in the module's directory with a scratch directory as its
# argument and prints the path of a `go build -overlay` file it wrote there: the one way a group
# changes a line of an upstream program for a loopback run (the change is made from the pinned
# module's own file at build time, so no upstream text is kept here).
set -euo pipefail
cluster=$(cd "$(dirname "$0")" && pwd)
set_name=${1:-}
case $set_name in
  oracle) here=$cluster/../oracle/modules ;;
  addons) here=$cluster/addons ;;
  *) echo "usage: tests/cluster/build_groups.sh oracle|addons [GROUP...]" >&2; exit 2 ;;
esac
shift
here=$(cd "$here" && pwd)
cache=${TRAINJOB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-trainjob}/$set_name

# key GROUP: what the build of that group depends on, as a short hash.
key() {
  (cd "$here/$1" && find . -type f | LC_ALL=C sort | xargs cat) | sha256sum | cut -c1-12
}

# build GROUP: the group's binaries and files in its cache directory, written to a temporary
# directory first so that a failed or killed build leaves no half set behind.
build() {
  local group=$1 source="$here/$1"
  local out="$cache/$group-$(key "$group")"
  if [ -f "$out/.complete" ]; then
    echo "$out"
    return
  fi
  mkdir -p "$cache"
  local tmp log="$cache/$group.log" started=$SECONDS
  tmp=$(mktemp -d "$cache/.build-$group.XXXXXX")
  echo "build_groups.sh: building $group (log: $log)" >&2
  local packages
  mapfile -t packages < <(grep -v '^[[:space:]]*\(#\|$\)' "$source/packages")
  local overlay=()
  : >"$log"
  if [ -f "$source/overlay.sh" ]; then
    mkdir -p "$tmp/.overlay"
    overlay=(-overlay "$(cd "$source" && GOFLAGS=-mod=readonly bash ./overlay.sh "$tmp/.overlay" 2>>"$log")") ||
      { rm -rf "$tmp"; echo "build_groups.sh: overlay.sh of $group failed:" >&2; cat "$log" >&2; return 1; }
  fi
  if ! (cd "$source" && CGO_ENABLED=0 GOFLAGS=-mod=readonly go build -trimpath -ldflags "-s -w" \
    "${overlay[@]}" -o "$tmp/" "${packages[@]}") >>"$log" 2>&1 ||
    { [ -f "$source/files.sh" ] && ! (cd "$source" && GOFLAGS=-mod=readonly bash ./files.sh "$tmp") >>"$log" 2>&1; }; then
    rm -rf "$tmp"
    echo "build_groups.sh: building $group failed; the last lines of $log:" >&2
    tail -20 "$log" >&2
    return 1
  fi
  echo "built in $((SECONDS - started)) s" >>"$log"
  rm -rf "$tmp/.overlay"
  touch "$tmp/.complete"
  rm -rf "$out"
  mv "$tmp" "$out"
  for old in "$cache/$group"-*; do [ "$old" = "$out" ] || rm -rf "$old"; done
  echo "build_groups.sh: built $group in $((SECONDS - started)) s" >&2
  echo "$out"
}

groups=("$@")
if [ ${#groups[@]} -eq 0 ]; then
  for dir in "$here"/*/; do [ -d "$dir" ] && groups+=("$(basename "$dir")"); done
fi
bin="$cache/bin"
mkdir -p "$bin"
# One build after another: on 2 cores go build already uses both.
for group in "${groups[@]}"; do
  [ -d "$here/$group" ] || { echo "build_groups.sh: no group $group under $here" >&2; exit 2; }
  dir=$(build "$group")
  ln -sfn "$dir" "$bin/$group"
done
echo "$bin"
