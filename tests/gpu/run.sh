#!/usr/bin/env bash
# The trainer on a GPU, in one go (tests/gpu/README.md): build it against a CUDA libtorch (the
# machine's PyTorch), run its unit tests, then
#   1. the CNN on the GPU, 1 rank, --backend nccl: parameter checksum, a checkpoint resumed
#      (on the GPU, and on the CPU from the checkpoint the GPU wrote);
#   2. 2 ranks on the one GPU over gloo with CUDA tensors, and --backend nccl's refusal of two
#      ranks on one GPU, as the launcher reports it;
#   3. the same CNN under PyTorch DDP on the same GPU: samples/s side by side.
# Writes run.log and summary.txt (one table) under --out. Every step runs whatever the one
# before did, so that one short lease on a GPU machine tells as much as it can.
#
# --dry-run rehearses on a machine without a GPU: the same build (against the libtorch given,
# by default Debian's), the unit tests, and each step with its CPU stand-in and small sizes
# (the same parsing and summary), printing the GPU command beside each. It exits 0 when every
# step did what its stand-in should.
#
# usage: tests/gpu/run.sh [--dry-run] [--torch-prefix DIR | --torch-folder DIR] [--python PROGRAM]
#                         [--build-dir DIR] [--bin-dir DIR] [--out DIR]
#   --torch-prefix  where TorchConfig.cmake is; default: python's torch.utils.cmake_prefix_path
#                   on a GPU, Debian's libtorch (CMake's default search) in a dry run
#   --torch-folder  libtorch's include/ and lib/ without its CMake config (a wheel's torch/,
#                   or /usr for Debian's); on a GPU the build falls back to the wheel's when
#                   the config fails
#   --python        the Python with torch for the DDP step [python3, else /usr/bin/python3]
#   --build-dir     [build-gpu, build-gpu-dry in a dry run]
#   --bin-dir       use the trainer already built there (its build directory): no build
#   --out           where run.log and summary.txt go [$OUT, else BUILD_DIR/gpu-out]
# .gpu-deps/*.deb (tests/gpu/fetch_deps.sh) are unpacked into BUILD_DIR/deps and searched
# before the system: gloo's, CLI11's, doctest's and libcurl's headers, which PyTorch's wheels
# and a CUDA image lack.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dry_run=0 torch_prefix="" torch_folder="" python="" build_dir="" bin_dir="" out="${OUT:-}"
while [ $# -gt 0 ]; do
  case $1 in
    --dry-run) dry_run=1 ;;
    --torch-prefix) torch_prefix=$2; shift ;;
    --torch-folder) torch_folder=$2; shift ;;
    --python) python=$2; shift ;;
    --build-dir) build_dir=$2; shift ;;
    --bin-dir) bin_dir=$2; shift ;;
    --out) out=$2; shift ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$build_dir" ] || build_dir=$root/build-gpu$([ "$dry_run" = 1 ] && echo -dry)
[ -n "$bin_dir" ] && build_dir=$bin_dir
mkdir -p "$build_dir"
build_dir=$(cd "$build_dir" && pwd)
[ -n "$out" ] || out=$build_dir/gpu-out
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$out/run.log
: >"$log"
results=$out/results.tsv  # step, the GPU command, result; summary.txt is made from it
: >"$results"
failures=0
started_all=$(date +%s)

say() { echo "$*" | tee -a "$log"; }
# summary.txt from the steps so far: written after each, so that a run stopped at the
# lease's limit still leaves one.
write_summary() {
  {
    echo "tests/gpu/run.sh ($mode), $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $commit"
    echo "card: $card"
    echo "machine: $cores CPUs; torch (Python) $py_torch; $(nvcc --version 2>/dev/null | tail -1 || echo 'no nvcc')"
    echo "total: $(($(date +%s) - started_all)) s; failed steps: $failures${1:+; $1}"
    echo
    echo "| step | GPU command | result |"
    echo "|---|---|---|"
    awk -F'\t' '{printf "| %s | `%s` | %s |\n", $1, $2, $3}' "$results"
  } >"$out/summary.txt"
}
# record STEP COMMAND RESULT [ok|FAIL]
record() {
  printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$results"
  say "== $1: $3${4:+ [$4]}"
  if [ "${4:-ok}" != ok ]; then failures=$((failures + 1)); fi
  write_summary "still running"
}
# run_logged NAME COMMAND...: runs it with stdout in $work/NAME.out and stderr in
# $work/NAME.err, both copied into the log; returns its exit status.
run_logged() {
  local name=$1 status began
  shift
  say "\$ $*"
  began=$(date +%s)
  "$@" >"$work/$name.out" 2>"$work/$name.err"
  status=$?
  sed 's/^/  | /' "$work/$name.out" "$work/$name.err" >>"$log"
  say "  (exit $status, $(($(date +%s) - began)) s)"
  return "$status"
}
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
    echo $((20000 + RANDOM % 20000))
}
last_rate() { grep -o '[0-9.]* samples/s' "$1" | tail -1 | awk '{print $1}'; }
checksum_of() { grep -m1 "\[rank $2\] parameter checksum" "$1" | awk '{print $NF}'; }
checksums() { grep 'parameter checksum' "$1" | awk '{print $NF}' | sort -u | paste -sd' ' -; }
accuracy_of() { grep -o 'Test accuracy: [0-9.]*%' "$1" | awk '{print $3}'; }

# --- what this machine is -------------------------------------------------------------------
if [ -z "$python" ]; then
  for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c 'import torch' 2>/dev/null; then python=$candidate; break; fi
  done
  [ -n "$python" ] || python=python3
fi
py_torch=$("$python" -c 'import torch; print(torch.__version__)' 2>/dev/null || echo none)
card=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null |
  head -1)
[ -n "$card" ] || card="none (no nvidia-smi answer)"
if [ "$dry_run" = 0 ] && ! nvidia-smi -L >/dev/null 2>&1; then
  say "run.sh: no GPU answers nvidia-smi here; for a rehearsal on the CPU use --dry-run" >&2
  exit 1
fi
mode=$([ "$dry_run" = 1 ] && echo "dry run, CPU stand-ins" || echo "GPU")
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || cat "$root/.gpu-deps/commit" 2>/dev/null ||
  echo unknown)
# nproc follows OMP_NUM_THREADS, which the dry run sets.
cores=$(nproc)
say "tests/gpu/run.sh ($mode) $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n), $cores CPUs"
say "card: $card; python: $python (torch $py_torch); commit: $commit"
say "nvcc: $(nvcc --version 2>/dev/null | tail -1 || echo none); cmake: $(cmake --version | head -1)"

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

# --- the steps --------------------------------------------------------------------------------
# Sizes: the correctness runs are small, the throughput runs long enough for a steady epoch.
if [ "$dry_run" = 1 ]; then
  small=(--samples 256 --test-samples 64 --epochs 2) three=(--samples 256 --test-samples 64 --epochs 3)
  fast=(--samples 512 --epochs 2)
  device_nccl=(--backend gloo --device cpu) device_gloo=(--backend gloo --device cpu)
  ddp_nccl=(--backend gloo --device cpu) ddp_gloo=(--backend gloo --device cpu)
  export OMP_NUM_THREADS=1
else
  small=(--samples 8192 --epochs 2) three=(--samples 8192 --epochs 3)
  fast=(--samples 60000 --epochs 3)
  device_nccl=(--backend nccl) device_gloo=(--backend gloo --device cuda)
  ddp_nccl=(--backend nccl --device cuda) ddp_gloo=(--backend gloo --device cuda)
fi
# Every rank is on this machine: loopback, rather than whatever interface the host name
# resolves to (in a VM, possibly none).
export GLOO_SOCKET_IFNAME=lo NCCL_SOCKET_IFNAME=lo
gpu_nccl="--backend nccl" gpu_gloo="--backend gloo --device cuda"
gpu_ddp_nccl="--backend nccl --device cuda" gpu_ddp_gloo="--backend gloo --device cuda"
cnn=(--model mnist-cnn)
# step NAME GPU-COMMAND -- COMMAND...: runs COMMAND (the GPU command itself, or its stand-in).
step() {
  local name=$1 shown=$2
  shift 3
  [ "$dry_run" = 1 ] && say "would run on the GPU: $shown"
  run_logged "$name" "$@"
}

if [ -x "$trainer" ]; then
  # 1. One rank on the GPU over NCCL, checkpointing; then a resume from epoch 2 to 3, the
  # same three epochs uninterrupted, and the GPU's checkpoint resumed on the CPU.
  ck=$work/checkpoints
  if step nccl1 "trainjob-trainer $gpu_nccl ${cnn[*]} ${small[*]} --checkpoint-dir DIR" -- \
    "$trainer" --master-port "$(free_port)" "${device_nccl[@]}" "${cnn[@]}" "${small[@]}" \
    --checkpoint-dir "$ck"; then
    record "1 CNN, 1 rank, nccl" "trainjob-trainer $gpu_nccl ${cnn[*]} ${small[*]}" \
      "$(grep -o 'world size 1, [^,]*' "$work/nccl1.out"); checksum $(checksum_of "$work/nccl1.out" 0), test accuracy $(accuracy_of "$work/nccl1.out"), $(cd "$ck" && echo checkpoint-*.pt)"
  else
    record "1 CNN, 1 rank, nccl" "trainjob-trainer $gpu_nccl ${cnn[*]} ${small[*]}" \
      "failed: $(tail -1 "$work/nccl1.err" | cut -c1-200)" FAIL
  fi
  cp -r "$ck" "$work/checkpoints-cpu" 2>/dev/null
  step resume "trainjob-trainer $gpu_nccl ${cnn[*]} ${three[*]} --checkpoint-dir DIR" -- \
    "$trainer" --master-port "$(free_port)" "${device_nccl[@]}" "${cnn[@]}" "${three[@]}" \
    --checkpoint-dir "$ck"
  step straight "trainjob-trainer $gpu_nccl ${cnn[*]} ${three[*]}" -- \
    "$trainer" --master-port "$(free_port)" "${device_nccl[@]}" "${cnn[@]}" "${three[@]}"
  resumed=$(grep -o 'resuming from [^ ]*: [0-9]* epochs done' "$work/resume.out" | sed 's|from .*/|from |')
  if [ -n "$resumed" ] && grep -q 'parameter checksum' "$work/resume.out"; then
    same=$([ "$(checksum_of "$work/resume.out" 0)" = "$(checksum_of "$work/straight.out" 0)" ] &&
      echo "equal to" || echo "differs from")
    record "1 resumed" "trainjob-trainer ... ${three[*]} --checkpoint-dir DIR" \
      "$resumed; checksum $(checksum_of "$work/resume.out" 0) $same 3 epochs straight ($(checksum_of "$work/straight.out" 0))"
  else
    record "1 resumed" "trainjob-trainer ... ${three[*]} --checkpoint-dir DIR" \
      "failed: $(tail -1 "$work/resume.err" | cut -c1-200)" FAIL
  fi
  if step resume_cpu "trainjob-trainer --device cpu ${cnn[*]} ${three[*]} --checkpoint-dir DIR" -- \
    "$trainer" --master-port "$(free_port)" --device cpu "${cnn[@]}" "${three[@]}" \
    --checkpoint-dir "$work/checkpoints-cpu" &&
    grep -q 'resuming from' "$work/resume_cpu.out"; then
    record "1 resumed on the CPU" "trainjob-trainer --device cpu ... --checkpoint-dir DIR" \
      "the checkpoint of epoch 2 restored on the CPU; test accuracy $(accuracy_of "$work/resume_cpu.out")"
  else
    record "1 resumed on the CPU" "trainjob-trainer --device cpu ... --checkpoint-dir DIR" \
      "failed: $(tail -1 "$work/resume_cpu.err" | cut -c1-200)" FAIL
  fi

  # 2. Two ranks sharing the GPU over gloo with CUDA tensors; NCCL refused for two ranks on
  # one GPU, before the rendezvous, with the launcher naming the rank.
  if step gloo2 "trainjob-trainer --nproc-per-node 2 $gpu_gloo ${cnn[*]} ${small[*]}" -- \
    "$trainer" --nproc-per-node 2 --master-port "$(free_port)" "${device_gloo[@]}" "${cnn[@]}" \
    "${small[@]}" && [ "$(grep -c 'parameter checksum' "$work/gloo2.out")" = 2 ] &&
    [ "$(checksums "$work/gloo2.out" | wc -w)" = 1 ]; then
    record "2 CNN, 2 ranks, gloo, CUDA tensors" \
      "trainjob-trainer --nproc-per-node 2 $gpu_gloo ${cnn[*]} ${small[*]}" \
      "$(grep -o 'world size 2, [^,]*' "$work/gloo2.out"); both ranks' checksum $(checksums "$work/gloo2.out")"
  else
    record "2 CNN, 2 ranks, gloo, CUDA tensors" \
      "trainjob-trainer --nproc-per-node 2 $gpu_gloo ${cnn[*]} ${small[*]}" \
      "failed: $(tail -1 "$work/gloo2.err" | cut -c1-200)" FAIL
  fi
  # On a CPU build the refusal is the missing NCCL, said the same way.
  step refuse "trainjob-trainer --nproc-per-node 2 --backend nccl ${cnn[*]}" -- \
    "$trainer" --nproc-per-node 2 --master-port "$(free_port)" --backend nccl "${cnn[@]}" --epochs 1
  refusal=$(grep -m1 'trainjob-trainer: error: ' "$work/refuse.err" | sed 's/^trainjob-trainer: error: //')
  launcher=$(grep -m1 'failed with exit status' "$work/refuse.err" | sed 's/^trainjob-trainer: error: //')
  expected=$([ "$dry_run" = 1 ] && echo 'backend nccl: this build has no NCCL' ||
    echo 'local rank 1 has no GPU of its own')
  if grep -q "$expected" "$work/refuse.err" && [ -n "$launcher" ]; then
    record "2 nccl, 2 ranks, 1 GPU" "trainjob-trainer --nproc-per-node 2 --backend nccl" \
      "refused, exit 1: \"$refusal\"; launcher: \"$launcher\""
  else
    record "2 nccl, 2 ranks, 1 GPU" "trainjob-trainer --nproc-per-node 2 --backend nccl" \
      "not refused as expected: $(tail -2 "$work/refuse.err" | paste -sd' ' - | cut -c1-200)" FAIL
  fi
fi

# 3. Throughput: trainjob-trainer and PyTorch DDP, same CNN, data shape, batch and Adam, the
# last epoch's samples/s. PyTorch runs under trainjob-trainer as torchrun.
ddp=$root/tests/bench/trainer/ddp_cnn.py
rate() {  # rate NAME: the last epoch's samples/s, or why none
  local value
  value=$(last_rate "$work/$1.out")
  echo "${value:-failed}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
if [ -x "$trainer" ]; then
  step t_nccl "trainjob-trainer $gpu_nccl ${cnn[*]} ${fast[*]}" -- \
    "$trainer" --master-port "$(free_port)" "${device_nccl[@]}" "${cnn[@]}" "${fast[@]}"
  step t_gloo "trainjob-trainer --nproc-per-node 2 $gpu_gloo ${cnn[*]} ${fast[*]}" -- \
    "$trainer" --nproc-per-node 2 --master-port "$(free_port)" "${device_gloo[@]}" "${cnn[@]}" \
    "${fast[@]}"
fi
if [ "$py_torch" = none ]; then
  # Compiled into the scratch directory: no __pycache__ left in the tree.
  if python3 -c 'import py_compile, sys; py_compile.compile(sys.argv[1], sys.argv[2], doraise=True)' \
    "$ddp" "$work/ddp_cnn.pyc" 2>>"$log"; then
    record "3 PyTorch DDP" "python3 tests/bench/trainer/ddp_cnn.py" "not run: no torch for $python here; the script compiles"
  else
    record "3 PyTorch DDP" "python3 tests/bench/trainer/ddp_cnn.py" "the script does not compile" FAIL
  fi
elif [ -x "$trainer" ]; then
  step p_nccl "trainjob-trainer --python python3 --nproc_per_node 1 ddp_cnn.py $gpu_ddp_nccl ${fast[*]}" -- \
    "$trainer" --python "$python" --nproc_per_node 1 --master_port "$(free_port)" "$ddp" \
    "${ddp_nccl[@]}" "${fast[@]}"
  step p_gloo "trainjob-trainer --python python3 --nproc_per_node 2 ddp_cnn.py $gpu_ddp_gloo ${fast[*]}" -- \
    "$trainer" --python "$python" --nproc_per_node 2 --master_port "$(free_port)" "$ddp" \
    "${ddp_gloo[@]}" "${fast[@]}"
fi
if [ -x "$trainer" ]; then
  for pair in "nccl:1 rank, nccl" "gloo:2 ranks on one GPU, gloo"; do
    kind=${pair%%:*} label=${pair#*:}
    ours=$(rate "t_$kind") theirs="not run"
    if [ "$py_torch" != none ]; then theirs=$(rate "p_$kind"); fi
    verdict=$([ "$ours" = failed ] || [ "$theirs" = failed ] && echo FAIL || echo ok)
    record "3 samples/s, $label" "${fast[*]}, batch 64 per rank, last epoch" \
      "trainjob-trainer $ours, PyTorch DDP $theirs (torch $py_torch), ratio $(ratio "$ours" "$theirs")" \
      "$verdict"
  done
fi

# --- the summary --------------------------------------------------------------------------
write_summary
say ""
tee -a "$log" <"$out/summary.txt"
[ "$failures" -eq 0 ]
