#!/usr/bin/env bash
# Hostile inputs too large to keep in testdata/: each is made here, and each must end in a
# located error (or a clean pass) with bounded memory and time, and a short message.
set -uo pipefail
binary=$1
. "$(dirname "$0")/../lib.sh"

# validate FILE: runs it under GNU time; $status, $report (stdout+stderr), $peak_kib.
run_validate() {
  /usr/bin/time -f '%M' -o "$work/peak" timeout 120 "$binary" validate -f "$1" \
    >"$work/report" 2>&1
  status=$?
  peak_kib=$(tail -n 1 "$work/peak")
}
small_report() { test "$(stat -c %s "$work/report")" -lt 4096; }
# Memory is measured above what the binary needs for one empty document: under AddressSanitizer
# the binary alone takes some 240 MiB (shadow memory of its data), 11 MiB otherwise.
printf -- '--- {}\n' >"$work/one.yaml"
run_validate "$work/one.yaml"
base_kib=$peak_kib
peak_below_mib() { test $((peak_kib - base_kib)) -lt $(($1 * 1024)); }

# A billion-laughs bomb behind a 1 MB comment: padding does not raise the cap.
{
  printf '# %01000000d\n' 0
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  annotations:\n'
  printf '    a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
  for i in 1 2 3 4 5 6 7 8 9; do
    printf '    a%d: &a%d [*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d]\n' "$i" "$i" \
      $((i - 1)) $((i - 1)) $((i - 1)) $((i - 1)) $((i - 1)) $((i - 1)) $((i - 1)) $((i - 1)) $((i - 1))
  done
} >"$work/bomb.yaml"
run_validate "$work/bomb.yaml"
check "a padded alias bomb fails" test "$status" -eq 1
check "at the alias, naming the expansion" grep -q "^$work/bomb.yaml:11:[0-9]*: error: .*alias expansion" "$work/report"
check "within 512 MiB more than one empty document" peak_below_mib 512

# A JSON number of a million digits: out of range, located, and not echoed whole.
{
  printf '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "n"},\n "data": {"x": '
  printf '1%0999999d' 0
  printf '}}\n'
} >"$work/number.json"
run_validate "$work/number.json"
check "a million-digit number fails" test "$status" -eq 1
check "located, cut to a prefix and its length" \
  grep -q "number.json:2:16: error: invalid JSON: the number 1000.*(1000000 characters) is out of range" "$work/report"
check "with a short message" small_report

# A name of 100,000 characters is shown as a prefix and its length.
name=$(head -c 100000 /dev/zero | tr '\0' 'a')
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "%s/x"\n' "$name" >"$work/name.yaml"
run_validate "$work/name.yaml"
check "a 100,000-character bad name fails" test "$status" -eq 1
check "shown cut, with its length" grep -q 'found string "aaaa.*..." (100002 bytes)' "$work/report"
check "in a short message" small_report

# More documents than the cap: refused before they are built.
awk 'BEGIN { for (i = 0; i <= 1000000; i++) print "--- {}" }' >"$work/many.yaml"
run_validate "$work/many.yaml"
check "a million and one documents fail" test "$status" -eq 1
check "at the first one past the cap" \
  grep -q "many.yaml:1000001:1: error: more than 1000000 documents in one stream" "$work/report"
check "within 256 MiB more than one empty document" peak_below_mib 256

# A 50 MB scalar is fine: read once, checked, no more than a few copies in memory.
{
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: '
  head -c 50000000 /dev/zero | tr '\0' 'x'
  printf '\n'
} >"$work/scalar.yaml"
run_validate "$work/scalar.yaml"
check "a 50 MB scalar validates" test "$status" -eq 0
check "within 1 GiB more than one empty document" peak_below_mib 1024
finish
