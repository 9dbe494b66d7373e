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

# calibrated at one size, predicted at another: a scalar product of 1000
# doubles (16 KB, in cache) priced at its measured seconds per flop; at
# 2,000,000 doubles (32 MB, beyond the model's 1 MiB cache) the same kernel is
# priced r_incache / r_outcache = 4 times higher
cat >"$T/dot.loop" <<'LOOP'
#include "LOOP.h"
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 10000);
    (void)host;
    (void)me;
    (void)nodes;
    \VEC(TYPE: double) x, y;
    \INIT_ARRAY(x);
    \INIT_ARRAY(y);
    double s = 0;
    \LOOP (ITERATIONS) {
        \SCALPROD(s, x, y);
    }
    (void)s;
    \CLOSE0();
    return EXIT_SUCCESS;
}
LOOP
cat >"$T/cache.ini" <<'INI'
[machine]
send_latency = 24e-6
recv_latency = 24e-6
word_time = 2.39e-7
flop_time = 1.78e-8
[bsp]
r_incache = 1e9
r_outcache = 2.5e8
[meta]
cache_L3 = 1048576
INI
"$PS" predict "$T/dot.loop" -m "$T/cache.ini" -n 1 -s 2000000 -i 3 --calibrate --calibrate-size 1000 -k 1 \
    -o "$T/big.json" >"$T/out" 2>"$T/err" || fail "--calibrate-size: $(cat "$T/err")"
grep -q "^Calibration: 1-rank run at -s 1000 (--calibrate-size), best of 1:" "$T/out" ||
    fail "--calibrate-size: the size not said: $(cat "$T/out")"
if [ -s "$T/big.json" ]; then
    python3 - "$T/big.json" <<'PY' || fail "--calibrate-size: the price did not follow the working set"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["calibration"]
p, per_call = c["seconds_per_flop"]["SCALPROD"], c["flops_per_call"]["SCALPROD"]
assert per_call == 2000, per_call                      # measured on 1000 doubles
assert c["size"] == 1000 and c["trials"] == 1, c       # the size it ran at is kept
assert c["uncertainty"] is None, c                     # one trial: no gap to give
flops = 3 * 2 * 2000000                                # 3 calls of 2n flops
want = flops * p * 4                                   # out of cache now: r_incache / r_outcache
got = d["breakdown"]["work"]
assert abs(got - want) <= 1e-9 * want, (got, want)
PY
fi
# a calibration run that is mostly the runtime (10 doubles a call: ~85% outside the products) is
# said to be a guess, in the text and the result; one of 20000 doubles (~1% outside) is not.  Best of
# three: a single trial beside two other jobs once read less than a quarter outside (a stall inside a
# timed product counts as computation)
"$PS" predict "$T/dot.loop" -m "$SP2" -n 2 -s 10 -i 200 -q --calibrate -k 3 -o "$T/tiny.json" >"$T/out" 2>"$T/err" ||
    fail "--calibrate, tiny: $(cat "$T/err")"
grep -q "^parscope predict --calibrate: the 1-rank run spent [0-9]*% of its time outside measured computation" "$T/err" ||
    fail "--calibrate, tiny: no warning: $(cat "$T/err")"
[ -s "$T/tiny.json" ] && { jget "$T/tiny.json" 'd["calibration"]["warning"]' | grep -q "predictions at other counts are uncertain" ||
    fail "--calibrate, tiny: no warning in the JSON"; }
"$PS" predict "$T/dot.loop" -m "$SP2" -n 2 -s 20000 -i 1000 -q --calibrate -k 1 -o "$T/large.json" >"$T/out" 2>"$T/err" ||
    fail "--calibrate, large: $(cat "$T/err")"
grep -q "outside measured computation" "$T/err" && fail "--calibrate, large: warned: $(cat "$T/err")"
[ -s "$T/large.json" ] && [ "$(jget "$T/large.json" '"warning" in d["calibration"]')" = False ] ||
    fail "--calibrate, large: a warning in the JSON"
# \DATA_MOVE's copies are predicted: 10 iterations of one copy of n doubles a rank.  A model without
# a memory rate (sp2) cannot price them and says so, counting the bytes; the model above prices them
# at 2n bytes of traffic per byte copied at 12 r_incache bytes/s (in cache); a calibration prices
# them per byte from the 1-rank run
cat >"$T/move.loop" <<'LOOP'
#include "LOOP.h"
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 10000);
    (void)host;
    (void)me;
    (void)nodes;
    double *a = calloc((size_t)n, sizeof *a), *b = calloc((size_t)n, sizeof *b);
    \LOOP (ITERATIONS) {
        \DATA_MOVE(n * sizeof(double)) { memcpy(b, a, (size_t)n * sizeof(double)); }
    }
    free(a);
    free(b);
    \CLOSE0();
    return EXIT_SUCCESS;
}
LOOP
"$PS" predict "$T/move.loop" -m "$SP2" -n 2 -s 1000 -i 10 -o "$T/move_sp2.json" >"$T/out" 2>"$T/err" ||
    fail "DATA_MOVE on sp2: $(cat "$T/err")"
grep -q "^note: the program's .DATA_MOVE copies are not priced (from P = 2): the model has no memory rate" "$T/out" ||
    fail "DATA_MOVE on sp2: no note: $(cat "$T/out")"
[ -s "$T/move_sp2.json" ] && [ "$(jget "$T/move_sp2.json" 'd["unpriced_data_move_bytes"]')" = 160000.0 ] ||
    fail "DATA_MOVE on sp2: the unpriced bytes (2 ranks x 10 x 8000)"
"$PS" predict "$T/move.loop" -m "$T/cache.ini" -n 2 -s 1000 -i 10 -o "$T/move_cache.json" >"$T/out" 2>"$T/err" ||
    fail "DATA_MOVE priced: $(cat "$T/err")"
grep -q "not priced" "$T/out" && fail "DATA_MOVE priced: a note that it is not"
[ -s "$T/move_cache.json" ] && python3 - "$T/move_cache.json" <<'PY' || fail "DATA_MOVE priced: the time per rank"
import json, sys
d = json.load(open(sys.argv[1]))
assert "unpriced_data_move_bytes" not in d
want = 10 * 8000 / (6 * 1e9)             # the model has no LogGOPS table: no contention
assert abs(d["breakdown"]["work"] - want) <= 1e-9 * want, (d["breakdown"]["work"], want)
assert d["sheet"]["busy_pct"] > 99, d["sheet"]
PY
"$PS" predict "$T/move.loop" -m "$SP2" -n 2 -s 1000 -i 10 --calibrate -k 1 -o "$T/move_cal.json" >"$T/out" 2>"$T/err" ||
    fail "DATA_MOVE calibrated: $(cat "$T/err")"
grep -q "not priced" "$T/out" && fail "DATA_MOVE calibrated: a note that it is not priced"
grep -q "DATA_MOVE [0-9.e-]* (per byte)" "$T/out" || fail "DATA_MOVE calibrated: no price per byte: $(cat "$T/out")"
[ -s "$T/move_cal.json" ] && [ "$(jget "$T/move_cal.json" '[d["calibration"]["bytes_per_call"]["DATA_MOVE"], d["calibration"]["seconds_per_byte"]["DATA_MOVE"] > 0, "DATA_MOVE" in d["calibration"]["seconds_per_flop"]]')" = "[8000.0, True, False]" ] ||
    fail "DATA_MOVE calibrated: the JSON's price"

# ranks that share a node compute at once: at counts whose ranks share one (the model says a node
# holds 2), the prices come from the 1-rank run made while a copy of it runs beside it (the program's
# --alone: each rank a 1-rank job of its own).  Every rank here makes the whole product whatever the
# count, without a message, so each count's prediction is the time of the run it was priced by; each
# process of the program appends its pid to $PIDS, so the copy is seen to have run
cat >"$T/same.loop" <<'LOOP'
#include "LOOP.h"
#include <unistd.h>
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 10000);
    (void)host;
    (void)me;
    (void)nodes;
    const char *pids = getenv("PIDS");
    FILE *pf = pids ? fopen(pids, "a") : NULL;
    if (pf) {
        fprintf(pf, "%ld\n", (long)getpid());
        fclose(pf);
    }
    \MAT(TYPE: double, S1: n, S2: n) A, B, C;
    \INIT_ARRAY(A);
    \INIT_ARRAY(B);
    \INIT_ARRAY(C, 0);
    \LOOP (ITERATIONS) {
        \MATPROD(C, A, B, n, n, n);
    }
    \CLOSE0();
    return EXIT_SUCCESS;
}
LOOP
sed '/^\[machine\]/a cores_per_node = 2' "$SP2" > "$T/node2.ini"
if [ "$(nproc)" -ge 2 ]; then
    PIDS=$T/pids "$PS" predict "$T/same.loop" -m "$T/node2.ini" -n 1,2 -s 96 -i 3 --calibrate -k 1 -o "$T/busy.json" \
        >"$T/out" 2>"$T/err" || fail "--calibrate with the node busy: $(cat "$T/err")"
    grep -q "^Calibration with the node busy: two 1-rank runs side by side, the slower one's prices (a job lasts as long as its slowest rank), best of 1 trials by that copy:" "$T/out" ||
        fail "--calibrate with the node busy: no line: $(cat "$T/out")"
    # one process for the lone run, two for the busy one (-k 1: one trial each), and the recordings' (one
    # at P = 1, two at P = 2)
    [ "$(sort -u "$T/pids" 2>/dev/null | wc -l)" = 6 ] || fail "--calibrate with the node busy: the processes that ran: $(sort -u "$T/pids" | tr "\n" " ")"
    [ -s "$T/busy.json" ] && python3 - "$T/busy.json" <<'PY' || fail "--calibrate with the node busy: the prices each count used"
import json, sys
d = json.load(open(sys.argv[1]))
one, two = d["points"]
c1, c2 = one["calibration"], two["calibration"]
assert c1["ranks"] == 1 and "average_over_alone" not in c1, c1
assert c2["ranks"] == 2 and c2["from"].startswith("1-rank run under MPI beside copies of itself"), c2
# the JSON keeps ten significant digits: the ratio of two rounded figures agrees to about 1e-9 of itself
# (the busy run priced 8.5 times the lone one once, with another test's jobs beside it)
assert abs(c2["average_over_alone"] - c2["average_seconds_per_flop"] / c1["average_seconds_per_flop"]) <= 1e-8 * c2["average_over_alone"], c2
for p, c in ((one, c1), (two, c2)):
    assert abs(p["time"]["min"] - c["time"]) <= 1e-6 * c["time"], (p["params"]["ranks"], p["time"]["min"], c["time"])
PY
    # --compare repeats each calibration that priced a count after the measured runs, into the
    # measured points of the counts it priced: the lone run for P = 1, the busy one for P = 2
    "$PS" predict "$T/same.loop" -m "$T/node2.ini" -n 1,2 -s 64 -i 2 --calibrate --compare -k 1 \
        -o "$T/busy_cmp.json" >"$T/out" 2>"$T/err" || fail "--calibrate --compare with the node busy: $(cat "$T/err")"
    grep -q "^repeating the calibration run (the 1-rank run)," "$T/err" &&
        grep -q "^repeating the calibration run (the 1-rank run beside copies of itself)," "$T/err" ||
        fail "--calibrate --compare with the node busy: not both calibrations repeated: $(cat "$T/err")"
    [ -s "$T/busy_cmp.json" ] && python3 - "$T/busy_cmp.json" <<'PY' || fail "--calibrate --compare with the node busy: the repeats"
import json, sys
d = json.load(open(sys.argv[1]))
pred = {p["params"]["ranks"]: p for p in d["points"]}
meas = {p["params"]["ranks"]: p for p in d["measured"]["points"]}
rows = {r["ranks"]: r for r in d["comparison"]}
for n, k in ((1, 1), (2, 2)):
    c, a = pred[n]["calibration"], meas[n]["calibration_after"]
    assert c["ranks"] == a["ranks"] == k, (n, c["ranks"], a)
    sc = rows[n]["speed_check"]
    assert sc["before_s_per_flop"] == c["average_seconds_per_flop"] and sc["after_s_per_flop"] == a["average_seconds_per_flop"], (n, sc)
PY
    # the program's --alone itself: two ranks, one trace of one rank
    "$PS" run "$T/same.loop" -n 2 -s 32 -i 1 -q -o "$T/alone_run.json" -- --alone >"$T/out" 2>"$T/err" ||
        fail "run -- --alone: $(cat "$T/err")"
    [ -s "$T/alone_run.json" ] && [ "$(jget "$T/alone_run.json" 'len(d["ranks"])')" = 1 ] || fail "run -- --alone: not one rank's trace"
else
    echo "one processor: the calibration with the node busy is not checked"
fi
# the seed's SP2 does not say a node holds more than one rank: its ranks compute alone
"$PS" predict "$T/same.loop" -m "$SP2" -n 2 -s 96 -i 3 --calibrate -k 1 -o "$T/alone.json" >"$T/out" 2>"$T/err" ||
    fail "--calibrate on sp2: $(cat "$T/err")"
grep -q "node busy" "$T/out" && fail "--calibrate on sp2: calibrated with the node busy: $(cat "$T/out")"
[ -s "$T/alone.json" ] && [ "$(jget "$T/alone.json" 'd["calibration"]["ranks"]')" = 1 ] || fail "--calibrate on sp2: not alone"

# with the node busy, \DATA_MOVE keeps the lone run's price per byte (the simulator's contention
# stretches copies that meet): the P = 2 point's figures and each rank's copying time (every rank
# copies the same, and this model has no contention) are the P = 1 point's
if [ "$(nproc)" -ge 2 ]; then
    "$PS" predict "$T/move.loop" -m "$T/node2.ini" -n 1,2 -s 1000 -i 10 --calibrate -k 1 -o "$T/move_busy.json" \
        >"$T/out" 2>"$T/err" || fail "DATA_MOVE with the node busy: $(cat "$T/err")"
    [ -s "$T/move_busy.json" ] && [ "$(jget "$T/move_busy.json" '[p["calibration"]["ranks"] for p in d["points"]] == [1, 2] and d["points"][0]["calibration"]["seconds_per_byte"] == d["points"][1]["calibration"]["seconds_per_byte"] and abs(d["points"][0]["breakdown"]["work"] - d["points"][1]["breakdown"]["work"]) <= 1e-9 * d["points"][0]["breakdown"]["work"]')" = True ] ||
        fail "DATA_MOVE with the node busy: not the lone run's price"
    grep -q "Calibration with the node busy:.* (DATA_MOVE: the lone run's price per byte at every count)" "$T/out" &&
        ! grep -q "^Calibration with the node busy:.*DATA_MOVE [0-9]" "$T/out" ||
        fail "DATA_MOVE with the node busy: the busy run's unused price per byte shown: $(cat "$T/out")"
    # busy_loop FILE WHAT VALUE REPS CONSTRUCT: a program that computes REPS times (one declared), in
    # CONSTRUCT, when its job's WHAT (SIZE or RANK, from the launcher's environment) is VALUE, and once,
    # in USER, otherwise
    busy_loop() {
        cat >"$1" <<LOOP
#include "LOOP.h"
int main(void)
{
    int nodes, me, host, n;
    \\OPEN0(&nodes, &me, &host, &n, 10000);
    (void)host;
    (void)me;
    (void)nodes;
    const char *v = getenv("OMPI_COMM_WORLD_$2") ? getenv("OMPI_COMM_WORLD_$2") : getenv("PMI_$2");
    int hit = v && !strcmp(v, "$3");
    volatile double s = 0;
    \\LOOP (ITERATIONS) {
        double t0 = ps_now();
        for (int r = 0; r < (hit ? $4 : 1); r++)
            for (long i = 0; i < n; i++) s += (double)i * 0.5;
        ps_compute(hit ? $5 : PS_C_USER, t0, ps_now(), (double)n);
    }
    \\CLOSE0();
    return EXIT_SUCCESS;
}
LOOP
    }
    # a run beside copies of itself that prices a flop sixteen times below the lone run's: sharing a
    # node cannot do that, and the prediction says one calibration was disturbed.  The program computes
    # sixteen times (one declared) when its job has one rank, as the lone calibration's has (four times
    # was not enough: with the suite's other tests beside them, the two copies each ran 3.7 times
    # slower than the lone run)
    busy_loop "$T/lonely.loop" SIZE 1 16 PS_C_USER
    "$PS" predict "$T/lonely.loop" -m "$T/node2.ini" -n 1,2 -s 200000 -i 10 --calibrate -k 2 -o "$T/lonely.json" \
        >"$T/out" 2>"$T/err" || fail "a busy run faster than the lone one: $(cat "$T/err")"
    grep -q "^parscope predict --calibrate: the 1-rank run beside 1 copy of itself took 0\.[0-9]* times the seconds per flop of the lone run: sharing the node cannot make a run faster" "$T/err" ||
        fail "a busy run faster than the lone one: no warning: $(cat "$T/err")"
    grep -q "^note: the counts from P = 2 are priced by a calibration in doubt: the 1-rank run beside 1 copy" "$T/out" ||
        fail "a busy run faster than the lone one: no note under the table: $(cat "$T/out")"
    [ -s "$T/lonely.json" ] && python3 - "$T/lonely.json" <<'PY' || fail "a busy run faster than the lone one: the JSON"
import json, sys
one, two = json.load(open(sys.argv[1]))["points"]
assert "busy_faster_than_alone" not in one["calibration"], one["calibration"]
c = two["calibration"]
assert c["average_over_alone"] < 1 / 1.1, c
assert "%.2f times" % c["average_over_alone"] in c["busy_faster_than_alone"], c
m = dict(two, kind="run")
del m["calibration"]
json.dump({"kind": "run", "workload": "lonely", "points": [dict(one, kind="run"), m]}, open(sys.argv[1] + ".m", "w"))
PY
    # the copies' speeds differ (two ranks of one job on a VM by 1.8 times), and a job of several
    # ranks lasts as long as its slowest: the copy that took longest prices the busy counts.  Here the
    # job's second rank computes eight times as long, in SCALPROD, the first in USER: the busy run's
    # prices must be SCALPROD's, whatever the machine's speed between the two launches.  The job's
    # first rank writes that copy's trace (where the launcher expects it)
    busy_loop "$T/slowest.loop" RANK 1 8 PS_C_SCALPROD
    "$PS" predict "$T/slowest.loop" -m "$T/node2.ini" -n 1,2 -s 200000 -i 10 --calibrate -k 2 -o "$T/slowest.json" \
        >"$T/out" 2>"$T/err" || fail "the slowest copy reports: $(cat "$T/err")"
    [ -s "$T/slowest.json" ] && [ "$(jget "$T/slowest.json" '[sorted(p["calibration"]["seconds_per_flop"]) for p in d["points"]]')" = "[['USER'], ['SCALPROD']]" ] ||
        fail "the slowest copy reports: the constructs each count was priced by: $(jget "$T/slowest.json" '[p["calibration"].get("seconds_per_flop") for p in d["points"]]')"
    # two trials: each calibration gives the gap of its best two, in the text and the JSON
    [ "$(jget "$T/slowest.json" 'all(p["calibration"]["trials"] == 2 and p["calibration"]["uncertainty"] >= 0 for p in d["points"])')" = True ] ||
        fail "the calibrations' uncertainty: $(jget "$T/slowest.json" '[p["calibration"].get("uncertainty") for p in d["points"]]')"
    grep -q "^Calibration: 1-rank run, best of 2 (the best two [0-9.]*% apart): " "$T/out" &&
        grep -q "^Calibration with the node busy: .*best of 2 trials by that copy (the best two [0-9.]*% apart): " "$T/out" ||
        fail "the calibrations' uncertainty not in the text: $(cat "$T/out")"
    # compare says it beside the row it priced, and only there
    "$PS" compare "$T/lonely.json.m" "$T/lonely.json" -o "$T/lonely_cmp.json" >"$T/out" 2>"$T/err" ||
        fail "compare of a count priced by a calibration in doubt: $(cat "$T/err")"
    grep -q "^ *the calibration that priced this count is in doubt: the 1-rank run beside 1 copy" "$T/out" ||
        fail "compare: the calibration in doubt not said: $(cat "$T/out")"
    [ -s "$T/lonely_cmp.json" ] && [ "$(jget "$T/lonely_cmp.json" '[(r["ranks"], r["calibration_in_doubt"]) for r in d["rows"]]')" = "[(1, False), (2, True)]" ] ||
        fail "compare: calibration_in_doubt per row"
fi

# --compare --calibrate repeats the calibration after the measured runs and says when the machine's
# speed moved: a program that computes 64 times slower per flop (the same flops declared, the loop
# run 64 times) once a marker file exists, made when the measured runs begin (eight times, before,
# read 2.47 times once beside a loaded pass's other jobs, against the check's 2.5).  With the file
# counting present it counts its own runs under MPI instead (the recording, without MPI, apart) and
# computes eight times, once, then 64 times the work: two calibration trials, two measured, two
# repeated (twice, once and eight times, the margins before, failed once at the start of a loaded pass:
# the measured runs slowed until the error read +17.8% against the check's +20%)
cat >"$T/drift.loop" <<LOOP
#include "LOOP.h"
#include <stdio.h>
#include <unistd.h>
int main(void)
{
    int nodes, me, host, n;
    \\OPEN0(&nodes, &me, &host, &n, 10000);
    (void)host;
    (void)me;
    (void)nodes;
    int reps = access("$T/slow", F_OK) == 0 ? 64 : 1;
    FILE *f = !getenv("PARSCOPE_RECORD") ? fopen("$T/counting", "r+") : NULL;
    if (f) {
        fseek(f, 0, SEEK_END);
        long k = ftell(f);
        fputc('x', f);
        fclose(f);
        reps = k < 2 ? 8 : k < 4 ? 1 : 64;
    }
    volatile double s = 0;
    \\LOOP (ITERATIONS) {
        double t0 = ps_now();
        for (int r = 0; r < reps; r++)
            for (long i = 0; i < n; i++) s += (double)i * 0.5;
        ps_compute(PS_C_USER, t0, ps_now(), (double)n);
    }
    \\CLOSE0();
    return EXIT_SUCCESS;
}
LOOP
for case in steady slowed; do
    rm -f "$T/slow"
    "$PS" predict "$T/drift.loop" -m "$SP2" -n 1 -s 200000 -i 10 --compare --calibrate -k 2 -o "$T/$case.json" \
        >"$T/$case.out" 2>"$T/$case.err" &
    pid=$!
    if [ $case = slowed ]; then
        for _ in $(seq 600); do grep -q "^measuring" "$T/$case.err" && break; sleep 0.05; done
        touch "$T/slow"
    fi
    wait $pid || fail "--compare --calibrate ($case): $(cat "$T/$case.err")"
done
# against: calibrated at eight times the work, measured at once (faster: an error above zero), repeated
# at 64 times (slower): the speed moved, but the other way than the error, and the line says so
rm -f "$T/slow" && : > "$T/counting"
"$PS" predict "$T/drift.loop" -m "$SP2" -n 1 -s 200000 -i 10 --compare --calibrate -k 2 -o "$T/against.json" \
    >"$T/against.out" 2>"$T/against.err" || fail "--compare --calibrate (against): $(cat "$T/against.err")"
grep -q "^repeating the calibration" "$T/steady.err" || fail "--compare --calibrate: the calibration was not repeated"
[ -s "$T/steady.json" ] && python3 - "$T/steady.json" "$T/slowed.json" <<'PY' || fail "--compare --calibrate: the speed check: $(cat "$T/steady.err" "$T/slowed.err")"
import json, sys
steady, slowed = (json.load(open(f)) for f in sys.argv[1:3])
for d in (steady, slowed):
    c, m = d.get("points", [d])[0]["calibration"], d["measured"]["points"][0]["calibration_after"]
    sc = d["comparison"][0]["speed_check"]
    assert m["ranks"] == c["ranks"] == 1, (c, m)
    assert sc["before_s_per_flop"] == c["average_seconds_per_flop"], (sc, c)
    assert sc["after_s_per_flop"] == m["average_seconds_per_flop"], (sc, m)
    # the JSON keeps ten significant digits: the ratio of two rounded figures agrees to about 1e-9 of itself
    assert abs(sc["after_over_before"] - sc["after_s_per_flop"] / sc["before_s_per_flop"]) <= 1e-8 * sc["after_over_before"], sc
# 64 times the work per declared flop after the marker: the check sees it (well beyond this
# machine's own swings, up to 2.2 times between runs minutes apart, more beside other jobs), and says so
sc = slowed["comparison"][0]["speed_check"]
assert sc["after_over_before"] > 8 and sc["differs"], sc
PY
grep -q "repeated after the measured runs, took [0-9.]* times the seconds per flop it took before: the machine's speed moved during the comparison, and the error may carry that change" \
    "$T/slowed.out" || fail "--compare --calibrate: the moved speed is not said: $(grep -A3 Predicted "$T/slowed.out")"
# the slower machine pushes the error below zero; the measured runs were faster than priced (above zero)
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["comparison"][0]; sys.exit(0 if c["error"] > 0.2 and c["speed_check"]["after_over_before"] > 2 else 1)' \
    "$T/against.json" || fail "--compare --calibrate: the case against: $(grep -A3 Predicted "$T/against.out")"
grep -q "the machine's speed moved during the comparison, though a machine grown slower would make the error negative, not positive: the change does not explain it" \
    "$T/against.out" || fail "--compare --calibrate: a speed change against the error's sign: $(grep -A3 Predicted "$T/against.out")"

"$PS" predict "$T/dot.loop" -m "$SP2" -n 1 --calibrate-size 1000 >"$T/out" 2>"$T/err"
[ $? = 2 ] && grep -q "\-\-calibrate-size needs --calibrate" "$T/err" || fail "--calibrate-size without --calibrate"

exit $((fails > 0))
