#!/usr/bin/env bash
# Peak memory and time of `validate` on two hostile inputs, for one or two builds side by
# side (alternating, RUNS times each):
#   tests/bench/hostile_inputs.sh NEW_BINARY [OLD_BINARY] [RUNS]
# - bomb:   a billion-laughs alias bomb (9 levels of 9 aliases) behind a 1 MB comment;
# - scalar: a ConfigMap whose one value is a 50 MB plain scalar.
# Each run is limited to 8 GiB of address space and 120 s; a run stopped by either shows
# its exit status. Prints one line per run: input, build, exit, seconds, peak RSS (MiB).
set -uo pipefail
new=$1
old=${2:-}
runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{
  printf '# %01000000d\n' 0
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  annotations:\n'
  printf '    a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
  for i in 1 2 3 4 5 6 7 8 9; do
    printf '    a%d: &a%d [' "$i" "$i"
    for j in 1 2 3 4 5 6 7 8; do printf '*a%d,' $((i - 1)); done
    printf '*a%d]\n' $((i - 1))
  done
} >"$work/bomb.yaml"
{
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: '
  head -c 50000000 /dev/zero | tr '\0' 'x'
  printf '\n'
} >"$work/scalar.yaml"

measure() {  # measure INPUT LABEL BINARY
  /usr/bin/time -f '%x %e %M' -o "$work/time" \
    prlimit --as=$((8 << 30)) timeout 120 "$3" validate -f "$work/$1.yaml" >/dev/null 2>&1
  # GNU time puts "Command exited with non-zero status N" first when it did.
  read -r status seconds kib < <(tail -n 1 "$work/time")
  printf '%-6s %-4s exit %-3s %6.2f s %7d MiB\n' "$1" "$2" "$status" "$seconds" $((kib / 1024))
}

for input in bomb scalar; do
  for ((run = 0; run < runs; run++)); do
    measure "$input" new "$new"
    [ -z "$old" ] || measure "$input" old "$old"
  done
done
