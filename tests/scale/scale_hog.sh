#!/usr/bin/env bash
# 'parscope scale clue --max-ranks 2 --trials 3' beside a CPU hog (one busy
# loop per core, as a user's busy machine has): every conclusion carries its
# effect, noise and verdict, a finding's effect exceeds its noise, no two
# findings contradict each other, nothing claims that node order matters
# with every rank on one host, and a rank's user time over the timed
# interval is at most the execution time plus its noise.  A 512 x 512 grid
# per rank and 40 iterations (tens of ms, well above the clock tick of the
# user-time figure) keep the 48 runs under a minute beside the hog
# (the default grid takes minutes); the conclusions are drawn the same way.
# usage: scale_hog.sh PARSCOPE
set -u
ps=$(realpath "$1") || exit 1
dir=$(mktemp -d)
hogs=()
# the hogs end by themselves (timeout) and are killed here whatever happens
cleanup() {
  for p in "${hogs[@]}"; do kill "$p" 2> /dev/null; done
  for p in "${hogs[@]}"; do wait "$p" 2> /dev/null; done
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
cd "$dir"
for _ in $(seq "$(nproc)"); do
  timeout 900 sh -c 'while :; do :; done' &
  hogs+=($!)
done

"$ps" scale clue --max-ranks 2 --trials 3 --grid 512x512 -i 40 -o hog > hog.out 2> hog.err
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL: scale beside the hog: rc $rc: $(tail -5 hog.err)"
  exit 1
fi
python3 - hog/scale.json hog.out <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
fails = []
cs = d["conclusions"]
if not cs:
    fails.append("no conclusions")
for c in cs:
    if not {"id", "text", "effect", "noise", "verdict"} <= set(c):
        fails.append("a conclusion without effect, noise or verdict: %s" % c)
        continue
    if c["verdict"] not in ("finding", "within-noise", "untestable"):
        fails.append("verdict %r" % c["verdict"])
    if c["verdict"] == "finding" and not (c["effect"] is not None and c["noise"] is not None
                                          and abs(c["effect"]) > c["noise"]):
        fails.append("a finding within its noise: %s" % c)
    if c["verdict"] != "finding" and "cannot tell" not in c["text"]:
        fails.append("not a finding, yet the text does not say so: %s" % c["text"])
# conclusions that cannot both hold (src/scale/conclude.c, ps_scale_exclusive)
found = {c["id"] for c in cs if c.get("verdict") == "finding"}
for a, b in (("network-limited", "floating-point-limited"), ("cost-effective", "not-cost-effective"),
             ("node-order-sensitive", "node-order-untestable")):
    if a in found and b in found:
        fails.append("contradiction: %s and %s" % (a, b))
# one host: node order cannot be tested, and nothing says it matters
hosts = {p["placement"]["host"] for p in d["points"] if p.get("placement")}
if len(hosts) != 1:
    fails.append("expected one host, got %s" % hosts)
if "node-order-sensitive" in found:
    fails.append("node order claimed to matter on one host")
nodeorder = [c for c in cs if c["id"].startswith("node-order")]
if not nodeorder or any(c["verdict"] == "finding" and c["id"] != "node-order-untestable" for c in nodeorder):
    fails.append("node order: %s" % nodeorder)
for line in text.splitlines():
    if "order matters" in line and "cannot tell" not in line:
        fails.append("the text says node order matters: " + line.strip())
# the machine was busy, and the document says so
m = d["noise"]["machine"]
if m["level"] == "quiet":
    fails.append("a machine with a busy loop per core measured as quiet: %s" % m)
# process metrics over the timed interval: each rank's user time within the
# execution time plus the point's noise (its best two trials' gap) and the
# 0.1 ms the counters are read outside the clock's readings
for p in d["points"]:
    ps_ = p.get("procstats")
    if not ps_ or p.get("time_s") is None:
        continue
    if "timed" not in ps_.get("interval", ""):
        fails.append("process metrics not over the timed interval: %s" % ps_.get("interval"))
        break
    t = p["time_s"]
    u = p["time"].get("uncertainty") or 0
    limit = t * (1 + u) + 1e-4
    if ps_["user_s"]["max"] > limit:
        fails.append("%s P=%d: user %.4f s > time %.4f s + noise %.0f%% + tick" %
                     (p["variation"], p["params"]["ranks"], ps_["user_s"]["max"], t, 100 * u))
for f in fails:
    print("FAIL:", f)
ratio = max((p["procstats"]["user_s"]["max"] / p["time_s"] for p in d["points"]
             if p.get("procstats") and p.get("time_s")), default=float("nan"))
others = m.get("during", {}).get("others_busy_pct")
print("checked %d conclusions (%d findings), %d points; machine %s (load %s before, others %s during); "
      "largest user time / execution time %.2f" % (len(cs), len(found), len(d["points"]), m["level"],
      m["before"].get("load1"), "%.0f%%" % others if isinstance(others, (int, float)) else "unknown", ratio))
sys.exit(1 if fails else 0)
PY
