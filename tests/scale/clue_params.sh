#!/usr/bin/env bash
# What a clue run records as its problem is the grid it ran (docs/SCALE.md):
# params.grid "WxH", params.grid_per_rank, params.size = cells per rank, in
# the result JSON, the trace, the printed sheet, the report, a prediction and
# a sweep's points; never the -s value the grid replaced.
# usage: clue_params.sh PARSCOPE MPIEXEC SOURCE_DIR
set -u
ps=$1 mpiexec=$2 src=$3
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
# json_is FILE EXPR: the python expression over d (the parsed FILE) is true
json_is() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"; }

# weak: a 64x32 grid per rank, the default -s (1024) not used
"$ps" run clue -n 2 -i 3 -o r.json --trace T -- --grid 64x32 > sheet.txt 2>&1 || bad "run clue --grid 64x32: $(cat sheet.txt)"
json_is r.json 'd["params"] == {"ranks": 2, "size": 2048, "iterations": 3, "grid": "64x32", "grid_per_rank": True}' \
  && ok "result params: grid 64x32 per rank, size 2048" || bad "result params: $(python3 -c 'import json; print(json.load(open("r.json"))["params"])')"
json_is r.json 'd["trace_meta"]["params"]["size"] == 2048 and d["trace_meta"]["params"]["grid"] == "64x32"' \
  && ok "trace params" || bad "trace params"
grep -Eq "Problem size: +2048 cells per rank$" sheet.txt && grep -Eq "Grid: +64x32 per rank" sheet.txt \
  && ok "sheet: size and grid" || { bad "sheet:"; sed -n 1,8p sheet.txt; }
grep -q "Problem size: *1024" sheet.txt && bad "sheet still says 1024"
# a report of the result and of the trace alone
"$ps" report r.json -o r.html -q > /dev/null 2>&1 && grep -q "64x32 per rank" r.html && grep -q "2048 cells per rank" r.html \
  && ok "report of the result: grid" || bad "report of the result: no grid"
"$ps" report T -o t.html -q > /dev/null 2>&1 && grep -q "64x32 per rank" t.html \
  && ok "report of the trace: grid" || bad "report of the trace: no grid"

# strong: -s given and replaced by the grid; 64x30 in all over 4 ranks (rows 8,8,7,7)
"$ps" run clue -n 4 -i 3 -s 48 -o s.json -- --grid 64x30 --strong > sheet2.txt 2>&1 || bad "run --strong: $(cat sheet2.txt)"
json_is s.json 'd["params"] == {"ranks": 4, "size": 480, "iterations": 3, "grid": "64x30", "grid_per_rank": False}' \
  && ok "strong: grid 64x30 in all, size 480" || bad "strong params: $(python3 -c 'import json; print(json.load(open("s.json"))["params"])')"
grep -Eq "Problem size: +480 cells per rank on average$" sheet2.txt && grep -q "64x30 in all, split by rows over 4 ranks" sheet2.txt \
  && ok "strong sheet" || { bad "strong sheet:"; sed -n 1,8p sheet2.txt; }

# -s N alone is an N x N grid; rearrange runs 2N x N/2
"$ps" run clue -n 2 -i 3 -s 48 -q -o q.json -- --variation rearrange || bad "run -s 48 rearrange"
json_is q.json 'd["params"]["grid"] == "96x24" and d["params"]["size"] == 2304' && ok "rearrange: grid 96x24" || bad "rearrange params"

# inside an MPI job
"$mpiexec" -n 2 "$ps" run clue -i 3 -q -o in.json -- --grid 64x16 > /dev/null 2>&1 || bad "run inside mpiexec"
json_is in.json 'd["params"]["size"] == 1024 and d["params"]["grid"] == "64x16"' && ok "inside a job" || bad "inside a job"

# a prediction and its measured run agree on the problem (predict --compare refuses different sizes)
"$ps" predict clue -m "$src/machines/sp2.ini" -n 2 -s 48 -i 3 -q --compare -o p.json --measured m.json > pc.txt 2>&1 \
  || bad "predict clue --compare: $(tail -3 pc.txt)"
json_is p.json 'd["params"]["size"] == 2304 and d["params"]["grid"] == "48x48"' && ok "prediction: grid 48x48" || bad "prediction params"
json_is m.json '(d.get("params") or d["points"][0]["params"])["size"] == 2304' && ok "measured: size 2304" || bad "measured params"

# a sweep's points: the grid each ran, and the CSV's ACT/s from it
"$ps" scale clue --ranks 1,2 --variations base,rearrange --grid 64x64 -i 5 -k 1 -o sc > sc.txt 2>&1 || bad "scale: $(tail -3 sc.txt)"
json_is sc/scale.json 'all(p["params"]["size"] == 4096 and p["params"]["grid"] == ("128x32" if p["variation"] == "rearrange" else "64x64") and p["params"]["grid_per_rank"] for p in d["points"])' \
  && ok "scale points: grid and size" || bad "scale points"
json_is sc/scale.json 'all(abs(p["act_per_s"] - 64 * 64 * 5 / p["time_s"]) <= 1e-6 * p["act_per_s"] for p in d["points"] if p["status"] == "ok")' \
  && ok "scale ACT/s from the grid" || bad "scale ACT/s"
grep -q "grid 64x64 per rank" sc.txt && ok "scale header" || bad "scale header"
exit $fail
