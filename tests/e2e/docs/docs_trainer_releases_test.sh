#!/usr/bin/env bash
# The Trainer releases the README and the glossary name are the ones the binary compiles to:
# `kubectl-trainjob version` lists them ("... as of Trainer 2.0, 2.1, ..., 2.4 (default 2.4)"),
# and every range either page gives from the first of them ("2.0-2.4", "2.0 to 2.4") must end
# at the last, so a release added to lib/model/dialect.cpp fails here until the pages say so.
set -uo pipefail
binary=$1
source_dir=$2
. "$(dirname "$0")/../lib.sh"

"$binary" version >"$work/version"
releases=$(sed -n 's/.* as of Trainer \([0-9][0-9., ]*[0-9]\) (default .*/\1/p' "$work/version" |
  tr -d ',')
first=$(echo "$releases" | awk '{ print $1 }')
last=$(echo "$releases" | awk '{ print $NF }')
check "version lists the Trainer releases ($(tr '\n' ' ' <"$work/version"))" \
  test -n "$first" -a -n "$last"

for page in README.md docs/glossary.md; do
  # "2.0-2.4", "2.0–2.4" or "2.0 to 2.4", the dots matched as dots.
  grep -oE "${first//./\\.}( to |-|–)[0-9]+\.[0-9]+" "$source_dir/$page" >"$work/ranges"
  check "$page gives the range of Trainer releases, $first to $last" test -s "$work/ranges"
  while read -r range; do
    check "$page: the range $range ends at $last, as version says" \
      test "$(grep -oE '[0-9]+\.[0-9]+$' <<<"$range")" = "$last"
  done <"$work/ranges"
done
finish
