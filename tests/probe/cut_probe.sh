#!/bin/bash
# cut_probe.sh PARSCOPE - `parscope probe` under a time limit that leaves room for one or two rounds
# of three (a --quick round takes 1.5-2 s on a 2-core machine at rest): the ranks start no round that
# would end past it, so the probe ends whole with the rounds it measured and says so, where the job
# stopped at its limit would keep only those and call itself interrupted.  A timing test: it runs
# alone, since beside other jobs (or under sanitizers) the first round alone can take the 8 s.
set -u
PS=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
"$PS" probe --quick -n 2 -o "$T/cut.ini" --json "$T/cut.json" --svg-dir "$T/svg" --timeout 8 \
    >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -ne 0 ] || ! grep -q "wrote $T/cut.ini" "$T/out" "$T/err"; then
    echo "FAIL: probe --timeout 8 -> $rc (want 0 and the model written)"; cat "$T/out" "$T/err"; exit 1
fi
python3 - "$T/cut.json" "$T/out" <<'PY' || { echo "FAIL: a probe cut short by its time limit"; fail=1; }
import json, sys
d, out = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
c = d["rounds_cut"]
assert c["planned"] == 3 and c["limit_s"] == 8 and c["longest_round_s"] > 0, c
assert 1 <= d["params"]["rounds"] < 3 and d["params"]["elapsed"] < 8, d["params"]
assert not d.get("interrupted") and "rounds measured: another" in out, out
PY
"$PS" predict fingerprint -m "$T/cut.ini" -n 2 -s 100 -i 1 > /dev/null 2>&1 || { echo "FAIL: the cut probe's model does not predict"; fail=1; }
grep -q INTERRUPTED "$T/cut.ini" && { echo "FAIL: a probe that ended whole calls itself interrupted"; fail=1; }
exit $fail
