#!/usr/bin/env bash
# probe_budget.sh PARSCOPE [RANKS...] - does 'parscope probe --quick' keep the time it announces?
# For each rank count (default 2 3 4): wall time against the announced budget, the time on the
# ranks, the load average before, and the reported g and l against the range of the rounds' fits.
set -u
ps=$(realpath "$1"); shift
ranks=${*:-2 3 4}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
printf '%-5s %-8s %-9s %-9s %-6s %s\n' ranks load1 wall_s ranks_s budget "g [rounds], l [rounds] (flops)"
for n in $ranks; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s.%N)
  "$ps" probe --quick -n "$n" -q -o "$dir/m$n.ini" --json "$dir/p$n.json" --timeout 300 2> "$dir/err$n" || {
    echo "$n: failed: $(tail -1 "$dir/err$n")"; continue; }
  t1=$(date +%s.%N)
  python3 - "$dir/p$n.json" "$n" "$load" "$t0" "$t1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b, p = d["bsp"], d["params"]
wall = float(sys.argv[5]) - float(sys.argv[4])
if b.get("fit") == "ok":
    gl = "g %.4g [%.4g, %.4g], l %.4g [%.4g, %.4g]" % (b["g"], *b["g_range"], b["l"], *b["l_range"])
else:
    gl = "fit failed: " + b.get("fit_note", "")
print("%-5s %-8s %-9.1f %-9.1f %-6.0f %s" % (sys.argv[2], sys.argv[3], wall, p["elapsed"], p["budget_seconds"], gl))
PY
done
