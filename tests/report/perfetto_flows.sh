#!/usr/bin/env bash
# perfetto_flows.sh PARSCOPE - fingerprint, cg and mmm_a at 4 ranks exported to
# Perfetto: one flow per message of the sheet, each from a zero-length anchor at
# its send's start to one at its receive's end (the space-time diagram's arrow),
# so no flow ends before it starts; each anchor sits where its send slice starts
# or its receive slice ends on the right lane.
set -u
PS=$1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
for w in fingerprint cg mmm_a; do
    "$PS" run $w -n 4 --trace $w -o $w/result.json -q || fail "run $w"
    "$PS" export $w --format perfetto -o $w.json -q || fail "export $w"
    python3 - "$w" <<'PY' || fail "$w: perfetto flows"
import json, sys
w = sys.argv[1]
sent = json.load(open(w + "/result.json"))["sheet"]["messages_sent"]
ev = json.load(open(w + ".json"))["traceEvents"]
out = {e["bind_id"]: e for e in ev if e.get("flow_out")}
inn = {e["bind_id"]: e for e in ev if e.get("flow_in")}
assert len(out) == sent and set(out) == set(inn), (w, len(out), len(inn), sent)
# the slices the anchors stand for: sends start, receives end, at the anchor's instant
starts = {(e["tid"], e["ts"]) for e in ev if e["ph"] == "X" and e.get("cat") == "send"}
ends = {(e["tid"], round(e["ts"] + e["dur"], 3)) for e in ev if e["ph"] == "X" and e.get("cat") == "recv"}
backwards = 0
for i, o in out.items():
    f = inn[i]
    assert o["dur"] == 0 and f["dur"] == 0
    assert (o["tid"], o["ts"]) in starts, ("no send starts at", o)
    assert (f["tid"], round(f["ts"], 3)) in ends, ("no receive ends at", f)
    assert o["args"]["to"] == f["tid"] and f["args"]["from"] == o["tid"], (o, f)
    if f["ts"] < o["ts"]:
        backwards += 1
print("%s: %d messages, %d flows, %d end before they start" % (w, sent, len(out), backwards))
assert backwards == 0
PY
done
echo "perfetto_flows: all checks passed"
