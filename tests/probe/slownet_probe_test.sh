#!/usr/bin/env bash
# slownet_probe_test.sh PROBE.JSON MACHINE.INI [MBIT] - a `parscope probe --quick` on two ranks under
# slownet MBITmbit (default 100: MPI over TCP on a loopback shaped by tbf: MBIT/8 MB/s, 12.5 at 100, a
# 64 KiB bucket, one queue for both directions) saw the link.  Its JSON and model are those of
# characterize_bottleneck's characterization under slownet 20mbit (tests/characterize/bottleneck_test.sh),
# whose first step is that probe: one slow probe serves both tests.  The checks:
#   - the small-message time is TCP's, not shared memory's (over 2 us; the
#     probe's ranks inherit slownet's TCP-only settings);
#   - the bandwidth at the largest message and r_inf are within 80% to 115%
#     of the rate: not a burst at line speed (hundreds of MB/s) nor shared
#     memory; the loopback's TCP stalls for 8-20 ms now and then under tbf,
#     which keeps a 2 MiB ping-pong at 84-91% of the rate (four runs at
#     load 5-9, docs/BENCHMARKS.md);
#   - the LogGOPS model found the token bucket: rate within 15% of the link's,
#     burst between half and one and a half times 64 KiB, and both
#     directions share it (network = bus); and what a message costs it
#     beyond its payload (wire_bytes, 30 to 300 bytes), and what a message sent one way costs it more
#     (oneway_bytes, 0 to wire_bytes), the one-way stream's send calls (o_s_oneway), and what a message
#     written behind a backlog in the shaper costs (merged_bytes, 0 to wire_bytes, and its two calls);
#   - the probe kept nearer its budget: the rounds after the first took the slow sizes and the exchange
#     of both directions only as often as their budget holds (at 20 Mbit/s 26 s before, 17 s after,
#     budget 13 s, docs/PROBE.md), and said why when still over it: the slow link.
set -u
json=$1 ini=$2 mbit=${3:-100}
python3 - "$json" "$ini" "$mbit" << 'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
ini = open(sys.argv[2]).read()
pp, lg = d["pingpong"], d["loggops"]
nominal, bucket = float(sys.argv[3]) * 1e6 / 8, 65536
ok = True
def check(name, good, text):
    global ok
    ok &= good
    print("%-28s %s%s" % (name, text, "" if good else "  <- wrong"))
check("latency (1 B)", pp["latency"] > 2e-6, "%.2f us (shared memory: 0.3 us)" % (pp["latency"] * 1e6))
last = pp["sizes"][-1]
for name, v, low in (("bandwidth at %d B" % last["bytes"], last["bytes"] / last["time"], 0.80),
                     ("r_inf", pp["hockney"]["r_inf"], 0.80), ("bucket rate", lg["rate"], 0.85)):
    check(name, low * nominal <= v <= 1.15 * nominal, "%.2f MB/s (%.0f%% of %.4g)" % (v / 1e6, 100 * v / nominal,
                                                                                nominal / 1e6))
check("shaped", lg["shaped"] is True, str(lg["shaped"]))
check("bucket burst", 0.5 * bucket <= lg["burst"] <= 1.5 * bucket, "%.0f B (tbf: 65536)" % lg["burst"])
check("model", "network = bus" in ini and "\nrate = 0\n" not in ini, "network = %s" % d["model"]["network"])
# what a message costs the bucket beyond its payload: TCP/IP's headers on the loopback (66 bytes with
# timestamps) and the answer's share: 87.7-88.8 bytes at 10, 20 and 100 Mbit/s (docs/BENCHMARKS.md)
w = lg.get("wire_bytes")
check("wire bytes", isinstance(w, (int, float)) and 30 <= w <= 300 and "\nwire_bytes = " in ini,
      "%s bytes a message" % ("%.1f" % w if isinstance(w, (int, float)) else "none"))
# what a message sent one way costs it more (its receiver's acknowledgements, from a one-way stream that
# waited for tokens): measured, between none (a stream that TCP merged: 16 us a message at 20 Mbit/s,
# against 42 us for its payload and wire bytes) and a whole wire's worth, and in the model where above none
o, ot = lg.get("oneway_bytes"), lg.get("oneway_seconds")
check("one-way bytes", isinstance(o, (int, float)) and isinstance(w, (int, float)) and 0 <= o <= w and ot > 0
      and (("\noneway_bytes = " in ini) == (o > 0)),
      "%s bytes more, %s us a message" % ("%.1f" % o if isinstance(o, (int, float)) else "none",
                                          "%.1f" % (ot * 1e6) if isinstance(ot, (int, float)) else "none"))
# the one-way stream's send calls (o_s_oneway, in the model), and a small message written behind a backlog
# in the shaper, which TCP sends with the next ones as one segment: its bytes beyond its payload (between
# none and a whole wire's worth; 24.8 at 100 Mbit/s), its two calls (0.28 and 0.085 us there), in the model
oc = lg.get("oneway_send_seconds")
check("one-way send calls", isinstance(oc, (int, float)) and 0 < oc < 1e-3 and "\no_s_oneway = " in ini,
      "%s us a call" % ("%.1f" % (oc * 1e6) if isinstance(oc, (int, float)) else "none"))
m, ms, mr = lg.get("merged_bytes"), lg.get("o_s_merged"), lg.get("o_r_merged")
num = lambda x: isinstance(x, (int, float))
check("merged messages", num(m) and num(w) and 0 <= m <= w and num(ms) and 0 <= ms < 1e-3 and num(mr)
      and 0 <= mr < 1e-3 and (("\nmerged_bytes = " in ini) == (m > 0)),
      "%s bytes beyond the payload, calls %s and %s us" % ("%.1f" % m if num(m) else "none",
                                                         "%.2f" % (ms * 1e6) if num(ms) else "-",
                                                         "%.2f" % (mr * 1e6) if num(mr) else "-"))
# the quick budget on a slow link (its ping-pong: 1.4 s a round, scaled by the round's budget_scale): the
# rounds after the first take each slow size (a power of two above the first size whose round trip
# exceeded 20 ms) as many times as that budget holds by the first round's round trips, from one to
# three, and measure the exchange of both directions only when three of the best so far fit it; the
# ratio above comes from the rounds that measured one
rounds = d["raw"]["rounds"]
first = rounds[0]["pingpong"]
rt = {x["bytes"]: 2 * min(x["samples"]) for x in first}
over = [b for b in sorted(rt) if rt[b] > 20e-3]
slow = [b for b in sorted(rt) if over and b > over[0]]
total = sum(rt[b] for b in slow)
bad = []
best = None
for k, r in enumerate(rounds):
    budget = 1.4 * r["budget_scale"]
    if k and total:
        want = max(1, min(3, math.floor(budget / total)))
        got = {x["bytes"]: len(x["samples"]) for x in r["pingpong"] if x["bytes"] in slow}
        bad += [(k, b, n, want) for b, n in got.items() if n != want]
    if k and best is not None and ("duplex" in r) != (3 * best <= budget):
        bad.append((k, "exchange", "duplex" in r, 3 * best, budget))
    if "duplex" in r:
        best = r["duplex"]["exchange"] if best is None else min(best, r["duplex"]["exchange"])
check("later rounds kept the budget", bool(slow) and not bad,
      "slow sizes %s, first round's round trips %.2f s; %s" % (slow, total, bad or "as the budget holds"))
# over its budget, the first warning names the slow link as the cause, not the machine's speed
el, bud = d["params"]["elapsed"], d["params"].get("budget_seconds", 0)
w0 = d["warnings"][0] if d["warnings"] else ""
check("over budget: the cause", not (bud and el > bud) or (w0.startswith("the measurement took") and
      "the link is slow (a round trip of" in w0), "%.1f s of %.2f s%s" % (el, bud, ": " + w0 if el > bud else ""))
exch = [r for r in rounds if "duplex" in r]
check("exchanges measured", len(exch) >= 1 and len(d["duplex"]["round_ratios"]) == len(exch),
      "in %d of %d rounds" % (len(exch), len(rounds)))
sys.exit(0 if ok else 1)
PY
