#!/bin/bash
# variant_messages.sh PARSCOPE TRACE_COUNT MPIEXEC - the white-box kernels
# send exactly the messages of the full program: Figure 6 (red_black, plain
# C calls in the \LOOP and setup between \OPEN0 and \CLOSE0) and
# golden/toplevel.loop (computation at the top level of main, sizes computed
# by plain assignments, a communicating helper, \KEEP and \COMPUTE) are built
# as comm, data and full, run at 2 and 3 ranks, and the per-construct message
# counts and sizes of their traces compared.
set -u
PARSCOPE=$1 COUNT=$2 MPIEXEC=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/ps-lang-variants.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail=0
for prog in progs/fig6_red_black golden/toplevel; do
    name=$(basename "$prog")
    for v in comm data full; do
        "$PARSCOPE" build "$here/$prog.loop" --variant $v -o "$work/$name.$v" || { echo "$name: build --variant $v failed"; fail=1; }
    done
    for P in 2 3; do
        for v in comm data full; do
            rm -f "$work/t.pst"
            if ! timeout 60 "$MPIEXEC" -n $P "$work/$name.$v" -s 16 -i 3 --trace "$work/t.pst" --quiet > "$work/out" 2>&1; then
                echo "$name P=$P $v: run failed"; cat "$work/out"; fail=1; continue
            fi
            "$COUNT" "$work/t.pst" > "$work/$v.counts" || { echo "$name P=$P $v: cannot read the trace"; fail=1; }
        done
        [ -s "$work/full.counts" ] || { echo "$name P=$P: empty counts"; fail=1; }
        grep -q "^unmatched 0 0$" "$work/full.counts" || { echo "$name P=$P: unmatched messages in full"; fail=1; }
        n=$(awk '$1 != "unmatched" { s += $3 } END { print s + 0 }' "$work/full.counts")
        [ "$n" -gt 0 ] || { echo "$name P=$P: full sent no messages"; fail=1; }
        for v in comm data; do
            if ! diff -u "$work/full.counts" "$work/$v.counts"; then
                echo "$name P=$P: the $v kernel sends other messages than full"; fail=1
            fi
        done
        echo "$name P=$P: $n messages in every variant"
    done
done
exit $fail
