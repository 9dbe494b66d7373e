#!/usr/bin/env bash
# faults_test.sh PARSCOPE - page faults inside the timed interval are said:
# a program that maps 8 MiB afresh in every iteration and writes each page
# (as glibc's qsort does with its scratch) takes one fault a page, counted
# by the runtime, and parscope run warns with the rank, the count and their
# share of the time (JSON timed_faults); the same writes into memory the
# set-up allocated take none (the runtime touches it before the interval)
# and nothing is said.  The runtime's own scratch areas, grown inside the
# interval for the first message larger than any before (8 MiB each way),
# are made present when mapped, not touched a page at a time by the copies:
# the faults that takes are not counted (a few dozen others of MPI's may be).
# That run has transparent huge pages off (prctl PR_SET_THP_DISABLE, kept
# across fork and exec): in 4 KiB pages an area takes a fault a page either
# way, and only the count tells the two apart.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# FAULTS_LATE set: 8 MiB mapped afresh in every iteration; unset: allocated in the set-up
cat > "$tmp/touch.loop" <<'LOOP'
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#define BYTES ((size_t)8 << 20)
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 0);
    (void)nodes; (void)me; (void)host; (void)n;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int late = getenv("FAULTS_LATE") != NULL;
    char *b = late ? NULL : malloc(BYTES);
    if (!late && !b) ps_abort("out of memory");
    \LOOP (ITERATIONS) {
        char *m = late ? mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : b;
        if (m == MAP_FAILED) ps_abort("mmap failed");
        if (late) madvise(m, BYTES, MADV_NOHUGEPAGE);   /* a fault a page, whatever THP's setting */
        for (size_t i = 0; i < BYTES; i += page) m[i] = 1;
        if (late) munmap(m, BYTES);
        \WORK(late ? 1e6 : 1e7);
    }
    \CLOSE0();
    free(b);
    return 0;
}
LOOP
pages=$(( (8 << 20) / $(getconf PAGESIZE) ))
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

FAULTS_LATE=1 timeout 120 "$bin" run "$tmp/touch.loop" -n 1 -i 2 -o "$tmp/late.json" > "$tmp/out" 2>&1 ||
    { echo "FAIL: the late mapping did not run"; cat "$tmp/out"; fail=1; }
grep -q "^WARNING: rank 0 took [0-9]* page faults inside the timed interval, about .* a fault here (.*% of the fastest trial): memory first touched while timed" "$tmp/out" ||
    { echo "FAIL: no page-fault warning for memory mapped inside the interval"; cat "$tmp/out"; fail=1; }
# two iterations of $pages pages each, and the runtime's own few (under
# AddressSanitizer also the mapping's shadow: one page in 8 more)
extra=200
[ "${PS_TEST_SANITIZED:-0}" = 1 ] && extra=$((200 + 2 * pages / 8))
count=$(jget "$tmp/late.json" 'd["timed_faults"]["count"]')
[ "$count" -ge $((2 * pages)) ] && [ "$count" -le $((2 * pages + extra)) ] ||
    { echo "FAIL: $count faults counted, expected $((2 * pages)) and at most $extra more"; fail=1; }
[ "$(jget "$tmp/late.json" '[d["timed_faults"][k] for k in ("rank", "significant")]')" = "[0, True]" ] ||
    { echo "FAIL: timed_faults in the JSON: $(jget "$tmp/late.json" 'd["timed_faults"]')"; fail=1; }
python3 - "$tmp/late.json" <<'PY' || fail=1
import json, sys
f = json.load(open(sys.argv[1]))["timed_faults"]
# the share is the count priced at the measured cost over the fastest trial's time
d = json.load(open(sys.argv[1]))
want = f["count"] * f["cost_per_fault_s"] / d["time"]["min"]
if not (f["cost_per_fault_s"] > 0 and abs(f["share"] - want) <= 1e-9 * max(1, want)):
    print("FAIL: share %s, expected %s" % (f["share"], want)); sys.exit(1)
PY

# the set-up's memory is touched before the interval: nothing to say (under
# the sanitizers each page's shadow is touched afresh, so not checked there)
if [ "${PS_TEST_SANITIZED:-0}" != 1 ]; then
    timeout 120 "$bin" run "$tmp/touch.loop" -n 1 -i 2 -o "$tmp/early.json" > "$tmp/out" 2>&1 ||
        { echo "FAIL: the set-up's buffer did not run"; cat "$tmp/out"; fail=1; }
    grep -q "page faults inside the timed interval" "$tmp/out" &&
        { echo "FAIL: memory touched in the set-up called a fault inside the interval"; cat "$tmp/out"; fail=1; }
    [ "$(jget "$tmp/early.json" 'd["timed_faults"]["significant"]')" = False ] ||
        { echo "FAIL: the set-up buffer's timed_faults: $(jget "$tmp/early.json" 'd["timed_faults"]')"; fail=1; }

    # messages without buffers, first 8 MiB in the second iteration: the scratch areas (2 MiB at
    # the start) grow there (2 x 2048 pages made present, their faults not counted; touched by the
    # copies instead, or counted, a fault a page and a warning)
    cat > "$tmp/grow.loop" <<'LOOP'
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 0);
    (void)nodes; (void)me; (void)host; (void)n;
    int k = 0;
    \LOOP (ITERATIONS) {
        \EXCHANGE(k++ ? ((size_t)8 << 20) : 1024, 1, 2);
    }
    \CLOSE0();
    return 0;
}
LOOP
    # in huge pages an area takes a few faults however it is touched: off for this run
    nothp='import ctypes, os, sys
if ctypes.CDLL(None, use_errno=True).prctl(41, 1, 0, 0, 0) != 0: sys.exit(77)
os.execvp(sys.argv[1], sys.argv[1:])'
    timeout 120 python3 -c "$nothp" "$bin" run "$tmp/grow.loop" -n 2 -i 3 -o "$tmp/grow.json" > "$tmp/out" 2>&1
    rc=$?
    if [ $rc = 77 ]; then
        echo "note: transparent huge pages cannot be turned off here (prctl): the grown areas' fault count not checked"
    elif [ $rc != 0 ]; then
        echo "FAIL: the growing exchange did not run"; cat "$tmp/out"; fail=1
    else
        # touched by the copies (or counted), the two 8 MiB areas take a fault a page each (4098 with
        # 4 KiB pages); made present when mapped, none are counted: fewer than one area's pages
        grown=$(jget "$tmp/grow.json" 'max(r["timed_minor_faults"] for r in d["ranks"])')
        area=$(( (8 << 20) / $(getconf PAGESIZE) ))
        [ "$grown" -lt "$area" ] ||
            { echo "FAIL: $grown faults counted with the scratch areas grown inside the interval (an 8 MiB area is $area pages)"; fail=1; }
        # a warning may still name the MPI library's own faults (39 on rank 0 once, with the machine so
        # busy that a fault cost 50 us: 2.1% of the trial, over the 2% that warns), never the areas'
        warned=$(sed -n 's/^WARNING: rank [0-9]* took \([0-9]*\) page faults inside the timed interval.*/\1/p' "$tmp/out")
        [ -z "$warned" ] || [ "$warned" -lt $((area / 8)) ] ||
            { echo "FAIL: the scratch areas grown inside the interval were called faults there"; cat "$tmp/out"; fail=1; }
    fi
fi
exit $fail
