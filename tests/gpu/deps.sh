#!/usr/bin/env bash
# Sourced by run.sh (tests/gpu/README.md), after it has read its options and looked at the
# machine: where the build finds its dependencies.
# --- dependencies: carried Debian packages, the CUDA toolkit, NCCL's headers -----------------
deps=$build_dir/deps
prefixes=()
cmake_args=()  # every configuration
cuda_args=()   # PyTorch's CMake config on a GPU machine
nvidia_root=""
unpack_deps() {
  local deb
  shopt -s nullglob
  local debs=("$root"/.gpu-deps/*.deb)
  shopt -u nullglob
  [ ${#debs[@]} -gt 0 ] || return 0
  rm -rf "$deps" && mkdir -p "$deps"
  for deb in "${debs[@]}"; do dpkg-deb -x "$deb" "$deps" || return 1; done
  # Headers only: libcurl's archive (whose own dependencies are not here) and the links to
  # libraries that were not carried must not be found instead of the machine's.
  rm -f "$deps"/usr/lib/*/libcurl.a "$deps"/usr/lib/*/libcurl.so "$deps"/usr/lib/*/pkgconfig/libcurl.pc \
    "$deps"/usr/lib/libgloo.so
  # doctest's export names /usr as its prefix; it is here instead.
  sed -i "s|set(_IMPORT_PREFIX \"/usr\")|set(_IMPORT_PREFIX \"$deps/usr\")|" \
    "$deps"/usr/lib/cmake/doctest/doctestTargets.cmake 2>/dev/null
  prefixes+=("$deps/usr")
  # Named, not searched for, so that a build directory configured before keeps no system copy.
  cmake_args+=("-DCLI11_DIR=$deps/usr/share/cmake/CLI11" "-Ddoctest_DIR=$deps/usr/lib/cmake/doctest"
    "-DTRAINJOB_GLOO_INCLUDE_DIR=$deps/usr/include")
  say "unpacked ${#debs[@]} packages from .gpu-deps into $deps"
}
# libcurl: the carried headers against this machine's libcurl.so.4 (its ABI has not changed
# since 2006); without one, a trainer that says it cannot post to a status server.
choose_curl() {
  local library headers=""
  library=$(ldconfig -p 2>/dev/null | awk '/libcurl\.so\.4 .*x86-64/ {print $NF; exit}')
  for dir in /usr/include /usr/include/x86_64-linux-gnu "$deps/usr/include/x86_64-linux-gnu"; do
    [ -z "$headers" ] && [ -f "$dir/curl/curl.h" ] && headers=$dir
  done
  if [ -n "$library" ] && [ -n "$headers" ]; then
    cmake_args+=("-DCURL_INCLUDE_DIR=$headers" "-DCURL_LIBRARY=$library")
  else
    say "no libcurl.so.4 or no curl headers: building without the status server's transport"
    cmake_args+=(-DTRAINJOB_TRAINER_STATUS_SERVER=OFF)
  fi
}
# A pip-installed PyTorch: its libtorch, and NCCL's and CUDA's pip headers, which the CUDA
# toolkit may not have (nccl.h, cusparse.h, ...); -idirafter so that the toolkit's win.
choose_cuda() {
  [ -n "$torch_prefix" ] ||
    torch_prefix=$("$python" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)' 2>/dev/null)
  local nvidia nvcc cuda_home flags="" dir
  nvidia=$("$python" -c 'import nvidia; print(list(nvidia.__path__)[0])' 2>/dev/null)
  nvidia_root=$nvidia
  [ -n "$nvidia" ] && [ -d "$nvidia/nccl" ] && prefixes+=("$nvidia/nccl")
  nvcc=$(command -v nvcc)
  for candidate in /usr/local/cuda/bin/nvcc "$nvidia"/cu*/bin/nvcc; do
    [ -z "$nvcc" ] && [ -x "$candidate" ] && nvcc=$candidate
  done
  if [ -n "$nvcc" ]; then
    cuda_home=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
    export CUDA_HOME=${CUDA_HOME:-$cuda_home} CUDA_PATH=${CUDA_PATH:-$cuda_home}
    cuda_args+=("-DCMAKE_CUDA_COMPILER=$nvcc" "-DCUDA_TOOLKIT_ROOT_DIR=$CUDA_HOME"
      "-DCUDAToolkit_ROOT=$CUDA_HOME" -DCMAKE_CUDA_ARCHITECTURES=90)
  fi
  # Searched last, for what the toolkit's own include directory lacks: CUDA 13 keeps CCCL's
  # headers (<nv/target>, which cuda_fp16.h includes) in include/cccl, which nvcc adds and
  # a host compiler does not; the wheels' headers, for a toolkit without cuSPARSE's or
  # cuBLAS's (ATen's CUDA context includes them).
  for dir in "${CUDA_HOME:-/nonexistent}/include/cccl" "$nvidia"/cu*/include "$nvidia"/cu*/include/cccl; do
    [ -n "$nvidia$CUDA_HOME" ] && [ -d "$dir" ] && flags="$flags -idirafter $dir"
  done
  [ -n "$flags" ] && cmake_args+=("-DCMAKE_CXX_FLAGS=${flags# }")
}
