#!/bin/bash
# pool_memory.sh - the simulator's message records: their address space
# reserved whole at the start, pages faulted in ahead by a helper thread
# once the pool grows past 32768 records, or, where the address space is
# limited (ulimit -v) and cannot be reserved, grown by doubling.  fingerprint
# at 256 ranks (65280 records in flight at once) predicts the same time,
# messages, events and peak both ways; under strace, the reservation is
# refused in the second (not under a sanitizer: see below).  Whether the
# helper gets a processor before a short simulation ends is the scheduler's
# affair (on a loaded machine it may not): the same result either way is
# what is checked, and its gain is measured in docs/BENCHMARKS.md.
# usage: pool_memory.sh PARSCOPE SOURCE_DIR
set -u
PS=$1
SP2=$2/machines/sp2.ini
T=$(mktemp -d /tmp/ps_pool_memory.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
fields() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["simulation"]
print(repr(d["time"]["value"]), d["sheet"]["messages_sent"], s["events"], s["peak_in_flight"])' "$1"; }

"$PS" predict fingerprint -m "$SP2" -n 256 -q --streams "$T/st" -o "$T/free.json" > /dev/null 2> "$T/free.err" ||
    fail "predict at 256 ranks: $(tail -1 "$T/free.err")"
# 3 GB of address space: the 256 GB reservation is refused, the pool grows by mremap (not under a
# sanitizer, whose shadow memory is terabytes of address space: the unit test
# unit.sim.pool_reserved_or_grown compares both ways there)
sanitized=${PS_TEST_SANITIZED:-0}
a=$(fields "$T/free.json") || fail "reading the result"
if [ "$sanitized" != 1 ]; then
    ( ulimit -v 3000000 && exec "$PS" predict "$T/st" -m "$SP2" -q -o "$T/limited.json" ) > /dev/null 2> "$T/limited.err" ||
        fail "predict under ulimit -v: $(tail -1 "$T/limited.err")"
    b=$(fields "$T/limited.json") || fail "reading the result under ulimit -v"
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "time, messages, events and peak: '$a' reserved, '$b' grown"
fi
peak=${a##* }
[ "${peak:-0}" -ge 40000 ] || fail "peak in flight $peak: not well past the helper's start (32768)"

if command -v strace > /dev/null; then
    strace -f -e trace=mmap -o "$T/free.trace" "$PS" predict "$T/st" -m "$SP2" -q > /dev/null 2>&1
    grep -q "mmap(NULL, 274877906816, .*MAP_NORESERVE, -1, 0) = 0x" "$T/free.trace" || fail "the pool's address space was not reserved"
    if [ "$sanitized" != 1 ]; then
        ( ulimit -v 3000000 && exec strace -f -e trace=mmap -o "$T/limited.trace" "$PS" predict "$T/st" -m "$SP2" -q ) > /dev/null 2>&1
        grep -q "mmap(NULL, 274877906816, .*= -1 ENOMEM" "$T/limited.trace" || fail "the reservation was not refused under ulimit -v"
    fi
fi
how="the same with the pool's address space reserved and grown by doubling"
[ "$sanitized" = 1 ] && how="with the pool's address space reserved (grown by doubling: not under a sanitizer)"
[ "$fails" = 0 ] && echo "pool_memory: fingerprint at 256 ranks ($peak records in flight) $how"
exit $((fails > 0))
