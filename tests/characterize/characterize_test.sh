#!/usr/bin/env bash
# characterize_test.sh PARSCOPE - the main job's faults: a second run into the
# same directory, an unusable output, interruption, a full disk; each checks
# the files left behind.
set -u
ps=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
ok()   { passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# usage errors
"$ps" characterize -n 1 -o "$tmp/one" > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "\-n 1: the probe's ping-pong and the sweep need at least 2 ranks" "$tmp/out" && [ ! -e "$tmp/one" ] && ok ||
  fail "characterize -n 1: $rc $(cat "$tmp/out")"
"$ps" characterize --steps bogus -o "$tmp/x" > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "unknown step 'bogus'" "$tmp/out" && ok || fail "bad --steps: $rc $(cat "$tmp/out")"
"$ps" characterize --budget 5 -o "$tmp/x" > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q -- "--budget: '5'" "$tmp/out" && ok || fail "bad --budget: $rc"
[ ! -e "$tmp/x" ] && ok || fail "a usage error left $tmp/x behind"
touch "$tmp/afile"
"$ps" characterize -o "$tmp/afile/sub" --steps fingerprint > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "afile" "$tmp/out" && ok || fail "output under a file: $rc $(cat "$tmp/out")"

# a run of one step: summary, report, step log
"$ps" characterize -n 2 -o "$tmp/c1" --steps fingerprint -q > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 0 ] || fail "fingerprint-only characterize: status $rc: $(tail -5 "$tmp/out")"
for f in summary.json report.html fingerprint.json fingerprint/trace.pst steps.ndjson logs/fingerprint.log; do
  [ -s "$tmp/c1/$f" ] && ok || fail "c1/$f missing"
done
python3 - "$tmp/c1/summary.json" <<'PY' && ok || fail "summary content"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["kind"] == "characterize" and s["fingerprint"]["ranks"] == 2, s.get("fingerprint")
assert set(s["missing"]) == {"probe", "scale", "predict"}, s["missing"]
assert s["fingerprint"]["time_s"] > 0
PY
grep -q 'id="summary"' "$tmp/c1/report.html" && ok || fail "report has no summary section"

# a second run into the same directory is refused and changes nothing
before=$(stat -c %Y "$tmp/c1/summary.json")
"$ps" characterize -o "$tmp/c1" --steps fingerprint > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "holds earlier results" "$tmp/out" && ok || fail "second run not refused: $rc"
[ "$(stat -c %Y "$tmp/c1/summary.json")" = "$before" ] && ok || fail "second run touched the first's results"
"$ps" characterize -n 2 -o "$tmp/c1" --steps fingerprint --force -q > "$tmp/out" 2>&1 && ok || fail "--force: $(tail -3 "$tmp/out")"

# SIGINT during the sweep: partial summary and report, what is missing is said, status 130
"$ps" characterize -n 2 -o "$tmp/c2" --steps fingerprint,scale -q > "$tmp/out2" 2>&1 &
pid=$!
for _ in $(seq 1 300); do [ -e "$tmp/c2/logs/scale.log" ] && break; sleep 0.1; done
sleep 1
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] && ok || fail "interrupted characterize: status $rc"
grep -q "interrupted; the summary and report hold what was measured" "$tmp/out2" && ok || fail "no interruption message"
python3 - "$tmp/c2/summary.json" <<'PY' && ok || fail "interrupted summary"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["interrupted"] is True
assert "fingerprint" in s and s["fingerprint"]["time_s"] > 0
assert "scale" in s["missing"] or not s.get("scale", {}).get("complete", False)
PY
[ -s "$tmp/c2/report.html" ] && ok || fail "no partial report"
grep -Eq '"step": ?"fingerprint", ?"status": ?0' "$tmp/c2/steps.ndjson" && ok || fail "steps.ndjson lacks the finished step"

# a full disk: a clear message naming the file, non-zero status, what was written stays
if unshare -m true 2>/dev/null; then
  mkdir -p "$tmp/full"
  unshare -m bash -c "mount -t tmpfs -o size=24k tmpfs '$tmp/full' && '$ps' characterize -n 2 -o '$tmp/full/c' --steps fingerprint -q; echo \"rc=\$?\"; cat '$tmp/full/c/steps.ndjson'" > "$tmp/out3" 2>&1
  grep -q "rc=[12]" "$tmp/out3" && ok || fail "full disk: $(cat "$tmp/out3")"
  grep -Eq "No space left|write failed|cannot write" "$tmp/out3" && ok || fail "full disk: no clear message: $(cat "$tmp/out3")"
  grep -Eq '"event": ?"start"' "$tmp/out3" && ok || fail "full disk: steps.ndjson lost"
fi
echo "characterize: $passes passed, $fails failed"
[ $fails -eq 0 ]
