#!/usr/bin/env bash
# otf2_records.sh PARSCOPE OTF2_CHECK TESTDIR - real runs at 4 ranks exported to
# OTF2 and read back (otf2_check.c), every record kind counted against the
# run's own result sheet:
#   mmm_a        every message is an isend and a posted receive: MPI_ISEND,
#                MPI_ISEND_COMPLETE, MPI_IRECV_REQUEST and MPI_IRECV each equal
#                the sheet's messages;
#   fingerprint  isends completed by waits, and blocking receives (the
#                multi-broadcast receives in order, as the seed's): MPI_ISEND,
#                MPI_ISEND_COMPLETE and MPI_RECV each equal the messages; 10
#                barriers per rank (5 VISIBLE_SYNCs) with collective records;
#   cg           the tree reductions are MPI_Allreduce collectives (2 per
#                iteration per rank), whose messages the sheet counts and the
#                collective records' sizes hold; the rest are point-to-point.
# otf2-print shows the request ids.
set -u
PS=$1
CHECK=$2
HERE=$3
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
val() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
messages() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sheet"]["messages_sent"])' "$1"; }

for w in mmm_a fingerprint cg; do
    "$PS" run $w -n 4 --trace $w -o $w/result.json -q || fail "run $w"
    "$PS" export $w --format otf2 -q || fail "export $w"
    "$CHECK" $w/trace.otf2/traces.otf2 > $w.counts 2> $w.err || fail "$w: the archive does not read back right: $(head -5 $w.err)"
    otf2-print $w/trace.otf2/traces.otf2 > $w.print 2> $w.print.err || fail "otf2-print $w: $(head -3 $w.print.err)"
    [ -s $w.print.err ] && fail "otf2-print $w warned: $(head -3 $w.print.err)"
    M=$(messages $w/result.json)
    echo "$w: sheet $M messages; OTF2: $(tr '\n' ' ' < $w.counts)"
    [ "$(val open_isends $w.counts)" = 0 ] && [ "$(val open_irecvs $w.counts)" = 0 ] || fail "$w: requests left open"
done

M=$(messages mmm_a/result.json)
[ "$M" = 16 ] || fail "mmm_a at 4 ranks: the sheet counts $M messages, 16 expected (4 steps x 4 ranks)"
for k in isend isend_complete irecv_request irecv; do
    [ "$(val $k mmm_a.counts)" = "$M" ] || fail "mmm_a: $k records $(val $k mmm_a.counts), sheet messages $M"
done
[ "$(val send mmm_a.counts)" = 0 ] && [ "$(val recv mmm_a.counts)" = 0 ] || fail "mmm_a: blocking records"

M=$(messages fingerprint/result.json)
[ "$M" = 56 ] || fail "fingerprint at 4 ranks: the sheet counts $M messages, 56 expected"
for k in isend isend_complete recv; do
    [ "$(val $k fingerprint.counts)" = "$M" ] || fail "fingerprint: $k records $(val $k fingerprint.counts), sheet messages $M"
done
[ "$(val irecv_request fingerprint.counts)" = 0 ] && [ "$(val irecv fingerprint.counts)" = 0 ] || fail "fingerprint: nonblocking receive records"
[ "$(val barrier fingerprint.counts)" = 40 ] || fail "fingerprint: $(val barrier fingerprint.counts) MPI_Barrier regions, 40 expected"
[ "$(val collective_end fingerprint.counts)" = 40 ] || fail "fingerprint: collective records"

M=$(messages cg/result.json)
P2P=$(( $(val send cg.counts) + $(val isend cg.counts) ))
[ "$(val allreduce cg.counts)" = 64 ] || fail "cg: $(val allreduce cg.counts) MPI_Allreduce, 64 expected (2 per iteration, 8 iterations, 4 ranks)"
# each reduction message carries one double; the sheet counts them, the collectives' sizes hold them
[ $(( (M - P2P) * 8 )) = "$(val allreduce_sent_bytes cg.counts)" ] || fail "cg: $M sheet messages, $P2P point-to-point records, $(val allreduce_sent_bytes cg.counts) bytes in the reductions"
[ "$(val allreduce_sent_bytes cg.counts)" = "$(val allreduce_received_bytes cg.counts)" ] || fail "cg: reductions sent and received differ"

# otf2-print names the requests
grep -q '^MPI_IRECV_REQUEST .*Request: [1-9]' mmm_a.print || fail "otf2-print shows no request ids"
grep -q '^MPI_ISEND .*Request: [1-9]' fingerprint.print || fail "otf2-print shows no isend request ids"
grep -q '^MPI_IRECV .*Request: [1-9]' mmm_a.print || fail "otf2-print shows no irecv request ids"
otf2-print -G fingerprint/trace.otf2/traces.otf2 | grep -q 'REGION .*Name: "MPI_Isend".*Paradigm: "MPI"' || fail "no MPI_Isend region of the MPI paradigm"
otf2-print -G fingerprint/trace.otf2/traces.otf2 | grep -q 'CLOCK_PROPERTIES .*Ticks per Seconds: 1000000000, Global Offset: 0, .*Date: [0-9]' || fail "clock properties without the run's date"
echo "otf2_records: all checks passed"
