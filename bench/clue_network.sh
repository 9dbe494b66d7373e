#!/usr/bin/env bash
# Does the sweep see a slow network?  The same CLUE sweep (base, double,
# rearrange on P = 1, 2) over shared memory and under ../shared/tools/slownet
# at RATE (default 10mbit); prints the efficiencies and the conclusions.
# Expected: "network-limited" for the slow network, not for shared memory.
# usage: bench/clue_network.sh [RATE] [SLOWNET]
set -eu
. "$(dirname "$0")/clue_common.sh"
rate=${1:-10mbit}
slownet=${2:-$(dirname "$0")/../../shared/tools/slownet}
base=$(mktemp -d)
opts=(--ranks 1,2 --variations base,double,rearrange --trials 5 --grid 2048x1024 -i 20)
machine
for mode in shm slow; do
  cmd=("$PARSCOPE" scale clue "${opts[@]}" -o "$base/$mode")
  [ $mode = slow ] && cmd=("$slownet" "$rate" "${cmd[@]}")
  echo; echo "command: ${cmd[*]}"
  start=$(date +%s)
  "${cmd[@]}" > /dev/null
  echo "took $(( $(date +%s) - start )) s"
  python3 - "$base/$mode/scale.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["points"]:
    e = p["efficiency"]
    print("  %-10s P=%d  time %.4f s  efficiency %s" % (p["variation"], p["params"]["ranks"], p["time_s"],
          "-" if e is None else "%.1f%%" % (100 * e)))
for c in d["conclusions"]:
    print("  [%s] %s" % (c["id"], c["text"]))
PY
done
