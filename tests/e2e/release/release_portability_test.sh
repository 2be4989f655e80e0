#!/bin/bash
# The release archives run on any Linux with glibc 2.31 or later: dist/release.sh makes the
# linux/amd64 and linux/arm64 archives from this build directory (built again in a bullseye
# root), and each archive's plugin, unpacked into a plain Debian bullseye minbase root (glibc
# 2.31, OpenSSL 1.1's libcrypto and nothing else; arm64 under qemu-aarch64-static), prints
# byte for byte what this build's plugin prints here for `version`, `render` of the bundled
# templates and `validate`. The binaries' newest versioned glibc symbol is reported and must be
# 2.31 at most. Both roots are cached (dist/debian_root.sh) and so is the release build, so a
# second run costs a few seconds of building; where the roots cannot be made (no root, no
# debootstrap, no network, no space) the test is skipped with the reason, never passed.
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
echo "roots ready after $((SECONDS - start)) s"

version=$("$bin" --version | awk '{print $2}')
"$src/dist/release.sh" "$work/out" "$build" "$build=linux/arm64" > "$work/release.log" 2>&1
status=$?
check "release.sh makes the linux/amd64 and linux/arm64 archives" [ $status -eq 0 ]
[ $status -eq 0 ] || cat "$work/release.log" >&2
echo "release.sh took $((SECONDS - start)) s so far"
check "the krew manifest lists both platforms" bash -c \
  "grep -q 'arch: \"amd64\"' '$work/out/trainjob.yaml' && grep -q 'arch: \"arm64\"' '$work/out/trainjob.yaml'"

# What this build prints here, run from the source so that paths in the output are relative.
cases=("version" "validate -f templates/")
for template in "$src"/templates/*.yaml; do
  cases+=("render -f templates/$(basename "$template")")
done
i=0
for args in "${cases[@]}"; do
  # shellcheck disable=SC2086 # the arguments are split on purpose
  (cd "$src" && "$bin" $args > "$work/native.$i.out" 2> "$work/native.$i.err"
    echo $? > "$work/native.$i.exit")
  i=$((i + 1))
done

# glibc_newest FILE: the newest GLIBC_x.y its dynamic symbols ask for.
glibc_newest() {
  objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1
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
  check "linux/$arch: needs glibc 2.31 at most (GLIBC_$newest)" \
    [ "$(printf '%s\n' "$newest" 2.31 | sort -V | tail -n 1)" = 2.31 ]
  objdump -p "$plugin" | awk '$1 == "NEEDED" { print $2 }' > "$work/needed.$arch"
  check "linux/$arch: links only the C library ($(tr '\n' ' ' < "$work/needed.$arch"))" \
    bash -c "! grep -Ev '^(libc|libm|libdl|libpthread|librt|ld-linux-(x86-64|aarch64))\\.so' '$work/needed.$arch'"

  runner=""
  [ "$arch" = amd64 ] || runner=qemu-aarch64-static
  i=0
  for args in "${cases[@]}"; do
    # shellcheck disable=SC2086 # the arguments are split on purpose
    "$src/dist/debian_root.sh" run --bind "$dir:/opt/trainjob" --bind "$src/templates:/src/templates" \
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
