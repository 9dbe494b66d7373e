#!/usr/bin/env bash
# bench/trace_overhead.sh [BUILD_DIR] [RANKS] [ROUNDS] - what tracing adds to a workload's time
# (target: at most 2%). For fingerprint, cg and bench/programs/manysmall.loop (message calls
# back to back, 130 events an iteration a rank): ROUNDS rounds, each one run of 10 trials traced
# and one of 10 trials with --no-trace (no events, no timestamps), alternating; the figure is the
# ratio of the medians of all trials' execution times, traced / untraced.
set -euo pipefail
build=${1:-build} ranks=${2:-2} rounds=${3:-4}
ps=$build/bin/parscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(nproc) cores; $(mpiexec --version | head -1); load $(cut -d' ' -f1 /proc/loadavg)"
here=$(cd "$(dirname "$0")" && pwd)
for w in "fingerprint -s 20000 -i 1" "cg -s 1024 -i 20" "$here/programs/manysmall.loop -s 1024 -i 300"; do
  name=${w%% *}
  name=$(basename "${name%.loop}")
  for r in $(seq 1 "$rounds"); do
    $ps run $w -n "$ranks" -k 10 -q -o "$tmp/$name.on.$r.json" --force
    $ps run $w -n "$ranks" -k 10 -q -o "$tmp/$name.off.$r.json" --force -- --no-trace
  done
  echo "command: $ps run $w -n $ranks -k 10 [-- --no-trace], $rounds rounds alternating"
  python3 - "$tmp" "$name" <<'PY'
import glob, json, statistics, sys
d, name = sys.argv[1], sys.argv[2]
def samples(mode):
    out = []
    for f in glob.glob(f"{d}/{name}.{mode}.*.json"):
        out += [s for s in json.load(open(f))["time"]["samples"] if s is not None]
    return out
on, off = samples("on"), samples("off")
mon, moff = statistics.median(on), statistics.median(off)
print(f"{name}: traced median {mon*1e3:.3f} ms ({len(on)} trials), untraced {moff*1e3:.3f} ms ({len(off)} trials), "
      f"tracing adds {100*(mon/moff-1):+.2f}%")
PY
done
