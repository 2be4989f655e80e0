#!/usr/bin/env bash
# Sourced by run.sh (tests/gpu/README.md), after deps.sh: the trainer's build (unless
# --bin-dir names one) and its unit tests.
# --- build and unit tests ---------------------------------------------------------------------
# configure_and_build ARGS...: a fresh configuration (nothing cached from another libtorch);
# 1 when the configuration fails, 2 when the build does.
configure_and_build() {
  local compiler_launcher=() unity prefix_path build_type=RelWithDebInfo
  # No debugger on a lease: its minutes go to compiling without debug information.
  [ "$dry_run" = 1 ] || build_type=Release
  command -v ccache >/dev/null && compiler_launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # On 2 cores a unity build costs a third of one file at a time; with 16, files in parallel.
  unity=$([ "$cores" -le 4 ] && echo ON || echo OFF)
  prefix_path=$(IFS=';'; echo "${prefixes[*]}")
  rm -rf "$build_dir/CMakeCache.txt" "$build_dir/CMakeFiles"
  run_logged configure cmake -S "$root/trainer" -B "$build_dir" -G Ninja \
    "-DCMAKE_BUILD_TYPE=$build_type" "-DCMAKE_PREFIX_PATH=$prefix_path" \
    "-DCMAKE_UNITY_BUILD=$unity" -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 "${compiler_launcher[@]}" \
    "${cmake_args[@]}" "$@" || return 1
  run_logged build cmake --build "$build_dir" -j "$cores" || return 2
}
built_against() {
  local libtorch cuda
  libtorch=$(sed -n 's/^Torch_DIR:PATH=//p; s/^TRAINJOB_TORCH_FOLDER:PATH=\(..*\)/\1 (no CMake config)/p' \
    "$build_dir/CMakeCache.txt" | head -1)
  cuda=$(grep -q 'TRAINJOB_TORCH_LIB_torch_cuda:FILEPATH=/\|trainjob-trainer: CUDA libtorch' \
    "$build_dir/CMakeCache.txt" "$work/configure.out" && echo "CUDA, NCCL" || echo "CPU only")
  # A wheel's path from its site-packages on: the rest names the machine, not the libtorch.
  echo "${libtorch/*site-packages\//site-packages/}, $cuda"
}
build_failure() {
  grep -h -m1 -E 'error|Error' "$work/configure.err" "$work/configure.out" "$work/build.out" \
    2>/dev/null | head -1 | cut -c1-200
}
if [ -n "$bin_dir" ]; then
  record build "(the build in $bin_dir)" "not built: --bin-dir"
else
  unpack_deps || record deps "dpkg-deb -x .gpu-deps/*.deb" "cannot unpack" FAIL
  [ "$dry_run" = 1 ] || choose_cuda
  choose_curl
  build_started=$(date +%s)
  if [ -n "$torch_folder" ]; then
    configure_and_build "-DTRAINJOB_TORCH_FOLDER=$torch_folder"
  else
    configure_and_build ${torch_prefix:+"-DTRAINJOB_TORCH_PREFIX=$torch_prefix"} "${cuda_args[@]}"
  fi
  built=$?
  if [ "$built" = 1 ] && [ "$dry_run" = 0 ] && [ -z "$torch_folder" ]; then
    # PyTorch's CMake config wants most of the CUDA toolkit; the wheel's own folder needs
    # only CUDA's runtime headers (the toolkit's or the wheel's nvidia/cu*/include). A build
    # that fails to compile would fail the same way there: not retried.
    record "build (TorchConfig)" "cmake -S trainer -DTRAINJOB_TORCH_PREFIX=..." \
      "failed: $(build_failure); again without the config" FAIL
    torch_folder=$("$python" -c 'import os, torch; print(os.path.dirname(torch.__file__))')
    # The toolkit's runtime headers where it has them (whole), else the wheels'.
    runtime_include=()
    if [ -f "${CUDA_HOME:-/nonexistent}/include/cuda_runtime_api.h" ]; then
      runtime_include=("-DTRAINJOB_CUDA_RUNTIME_INCLUDE_DIR=$CUDA_HOME/include")
    fi
    for cuda_dir in "${nvidia_root:-/nonexistent}"/cu*; do
      [ -d "$cuda_dir/include" ] && prefixes+=("$cuda_dir")
    done
    configure_and_build "-DTRAINJOB_TORCH_FOLDER=$torch_folder" "${runtime_include[@]}"
    built=$?
  fi
  if [ "$built" = 0 ]; then
    record build "cmake -S trainer (Ninja, -j$cores)" \
      "ok in $(($(date +%s) - build_started)) s against $(built_against)"
  else
    record build "cmake -S trainer (Ninja, -j$cores)" "failed: $(build_failure)" FAIL
  fi
fi
trainer=$build_dir/trainjob-trainer
unit=$build_dir/tests/trainjob-trainer-unit-tests
if [ ! -x "$trainer" ]; then
  say "no trainer was built; nothing more to run"
else
  if run_logged unit "$unit"; then
    record "unit tests" "tests/trainjob-trainer-unit-tests" \
      "ok: $(grep -o '[0-9]* passed' "$work/unit.out" | head -1 | sed 's/ passed//') test cases passed"
  else
    record "unit tests" "tests/trainjob-trainer-unit-tests" \
      "failed: $(grep -m1 -E 'ERROR|FAILED' "$work/unit.out" | cut -c1-160)" FAIL
  fi
fi
