/*
 * record.c - the recording back end: a program becomes instruction streams.
 *
 * Selected by PARSCOPE_RECORD=P (ps_init asks ps__record_backend()).  As the
 * estimator seed's instruction stream generator "calls the program
 * successively for values of PID from 0 to NPROCS-1", init() forks one child
 * per rank id 0..P-1, as many at a time as there are processors.  A child returns into the program
 * as that rank and runs it without MPI: messages become SEND / RECEIVE /
 * BSEND / BRECEIVE / WAIT / WAITONE instructions (received buffers are left
 * as they are: their contents are garbage), computation becomes WORK of its
 * flop count, barriers expand to point-to-point messages on a binary tree.
 * The parent waits for each child, then joins the per-rank streams into
 * PARSCOPE_RECORD_DIR/streams.pss (src/sim/stream.h) and exits: status 0,
 * or 1 if a rank failed.  It never returns into the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "runtime/rt.h"
#include "runtime/structure.h"
#include "util/assert.h"
#include "trace/stream_format.h"

#define REC_BUF (1 << 20)

static int rec_p;
static pid_t *rec_pid;        /* the parent's: each rank's child */
static char rec_dir[4000];
static int rec_fd = -1;
static uint8_t *rec_buf;
static size_t rec_n;
static ps_insn_ctx rec_ctx;
static uint64_t rec_nreq;     /* nonblocking requests issued */

static int rec_finalized;

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

static void rec_flush(void)
{
    size_t off = 0;
    while (off < rec_n) {
        ssize_t w = write(rec_fd, rec_buf + off, rec_n - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            rec_die("writing the instruction stream");
        }
        off += (size_t)w;
    }
    rec_n = 0;
}

static void emit(uint8_t op, int peer, uint64_t n, int tag, int construct)
{
    if (rec_n + PS_INSN_MAX > REC_BUF) rec_flush();
    ps_insn in = {.op = op, .peer = peer, .tag = tag, .construct = (uint16_t)construct, .n = n};
    rec_n += ps_insn_encode(&rec_ctx, &in, rec_buf + rec_n);
    PS_ASSERT(rec_n <= REC_BUF);
}

/* ---- the back end's operations -------------------------------------------- */

static ps_request rec_isend(const void *buf, size_t bytes, int dest, int tag, int construct)
{
    (void)buf;
    emit(PS_OP_SEND, dest, bytes, tag, construct);
    return (ps_request)(rec_nreq++);
}

static ps_request rec_irecv(void *buf, size_t bytes, int src, int tag, int construct)
{
    (void)buf;
    emit(PS_OP_RECV, src, bytes, tag, construct);
    return (ps_request)(rec_nreq++);
}

static void rec_wait(ps_request req)
{
    if (req < 0 || (uint64_t)req >= rec_nreq) return;
    emit(PS_OP_WAITONE, -1, rec_nreq - 1 - (uint64_t)req, rec_ctx.tag, PS_C_WAIT);
}

static void rec_waitall(void) { emit(PS_OP_WAIT, -1, 0, rec_ctx.tag, PS_C_WAIT); }

static void rec_send(const void *buf, size_t bytes, int dest, int tag, int construct)
{
    (void)buf;
    emit(PS_OP_BSEND, dest, bytes, tag, construct);
}

static void rec_recv(void *buf, size_t bytes, int src, int tag, int construct)
{
    (void)buf;
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
    emit(PS_OP_WORK, -1, (uint64_t)(flops > 0 ? flops + 0.5 : 0), rec_ctx.tag, construct);
}

static void rec_work(double flops) { rec_compute(PS_C_WORK, 0, 0, flops); }

static void rec_mark(int construct) { emit(PS_OP_MARK, -1, 0, rec_ctx.tag, construct); }

/* ---- joining the ranks' streams ------------------------------------------- */

static int put(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n ? 0 : -1; }

/* Writes DIR/streams.pss from DIR/rank-R.stream and DIR/rank-R.cons. */
static int join_streams(void)
{
    char path[4096], tmp[4096];
    /* the longest construct table (every rank registers the same names in order) */
    char *cons = NULL;
    size_t conslen = 0;
    int best_cons = -1;
    for (int r = 0; r < rec_p; r++) {
        snprintf(path, sizeof path, "%s/rank-%d.cons", rec_dir, r);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        char *buf = NULL;
        size_t cap = 0;
        ssize_t k = getdelim(&buf, &cap, '\0', f);
        fclose(f);
        int lines = 0;
        for (ssize_t i = 0; i < k; i++) lines += buf[i] == '\n';
        if (k > 0 && lines > best_cons) {
            free(cons);
            cons = buf;
            conslen = (size_t)k;
            best_cons = lines;
        } else {
            free(buf);
        }
    }
    snprintf(path, sizeof path, "%s/streams.pss", rec_dir);
    snprintf(tmp, sizeof tmp, "%s/.streams.pss.tmp", rec_dir);
    FILE *out = fopen(tmp, "wb");
    if (!out) {
        fprintf(stderr, "parscope: %s: %s\n", tmp, strerror(errno));
        free(cons);
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
    free(cons);
    /* the meta JSON: what ran, and rank 0's structure (the arguments its
     * constructs were called with, for the sheet) */
    json_t *mj = json_pack("{s:s?, s:i, s:I, s:I}", "workload", ps__rt.workload, "ranks", rec_p, "size",
                           (json_int_t)ps_problem_size(), "iterations", (json_int_t)ps_iterations());
    if (!mj) mj = json_pack("{s:i}", "ranks", rec_p); /* a workload name that is not UTF-8 */
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
    for (int r = 0; r < rec_p; r++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/rank-%d.stream", rec_dir, r);
        if (stat(path, &st) != 0) {
            fprintf(stderr, "parscope: %s: %s\n", path, strerror(errno));
            rc = -1;
            break;
        }
        uint64_t l = (uint64_t)st.st_size;
        rc |= put(out, &l, 8);
    }
    char *buf = malloc(REC_BUF);
    if (!buf) rc = -1;
    for (int r = 0; r < rec_p && !rc; r++) {
        snprintf(path, sizeof path, "%s/rank-%d.stream", rec_dir, r);
        FILE *in = fopen(path, "rb");
        if (!in) {
            fprintf(stderr, "parscope: %s: %s\n", path, strerror(errno));
            rc = -1;
            break;
        }
        size_t k;
        while ((k = fread(buf, 1, REC_BUF, in)) > 0) rc |= put(out, buf, k);
        fclose(in);
        unlink(path);
        snprintf(path, sizeof path, "%s/rank-%d.cons", rec_dir, r);
        unlink(path);
    }
    free(buf);
    if (fflush(out) || fsync(fileno(out))) rc = -1;
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

/* Waits for one child rank; exits 1 if it failed. */
static void rec_reap(void)
{
    int status;
    pid_t pid;
    while ((pid = wait(&status)) < 0)
        if (errno != EINTR) {
            perror("parscope: recording: wait");
            _exit(1);
        }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        int r = -1;
        for (int k = 0; k < rec_p; k++)
            if (rec_pid[k] == pid) r = k;
        if (WIFSIGNALED(status))
            fprintf(stderr, "parscope: recording: rank %d of %d died (signal %d)\n", r, rec_p, WTERMSIG(status));
        else
            fprintf(stderr, "parscope: recording: rank %d of %d failed (exit status %d)\n", r, rec_p,
                    WEXITSTATUS(status));
        while (wait(&status) > 0 || errno == EINTR) {}
        _exit(1);
    }
}

static int rec_init(void)
{
    fflush(NULL);
    /* ranks are independent: as many at once as there are processors (a
     * process per rank costs a fork, its copy-on-write faults and an exit;
     * on a busy machine most of the wall time is waiting for a processor) */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = ncpu > 1 ? (int)(ncpu < 64 ? ncpu : 64) : 1, running = 0;
    if (!(rec_pid = calloc((size_t)rec_p, sizeof *rec_pid))) {
        fprintf(stderr, "parscope: recording: out of memory\n");
        _exit(1);
    }
    for (int r = 0; r < rec_p; r++) {
        if (running == jobs) {
            rec_reap();
            running--;
        }
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "parscope: recording: cannot fork rank %d: %s\n", r, strerror(errno));
            _exit(1);
        }
        if (pid == 0) {
            char path[4096];
            ps__rt.rank = r;
            ps__rt.size = rec_p;
            rec_ctx.rank = r;
            snprintf(path, sizeof path, "%s/rank-%d.stream", rec_dir, r);
            rec_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            if (rec_fd < 0) rec_die(path);
            if (!(rec_buf = malloc(REC_BUF))) rec_die("allocating the stream buffer");
            atexit(rec_atexit);
            return 0; /* run the program as rank r */
        }
        rec_pid[r] = pid;
        running++;
    }
    while (running--) rec_reap();
    _exit(join_streams() ? 1 : 0);
}

static void rec_finalize(void)
{
    char path[4096];
    rec_finalized = 1;
    rec_flush();
    if (close(rec_fd) != 0) rec_die("closing the instruction stream");
    /* the construct table, so the simulator can name what issued each instruction */
    snprintf(path, sizeof path, "%s/rank-%d.cons", rec_dir, ps__rt.rank);
    FILE *f = fopen(path, "wb");
    if (!f) rec_die(path);
    int n = ps__construct_count();
    for (int i = 0; i < n; i++) fprintf(f, "%s\n", ps_construct_name(i));
    if (fclose(f) != 0) rec_die(path);
    if (ps__rt.rank == 0) {
        snprintf(path, sizeof path, "%s/rank-0.structure", rec_dir);
        json_t *st = ps__structure_json();
        if (json_dump_file(st, path, JSON_COMPACT) != 0) rec_die(path);
        json_decref(st);
    }
    fflush(NULL);
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
    return &record_backend;
}
