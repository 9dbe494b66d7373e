#!/usr/bin/env bash
# slownet_test.sh PARSCOPE TESTDIR SLOWNET - the fingerprint's multi-broadcast
# phases (second to fifth VISIBLE_SYNC) widen on a 10 Mbit/s TCP network
# against shared memory: best of 3 runs each, at least 1.5 times wider.  The
# slow run's report shows the zoomed diagram with all five sync lines.
set -u
PS=$1
HERE=$2
SLOWNET=$3
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }

span() { # span DIR: seconds from the 2nd to the 5th VISIBLE_SYNC (latest rank each)
    "$PS" export "$1" --format csv -o "$1/ev.csv" -q || fail "export $1"
    python3 - "$1/ev.csv" <<'PY'
import csv, sys
marks = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["kind"] == "mark" and r["construct"] == "VISIBLE_SYNC":
        marks.setdefault(int(r["rank"]), []).append(float(r["t0_s"]))
k = min(len(v) for v in marks.values())
assert k == 5, "expected 5 VISIBLE_SYNC marks per rank, got %d" % k
s = [max(v[i] for v in marks.values()) for i in range(k)]
print("%.9f" % (s[4] - s[1]))
PY
}

best_shm=9; best_slow=9
for i in 1 2 3; do
    "$PS" run fingerprint -n 4 --trace "shm$i" -o "shm$i/result.json" -q || fail "shared-memory run"
    "$SLOWNET" 10mbit "$PS" run fingerprint -n 4 --trace "slow$i" -o "slow$i/result.json" -q || fail "slownet run"
    a=$(span "shm$i") || exit 1
    b=$(span "slow$i") || exit 1
    best_shm=$(python3 -c "print(min($best_shm, $a))")
    best_slow=$(python3 -c "print(min($best_slow, $b))")
done
echo "broadcast phases, best of 3: shared memory ${best_shm} s, 10 Mbit/s TCP ${best_slow} s"
python3 -c "import sys; sys.exit(0 if $best_slow > 1.5 * $best_shm else 1)" ||
    fail "the broadcast phases did not widen on the slow network"
# the sheet names the interconnect each run used
python3 - <<'PY' || fail "the sheets' interconnect"
import json
fast = json.load(open("shm1/result.json"))["hardware"]["interconnect"]
slow = json.load(open("slow1/result.json"))["hardware"]["interconnect"]
assert fast["type"] == "shared memory (one host)", fast
assert slow["type"] == "TCP/IP over the loopback (one host)", slow
assert "OMPI_MCA_btl=tcp,self" in slow["basis"] or "MPIR_CVAR_NOLOCAL" in slow["basis"], slow
PY
"$PS" report slow1/result.json -o slow.html -q || fail "report"
grep -q 'TCP/IP over the loopback (one host)' slow.html || fail "the report's sheet does not name the interconnect"
python3 "$HERE/check_svg.py" slow.html --syncs 5 --diagrams 1 || fail "report pictures"
echo "slownet_test: passed"
