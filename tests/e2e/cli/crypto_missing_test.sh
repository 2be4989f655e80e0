#!/bin/bash
# Without libcrypto, a render that needs a digest (the JobSet job-key label) ends with one
# line saying what to install, exit 1: a missing library is no internal error. Render of a
# TrainJob that needs no digest still works. libcrypto is hidden for real (lib.sh's
# hide_library).
bin=$1
src=$2
source "$src/tests/e2e/lib.sh"

hide_library libcrypto.so.

without_hidden_library /usr/bin/python3 -c 'import ctypes; ctypes.CDLL("'"$hidden_soname"'")'
check "the namespace really hides libcrypto (a plain dlopen fails)" [ $? -eq 1 ]

without_hidden_library "$bin" render -f "$src/templates/image.yaml"
check "render of a TrainJob without a namespace needs no digest: exit 0" [ $? -eq 0 ]
check "... and prints the Jobs" grep -q '^kind: Job$' "$work/out"

without_hidden_library "$bin" render -f "$src/templates/image.yaml" -n team-a
check "render with a namespace (the job-key label is a SHA-1) without libcrypto: exit 1" \
  [ $? -eq 1 ]
check "... saying what is missing, not 'internal error'" \
  bash -c "grep -q '^error: libcrypto' '$work/err' && ! grep -q 'internal error' '$work/err'"
check "... in one line" [ "$(wc -l < "$work/err")" -eq 1 ]
check "... and no partial output" [ ! -s "$work/out" ]
finish
