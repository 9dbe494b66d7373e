#!/usr/bin/env bash
# bottleneck_test.sh PARSCOPE SLOWNET - the summary names the network as the main bottleneck when the
# network is slow (MPI over a 20 Mbit/s shaped loopback, a five-hundredth of shared memory's bandwidth
# here) and not on shared memory; the slow characterization's probe step is the probe's test under
# slownet (tests/probe/slownet_probe_test.sh).  The rule names the network when cg, mmm_s and red_black
# communicate more than half their time beyond its noise.  Their share depends on how fast this machine
# computes that day: at 100 Mbit/s they did 53-60% and at 50 Mbit/s 74% +/- 1% (2026-11-29), and on a
# VM computing half as fast 52-54% +/- 4-7% at 50 Mbit/s, which named nothing, against 76% at 20 Mbit/s
# (2026-11-29, docs/BENCHMARKS.md).
set -u
ps=$1 slownet=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
name() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['bottleneck']['name'])" "$1"; }

"$ps" characterize -n 2 -o "$tmp/shm" --steps probe,predict -q > "$tmp/shm.out" 2>&1 \
  || { echo "FAIL: characterize on shared memory: $(tail -5 "$tmp/shm.out")"; exit 1; }
b=$(name "$tmp/shm/summary.json")
[ "$b" != network ] || { echo "FAIL: shared memory named the network: $(grep bottleneck "$tmp/shm.out")"; fails=1; }

slow() {
  rm -rf "$tmp/slow"
  "$slownet" 20mbit "$ps" characterize -n 2 -o "$tmp/slow" --steps probe,predict -q > "$tmp/slow.out" 2>&1 \
    || { echo "FAIL: characterize under slownet: $(tail -5 "$tmp/slow.out")"; exit 1; }
}
slow
b=$(name "$tmp/slow/summary.json")
# a characterization whose runs were too noisy to tell says so ("within-noise", the share's noise
# beside it: once 69% +/- 20% on a VM with other tenants), which is no verdict either way: once more
if [ "$b" != network ] && grep -q "main bottleneck \[within-noise\]" "$tmp/slow.out"; then
  echo "the slow characterization could not tell at its noise: $(grep bottleneck "$tmp/slow.out"); once more"
  slow
  b=$(name "$tmp/slow/summary.json")
fi
[ "$b" = network ] || { echo "FAIL: the slow network was not named: $(grep bottleneck "$tmp/slow.out")"; fails=1; }
# the probe step saw the shaped link: TCP's latency, the rate, the token bucket, one queue both ways
bash "$(dirname "$0")/../probe/slownet_probe_test.sh" "$tmp/slow/probe.json" "$tmp/slow/machine.ini" 20 \
  || { echo "FAIL: the probe under slownet 20mbit did not see the link as above"; fails=1; }
# the accuracy line counts the points whose measured time is no firm reference: the best two
# trials more than 5% apart, or other processes above 10% of the machine in the fastest trial,
# recomputed here from the measured runs themselves
for d in shm slow; do
  python3 - "$tmp/$d" "$tmp/$d.out" <<'PY' || { echo "FAIL: $d: the points without a firm reference miscounted"; fails=1; }
import json, sys, os
d, out = sys.argv[1], open(sys.argv[2]).read()
s = json.load(open(os.path.join(d, "summary.json")))["prediction"]
loose = 0
for r in s["rows"]:
    m = json.load(open(os.path.join(d, "predict", r["workload"] + ".measured.json")))
    pt = [p for p in m["points"] if p["params"]["ranks"] == r["ranks"]][0]["time"]
    v = [x for x in pt["samples"] if x is not None]
    i = pt["samples"].index(min(v))
    srt = sorted(v)
    gap = (srt[1] - srt[0]) / srt[0] if len(srt) > 1 else None
    busy = (pt.get("others_busy_pct") or [None] * len(pt["samples"]))[i]
    firm = not ((gap is not None and gap > 0.05) or (busy is not None and busy > 10))
    assert r["measured_firm"] == firm, (r, gap, busy)
    loose += (not firm) and r["ranks"] > 1
assert s["points_not_firm"] == loose, (s["points_not_firm"], loose)
# each workload ran at the size the step gives it (runs of milliseconds, docs/CHARACTERIZE.md),
# the size the row names
sizes = {"fingerprint": 2000, "cg": 1024, "mmm_s": 256, "red_black": 1024}
for r in s["rows"]:
    m = json.load(open(os.path.join(d, "predict", r["workload"] + ".measured.json")))
    pt = [p for p in m["points"] if p["params"]["ranks"] == r["ranks"]][0]
    assert r["size"] == pt["params"]["size"] == sizes[r["workload"]], (r, pt["params"])
# per row, from the point's measured and predicted documents:
# - the link in another state than the probe saw: half rank 1's best clock-synchronisation round trip
#   against the model's 8-byte half round trip (the predicted document's machine), 1.5 times or more
#   either way, or a change that the point's predicted communication (its share of the predicted time:
#   the simulator's time in the calls and waiting, its breakdown) turns into a fifth of the time or more,
#   beyond the model's own spread of that figure over the probe's rounds;
# - the machine's speed between the calibration and the measured runs: the calibration that priced the
#   count, repeated after them, against the first (seconds per flop, 1.1 times either way)
other = moved = 0
for r in s["rows"]:
    m = json.load(open(os.path.join(d, "predict", r["workload"] + ".measured.json")))
    p = json.load(open(os.path.join(d, "predict", r["workload"] + ".json")))
    mp = [q for q in m["points"] if q["params"]["ranks"] == r["ranks"]][0]
    pp = [q for q in p.get("points", [p]) if q["params"]["ranks"] == r["ranks"]][0]
    now = mp["ranks"][1]["clock_rtt"] / 2 if len(mp["ranks"]) > 1 else None
    model = pp["machine"].get("half_round_trip_8B_s")
    b = pp["breakdown"]
    total = b["work"] + b["communication"] + b["waiting"]
    effect = (b["communication"] + b["waiting"]) / total * (now / model - 1) if now and model and total > 0 else 0
    spread = pp["machine"].get("half_round_trip_8B_spread") or 1
    beyond = bool(now and model and not 1 / spread <= now / model <= spread)
    differs = bool(now and model and (not 1 / 1.5 < now / model < 1.5 or (beyond and abs(effect) >= 0.2)))
    assert r["link_state_differs"] == differs, (r, now, model)
    assert (now is not None) == (r["ranks"] > 1), (r, now)
    other += differs and r["ranks"] > 1
    before = pp["calibration"]["average_seconds_per_flop"]
    after = mp["calibration_after"]["average_seconds_per_flop"]
    assert mp["calibration_after"]["ranks"] == pp["calibration"]["ranks"], (mp["calibration_after"], pp["calibration"])
    differs = not 1 / 1.1 < after / before < 1.1
    assert r["speed_moved"] == differs, (r, before, after)
    moved += differs and r["ranks"] > 1
assert s["points_link_state_differs"] == other, (s["points_link_state_differs"], other)
assert s["points_speed_moved"] == moved, (s["points_speed_moved"], moved)
assert ("while the machine's speed moved" in out) == (moved > 0), out
assert ("in another state than the probe" in out) == (other > 0), out
assert ("no firm reference" in out) == (loose > 0), out
PY
done
grep "main bottleneck" "$tmp/shm.out" "$tmp/slow.out"
[ $fails -eq 0 ] && echo "bottleneck: 1 passed, 0 failed"
exit $fails
