#!/bin/bash
# summary_figures.sh - the figures a page states, from stored results (tests/report/data/characterize):
#   - a characterization whose h-relation fit failed (g and l null in probe.json and summary.json,
#     two rounds without g and l): no "nan" in the summary, the machines side by side or the
#     characterization's section, "-" for g and l there, the failure said, and the BSP table's row
#     for the machine once (from summary.json and probe.json alike);
#   - predicted against measured, with each prediction carrying its own measured runs (as
#     `predict --compare -o` writes them): the headline's mean and largest error are the summary's,
#     Table 1 holds the prediction's measured run (not the faster fingerprint step's), and the
#     headline counts one measured machine and one model, and configurations, not documents;
#   - a result document without params.ranks and time: exit 2 naming the file and what it lacks,
#     nothing written; in a directory it is skipped and listed so.
# usage: summary_figures.sh PARSCOPE SOURCE_DIR
set -u
PS=$1
SRC=$2
T=$(mktemp -d /tmp/ps_summary_figures.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# --- a failed h-relation fit ------------------------------------------------------------------
cp -r "$SRC/tests/report/data/characterize" "$T/f"
python3 - "$T/f" <<'PY'
import json, sys
d = sys.argv[1]
probe = json.load(open(d + "/probe.json"))
b = probe["bsp"]
for k in ("g", "l", "g_us", "l_us"):
    b[k] = None
b["fit"], b["fit_note"] = "failed", "the median l, -6460, is not positive (rounds -8010 .. 4020)"
for a in probe["agreement"]:
    if a["figure"] in ("g", "l"):
        a["values"] = [None, 131.1, None]
        a.pop("best_two", None)
        a["rel_diff"] = None
        a["agree"] = None   # one round: unknown, as the probe writes it
json.dump(probe, open(d + "/probe.json", "w"))
s = json.load(open(d + "/summary.json"))
for k in ("g_flops", "l_flops", "g_us", "l_us"):
    s["probe"][k] = None
s["probe"]["bsp_fit_note"] = b["fit_note"]
json.dump(s, open(d + "/summary.json", "w"))
PY
"$PS" report "$T/f" -o "$T/f.html" -q || fail "report of a characterization whose fit failed"
python3 - "$T/f.html" <<'PY' || fails=$((fails + 1))
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
bad = []
def section(sid):
    m = re.search(r'<section id="%s">(.*?)</section>' % sid, page, re.S)
    if not m:
        bad.append("no section %s" % sid)
    return m.group(1) if m else ""
for sid in ("summary", "tables", "characterization"):
    section(sid)
# the whole page, the probe's rounds table too
text = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)))
for word in re.findall(r"\b(?:nan|inf)\b", text, re.I):
    bad.append("%r on the page: %s" % (word, text[max(0, text.find(word) - 80):][:200]))
if "- (fewer than two rounds)" not in page:
    bad.append("the probe's rounds table does not say g's and l's agreement is unknown")
rows = re.findall(r"<tr><td>vm</td>(.*?)</tr>", re.search(r'<table id="bsp-rgl">(.*?)</table>', page, re.S).group(1))
if len(rows) != 1:
    bad.append("the BSP table has %d rows for vm, expected one" % len(rows))
else:
    cells = re.findall(r'<td class="num">([^<]*)</td>', rows[0])
    if cells[2:6] != ["-"] * 4:
        bad.append("g, l (flop, us) of the failed fit: %s, expected four '-'" % cells)
char = section("characterization")
for want in ("<tr><th>BSP g</th><td>-</td></tr>", "<tr><th>BSP l</th><td>-</td></tr>",
             "failed: the median l, -6460, is not positive"):
    if want not in char:
        bad.append("the characterization lacks %r" % want)
if "the h-relation fit failed: no g and l" not in section("summary"):
    bad.append("the probe's headline does not say the fit failed")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# --- one figure for one comparison ------------------------------------------------------------
cp -r "$SRC/tests/report/data/characterize" "$T/c"
python3 - "$T/c" <<'PY'
import json, sys
d = sys.argv[1] + "/predict/"
for w in ("fingerprint", "cg", "mmm_s", "red_black"):
    p = json.load(open(d + w + ".json"))
    p["measured"] = json.load(open(d + w + ".measured.json"))
    json.dump(p, open(d + w + ".json", "w"))
PY
"$PS" report "$T/c" -o "$T/c.html" -q || fail "report of the characterization"
python3 - "$T/c.html" "$T/c" <<'PY' || fails=$((fails + 1))
import html, json, re, sys
page, d = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
s = json.load(open(d + "/summary.json"))["prediction"]
summ = html.unescape(re.sub(r"<[^>]+>", " ", re.search(r'<section id="summary">(.*?)</section>', page, re.S).group(1)))
bad = []
m = re.search(r"mean \|error\| ([0-9.]+)% over (\d+) configurations, largest ([0-9.]+)%", summ)
want = ("%.1f" % (100 * s["mean_abs_error"]), str(s["points"]), "%.1f" % (100 * s["max_abs_error"]))
if not m or m.groups() != want:
    bad.append("headline %s, the summary's mean, points and largest error %s" % (m and m.groups(), want))
for w in ("measured in 8 configurations and predicted in 8",):
    if w not in summ:
        bad.append("the headline lacks %r: %s" % (w, summ))
# one host measured and predicted: the ratio of its two columns is the prediction's error, said as such,
# not as a slowdown of one machine against another
if "largest slowdown" in summ:
    bad.append("a host's predicted column against its measured one called a slowdown: %s" % summ)
# Table 1: fingerprint 2/100 measured on vm is the prediction's own measured run
t1 = re.search(r'<table id="table1">(.*?)</table>', page, re.S).group(1)
head = re.findall(r"<th>(.*?)</th>", t1.split("</tr>")[0])[1:]
row = re.search(r"<tr><td>fingerprint 2/100</td>(.*?)</tr>", t1).group(1)
cells = dict(zip(head, re.findall(r'<td class="num">([^<]*)</td>', row)))
meas = [p for p in json.load(open(d + "/predict/fingerprint.measured.json"))["points"] if p["params"]["ranks"] == 2][0]
got = cells.get("vm<br>(measured)")
if got != "%.4g" % (meas["time"]["min"] / 1e-3):
    bad.append("Table 1's fingerprint 2/100 on vm (measured): %s ms, the prediction's measured run %.4g ms" %
               (got, meas["time"]["min"] / 1e-3))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# --- a result document without what a run has ---------------------------------------------------
echo '{"kind": "run"}' > "$T/e.json"
"$PS" report "$T/e.json" -o "$T/e.html" 2> "$T/err"
rc=$?
[ $rc = 2 ] || fail "a run document without params.ranks and time: exit $rc, expected 2"
grep -qF "e.json: a run result lacks params.ranks and time" "$T/err" || fail "the message: $(cat "$T/err")"
[ -e "$T/e.html" ] && fail "a refused input left a page"
echo '{"kind": "predict", "points": [{"params": {"ranks": 1}, "time": {"min": 1}}, {"params": {"ranks": 2}}]}' > "$T/p.json"
"$PS" report "$T/p.json" -o "$T/p.html" 2> "$T/err"
rc=$?
[ $rc = 2 ] && grep -qF "p.json: point 2 of the predict result lacks time" "$T/err" ||
    fail "a point without time: exit $rc, $(cat "$T/err")"
mkdir "$T/d" && cp "$T/e.json" "$T/d/" && cp "$SRC/tests/report/data/characterize/fingerprint.json" "$T/d/"
"$PS" report "$T/d" -o "$T/d.html" -q || fail "a directory holding an incomplete run document"
grep -qF "skipped: $T/d/e.json (a run result lacks params.ranks and time)" "$T/d.html" ||
    fail "the incomplete document is not listed as skipped"

[ $fails = 0 ] && echo "summary_figures: all passed" || echo "summary_figures: $fails failed"
exit $((fails > 0))
