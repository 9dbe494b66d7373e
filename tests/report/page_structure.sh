#!/bin/bash
# page_structure.sh - reports a person reads top-down (check_page.py on each page: the summary
# first, the contents with anchors that resolve, each table once, plots whose axes fit their data,
# one spelling of microseconds, no SVG text under 10 px):
#   - a stored characterization (tests/report/data/characterize: probe, fingerprint, clue sweep at
#     P = 1..2, four workloads measured and predicted): the hardware and the machine-model tables
#     once each, Figure 4.6 with its one processor count, the curves of time against P;
#   - a run of the fingerprint at 4 ranks: its headline (execution time, busy / overhead / idle)
#     in the summary, above the sheets;
#   - a 16-count prediction: time and speedup against P; with --compare both curves and the
#     predicted-against-measured table.
# usage: page_structure.sh PARSCOPE SOURCE_DIR
set -u
PS=$1
SRC=$2
T=$(mktemp -d /tmp/ps_page_structure.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
CHECK="python3 $SRC/tests/report/check_page.py"

# --- a characterization -----------------------------------------------------------------------
cp -r "$SRC/tests/report/data/characterize" "$T/c"
"$PS" report "$T/c" -o "$T/c.html" -q || fail "report of the stored characterization"
$CHECK "$T/c.html" --tables table1,table2,bsp-rgl --plots 13 --contains "Figure 4.6" --contains "Execution time against P" ||
    fail "the characterization page"
# a prediction row measured while the machine's speed moved (compare's speed check) says so in its cell
cp -r "$T/c" "$T/c2"
python3 - "$T/c2/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["prediction"]["rows"][1]["speed_moved"] = True
json.dump(d, open(sys.argv[1], "w"))
PY
"$PS" report "$T/c2" -o "$T/c2.html" -q || fail "report of the characterization with a moved speed"
grep -q -- "-24.6% (the machine&#39;s speed moved)" "$T/c2.html" || fail "the row measured while the machine's speed moved does not say so"
[ "$(grep -o "the machine&#39;s speed moved" "$T/c2.html" | wc -l)" = 1 ] || fail "rows not named say the machine's speed moved"
[ "$(grep -c 'data-part="hardware"' "$T/c.html")" = 2 ] || fail "hardware and machine-model tables: $(grep -c 'data-part="hardware"' "$T/c.html"), expected one each"
[ "$(grep -c 'data-part="hardware-ref"' "$T/c.html")" -ge 10 ] || fail "the other sheets do not refer to the hardware table"
python3 - "$T/c.html" <<'PY' || fails=$((fails + 1))
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
s = re.search(r'<section id="summary">(.*?)</section>', page, re.S).group(1)
for want in ("Main bottleneck", "ping-pong latency", "Predicted against measured"):
    if want not in s:
        print("FAIL: the summary lacks %r" % want); sys.exit(1)
# Figure 4.6: the clue sweep's serial fraction exists only at P = 2: the x axis has no other tick
fig = re.search(r'<svg[^>]*class="plot"[^>]*>(?:(?!</svg>).)*Figure 4\.6(?:(?!</svg>).)*</svg>', page, re.S).group(0)
ticks = re.findall(r'class="xtick"[^>]*>([^<]*)<', fig)
if ticks != ["2"]:
    print("FAIL: Figure 4.6's x ticks %s, expected only the data's P = 2" % ticks); sys.exit(1)
PY

# --- a run -------------------------------------------------------------------------------------
"$PS" run fingerprint -n 4 --trace "$T/run" -o "$T/run/result.json" -q >/dev/null 2>"$T/err" ||
    { fail "run fingerprint -n 4"; cat "$T/err" >&2; }
"$PS" report "$T/run/result.json" -o "$T/r.html" -q || fail "report of the run"
$CHECK "$T/r.html" --contains "Space-time diagram" || fail "the run page"
python3 - "$T/r.html" "$T/run/result.json" <<'PY' || fails=$((fails + 1))
import json, re, sys
page, doc = open(sys.argv[1], encoding="utf-8").read(), json.load(open(sys.argv[2]))
s = re.search(r'<section id="summary">(.*?)</section>', page, re.S)
sheet = page.find('data-part="problem"')
if not s or s.start() > sheet:
    print("FAIL: the summary is not above the sheets"); sys.exit(1)
sh = doc["sheet"]
want = "busy %.0f%%, overhead %.0f%%, idle %.0f%%" % (sh["busy_pct"], sh["overhead_pct"], sh["idle_pct"])
if want not in s.group(1) or "%d messages" % sh["messages_sent"] not in s.group(1):
    print("FAIL: the headline lacks %r / the message count: %s" % (want, s.group(1)[:300])); sys.exit(1)
PY

# --- a prediction over 16 counts, then with --compare -------------------------------------------
"$PS" predict psrs -m sp2 -n 1-16 -s 20000 -o "$T/p.json" -q >/dev/null 2>"$T/err" || fail "predict psrs -n 1-16"
"$PS" report "$T/p.json" -o "$T/p.html" -q || fail "report of a 16-count prediction"
$CHECK "$T/p.html" --plots 2 --tables points --rows points=16 || fail "the prediction page"
grep -q "Execution time: psrs" "$T/p.html" && grep -q "Speedup: psrs" "$T/p.html" || fail "no time and speedup plots"
"$PS" predict cg -m sp2 -n 1,2 -s 64 -i 2 --compare -k 1 -o "$T/cmp.json" -q >/dev/null 2>"$T/err" ||
    { fail "predict --compare"; cat "$T/err" >&2; }
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['measured']['points'])==2, d.keys()" "$T/cmp.json" ||
    fail "--compare does not keep the measured runs in -o"
"$PS" report "$T/cmp.json" -o "$T/cmp.html" -q || fail "report of a compared prediction"
$CHECK "$T/cmp.html" --plots 2 --tables predicted-measured --rows predicted-measured=2 || fail "the compared page"
grep -q ", measured</text>" "$T/cmp.html" && grep -q ", predicted</text>" "$T/cmp.html" ||
    fail "the plot lacks the measured or the predicted curve"

# --- the checker must be able to fail: each fault put into the run's page is found --------------
bad() {  # NAME SED-EXPRESSION EXPECTED-MESSAGE
    sed "$2" "$T/r.html" > "$T/bad-$1.html"
    if $CHECK "$T/bad-$1.html" > "$T/bad.out" 2>&1; then fail "check_page.py accepts a page with $1"
    elif ! grep -q "$3" "$T/bad.out"; then fail "check_page.py on $1: $(cat "$T/bad.out")"; fi
}
bad "7 px text" 's|<h1>|<svg xmlns="http://www.w3.org/2000/svg" width="90" height="20"><text x="0" y="12" font-size="7">tiny</text></svg><h1>|' "drawn at 7.0 px"
bad "us" 's|<h2>Summary</h2>|<h2>Summary</h2><p>took 12 us</p>|' "'us' for microseconds"
bad "no summary" 's|<section id="summary">|<section id="summary-gone">|' "not the summary"
bad "a dead link" 's|href="#|href="#gone-|' "points to no element"
bad "a table twice" 's|<table class="kv" id="hardware-table"|<table class="kv" id="hw-copy" data-part="hardware"><tr><th>Hosts</th><td>x</td></tr><tr><th>Nodes</th><td>y</td></tr></table><table class="kv" id="hw-copy2" data-part="hardware"><tr><th>Hosts</th><td>x</td></tr><tr><th>Nodes</th><td>y</td></tr></table><table class="kv" id="hardware-table"|' "written twice"

[ $fails = 0 ] && echo "page_structure: all passed" || echo "page_structure: $fails failed"
exit $((fails > 0))
