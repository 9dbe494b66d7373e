/*
 * record.c - the recording back end: a program becomes instruction streams.
 *
 * Selected by PARSCOPE_RECORD=P (ps_init asks ps__record_backend()).  As the
 * estimator seed's instruction stream generator "calls the program
 * successively for values of PID from 0 to NPROCS-1", init() forks children,
 * as many at a time as there are processors, each for a block of rank ids
 * of 0..P-1.  A child returns into the program as the first rank of its
 * block and runs it without MPI; at ps_finalize it is put back to the
 * snapshot it took of itself before (snapshot.h) and returns into the
 * program again as the next, so a rank costs no process of its own (a
 * process that cannot be put back ends, and another runs the ranks left).
 * In the program, messages become SEND / RECEIVE / BSEND / BRECEIVE / WAIT /
 * WAITONE instructions (received buffers are left as they are: their
 * contents are garbage), computation becomes WORK of its flop count,
 * barriers expand to point-to-point messages on a binary tree.
 * Each child sends its stream and construct table to the parent through a
 * pipe, in frames (kind, length, bytes); the parent appends the stream bytes
 * to one data file (a file per rank costs its creation: ext4's search for a
 * free inode took a third of a 1024-rank recording's processor time), then
 * joins them in rank order into PARSCOPE_RECORD_DIR/streams.pss
 * (src/sim/stream.h) and exits: status 0, or 1 if a rank failed.  It never
 * returns into the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "runtime/config.h"
#include "runtime/limits.h"
#include "runtime/rt.h"
#include "runtime/snapshot.h"
#include "runtime/structure.h"
#include "util/assert.h"
#include "trace/stream_format.h"

#define REC_BUF (1 << 20)

/* what goes through a child's pipe: frames of an 8-byte header (kind,
 * length) and that many bytes */
enum { FR_STREAM = 1, FR_CONS = 2, FR_END = 3 };
#define FR_HDR 8

static int rec_p;
static char rec_dir[4000];
static int rec_scratch;    /* PARSCOPE_RECORD_SCRATCH=1: the directory is read at once and removed (no fsync) */
static int rec_fd = -1;       /* the child's: its pipe to the parent */
static uint8_t *rec_buf;      /* FR_HDR bytes of frame header, then the instructions */
static size_t rec_n;
static ps_insn_ctx rec_ctx;
static uint64_t rec_nreq;     /* nonblocking requests issued */

static int rec_finalized;
static int rec_end;           /* the child's: it runs ranks up to rec_end - 1 */
static int rec_snap;          /* the child's: its snapshot taken, ranks after the first put it back */

/* A program that ends without ps_finalize (\CLOSE0) leaves a cut stream. */
static void rec_atexit(void)
{
    if (rec_finalized) return;
    fprintf(stderr, "parscope: recording rank %d: the program ended without ps_finalize (\\CLOSE0)\n",
            ps__rt.rank);
    _exit(1);
}

static void rec_die(const char *what)
{
    fprintf(stderr, "parscope: recording rank %d: %s: %s\n", ps__rt.rank, what, strerror(errno));
    _exit(1);
}

static void write_all(const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t w = write(rec_fd, b, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            rec_die("sending the instruction stream");
        }
        b += w;
        n -= (size_t)w;
    }
}

static void put_header(uint8_t *h, uint32_t kind, uint32_t len)
{
    memcpy(h, &kind, 4);
    memcpy(h + 4, &len, 4);
}

/* One frame; a stream frame's header goes in front of its bytes in rec_buf. */
static void send_frame(uint32_t kind, const void *p, size_t n)
{
    uint8_t h[FR_HDR];
    put_header(h, kind, (uint32_t)n);
    write_all(h, FR_HDR);
    write_all(p, n);
}

static void rec_flush(void)
{
    if (!rec_n) return;
    put_header(rec_buf, FR_STREAM, (uint32_t)rec_n);
    write_all(rec_buf, FR_HDR + rec_n);
    rec_n = 0;
}

/* ---- which sends carry data written since they were last sent ------------
 *
 * A message from data its sender has just written (computed, or received
 * into) arrives later than one whose lines its receiver read before: the
 * model's [written].  The ranges this rank has sent since anything wrote
 * them are kept here (the newest REC_SENT); a receive into one trims it, and
 * a computation (which may write anything) clears them all.  A send from the
 * scratch area (buf NULL) has nothing written: nothing writes it. */
#define REC_SENT 16
static struct { uintptr_t lo, hi; } rec_sent[REC_SENT];
static int rec_nsent, rec_sent_next;

/* A send of [buf, buf + n): of its bytes, those written since they were
 * last sent (n less the most that one sent range covers); it is then sent. */
static uint64_t sent_written(const void *buf, size_t n)
{
    if (!buf || n == 0) return 0;
    uintptr_t lo = (uintptr_t)buf, hi = lo + n, most = 0;
    for (int i = 0; i < rec_nsent; i++) {
        uintptr_t a = rec_sent[i].lo > lo ? rec_sent[i].lo : lo, b = rec_sent[i].hi < hi ? rec_sent[i].hi : hi;
        if (b > a && b - a > most) most = b - a;
    }
    if (most < n) {
        rec_sent[rec_sent_next].lo = lo;
        rec_sent[rec_sent_next].hi = hi;
        rec_sent_next = (rec_sent_next + 1) % REC_SENT;
        if (rec_nsent < REC_SENT) rec_nsent++;
    }
    return (uint64_t)(n - most);
}

/* A receive into [buf, buf + n) writes it: each sent range keeps its larger
 * part outside. */
static void received_into(const void *buf, size_t n)
{
    if (!buf) return;
    uintptr_t lo = (uintptr_t)buf, hi = lo + n;
    for (int i = 0; i < rec_nsent; i++) {
        uintptr_t a = rec_sent[i].lo, b = rec_sent[i].hi;
        if (!(a < hi && lo < b)) continue;
        uintptr_t below = lo > a ? lo - a : 0, above = b > hi ? b - hi : 0;
        if (below >= above) rec_sent[i].hi = a + below;
        else rec_sent[i].lo = b - above;
    }
}

/* written: of a send's n bytes, those written since they were last sent (sent_written) */
static void emit_sent(uint8_t op, int peer, uint64_t n, int tag, int construct, uint64_t written)
{
    if (FR_HDR + rec_n + PS_INSN_MAX > REC_BUF) rec_flush();
    ps_insn in = {.op = op, .peer = peer, .tag = tag, .construct = (uint16_t)construct,
                  .begins = (uint8_t)ps__rt.construct_began, .n = n, .written = written};
    ps__rt.construct_began = 0;
    rec_n += ps_insn_encode(&rec_ctx, &in, rec_buf + FR_HDR + rec_n);
    PS_ASSERT(FR_HDR + rec_n <= REC_BUF);
}

static void emit(uint8_t op, int peer, uint64_t n, int tag, int construct)
{
    emit_sent(op, peer, n, tag, construct, 0);
}

/* ---- the back end's operations -------------------------------------------- */

static ps_request rec_isend(const void *buf, size_t bytes, int dest, int tag, int construct)
{
    emit_sent(PS_OP_SEND, dest, bytes, tag, construct, sent_written(buf, bytes));
    return (ps_request)(rec_nreq++ & PS_REQUEST_HANDLE_MASK);
}

static ps_request rec_irecv(void *buf, size_t bytes, int src, int tag, int construct)
{
    received_into(buf, bytes);
    emit(PS_OP_RECV, src, bytes, tag, construct);
    return (ps_request)(rec_nreq++ & PS_REQUEST_HANDLE_MASK);
}

static void rec_wait(ps_request req)
{
    if (req < 0 || rec_nreq == 0) return;
    /* the latest request with this handle (handles wrap after 2^31 requests) */
    uint64_t back = ((uint64_t)(rec_nreq - 1) - (uint64_t)req) & PS_REQUEST_HANDLE_MASK;
    if (back >= rec_nreq) return;
    emit(PS_OP_WAITONE, -1, back, rec_ctx.tag, PS_C_WAIT);
}

static void rec_waitall(void) { emit(PS_OP_WAIT, -1, 0, rec_ctx.tag, PS_C_WAIT); }

static void rec_send(const void *buf, size_t bytes, int dest, int tag, int construct)
{
    emit_sent(PS_OP_BSEND, dest, bytes, tag, construct, sent_written(buf, bytes));
}

static void rec_recv(void *buf, size_t bytes, int src, int tag, int construct)
{
    received_into(buf, bytes);
    emit(PS_OP_BRECV, src, bytes, tag, construct);
}

/* A barrier as the simulator sees it: empty messages up a binary tree to
 * rank 0 and back down (the runtime's reductions use the same tree), with
 * the runtime's own tag so the sheet keeps them apart (trace.h). */
static void rec_barrier(int construct)
{
    int me = ps__rt.rank, p = ps__rt.size;
    if (p <= 1) return;
    for (int k = 1; k <= 2; k++)
        if (2 * me + k < p) emit(PS_OP_BRECV, 2 * me + k, 0, PS_TAG_BARRIER, construct);
    if (me > 0) {
        emit(PS_OP_BSEND, (me - 1) / 2, 0, PS_TAG_BARRIER, construct);
        emit(PS_OP_BRECV, (me - 1) / 2, 0, PS_TAG_BARRIER, construct);
    }
    for (int k = 1; k <= 2; k++)
        if (2 * me + k < p) emit(PS_OP_BSEND, 2 * me + k, 0, PS_TAG_BARRIER, construct);
}

static void rec_compute(int construct, double t0, double t1, double flops)
{
    (void)t0;
    (void)t1;
    rec_nsent = rec_sent_next = 0;   /* a computation may have written anything */
    emit(PS_OP_WORK, -1, (uint64_t)(flops > 0 ? flops + 0.5 : 0), rec_ctx.tag, construct);
}

static void rec_work(double flops) { rec_compute(PS_C_WORK, 0, 0, flops); }

static void rec_mark(int construct) { emit(PS_OP_MARK, -1, 0, rec_ctx.tag, construct); }

/* ---- the parent: collecting the ranks' streams ---------------------------- */

/* A piece of a rank's stream in the data file; a rank's pieces are chained
 * in order through next (an index into rec_chunk, -1 ends). */
typedef struct rec_piece { uint64_t off, len; long next; } rec_piece;

typedef struct rec_slot {
    pid_t pid;
    int fd, rank;              /* fd -1: the slot is free; rank: the one being read */
    int rank_end;              /* the child runs rank .. rank_end - 1, one after another */
    uint8_t hdr[FR_HDR];
    size_t nh;                 /* header bytes so far */
    uint32_t kind, left;       /* the frame being read, its bytes still to come */
    int ended;                 /* FR_END seen: the rank finished its program */
    uint8_t *buf;              /* stream bytes not yet in the data file */
    size_t n;
    char *cons;                /* its construct table */
    size_t ncons, capcons;
} rec_slot;

static int rec_data = -1;     /* the data file, its name and length */
static int rec_data_mem;      /* ... held in memory (a memfd), not in DIR */
static char rec_data_path[4096 + 32];
static uint64_t rec_data_len;
static rec_piece *rec_chunk;
static long rec_nchunk, rec_capchunk;
static long *rec_first, *rec_last;
static uint64_t *rec_len;     /* each rank's stream bytes */
static char *rec_cons;        /* the longest construct table (every rank registers the same names in order) */
static size_t rec_conslen;
static int rec_conslines = -1;

static void data_unlink(void)
{
    if (rec_data >= 0 && !rec_data_mem) unlink(rec_data_path);
}

static void *rec_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "parscope: recording: out of memory\n");
        data_unlink();
        _exit(1);
    }
    return q;
}

/* The parent's own memory, kept out of its children (MADV_DONTFORK): a
 * page both share is copy-on-write, and the parent writing to it after each
 * fork would fault it in again, 1024 times. */
static void *rec_private(void *old, size_t oldlen, size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "parscope: recording: out of memory\n");
        data_unlink();
        _exit(1);
    }
    madvise(p, n, MADV_DONTFORK);
    if (old) {
        memcpy(p, old, oldlen);
        munmap(old, oldlen);
    }
    return p;
}

static void data_write(rec_slot *s)
{
    if (!s->n) return;
    const uint8_t *b = s->buf;
    size_t n = s->n;
    while (n) {
        ssize_t w = write(rec_data, b, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "parscope: %s: %s\n", rec_data_path, strerror(errno));
            data_unlink();
            _exit(1);
        }
        b += w;
        n -= (size_t)w;
    }
    if (rec_nchunk == rec_capchunk) {
        long cap = rec_capchunk ? 2 * rec_capchunk : 1024;
        rec_chunk = rec_private(rec_chunk, (size_t)rec_capchunk * sizeof *rec_chunk, (size_t)cap * sizeof *rec_chunk);
        rec_capchunk = cap;
    }
    rec_chunk[rec_nchunk] = (rec_piece){rec_data_len, s->n, -1};
    if (rec_last[s->rank] >= 0)
        rec_chunk[rec_last[s->rank]].next = rec_nchunk;
    else
        rec_first[s->rank] = rec_nchunk;
    rec_last[s->rank] = rec_nchunk++;
    rec_data_len += s->n;
    rec_len[s->rank] += s->n;
    s->n = 0;
}

/* A rank's stream ended whole: its last bytes to the data file, its
 * construct table kept if the longest. */
static void rank_done(rec_slot *s)
{
    data_write(s);
    int lines = 0;
    for (size_t i = 0; i < s->ncons; i++) lines += s->cons[i] == '\n';
    if (s->ncons && lines > rec_conslines) {
        rec_cons = rec_xrealloc(rec_cons, s->ncons);
        memcpy(rec_cons, s->cons, s->ncons);
        rec_conslen = s->ncons;
        rec_conslines = lines;
    }
    s->ncons = 0;
}

/* Takes n bytes a child sent; 0, or -1 if they are not frames. */
static int slot_take(rec_slot *s, const uint8_t *p, size_t n)
{
    while (n) {
        if (s->nh < FR_HDR) {
            size_t k = FR_HDR - s->nh < n ? FR_HDR - s->nh : n;
            memcpy(s->hdr + s->nh, p, k);
            s->nh += k;
            p += k;
            n -= k;
            if (s->nh < FR_HDR) break;
            memcpy(&s->kind, s->hdr, 4);
            memcpy(&s->left, s->hdr + 4, 4);
            if (s->ended) {
                /* a frame after a rank's end: the child's next rank */
                if (s->rank + 1 >= s->rank_end) return -1;
                rank_done(s);
                s->rank++;
                s->ended = 0;
            }
            if (s->kind < FR_STREAM || s->kind > FR_END || (s->kind == FR_END && s->left)) return -1;
            if (s->kind == FR_END) s->ended = 1;
            if (!s->left) s->nh = 0;
            continue;
        }
        size_t k = s->left < n ? s->left : n;
        if (s->kind == FR_STREAM) {
            for (size_t done = 0; done < k;) {
                size_t c = REC_BUF - s->n < k - done ? REC_BUF - s->n : k - done;
                memcpy(s->buf + s->n, p + done, c);
                s->n += c;
                done += c;
                if (s->n == REC_BUF) data_write(s);
            }
        } else {
            if (s->ncons + k > s->capcons) {
                s->capcons = 2 * (s->ncons + k);
                s->cons = rec_xrealloc(s->cons, s->capcons);
            }
            memcpy(s->cons + s->ncons, p, k);
            s->ncons += k;
        }
        s->left -= (uint32_t)k;
        p += k;
        n -= k;
        if (!s->left) s->nh = 0;
    }
    return 0;
}

/* Ranks handed back to be run by another child (one whose process could
 * not be put back to its snapshot ran only some of its ranks). */
static int *rec_again_lo, *rec_again_hi, rec_nagain, rec_capagain;

static void run_again(int lo, int hi)
{
    if (rec_nagain == rec_capagain) {
        rec_capagain = rec_capagain ? 2 * rec_capagain : 16;
        rec_again_lo = rec_xrealloc(rec_again_lo, (size_t)rec_capagain * sizeof *rec_again_lo);
        rec_again_hi = rec_xrealloc(rec_again_hi, (size_t)rec_capagain * sizeof *rec_again_hi);
    }
    rec_again_lo[rec_nagain] = lo;
    rec_again_hi[rec_nagain++] = hi;
}

/* The child of a slot closed its pipe: its status, and its last rank's
 * stream (rank_done).  0, or the exit status the recording must end with. */
static int slot_done(rec_slot *s, int failed)
{
    int status;
    close(s->fd);
    s->fd = -1;
    while (waitpid(s->pid, &status, 0) < 0)
        if (errno != EINTR) {
            perror("parscope: recording: wait");
            return 1;
        }
    /* ended and nothing after: the child died starting its next rank */
    int r = s->ended && s->rank + 1 < s->rank_end ? s->rank + 1 : s->rank;
    /* it could not finish putting itself back after a whole rank: the
     * ranks after it go to another child, as when it could not begin */
    int unfinished = WIFEXITED(status) && WEXITSTATUS(status) == PS_SNAP_EXIT && s->ended && !s->nh;
    if (!unfinished && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
        /* a bad value: the rank said which (runtime/limits.h) */
        int bad = WIFEXITED(status) && WEXITSTATUS(status) == PS_EXIT_BAD_INPUT;
        if (!bad && WIFSIGNALED(status))
            fprintf(stderr, "parscope: recording: rank %d of %d died (signal %d)\n", r, rec_p, WTERMSIG(status));
        else if (!bad)
            fprintf(stderr, "parscope: recording: rank %d of %d failed (exit status %d)\n", r, rec_p,
                    WEXITSTATUS(status));
        return bad ? PS_EXIT_BAD_INPUT : 1;
    }
    if (failed || !s->ended || s->nh) {
        fprintf(stderr, "parscope: recording: rank %d of %d sent a cut or garbled stream\n", r, rec_p);
        return 1;
    }
    rank_done(s);
    if (s->rank + 1 < s->rank_end) run_again(s->rank + 1, s->rank_end);
    return 0;
}

/* ---- joining the ranks' streams ------------------------------------------- */

static int put(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n ? 0 : -1; }

/* Writes DIR/streams.pss from the data file and the construct table. */
static int join_streams(void)
{
    char path[4096], tmp[4096];
    char *cons = rec_cons;
    size_t conslen = rec_conslen;
    int best_cons = rec_conslines;
    snprintf(path, sizeof path, "%s/streams.pss", rec_dir);
    snprintf(tmp, sizeof tmp, "%s/.streams.pss.tmp", rec_dir);
    FILE *out = fopen(tmp, "wb");
    if (!out) {
        fprintf(stderr, "parscope: %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    int rc = 0;
    uint32_t u = (uint32_t)rec_p;
    rc |= put(out, PS_STREAMS_MAGIC, 8);
    rc |= put(out, &u, 4);
    u = (uint32_t)(best_cons > 0 ? best_cons : 0);
    rc |= put(out, &u, 4);
    for (size_t i = 0; i < conslen;) {
        size_t j = i;
        while (j < conslen && cons[j] != '\n') j++;
        uint16_t l = (uint16_t)(j - i);
        rc |= put(out, &l, 2);
        rc |= put(out, cons + i, l);
        i = j + 1;
    }
    /* the meta JSON: what ran, and rank 0's structure (the arguments its
     * constructs were called with, for the sheet) */
    json_t *mj = json_pack("{s:s?, s:i, s:I, s:I}", "workload", ps__rt.workload, "ranks", rec_p, "size",
                           (json_int_t)ps__problem_size_ran(), "iterations", (json_int_t)ps_iterations());
    if (!mj) mj = json_pack("{s:i}", "ranks", rec_p); /* a workload name that is not UTF-8 */
    /* the grid rank 0 said it ran (ps_set_grid), and the size that follows from it */
    snprintf(path, sizeof path, "%s/rank-0.params", rec_dir);
    json_t *pa0 = json_load_file(path, 0, NULL);
    static const char *const pkeys[] = {"size", "grid", "grid_per_rank"};
    for (int k = 0; k < 3 && json_is_object(pa0); k++)
        if (json_object_get(pa0, pkeys[k])) json_object_set(mj, pkeys[k], json_object_get(pa0, pkeys[k]));
    json_decref(pa0);
    unlink(path);
    snprintf(path, sizeof path, "%s/rank-0.structure", rec_dir);
    json_t *st0 = json_load_file(path, 0, NULL);
    if (st0) json_object_set_new(mj, "structure", st0);
    unlink(path);
    char *meta = json_dumps(mj, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(mj);
    if (!meta) {
        fprintf(stderr, "parscope: recording: out of memory\n");
        fclose(out);
        unlink(tmp);
        return -1;
    }
    size_t ml = strlen(meta);
    u = (uint32_t)ml;
    rc |= put(out, &u, 4);
    rc |= put(out, meta, ml);
    free(meta);
    for (int r = 0; r < rec_p; r++) rc |= put(out, &rec_len[r], 8);
    char *buf = malloc(REC_BUF);
    if (!buf) rc = -1;
    for (int r = 0; r < rec_p && !rc; r++)
        for (long c = rec_first[r]; c >= 0 && !rc; c = rec_chunk[c].next) {
            for (uint64_t done = 0; done < rec_chunk[c].len && !rc;) {
                size_t want = rec_chunk[c].len - done < REC_BUF ? (size_t)(rec_chunk[c].len - done) : REC_BUF;
                ssize_t k = pread(rec_data, buf, want, (off_t)(rec_chunk[c].off + done));
                if (k < 0 && errno == EINTR) continue;
                if (k <= 0) {
                    fprintf(stderr, "parscope: %s: %s\n", rec_data_path, k ? strerror(errno) : "cut short");
                    rc = -1;
                    break;
                }
                rc |= put(out, buf, (size_t)k);
                done += (uint64_t)k;
            }
        }
    free(buf);
    /* a directory the caller reads at once and removes (PARSCOPE_RECORD_SCRATCH: predict's own
     * temporary one) needs its file in the page cache, not on the disk: the sync took 90 ms of a
     * 1024-rank recording's 0.5 s (docs/BENCHMARKS.md) */
    if (fflush(out) || (!rec_scratch && fsync(fileno(out)))) rc = -1;
    if (fclose(out)) rc = -1;
    snprintf(path, sizeof path, "%s/streams.pss", rec_dir);
    if (rc || rename(tmp, path)) {
        fprintf(stderr, "parscope: cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* ---- life cycle -------------------------------------------------------------- */

/* The child: ranks r .. end - 1, sending to fd; the parent's other
 * descriptors closed.  With more than one rank it takes a snapshot of
 * itself first, and each rank's ps_finalize puts it back to that snapshot
 * for the next (rec_finalize): a rank costs no fork, no copy-on-write
 * faults and no exit.  A process that cannot be put back ends after the
 * rank it ran, and the parent hands the rest to another child. */
static int rec_child(int r, int end, int fd, const rec_slot *slot, int jobs)
{
    for (int k = 0; k < jobs; k++)
        if (slot[k].fd >= 0) close(slot[k].fd);
    close(rec_data);
    rec_fd = fd;
    rec_end = end;
    if (end - r > 1) {
        if (rec_buf) ps__snap_exclude(rec_buf, REC_BUF);
        /* 0: taken; 1: put back to it after a rank, the next one's number
         * in its word; -1: none, this rank only (the snapshot holds what
         * was set before it: what is set here is set again each time) */
        int t = ps__snap_take();
        if (t == 1) r = (int)*ps__snap_word();
        rec_snap = t >= 0;
        if (t < 0) rec_end = r + 1;
    }
    ps__rt.rank = ps__rt.job_rank = r;
    ps__rt.size = rec_p;
    rec_ctx.rank = r;
    if (!rec_buf && !(rec_buf = malloc(REC_BUF))) rec_die("allocating the stream buffer");
    atexit(rec_atexit);
    return 0; /* run the program as rank r */
}

static int rec_init(void)
{
    fflush(NULL);
    /* ranks are independent: as many at once as there are processors (a
     * process per rank costs a fork, its copy-on-write faults and an exit;
     * on a busy machine most of the wall time is waiting for a processor) */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    /* PARSCOPE_RECORD_JOBS=N: at most N at once (tests compare 1 and many) */
    const char *ej = getenv("PARSCOPE_RECORD_JOBS");
    if (ej && atol(ej) > 0) ncpu = atol(ej);
    int jobs = ncpu > 1 ? (int)(ncpu < 64 ? ncpu : 64) : 1, running = 0, fail = 0;
    /* ranks per child: a child runs its ranks one after another, put back
     * to its snapshot between them (rec_child), so that a few children
     * carry many ranks; about four children a processor keep them all busy
     * to the end.  PARSCOPE_RECORD_BATCH=N: N ranks a child (1: a process
     * per rank, as tests compare) */
    int batch = (rec_p + 4 * jobs - 1) / (4 * jobs);
    if (batch > 256) batch = 256;
    const char *eb = getenv("PARSCOPE_RECORD_BATCH");
    if (eb && atol(eb) > 0) batch = atol(eb) < rec_p ? (int)atol(eb) : rec_p;
    /* the streams as they come, in pieces, until they are joined in rank
     * order: in memory (the simulator holds them all anyway), which costs
     * neither the file system's block allocation of writing them nor a
     * second pass through it; in DIR where there is no memfd, or with
     * PARSCOPE_RECORD_DATA_FILE=1 (tests put both ways to work) */
    const char *df = getenv("PARSCOPE_RECORD_DATA_FILE");
    rec_data = df && *df == '1' ? -1 : memfd_create("parscope-streams", MFD_CLOEXEC);
    rec_data_mem = rec_data >= 0;
    if (rec_data_mem) {
        snprintf(rec_data_path, sizeof rec_data_path, "the recording's data (in memory, for %s)", rec_dir);
    } else {
        snprintf(rec_data_path, sizeof rec_data_path, "%s/.streams.data", rec_dir);
        rec_data = open(rec_data_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    }
    if (rec_data < 0) {
        fprintf(stderr, "parscope: %s: %s\n", rec_data_path, strerror(errno));
        _exit(1);
    }
    rec_first = rec_private(NULL, 0, (size_t)rec_p * sizeof *rec_first);
    rec_last = rec_private(NULL, 0, (size_t)rec_p * sizeof *rec_last);
    rec_len = rec_private(NULL, 0, (size_t)rec_p * sizeof *rec_len);
    for (int r = 0; r < rec_p; r++) {
        rec_first[r] = rec_last[r] = -1;
        rec_len[r] = 0;
    }
    /* the children's stream buffer, mapped once here: each child gets it
     * fresh and zeroed (MADV_WIPEONFORK, Linux 4.14), without a mapping of
     * its own; the parent never touches it */
    void *cb = mmap(NULL, REC_BUF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (cb != MAP_FAILED && madvise(cb, REC_BUF, MADV_WIPEONFORK) == 0)
        rec_buf = cb;
    else if (cb != MAP_FAILED)
        munmap(cb, REC_BUF);
    rec_slot slot[64];
    struct pollfd pfd[64];
    int who[64];
    uint8_t *in = rec_private(NULL, 0, 1 << 16);
    for (int k = 0; k < jobs; k++) {
        slot[k] = (rec_slot){.fd = -1};
        slot[k].buf = rec_private(NULL, 0, REC_BUF);
    }
    /* a child that failed ends the forking; those running are still read to
     * their end (a bad value's rank writes its status file), then the
     * recording ends with the first failure's status */
    for (int next = 0; next < rec_p || rec_nagain || running;) {
        while (running < jobs && (next < rec_p || rec_nagain) && !fail) {
            int k = 0;
            while (slot[k].fd >= 0) k++;
            int lo, hi;
            if (rec_nagain) {
                lo = rec_again_lo[--rec_nagain];
                hi = rec_again_hi[rec_nagain];
            } else {
                lo = next;
                hi = next + batch < rec_p ? next + batch : rec_p;
            }
            int pp[2];
            if (pipe2(pp, O_CLOEXEC) != 0) {
                fprintf(stderr, "parscope: recording: cannot make a pipe for rank %d: %s\n", lo, strerror(errno));
                fail = 1;
                break;
            }
            pid_t pid = fork();
            if (pid < 0) {
                fprintf(stderr, "parscope: recording: cannot fork rank %d: %s\n", lo, strerror(errno));
                close(pp[0]);
                close(pp[1]);
                fail = 1;
                break;
            }
            if (pid == 0) {
                close(pp[0]);
                return rec_child(lo, hi, pp[1], slot, jobs);
            }
            close(pp[1]);
            slot[k].pid = pid;
            slot[k].fd = pp[0];
            slot[k].rank = lo;
            slot[k].rank_end = hi;
            if (lo == next) next = hi;
            slot[k].nh = 0;
            slot[k].ended = 0;
            slot[k].n = 0;
            slot[k].ncons = 0;
            running++;
        }
        if (!running) break;
        int np = 0;
        for (int k = 0; k < jobs; k++)
            if (slot[k].fd >= 0) {
                pfd[np] = (struct pollfd){.fd = slot[k].fd, .events = POLLIN};
                who[np++] = k;
            }
        if (poll(pfd, (nfds_t)np, -1) < 0) {
            if (errno == EINTR) continue;
            perror("parscope: recording: poll");
            fail = 1;
            break;
        }
        for (int i = 0; i < np; i++) {
            if (!pfd[i].revents) continue;
            rec_slot *s = &slot[who[i]];
            ssize_t k = read(s->fd, in, 1 << 16);
            if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            int garbled = 0;
            if (k > 0) {
                /* once a rank failed the others' bytes are only drained */
                if (!fail && slot_take(s, in, (size_t)k) != 0) {
                    garbled = 1;
                } else {
                    continue;
                }
            }
            int x = slot_done(s, garbled || k < 0);
            running--;
            if (x && !fail) fail = x;
        }
    }
    for (int k = 0; k < jobs; k++) free(slot[k].cons);
    int rc = fail ? fail : join_streams() ? 1 : 0;
    data_unlink();
    close(rec_data);
    _exit(rc);
}

static void rec_finalize(void)
{
    char path[4096];
    rec_finalized = 1;
    rec_flush();
    /* the construct table, so the simulator can name what issued each instruction */
    size_t len = 0, cap = 4096;
    char *cons = malloc(cap);
    if (!cons) rec_die("allocating the construct table");
    int n = ps__construct_count();
    for (int i = 0; i < n; i++) {
        const char *name = ps_construct_name(i);
        size_t l = strlen(name);
        if (len + l + 1 > cap) {
            cap = 2 * (len + l + 1);
            char *c = realloc(cons, cap);
            if (!c) rec_die("allocating the construct table");
            cons = c;
        }
        memcpy(cons + len, name, l);
        cons[len + l] = '\n';
        len += l + 1;
    }
    send_frame(FR_CONS, cons, len);
    free(cons);
    if (ps__rt.rank == 0) {
        snprintf(path, sizeof path, "%s/rank-0.structure", rec_dir);
        json_t *st = ps__structure_json();
        if (json_dump_file(st, path, JSON_COMPACT) != 0) rec_die(path);
        json_decref(st);
        if (ps__rt.grid_w) {
            snprintf(path, sizeof path, "%s/rank-0.params", rec_dir);
            json_t *pa = ps__params_json(ps__rt.size);
            if (!pa || json_dump_file(pa, path, JSON_COMPACT) != 0) rec_die(path);
            json_decref(pa);
        }
    }
    send_frame(FR_END, NULL, 0);
    fflush(NULL);
    if (rec_snap && ps__rt.rank + 1 < rec_end) {
        /* the next rank, in this process put back to its snapshot; if it
         * cannot be, the parent hands the ranks left to another child */
        *ps__snap_word() = ps__rt.rank + 1;
        ps__snap_restore();
    }
    if (close(rec_fd) != 0) rec_die("closing the instruction stream");
    _exit(0);
}

static void rec_abort(int status)
{
    fflush(NULL);
    _exit(status ? status : 1);
}

static const ps__backend record_backend = {
    .name = "recording",
    .init = rec_init,
    .finalize = rec_finalize,
    .isend = rec_isend,
    .irecv = rec_irecv,
    .wait = rec_wait,
    .waitall = rec_waitall,
    .send = rec_send,
    .recv = rec_recv,
    .barrier = rec_barrier,
    .compute = rec_compute,
    .work = rec_work,
    .mark = rec_mark,
    .abort = rec_abort,
};

const ps__backend *ps__record_backend(void)
{
    const char *e = getenv("PARSCOPE_RECORD");
    if (!e || !*e) return NULL;
    char *end;
    long p = strtol(e, &end, 10);
    if (*end || p < 1 || p > (1L << 24)) {
        fprintf(stderr, "parscope: PARSCOPE_RECORD=%s: expected a rank count 1..16777216\n", e);
        exit(2);
    }
    const char *d = getenv("PARSCOPE_RECORD_DIR");
    if (!d || !*d) {
        fprintf(stderr, "parscope: PARSCOPE_RECORD needs PARSCOPE_RECORD_DIR (where the streams go)\n");
        exit(2);
    }
    struct stat st;
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "parscope: PARSCOPE_RECORD_DIR=%s: not a directory\n", d);
        exit(2);
    }
    if (strlen(d) >= sizeof rec_dir) {
        fprintf(stderr, "parscope: PARSCOPE_RECORD_DIR: path too long\n");
        exit(2);
    }
    rec_p = (int)p;
    snprintf(rec_dir, sizeof rec_dir, "%s", d);
    const char *scratch = getenv("PARSCOPE_RECORD_SCRATCH");
    rec_scratch = scratch && !strcmp(scratch, "1");
    return &record_backend;
}
