#!/usr/bin/env bash
# How fast is the CLUE kernel? Its ACT/s at P = 1 against the memory-bandwidth
# bound of this machine: a STREAM-like copy over the same footprint, measured
# in the same sweep (bound = copy bytes/s / (2 x cell bytes): each update
# reads and writes one cell).  Target: >= 70 % for base.
# usage: bench/clue_bandwidth.sh [extra parscope scale options]
set -eu
. "$(dirname "$0")/clue_common.sh"
out=$(mktemp -d)/bw
cmd=("$PARSCOPE" scale clue --ranks 1 --variations base,int,double,vonneumann --trials 5 -o "$out" "$@")
echo "command: ${cmd[*]}"
machine
"${cmd[@]}" > /dev/null
python3 - "$out/scale.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mb = d["memory_bound"]
print("grid %sx%s per rank, %s iterations; copy %.2f GB/s over %.0f MiB" % (
    d["grid"]["width"], d["grid"]["height"], d["grid"]["iterations"],
    mb["copy_bytes_per_s"] / 1e9, mb["copy_bytes"] / 2**20))
print("%-11s %14s %14s %9s" % ("variation", "ACT/s", "bound ACT/s", "of bound"))
for v, e in mb["variations"].items():
    print("%-11s %14.4g %14.4g %8.0f%%" % (v, e["act_per_s"], e["bound_act_per_s"], 100 * e["fraction"]))
PY
