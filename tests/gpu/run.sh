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

# The stages, in order; each records what it did for the summary.
. "$here/deps.sh"
. "$here/build.sh"
. "$here/steps.sh"

# --- the summary --------------------------------------------------------------------------
write_summary
say ""
tee -a "$log" <"$out/summary.txt"
[ "$failures" -eq 0 ]
