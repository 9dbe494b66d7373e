#!/bin/bash
# calibrate_cli.sh - 'parscope predict --calibrate' end to end: a program
# without computation has nothing to calibrate (a note, exit status 0, the
# same prediction as without the flag); a program that computes is priced
# from its 1-rank run.
# usage: calibrate_cli.sh PARSCOPE SOURCE_DIR
set -u
PS=$1
SRC=$2
T=$(mktemp -d /tmp/ps_calibrate_cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
SP2=$SRC/machines/sp2.ini

# communication only: a halo exchange, no computation
cat >"$T/comm.loop" <<'LOOP'
#include "LOOP.h"
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 10000);
    (void)host;
    (void)me;
    \LOOP (ITERATIONS) {
        \EXCHANGE(n * sizeof(double), 1, 2);
    }
    \CLOSE0();
    return EXIT_SUCCESS;
}
LOOP
"$PS" predict "$T/comm.loop" -m "$SP2" -n 2 -s 64 -i 10 -q -o "$T/plain.json" >"$T/out" 2>"$T/err" ||
    fail "predict without --calibrate: $(cat "$T/err")"
"$PS" predict "$T/comm.loop" -m "$SP2" -n 2 -s 64 -i 10 -q --calibrate -k 1 -o "$T/cal.json" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || fail "--calibrate without computation: exit status $rc, expected 0: $(cat "$T/err")"
grep -q "comm.loop has no computation with flops to calibrate; predicted from the machine model alone" "$T/err" ||
    fail "--calibrate without computation: no note: $(cat "$T/err")"
if [ -s "$T/cal.json" ] && [ -s "$T/plain.json" ]; then
    a=$(jget "$T/plain.json" 'repr(d["time"]["min"])')
    b=$(jget "$T/cal.json" 'repr(d["time"]["min"])')
    [ "$a" = "$b" ] || fail "--calibrate without computation changed the prediction: $a -> $b"
    jget "$T/cal.json" 'd["calibration"]["note"]' | grep -q "nothing calibrated" || fail "no note in the JSON"
    [ "$(jget "$T/cal.json" 'len(d["calibration"]["seconds_per_flop"])')" = 0 ] || fail "rates without computation"
fi

exit $((fails > 0))
