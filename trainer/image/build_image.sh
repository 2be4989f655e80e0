#!/usr/bin/env bash
# Builds the trainer's OCI image layout without a container daemon or root:
#   build_image.sh TRAINER_DIR OUTPUT_LAYOUT TAG [cuda]
# TRAINER_DIR holds trainjob-trainer and trainjob-trainer-worker (the CMake build's trainer/).
# The image holds those two binaries, their shared-library closure exactly as this machine
# resolves it, a minimal /etc with a non-root user, and the Debian copyright file of every
# package a bundled file comes from. Two builds from the same tree give the same digest:
# every timestamp is SOURCE_DATE_EPOCH (default: the time of the last git commit).
set -euo pipefail

trainer_dir=$1
output=$2
tag=$3
variant=${4:-cpu}

readonly kUser=trainer
readonly kUid=65532
readonly kBinDir=/usr/local/bin

die() {
  echo "build_image.sh: error: $*" >&2
  exit 1
}

need_tools() {
  # One line that says what to do: the CMake target shows it as is.
  if ! command -v umoci >/dev/null; then
    die "umoci not found: run ./setup.sh image (or apt-get install umoci skopeo)"
  fi
  for tool in ldd dpkg-query; do command -v "$tool" >/dev/null || die "$tool not found"; done
  for binary in trainjob-trainer trainjob-trainer-worker; do
    [ -x "$trainer_dir/$binary" ] || die "$trainer_dir/$binary missing: build the trainer first"
  done
}

source_date_epoch() {
  if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    echo "$SOURCE_DATE_EPOCH"
  elif git -C "$(dirname "$0")" log -1 --format=%ct 2>/dev/null; then
    :
  else
    echo 1  # not a git checkout: any fixed time keeps the digest stable
  fi
}

# The shared objects the binaries load, as the loader finds them here. A run under
# LD_DEBUG=files listed exactly these, so nothing is dlopen'ed behind ldd's back.
library_closure() {
  ldd "$@" | awk '
    / not found/ { print "MISSING " $1; next }
    /:$/ { next }  # the "FILE:" header ldd prints before each of several files
    $2 == "=>" && $3 ~ /^\// { print $3; next }
    $1 ~ /^\// { print $1 }' | sort -u
}

# The GPU driver (libcuda, libnvidia-*) must come from the node, where the NVIDIA container
# runtime mounts the one matching its kernel module; bundling one would shadow it.
is_driver_library() {
  case "$(basename "$1")" in
    libcuda.so* | libnvidia-*) return 0 ;;
  esac
  return 1
}

# The usr-merged layout of Debian: /lib, /lib64, /bin are links into /usr, so a library
# copied to the path the loader named is found under either spelling.
make_skeleton() {
  local root=$1
  mkdir -p "$root/usr/bin" "$root/usr/lib" "$root/usr/lib64" "$root/usr/sbin" \
    "$root$kBinDir" "$root/etc" "$root/tmp" "$root/home/$kUser" "$root/usr/share/doc" \
    "$root/dev" "$root/proc" "$root/sys"  # where a runtime mounts them
  ln -s usr/bin "$root/bin"
  ln -s usr/lib "$root/lib"
  ln -s usr/lib64 "$root/lib64"
  ln -s usr/sbin "$root/sbin"
  chmod 1777 "$root/tmp"
  # A rootless build records every file as owned by root, so the user's home cannot be
  # chowned to it; it is world-writable with the sticky bit, like /tmp.
  chmod 1777 "$root/home/$kUser"
}

copy_binaries() {
  local root=$1
  # The launcher finds its worker beside itself (/proc/self/exe).
  install -m 0755 "$trainer_dir/trainjob-trainer" "$trainer_dir/trainjob-trainer-worker" \
    "$root$kBinDir/"
}

# cp -L: /etc/alternatives links (libblas.so.3 -> OpenBLAS) become the files they name.
copy_libraries() {
  local root=$1 libraries=$2 library
  while read -r library; do
    case "$library" in MISSING*) die "a library the trainer needs is not found: ${library#MISSING }" ;; esac
    if is_driver_library "$library"; then continue; fi
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
  done <"$libraries"
}

write_etc() {
  local root=$1
  printf 'root:x:0:0:root:/root:/usr/sbin/nologin\n%s:x:%d:%d:%s:/home/%s:/usr/sbin/nologin\n' \
    "$kUser" "$kUid" "$kUid" "$kUser" "$kUser" >"$root/etc/passwd"
  printf 'root:x:0:\n%s:x:%d:\n' "$kUser" "$kUid" >"$root/etc/group"
  # glibc 2.36 has files and dns built in: no libnss_* modules to bundle. gloo resolves the
  # master's address through these.
  printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$root/etc/nsswitch.conf"
  printf '127.0.0.1 localhost\n::1 localhost\n' >"$root/etc/hosts"
  # No CA certificates: the trainer opens no TLS connection (data comes from volumes).
}

# The Debian package of each bundled file, by its real path or its other usr-merge spelling
# (a package registers /lib/... or /usr/lib/..., ldd prints either), in one dpkg query.
owning_packages() {
  local libraries=$1 library real
  local -a candidates=()
  while read -r library; do
    is_driver_library "$library" && continue
    real=$(readlink -f "$library")
    candidates+=("$real" "${real#/usr}" "$library" "/usr${library#/usr}")
  done <"$libraries"
  # Lines read "pkg[:arch][, pkg2...]: /path"; diversions are not owners.
  { dpkg-query -S "${candidates[@]}" 2>/dev/null || true; } | grep -v '^diversion' | sed 's/: \/.*//' |
    tr ',' '\n' | sed 's/^ *//; s/:.*//' | sort -u
}

copy_copyrights() {
  local root=$1 packages=$2 package file
  while read -r package; do
    [ -n "$package" ] || continue
    file=/usr/share/doc/$package/copyright
    [ -e "$file" ] || die "no copyright file for bundled package $package ($file)"
    mkdir -p "$root/usr/share/doc/$package"
    cp -L "$file" "$root/usr/share/doc/$package/copyright"
  done <"$packages"
}

# Same bytes in, same digest out: fixed times everywhere (links included) and a fixed order.
normalize_times() {
  local root=$1 epoch=$2
  find "$root" -exec touch -h -d "@$epoch" {} +
}

make_layout() {
  local root=$1 layout=$2 epoch=$3 env_list=$4
  local created
  created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
  umoci init --layout "$layout"
  umoci new --image "$layout:$tag"
  umoci insert --rootless --image "$layout:$tag" --history.created "$created" \
    --history.created_by "trainer/image/build_image.sh" "$root" /
  local -a env_flags=()
  local entry
  for entry in $env_list; do env_flags+=(--config.env "$entry"); done
  umoci config --image "$layout:$tag" --created "$created" --history.created "$created" \
    --history.created_by "trainer/image/build_image.sh (config)" \
    --author "kubectl-trainjob" --architecture "$(dpkg --print-architecture)" --os linux \
    --config.entrypoint "$kBinDir/trainjob-trainer" \
    --config.user "$kUid:$kUid" --config.workingdir "/home/$kUser" \
    --config.exposedports 29500/tcp "${env_flags[@]}"
  umoci gc --layout "$layout"
}

main() {
  need_tools
  umask 022
  local epoch parent root
  epoch=$(source_date_epoch)
  parent=$(dirname "$output")
  mkdir -p "$parent"
  # Built aside and moved into place, so a failed build leaves no half layout behind.
  staging=$(mktemp -d "$parent/.trainer-image.XXXXXX")  # global: the EXIT trap reads it
  trap 'rm -rf "$staging"' EXIT
  root=$staging/rootfs
  mkdir "$root"

  library_closure "$trainer_dir/trainjob-trainer" "$trainer_dir/trainjob-trainer-worker" \
    >"$staging/libraries"
  make_skeleton "$root"
  copy_binaries "$root"
  copy_libraries "$root" "$staging/libraries"
  write_etc "$root"
  owning_packages "$staging/libraries" >"$staging/packages"
  copy_copyrights "$root" "$staging/packages"
  normalize_times "$root" "$epoch"

  local env_list="PATH=$kBinDir:/usr/bin HOME=/home/$kUser OPENBLAS_NUM_THREADS=1"
  # The NVIDIA container runtime mounts the driver into containers that ask for it.
  if [ "$variant" = cuda ]; then
    env_list+=" NVIDIA_VISIBLE_DEVICES=all NVIDIA_DRIVER_CAPABILITIES=compute,utility"
  fi
  make_layout "$root" "$staging/layout" "$epoch" "$env_list"

  rm -rf "$output"
  mv "$staging/layout" "$output"
  echo "trainer image: $output ($tag, $(wc -l <"$staging/libraries") libraries from" \
    "$(wc -l <"$staging/packages") Debian packages)" >&2
}

main
