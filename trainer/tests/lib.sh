# Shared by the trainer's end-to-end tests: each script is run as
# `script <path-to-trainjob-trainer> <source-dir>`, sources this file, and ends with `finish`.
trainer=$1
source_dir=$2
# shellcheck source=../../tests/e2e/lib.sh
. "$source_dir/tests/e2e/lib.sh"

# A port nobody listens on now (the kernel's choice for an ephemeral bind).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Lines of a file matching a pattern, for checks: has FILE PATTERN
has() { grep -q -- "$2" "$1"; }

# The trained parameters from rank 0's final line.
final_parameters() { grep '^Final parameters:' "$1"; }

# Every "[rank R] parameter checksum X" line in the files carries the same X, and there are N.
checksums_agree() {  # checksums_agree N FILE...
  local count=$1
  shift
  [ "$(cat "$@" | grep -c 'parameter checksum')" -eq "$count" ] &&
    [ "$(cat "$@" | grep 'parameter checksum' | awk '{print $NF}' | sort -u | wc -l)" -eq 1 ]
}

# Each epoch's average loss is below the one before.
loss_decreases() {
  grep -o 'Average Loss: [0-9.]*' "$1" | awk '{print $3}' |
    awk 'NR > 1 && $1 >= previous {bad = 1} {previous = $1} END {exit bad || NR < 2}'
}

# |a - b| <= tolerance for every pair of numbers in two "Final parameters" lines.
parameters_close() {  # parameters_close LINE1 LINE2 TOLERANCE
  python3 - "$1" "$2" "$3" <<'PY'
import re, sys
a = [float(x) for x in re.findall(r"=(\S+)", sys.argv[1])]
b = [float(x) for x in re.findall(r"=(\S+)", sys.argv[2])]
sys.exit(0 if len(a) == len(b) > 0 and all(abs(x - y) <= float(sys.argv[3]) for x, y in zip(a, b)) else 1)
PY
}

lacks() { ! grep -q -- "$2" "$1"; }
