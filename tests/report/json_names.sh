#!/usr/bin/env bash
# json_names.sh PARSCOPE TESTDIR - a workload and a machine model whose names hold
# quotes and a backslash (lab "fast" box\x): every JSON parscope writes stays
# valid and keeps the name exactly (the trace's metadata, the result, the
# Perfetto export), and the report shows it escaped.  Open MPI refuses such a
# host name, so hosts are checked in the unit tests (test_out.c).
set -u
PS=$1
HERE=$2
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
NAME='lab "fast" box\x'

# the trace's metadata, read from the file as TRACE_FORMAT.md lays it out
cat > meta.py <<'PY'
import json, struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"PSTRACE\0"
version, nranks, ncons, metalen = struct.unpack_from("<IIII", b, 8)
off = 24
for _ in range(ncons):
    (l,) = struct.unpack_from("<H", b, off)
    off += 2 + l
meta = json.loads(b[off:off + metalen].decode())
assert version == 4, version
print(json.dumps(meta))
PY
check() { # check FILE KEY... EXPECTED: FILE parses as JSON and FILE[KEY]... == EXPECTED
    python3 - "$@" <<'PY'
import json, sys
path, keys, want = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
d = json.load(open(path))
for k in keys:
    d = d[int(k)] if isinstance(d, list) else d[k]
assert d == want, (path, keys, d, want)
PY
}

# a workload named so: a .loop file of that name
cp "$HERE/../install/hello.loop" "$NAME.loop"
"$PS" run "$NAME.loop" -n 2 --trace T -o run.json -q || fail "run"
python3 meta.py T/trace.pst > T.meta.json || fail "the run's trace metadata is not valid JSON"
check T.meta.json workload "$NAME" || fail "the trace metadata lost the workload name"
check run.json workload "$NAME.loop" || fail "result JSON"
check run.json trace_meta workload "$NAME" || fail "result JSON's trace_meta"
python3 -c 'import json; assert json.load(open("run.json"))["schema"] == 1' || fail "no schema 1 in the result"
"$PS" export T --format perfetto -o run.perfetto.json -q || fail "perfetto export"
check run.perfetto.json otherData workload "$NAME" || fail "Perfetto lost the workload name"
check run.perfetto.json traceEvents 0 args name "parscope: $NAME" || fail "Perfetto's process name"
"$PS" export T --format csv -o run.csv -q || fail "csv export"

# a machine model named so
sed "s/^name = .*/name = $(printf '%s' "$NAME" | sed 's/[\\&/]/\\&/g')/" "$HERE/../../machines/sp2.ini" > m.ini
grep -qF "name = $NAME" m.ini || fail "test setup: the model's name"
"$PS" predict fingerprint -m m.ini -n 4 --trace P -o pred.json -q > /dev/null || fail "predict"
python3 meta.py P/trace.pst > P.meta.json || fail "the prediction's trace metadata is not valid JSON"
check P.meta.json machine_model "$NAME" || fail "the prediction's metadata lost the model's name"
check P.meta.json workload fingerprint || fail "the prediction's metadata lost the workload"
check pred.json machine name "$NAME" || fail "prediction result JSON"
check pred.json hardware machine "$NAME" || fail "prediction result JSON's hardware"
"$PS" export P --format perfetto -o pred.perfetto.json -q || fail "perfetto export of the prediction"
check pred.perfetto.json otherData workload fingerprint || fail "Perfetto of the prediction lost the workload name"

# the report of both: escaped, never raw
"$PS" report run.json pred.json -o r.html -q || fail "report"
grep -qF 'lab &quot;fast&quot; box\x' r.html || fail "the report does not show the name"
grep -qF "$NAME" r.html && fail "the report holds the name unescaped"
echo "json_names: valid JSON everywhere"
