/*
 * mpi_backend.c - the runtime over MPI: messages, the event trace, clock
 * synchronisation, and collecting the trace on rank 0 at the end.
 *
 * Clock model: every rank r estimates its offset to rank 0's clock,
 * o_r(t) = local - global, from the ping-pong with the smallest round trip
 * (the offset is then known to +/- rtt/2), once at start and once at end; the
 * two estimates give a linear drift model o_r(t) = o0 + d (t - m0).  Ranks
 * on the same host share CLOCK_MONOTONIC, so their offset is zero by
 * construction and only measured (reported), not applied: applying a noisy
 * estimate of a true zero would only add error.
 */
#include <mpi.h>

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/clock.h"
#include "runtime/config.h"
#include "runtime/rt.h"
#include "trace/sheet.h"
#include "trace/trace.h"
#include "util/assert.h"

typedef struct req {
    MPI_Request mpi;
    int         active;
    int         is_recv;
    int         peer, tag, construct;
    size_t      bytes;
    uint32_t    id;        /* the trace's request id (aux of its start and completion) */
} req;

static req   *reqs;
static int    nreqs, reqcap;   /* slots in use (in posting order) and capacity */
static int    nactive;
static uint32_t reqseq;       /* request ids, 1-based per rank */
static uint32_t reqbase;      /* the handle of slot 0 (reqseq when the table was last emptied) */
static MPI_Comm comm = MPI_COMM_NULL;
static int    we_initialized_mpi;
static char   hostname[64];
static char   mpi_lib[MPI_MAX_LIBRARY_VERSION_STRING];
static char   status_file[4096];

/* clock model of this rank */
static ps_clock_est clk_start, clk_end;
static ps_clock_model clk_model;
static int    clk_same_host = 1;

#define TAG_CLOCK 0x7ff0
#define TAG_GATHER 0x7ff1
#define TAG_WARMUP 0x7ff2

/* ---- clock synchronisation -------------------------------------------------- */

/* One estimate of this rank's offset to rank 0 (rank 0's is zero). */
static ps_clock_est clock_estimate(void)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    ps_clock_sample smp[PS_CLOCKSYNC_ROUNDS];
    ps_clock_est e = {ps_now(), 0, 0};
    for (int r = 1; r < p; r++) {
        MPI_Barrier(comm);
        if (me == 0) {
            for (int k = 0; k < PS_CLOCKSYNC_ROUNDS; k++) {
                double dummy, tb;
                MPI_Recv(&dummy, 1, MPI_DOUBLE, r, TAG_CLOCK, comm, MPI_STATUS_IGNORE);
                tb = ps_now();
                MPI_Send(&tb, 1, MPI_DOUBLE, r, TAG_CLOCK, comm);
            }
        } else if (me == r) {
            for (int k = 0; k < PS_CLOCKSYNC_ROUNDS; k++) {
                smp[k].ta = ps_now();
                MPI_Send(&smp[k].ta, 1, MPI_DOUBLE, 0, TAG_CLOCK, comm);
                MPI_Recv(&smp[k].tb, 1, MPI_DOUBLE, 0, TAG_CLOCK, comm, MPI_STATUS_IGNORE);
                smp[k].tc = ps_now();
            }
            e = ps_clock_best(smp, PS_CLOCKSYNC_ROUNDS);
        }
    }
    return e;
}

static double global_time(double local)
{
    return clk_same_host ? local : ps_clock_global(&clk_model, local);
}

/* A timestamp for an event, or nothing when tracing is off (--no-trace:
 * the baseline against which the instrument's own cost is measured). */
static inline double stamp(void) { return ps__rt.tracing ? ps_now() : 0.0; }

/* ---- request table ---------------------------------------------------------- */

static int req_new(void)
{
    if (nreqs == reqcap) {
        int nc = reqcap ? reqcap * 2 : PS_REQUEST_TABLE_INITIAL;
        req *n = realloc(reqs, (size_t)nc * sizeof *n);
        if (!n) ps_abort("out of memory: request table of %d entries", nc);
        reqs = n;
        reqcap = nc;
    }
    return nreqs++;
}

/* A slot for the next request (its handle: reqbase + the slot).  The table
 * is reused from the start whenever this rank has no request outstanding;
 * handles are not: a request's handle is its number on the rank (0-based,
 * the runtime's own warm-up requests counted), so a completed one stays
 * completed (waiting on it again returns at once, as MPI's on
 * MPI_REQUEST_NULL does) and never names a later request. */
static int req_alloc(void)
{
    if (nactive == 0) {
        nreqs = 0;
        reqbase = reqseq;
    }
    return req_new();
}

/* The slot of handle r, or -1 when it names no request still outstanding. */
static int req_slot(ps_request r)
{
    if (r < 0) return -1;
    uint32_t k = ((uint32_t)r - reqbase) & PS_REQUEST_HANDLE_MASK;
    return k < (uint32_t)nreqs && reqs[k].active ? (int)k : -1;
}

/* ---- messages ------------------------------------------------------------- */

/* Posts a nonblocking send or receive and records it (a send's post is its
 * SEND event; a receive's post is a POST, its completion the RECV). */
static ps_request post(int is_recv, void *buf, size_t bytes, int peer, int tag, int construct)
{
    if (!buf) buf = is_recv ? ps__scratch_in(bytes) : ps_scratch(bytes);
    int i = req_alloc();
    req *q = &reqs[i];
    double t0 = stamp();
    if (is_recv) MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, tag, comm, &q->mpi);
    else MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, tag, comm, &q->mpi);
    double t1 = stamp();
    q->active = 1;
    q->is_recv = is_recv;
    q->peer = peer;
    q->tag = tag;
    q->construct = construct;
    q->bytes = bytes;
    q->id = ++reqseq;
    nactive++;
    ps__record(is_recv ? PS_EV_POST : PS_EV_SEND, construct, t0, t1, peer, tag, bytes, PS_EVF_NONBLOCKING, q->id);
    return (ps_request)((reqbase + (uint32_t)i) & PS_REQUEST_HANDLE_MASK);
}

static ps_request mpi_isend(const void *buf, size_t bytes, int dest, int tag, int construct)
{
    return post(0, (void *)buf, bytes, dest, tag, construct);
}

static ps_request mpi_irecv(void *buf, size_t bytes, int src, int tag, int construct)
{
    return post(1, buf, bytes, src, tag, construct);
}

/* The bytes a completed receive took (a message shorter than the receive
 * posted: its own size), `posted` where MPI cannot say. */
static size_t received_bytes(const MPI_Status *st, size_t posted)
{
    int n = 0;
    return MPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n >= 0 && n != MPI_UNDEFINED ? (size_t)n : posted;
}

/* all: part of a wait for every outstanding request (its events say so) */
static void complete(req *q, int all)
{
    /* (at \CLOSE0: a request the program never waited for) */
    ps__waiting(ps__rt.finalized ? (q->is_recv ? "\\CLOSE0's wait for a receive the program left open"
                                                : "\\CLOSE0's wait for a send the program left open")
                : q->is_recv ? "a receive (wait)"
                             : "a send (wait)",
                q->peer, q->bytes);
    double t0 = stamp();
    MPI_Status st;
    MPI_Wait(&q->mpi, &st);
    double t1 = stamp();
    ps__waiting(NULL, -1, 0);
    ps__record(q->is_recv ? PS_EV_RECV : PS_EV_WAIT, q->construct, t0, t1, q->peer, q->tag,
               q->is_recv ? received_bytes(&st, q->bytes) : q->bytes,
               PS_EVF_NONBLOCKING | (all ? PS_EVF_WAITALL : 0), q->id);
    q->active = 0;
    nactive--;
}

static void mpi_wait(ps_request r)
{
    int k = req_slot(r);
    if (k >= 0) complete(&reqs[k], 0);
}

static void mpi_waitall(void)
{
    /* in posting order, so each completion is recorded with its own interval */
    for (int i = 0; i < nreqs && nactive > 0; i++)
        if (reqs[i].active) complete(&reqs[i], 1);
    nreqs = 0;
}

static void mpi_send(const void *buf, size_t bytes, int dest, int tag, int construct)
{
    if (!buf) buf = ps_scratch(bytes);
    ps__waiting("a blocking send", dest, bytes);
    double t0 = stamp();
    MPI_Send(buf, (int)bytes, MPI_BYTE, dest, tag, comm);
    double t1 = stamp();
    ps__waiting(NULL, -1, 0);
    ps__record(PS_EV_SEND, construct, t0, t1, dest, tag, bytes, 0, 0);
}

static void mpi_recv(void *buf, size_t bytes, int src, int tag, int construct)
{
    if (!buf) buf = ps__scratch_in(bytes);
    ps__waiting("a blocking receive", src, bytes);
    double t0 = stamp();
    MPI_Status st;
    MPI_Recv(buf, (int)bytes, MPI_BYTE, src, tag, comm, &st);
    double t1 = stamp();
    ps__waiting(NULL, -1, 0);
    ps__record(PS_EV_RECV, construct, t0, t1, src, tag, received_bytes(&st, bytes), 0, 0);
}

/* --alone: the job's ranks start (and leave their set-up) together, so that
 * the copies compute at the same time, each timed */
static void mpi_align(void)
{
    if (ps__rt.alone) MPI_Barrier(MPI_COMM_WORLD);
}

static void mpi_barrier(int construct)
{
    ps__waiting("a barrier", -1, 0);
    double t0 = stamp();
    MPI_Barrier(comm);
    double t1 = stamp();
    ps__waiting(NULL, -1, 0);
    ps__record(PS_EV_BARRIER, construct, t0, t1, -1, 0, 0, 0, 0);
}

static void mpi_compute(int construct, double t0, double t1, double flops)
{
    ps__record(PS_EV_COMPUTE, construct, t0, t1, -1, 0, (uint64_t)(flops > 0 ? flops : 0), 0, 0);
}

/* A dependent chain of multiply-adds: one flop pair per step, not
 * vectorisable, so its time per flop is stable and easy to model. */
static volatile double work_sink;

static void mpi_work(double flops)
{
    double t0 = stamp();
    double x = 1.0, a = 0.999999, b = 1e-7;
    long n = (long)(flops / 2);
    for (long i = 0; i < n; i++) x = x * a + b;
    work_sink = x;
    mpi_compute(PS_C_WORK, t0, stamp(), flops);
}

static void mpi_mark(int construct)
{
    double t = stamp();
    ps__record(PS_EV_MARK, construct, t, t, -1, 0, 0, 0, 0);
}

static void mpi_abort(int status)
{
    if (comm != MPI_COMM_NULL) MPI_Abort(MPI_COMM_WORLD, status);
    exit(status);
}

int ps__mpi_all_ok(int ok)
{
    int in = ok ? 1 : 0, out = in;
    if (comm != MPI_COMM_NULL) MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MIN, comm);
    return out;
}

/* ---- start and end ----------------------------------------------------------- */

/* Status markers for the launcher (PARSCOPE_STATUS_DIR): rank.N.alive
 * while running, renamed to rank.N.died on a fatal signal and to
 * rank.N.stopped when the launcher terminates the rank, removed at the end;
 * so after a failed job the launcher can name the rank that died first.
 * Beside them, rank.N.failed holds the line of a rank that ended the job
 * (rt.c's ps_abort) and rank.N.bad a bad value's (limits.c). */
static char status_died[4096], status_stopped[4096];

/* Appends s to buf at *o (async-signal-safe). */
static void put_str(char *buf, size_t len, size_t *o, const char *s)
{
    while (*s && *o + 1 < len) buf[(*o)++] = *s++;
    buf[*o] = '\0';
}

static void put_int(char *buf, size_t len, size_t *o, int v)
{
    char d[16];
    int n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do d[n++] = (char)('0' + u % 10);
    while ((u /= 10) && n < 15);
    if (v < 0) d[n++] = '-';
    while (n > 0 && *o + 1 < len) buf[(*o)++] = d[--n];
    buf[*o] = '\0';
}

static const char *sig_name(int sig)
{
    static const struct { int sig; const char *name; } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"}, {SIGILL, "SIGILL"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig) return names[i].name;
    return NULL;
}

static void put_sig(char *buf, size_t len, size_t *o, int sig)
{
    const char *name = sig_name(sig);
    if (name) put_str(buf, len, o, name);
    else {
        put_str(buf, len, o, "signal ");
        put_int(buf, len, o, sig);
    }
}

/* "parscope: rank R on HOST: killed by SIGSEGV" on stderr: the launcher may
 * run on another host, where this rank's marker file cannot be seen, but
 * every launcher forwards the ranks' stderr (launch.c reads the line). */
static void say_died(int sig)
{
    char buf[192];
    size_t o = 0;
    put_str(buf, sizeof buf, &o, "parscope: rank ");
    put_int(buf, sizeof buf, &o, ps__rt.job_rank);
    put_str(buf, sizeof buf, &o, " on ");
    put_str(buf, sizeof buf, &o, hostname);
    put_str(buf, sizeof buf, &o, ": killed by ");
    put_sig(buf, sizeof buf, &o, sig);
    put_str(buf, sizeof buf, &o, "\n");
    ssize_t w = write(STDERR_FILENO, buf, o);
    (void)w;
}

static void drop_status(void)
{
    if (status_file[0]) unlink(status_file);
}

static void put_hex(char *buf, size_t len, size_t *o, uintptr_t v)
{
    char d[2 * sizeof v];
    int n = 0;
    do d[n++] = "0123456789abcdef"[v & 15];
    while ((v >>= 4) && n < (int)sizeof d);
    put_str(buf, len, o, "0x");
    while (n > 0 && *o + 1 < len) buf[(*o)++] = d[--n];
    buf[*o] = '\0';
}

/* The fatal signals the runtime reports, and SIGTERM (a rank stopped). */
static const int status_sigs[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM};

/* The handlers found after MPI's start (MPI's own, or the default): each
 * fatal signal is handed on to its own after the marker and the stack are
 * written. */
static struct sigaction prev_action[NSIG];
/* Whether a signal has a handler of the program's own (its code is in the
 * program's executable): such a handler may recover from the fault (a guard
 * page mapped on demand), so the runtime leaves it alone and reports nothing
 * for that signal.  A library's (MPI's, UCX's, a sanitizer's) only reports
 * and ends the process: the runtime's comes first, then hands on to it. */
static int had_own_handler[NSIG];

static int in_program_image(const void *fn)
{
    Dl_info prog, h;
    const void *phdr = (const void *)getauxval(AT_PHDR);   /* inside the executable's image */
    return phdr && dladdr(phdr, &prog) && dladdr(fn, &h) && prog.dli_fbase == h.dli_fbase;
}

static void note_own_handlers(void)
{
    for (size_t i = 0; i < sizeof status_sigs / sizeof status_sigs[0]; i++) {
        struct sigaction a;
        int sig = status_sigs[i];
        if (sig == SIGTERM || sigaction(sig, NULL, &a) != 0 || a.sa_handler == SIG_DFL || a.sa_handler == SIG_IGN)
            continue;
        had_own_handler[sig] = in_program_image((a.sa_flags & SA_SIGINFO) ? (const void *)a.sa_sigaction
                                                                          : (const void *)a.sa_handler);
    }
}

/* Where the signal struck and the stack, appended to the rank's died
 * marker (the launcher shows them; a rank's stderr can be lost when the
 * launcher ends the job before forwarding it), or on stderr where this
 * rank has no marker (another host).  Async-signal-safe: backtrace() was
 * called once at the start, so its unwinder is loaded. */
static void write_stack(int sig, const siginfo_t *si, const void *uc)
{
    int fd = status_file[0] ? open(status_died, O_WRONLY | O_APPEND) : -1;
    if (fd < 0) fd = STDERR_FILENO;   /* no marker, or none to be opened: the account goes to stderr */
    char buf[256];
    size_t o = 0;
    put_sig(buf, sizeof buf, &o, sig);
    if (sig == SIGSEGV || sig == SIGBUS) {
        put_str(buf, sizeof buf, &o, si->si_code == SEGV_MAPERR && sig == SIGSEGV ? " (address not mapped)"
                                      : si->si_code == SEGV_ACCERR && sig == SIGSEGV ? " (no access)" : "");
        put_str(buf, sizeof buf, &o, " at address ");
        put_hex(buf, sizeof buf, &o, (uintptr_t)si->si_addr);
    }
    uintptr_t pc = 0;
#if defined(__x86_64__) && defined(REG_RIP)
    if (uc) pc = (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    if (uc) pc = (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
#else
    (void)uc;
#endif
    if (pc) {
        put_str(buf, sizeof buf, &o, ", instruction ");
        put_hex(buf, sizeof buf, &o, pc);
    }
    put_str(buf, sizeof buf, &o, "\n");
    ssize_t w = write(fd, buf, o);
    (void)w;
    void *frames[PS_DIED_FRAMES];
    int n = backtrace(frames, PS_DIED_FRAMES), first = 0;
    /* from the interrupted instruction on: the frames before it are this
     * handler's and the kernel's return path */
    for (int i = 0; i < n; i++)
        if ((uintptr_t)frames[i] == pc) {
            first = i;
            break;
        }
    if (n > first) backtrace_symbols_fd(frames + first, n - first, fd);
    if (fd != STDERR_FILENO) close(fd);
}

static void on_fatal(int sig, siginfo_t *si, void *uc)
{
    if (status_file[0]) rename(status_file, sig == SIGTERM ? status_stopped : status_died);
    if (sig != SIGTERM) {
        say_died(sig);
        write_stack(sig, si, uc);
    }
    status_file[0] = '\0';   /* the marker is written once, if the signal comes again */
    /* hand the signal on: to the handler that was there (its account and
     * its end of the process), else to the default action.  A fault the
     * processor raised strikes again when this returns; a signal sent (a
     * kill, abort) is raised again */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, sig == SIGTERM ? &dfl : &prev_action[sig], NULL);
    if (si->si_code <= 0 || sig == SIGABRT || sig == SIGTERM) raise(sig);
}

static void status_handlers(void)
{
    void *warm[2];
    (void)backtrace(warm, 2);   /* loads the unwinder now, not in the handler */
    /* a stack of its own (unless one is set already, a sanitizer's), so that
     * a rank whose main thread's stack overflowed (deep recursion in a
     * program) still says where; other threads have none */
    static char altstack[PS_DIED_ALTSTACK];
    stack_t old, ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    int onstack = (sigaltstack(NULL, &old) == 0 && !(old.ss_flags & SS_DISABLE)) || sigaltstack(&ss, NULL) == 0
                      ? SA_ONSTACK : 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | onstack;
    /* one at a time: a SIGTERM from the launcher (ending the job after
     * another rank died) waits until the account is written */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof status_sigs / sizeof status_sigs[0]; i++) sigaddset(&sa.sa_mask, status_sigs[i]);
    for (size_t i = 0; i < sizeof status_sigs / sizeof status_sigs[0]; i++) {
        int sig = status_sigs[i];
        if (had_own_handler[sig] || sigaction(sig, NULL, &prev_action[sig]) != 0) continue;
        /* a signal the program ignores stays ignored */
        if (prev_action[sig].sa_handler == SIG_IGN && sig != SIGTERM) continue;
        sigaction(sig, &sa, NULL);
    }
}

/* Opens the connections the program may use before its timed interval, as
 * benchmarks' warm-up iterations do: the first message between two ranks,
 * and the first of each protocol size, pay one-time set-up (connection,
 * buffers) that is MPI start-up, not the workload.  Every pair up to
 * PS_WARMUP_ALL_PAIRS ranks, the ring neighbours beyond; raw MPI, not traced. */
static void warm_up(void)
{
    int p = ps__rt.size, me = ps__rt.rank;
    if (p < 2) return;
    static const int sizes[] = {PS_WARMUP_SIZES};
    int most = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i] > most) most = sizes[i];
    char *sb = calloc(1, (size_t)most), *rb = calloc(1, (size_t)most);
    if (!sb || !rb) {
        free(sb);
        free(rb);
        return;
    }
    int last = p <= PS_WARMUP_ALL_PAIRS ? p - 1 : 1;
    /* nonblocking, as the patterns send: their first use then costs no more
     * (request objects, the request table) than any later one */
    for (int k = 1; k <= last; k++) {
        int dst = (me + k) % p, src = (me - k + p) % p;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            MPI_Request r[4];
            /* statuses kept, not MPI_STATUSES_IGNORE: MPICH's header declares
             * an array there, and GCC then warns that the sentinel has no room */
            MPI_Status st[4];
            int n = 0;
            MPI_Irecv(rb, sizes[i], MPI_BYTE, src, TAG_WARMUP, comm, &r[n++]);
            MPI_Isend(sb, sizes[i], MPI_BYTE, dst, TAG_WARMUP, comm, &r[n++]);
            MPI_Waitall(n, r, st);
            n = 0;
            if (p > PS_WARMUP_ALL_PAIRS) { /* and the other direction of the ring */
                MPI_Irecv(rb, sizes[i], MPI_BYTE, dst, TAG_WARMUP, comm, &r[n++]);
                MPI_Isend(sb, sizes[i], MPI_BYTE, src, TAG_WARMUP, comm, &r[n++]);
                MPI_Waitall(n, r, st);
            }
        }
    }
    req_new();   /* the request table, allocated and touched now */
    memset(reqs, 0, (size_t)reqcap * sizeof *reqs);
    nreqs = 0;
    /* and the barrier's own first use */
    MPI_Barrier(comm);
    free(sb);
    free(rb);
}

/* An error in one of the runtime's MPI calls on its communicator (a
 * message longer than the receive that takes it: MPI_ERR_TRUNCATE): said
 * with what the rank was doing, and the job ends.  MPI's own message, its
 * default handler's, is often lost as the job aborts. */
static void on_mpi_error(MPI_Comm *c, int *code, ...)
{
    (void)c;
    char msg[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (MPI_Error_string(*code, msg, &n) != MPI_SUCCESS) snprintf(msg, sizeof msg, "MPI error %d", *code);
    const char *what = (const char *)ps__rt.waiting_what;
    if (what && ps__rt.waiting_peer >= 0)
        ps_abort("MPI failed %s (partner rank %d, %zu bytes): %s", what, ps__rt.waiting_peer, ps__rt.waiting_bytes, msg);
    else if (what)
        ps_abort("MPI failed %s: %s", what, msg);
    ps_abort("MPI failed a call: %s", msg);
}

static int mpi_init(void)
{
    int flag = 0;
    MPI_Initialized(&flag);
    note_own_handlers();   /* before MPI adds its handlers, which are in its libraries */
    if (!flag) {
        int provided;
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
            ps__set_error("MPI_Init failed");
            return -1;
        }
        we_initialized_mpi = 1;
    }
    /* --alone: each rank runs the program as a 1-rank job of its own, all
     * started together; the first reports the slowest's trace (mpi_finalize),
     * the others (companions) only keep the node's other processors busy with
     * the same work, as a multi-rank run does: calibrating a price per flop that way
     * includes what ranks computing at once cost each other (shared caches
     * and memory) */
    int world_rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    if (ps__rt.alone) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Comm_dup(MPI_COMM_SELF, &comm);
    } else {
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    }
    MPI_Errhandler eh;
    if (MPI_Comm_create_errhandler(on_mpi_error, &eh) == MPI_SUCCESS) {
        MPI_Comm_set_errhandler(comm, eh);
        MPI_Errhandler_free(&eh);
    }
    MPI_Comm_rank(comm, &ps__rt.rank);
    ps__rt.job_rank = world_rank;  /* what messages and marker files name */
    MPI_Comm_size(comm, &ps__rt.size);
    gethostname(hostname, sizeof hostname - 1);
    int len = 0;
    MPI_Get_library_version(mpi_lib, &len);
    char *nl = strchr(mpi_lib, '\n');
    if (nl) *nl = '\0';
    nl = strchr(mpi_lib, ',');
    if (nl) *nl = '\0';

    /* same host as rank 0? (then clocks are shared: see the top comment) */
    char host0[64];
    memcpy(host0, hostname, sizeof host0);
    MPI_Bcast(host0, sizeof host0, MPI_CHAR, 0, comm);
    int same = strcmp(host0, hostname) == 0, all_same = 0;
    MPI_Allreduce(&same, &all_same, 1, MPI_INT, MPI_MIN, comm);
    clk_same_host = all_same;

    const char *sd = getenv("PARSCOPE_STATUS_DIR");
    if (sd && *sd) {
        /* by the job's rank: under --alone every rank is rank 0 of its own */
        snprintf(status_file, sizeof status_file, "%s/rank.%d.alive", sd, ps__rt.job_rank);
        snprintf(status_died, sizeof status_died, "%s/rank.%d.died", sd, ps__rt.job_rank);
        snprintf(status_stopped, sizeof status_stopped, "%s/rank.%d.stopped", sd, ps__rt.job_rank);
        FILE *f = fopen(status_file, "w");
        if (f) {
            fprintf(f, "%d %s\n", (int)getpid(), hostname);
            fclose(f);
            /* a rank that exits on its own (a bad option) has finished, if badly */
            atexit(drop_status);
        } else {
            /* a rank on another host than the launcher's: no marker, but
             * the line on stderr (say_died) */
            status_file[0] = '\0';
        }
        status_handlers();
    }
    clk_start = clock_estimate();
    const char *nw = getenv("PARSCOPE_NO_WARMUP");
    if (!ps__rt.no_warmup && !(nw && *nw && strcmp(nw, "0"))) warm_up();
    /* twice: the first barrier may set up connections (TCP), so ranks leave
     * it far apart; the second starts the timed interval nearly together */
    MPI_Barrier(comm);
    MPI_Barrier(comm);
    mpi_align();
    return 0;
}

static void fill_procstats(ps_procstats *p)
{
    struct rusage ru;
    memset(p, 0, sizeof *p);
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        p->user = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
        p->sys = (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
        p->minflt = (uint64_t)ru.ru_minflt;
        p->majflt = (uint64_t)ru.ru_majflt;
        p->nvcsw = (uint64_t)ru.ru_nvcsw;
        p->nivcsw = (uint64_t)ru.ru_nivcsw;
        p->maxrss_kb = (uint64_t)ru.ru_maxrss;
    }
    p->wall = ps__rt.t_end - ps__rt.t_start_process;
    p->timed_minflt = ps__rt.timed_minflt;
    p->timed_majflt = ps__rt.timed_majflt;
    p->timed_cache_misses = ps__rt.timed_cache_misses;
    p->timed_user_us = ps__rt.timed_user_us;
    p->timed_sys_us = ps__rt.timed_sys_us;
    p->timed_nvcsw = ps__rt.timed_nvcsw;
    p->timed_nivcsw = ps__rt.timed_nivcsw;
}

/* Gathers every rank's entry of the trace on rank 0.  A rank sends its
 * entry as it stands (the fixed part: counts, clock, process figures, host;
 * the events pointer means nothing to the receiver and is replaced) and then
 * its events. */
/* One rank's trace (header, then its events in chunks) from one rank to
 * another of communicator c. */
static void send_rank_trace(const ps_rank_trace *h, const ps_event *ev, int to, MPI_Comm c)
{
    MPI_Send(h, sizeof *h, MPI_BYTE, to, TAG_GATHER, c);
    size_t total = h->n * sizeof(ps_event);
    for (size_t off = 0; off < total; off += PS_GATHER_CHUNK) {
        size_t len = total - off < (size_t)PS_GATHER_CHUNK ? total - off : (size_t)PS_GATHER_CHUNK;
        MPI_Send((const char *)ev + off, (int)len, MPI_BYTE, to, TAG_GATHER, c);
    }
}

/* ... received: the header in *h, the events in a new array. */
static ps_event *recv_rank_trace(ps_rank_trace *h, int from, MPI_Comm c)
{
    MPI_Recv(h, sizeof *h, MPI_BYTE, from, TAG_GATHER, c, MPI_STATUS_IGNORE);
    ps_event *ev = malloc((size_t)(h->n ? h->n : 1) * sizeof *ev);
    if (!ev) ps_abort("out of memory collecting the trace of rank %d", from);
    size_t total = h->n * sizeof(ps_event);
    for (size_t off = 0; off < total; off += PS_GATHER_CHUNK) {
        size_t len = total - off < (size_t)PS_GATHER_CHUNK ? total - off : (size_t)PS_GATHER_CHUNK;
        MPI_Recv((char *)ev + off, (int)len, MPI_BYTE, from, TAG_GATHER, c, MPI_STATUS_IGNORE);
    }
    return ev;
}

/* Every rank's trace on rank 0 (mine: this rank's header, its events myev). */
static ps_trace *collect(const ps_rank_trace *mine, const ps_event *myev)
{
    int me = ps__rt.rank, p = ps__rt.size;
    ps_trace *t = NULL;
    if (me == 0) {
        t = ps_trace_new(p);
        if (!t) ps_abort("out of memory collecting the trace");
    }
    for (int r = 0; r < p; r++) {
        ps_rank_trace h;
        ps_event *ev = NULL;
        if (r == me) {
            h = *mine;
            if (me != 0) send_rank_trace(&h, myev, 0, comm);
            ev = (ps_event *)myev;
        } else if (me == 0) {
            ev = recv_rank_trace(&h, r, comm);
        }
        if (me == 0) {
            ps_rank_trace *rt = &t->rank[r];
            *rt = h;
            if (r == 0) {
                rt->ev = malloc((size_t)(h.n ? h.n : 1) * sizeof *rt->ev);
                if (!rt->ev) ps_abort("out of memory collecting the trace");
                memcpy(rt->ev, ev, h.n * sizeof *ev);
            } else {
                rt->ev = ev;
            }
            rt->cap = h.n;
            rt->host[sizeof rt->host - 1] = '\0';
        }
    }
    return t;
}

/* MPICH before 4.2 over UCX closes its connections in MPI_Finalize before
 * the ranks synchronise, and over TCP a rank that has closed its own stops
 * answering the others: a job whose ranks span hosts can hang there for
 * good (MPICH 4.2.0 added the barrier: "ch4/ucx: add MPIR_pmi_barrier in
 * finalize").  Such a job ends after a last barrier without MPI_Finalize;
 * its process manager (hydra) accepts that.  PARSCOPE_MPI_FINALIZE=1 keeps
 * MPI_Finalize. */
static int finalize_may_hang(void)
{
    if (clk_same_host) return 0;
    const char *keep = getenv("PARSCOPE_MPI_FINALIZE");
    if (keep && !strcmp(keep, "1")) return 0;
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, major = 0, minor = 0;
    MPI_Get_library_version(v, &len);
    const char *p = strstr(v, "MPICH Version:");
    if (!p || sscanf(p + 14, " %d.%d", &major, &minor) != 2 || !strstr(v, "ch4:ucx")) return 0;
    return major < 4 || (major == 4 && minor < 2);
}

/* Rank 0 writes the trace where the launching parscope reads it.  On a
 * cluster whose nodes each have their own /tmp that works only when rank 0
 * runs on the launcher's node: say so plainly when it does not. */
static int trace_dir_here(void)
{
    char dir[sizeof ps__rt.trace_path];
    snprintf(dir, sizeof dir, "%s", ps__rt.trace_path);
    char *slash = strrchr(dir, '/');
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return 1; /* a directory: DIR/trace.pst */
    if (!slash) return 1;
    *slash = '\0';
    if (!dir[0] || (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) return 1;
    fprintf(stderr,
            "parscope: rank 0 runs on %s, where %s does not exist, so the trace cannot be written there: "
            "start parscope on the node where rank 0 runs, or set TMPDIR to a directory every node shares\n",
            hostname, dir);
    return 0;
}

static void mpi_finalize(void)
{
    /* wait for anything still outstanding so MPI can finish cleanly */
    mpi_waitall();
    ps__waiting("\\CLOSE0, for the other ranks to end their programs", -1, 0);
    MPI_Barrier(comm);
    ps__waiting("\\CLOSE0's clock synchronisation and the traces' collection", -1, 0);
    clk_end = clock_estimate();
    clk_model = ps_clock_fit(clk_start, clk_end);

    /* correct this rank's timestamps to the global timeline */
    for (size_t i = 0; i < ps__rt.nev; i++) {
        ps__rt.ev[i].t0 = global_time(ps__rt.ev[i].t0);
        ps__rt.ev[i].t1 = global_time(ps__rt.ev[i].t1);
    }
    ps_rank_trace h;
    memset(&h, 0, sizeof h);
    PS_ASSERT(ps__rt.nev <= ps__rt.cap);   /* the buffer never grows: a full one drops */
    h.n = ps__rt.nev;
    h.dropped = ps__rt.dropped;
    h.t_begin = global_time(ps__rt.t_begin);
    h.t_end = global_time(ps__rt.t_end);
    /* the measured offset is reported even where it is not applied */
    h.clock_offset = clk_start.offset;
    h.clock_drift = clk_model.drift;
    h.clock_rtt = clk_start.rtt < clk_end.rtt || clk_end.rtt == 0 ? clk_start.rtt : clk_end.rtt;
    fill_procstats(&h.proc);
    memcpy(h.host, hostname, sizeof h.host);

    /* under --alone the job's first rank reports, with the trace of the copy
     * whose timed interval was longest: a run of several ranks lasts as long
     * as its slowest rank, and on a shared node the copies' speeds differ
     * (two ranks of one job on a VM by 1.8 times).  The first rank writes it,
     * where the launcher expects the trace; the others (companions) write
     * nothing */
    int companion = ps__rt.alone && ps__rt.job_rank > 0;
    ps_event *ev = ps__rt.ev, *slowest_ev = NULL;
    if (ps__rt.alone) {
        struct { double t; int rank; } mine = {ps__rt.t_end - ps__rt.t_begin, ps__rt.job_rank}, slowest;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
        if (slowest.rank > 0 && ps__rt.job_rank == slowest.rank) send_rank_trace(&h, ps__rt.ev, 0, MPI_COMM_WORLD);
        if (slowest.rank > 0 && ps__rt.job_rank == 0) ev = slowest_ev = recv_rank_trace(&h, slowest.rank, MPI_COMM_WORLD);
    }
    int want_trace = ps__rt.trace_path[0] != '\0' && !companion;
    int want_sheet = !ps__rt.quiet && !companion;
    int status = 0;
    if (want_trace || want_sheet) {
        ps_trace *t = collect(&h, ev);
        if (ps__rt.rank == 0) {
            int nc = ps__construct_count();
            for (int i = 0; i < nc; i++) ps_trace_add_construct(t, ps_construct_name(i));
            char *meta = ps__trace_meta(t, mpi_lib, clk_same_host, PS_CLOCKSYNC_ROUNDS);
            if (!meta || ps_trace_set_meta(t, meta)) ps_abort("out of memory writing the trace's metadata");
            free(meta);
            if (want_trace && !trace_dir_here()) {
                status = 1;
            } else if (want_trace) {
                char err[512];
                if (ps_trace_write(t, ps__rt.trace_path, err, sizeof err) != 0) {
                    fprintf(stderr, "parscope: %s\n", err);
                    status = 1;
                }
            }
            if (want_sheet) {
                ps_sheet s;
                if (ps_sheet_compute(t, &s) == 0) {
                    ps_sheet_print(&s, t, ps__rt.workload[0] ? ps__rt.workload : "program", ps__problem_size_ran(),
                                   ps_iterations(), stdout);
                    ps_sheet_free(&s);
                }
                fflush(stdout);
            }
            ps_trace_free(t);
        }
    }
    free(slowest_ev);
    MPI_Bcast(&status, 1, MPI_INT, 0, comm);
    if (status_file[0]) unlink(status_file);
    int skip_finalize = we_initialized_mpi && finalize_may_hang();
    if (skip_finalize) MPI_Barrier(comm);
    MPI_Comm_free(&comm);
    comm = MPI_COMM_NULL;
    if (we_initialized_mpi && !skip_finalize) MPI_Finalize();
    if (status || ps__rt.verify_failed) exit(1);
}

static const ps__backend mpi_be = {
    .name = "MPI",
    .init = mpi_init,
    .finalize = mpi_finalize,
    .isend = mpi_isend,
    .irecv = mpi_irecv,
    .wait = mpi_wait,
    .waitall = mpi_waitall,
    .align = mpi_align,
    .send = mpi_send,
    .recv = mpi_recv,
    .barrier = mpi_barrier,
    .compute = mpi_compute,
    .work = mpi_work,
    .mark = mpi_mark,
    .abort = mpi_abort,
};

const ps__backend *ps__mpi_backend(void) { return &mpi_be; }
