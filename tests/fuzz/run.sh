#!/usr/bin/env bash
# Builds the fuzz targets with clang, ASan and UBSan, seeds a corpus from testdata/,
# templates/ and runtimes/, and runs each target for the given number of seconds (default
# 60): load -> validate -> render, the block-YAML reader against libyaml, the kubeconfig
# reader (seeded from tests/fuzz/kubeconfig-seeds/), then the names that become paths (seeded
# from tests/fuzz/path-seeds/). Targets may be named after the seconds. FUZZ_BUILD_DIR names
# a build directory already configured with TRAINJOB_FUZZ (CI uses the asan preset's, which
# builds the targets too); by default build-fuzz/ is configured here.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(trainjob-fuzz trainjob-yaml-subset-fuzz trainjob-kubeconfig-fuzz
  trainjob-path-names-fuzz)
build=${FUZZ_BUILD_DIR:-build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DTRAINJOB_FUZZ=ON -DTRAINJOB_SANITIZE=ON >&2
fi
cmake --build "$build" --target "${targets[@]}" >&2
seeds=$build/seeds
mkdir -p "$seeds"
find testdata templates runtimes -name '*.yaml' -o -name '*.json' -o -name 'stdin' |
  while read -r file; do cp "$file" "$seeds/$(echo "$file" | tr / _)"; done
# Targets that write files (the path-names one) do so beneath here.
export TMPDIR="$PWD/$build/tmp"
mkdir -p "$TMPDIR"
for target in "${targets[@]}"; do
  target_seeds=$seeds
  dict=tests/fuzz/yaml.dict
  [ "$target" != trainjob-kubeconfig-fuzz ] || target_seeds=tests/fuzz/kubeconfig-seeds
  if [ "$target" = trainjob-path-names-fuzz ]; then
    target_seeds=tests/fuzz/path-seeds
    dict=tests/fuzz/paths.dict
  fi
  # New inputs go to the first directory, one per target; the seeds stay as they are.
  mkdir -p "$build/corpus-$target"
  "$build/tests/fuzz/$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -dict="$dict" -artifact_prefix="$build/$target-" \
    -rss_limit_mb=2048 -print_final_stats=1 "$build/corpus-$target" "$target_seeds"
done
