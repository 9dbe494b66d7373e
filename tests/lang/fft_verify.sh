#!/bin/bash
# fft_verify.sh PARSCOPE - the fft workload equals a serial 2-D DFT at 1, 2
# and 4 ranks (--verify), sends P (P - 1) transpose blocks of 2 (n/P)^2
# doubles per transform, refuses a size the ranks do not divide (and
# red_black one too small for its ranks) as bad input, and a
# transpose that does not transpose fails the same check.
set -u
PARSCOPE=$1
here=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail=0
for P in 1 2 4; do
    out=$(timeout 100 "$PARSCOPE" run fft -n $P -s 32 -i 2 --verify -q -o "$T/r$P.json" 2>&1)
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q "verify: fft: .*: ok" <<< "$out"; then
        echo "fft at $P ranks: status $rc"; echo "$out"; fail=1; continue
    fi
    python3 - "$T/r$P.json" $P << 'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); P = int(sys.argv[2]); n, it = 32, 2
s = d["sheet"]
# the transposes (the check after the timed interval is not traced)
want_msgs = it * P * (P - 1)
want_bytes = it * P * (P - 1) * 2 * (n // P) ** 2 * 8
if s["messages_sent"] != want_msgs or s["bytes_sent"] != want_bytes:
    print("fft at %d ranks: %d messages, %d bytes; want %d, %d" % (P, s["messages_sent"], s["bytes_sent"], want_msgs, want_bytes))
    sys.exit(1)
PY
done
# a size the ranks cannot share is bad input (status 2), said once by parscope
# whichever MPI ends the job (a rank's own output can be lost in the abort)
bad() {
    local pat=$1
    shift
    out=$(timeout 100 "$PARSCOPE" run "$@" -q 2>&1)
    rc=$?
    { [ $rc -eq 2 ] && grep -q "^parscope: .*$pat" <<< "$out"; } ||
        { echo "$* : status $rc, expected 2 and '$pat'"; echo "$out"; fail=1; }
}
bad "fft: the size (-s 32) must be a power of two >= 2 and a multiple of the 3 ranks (rank [0-2])" fft -n 3 -s 32
bad "red_black: the problem size must be at least 2 x the node count (4)" red_black -n 2 -s 3
out=$(timeout 100 "$PARSCOPE" run "$here/progs/fft_wrong.loop" -n 2 -s 16 --verify -q 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "fft_wrong: status $rc, expected 1"; echo "$out"; fail=1; }
exit $fail
