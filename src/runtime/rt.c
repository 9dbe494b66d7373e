/*
 * rt.c - the runtime's public face: parameters, constructs, dispatch to the
 * back end, reductions built from point-to-point messages, timeouts.
 */
#include <jansson.h>

#include "runtime/rt.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "runtime/config.h"
#include "runtime/limits.h"
#include "runtime/structure.h"
#include "trace/constructs.h"
#include "util/limits.h"

ps__runtime ps__rt = {.default_size = PS_DEFAULT_PROBLEM_SIZE,
                      .default_iterations = PS_DEFAULT_ITERATIONS,
                      .waiting_peer = -1,
                      .timed_minflt = -1,
                      .timed_majflt = -1,
                      .timed_cache_misses = -1,
                      .timed_user_us = -1,
                      .timed_sys_us = -1,
                      .timed_nvcsw = -1,
                      .timed_nivcsw = -1};

/* what 'parscope run PROGRAM' looks for before it launches PROGRAM */
__attribute__((used)) const char ps__runtime_mark[] = PS_RUNTIME_MARK;

static char ps__errbuf[256];
static void scratch_free(void);
static void need_init(const char *fn);
static int *ps__argc;
static char ***ps__argv;

/* ---- constructs ---------------------------------------------------------- */


static char *extra_names[PS_MAX_CONSTRUCTS];
static int nextra;

int ps_construct(const char *name)
{
    if (!name) return PS_C_USER;
    for (int i = 0; i < PS_C__BUILTIN; i++)
        if (!strcmp(ps__construct_builtin_names[i], name)) return i;
    for (int i = 0; i < nextra; i++)
        if (!strcmp(extra_names[i], name)) return PS_C__BUILTIN + i;
    if (PS_C__BUILTIN + nextra >= PS_MAX_CONSTRUCTS) return PS_C_USER;
    extra_names[nextra] = strdup(name);
    if (!extra_names[nextra]) return PS_C_USER;
    return PS_C__BUILTIN + nextra++;
}

const char *ps_construct_name(int id)
{
    if (id >= 0 && id < PS_C__BUILTIN) return ps__construct_builtin_names[id];
    if (id >= PS_C__BUILTIN && id < PS_C__BUILTIN + nextra) return extra_names[id - PS_C__BUILTIN];
    return "?";
}

int ps__construct_count(void) { return PS_C__BUILTIN + nextra; }

/* ---- parameters ------------------------------------------------------- */

void ps_set_defaults(long problem_size, long iterations)
{
    if (problem_size > 0) ps__rt.default_size = problem_size;
    if (iterations > 0) ps__rt.default_iterations = iterations;
}

static int verify_flag, no_trace, check_args;
static char tree_order[1024];

static void bad_option(const char *opt, const char *val)
{
    fprintf(stderr, "parscope: bad value for %s: '%s'\n", opt, val ? val : "");
    exit(2);
}

static long long_arg(const char *opt, const char *val)
{
    char *end;
    errno = 0;
    long v = val ? strtol(val, &end, 10) : 0;
    if (!val || errno || *end || v < 0) bad_option(opt, val);
    return v;
}

static void string_arg(const char *opt, const char *val, char *dst, size_t len)
{
    if (!val) bad_option(opt, val);
    snprintf(dst, len, "%s", val);
}

void ps_set_args(int *argc, char ***argv)
{
    ps__argc = argc;
    ps__argv = argv;
    if (!argc || !argv) return;
    char **av = *argv;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = av[i];
        const char *next = i + 1 < *argc ? av[i + 1] : NULL;
        if (!strcmp(a, "-s") || !strcmp(a, "--size")) {
            ps__rt.problem_size = long_arg(a, next);
            i++;
        } else if (!strcmp(a, "-i") || !strcmp(a, "--iterations")) {
            ps__rt.iterations = long_arg(a, next);
            i++;
        } else if (!strcmp(a, "--trace")) {
            string_arg(a, next, ps__rt.trace_path, sizeof ps__rt.trace_path);
            i++;
        } else if (!strcmp(a, "--timeout")) {
            char *end;
            double v = next ? strtod(next, &end) : -1;
            if (!next || *end || v < 0) bad_option(a, next);
            ps__rt.timeout = v;
            i++;
        } else if (!strcmp(a, "--workload")) {
            string_arg(a, next, ps__rt.workload, sizeof ps__rt.workload);
            i++;
        } else if (!strcmp(a, "--quiet")) {
            ps__rt.quiet = 1;
        } else if (!strcmp(a, "--no-trace")) {
            no_trace = 1;
        } else if (!strcmp(a, "--no-warmup")) {
            ps__rt.no_warmup = 1;
        } else if (!strcmp(a, "--alone")) {
            ps__rt.alone = 1;
        } else if (!strcmp(a, "--verify")) {
            verify_flag = 1;
        } else if (!strcmp(a, "--check-args")) {
            check_args = 1;
        } else if (!strcmp(a, "--tree-order")) {
            if (!next || strlen(next) >= sizeof tree_order) bad_option(a, next);
            snprintf(tree_order, sizeof tree_order, "%s", next);
            i++;
        } else {
            av[out++] = av[i];
        }
    }
    av[out] = NULL;
    *argc = out;
}

void ps_program_args(int argc, char **argv, int takes_args)
{
    if (!takes_args && argc > 1 && argv && argv[1]) {
        fprintf(stderr,
                "parscope: unexpected program argument '%s': the program's main takes no arguments "
                "(the runtime's own: -s N, -i N, --trace PATH, --timeout SEC, --verify, --tree-order ORDER, "
                "--no-warmup, --no-trace, --quiet)\n",
                argv[1]);
        exit(2);
    }
    if (check_args) exit(0);
}

static void env_defaults(void)
{
    const char *e;
    if (!ps__rt.problem_size && (e = getenv("PARSCOPE_SIZE"))) ps__rt.problem_size = atol(e);
    if (!ps__rt.iterations && (e = getenv("PARSCOPE_ITERATIONS"))) ps__rt.iterations = atol(e);
    if (!ps__rt.trace_path[0] && (e = getenv("PARSCOPE_TRACE")))
        snprintf(ps__rt.trace_path, sizeof ps__rt.trace_path, "%s", e);
    if (!ps__rt.timeout && (e = getenv("PARSCOPE_TIMEOUT"))) ps__rt.timeout = atof(e);
    if (ps__rt.problem_size <= 0) ps__rt.problem_size = ps__rt.default_size;
    if (ps__rt.iterations <= 0) ps__rt.iterations = ps__rt.default_iterations;
}

/* ---- timeouts -------------------------------------------------------------- */

static void on_alarm(int sig)
{
    (void)sig;
    char buf[512];
    const char *what = (const char *)ps__rt.waiting_what;
    int n;
    if (what && ps__rt.waiting_peer < 0)
        n = snprintf(buf, sizeof buf, "parscope: rank %d: timed out after %g s, waiting in %s\n", ps__rt.job_rank,
                     ps__rt.timeout, what);
    else if (what)
        n = snprintf(buf, sizeof buf,
                     "parscope: rank %d: timed out after %g s, waiting in %s (partner rank %d, %zu bytes)\n",
                     ps__rt.job_rank, ps__rt.timeout, what, ps__rt.waiting_peer, ps__rt.waiting_bytes);
    else
        n = snprintf(buf, sizeof buf, "parscope: rank %d: timed out after %g s while computing\n", ps__rt.job_rank,
                     ps__rt.timeout);
    if (n > 0) {
        ssize_t w = write(STDERR_FILENO, buf, (size_t)n);
        (void)w;
    }
    _exit(PS_EXIT_TIMEOUT);
}

static void arm_timeout(void)
{
    if (ps__rt.timeout <= 0) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0}, {(time_t)ps__rt.timeout,
                                    (suseconds_t)((ps__rt.timeout - floor(ps__rt.timeout)) * 1e6)}};
    setitimer(ITIMER_REAL, &it, NULL);
}

/* ---- life cycle -------------------------------------------------------- */

/* The trace buffer.  When events will be recorded every page of it is
 * present now (ps__map_present): recording an event inside the timed
 * interval must not pay for a page every ~100 events, which the program
 * itself would not pay: 5 us each on a paravirtualised VM even with the
 * pages populated, about 50 ns an event (manysmall.loop: a fifth of its
 * time at 2 ranks; docs/BENCHMARKS.md). */
static ps_event *trace_buffer(size_t bytes, int present)
{
    void *p = present ? ps__map_present(bytes) : NULL;
    if (p) return p;
    p = malloc(bytes);
    if (p && present) memset(p, 0, bytes);
    return p;
}

int ps_init(long trace_capacity)
{
    if (ps__rt.initialized) return 0;
    /* a check of the arguments (--check-args) ends before anything starts,
     * also in a program that never calls ps_program_args: it parsed them */
    if (check_args) exit(0);
    ps__rt.t_start_process = ps_now();
    env_defaults();
    const char *off = getenv("PARSCOPE_NO_TRACE");
    ps__rt.tracing = !(no_trace || (off && *off && strcmp(off, "0")));
    const ps__backend *be = ps__record_backend();
    ps__rt.be = be ? be : ps__mpi_backend();
    long cap = trace_capacity > 0 ? trace_capacity : PS_TRACE_DEFAULT_CAPACITY;
    const char *ecap = getenv("PARSCOPE_TRACE_CAPACITY");
    if (ecap && atol(ecap) > 0) cap = atol(ecap);
    ps__rt.cap = (size_t)cap;
    /* (a capacity whose bytes do not fit a size: none allocated) */
    ps__rt.ev = ps__rt.cap <= SIZE_MAX / sizeof *ps__rt.ev
                    ? trace_buffer(ps__rt.cap * sizeof *ps__rt.ev, ps__rt.tracing && !be)
                    : NULL;
    if (!ps__rt.ev) {
        fprintf(stderr, "parscope: cannot allocate a trace buffer of %ld events\n", cap);
        exit(1);
    }
    /* the scratch space too (its pages mapped in, scratch_map), before the
     * back end's start, whose last act is a barrier: page faults here (~10
     * us each on a VM) would make the ranks begin their timed interval at
     * different times; and the receives' pages' first pin as a single
     * copy's target (a recorded rank moves no data) */
    ps_scratch(PS_SCRATCH_INITIAL);
    if (!be) ps__pin_for_messages(ps__scratch_in(PS_SCRATCH_INITIAL), PS_SCRATCH_INITIAL);
    if (ps__rt.be->init() != 0) {
        fprintf(stderr, "parscope: the %s back end failed to start: %s\n", ps__rt.be->name, ps__errbuf);
        exit(1);
    }
    if (ps__tree_order_init(tree_order[0] ? tree_order : NULL, ps__rt.size) != 0) {
        if (ps__rt.job_rank == 0) fprintf(stderr, "parscope: %s\n", ps__errbuf);
        /* every rank found the same fault: they end together, so that the
         * launcher passes on status 2 (MPICH's kills the others with 9
         * when one rank leaves without finalizing) */
        ps__rt.be->finalize();
        exit(2);
    }
    ps__rt.initialized = 1;
    if (be) {
        /* a recorded rank is timed by no one: the trace buffer's pages, the
         * snapshot of the mappings (a read of /proc/self/maps) and the
         * counters would cost each rank's process ~50 page faults and a
         * few system calls, and record nothing */
        arm_timeout();
        return 0;
    }
    /* (the scratch space was touched before the back end started) */
    ps__first_touch_mark();
    arm_timeout();
    ps__memcount_begin();
    ps__rt.t_begin = ps_now();
    return 0;
}

/* The set-up's own memory traffic (filling its arrays) evicts what the
 * start-up's warm-up brought into the caches, so the first messages after
 * it ran cold: red_black's first iteration at 2 ranks took 80-110 us, 30-45
 * us after this.  A pipeline of small messages, then one round of
 * nonblocking messages with both ring neighbours, as the patterns send
 * them, small and large; untraced. */
static void warm_again(void)
{
    int p = ps__rt.size, me = ps__rt.rank;
    if (p < 2) return;
    char *b = ps_scratch(4 * PS_SETUP_WARMUP_BYTES);
    /* many at once, sent before their blocking receives are posted: MPI's
     * pools for unexpected messages grow to what a pipeline keeps in flight
     * (lu_skel's 32 sends per sweep cost its receiver 14 page faults) */
    for (int k = 0; k < PS_SETUP_WARMUP_REQUESTS; k++)
        ps_isend(b + PS_SETUP_WARMUP_BYTES, 64, (me + 1) % p, PS_SETUP_WARMUP_TAG, PS_C_NONE);
    for (int k = 0; k < PS_SETUP_WARMUP_REQUESTS; k++) ps_recv(b, 64, (me + p - 1) % p, PS_SETUP_WARMUP_TAG, PS_C_NONE);
    ps_waitall();
    /* last, what the patterns do most: both ring neighbours at once */
    static const size_t sizes[] = {64, PS_SETUP_WARMUP_BYTES};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        ps_request r[4];
        r[0] = ps_irecv(b, sizes[i], (me + p - 1) % p, PS_SETUP_WARMUP_TAG, PS_C_NONE);
        r[1] = ps_irecv(b + PS_SETUP_WARMUP_BYTES, sizes[i], (me + 1) % p, PS_SETUP_WARMUP_TAG, PS_C_NONE);
        r[2] = ps_isend(b + 2 * PS_SETUP_WARMUP_BYTES, sizes[i], (me + 1) % p, PS_SETUP_WARMUP_TAG, PS_C_NONE);
        r[3] = ps_isend(b + 3 * PS_SETUP_WARMUP_BYTES, sizes[i], (me + p - 1) % p, PS_SETUP_WARMUP_TAG, PS_C_NONE);
        for (int k = 0; k < 4; k++) ps_wait(r[k]);
    }
}

static int is_message_event(int kind)
{
    return kind == PS_EV_SEND || kind == PS_EV_RECV || kind == PS_EV_POST || kind == PS_EV_WAIT ||
           kind == PS_EV_BARRIER || kind == PS_EV_MARK;
}

void ps_setup_end(void)
{
    need_init("ps_setup_end");
    if (ps__rt.finalized || ps__rt.setup_ended || ps_recording()) return;
    ps__rt.setup_ended = 1;
    /* the set-up's own events (\INIT_ARRAY, computation it recorded) are not
     * part of the run; messages stay, should a program have sent any */
    size_t k = 0;
    for (size_t i = 0; i < ps__rt.nev; i++)
        if (is_message_event(ps__rt.ev[i].kind)) ps__rt.ev[k++] = ps__rt.ev[i];
    ps__rt.nev = k;
    /* what the set-up allocated but did not write gets its pages now */
    ps__first_touch();
    /* ranks leave the set-up at different times: warm up again and start
     * the interval together, as ps_init does (untraced) */
    int tracing = ps__rt.tracing;
    ps__rt.tracing = 0;
    warm_again();
    ps__rt.be->barrier(PS_C_NONE);
    if (ps__rt.be->align) ps__rt.be->align();
    ps__rt.tracing = tracing;
    ps__memcount_begin();
    ps__rt.t_begin = ps_now();
}

void ps_finalize(void)
{
    if (!ps__rt.initialized || ps__rt.finalized) return;
    ps__rt.t_end = ps_now();
    if (!ps_recording()) ps__memcount_end();
    ps__rt.finalized = 1;
    ps__rt.be->finalize();
    scratch_free();
}

int ps_rank(void) { return ps__rt.rank; }
int ps_size(void) { return ps__rt.size; }
long ps_problem_size(void) { return ps__rt.problem_size ? ps__rt.problem_size : ps__rt.default_size; }
void ps_set_grid(long width, long height, int per_rank)
{
    if (width < 1 || height < 1) return;
    ps__rt.grid_w = width;
    ps__rt.grid_h = height;
    ps__rt.grid_per_rank = per_rank ? 1 : 0;
}

long ps__problem_size_ran(void)
{
    if (!ps__rt.grid_w) return ps_problem_size();
    long cells = ps__rt.grid_w * ps__rt.grid_h;
    return ps__rt.grid_per_rank || ps__rt.size < 1 ? cells : cells / ps__rt.size;
}

json_t *ps__params_json(int ranks)
{
    json_t *p = json_pack("{s:i, s:I, s:I}", "ranks", ranks, "size", (json_int_t)ps__problem_size_ran(), "iterations",
                          (json_int_t)ps_iterations());
    if (p && ps__rt.grid_w) {
        json_object_set_new(p, "grid", json_sprintf("%ldx%ld", ps__rt.grid_w, ps__rt.grid_h));
        json_object_set_new(p, "grid_per_rank", json_boolean(ps__rt.grid_per_rank));
    }
    return p;
}

long ps_iterations(void) { return ps__rt.iterations ? ps__rt.iterations : ps__rt.default_iterations; }
int ps_host(void) { return -1; }
int ps_recording(void) { return ps__rt.be && ps__rt.be != ps__mpi_backend(); }

double ps_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void need_init(const char *fn)
{
    if (!ps__rt.initialized) {
        fprintf(stderr, "parscope: %s called before ps_init (\\OPEN0)\n", fn);
        exit(2);
    }
}

/* A message's partner and size, before they reach MPI: a bad one is the
 * program's bad input (runtime/limits.h). */
static void check_message(const char *fn, int construct, int peer, size_t bytes)
{
    if (peer < 0 || peer >= ps__rt.size)
        ps__bad_input(ps_construct_name(construct), "%s: partner rank %d is outside 0..%d", fn, peer, ps__rt.size - 1);
    ps__check_value(construct, PS_VALUE_BYTES, ps__size_value(bytes));
}

ps_request ps_isend(const void *buf, size_t bytes, int dest, int tag, int construct)
{
    need_init("ps_isend");
    check_message("send", construct, dest, bytes);
    return ps__rt.be->isend(buf, bytes, dest, tag, construct);
}

ps_request ps_irecv(void *buf, size_t bytes, int src, int tag, int construct)
{
    need_init("ps_irecv");
    check_message("receive", construct, src, bytes);
    return ps__rt.be->irecv(buf, bytes, src, tag, construct);
}

void ps_wait(ps_request req) { ps__rt.be->wait(req); }
void ps_waitall(void) { ps__rt.be->waitall(); }

void ps_send(const void *buf, size_t bytes, int dest, int tag, int construct)
{
    need_init("ps_send");
    check_message("send", construct, dest, bytes);
    ps__rt.be->send(buf, bytes, dest, tag, construct);
}

void ps_recv(void *buf, size_t bytes, int src, int tag, int construct)
{
    need_init("ps_recv");
    check_message("receive", construct, src, bytes);
    ps__rt.be->recv(buf, bytes, src, tag, construct);
}

void ps_barrier(int construct)
{
    need_init("ps_barrier");
    ps__rt.be->barrier(construct);
}

void ps_compute(int construct, double t0, double t1, double flops)
{
    ps__rt.be->compute(construct, t0, t1, flops);
}

void ps_work(double flops)
{
    need_init("ps_work");
    ps__check_value(PS_C_WORK, PS_VALUE_FLOPS, flops);
    ps__structure(PS_C_WORK, PS_ARGS_FLOPS, (long)(flops > 0 ? flops + 0.5 : 0), 0, 0);
    ps__rt.be->work(flops);
}

void ps_mark(int construct) { ps__rt.be->mark(construct); }

/* Sections: a small stack of open sections; the event spans begin..end. */
static struct { const char *name; double t0; } sec_stack[PS_MAX_SECTION_DEPTH];
static int sec_depth;

void ps_section_begin(const char *name)
{
    if (sec_depth >= PS_MAX_SECTION_DEPTH) ps_abort("\\SECTION nested deeper than %d", PS_MAX_SECTION_DEPTH);
    sec_stack[sec_depth].name = name;
    sec_stack[sec_depth].t0 = ps_now();
    sec_depth++;
}

void ps_section_end(const char *name)
{
    double t1 = ps_now();
    if (sec_depth == 0 || strcmp(sec_stack[sec_depth - 1].name, name) != 0)
        ps_abort("\\SECTION(%s) ended out of order", name);
    sec_depth--;
    if (ps_recording()) return;
    ps__record(PS_EV_SECTION, PS_C_SECTION, sec_stack[sec_depth].t0, t1, -1, 0, 0, 0,
               (uint32_t)ps_construct(name));
}

static double dm_t0;

void ps_data_move_begin(void) { dm_t0 = ps_now(); }

void ps_data_move_end(double bytes)
{
    double t1 = ps_now();
    ps__check_value(PS_C_DATA_MOVE, PS_VALUE_DATA, bytes);
    if (ps_recording()) {
        /* a WORK of the construct DATA_MOVE whose count is bytes: the simulator prices it per byte */
        ps__rt.be->compute(PS_C_DATA_MOVE, dm_t0, t1, bytes);
        return;
    }
    ps__record(PS_EV_DATA, PS_C_DATA_MOVE, dm_t0, t1, -1, 0, (uint64_t)(bytes > 0 ? bytes : 0), 0, 0);
}

/* ---- reductions on a binary tree rooted at 0 ----------------------------- */

/* The messages are ordinary sends and receives (the simulator and the sheet
 * see them); a COLLECTIVE event around them says they are one reduction, so
 * exports can show it as the collective it stands for. */
static void tree_reduce(double *v, int count, int construct, int is_max)
{
    int me = ps__rt.rank, p = ps__rt.size;
    ps__structure(PS_C_REDUCE, PS_ARGS_REDUCE, count, 0, 0);
    if (p <= 1 || count <= 0) return;
    double tc = ps__rt.tracing ? ps_now() : 0;
    size_t bytes = (size_t)count * sizeof(double);
    double *tmp = malloc(bytes);
    if (!tmp) ps_abort("out of memory in a reduction");
    for (int k = 1; k <= 2; k++) {
        int child = 2 * me + k;
        if (child >= p) continue;
        ps_recv(tmp, bytes, child, PS_C_REDUCE, construct);
        for (int i = 0; i < count; i++) v[i] = is_max ? fmax(v[i], tmp[i]) : v[i] + tmp[i];
    }
    if (me > 0) {
        int parent = (me - 1) / 2;
        ps_send(v, bytes, parent, PS_C_REDUCE, construct);
        ps_recv(v, bytes, parent, PS_C_REDUCE, construct);
    }
    for (int k = 1; k <= 2; k++) {
        int child = 2 * me + k;
        if (child < p) ps_send(v, bytes, child, PS_C_REDUCE, construct);
    }
    free(tmp);
    if (!ps_recording() && ps__rt.tracing)
        ps__record(PS_EV_COLLECTIVE, construct, tc, ps_now(), -1, 0, bytes, 0, PS_COLL_ALLREDUCE);
}

void ps_allreduce_sum(double *values, int count, int construct) { tree_reduce(values, count, construct, 0); }
void ps_allreduce_max(double *values, int count, int construct) { tree_reduce(values, count, construct, 1); }

/* ---- scratch, random numbers, verification, errors ----------------------- */

/* Scratch space for messages whose content does not matter: one area that
 * sends read from and another that receives write into.  With one area for
 * both, a receive would write the memory that a send of the same rank is
 * being read from, by its own runtime or by the receiver's (a single-copy
 * transfer reads the sender's memory from the other process): each line
 * then moves between the two processors' caches as both copy it.  Real
 * programs send from and receive into different arrays; at 16 KiB, two
 * messages each way between two ranks took 17.6-18.2 us an exchange with
 * one buffer for both against 12.2-13.0 us with two (plain MPI over shared
 * memory, docs/BENCHMARKS.md).  Growing an area never moves a buffer that
 * an outstanding request may still use: the old one is retired (kept until
 * ps_finalize) and a larger one allocated. */
typedef struct scratch_area {
    void  *b;
    size_t len;
} scratch_area;
static scratch_area scratch_out, scratch_in;
static scratch_area *retired;
static size_t nretired;

/* A new area, zeroed, its pages present and touched (ps__map_present): an
 * area grows where a message first needs it, often inside the timed
 * interval, and there a page first touched by the copy costs a fault (10-14
 * us each on a paravirtualised VM), a page only populated still 5 us at its
 * first access.  The areas start at 2 MiB (PS_SCRATCH_INITIAL), in huge
 * pages where the kernel has them: present, touched and the receives' area
 * pinned at ps_init in about 0.3 ms, where the same in 4 KiB pages took 7
 * ms; a program's messages up to that size then grow nothing inside the
 * interval (sizes.loop, whose areas grew to 512 KiB in its first iteration,
 * paid 1.4-1.7 ms a rank for it; docs/BENCHMARKS.md).  A larger area's first
 * pin as a single copy's target (ps__pin_for_messages) is left to the first
 * message.  A recorded rank moves no data: its areas are only reserved. */
static long scratch_faults;

static void *scratch_map(size_t len)
{
    /* this thread's faults only: MPI's helper threads may take their own meanwhile */
    struct rusage a, b;
    int counted = getrusage(RUSAGE_THREAD, &a) == 0;
    void *p = ps_recording() ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                             : ps__map_present(len);
    if (p == MAP_FAILED || !p) ps_abort("out of memory: scratch buffer of %zu bytes", len);
    if (counted && getrusage(RUSAGE_THREAD, &b) == 0) scratch_faults += b.ru_minflt - a.ru_minflt;
    return p;
}

long ps__scratch_faults(void) { return scratch_faults; }

static void *scratch_grow(scratch_area *a, size_t bytes)
{
    if (bytes > a->len) {
        /* the doubling below must not wrap around (a negative size as size_t) */
        if (bytes > ((size_t)1 << 62)) ps_abort("scratch buffer of %zu bytes: more than any memory", bytes);
        size_t len = a->len ? a->len : 4096;
        while (len < bytes) len *= 2;
        void *n = scratch_map(len);
        if (a->b) {
            scratch_area *r = realloc(retired, (nretired + 1) * sizeof *r);
            if (!r) ps_abort("out of memory: scratch buffer list");
            retired = r;
            retired[nretired++] = *a;
        }
        a->b = n;
        a->len = len;
    }
    return a->b;
}

/* The area sends read from; the one receives write into grows with it, so
 * that a pattern growing both before its first post posts without growing. */
void *ps_scratch(size_t bytes)
{
    scratch_grow(&scratch_in, bytes);
    return scratch_grow(&scratch_out, bytes);
}

void *ps__scratch_in(size_t bytes)
{
    return scratch_grow(&scratch_in, bytes);
}

static void scratch_free(void)
{
    for (size_t i = 0; i < nretired; i++) munmap(retired[i].b, retired[i].len);
    free(retired);
    if (scratch_out.b) munmap(scratch_out.b, scratch_out.len);
    if (scratch_in.b) munmap(scratch_in.b, scratch_in.len);
    retired = NULL;
    nretired = 0;
    scratch_out = scratch_in = (scratch_area){NULL, 0};
}

/* splitmix64: small, fast, and reproducible across platforms. */
uint64_t ps_random_seed(int rank, int stream)
{
    uint64_t z = 0x9E3779B97F4A7C15ull * ((uint64_t)(uint32_t)rank + 1) ^ ((uint64_t)(uint32_t)stream << 32);
    return z ? z : 1;
}

/* SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): the state advances by a
 * fixed odd step per draw, so k draws at once are one multiplication. */
#define PS_RANDOM_STEP 0x9E3779B97F4A7C15ull

void ps_random_skip(uint64_t *state, uint64_t k) { *state += k * PS_RANDOM_STEP; }

double ps_random(uint64_t *state)
{
    uint64_t z = (*state += PS_RANDOM_STEP);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

int ps_verify_requested(void) { return verify_flag; }

int ps__mpi_all_ok(int ok);

void ps_verify_report(int ok, const char *what)
{
    if (ps_recording()) return;
    int all = ps__mpi_all_ok(ok);
    if (ps__rt.job_rank == 0) {
        if (all) printf("verify: %s: ok\n", what ? what : "result");
        else fprintf(stderr, "parscope: verify: %s: FAILED (the parallel result differs from the serial one)\n",
                     what ? what : "result");
        fflush(stdout);
    }
    if (!all) ps__rt.verify_failed = 1;
}

void ps_abort(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char line[600];
    int n = snprintf(line, sizeof line, "parscope: rank %d: %s\n", ps__rt.job_rank, msg);
    fputs(line, stderr);
    fflush(stderr);
    /* and to the launching parscope, which shows it if the line above is
     * lost: an MPI's abort can end the job before the rank's stderr is
     * forwarded (MPICH under load) */
    (void)ps__status_tell("failed", line, n < (int)sizeof line ? n : (int)sizeof line - 1);
    if (ps__rt.be && ps__rt.be->abort) ps__rt.be->abort(1);
    exit(1);
}

const char *ps_strerror(void) { return ps__errbuf; }

void ps__set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps__errbuf, sizeof ps__errbuf, fmt, ap);
    va_end(ap);
}
