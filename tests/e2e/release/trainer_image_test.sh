#!/usr/bin/env bash
# The trainer image as a user gets it: build the trainer-image target, push it with
# dist/push-trainer-image.sh to a docker-registry on loopback, pull it back by digest into a
# new layout, unpack it with umoci, and train 2 workers inside the pulled rootfs (own mount
# and pid namespaces, /dev and /proc of its own, an environment that is only the image's),
# as the image's non-root user when we may switch users.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"
build_dir=$(dirname "$binary")

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Root switches to the image's user in the chroot; anyone else maps itself to root in a user
# namespace, which has no other user to switch to.
unshare_flags=(--mount --pid --fork)
[ "$(id -u)" -eq 0 ] || unshare_flags+=(--map-root-user)
if ! unshare "${unshare_flags[@]}" true 2>/dev/null; then
  echo "skipped: unshare ${unshare_flags[*]} is not permitted here (it runs the pulled image)"
  exit 77
fi

cmake --build "$build_dir" --target trainer-image >"$work/build.log" 2>&1
check "the trainer-image target builds" test $? -eq 0
layout=$build_dir/trainer-image
check "an OCI layout: oci-layout, index.json, blobs" \
  test -f "$layout/oci-layout" -a -f "$layout/index.json" -a -d "$layout/blobs/sha256"
tag=$(grep -o '"org.opencontainers.image.ref.name":"[^"]*"' "$layout/index.json" | cut -d'"' -f4)
version=$("$binary" version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -n 1)
check "tagged with the project version ($version)" test "$tag" = "$version"
layout_digest=$(grep -o '"digest":"sha256:[0-9a-f]*"' "$layout/index.json" | head -n 1 | cut -d'"' -f4)

# The registry listens on loopback only, stores in $work, and is stopped by its PID.
port=$(free_port)
cat >"$work/registry.yml" <<YAML
version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: $work/registry
http:
  addr: 127.0.0.1:$port
YAML
docker-registry serve "$work/registry.yml" >"$work/registry.log" 2>&1 &
registry_pid=$!
trap 'kill "$registry_pid" 2>/dev/null; wait "$registry_pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/v2/" && break
  sleep 0.1
done
check "the registry answers GET /v2/" curl -sf -o /dev/null "http://127.0.0.1:$port/v2/"

reference=$("$source_dir/dist/push-trainer-image.sh" --layout "$layout" --dest-tls-verify=false \
  "127.0.0.1:$port/trainjob-trainer:$tag" 2>"$work/push.err")
check "push: exit 0" test $? -eq 0
check "push prints the reference by the layout's digest" \
  test "$reference" = "127.0.0.1:$port/trainjob-trainer@$layout_digest"

skopeo copy --quiet --src-tls-verify=false "docker://$reference" "oci:$work/pulled:$tag" \
  >"$work/pull.log" 2>&1
check "pull by digest: exit 0" test $? -eq 0
umoci unpack --rootless --image "$work/pulled:$tag" "$work/bundle" >"$work/unpack.log" 2>&1
check "umoci unpack: exit 0" test $? -eq 0
root=$work/bundle/rootfs

# What a container runtime would take from the image config (the bundle's config.json).
process() { python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["process"]; print(eval(sys.argv[2]))' \
  "$work/bundle/config.json" "$1"; }
check "entrypoint: the launcher, no default arguments" \
  test "$(process '" ".join(p["args"])')" = /usr/local/bin/trainjob-trainer
check "user: the non-root trainer" test "$(process '"%d:%d" % (p["user"]["uid"], p["user"]["gid"])')" = 65532:65532
check "/etc/passwd names it" grep -q '^trainer:x:65532:65532:' "$root/etc/passwd"
check "libtorch's Debian copyright is bundled" test -s "$root/usr/share/doc/libtorch1.13/copyright"
mapfile -t image_env < <(process '"\n".join(p["env"])')

# The namespace: a tmpfs /dev with only the devices the trainer opens, a /dev/shm for the
# shared-memory all-reduce, /proc for /proc/self/exe (the launcher finds its worker by it).
master_port=$(free_port)
user_flag=()
[ "$(id -u)" -eq 0 ] && user_flag=(--userspec=65532:65532)
unshare "${unshare_flags[@]}" bash -c '
  set -e
  root=$1; shift
  mount -t tmpfs -o mode=0755 tmpfs "$root/dev"
  for device in null zero random urandom; do
    touch "$root/dev/$device"
    mount --bind "/dev/$device" "$root/dev/$device"
  done
  mkdir "$root/dev/shm"
  mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
  mount -t proc proc "$root/proc"
  exec "$@"' unshare-setup "$root" \
  env -i "${image_env[@]}" PET_NNODES=1 PET_NPROC_PER_NODE=2 PET_NODE_RANK=0 \
  PET_MASTER_ADDR=127.0.0.1 PET_MASTER_PORT="$master_port" TRAINER_EPOCHS=2 \
  TRAINER_CHECKPOINT_DIR=/home/trainer/checkpoints \
  "$(command -v chroot)" "${user_flag[@]}" "$root" /usr/local/bin/trainjob-trainer \
  >"$work/train.out" 2>&1
status=$?
check "training in the pulled image: exit 0" test "$status" -eq 0
check "two workers report equal parameter checksums" bash -c "
  [ \$(grep -c 'parameter checksum' '$work/train.out') -eq 2 ] &&
  [ \$(grep 'parameter checksum' '$work/train.out' | awk '{print \$NF}' | sort -u | wc -l) -eq 1 ]"
if [ "$(id -u)" -eq 0 ]; then
  check "the workers ran as uid 65532 (the checkpoint they wrote is theirs)" \
    test "$(find "$root/home/trainer/checkpoints" -type f -uid 65532 | wc -l)" -gt 0
fi
[ "$failed" -eq 0 ] || { cat "$work/build.log" "$work/push.err" "$work/pull.log" "$work/train.out" >&2; }
finish
