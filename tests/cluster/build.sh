#!/usr/bin/env bash
# Builds the control plane the cluster tests run on, from the Go modules pinned under
# tests/cluster/modules/ (one module per upstream program: they pin different k8s.io/*
# releases), into a cache outside the tree. Each program is built once per pin: the cache
# key is its go.mod and go.sum, so a warm run only checks that the binaries exist.
#
#   tests/cluster/build.sh            builds what is missing; prints the bin directory
#
# The binaries land in $TRAINJOB_CACHE/cluster/<module>-<hash>/ (TRAINJOB_CACHE defaults to
# ~/.cache/kubectl-trainjob) and the printed directory links them all together.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${TRAINJOB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-trainjob}/cluster

# Kubernetes' own release build needs Go of at least the version its go.mod names.
need_go() {
  local want have
  want=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$here/modules/kubernetes/go.mod")
  if ! command -v go >/dev/null; then
    echo "build.sh: the cluster tests build Kubernetes from source and need Go $want or newer;" \
      "install it (Debian: golang-$want-go from backports, or the Go release) and put go on PATH" >&2
    exit 1
  fi
  have=$(go env GOVERSION | sed 's/^go//')
  if [ "$(printf '%s\n%s\n' "$want" "$have" | sort -V | head -1)" != "$want" ]; then
    echo "build.sh: Go $have is too old: the pinned Kubernetes needs Go $want or newer" >&2
    exit 1
  fi
}

# key MODULE ARGS...: what the build of that module depends on (its pins and how it is
# built), as a short hash.
key() {
  local module=$1
  shift
  { cat "$here/modules/$module/go.mod" "$here/modules/$module/go.sum"; echo "$@"; } | sha256sum | cut -c1-12
}

# version MODULE PATH: the version go.mod pins for PATH.
version() { sed -n "s#^[[:space:]]*\(require \)\?$2 \(v[^ ]*\).*#\2#p" "$here/modules/$1/go.mod" | head -1; }

# build MODULE LDFLAGS PACKAGE...: go build of those tool packages into the module's cache
# directory, written to a temporary directory first so that a failed or killed build leaves
# no half set behind.
build() {
  local module=$1 ldflags=$2
  shift 2
  local out="$cache/$module-$(key "$module" "$ldflags" "$@")"
  if [ -f "$out/.complete" ]; then
    echo "$out"
    return
  fi
  mkdir -p "$cache"
  local tmp
  tmp=$(mktemp -d "$cache/.build-$module.XXXXXX")
  local log="$cache/$module.log"
  echo "build.sh: building $module (log: $log)" >&2
  local started=$SECONDS
  if ! (cd "$here/modules/$module" &&
    CGO_ENABLED=0 GOFLAGS=-mod=readonly go build -trimpath -ldflags "-s -w $ldflags" -o "$tmp/" "$@") \
    >"$log" 2>&1; then
    rm -rf "$tmp"
    echo "build.sh: building $module failed; the last lines of $log:" >&2
    tail -20 "$log" >&2
    return 1
  fi
  local finish=${module}_files  # what the module needs besides the binaries, if anything
  if declare -F "$finish" >/dev/null && ! (cd "$here/modules/$module" && "$finish" "$tmp") >>"$log" 2>&1; then
    rm -rf "$tmp"
    echo "build.sh: preparing $module's files failed; the last lines of $log:" >&2
    tail -20 "$log" >&2
    return 1
  fi
  echo "built in $((SECONDS - started)) s" >>"$log"
  touch "$tmp/.complete"
  rm -rf "$out"
  mv "$tmp" "$out"
  # Builds of older pins go (a control plane running from one keeps its open files).
  for old in "$cache/$module"-*; do [ "$old" = "$out" ] || rm -rf "$old"; done
  echo "build.sh: built $module in $((SECONDS - started)) s" >&2
  echo "$out"
}

# kwok_files DIR: what kwok needs beside its binary, from its module: the node stages (a
# node made Ready, then its lease renewed) and the Logs custom resource's CRD.
kwok_files() {
  local source
  source=$(go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)
  {
    cat "$source/kustomize/stage/node/fast/node-initialize.yaml"
    echo ---
    cat "$source/kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml"
  } >"$1/kwok-node-stages.yaml"
  cp "$source/kustomize/crd/bases/kwok.x-k8s.io_logs.yaml" "$1/kwok-logs-crd.yaml"
}

# crds_files DIR: DIR/crds/, the CRDs of the kinds render emits beyond Kubernetes' own, for
# the tests that install them: JobSet's and the scheduler-plugins PodGroup's ship in their
# modules; Volcano's PodGroup CRD ships in no module the proxy serves (it lives in
# volcano.sh/volcano, which the proxy refuses), so it is generated from the pinned
# volcano.sh/apis types with controller-gen, with Volcano's own options (the output equals
# Volcano's file). The versions are those Kubeflow Trainer v2.3.0's go.mod names.
# DIR/trainer-crds/: Kubeflow Trainer v2.3.0's CRDs.
crds_files() {
  local dir
  mkdir -p "$1/crds"
  dir=$(go list -m -f '{{.Dir}}' sigs.k8s.io/jobset)
  cp "$dir/config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml" "$1/crds/"
  dir=$(go list -m -f '{{.Dir}}' sigs.k8s.io/scheduler-plugins)
  cp "$dir/manifests/coscheduling/crd.yaml" "$1/crds/scheduling.x-k8s.io_podgroups.yaml"
  GOFLAGS=-mod=readonly "$1/controller-gen" crd:crdVersions=v1,generateEmbeddedObjectMeta=true \
    paths=volcano.sh/apis/pkg/apis/scheduling/v1beta1 output:crd:artifacts:config="$1/gen"
  mv "$1/gen/scheduling.volcano.sh_podgroups.yaml" "$1/crds/"
  rm -rf "$1/gen" "$1/controller-gen"
  # Kubeflow Trainer's own (TrainJob and the runtimes), apart: only a test on a control
  # plane of its own installs them, since with them served every submit also reads the
  # cluster's runtimes.
  mkdir -p "$1/trainer-crds"
  dir=$(go list -m -f '{{.Dir}}' github.com/kubeflow/trainer/v2)
  cp "$dir"/manifests/base/crds/trainer.kubeflow.org_*.yaml "$1/trainer-crds/"
}

need_go

# Kubernetes stamps its version into component-base and client-go at build time
# (hack/lib/version.sh); without it /version says v0.0.0-master, and kubectl version and
# kwok read it.
k8s=$(version kubernetes k8s.io/kubernetes)
minor=$(echo "$k8s" | cut -d. -f2)
stamp=""
for package in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  stamp+=" -X $package.gitVersion=$k8s -X $package.gitMajor=1 -X $package.gitMinor=$minor"
  stamp+=" -X $package.gitTreeState=clean -X $package.buildDate=1970-01-01T00:00:00Z"
done

# The three builds run one after another: on 2 cores go build already uses both, and
# Kubernetes' largest packages take a few GiB each to compile.
dirs=()
dirs+=("$(build kubernetes "$stamp" k8s.io/kubernetes/cmd/kube-apiserver \
  k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler \
  k8s.io/kubernetes/cmd/kubectl)")
dirs+=("$(build etcd "" go.etcd.io/etcd/server/v3)")
dirs+=("$(build kwok "" sigs.k8s.io/kwok/cmd/kwok)")
dirs+=("$(build crds "" sigs.k8s.io/controller-tools/cmd/controller-gen)")

# One directory of links to the current builds, replaced whole.
bin="$cache/bin"
tmp=$(mktemp -d "$cache/.bin.XXXXXX")
for dir in "${dirs[@]}"; do
  for file in "$dir"/*; do ln -s "$file" "$tmp/"; done
done
[ -e "$tmp/server" ] && mv "$tmp/server" "$tmp/etcd"
links() { for file in "$1"/*; do echo "${file##*/} $(readlink "$file")"; done; }
if [ -d "$bin" ] && [ "$(links "$bin")" = "$(links "$tmp")" ]; then
  rm -rf "$tmp"  # unchanged: a control plane running from it keeps its paths
  echo "$bin"
  exit 0
fi
rm -rf "$bin.old"
[ -e "$bin" ] && mv "$bin" "$bin.old"
mv "$tmp" "$bin"
rm -rf "$bin.old"
echo "$bin"
