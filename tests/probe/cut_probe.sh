#!/bin/bash
# cut_probe.sh PARSCOPE - `parscope probe` under a time limit shorter than it plans for (a --quick probe
# plans about 11 s after its launch).  A limit of 12 s leaves the rounds about 7 (5 s are kept for
# launching and ending): the first round's parts are shortened alike (to 80% of that time, about two
# thirds of their budgets), the later ones' after what the first took, and the probe ends whole before
# the limit with more than one round, and says so.  A limit of 6 s leaves 1 s: even at the least share
# of their budgets (a fifth) a round takes longer, so the ranks start no round after the first (or, on
# a fast machine, the second) that would end past the limit, and the probe ends whole with what it
# measured and says so, where the job stopped at its limit would keep only that and call itself
# interrupted.  A timing test: it runs alone, since beside other jobs (or under sanitizers) the first
# round alone can take the limit.
set -u
PS=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
probe() { # probe NAME LIMIT
    "$PS" probe --quick -n 2 -o "$T/$1.ini" --json "$T/$1.json" --svg-dir "$T/svg-$1" --timeout "$2" \
        >"$T/$1.out" 2>&1; local rc=$?
    if [ $rc -ne 0 ] || ! grep -q "wrote $T/$1.ini" "$T/$1.out"; then
        echo "FAIL: probe --timeout $2 -> $rc (want 0 and the model written)"; cat "$T/$1.out"; fail=1; return 1
    fi
    grep -q INTERRUPTED "$T/$1.ini" && { echo "FAIL: a probe that ended whole (--timeout $2) calls itself interrupted"; fail=1; }
    "$PS" predict fingerprint -m "$T/$1.ini" -n 2 -s 100 -i 1 > /dev/null 2>&1 ||
        { echo "FAIL: the model of a probe under --timeout $2 does not predict"; fail=1; }
    return 0
}
if probe fit 12; then
python3 - "$T/fit.json" "$T/fit.out" <<'PY' || { echo "FAIL: a probe shortened to its time limit"; fail=1; }
import json, sys
d, out = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
f, scales = d["rounds_fit_limit"], [r["budget_scale"] for r in d["raw"]["rounds"]]
# 80% of (12 s less 5 kept, less the set-up) over 3 rounds of 2.65 s planned: about 0.65
assert f["limit_s"] == 12 and 0.4 < f["scale"] < 0.8 and abs(scales[0] - f["scale"]) < 1e-12, (f, scales)
n = d["params"]["rounds"]
assert 2 <= n <= 3 and ("rounds_cut" in d) == (n < 3) and d["params"]["elapsed"] < 12, d["params"]
assert all(0.2 <= s <= 1 for s in scales), scales
assert "the time limit of 12 s (--timeout) leaves the measurement less than its planned 11 s" in out, out
assert "first round's parts measured for %.0f%% of their budgets, the later rounds' as the time left allowed" % (100 * f["scale"]) in out, out
PY
fi
if probe cut 6; then
python3 - "$T/cut.json" "$T/cut.out" <<'PY' || { echo "FAIL: a probe cut short by its time limit"; fail=1; }
import json, sys
d, out = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
c, n = d["rounds_cut"], d["params"]["rounds"]
assert c["planned"] == 3 and c["limit_s"] == 6 and c["longest_round_s"] > 0, c
assert 1 <= n < 3 and d["params"]["elapsed"] < 6, d["params"]
assert d["rounds_fit_limit"]["scale"] == 0.2, d["rounds_fit_limit"]
assert not d.get("interrupted") and "%d of 3 rounds measured: another" % n in out, out
assert "would have ended past the time limit of 6 s (--timeout)" in out, out
assert "measured for 20% of their budgets (the least share: the limit leaves too little for more)" in out, out
assert "(quick, planned about 13 s, shortened to end within --timeout 6 s)..." in out, out
PY
fi
exit $fail
