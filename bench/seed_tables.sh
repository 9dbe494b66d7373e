#!/usr/bin/env bash
# seed_tables.sh BUILD [OUT] - the LOOP seed's Tables 1-3 predicted on the models of its MEIKO,
# nCUBE/2 and Paragon (machines/meiko.ini, ncube2.ini, paragon.ini: published hardware figures,
# not fitted to the tables), beside the published tables (docs/seed/loop_tables.json): writes
# OUT/report.html and prints, for each published cell, predicted / published as a Markdown table
# (docs/PREDICT.md, "The LOOP seed's machines").
set -eu
build=$1 out=${2:-seed-tables}
src=$(cd "$(dirname "$0")/.." && pwd)
ps=$build/bin/parscope
mkdir -p "$out"
for m in meiko ncube2 paragon; do
  counts=16,32
  [ $m = meiko ] || counts=16,32,64,128   # the seed's Table 3: nCUBE and Paragon at 64 and 128
  for w in fingerprint cg mmm_s mmm_a red_black; do
    "$ps" predict $w -m $m -n $counts -q -o "$out/$m-$w.json" --force > /dev/null
    # Table 3's cg is a larger problem (1024)
    [ $w = cg ] && [ $m != meiko ] && "$ps" predict cg -m $m -n 64,128 -s 1024 -q -o "$out/$m-cg1024.json" --force > /dev/null
  done
done
"$ps" report "$src/docs/seed/loop_tables.json" "$src"/machines/{meiko,ncube2,paragon}.ini "$out"/meiko-*.json \
  "$out"/ncube2-*.json "$out"/paragon-*.json --reference Paragon -o "$out/report.html" -q
python3 - "$out" "$src/docs/seed/loop_tables.json" <<'PY'
import glob, json, math, os, sys
out, pub = sys.argv[1], json.load(open(sys.argv[2]))
model = {m["name"]: m["model"] for m in pub["machines"]}
pred = {}
for f in glob.glob(os.path.join(out, "*.json")):
    m = os.path.basename(f).split("-")[0]
    for p in json.load(open(f))["points"]:
        pred[(m, p["workload"], p["params"]["ranks"], p["params"]["size"], p["params"]["iterations"])] = p["time"]["min"]
def get(name, r):
    return pred.get((model[name], r["workload"], r["ranks"], r["size"], r["iterations"]))
for table, what in ((1, "time"), (2, "slowdown"), (3, "time")):
    rows = [r for r in pub["rows"] if r["table"] == table and what in r]
    names = list(rows[0][what].keys())
    print("\nTable %d (%s): published, predicted, predicted / published\n" % (table, what))
    print("| | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    ratios = []
    for r in rows:
        cells = []
        for n in names:
            p = get(n, r)
            if what == "slowdown":
                ref = get(pub["reference"], r)
                p = p / ref if p and ref else None
            v = r[what][n]
            if p:
                cells.append("%g / %.3g / %.2f" % (v, p, p / v))
                if not (what == "slowdown" and n == pub["reference"]):
                    ratios.append(p / v)
            else:
                cells.append("%g / - / -" % v)
        print("| %s | %s |" % (r["label"], " | ".join(cells)))
    if ratios:
        g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print("\n%d cells: ratio %.2f to %.2f, geometric mean %.2f" % (len(ratios), min(ratios), max(ratios), g))
PY
echo "report: $out/report.html"
