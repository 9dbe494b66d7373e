#!/usr/bin/env bash
# probe_test.sh PARSCOPE BINDIR RT_PROGRAM - parscope probe on 3 ranks over
# two nodes joined by 100 Mbit/s links (12.5 MB/s each way; TCP carries about
# 95% of it as payload), ranks 0 and 2 on node0: the bandwidth at the largest
# message, the sustained rate and r_inf are within 15% of 12.5 MB/s, though
# the links' token buckets pass short messages at line speed (a line through
# every size claimed hundreds of MB/s); the model is a star of 2 nodes with
# that link rate and a ping-pong within a node (ranks 0 and 2) faster than
# the one between nodes, and it says the nodes share this machine's processors.
. "$(dirname "$0")/common.sh"
need_root
mkwork

t0=$(date +%s.%N)
if "$PS" emulate -q -N 2 --cores-per-node 2 --link 100mbit -- "$PS" probe --quick -n 3 --timeout 240 -q -o m.ini --json m.json \
    > probe.out 2>&1; then
    pass
else
    fail "probe inside emulate -N 2 --cores-per-node 2 --link 100mbit failed:"; sed 's/^/    /' probe.out | tail -20
fi
if [ -s m.json ]; then
    python3 - m.json m.ini << 'PY' && pass || fail "the probe's figures (above)"
import json, os, sys
d = json.load(open(sys.argv[1]))
pp = d["pingpong"]; hk = pp["hockney"]; last = pp["sizes"][-1]
nominal = 12.5e6
figs = {"bandwidth at %d B" % last["bytes"]: last["bytes"] / last["time"],
        "sustained bandwidth": pp["sustained_bandwidth"], "r_inf": hk["r_inf"]}
ok = True
for k, v in figs.items():
    good = 0.85 * nominal <= v <= 1.15 * nominal
    ok &= good
    print("%-24s %7.2f MB/s (%.0f%% of 12.5 MB/s)%s" % (k, v / 1e6, 100 * v / nominal, "" if good else "  <- out of band"))
word = [l for l in open(sys.argv[2]) if l.startswith("word_time")]
wt = float(word[0].split("=")[1]) if word else 0
good = abs(8 / wt - hk["r_inf"]) <= 1e-6 * hk["r_inf"] if wt > 0 else False
print("model word_time %.3g s (8 / r_inf: %s)" % (wt, "yes" if good else "NO"))
ok &= good
hosts = d["params"]["hosts"]
print("hosts", hosts)
ok &= hosts == ["node0", "node1", "node0"]
model, po = d["model"], d.get("pingpong_other", {})
good = model["network"] == "star" and model["nodes"] == 2 and model["pingpong_between"] == "nodes" and \
    abs(model["link_rate"] - hk["r_inf"]) <= 1e-9 * hk["r_inf"]
print("model: network %s, %s nodes, ping-pong between %s, link %.2f MB/s; both ways at once %s times one way (rounds %s)" % (
      model["network"], model["nodes"], model["pingpong_between"], model.get("link_rate", 0) / 1e6,
      d.get("duplex", {}).get("ratio"), d.get("duplex", {}).get("round_ratios")))
ok &= good
ini = open(sys.argv[2]).read()
good = po.get("partner") == 2 and po.get("between") == "ranks of one node" and po["latency"] < pp["latency"] and \
    "[pingpong_intra]" in ini and "network = star" in ini and "nodes = 2" in ini
print("within a node: latency %.2f us against %.2f us between nodes; [pingpong_intra] %s" % (
    po.get("latency", 0) * 1e6, pp["latency"] * 1e6, "written" if "[pingpong_intra]" in ini else "MISSING"))
ok &= good
# the two nodes are this machine's: the model says they share its processors
good = model.get("processors") == os.cpu_count() and "processors = %d\n" % os.cpu_count() in ini
print("processors shared by the nodes: %s (this machine: %d)" % (model.get("processors"), os.cpu_count()))
ok &= good
sys.exit(0 if ok else 1)
PY
fi
t1=$(date +%s.%N)
echo "probe test took $(python3 -c "print('%.1f' % ($t1 - $t0))") s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
finish
