#!/bin/bash
# seed_tables.sh - the seeds' tables from results and machine files:
#   - predictions of the LOOP seed's five workloads at 16 and 32 processors on the models of its
#     MEIKO, nCUBE/2 and Paragon (machines/*.ini) give Table 1 (every time equal to the
#     prediction's own figure) and Table 2 (each time over the reference's, --reference Paragon),
#     and beside the published tables (docs/seed/loop_tables.json) each cell's ratio
#     predicted / published, computed here again from the JSON;
#   - a measured run and a prediction of the same configurations: Table 3 for what only one has,
#     and Table 2's reference chosen as the fastest when --reference is not given;
#   - report machines/t3e.ini machines/sp.ini machines/origin.ini draws the BSP seed's r, g, l
#     table with the seed's figures; a model without [bsp] (sp2.ini) gets r and g from its
#     estimator keys, marked;
#   - bad input: an unknown --reference, a machine file that does not parse.
# Every page passes check_page.py (summary first, contents, each table once, plots fit).
# usage: seed_tables.sh PARSCOPE SOURCE_DIR
set -u
PS=$1
SRC=$2
T=$(mktemp -d /tmp/ps_seed_tables.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
CHECK="python3 $SRC/tests/report/check_page.py"

# --- the LOOP seed's Tables 1 and 2 from predictions on three models ------------------------
for m in meiko ncube2 paragon; do
    for w in fingerprint cg mmm_s mmm_a red_black; do
        "$PS" predict $w -m $m -n 16,32 -q -o "$T/$m-$w.json" >/dev/null 2>"$T/err" ||
            { fail "predict $w -m $m"; cat "$T/err" >&2; }
    done
done
"$PS" report "$SRC/docs/seed/loop_tables.json" "$SRC"/machines/{meiko,ncube2,paragon}.ini "$T"/meiko-*.json \
    "$T"/ncube2-*.json "$T"/paragon-*.json --reference Paragon -o "$T/seed.html" -q || fail "report of the three models"
$CHECK "$T/seed.html" --tables table1,table2,published-table1,published-table2,machine-models --rows table1=10 \
    --rows table2=10 --rows published-table1=10 --plots 10 || fail "the seed tables page"
python3 - "$T" "$SRC/docs/seed/loop_tables.json" <<'PY' || fails=$((fails + 1))
import html, json, re, sys
T, pub = sys.argv[1], json.load(open(sys.argv[2]))
page = open(T + "/seed.html", encoding="utf-8").read()

def table(tid):
    m = re.search(r'<table id="%s">(.*?)</table>' % tid, page, re.S)
    rows = []
    for r in re.findall(r"<tr>(.*?)</tr>", m.group(1), re.S):
        rows.append([html.unescape(re.sub(r"<[^>]+>", " ", c)).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)])
    return rows

models = {"meiko": "MEIKO CS-1 (T800-20)", "ncube2": "nCUBE/2 (20 MHz)", "paragon": "Intel Paragon XP/S (i860 XP)"}
pred = {}
for m in models:
    for w in ["fingerprint", "cg", "mmm_s", "mmm_a", "red_black"]:
        for p in json.load(open("%s/%s-%s.json" % (T, m, w)))["points"]:
            pred[(m, w, p["params"]["ranks"])] = p["time"]["min"]
bad = 0
t1, t2 = table("table1"), table("table2")
head = t1[0]
cols = [next(k for k, v in models.items() if v in h) for h in head[1:]]
unit = re.search(r"Execution time in (\w+)", page).group(1)
scale = {"seconds": 1, "milliseconds": 1e-3, "microseconds": 1e-6}[unit]
want_rows = ["%s %d/%s" % (w, P, s) for w, s in [("fingerprint", "100"), ("cg", "256/8"), ("mmm_s", "256"),
                                                  ("mmm_a", "256"), ("red_black", "1024/5")] for P in (16, 32)]
if [r[0] for r in t1[1:]] != want_rows:
    print("FAIL: Table 1 rows %s, expected the five workloads at 16 and 32: %s" % ([r[0] for r in t1[1:]], want_rows)); bad += 1
for r1, r2 in zip(t1[1:], t2[1:]):
    w, P = r1[0].split()[0], int(r1[0].split()[1].split("/")[0])
    for c, m in enumerate(cols):
        want = pred[(m, w, P)]
        got = float(r1[c + 1]) * scale
        if abs(got - want) > 5e-4 * want:
            print("FAIL: Table 1 %s on %s: %g, the prediction says %g" % (r1[0], m, got, want)); bad += 1
        slow = want / pred[("paragon", w, P)]
        if abs(float(r2[c + 1]) - slow) > 5e-4 * slow + 1e-3:
            print("FAIL: Table 2 %s on %s: %s, expected %.3f" % (r1[0], m, r2[c + 1], slow)); bad += 1
# the published comparison: published | predicted | ratio per machine, the ratio computed again
pt = table("published-table1")
names = [n for n in pt[0][1:]]
rows = [r for r in pub["rows"] if r["table"] == 1]
key = {"MEIKO": "meiko", "nCUBE": "ncube2", "Paragon": "paragon"}
for r, pr in zip(pt[2:], rows):
    if r[0] != pr["label"]:
        print("FAIL: published row %r, expected %r" % (r[0], pr["label"])); bad += 1
    for k, name in enumerate(names):
        published, predicted, ratio = (float(x) for x in r[1 + 3 * k:4 + 3 * k])
        want_pred = pred[(key[name], pr["workload"], pr["ranks"])]
        if published != pr["time"][name]:
            print("FAIL: %s %s: published %s, the seed's table says %s" % (pr["label"], name, published, pr["time"][name])); bad += 1
        if abs(predicted - want_pred) > 5e-4 * want_pred:
            print("FAIL: %s %s: predicted %s, the prediction says %g" % (pr["label"], name, predicted, want_pred)); bad += 1
        if abs(ratio - want_pred / published) > 0.006:
            print("FAIL: %s %s: ratio %s, predicted / published is %.3f" % (pr["label"], name, ratio, want_pred / published)); bad += 1
if "the seed" not in page or "Predicted against the published Table 1" not in page:
    print("FAIL: the summary does not give the published comparison"); bad += 1
sys.exit(1 if bad else 0)
PY

# --- measured and predicted together: Table 3, the default reference -----------------------
"$PS" run cg -n 2 -s 64 -i 2 -q -o "$T/run-cg2.json" >/dev/null 2>"$T/err" || { fail "run cg"; cat "$T/err" >&2; }
"$PS" predict cg -m sp2 -n 2,4 -s 64 -i 2 -q -o "$T/pred-cg.json" >/dev/null 2>"$T/err" || fail "predict cg"
"$PS" report "$T/run-cg2.json" "$T/pred-cg.json" -o "$T/mixed.html" -q || fail "report measured and predicted"
$CHECK "$T/mixed.html" --tables table1,table2,table3 --rows table1=1 --rows table3=1 || fail "the mixed page"
grep -q "(measured)" "$T/mixed.html" && grep -q "(predicted)" "$T/mixed.html" || fail "Table 1 does not say which column is measured"
python3 - "$T" <<'PY' || fails=$((fails + 1))
import json, re, sys
T = sys.argv[1]
page = open(T + "/mixed.html", encoding="utf-8").read()
m = json.load(open(T + "/run-cg2.json"))["time"]["min"]
p = json.load(open(T + "/pred-cg.json"))["points"][0]["time"]["min"]
# the fastest of the two is the reference: its slowdown is 1.000
t2 = re.search(r'<table id="table2">(.*?)</table>', page, re.S).group(1)
cells = re.findall(r'<td class="num">([^<]*)</td>', t2)
want = sorted([1.0, max(m, p) / min(m, p)])
got = sorted(float(c) for c in cells)
if any(abs(a - b) > 1e-3 * b for a, b in zip(got, want)):
    print("FAIL: Table 2 %s, expected the fastest as reference: %s" % (got, want)); sys.exit(1)
PY

# --- the BSP seed's r, g, l table from machine files ----------------------------------------
"$PS" report "$SRC/machines/t3e.ini" "$SRC/machines/sp.ini" "$SRC/machines/origin.ini" "$SRC/machines/sp2.ini" \
    -o "$T/rgl.html" -q || fail "report of machine files"
$CHECK "$T/rgl.html" --tables bsp-rgl,machine-models --rows bsp-rgl=4 || fail "the r, g, l page"
python3 - "$T/rgl.html" <<'PY' || fails=$((fails + 1))
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
t = re.search(r'<table id="bsp-rgl">(.*?)</table>', page, re.S).group(1)
rows = [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)]
        for r in re.findall(r"<tr>(.*?)</tr>", t, re.S)]
# the BSP seed's table "Comparing BSP parameters (p = 8)": r (Mflop/s), g, l (flop), g, l (us)
seed = {"Cray T3E": (35, 31, 1193, 0.88, 34), "IBM RS/6000 SP": (212, 187, 148212, 0.88, 698),
        "SGI Origin 2000": (326, 297, 95686, 0.91, 294)}
bad = 0
for name, (r, g, l, gus, lus) in seed.items():
    row = [x for x in rows if x[0].startswith(name)]
    if not row:
        print("FAIL: no r, g, l row for %s" % name); bad += 1; continue
    x = row[0]
    got = [float(v) for v in x[2:7]]
    for k, (a, b, tol) in enumerate(zip(got, (r, g, l, gus, lus), (0.001, 0.001, 0.001, 0.02, 0.02))):
        if abs(a - b) > tol * b:
            print("FAIL: %s column %d: %s, the seed says %s" % (name, k + 2, a, b)); bad += 1
    if x[1] != "8":
        print("FAIL: %s: p %s, the seed's is 8" % (name, x[1])); bad += 1
sp2 = [x for x in rows if x[0].startswith("IBM SP2")]
if not sp2 or not sp2[0][3].endswith("*") or sp2[0][4] != "-":
    print("FAIL: the SP2 row (no [bsp]) is not marked as derived: %s" % (sp2,)); bad += 1
else:  # r = 1 / flop_time, g = word_time / flop_time
    r, g = float(sp2[0][2]), float(sp2[0][3].rstrip("*"))
    if abs(r - 1 / 0.178e-7 / 1e6) > 0.1 or abs(g - 2.39e-7 / 0.178e-7) > 0.01:
        print("FAIL: SP2 derived r, g = %s, %s" % (r, g)); bad += 1
sys.exit(1 if bad else 0)
PY

# --- bad input ------------------------------------------------------------------------------
"$PS" report "$T"/meiko-cg.json "$T"/paragon-cg.json --reference Cray -o "$T/bad.html" -q 2>"$T/err"
[ $? = 2 ] || fail "an unknown --reference is not refused"
grep -q "\-\-reference Cray: names none of the machines: 'MEIKO CS-1 (T800-20)', 'Intel Paragon XP/S (i860 XP)'" "$T/err" ||
    fail "unknown reference message: $(cat "$T/err")"
"$PS" report "$T"/meiko-cg.json "$T"/ncube2-cg.json --reference "(" -o "$T/bad.html" -q 2>"$T/err"
grep -q "names more than one" "$T/err" || fail "ambiguous reference message: $(cat "$T/err")"
printf '[machine]\nname = broken\nsend_latency = fast\n' > "$T/broken.ini"
"$PS" report "$T/broken.ini" -o "$T/bad.html" -q 2>"$T/err"
[ $? = 2 ] || fail "a broken machine file is not refused"
grep -q "broken.ini:3" "$T/err" || fail "broken machine file message: $(cat "$T/err")"
[ -e "$T/bad.html" ] && fail "a refused report left a file"

[ $fails = 0 ] && echo "seed_tables: all passed" || echo "seed_tables: $fails failed"
exit $((fails > 0))
