#!/usr/bin/env bash
# auto_trials_test.sh PARSCOPE SOURCE_DIR - --auto-trials (run, predict --compare and --calibrate): after
# -k trials, one more at a time until the best two agree within 5%, at most 10 in all.  A program that
# runs half again as long each time never agrees: ten trials, and the results say the best two are still
# apart; a steady one stops as soon as its best two agree.  Each stop is checked against the samples
# the result holds: no shorter run of trials agreed, and the last one did unless it hit the limit.
set -u
ps=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# rank 0 sleeps 20 ms x 1.5^c in the timed part, c counting its runs in a file (the best two 50%, 10 ms,
# apart: a loaded machine's delay of a few ms cannot bring them together)
cat > "$tmp/grow.loop" <<'LOOP'
#include "LOOP.h"
#include <stdio.h>
#include <time.h>
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 1000);
    (void)host; (void)nodes; (void)n;
    if (me == 0) {
        const char *path = getenv("PS_TEST_COUNTER");
        FILE *f = path ? fopen(path, "r") : NULL;
        int c = 0;
        if (f) { if (fscanf(f, "%d", &c) != 1) c = 0; fclose(f); }
        double s = 0.020;
        for (int k = 0; k < c; k++) s *= 1.5;
        struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        nanosleep(&ts, NULL);
        if (path && (f = fopen(path, "w"))) { fprintf(f, "%d\n", c + 1); fclose(f); }
    }
    \CLOSE0();
    return EXIT_SUCCESS;
}
LOOP
# rank 0 sleeps 20 ms in the timed part
cat > "$tmp/steady.loop" <<'LOOP'
#include "LOOP.h"
#include <time.h>
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 1000);
    (void)host; (void)nodes; (void)n;
    if (me == 0) {
        struct timespec ts = {0, 20000000L};
        nanosleep(&ts, NULL);
    }
    \CLOSE0();
    return EXIT_SUCCESS;
}
LOOP

# check DOC FIRST [limit|any]: the document's trials_auto against its own samples
check() {
  python3 - "$@" <<'PY' || fail "$1: the trials do not follow the rule"
import json, sys
path, first, want = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = json.load(open(path))
d = d["points"][0] if "points" in d else d
a, s = d["trials_auto"], d["time"]["samples"]
def agree(x):
    x = sorted(v for v in x if v is not None)
    return len(x) >= 2 and (x[1] - x[0]) / x[0] <= 0.05
assert a["first"] == first and a["max"] == 10 and a["target"] == 0.05, a
assert a["ran"] == len(s), (a, s)
assert first <= len(s) <= 10, s
for n in range(first, len(s)):
    assert not agree(s[:n]), ("went on after the first %d agreed" % n, s)
assert a["agreed"] == agree(s), (a, s)
assert a["agreed"] or len(s) == 10, ("stopped early without agreeing", a, s)
if want == "limit":
    assert len(s) == 10 and not a["agreed"], (a, s)
    assert "still" in a["text"] and "after 10" in a["text"], a["text"]
if a["agreed"]:
    assert a["text"].endswith("agreed after %d" % len(s)), a["text"]
PY
}

echo 0 > "$tmp/counter"
PS_TEST_COUNTER=$tmp/counter "$ps" run "$tmp/grow.loop" -n 2 -k 2 --auto-trials -o "$tmp/grow.json" > "$tmp/grow.out" 2>&1 ||
  fail "run --auto-trials of a program slower each time: $(tail -3 "$tmp/grow.out")"
[ -s "$tmp/grow.json" ] && check "$tmp/grow.json" 2 limit
grep -q "Trials by --auto-trials, 2 to 10 trials until the best two agree within 5%: the best two still .* apart after 10" \
  "$tmp/grow.out" || fail "run's output does not say the trials ended at the limit: $(grep Trials "$tmp/grow.out")"
[ "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["trials_planned"], d["complete"], d["missing"])' \
  "$tmp/grow.json" 2>&1)" = "10 True []" ] || fail "the document's plan is not the ten trials that ran"

"$ps" run "$tmp/steady.loop" -n 2 --auto-trials -o "$tmp/steady.json" > "$tmp/steady.out" 2>&1 ||
  fail "run --auto-trials of a steady program: $(tail -3 "$tmp/steady.out")"
[ -s "$tmp/steady.json" ] && check "$tmp/steady.json" 3 any

# predict --compare: the measured runs by the rule, and the table's heading says it
"$ps" predict "$tmp/steady.loop" -m "$src/machines/sp2.ini" -n 2 --compare -k 2 --auto-trials \
  --measured "$tmp/meas.json" -o "$tmp/pred.json" > "$tmp/pred.out" 2>&1 ||
  fail "predict --compare --auto-trials: $(tail -3 "$tmp/pred.out")"
[ -s "$tmp/meas.json" ] && check "$tmp/meas.json" 2 any
grep -q "Predicted against measured (2 to 10 trials per count until the best two agree within 5%, fastest)" "$tmp/pred.out" ||
  fail "predict's comparison does not say how many trials: $(grep "Predicted against" "$tmp/pred.out")"

# predict --calibrate: the 1-rank run by the rule too, its document saying how it ended (and with
# --compare, the calibration repeated after the measured runs: calibration_after)
"$ps" predict fingerprint -s 500 -i 1 -m "$src/machines/sp2.ini" -n 1 --calibrate --compare -k 2 --auto-trials \
  -o "$tmp/cal.json" --measured "$tmp/calm.json" \
  > "$tmp/cal.out" 2>&1 || fail "predict --calibrate --auto-trials: $(tail -3 "$tmp/cal.out")"
[ -s "$tmp/cal.json" ] && python3 - "$tmp/cal.json" "$tmp/cal.out" "$tmp/calm.json" <<'PY' || fail "the calibration's trials are not told"
import json, re, sys
d = json.load(open(sys.argv[1]))
c = (d["points"][0] if "points" in d else d)["calibration"]
n = c["trials"]
assert 2 <= n <= 10, c
a = c["trials_auto"]
assert a["first"] == 2 and a["max"] == 10 and a["ran"] == n, c
assert a["text"].startswith("2 to 10 trials until the best two agree within 5%: "), c
assert a["text"].endswith("agreed after %d" % n) == a["agreed"] and ("after %d" % n) in a["text"], c
assert re.search(r"Calibration: 1-rank run, best of %d\b" % n, open(sys.argv[2]).read())
m = json.load(open(sys.argv[3]))
after = (m["points"][0] if "points" in m else m)["calibration_after"]
assert after["trials_auto"]["ran"] == after["trials"] and 2 <= after["trials"] <= 10, after
PY
# -k at the limit or above: exactly -k trials, and a word that --auto-trials added none
"$ps" run "$tmp/steady.loop" -n 2 -k 10 --auto-trials -q -o "$tmp/k10.json" > "$tmp/k10.out" 2>&1 ||
  fail "run -k 10 --auto-trials: $(tail -3 "$tmp/k10.out")"
grep -q "parscope run: --auto-trials adds none to -k 10 (its limit is 10 trials in all): 10 trials" "$tmp/k10.out" ||
  fail "run -k 10 --auto-trials did not say it adds none: $(head -3 "$tmp/k10.out")"
[ "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["time"]["samples"]), "trials_auto" in d)' \
  "$tmp/k10.json" 2>&1)" = "10 False" ] || fail "run -k 10 --auto-trials did not run exactly ten trials"

# interrupted within the first -k: the document says so, and whether its samples agree
PS_TEST_COUNTER=$tmp/nothing "$ps" run "$tmp/steady.loop" -n 2 -k 8 --auto-trials -o "$tmp/int.json" > "$tmp/int.out" 2>&1 &
pid=$!
for _ in $(seq 100); do
  [ -s "$tmp/int.json" ] && python3 -c 'import json,sys; sys.exit(len(json.load(open(sys.argv[1]))["time"]["samples"]) < 2)' \
    "$tmp/int.json" 2> /dev/null && break
  sleep 0.2
done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "run --auto-trials interrupted: exit status $rc, expected 130: $(tail -3 "$tmp/int.out")"
[ -s "$tmp/int.json" ] && python3 - "$tmp/int.json" <<'PY' || fail "an interrupted run's trials_auto misdescribes its samples"
import json, sys
d = json.load(open(sys.argv[1]))
a, s = d["trials_auto"], [x for x in d["time"]["samples"] if x is not None]
x = sorted(s)
agree = len(x) >= 2 and (x[1] - x[0]) / x[0] <= 0.05
assert d["interrupted"] and len(d["time"]["samples"]) < 8, d
assert a["agreed"] == agree and a["text"].endswith("(interrupted)"), (a, s)
PY
[ $fails = 0 ] && echo "auto trials: ok"
exit $((fails > 0))
