#!/bin/bash
# The release archives run on the glibc that docs/install.md promises: dist/release.sh makes the
# linux/amd64 and linux/arm64 archives from this build directory (built again in a bullseye
# root), and each archive's plugin, unpacked into a plain Debian bullseye minbase root (glibc
# 2.31, OpenSSL 1.1's libcrypto and nothing else; arm64 under qemu-aarch64-static), prints
# byte for byte what this build's plugin prints here for `version`, `render` of the bundled
# templates and of a seeded random sweep (its log-uniform draws must not depend on the machine's
# libm or on FMA contraction), and `validate`. Each plugin's newest versioned glibc symbol is
# reported and must be no newer than the figure docs/install.md states for its platform, the
# only place that figure is written. Both roots are cached (dist/debian_root.sh) and so is the
# release build, so a second run costs a few seconds of building; where the roots cannot be made
# (no root, no debootstrap, no network, no space) the test is skipped with the reason, never
# passed.
bin=$1
src=$2
build=$(dirname "$bin")
source "$src/tests/e2e/lib.sh"
start=$SECONDS

skip() {
  echo "skipped: $*"
  exit 77
}
# Both roots at once where they are still to be made: their downloads overlap.
"$src/dist/debian_root.sh" run > /dev/null 2> "$work/run.err" &
run_root=$!
"$src/dist/debian_root.sh" build > /dev/null 2> "$work/build.err" &
build_root=$!
run_status=0
build_status=0
wait $run_root || run_status=$?
wait $build_root || build_status=$?
[ $run_status -eq 0 ] || skip "$(tail -n 6 "$work/run.err")"
[ $build_status -eq 0 ] || skip "$(tail -n 6 "$work/build.err")"
command -v objdump > /dev/null || skip "objdump is missing: apt-get install binutils"

# The promise: the row "newest glibc symbol, amd64 / arm64" of docs/install.md's table, and the
# prose above it, which must not say otherwise.
install_doc=$src/docs/install.md
documented=$(awk -F'|' '$2 ~ /newest glibc symbol, amd64 \/ arm64/ { print $4 }' "$install_doc" |
  grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//')
{ read -r documented_amd64; read -r documented_arm64; } <<< "$documented"
check "docs/install.md states the newest glibc symbol, amd64 / arm64" \
  [ -n "$documented_amd64" -a -n "$documented_arm64" ]
echo "documented: GLIBC_$documented_amd64 / GLIBC_$documented_arm64"
if [ "$documented_amd64" = "$documented_arm64" ]; then
  check "docs/install.md's prose states the table's GLIBC_$documented_amd64" \
    grep -qF "**GLIBC_$documented_amd64** on amd64 and arm64 alike" "$install_doc"
fi
echo "roots ready after $((SECONDS - start)) s"

version=$("$bin" --version | awk '{print $2}')
"$src/dist/release.sh" "$work/out" "$build" "$build=linux/arm64" > "$work/release.log" 2>&1
status=$?
check "release.sh makes the linux/amd64 and linux/arm64 archives" [ $status -eq 0 ]
[ $status -eq 0 ] || cat "$work/release.log" >&2
echo "release.sh took $((SECONDS - start)) s so far"
check "the krew manifest lists both platforms" bash -c \
  "grep -q 'arch: \"amd64\"' '$work/out/trainjob.yaml' && grep -q 'arch: \"arm64\"' '$work/out/trainjob.yaml'"

# What this build prints here, run from a copy of the templates and the sweep below so that
# paths in the output are relative and the same in the roots, where that copy is /src.
inputs=$work/src
mkdir -p "$inputs/sweep"
cp -r "$src/templates" "$inputs/templates"
cases=("version" "validate -f templates/")
for template in "$src"/templates/*.yaml; do
  cases+=("render -f templates/$(basename "$template")")
done
# A seeded random search of many trials: a few hundred log-uniform and uniform draws.
sed -e 's/numTrials: 3/numTrials: 400/' -e 's/seed: 42/seed: 7/' \
  "$src/testdata/render/optjob-random-seeded/optjob.yaml" > "$inputs/sweep/optjob.yaml"
cases+=("render -f sweep/optjob.yaml")
i=0
for args in "${cases[@]}"; do
  # shellcheck disable=SC2086 # the arguments are split on purpose
  (cd "$inputs" && "$bin" $args > "$work/native.$i.out" 2> "$work/native.$i.err"
    echo $? > "$work/native.$i.exit")
  i=$((i + 1))
done

# glibc_newest FILE: the newest GLIBC_x.y its dynamic symbols ask for.
glibc_newest() {
  objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1
}

# not_newer VERSION LIMIT: VERSION is LIMIT or older, and LIMIT is known.
not_newer() {
  [ -n "$2" ] && [ "$(printf '%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$2" ]
}

for arch in amd64 arm64; do
  archive=$work/out/kubectl-trainjob_${version}_linux_${arch}.tar.gz
  dir=$work/$arch
  mkdir -p "$dir"
  if ! tar -xzf "$archive" -C "$dir" 2> /dev/null; then
    check "linux/$arch: the archive unpacks" false
    continue
  fi
  plugin=$dir/kubectl-trainjob
  newest=$(glibc_newest "$plugin")
  echo "linux/$arch: $(stat -c %s "$archive") bytes packed, newest glibc symbol GLIBC_$newest"
  promised=documented_$arch
  promised=${!promised}
  check "linux/$arch: needs glibc $promised at most, as docs/install.md says (GLIBC_$newest)" \
    not_newer "$newest" "$promised"
  objdump -p "$plugin" | awk '$1 == "NEEDED" { print $2 }' > "$work/needed.$arch"
  check "linux/$arch: links only the C library ($(tr '\n' ' ' < "$work/needed.$arch"))" \
    bash -c "! grep -Ev '^(libc|libm|libdl|libpthread|librt|ld-linux-(x86-64|aarch64))\\.so' '$work/needed.$arch'"

  runner=""
  [ "$arch" = amd64 ] || runner=qemu-aarch64-static
  i=0
  for args in "${cases[@]}"; do
    # shellcheck disable=SC2086 # the arguments are split on purpose
    "$src/dist/debian_root.sh" run --bind "$dir:/opt/trainjob" --bind "$inputs:/src" \
      -- sh -c "cd /src && exec $runner /opt/trainjob/kubectl-trainjob $args" \
      > "$work/$arch.$i.out" 2> "$work/$arch.$i.err"
    echo $? > "$work/$arch.$i.exit"
    check "linux/$arch in bullseye: $args: the same output, messages and exit code" \
      bash -c "cmp -s '$work/native.$i.out' '$work/$arch.$i.out' &&
        cmp -s '$work/native.$i.err' '$work/$arch.$i.err' &&
        cmp -s '$work/native.$i.exit' '$work/$arch.$i.exit'"
    i=$((i + 1))
  done
  # OpenSSL 1.1 serves render's SHA-1 (above); an SSH key for MPI needs OpenSSL 3, and says so.
  "$src/dist/debian_root.sh" run --bind "$dir:/opt/trainjob" \
    --bind "$src/testdata/render/policy-mpi-deepspeed-one-node-cpu:/src/mpi" \
    -- $runner /opt/trainjob/kubectl-trainjob render --trainer-version 2.3 --generate-secrets \
    -f /src/mpi/trainjob.yaml \
    > /dev/null 2> "$work/$arch.mpi.err"
  check "linux/$arch in bullseye: an MPI SSH key asks for OpenSSL 3" \
    grep -q 'needs OpenSSL 3 (libcrypto.so.3: apt-get install libssl3); the libcrypto.so.1.1 found has no EVP_PKEY_Q_keygen' \
    "$work/$arch.mpi.err"
done
echo "wall time: $((SECONDS - start)) s"
finish
