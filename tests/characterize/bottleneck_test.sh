#!/usr/bin/env bash
# bottleneck_test.sh PARSCOPE SLOWNET - the summary names the network as the main bottleneck when the
# network is slow (MPI over a 10 Mbit/s shaped loopback) and not on shared memory.
set -u
ps=$1 slownet=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
name() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['bottleneck']['name'])" "$1"; }

"$ps" characterize -n 2 -o "$tmp/shm" --steps probe,predict -q > "$tmp/shm.out" 2>&1 \
  || { echo "FAIL: characterize on shared memory: $(tail -5 "$tmp/shm.out")"; exit 1; }
b=$(name "$tmp/shm/summary.json")
[ "$b" != network ] || { echo "FAIL: shared memory named the network: $(grep bottleneck "$tmp/shm.out")"; fails=1; }

"$slownet" 10mbit "$ps" characterize -n 2 -o "$tmp/slow" --steps probe,predict -q > "$tmp/slow.out" 2>&1 \
  || { echo "FAIL: characterize under slownet: $(tail -5 "$tmp/slow.out")"; exit 1; }
b=$(name "$tmp/slow/summary.json")
[ "$b" = network ] || { echo "FAIL: the slow network was not named: $(grep bottleneck "$tmp/slow.out")"; fails=1; }
grep -q "network = bus\|two ranks exchanging" "$tmp/slow/probe.json" || grep -q '"network": "bus"' "$tmp/slow/probe.json" \
  || { echo "FAIL: the shaped link was not found shared (bus)"; fails=1; }
grep "main bottleneck" "$tmp/shm.out" "$tmp/slow.out"
[ $fails -eq 0 ] && echo "bottleneck: 1 passed, 0 failed"
exit $fails
