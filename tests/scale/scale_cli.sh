#!/usr/bin/env bash
# 'parscope scale' end to end: usage and bad input, a small sweep's files,
# interleaved trials, option precedence, a failing run, SIGINT and --resume.
# usage: scale_cli.sh PARSCOPE DATA_DIR
set -u
ps=$(realpath "$1") data=$(realpath "$2")
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail=0
ok()   { echo "ok: $*"; }
bad()  { echo "FAIL: $*"; fail=1; }
small=(--grid 64x64 -i 5)

# --- usage and bad input: exit 2, a message naming the option, nothing written
"$ps" scale --help > help.txt 2>&1 && grep -q -- "--resume DIR" help.txt && ok "--help" || bad "--help"
expect2() { # expect2 "pattern" args...
  local pat=$1; shift
  "$ps" scale "$@" -o out2 > o.txt 2> e.txt; local rc=$?
  if [ $rc -eq 2 ] && grep -q -- "$pat" e.txt && [ ! -e out2 ]; then ok "exit 2: $*"
  else bad "expected exit 2 and '$pat' for: $* (rc $rc: $(head -c 300 e.txt))"; fi
}
expect2 "unknown option '--bogus'" --bogus
expect2 "--trials" --trials 0
expect2 "must include 1" --ranks 2 "${small[@]}"
expect2 "unknown variation 'warp'" --variations base,warp
expect2 "unknown workload" no_such_workload
expect2 "clue workload only" cg --variations base
expect2 "spread-target" --auto-trials --spread-target 3
expect2 "not both" --auto-trials --trials 4
expect2 "bad_grid.conf:3:10" --config "$data/data/bad_grid.conf"
expect2 "--grid" --grid 10x3

# --- a small sweep: the files, the columns, interleaved trials, no progress line off a terminal
printf 'trials = 1\ngrid = 64x64\niterations = 5\nseed = 3\n' > my.conf
"$ps" scale clue --config my.conf --trials 2 --ranks 1,2 --variations base,int -o s1 > s1.out 2> s1.err
rc=$?
[ $rc -eq 0 ] && ok "small sweep" || bad "small sweep exit $rc: $(cat s1.err)"
head -1 s1/scale.csv | grep -q '^workload,variation,ranks,time_s,act_per_s,net_act_per_s,speedup,efficiency,serial_fraction,' \
  && ok "CSV columns" || bad "CSV columns: $(head -1 s1/scale.csv)"
[ "$(tail -n +2 s1/scale.csv | wc -l)" -eq 4 ] && ok "4 points" || bad "points: $(cat s1/scale.csv)"
# P = 1: serial fraction empty (column 9), speedup and efficiency 1
awk -F, 'NR>1 && $3==1 { if ($9 != "" || $7 != 1 || $8 != 1) exit 1 }' s1/scale.csv && ok "P=1 row" || bad "P=1 row"
awk -F, 'NR>1 && $3==2 { if ($9 == "" || $5 == "" || $6 == "") exit 1 }' s1/scale.csv && ok "P=2 row" || bad "P=2 row"
grep -q '"kind": "scale"' s1/scale.json && ok "JSON kind" || bad "JSON kind"
grep -q '<section' s1/report.html && grep -q 'Figure 4.6' s1/report.html && grep -q '<svg' s1/report.html \
  && ok "report figures" || bad "report"
trials=$(python3 -c "import json;print(''.join(str(json.loads(l)['trial']) for l in open('s1/runs.ndjson')))")
[ "$trials" = "11112222" ] && ok "trials interleaved ($trials)" || bad "trial order $trials"
python3 - s1/scale.json <<'PY' && ok "precedence recorded" || bad "precedence"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["params"]
assert p["trials"]["value"] == "2" and p["trials"]["source"] == "option", p["trials"]
assert p["grid"]["value"] == "64x64" and p["grid"]["source"] == "config", p["grid"]
assert p["seed"]["value"] == "3" and p["seed"]["source"] == "config"
assert p["ranks"]["source"] == "option" and p["cores"]["source"] == "auto"
pt = [x for x in d["points"] if x["params"]["ranks"] == 1][0]
assert pt["serial_fraction"] is None and pt["speedup"] == 1.0
assert len(pt["time"]["samples"]) == 2 and pt["time"]["min"] <= pt["time"]["median"] <= pt["time"]["max"]
assert "procstats" in pt and "user_s" in pt["procstats"]
# the process metrics cover the timed interval (CLUE's Start .. Stop), not
# MPI's start-up (tens of ms of CPU here): each rank's user time is at most the
# execution time plus its noise (the best two trials' gap) and 1 ms (the
# counters' reads, and MPI's helper threads, which wake during an interval of
# 0.1-0.2 ms now and then: 250 us of user time against a 190 us limit once);
# the run's own check (user_check) flags a rank beyond the tight limit, and
# says so exactly when the figures are beyond it
for q in d["points"]:
    pr = q["procstats"]
    assert pr["timed"] is True and pr["interval"].startswith("timed interval"), pr
    uc = pr["user_check"]
    assert uc["within"] == (uc["user_max_s"] <= uc["limit_s"]), uc
    assert ("note" in uc) == (not uc["within"]), uc
    assert len(q["procstats_ranks"]) == q["params"]["ranks"]
    lim = q["time_s"] * (1 + (q["time"]["uncertainty"] or 0)) + 1e-3
    assert all(r["user_s"] <= lim and r["wall_s"] <= q["time_s"] + 1e-4 for r in q["procstats_ranks"]), (q["time_s"], q["procstats_ranks"])
    assert pr["user_s"]["min"] <= pr["user_s"]["avg"] <= pr["user_s"]["max"] and pr["user_s"]["sd"] >= 0
assert d["complete"] is True and d["conclusions"]
# every conclusion a record with its effect, noise and verdict
for c in d["conclusions"]:
    assert {"id", "text", "effect", "noise", "verdict"} <= set(c), c
    assert c["verdict"] in ("finding", "within-noise", "untestable"), c
    if c["verdict"] == "finding":
        assert c["effect"] is not None and c["noise"] is not None and abs(c["effect"]) > c["noise"], c
    else:
        assert "cannot tell" in c["text"], c
# every point's time with its uncertainty; the machine's noise before, during, after
assert "uncertainty" in pt["time"] and "ci_median" in pt["time"]
assert d["noise"]["machine"]["level"] in ("quiet", "busy", "very busy")
assert {"before", "during", "after"} <= set(d["noise"]["machine"])
assert "averages" in d and d["averages"]["overall"]["points"] == 4
PY
[ -s s1/scale.csv ] && ! grep -q "ETA" s1.err && ok "quiet off a terminal" || bad "progress line off a terminal"
grep -q " - " s1.out && grep -q "serial f" s1.out && ok "text table" || bad "text table"
"$ps" scale clue "${small[@]}" --ranks 1 -o s1 > /dev/null 2> e.txt
[ $? -eq 2 ] && grep -q "already holds a sweep" e.txt && ok "no overwrite" || bad "existing dir accepted"

# --- any workload can be swept (strong scaling, no variations, no ACT/s)
"$ps" scale cg --ranks 1,2 --trials 1 -s 32 -i 2 -o s4 > s4.out 2> s4.err; rc=$?
[ $rc -eq 0 ] && awk -F, 'NR>1 { if ($1 != "cg" || $2 != "default" || $5 != "" || $10 != "strong") exit 1 } END { exit NR != 3 }' s4/scale.csv \
  && grep -qi "efficiency of cg" s4.out && ok "sweep of another workload" || bad "cg sweep rc $rc: $(cat s4.err) $(cat s4/scale.csv)"
# its parameters do not record the clue workload's as if they had shaped the sweep (strong "no",
# eight variations, a grid, beside "scaling": "strong" and points of the default variation only)
python3 - s4/scale.json <<'PY' && ok "another workload's params leave clue's out" || bad "cg sweep params: $(python3 -c "import json; print(json.load(open('s4/scale.json'))['params'])")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["scaling"] == "strong" and {p["variation"] for p in d["points"]} == {"default"}, d["scaling"]
for k in ("variations", "grid", "strong", "target-time"):
    e = d["params"][k]
    assert e["value"] == "-" and "clue workload's only" in e["why"], (k, e)
assert d["params"]["size"]["value"] == "32", d["params"]["size"]
PY

# --- a failing run (rank 1 killed) is recorded as failed; the sweep goes on
"$ps" scale clue "${small[@]}" --ranks 1,2 --variations base,int --trials 1 --workload-args "--kill-rank 1" \
    -o s2 > s2.out 2> s2.err
rc=$?
[ $rc -eq 1 ] && ok "failing run: exit 1" || bad "failing run exit $rc"
[ "$(wc -l < s2/runs.ndjson)" -eq 4 ] && ok "sweep went on after the failure" || bad "runs: $(wc -l < s2/runs.ndjson)"
python3 - s2/scale.json <<'PY' && ok "failed points recorded" || bad "failed points"
import json, sys
d = json.load(open(sys.argv[1]))
st = {(p["variation"], p["params"]["ranks"]): p for p in d["points"]}
assert st[("base", 1)]["status"] == "ok" and st[("int", 1)]["status"] == "ok"
for v in ("base", "int"):
    p = st[(v, 2)]
    assert p["status"] == "failed" and p["failed_trials"][0]["message"], p
    assert p["efficiency"] is None and p["time"]["samples"] == [None]
PY
grep -q ',failed$' s2/scale.csv && ok "CSV marks failed" || bad "CSV failed"

# --- SIGINT: the current run finishes, the partial analysis is written, exit 130
"$ps" scale clue "${small[@]}" --ranks 1,2 --variations base,int --trials 4 -o s3 > s3.out 2> s3.err &
pid=$!
for i in $(seq 1 200); do
  [ -f s3/runs.ndjson ] && [ "$(wc -l < s3/runs.ndjson)" -ge 3 ] && break
  sleep 0.1
done
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] && ok "SIGINT: exit 130" || bad "SIGINT exit $rc"
n=$(wc -l < s3/runs.ndjson)
[ "$n" -ge 3 ] && [ "$n" -lt 16 ] && ok "SIGINT: $n runs kept" || bad "SIGINT: $n runs"
grep -q "missing" s3.err && ok "SIGINT: says what is missing" || bad "SIGINT message: $(cat s3.err)"
python3 - s3/scale.json $n <<'PY' && ok "SIGINT: partial analysis" || bad "partial analysis"
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
assert d["interrupted"] is True and d["complete"] is False
assert len(d["missing"]) == 16 - n, (len(d["missing"]), n)
assert any(p["time_s"] is not None for p in d["points"])
PY
[ -s s3/scale.csv ] && [ -s s3/report.html ] && ok "SIGINT: CSV and report" || bad "SIGINT files"
# the header states the trials that ran, not the 4 asked for
grep -Eq "best of [0-9]+( to [0-9]+)? of the 4 trial\(s\) asked \(sweep interrupted" s3.out && ! grep -q "best of 4 trial" s3.out \
  && ok "SIGINT: the header gives the trials that ran" || bad "SIGINT header: $(grep 'best of' s3.out)"

# --- resume: the interrupted sweep continues without repeating a run
head -3 s3/runs.ndjson > before.txt
"$ps" scale --resume s3 > r.out 2> r.err; rc=$?
[ $rc -eq 0 ] && ok "resume: exit 0" || bad "resume exit $rc: $(tail -3 r.err)"
python3 - s3/runs.ndjson <<'PY' && ok "resume: 16 runs, none repeated" || bad "resume repeated runs"
import json, sys
keys = [(r["variation"], r["ranks"], r["trial"]) for r in map(json.loads, open(sys.argv[1]))]
assert len(keys) == 16 and len(set(keys)) == 16, (len(keys), len(set(keys)))
PY
[ "$(wc -l < before.txt)" -eq 3 ] && head -3 s3/runs.ndjson | cmp -s - before.txt && ok "resume: earlier runs untouched" || bad "earlier runs changed"
grep -q '"complete": true' s3/scale.json && ok "resume: complete" || bad "resume: not complete"
"$ps" scale --resume s3 --trials 2 > /dev/null 2> e.txt; [ $? -eq 2 ] && ok "resume takes no other options" || bad "resume + options"
"$ps" scale --resume nowhere > /dev/null 2> e.txt; [ $? -eq 2 ] && grep -q "no sweep" e.txt && ok "resume: no sweep" || bad "resume nowhere"
# --- more ranks than cores: run, as 'run' does, and marked (one rule, one flag)
over=$(( $(nproc) + 1 ))
"$ps" scale clue --ranks 1,$over --trials 1 --variations base "${small[@]}" -o over > over.out 2> over.err
rc=$?
[ $rc -eq 0 ] && grep -q "oversubscribed" over.err && grep -q "WARNING: oversubscribed" over.out \
  && ok "$over ranks on $(nproc) processing units run and warned" || bad "oversubscribed sweep (rc $rc): $(cat over.err)"
python3 - over/scale.json $over <<'PY' && ok "oversubscribed marked in the JSON" || bad "oversubscribed JSON"
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert d["oversubscribed"] is True
p3 = [x for x in d["points"] if x["params"]["ranks"] == n][0]
assert p3["oversubscribed"] is True and p3["placement"]["ranks_per_node"] == n
assert p3["sheet"]["time_sliced"] is True
p1 = [x for x in d["points"] if x["params"]["ranks"] == 1][0]
assert p1["oversubscribed"] is False
PY

# --- automatic trials: a target no sweep meets, a budget that runs out, the reason recorded
"$ps" scale clue --ranks 1,2 --variations base "${small[@]}" --auto-trials --spread-target 0.000001 \
  --time-budget 1 -o auto > auto.out 2> auto.err
rc=$?
[ $rc -eq 0 ] && grep -q "trials: automatic, 3 to 10 per point" auto.out && grep -q "time budget ran out" auto.out \
  && ok "auto trials stop at the budget" || bad "auto trials (rc $rc): $(cat auto.out auto.err | head -20)"
python3 - auto/scale.json <<'PY' && ok "auto trials recorded" || bad "auto trials JSON"
import json, sys
d = json.load(open(sys.argv[1]))
a = d["trials_auto"]
assert a["stopped"] == "budget" and a["min"] == 3 and a["max_done"] == 3, a
assert d["complete"] is True and not d["missing"]
PY

exit $fail
