#!/usr/bin/env bash
# The whole 'parscope predict' command at many ranks, as a user runs it:
# wall time and peak memory (/usr/bin/time -v: the largest process, the
# recording's children included), then its two parts apart: recording the
# streams (as predict does: a few processes, each running rank after rank,
# put back to its snapshot between them; and, for comparison, a process per
# rank, PARSCOPE_RECORD_BATCH=1) and simulating them from disk.  Each is run
# REPEAT times; the load average is printed with each figure.
#
# With -b OTHER (another build of parscope): instead, the two builds simulate
# the same streams in turn (this one, the other, this one, ...) so that the
# machine's drift falls on both alike; the best and the median wall time of
# each, and whether the two predicted the same.
#
# usage: bench/predict_scale.sh [-n RANKS] [-r REPEAT] [-m MODEL] [-b OTHER] [WORKLOAD]
#   defaults: -n 1024 -r 3 -m machines/sp2.ini fingerprint
#   PARSCOPE  the parscope binary (default: on PATH, else build/bin/parscope)
set -eu
. "$(dirname "$0")/clue_common.sh"
here=$(cd "$(dirname "$0")" && pwd)
n=1024
repeat=3
model=$here/../machines/sp2.ini
other=
while [ $# -gt 0 ]; do
  case $1 in
    -n) n=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -m) model=$2; shift 2 ;;
    -b) other=$2; shift 2 ;;
    -*) echo "usage: $0 [-n RANKS] [-r REPEAT] [-m MODEL] [-b OTHER] [WORKLOAD]" >&2; exit 2 ;;
    *) break ;;
  esac
done
w=${1:-fingerprint}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

machine
echo
# one line: what, wall seconds, user + system CPU seconds, peak memory, load before / after
timed() {
  local what=$1
  shift
  local l0
  l0=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > "$work/out" 2> "$work/err" ||
    { echo "$what: failed: $(tail -1 "$work/err")" >&2; return 1; }
  read -r wall user sys rss < "$work/time"
  awk -v w="$what" -v e="$wall" -v u="$user" -v s="$sys" -v m="$rss" -v l0="$l0" -v l1="$(cut -d' ' -f1 /proc/loadavg)" \
    'BEGIN { printf "%-30s %7.2f s wall %7.2f s CPU %6.0f MB   load %s-%s\n", w, e, u + s, m / 1024, l0, l1 }'
}

if [ -n "$other" ]; then
  mkdir "$work/streams"
  env LD_BIND_NOW=1 PARSCOPE_RECORD="$n" PARSCOPE_RECORD_DIR="$work/streams" "$PARSCOPE" __rank "$w" --workload "$w" --quiet
  echo "command: PARSCOPE predict STREAMS -m $model -q ($w recorded at $n ranks); A = $PARSCOPE, B = $other"
  l0=$(cut -d' ' -f1 /proc/loadavg)
  for i in $(seq "$repeat"); do
    for x in A B; do
      bin=$PARSCOPE
      [ $x = B ] && bin=$other
      s0=$(date +%s.%N)
      "$bin" predict "$work/streams" -m "$model" -q -o "$work/$x.json" --force > /dev/null
      echo "$x $(echo "$(date +%s.%N) - $s0" | bc)" >> "$work/times"
    done
  done
  for x in A B; do
    grep "^$x " "$work/times" | cut -d' ' -f2 | sort -n |
      awk -v x=$x '{ v[NR] = $1 } END { printf "%s best %.3f s, median %.3f s over %d runs\n", x, v[1], v[int((NR + 1) / 2)], NR }'
  done
  echo "load $l0-$(cut -d' ' -f1 /proc/loadavg)"
  # the prediction itself: without the simulation's own seconds, events and records alive at once
  # (which follow the order its steps were taken in: free order or time order, docs/PREDICT.md) and
  # the model's path
  python3 - "$work/A.json" "$work/B.json" <<'PY'
import json, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("seconds", "file", "events", "peak_in_flight")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
a, b = (strip(json.load(open(f))) for f in sys.argv[1:3])
print("predictions: the same" if a == b else "predictions: DIFFER")
PY
  exit 0
fi
echo "command: $PARSCOPE predict $w -m $model -n $n"
for i in $(seq "$repeat"); do
  timed "end to end" "$PARSCOPE" predict "$w" -m "$model" -n "$n" -o "$work/p.json" --force
  # the recording alone: the workload in the recording back end, as predict runs it
  rm -rf "$work/streams" && mkdir "$work/streams"
  timed "recording (as predict does)" env LD_BIND_NOW=1 PARSCOPE_RECORD="$n" PARSCOPE_RECORD_DIR="$work/streams" \
    "$PARSCOPE" __rank "$w" --workload "$w" --quiet
  rm -rf "$work/streams1" && mkdir "$work/streams1"
  timed "recording (a process per rank)" env LD_BIND_NOW=1 PARSCOPE_RECORD="$n" PARSCOPE_RECORD_DIR="$work/streams1" \
    PARSCOPE_RECORD_BATCH=1 "$PARSCOPE" __rank "$w" --workload "$w" --quiet
  cmp -s "$work/streams/streams.pss" "$work/streams1/streams.pss" ||
    { echo "the two recordings differ" >&2; exit 1; }
  timed "simulation of the streams" "$PARSCOPE" predict "$work/streams" -m "$model" -q -o "$work/s.json" --force
done
python3 - "$work/p.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["simulation"]
print("predicted time %.6g s, %d messages, %d instructions, %d events; simulation %.2f s of it"
      % (d["time"]["min"], s["messages"], s["instructions"], s["events"], s["seconds"]))
PY
