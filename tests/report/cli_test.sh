#!/usr/bin/env bash
# cli_test.sh PARSCOPE TESTDIR - 'parscope run fingerprint -n 4 --trace T', then
# export (OTF2 read back by otf2-print, Perfetto, CSV) and report, every count
# against the result sheet; then every bad input: exit 2, a message naming it,
# nothing written.
set -u
PS=$1
HERE=$2
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }

"$PS" run fingerprint -n 4 --trace T -o T/result.json -q || fail "run fingerprint"
SENT=$(python3 -c 'import json; print(json.load(open("T/result.json"))["sheet"]["messages_sent"])')
[ "$SENT" -gt 0 ] || fail "no messages in the sheet"
# 4 ranks: 3 multi-broadcasts x 4 x 3 messages, 5 visible syncs x 4 ring messages at least
[ "$SENT" -ge 56 ] || fail "fingerprint sheet counts $SENT messages, expected at least 56"

# the seed's sheet: ParaGraph's queue (every node sends all its messages before
# receiving any, so messages wait in queues), the headline with the
# multi-broadcasts' sizes, the hardware with the interconnect
python3 - <<'PY' || fail "the fingerprint's result sheet"
import json
d = json.load(open("T/result.json"))
assert d["schema"] == 1, d.get("schema")
q = d["sheet"]["queue"]
assert q["max"] >= 1 and q["avg"] > 0, q
assert max(r["max_queue"] for r in d["ranks"]) == q["max"] >= 1
assert d["problem"] == "fingerprint(1,500,1000)", d["problem"]
assert d["hardware"]["interconnect"]["type"] == "shared memory (one host)", d["hardware"]
assert d["hardware"]["hosts"] and d["hardware"]["cores"] >= 1
s = {c["construct"]: c for c in d["structure"]}
assert [c["values"] for c in s["MULTIBCAST0"]["calls"]] == [[1], [500], [1000]], s["MULTIBCAST0"]
assert s["VISIBLE_SYNC"]["calls"][0]["count"] == 5
# one name for the processor: the launching host's (machine) and the ranks' (hardware) from one source
if d.get("machine", {}).get("cpu") and d["hardware"].get("cpu"):
    assert d["machine"]["cpu"] == d["hardware"]["cpu"], (d["machine"]["cpu"], d["hardware"]["cpu"])
PY
"$PS" run fingerprint -n 4 > sheet.txt || fail "run fingerprint (sheet)"
for want in '^  fingerprint(1,500,1000)$' '^Hardware$' '^  Network: *shared memory (one host)$' \
            '^  Structure: *VISIBLE_SYNC() x5; SCALPROD(100) x100; MULTIBCAST0(1), (500), (1000)$' \
            '^  Message queue length: *max [1-9]'; do
    grep -q "$want" sheet.txt || fail "the text sheet has no line '$want': $(head -20 sheet.txt)"
done

# OTF2: otf2-print reads it; the fingerprint's sends are isends, its receives
# blocking: as many of each as the sheet counts messages (otf2_records.sh
# checks every record kind)
"$PS" export T --format otf2 -q || fail "export otf2"
[ -f T/trace.otf2/traces.otf2 ] || fail "no OTF2 anchor file"
otf2-print T/trace.otf2/traces.otf2 > print.txt 2> print.err || fail "otf2-print: $(head -3 print.err)"
[ -s print.err ] && fail "otf2-print warned: $(head -3 print.err)"
N=$(grep -c '^MPI_ISEND ' print.txt)
[ "$N" = "$SENT" ] || fail "OTF2 has $N MPI isends, the sheet $SENT messages"
N=$(grep -c '^MPI_RECV ' print.txt)
[ "$N" = "$SENT" ] || fail "OTF2 has $N MPI receives, the sheet $SENT messages"
otf2-print -G T/trace.otf2/traces.otf2 | grep -q 'COMM .*MPI_COMM_WORLD' || fail "no communicator definition"
otf2-print -G T/trace.otf2/traces.otf2 | grep -q 'CLOCK_PROPERTIES .*Ticks per Seconds: 1000000000' || fail "no clock properties"
[ "$(otf2-print -G T/trace.otf2/traces.otf2 | grep -c '^LOCATION ')" = 4 ] || fail "not one location per rank"
# exporting again is refused (2), and replaces the archive with --force
"$PS" export T --format otf2 -q 2> /dev/null; [ $? = 2 ] || fail "second export otf2 without --force not refused"
"$PS" export T --format otf2 -q --force || fail "second export otf2 --force"
# a directory holding an archive beside other files (a Score-P experiment: profile, configuration) is
# not replaced, even with --force: nothing in it is lost
mkdir -p exp && cp -r T/trace.otf2/. exp/ && echo cube > exp/profile.cubex && echo cfg > exp/scorep.cfg
"$PS" export T --format otf2 -o exp --force > exp.out 2>&1; [ $? = 2 ] || fail "export otf2 --force over an experiment directory not refused"
grep -q "exp: exists and is not an OTF2 archive alone (.*): refusing to replace" exp.out || fail "experiment directory: $(cat exp.out)"
[ -f exp/profile.cubex ] && [ -f exp/scorep.cfg ] && [ -f exp/traces.otf2 ] || fail "export otf2 --force deleted files beside the archive"
rm exp/profile.cubex exp/scorep.cfg && echo x > exp/traces/notes.txt
"$PS" export T --format otf2 -o exp --force > exp.out 2>&1; [ $? = 2 ] || fail "a file among the archive's traces/ not refused"
grep -q "(traces/notes.txt)" exp.out && [ -f exp/traces/notes.txt ] || fail "traces/notes.txt: $(cat exp.out)"
rm exp/traces/notes.txt
"$PS" export T --format otf2 -o exp --force -q || fail "export otf2 --force over an archive alone"

# a predicted trace exports as a measured one does: its barriers (the simulator's empty messages up a
# binary tree and back, the runtime's tag) are MPI_Barrier collectives, not MPI sends with tag
# 4294967294, so the export's point-to-point messages are the sheet's; the archive and Perfetto's
# otherData say it is predicted, and on which model; the clock's length is the run's
"$PS" predict fingerprint -m sp2 -n 4 --trace PT -o PT/p.json -q > /dev/null || fail "predict --trace"
"$PS" export PT --format otf2 -q || fail "export otf2 of a prediction"
otf2-print PT/trace.otf2/traces.otf2 > ppr.txt 2> ppr.err || fail "otf2-print of a prediction"
PSENT=$(python3 -c 'import json; print(json.load(open("PT/p.json"))["sheet"]["messages_sent"])')
N=$(grep -c '^MPI_ISEND \|^MPI_SEND ' ppr.txt); [ "$N" = "$PSENT" ] || fail "predicted OTF2: $N sends, the sheet $PSENT messages"
N=$(grep -c '^MPI_RECV \|^MPI_IRECV ' ppr.txt); [ "$N" = "$PSENT" ] || fail "predicted OTF2: $N receives, the sheet $PSENT"
grep -q 4294967294 ppr.txt && fail "predicted OTF2 carries the runtime's tag as an MPI tag"
# fingerprint: 5 visible syncs and the run's end, on each of 4 ranks, as the measured archive above
NB=$(grep -c 'MPI_COLLECTIVE_END .*Operation: BARRIER' ppr.txt); MB=$(grep -c 'MPI_COLLECTIVE_END .*Operation: BARRIER' print.txt)
[ "$NB" = "$MB" ] && [ "$NB" -ge 20 ] || fail "predicted OTF2: $NB barriers, the measured archive $MB"
otf2-print -A PT/trace.otf2/traces.otf2 | grep -q 'Description .*predicted by the simulator on the model IBM SP2' ||
    fail "the predicted archive does not say it is predicted: $(otf2-print -A PT/trace.otf2/traces.otf2 | head -20)"
LEN=$(otf2-print -G PT/trace.otf2/traces.otf2 | sed -n 's/.*Length: \([0-9]*\).*/\1/p')
python3 - "$LEN" <<'PY' || fail "the predicted archive's length is not the run's"
import json, sys
t = json.load(open("PT/p.json"))["time"]["min"]
assert abs(int(sys.argv[1]) - round(t * 1e9)) <= 2, (sys.argv[1], t)
PY
"$PS" export PT --format perfetto -o pt.json -q || fail "export perfetto of a prediction"
python3 -c '
import json; o = json.load(open("pt.json"))["otherData"]
assert o["kind"] == "predicted" and o["machine_model"].startswith("IBM SP2") and o["events_lost"] == 0, o' ||
    fail "Perfetto otherData of a prediction"

# the predicted trace alone is reported as a prediction: its kind, the machine model, no trials
"$PS" report PT/trace.pst -o ptrace.html -q || fail "report of a predicted trace"
python3 - ptrace.html <<'PY' || fail "the report of a predicted trace reads as a measured one"
import re, sys, html
s = open(sys.argv[1]).read()
for tag in ("script", "style", "svg"):
    s = re.sub(r"<%s.*?</%s>" % (tag, tag), "", s, flags=re.S)
t = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", s)))
assert "Kind prediction (simulated)" in t, t[:600]
assert "Machine model" in t and " Hardware " not in t and "Trials" not in t, t[:1500]
PY

# a trace that lost events to full buffers exports with a warning (even -q) and says so inside
sed 's/TRACE_BUF_SIZE 250000/TRACE_BUF_SIZE 50/' "$HERE/../../workloads/fingerprint.loop" > smallbuf.loop
"$PS" run smallbuf.loop -n 2 --trace SB -o SB/r.json -q > /dev/null 2>&1 || fail "run with a small trace buffer"
LOST=$(python3 -c 'import json; print(json.load(open("SB/r.json"))["sheet"]["events_dropped"])')
[ "$LOST" -gt 0 ] || fail "a 50-byte trace buffer lost no events"
for f in otf2 perfetto csv; do
    "$PS" export SB --format $f -q 2> sb.err || fail "export $f of a trace that lost events"
    grep -q "warning: SB/trace.pst lost $LOST events to full trace buffers .*the export is incomplete" sb.err ||
        fail "export $f: no warning of the lost events: $(cat sb.err)"
done
otf2-print -A SB/trace.otf2/traces.otf2 | grep -q "Description .*INCOMPLETE: events lost to full trace buffers: $LOST" ||
    fail "the OTF2 archive does not say it lost events"
python3 -c '
import json, sys; o = json.load(open("SB/trace.perfetto.json"))["otherData"]
assert o["kind"] == "measured" and o["events_lost"] == int(sys.argv[1]) and "incomplete" in o["warning"], o' "$LOST" ||
    fail "Perfetto otherData of a trace that lost events"

# Perfetto: parses, one lane per rank, one flow pair per message
"$PS" export T --format perfetto -o t.json -q || fail "export perfetto"
python3 - "$SENT" <<'PY' || fail "perfetto JSON"
import json, sys
sent = int(sys.argv[1])
ev = json.load(open("t.json"))["traceEvents"]
s = [e["bind_id"] for e in ev if e.get("flow_out")]
f = [e["bind_id"] for e in ev if e.get("flow_in")]
lanes = {e["tid"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
assert len(s) == sent and sorted(s) == sorted(f), (len(s), len(f), sent)
assert len(set(s)) == sent
assert lanes == {0, 1, 2, 3}, lanes
assert min(e["ts"] for e in ev if e["ph"] == "X") >= 0
PY
# CSV: one line per event; as many send lines as messages
"$PS" export T --format csv -o - > t.csv || fail "export csv"
[ "$(head -1 t.csv | cut -d, -f1-3)" = "rank,index,kind" ] || fail "csv header"
N=$(awk -F, '$3 == "send"' t.csv | wc -l)
[ "$N" = "$SENT" ] || fail "CSV has $N sends, the sheet $SENT"

# report: the sheet and one arrow per message, the five VISIBLE_SYNC lines
"$PS" report T/result.json -o r.html -q || fail "report"
python3 "$HERE/check_svg.py" r.html --arrows "$SENT" --exact --syncs 5 --diagrams 1 --min-svgs 6 || fail "report pictures"
python3 "$HERE/check_page.py" r.html || fail "the run's report does not read top-down"
grep -q 'Percent processors busy' r.html || fail "no result sheet in the report"
grep -q 'Statistics' r.html || fail "no statistics page"
# a directory of results: its report.html by default
"$PS" report T -q || fail "report of a directory"
python3 "$HERE/check_svg.py" T/report.html --arrows "$SENT" --diagrams 1 || fail "directory report"

# a probe (stored document): the ping-pong and h-relation plots with their fits;
# then a directory holding a probe and a run: both, probe first
"$PS" report "$HERE/data/probe.json" -o p.html -q || fail "report of a probe"
python3 "$HERE/check_svg.py" p.html --diagrams 0 --min-svgs 3 || fail "probe report pictures"
grep -q 'Hockney fit' p.html && grep -q 'least squares over' p.html || fail "probe report without its fits"
cp "$HERE/data/probe.json" T/probe.json
"$PS" report T -o both.html -q || fail "report of a directory with a probe and a run"
# the documents' sections, after the page's own (summary, contents)
grep -o '<h2>[^<]*' both.html | grep -v '<h2>Summary\|<h2>Contents' | head -2 | tr '\n' '|' > h2.txt
grep -q '^<h2>Machine probe.*|<h2>Run: fingerprint, 4 ranks|$' h2.txt || fail "directory sections: $(cat h2.txt)"
python3 "$HERE/check_svg.py" both.html --arrows "$SENT" --diagrams 1 --min-svgs 9 || fail "directory report pictures"

# a bare stored trace: its sheet and pictures, every name from it escaped
"$PS" report "$HERE/golden/small.pst" -o s.html -q || fail "report of a trace"
python3 "$HERE/check_svg.py" s.html --arrows 6 --exact --syncs 2 --diagrams 1 || fail "trace report pictures"
grep -q 'synthetic &lt;small&gt;' s.html || fail "workload name not escaped"
grep -q '<small>' s.html && fail "raw markup from the trace in the page"

# one rank: no messages, still the five sync lines
"$PS" run fingerprint -n 1 --trace T1 -o T1/result.json -q || fail "run fingerprint -n 1"
"$PS" report T1/result.json -o r1.html -q || fail "report of one rank"
python3 "$HERE/check_svg.py" r1.html --arrows 0 --syncs 5 --diagrams 1 || fail "one-rank report pictures"

# ---- bad inputs: exit 2, a message naming the input, nothing written ----
expect2() { # expect2 NEEDLE CMD...
    local needle=$1; shift
    "$@" > out.txt 2> err.txt
    local rc=$?
    [ $rc = 2 ] || fail "'$*' exited $rc, expected 2"
    grep -qF -- "$needle" err.txt || fail "'$*' did not name '$needle': $(cat err.txt)"
}
expect2 "no/such" "$PS" export no/such --format csv
expect2 "xml" "$PS" export T --format xml
expect2 "--format" "$PS" export T
expect2 "--bogus" "$PS" export T --format csv --bogus
mkdir keep && echo precious > keep/file
expect2 "keep" "$PS" export T --format otf2 -o keep
[ "$(cat keep/file)" = precious ] && [ "$(ls keep)" = file ] || fail "export touched a directory that is not an archive"
echo '{"kind": "run", "workload": ' > bad.json
expect2 "bad.json:" "$PS" report bad.json -o bad.html
grep -qE 'bad\.json:[0-9]+:[0-9]+: ' err.txt || fail "no line:column for bad JSON: $(cat err.txt)"
[ -e bad.html ] && fail "a failed report left a file"
echo '[1, 2]' > notours.json
expect2 "notours.json" "$PS" report notours.json -o bad.html
expect2 "missing.json" "$PS" report missing.json -o bad.html
mkdir empty
expect2 "empty" "$PS" report empty -o bad.html
head -c 100 T/trace.pst > cut.pst
expect2 "cut.pst" "$PS" report cut.pst -o bad.html
expect2 "cut.pst" "$PS" export cut.pst --format perfetto -o cut.json
[ -e bad.html ] || [ -e cut.json ] && fail "a failed command left a file"
expect2 "--nope" "$PS" report T --nope
"$PS" report --help | grep -q 'usage: parscope report' || fail "report --help"
"$PS" export --help | grep -q 'usage: parscope export' || fail "export --help"
echo "cli_test: all checks passed ($SENT messages)"
