#!/bin/bash
# cut_probe.sh PARSCOPE - `parscope probe` under a time limit shorter than it plans for (a --quick probe
# plans about 11 s after its launch).  A limit of 12 s leaves the rounds 7 (5 s are kept for launching
# and ending): every part of the first round is shortened alike, the probe ends whole, with its three
# rounds, before the limit, and says so.  A limit of 5.5 s leaves 0.5 s: even at the least share of
# their budgets (a fifth) the rounds take longer, so the ranks start no round after the first that would
# end past the limit, and the probe ends whole with that one and says so, where the job stopped at its
# limit would keep only it and call itself interrupted.  A timing test: it runs alone, since beside
# other jobs (or under sanitizers) the first round alone can take the limit.
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
# 12 s less 5 kept, less the set-up, over 3 rounds of 2.65 s planned: 0.8 to 0.9
assert f["limit_s"] == 12 and 0.5 < f["scale"] < 1 and abs(scales[0] - f["scale"]) < 1e-12, (f, scales)
assert "rounds_cut" not in d and d["params"]["rounds"] == 3 and d["params"]["elapsed"] < 12, d["params"]
assert all(0.2 <= s <= 1 for s in scales), scales
assert "the time limit of 12 s (--timeout) leaves the measurement less than its planned 11 s" in out, out
assert "first round's parts measured for %.0f%% of their budgets" % (100 * f["scale"]) in out, out
PY
fi
if probe cut 5.5; then
python3 - "$T/cut.json" "$T/cut.out" <<'PY' || { echo "FAIL: a probe cut short by its time limit"; fail=1; }
import json, sys
d, out = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
c = d["rounds_cut"]
assert c["planned"] == 3 and c["limit_s"] == 5.5 and c["longest_round_s"] > 0, c
assert d["params"]["rounds"] == 1 and d["params"]["elapsed"] < 5.5, d["params"]
assert d["rounds_fit_limit"]["scale"] == 0.2, d["rounds_fit_limit"]
assert not d.get("interrupted") and "1 of 3 rounds measured: another" in out, out
assert "would have ended past the time limit of 5.5 s (--timeout)" in out, out
PY
fi
exit $fail
