#!/usr/bin/env bash
# Two builds of parscope simulating the same recorded streams, run in turn
# (A, B, A, B, ...) so that the machine's drift falls on both alike: the best
# and the median wall time of each, the load before and after, and whether
# the two predicted the same.
#
# usage: bench/predict_ab.sh [-n RANKS] [-r REPEAT] [-m MODEL] PARSCOPE_A PARSCOPE_B [WORKLOAD]
#   defaults: -n 1024 -r 7 -m machines/sp2.ini fingerprint; the streams are
#   recorded once by PARSCOPE_A
set -eu
here=$(cd "$(dirname "$0")" && pwd)
n=1024
repeat=7
model=$here/../machines/sp2.ini
while [ $# -gt 0 ]; do
  case $1 in
    -n) n=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -m) model=$2; shift 2 ;;
    -*) echo "usage: $0 [-n RANKS] [-r REPEAT] [-m MODEL] PARSCOPE_A PARSCOPE_B [WORKLOAD]" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: $0 [-n RANKS] [-r REPEAT] [-m MODEL] PARSCOPE_A PARSCOPE_B [WORKLOAD]" >&2; exit 2; }
a=$1 b=$2 w=${3:-fingerprint}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(nproc) cores"
mkdir "$work/streams"
env LD_BIND_NOW=1 PARSCOPE_RECORD="$n" PARSCOPE_RECORD_DIR="$work/streams" "$a" __rank "$w" --workload "$w" --quiet
echo "command: PARSCOPE predict STREAMS -m $model -q ($w recorded at $n ranks), A = $a, B = $b"
l0=$(cut -d' ' -f1 /proc/loadavg)
for i in $(seq "$repeat"); do
  for x in A B; do
    bin=$a; [ $x = B ] && bin=$b
    s=$(date +%s.%N)
    "$bin" predict "$work/streams" -m "$model" -q -o "$work/$x.json" --force > /dev/null
    e=$(date +%s.%N)
    echo "$x $(echo "$e - $s" | bc)" >> "$work/times"
  done
done
for x in A B; do
  grep "^$x " "$work/times" | cut -d' ' -f2 | sort -n |
    awk -v x=$x '{ v[NR] = $1 } END { printf "%s best %.3f s, median %.3f s over %d runs\n", x, v[1], v[int((NR + 1) / 2)], NR }'
done
echo "load $l0-$(cut -d' ' -f1 /proc/loadavg)"
# the prediction itself, without the timing and the paths
strip() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d.pop("machine", None)
def walk(x):
    if isinstance(x, dict):
        x.pop("seconds", None)
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
walk(d)
print(json.dumps(d, sort_keys=True))' "$1"; }
if [ "$(strip "$work/A.json")" = "$(strip "$work/B.json")" ]; then echo "predictions: the same"; else echo "predictions: DIFFER"; fi
