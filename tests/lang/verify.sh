#!/bin/bash
# verify.sh PARSCOPE - the checkable workloads reproduce a serial computation
# at 1..4 ranks (--verify), and a program that computes the wrong thing fails
# the same check (so the check can fail).
set -u
PARSCOPE=$1
here=$(cd "$(dirname "$0")" && pwd)
fail=0
# with PS_TEST_FEW_POINTS (the sanitizer build, against MPICH in scripts/test.sh) at 1 and 3
# ranks (whole and uneven partitions); the normal build checks all four counts
ranks="1 2 3 4"
[ -n "${PS_TEST_FEW_POINTS:-}" ] && ranks="1 3"
for w in mmm_s mmm_a cg red_black; do
    for P in $ranks; do
        out=$(timeout 100 "$PARSCOPE" run $w -n $P -s 48 -i 3 --verify -q 2>&1)
        rc=$?
        if [ $rc -ne 0 ] || ! grep -q "verify: .*: ok" <<< "$out"; then
            echo "$w at $P ranks: status $rc"; echo "$out"; fail=1
        fi
    done
done
# mmm without moving the B blocks: the check must fail (status 1)
out=$(timeout 100 "$PARSCOPE" run "$here/progs/mmm_wrong.loop" -n 2 -s 16 --verify -q 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "mmm_wrong: status $rc, expected 1"; echo "$out"; fail=1; }
exit $fail
