#!/bin/bash
# bench_programs.sh PARSCOPE_GEN CC INCLUDE_DIR PROGRAMS_DIR - every program of the prediction
# benchmark (bench/programs, docs/BENCHMARKS.md) still translates and its C compiles without a
# warning: a language change that breaks one is found here, not in an hour-long table.
set -u
GEN=$1 CC=$2 INC=$3 DIR=$4
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0 n=0
for f in "$DIR"/*.loop; do
    n=$((n + 1))
    name=$(basename "$f" .loop)
    if ! "$GEN" "$f" -o "$T/$name.c" 2>"$T/err"; then
        echo "FAIL: $name: does not translate: $(cat "$T/err")"; fail=1; continue
    fi
    "$CC" -std=c17 -Wall -Wextra -Werror -fsyntax-only -I"$INC" "$T/$name.c" 2>"$T/err" ||
        { echo "FAIL: $name: its C does not compile cleanly:"; cat "$T/err"; fail=1; }
done
# the benchmark's table runs these; an empty folder would pass for nothing
[ "$n" -ge 20 ] || { echo "FAIL: only $n programs in $DIR"; fail=1; }
exit $fail
