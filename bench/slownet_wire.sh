#!/usr/bin/env bash
# What a workload's messages cost the shaped link of ../shared/tools/slownet (MPI over a TCP loopback
# behind one token bucket, both directions and the acknowledgements alike): the workload runs twice
# under slownet RATE at 2 ranks, at -i ITER and -i 2*ITER, one trial each, and the difference of the
# two runs is one ITER's worth of iterations without the set-up, warm-up and ending.  Printed per
# iteration: the timed interval, the TCP segments that carried data, the pure acknowledgements, the
# writes TCP held back to merge with later ones (TcpExtTCPAutoCorking), the times the bucket held a
# packet back for want of tokens (the shaper's overlimits), the bytes the bucket passed and the rate
# they make over the timed interval; and each rank's mean time in a send call.
#
# The bytes exclude the trace, which the ranks send to rank 0 after the timed interval: its events
# of ranks 1.. times the bytes of one (the slope of the trace file's size against its events).
#
# usage: bench/slownet_wire.sh RATE ITER PROGRAM [ARGS...]   (PROGRAM and ARGS as for parscope run,
#        without -i and -n), e.g. bench/slownet_wire.sh 100mbit 1000 bench/programs/oneway.loop -s 100
#   PARSCOPE  the parscope binary (default: on PATH, else build/bin/parscope)
#   SLOWNET   the slownet tool (default: ../shared/tools/slownet beside the checkout)
set -eu
. "$(dirname "$0")/clue_common.sh"
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 3 ] || { echo "usage: $0 RATE ITER PROGRAM [ARGS...]" >&2; exit 2; }
rate=$1 iter=$2; shift 2
[[ $iter =~ ^[1-9][0-9]{0,6}$ ]] || { echo "$0: ITER: '$iter' is not a count 1..9999999" >&2; exit 2; }
slownet=${SLOWNET:-$here/../../shared/tools/slownet}
[ -x "$slownet" ] || { echo "$0: no slownet tool at $slownet (set SLOWNET)" >&2; exit 2; }
command -v nstat > /dev/null || { echo "$0: nstat not found (Debian package iproute2)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

machine
echo "network: slownet $rate, 2 ranks"
for i in "$iter" $((2 * iter)); do
  echo "command: $slownet $rate $PARSCOPE run $* -i $i -n 2 -k 1 --trace DIR"
  # inside the namespace: the counters start at zero with it (nstat -a: absolute, no history of its own)
  "$slownet" "$rate" bash -c '
    "$@" > /dev/null
    tc -s qdisc show dev lo | sed -n "s/.*Sent \([0-9]*\) bytes \([0-9]*\) pkt.*overlimits \([0-9]*\).*/qdisc_bytes \1\nqdisc_overlimits \3/p"
    nstat -s -a -z | awk "/^(TcpOutSegs|TcpExtTCPOrigDataSent|TcpExtTCPAutoCorking|TcpRetransSegs) /{print \$1, \$2}"
  ' x "$PARSCOPE" run "$@" -i "$i" -n 2 -k 1 -q -o "$work/r$i.json" --trace "$work/t$i" > "$work/c$i"
  "$PARSCOPE" export "$work/t$i" --format csv -o "$work/t$i.csv" > /dev/null 2>&1
done
python3 - "$work" "$iter" <<'PY'
import collections, csv, json, os, sys
work, it = sys.argv[1], int(sys.argv[2])
def load(i):
    c = dict(l.split() for l in open(f"{work}/c{i}"))
    t = json.load(open(f"{work}/r{i}.json"))["time"]["min"]
    ev = list(csv.DictReader(open(f"{work}/t{i}.csv")))
    return {k: int(v) for k, v in c.items()}, t, ev, os.path.getsize(f"{work}/t{i}/trace.pst")
(c1, t1, e1, s1), (c2, t2, e2, s2) = load(it), load(2 * it)
per_event = (s2 - s1) / (len(e2) - len(e1))
gathered = lambda ev: sum(1 for e in ev if e["rank"] != "0")
d = {k: (c2.get(k, 0) - c1.get(k, 0)) / it for k in c1}
trace = (gathered(e2) - gathered(e1)) * per_event / it
dt = (t2 - t1) / it
data, segs = d["TcpExtTCPOrigDataSent"], d["TcpOutSegs"]
link = d["qdisc_bytes"] - trace
print(f"per iteration (difference of the runs at {it} and {2 * it} iterations):")
print(f"  timed interval       {dt * 1e6:10.2f} us   ({t1 * 1e3:.3f} and {t2 * 1e3:.3f} ms)")
print(f"  data segments        {data:10.2f}")
print(f"  pure acknowledgements{segs - data:10.2f}")
print(f"  retransmitted        {d.get('TcpRetransSegs', 0):10.2f}")
print(f"  writes merged later  {d.get('TcpExtTCPAutoCorking', 0):10.2f}   (TcpExtTCPAutoCorking)")
# tbf counts an overlimit each time it finds a packet at the head of its queue and too few tokens for it
print(f"  bucket found empty   {d.get('qdisc_overlimits', 0):10.2f}   (the shaper's overlimits: a packet waited for tokens)")
print(f"  bytes on the link    {link:10.1f}   (the trace's {trace:.1f} gathered after the timed interval excluded,")
print(f"                                    {per_event:.1f} bytes an event)")
if dt > 0:
    # above the bucket's rate, part of the bytes passed on its burst: the link did not bind throughout
    print(f"  rate over the timed interval {link / dt / 1e6:.2f} MB/s (the bucket's: the probe's `rate`; above it,"
          " part passed on the bucket's burst)")
else:
    print("  (the timed interval did not grow)")
for r in sorted({e["rank"] for e in e2}, key=int):
    calls = [float(e["duration_s"]) for e in e2 if e["rank"] == r and e["kind"] == "send"]
    by = collections.Counter(e["construct"] for e in e2 if e["rank"] == r and e["kind"] == "send")
    if calls:
        print(f"  rank {r}: {len(calls)} send calls ({', '.join(f'{k} {v}' for k, v in by.items())}), "
              f"mean {sum(calls) / len(calls) * 1e6:.2f} us")
PY
