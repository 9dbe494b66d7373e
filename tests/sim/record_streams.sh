#!/bin/bash
# record_streams.sh - the recording's streams.pss does not depend on how many
# rank processes run at once nor on the order they end in: every built-in
# workload at P = 1, 3 and 16, recorded one rank at a time
# (PARSCOPE_RECORD_JOBS=1) and four at a time, byte for byte; the file's
# layout checked by an independent reader (header, construct table, meta,
# each rank's length, the lengths adding up to the file); and a rank stream
# longer than the recorder's 1 MB buffer (several frames through the pipe,
# several pieces in the data file) joined whole: fingerprint at -s 300000
# has 299900 more instructions per rank than at -s 100 (one WORK per scalar
# product), counted by `parscope predict`.
# usage: record_streams.sh PARSCOPE
set -u
PS=$1
T=$(mktemp -d /tmp/ps_record_streams.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# record W P JOBS DIR [ARGS...]: the recording back end as predict runs it
record() {
    local w=$1 p=$2 jobs=$3 d=$4
    shift 4
    rm -rf "$d" && mkdir -p "$d"
    env PARSCOPE_RECORD="$p" PARSCOPE_RECORD_DIR="$d" PARSCOPE_STATUS_DIR="$d" PARSCOPE_RECORD_JOBS="$jobs" \
        timeout 120 "$PS" __rank "$w" --workload "$w" --quiet "$@" >/dev/null 2>"$d.err"
}

# the layout of streams.pss (src/sim/stream.h), read without parscope
check_layout() {
    python3 - "$1" "$2" <<'PY'
import json, struct, sys
path, P = sys.argv[1], int(sys.argv[2])
b = open(path, "rb").read()
assert b[:8] == b"PSSTRM01", "not a streams file"
n, ncons = struct.unpack_from("<II", b, 8)
assert n == P, "ranks %d, expected %d" % (n, P)
o = 16
for _ in range(ncons):
    (l,) = struct.unpack_from("<H", b, o)
    o += 2 + l
(ml,) = struct.unpack_from("<I", b, o)
meta = json.loads(b[o + 4:o + 4 + ml])
o += 4 + ml
assert meta["ranks"] == P, meta
lens = struct.unpack_from("<%dQ" % P, b, o)
o += 8 * P
assert all(l > 0 for l in lens), "an empty rank stream"
assert o + sum(lens) == len(b), "lengths %d + header %d != file %d" % (sum(lens), o, len(b))
PY
}

declare -A ARGS=([fingerprint]="" [cg]="-s 64 -i 2" [mmm_s]="-s 48" [mmm_a]="-s 48" [red_black]="-s 64 -i 2"
                 [clue]="-s 32 -i 4" [adi]="-s 16 -i 2" [psrs]="-s 4000" [lu_skel]="-s 8 -i 2"
                 [sp_skel]="-s 8 -i 2" [fft]="-s 32")
n=0
for w in fingerprint cg mmm_s mmm_a red_black clue adi psrs lu_skel sp_skel fft; do
    for p in 1 3 16; do
        [ "$w" = fft ] && [ "$p" = 3 ] && p=4   # fft: a power of two
        # shellcheck disable=SC2086
        record "$w" "$p" 1 "$T/a" ${ARGS[$w]} || { fail "$w -n $p, one at a time: $(tail -1 "$T/a.err")"; continue; }
        # shellcheck disable=SC2086
        record "$w" "$p" 4 "$T/b" ${ARGS[$w]} || { fail "$w -n $p, four at a time: $(tail -1 "$T/b.err")"; continue; }
        cmp -s "$T/a/streams.pss" "$T/b/streams.pss" || fail "$w -n $p: the streams differ with four ranks at once"
        check_layout "$T/a/streams.pss" "$p" || fail "$w -n $p: streams.pss is not laid out as stream.h says"
        left=$(find "$T/a" "$T/b" -mindepth 1 ! -name streams.pss | wc -l)
        [ "$left" = 0 ] || fail "$w -n $p: $left files left beside streams.pss"
        n=$((n + 1))
    done
done
[ "$n" -ge 30 ] || fail "only $n recordings compared"

# a rank stream above 1 MB: several frames and pieces, joined whole
count() { "$PS" predict "$1" -m "$(dirname "$0")/../../machines/sp2.ini" -q -o "$1/p.json" --force >/dev/null &&
          python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["simulation"]["instructions"])' "$1/p.json"; }
record fingerprint 2 2 "$T/small" -s 100 || fail "fingerprint -s 100: $(tail -1 "$T/small.err")"
record fingerprint 2 2 "$T/big" -s 300000 || fail "fingerprint -s 300000: $(tail -1 "$T/big.err")"
big_len=$(python3 -c 'import os,sys; print(os.path.getsize(sys.argv[1]))' "$T/big/streams.pss" 2>/dev/null || echo 0)
[ "$big_len" -gt $((2 * 1048576)) ] || fail "fingerprint -s 300000 at 2 ranks: $big_len bytes, not above 1 MB a rank"
check_layout "$T/big/streams.pss" 2 || fail "fingerprint -s 300000: streams.pss is not laid out as stream.h says"
cs=$(count "$T/small") && cb=$(count "$T/big") || fail "predict on the recorded streams"
[ "$((cb - cs))" = $((2 * (300000 - 100))) ] ||
    fail "fingerprint: $cb instructions at -s 300000, $cs at -s 100: expected $((2 * (300000 - 100))) more"

[ "$fails" = 0 ] && echo "record_streams: $n recordings identical one and four at a time; a 1 MB+ stream joined whole"
exit $((fails > 0))
