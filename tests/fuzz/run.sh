#!/usr/bin/env bash
# Builds the fuzz target with clang, ASan and UBSan, seeds a corpus from testdata/, templates/
# and runtimes/, and fuzzes for the given number of seconds (default 60).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DTRAINJOB_FUZZ=ON -DTRAINJOB_SANITIZE=ON >&2
cmake --build build-fuzz --target trainjob-fuzz >&2
corpus=build-fuzz/corpus
mkdir -p "$corpus"
find testdata templates runtimes -name '*.yaml' -o -name '*.json' -o -name 'stdin' |
  while read -r file; do cp "$file" "$corpus/$(echo "$file" | tr / _)"; done
build-fuzz/tests/fuzz/trainjob-fuzz -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -artifact_prefix=build-fuzz/ \
  -rss_limit_mb=2048 -print_final_stats=1 "$corpus"
