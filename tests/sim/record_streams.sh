#!/bin/bash
# record_streams.sh - the recording's streams.pss does not depend on how many
# rank processes run at once, on the order they end in, nor on how many ranks
# one process runs (put back to its snapshot between them): every built-in
# workload at P = 1, 3 and 16, recorded a process per rank one at a time
# (PARSCOPE_RECORD_JOBS=1 PARSCOPE_RECORD_BATCH=1), four processes at a time
# with the ranks a process takes by default, and every rank in one process,
# byte for byte.  Three programs of its own, at 6 ranks and 1, 3 and 6 ranks
# a process, recorded as a process per rank records them: one that leaves
# behind all a process put back must undo (a counter, heap, mapped and large
# blocks, memory calloc takes for zeros left dirty, a descriptor, a signal
# handler, the working directory, the umask, a pending blocked signal, a
# running timer), in 6, 2 and 1 processes, and in 2 and 1 with the snapshot's
# mappings read from the text of /proc/self/maps rather than by the kernel's
# query; two whose process cannot be put
# back (descriptor 0 replaced by another file; a mapping of the snapshot made
# writable), whose ranks then each end theirs (6 processes).  The file's
# layout checked by an independent reader (header, construct table, meta,
# each rank's length, the lengths adding up to the file); and a rank stream
# longer than the recorder's 1 MB buffer (several frames through the pipe,
# several pieces in the recording's data, in memory and in a file) joined whole: fingerprint at -s 300000
# has 299900 more instructions per rank than at -s 100 (one WORK per scalar
# product), counted by `parscope predict`.  Streams kept with --streams are
# synced to the disk, predict's own temporary recording is not (under strace).
# The sends' written bytes (data written since they were last sent) through a
# broadcast, a scatter and a gather of one vector and a computation.
# usage: record_streams.sh PARSCOPE
set -u
PS=$1
T=$(mktemp -d /tmp/ps_record_streams.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# record W P JOBS DIR [ARGS...]: the recording back end as predict runs it (BATCH: ranks a process,
# default: the recorder's choice)
record() {
    local w=$1 p=$2 jobs=$3 d=$4
    shift 4
    rm -rf "$d" && mkdir -p "$d"
    env LD_BIND_NOW=1 PARSCOPE_RECORD="$p" PARSCOPE_RECORD_DIR="$d" PARSCOPE_STATUS_DIR="$d" PARSCOPE_RECORD_JOBS="$jobs" \
        ${BATCH:+PARSCOPE_RECORD_BATCH=$BATCH} \
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
# with PS_TEST_FEW_POINTS (the sanitizer build, against MPICH in scripts/test.sh) at 1 and 3 ranks
# (4 for fft): the same comparisons and layout checks, the normal build running 16 too
counts="1 3 16" least=30
[ -n "${PS_TEST_FEW_POINTS:-}" ] && counts="1 3" least=20
n=0
for w in fingerprint cg mmm_s mmm_a red_black clue adi psrs lu_skel sp_skel fft; do
    for p in $counts; do
        [ "$w" = fft ] && [ "$p" = 3 ] && p=4   # fft: a power of two
        # shellcheck disable=SC2086
        BATCH=1 record "$w" "$p" 1 "$T/a" ${ARGS[$w]} ||
            { fail "$w -n $p, a process per rank: $(tail -1 "$T/a.err")"; continue; }
        # shellcheck disable=SC2086
        record "$w" "$p" 4 "$T/b" ${ARGS[$w]} || { fail "$w -n $p, four at a time: $(tail -1 "$T/b.err")"; continue; }
        cmp -s "$T/a/streams.pss" "$T/b/streams.pss" || fail "$w -n $p: the streams differ with four processes at once"
        # shellcheck disable=SC2086
        BATCH=$p record "$w" "$p" 1 "$T/c" ${ARGS[$w]} ||
            { fail "$w -n $p, every rank in one process: $(tail -1 "$T/c.err")"; continue; }
        cmp -s "$T/a/streams.pss" "$T/c/streams.pss" || fail "$w -n $p: the streams differ with every rank in one process"
        check_layout "$T/a/streams.pss" "$p" || fail "$w -n $p: streams.pss is not laid out as stream.h says"
        left=$(find "$T/a" "$T/b" "$T/c" -mindepth 1 ! -name streams.pss | wc -l)
        [ "$left" = 0 ] || fail "$w -n $p: $left files left beside streams.pss"
        n=$((n + 1))
    done
done
[ "$n" -ge "$least" ] || fail "only $n recordings compared"

# programs that change what a process put back to its snapshot must undo: each rank's stream
# carries what it saw (a WORK of that many flops), so a rank that saw the one before it differs
cat > "$T/leaky.loop" <<'LOOP'
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "LOOP.h"
static int runs;      /* 1 in every rank, unless one saw another's */
static char *kept;
static void on_usr1(int s) { (void)s; }
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 0);
    (void)nodes; (void)host; (void)n;
    runs++;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);        /* 8 MB from the heap: the break raised for it, */
    long *z = calloc(1 << 20, sizeof *z), nonzero = 0;  /* which calloc then takes for zeros */
    for (long i = 0; i < 1 << 20; i++) nonzero += z[i] != 0;
    for (long i = 0; i < 1 << 20; i++) z[i] = -1;       /* never freed, left dirty */
    kept = malloc(4 << 20);                      /* a large block, never freed */
    char *small = malloc(1000);                  /* the heap, never freed */
    char *map = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return 1;             /* a mapping, never unmapped */
    kept[0] = small[0] = map[4096] = 1;
    int fd = open("/dev/null", O_RDONLY);        /* a descriptor left open */
    struct sigaction sa = {.sa_handler = on_usr1}, old;
    sigaction(SIGUSR1, &sa, &old);               /* a handler left set */
    char wd[4096];
    int at_root = getcwd(wd, sizeof wd) && !strcmp(wd, "/");
    if (chdir("/")) return 1;                    /* another working directory */
    mode_t um = umask(077);                      /* another umask */
    sigset_t two;
    sigemptyset(&two);
    sigaddset(&two, SIGUSR2);
    sigprocmask(SIG_BLOCK, &two, NULL);          /* a signal blocked and left pending */
    raise(SIGUSR2);
    sigaction(SIGALRM, &sa, NULL);               /* a timer left running, with a handler */
    struct itimerval it = {{0, 200}, {0, 200}};
    setitimer(ITIMER_REAL, &it, NULL);
    \WORK(1000.0 * runs + 10.0 * fd + (old.sa_handler == SIG_DFL) + me + 1e6 * nonzero + 1e7 * at_root + 1e8 * um);
    int pf = open(getenv("PIDS"), O_WRONLY | O_APPEND | O_CREAT, 0644);  /* this rank's process, noted */
    if (pf < 0 || dprintf(pf, "%d\n", (int)getpid()) < 0 || close(pf)) return 1;
    \MULTIBCAST0(64);
    \CLOSE0();
    return 0;
}
LOOP
# unrestorable NAME BEFORE AFTER: a program whose ranks leave their process where it cannot be put
# back (BEFORE: lines it runs before \OPEN0, once before the snapshot; AFTER: lines each rank runs);
# each rank notes its process in the file $PIDS names (the number of processes tells whether ranks
# ran one after another in one)
unrestorable() {
    {
        printf '#include <fcntl.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <sys/mman.h>\n'
        printf '#include <unistd.h>\n#include "LOOP.h"\nint main(void)\n{\n    int nodes, me, host, n;\n%s\n' "$2"
        printf '    \\OPEN0(&nodes, &me, &host, &n, 0);\n    (void)nodes; (void)host; (void)n;\n%s\n' "$3"
        printf '    int pf = open(getenv("PIDS"), O_WRONLY | O_APPEND | O_CREAT, 0644);\n'
        printf '    if (pf < 0 || dprintf(pf, "%%d\\n", (int)getpid()) < 0 || close(pf)) return 1;\n'
        printf '    \\WORK(100.0 + me);\n    \\MULTIBCAST0(64);\n    \\CLOSE0();\n    return 0;\n}\n'
    } > "$T/$1.loop"
}
# descriptor 0 made another file
unrestorable closer '' '    close(0);
    if (open("/dev/zero", O_RDONLY) != 0) return 1;'
# a mapping of the snapshot, read-only, made writable
unrestorable protect '    char *ro = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ro == MAP_FAILED) return 1;' '    if (mprotect(ro, 65536, PROT_READ | PROT_WRITE)) return 1;
    ro[0] = 1;'
for prog in leaky closer protect; do
    "$PS" build "$T/$prog.loop" -o "$T/$prog" > "$T/$prog.build" 2>&1 || { fail "building $prog.loop: $(tail -3 "$T/$prog.build")"; continue; }
    # t3, t6: 3 and 6 ranks a process, the snapshot reading the mappings from the text of
    # /proc/self/maps (PARSCOPE_SNAP_MAPS_TEXT) instead of the kernel's query where it has one
    for b in 1 3 6 t3 t6; do
        rm -rf "$T/$prog-$b" && mkdir "$T/$prog-$b"
        PIDS="$T/$prog-$b.pids" LD_BIND_NOW=1 PARSCOPE_RECORD=6 PARSCOPE_RECORD_DIR="$T/$prog-$b" PARSCOPE_RECORD_JOBS=2 \
            PARSCOPE_SNAP_MAPS_TEXT=$([ "${b#t}" = "$b" ] && echo 0 || echo 1) \
            PARSCOPE_RECORD_BATCH=${b#t} timeout 60 "$T/$prog" --quiet < /dev/null > /dev/null 2> "$T/$prog-$b.err" ||
            fail "$prog at 6 ranks, $b a process: $(tail -1 "$T/$prog-$b.err")"
    done
    # leaky: 6 ranks in 6, 2 and 1 processes; the others always 6 (each process ends after its
    # rank), and so is leaky under a sanitizer (no snapshot under its shadow memory)
    got=$(for b in 1 3 6 t3 t6; do sort -u "$T/$prog-$b.pids" 2>/dev/null | wc -l; done | tr '\n' ' ')
    want="6 2 1 2 1 "
    [ "$prog" != leaky ] || [ "${PS_TEST_SANITIZED:-0}" = 1 ] && want="6 6 6 6 6 "
    [ "$got" = "$want" ] || fail "$prog: processes for 6 ranks at 1, 3, 6 a process and 3, 6 by the maps text: $got(expected $want)"
    for b in 3 6 t3 t6; do
        cmp -s "$T/$prog-1/streams.pss" "$T/$prog-$b/streams.pss" ||
            fail "$prog: the streams with $b ranks a process differ from a process per rank"
    done
done

# a rank stream above 1 MB: several frames and pieces, joined whole
count() { "$PS" predict "$1" -m "$(dirname "$0")/../../machines/sp2.ini" -q -o "$1/p.json" --force >/dev/null &&
          python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["simulation"]["instructions"])' "$1/p.json"; }
record fingerprint 2 2 "$T/small" -s 100 || fail "fingerprint -s 100: $(tail -1 "$T/small.err")"
record fingerprint 2 2 "$T/big" -s 300000 || fail "fingerprint -s 300000: $(tail -1 "$T/big.err")"
# the same with the pieces in a file in the directory instead of in memory
PARSCOPE_RECORD_DATA_FILE=1 record fingerprint 2 2 "$T/bigfile" -s 300000 ||
    fail "fingerprint -s 300000, pieces in a file: $(tail -1 "$T/bigfile.err")"
cmp -s "$T/big/streams.pss" "$T/bigfile/streams.pss" || fail "fingerprint -s 300000: the streams joined from a file differ"
[ -z "$(ls -A "$T/bigfile" | grep -v '^streams.pss$\|^.parscope')" ] || fail "the data file was left in $T/bigfile: $(ls -A "$T/bigfile")"
big_len=$(python3 -c 'import os,sys; print(os.path.getsize(sys.argv[1]))' "$T/big/streams.pss" 2>/dev/null || echo 0)
[ "$big_len" -gt $((2 * 1048576)) ] || fail "fingerprint -s 300000 at 2 ranks: $big_len bytes, not above 1 MB a rank"
check_layout "$T/big/streams.pss" 2 || fail "fingerprint -s 300000: streams.pss is not laid out as stream.h says"
cs=$(count "$T/small") && cb=$(count "$T/big") || fail "predict on the recorded streams"
[ "$((cb - cs))" = $((2 * (300000 - 100))) ] ||
    fail "fingerprint: $cb instructions at -s 300000, $cs at -s 100: expected $((2 * (300000 - 100))) more"

# streams kept (--streams DIR) are on the disk before they take their name; predict's own temporary
# recording, read at once and removed, is not synced (PARSCOPE_RECORD_SCRATCH)
if command -v strace > /dev/null; then
    syncs() { strace -f -e trace=fsync,fdatasync -o "$T/strace.$1" "$PS" predict fingerprint -m \
                  "$(dirname "$0")/../../machines/sp2.ini" -n 4 -q "${@:2}" > /dev/null 2>&1 &&
              grep -cE "^[0-9]+ +f(data)?sync\(" "$T/strace.$1"; }
    kept=$(syncs kept --streams "$T/kept") scratch=$(syncs scratch)
    [ "${kept:-0}" -ge 1 ] && [ -s "$T/kept/streams.pss" ] || fail "the kept streams were not synced (${kept:-?} syncs)"
    [ "$scratch" = 0 ] || fail "predict synced its temporary recording ($scratch syncs)"
fi

# which sends carry data written since they were last sent (the model's [written]): a vector broadcast
# from rank 0 (never sent: all of it written), scattered (its second half sent again: nothing written),
# gathered back into rank 0 (so the next broadcast has its second half written), and after a
# computation (which may write anything) all of it again; rank 1 sends back what it received each time
cat > "$T/written.loop" <<'LOOP'
#include "LOOP.h"
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 4096);
    (void)nodes; (void)host; (void)me;
    \VEC(TYPE: double) v;
    \INIT_ARRAY(v);
    \LOOP (ITERATIONS) {
        \TREE_BCAST(v, n * sizeof(double));
        \TREE_DISTRIB_VEC(v);
        \TREE_COLLECT_VEC(v);
        \MULTIBCAST_ME(64);
    }
    \WORK(1000);
    \TREE_BCAST(v, n * sizeof(double));
    \CLOSE0();
    return 0;
}
LOOP
rm -rf "$T/w" && mkdir "$T/w"
if "$PS" predict "$T/written.loop" -s 4096 -i 2 -m "$(dirname "$0")/../../machines/sp2.ini" -n 2 -q --streams "$T/w" \
        > "$T/w.out" 2>&1; then
    got=$(python3 - "$T/w/streams.pss" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
n, ncons = struct.unpack_from("<II", b, 8)
o = 16
for _ in range(ncons):
    (l,) = struct.unpack_from("<H", b, o)
    o += 2 + l
(ml,) = struct.unpack_from("<I", b, o)
o += 4 + ml
lens = struct.unpack_from("<%dQ" % n, b, o)
o += 8 * n
def varint(p):
    x = s = 0
    while True:
        c = b[p]
        p += 1
        x |= (c & 0x7f) << s
        s += 7
        if not c & 0x80:
            return x, p
for r in range(n):
    p, end, out = o, o + lens[r], []
    o = end
    while p < end:
        c = b[p]
        p += 1
        op = c & 15
        if op in (1, 2, 3, 4):
            _, p = varint(p)
            size, p = varint(p)
            w = 0
            if c & 0x80:
                w, p = varint(p)
            if c & 0x10:
                _, p = varint(p)
            if op in (1, 3) and size > 0:
                out.append("%d/%d" % (w, size))
        elif op in (5, 7):
            _, p = varint(p)
        if c & 0x20:
            _, p = varint(p)
    print("rank %d: %s" % (r, " ".join(out)))
PY
)
    want="rank 0: 32768/32768 0/16384 0/64 16384/32768 0/16384 0/64 32768/32768
rank 1: 16384/16384 0/64 16384/16384 0/64"
    [ "$got" = "$want" ] || fail "written bytes of the sends (written/bytes):
$got
expected
$want"
else
    fail "predict written.loop: $(tail -3 "$T/w.out")"
fi

[ "$fails" = 0 ] && echo "record_streams: $n recordings identical a process per rank, four processes at a time and" \
    "every rank in one process; three programs that leave state behind recorded as a process per rank does;" \
    "a 1 MB+ stream joined whole; the sends' written bytes"
exit $((fails > 0))
