#!/bin/bash
# message_counts.sh PARSCOPE TRACE_COUNT MPIEXEC - the message-count contract
# of DESIGN.md, checked on real runs' traces at 1, 2, 3 and 4 ranks:
# no self messages; MULTIBCAST* P(P-1); TREE_* P-1; COMMUNICATE and EXCHANGE
# skip positions landing on the node itself; EXCHANGE +/-1 at P=2 is two
# messages per node; EXCHANGE 1 pairs me XOR distance when it exists.
set -u
PARSCOPE=$1 COUNT=$2 MPIEXEC=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/ps-lang-counts.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$PARSCOPE" build "$here/progs/patterns.loop" -o "$work/patterns" || { echo "build failed"; exit 1; }
fail=0
check() {  # name bytes expected (bytes '*' = all sizes of that construct summed)
    local got
    if [ "$2" = "*" ]; then
        got=$(awk -v n="$1" '$1 == n { s += $3 } END { print s + 0 }' "$work/counts")
    else
        got=$(awk -v n="$1" -v b="$2" '$1 == n && $2 == b { s += $3 } END { print s + 0 }' "$work/counts")
    fi
    if [ "$got" != "$3" ]; then
        echo "P=$P: $1 ($2 bytes): expected $3 messages, trace has $got"
        fail=1
    fi
}
nz() { [ $(( $1 % P )) -ne 0 ] && echo 1 || echo 0; }   # position k*d lands elsewhere
for P in 1 2 3 4; do
    rm -f "$work/t.pst"
    if ! timeout 60 "$MPIEXEC" -n $P "$work/patterns" -s 16 --trace "$work/t.pst" --quiet > "$work/out" 2>&1; then
        echo "P=$P: run failed"; cat "$work/out"; fail=1; continue
    fi
    "$COUNT" "$work/t.pst" > "$work/counts" || { echo "P=$P: cannot read the trace"; fail=1; continue; }
    if grep -q SELF-MESSAGE "$work/counts"; then echo "P=$P: a node sent to itself"; fail=1; fi
    grep -q "^unmatched 0 0$" "$work/counts" || { echo "P=$P: unmatched messages: $(grep unmatched "$work/counts")"; fail=1; }
    check COMMUNICATE 101 $(( P * $(nz 1) ))
    check COMMUNICATE 102 $(( P * ($(nz 1) + $(nz 2) + $(nz 3)) ))
    check COMMUNICATE 103 $(( P * $(nz 2) ))
    check EXCHANGE 201 $(( 2 * P * $(nz 1) ))
    x1=0; x2=0
    for ((m = 0; m < P; m++)); do
        [ $(( m ^ 1 )) -lt $P ] && x1=$((x1 + 1))
        [ $(( m ^ 2 )) -lt $P ] && x2=$((x2 + 1))
    done
    check EXCHANGE 202 $x1
    check EXCHANGE 203 $x2
    check EXCHANGE 204 $(( 2 * P * ($(nz 1) + $(nz 2)) ))
    check MULTIBCAST0 301 $(( P * (P - 1) ))
    check MULTIBCAST_ME 302 $(( P * (P - 1) ))
    check MULTIBCAST_ALTER 303 $(( P * (P - 1) ))
    check TREE_BCAST 401 $(( P - 1 ))
    check TREE_COLLECT_VEC "*" $(( P - 1 ))
    check TREE_DISTRIB_VEC "*" $(( P - 1 ))
    if [ $P -gt 1 ]; then
        check VISIBLE_SYNC 1 $P
        check SEND 40 $P
        check BSEND 48 $(( P / 2 ))
    else
        check VISIBLE_SYNC "*" 0
        check SEND "*" 0
    fi
    echo "P=$P: checked"
done
exit $fail
