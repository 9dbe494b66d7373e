/*
 * rt.h - runtime internals shared by the runtime's modules (not installed).
 *
 * The public functions in parscope.h keep the common state (rank, size,
 * parameters, the trace buffer) in ps__rt and dispatch everything that
 * touches the outside world through a back end: MPI (mpi_backend.c) or
 * recording (record.c, selected by PARSCOPE_RECORD=P in the environment).
 */
#ifndef PS_RT_H
#define PS_RT_H

#include <stddef.h>
#include <stdint.h>

#include "parscope/parscope.h"
#include "trace/trace.h"

typedef struct ps__backend {
    const char *name;
    /* Starts the back end; sets ps__rt.rank and ps__rt.size.  Returns 0 or -1. */
    int  (*init)(void);
    /* Ends it: after the trace was collected. */
    void (*finalize)(void);
    ps_request (*isend)(const void *buf, size_t bytes, int dest, int tag, int construct);
    ps_request (*irecv)(void *buf, size_t bytes, int src, int tag, int construct);
    void (*wait)(ps_request req);
    void (*waitall)(void);
    void (*send)(const void *buf, size_t bytes, int dest, int tag, int construct);
    void (*recv)(void *buf, size_t bytes, int src, int tag, int construct);
    void (*barrier)(int construct);
    /* Computation: the MPI back end records an event, the recorder a WORK. */
    void (*compute)(int construct, double t0, double t1, double flops);
    /* \WORK(flops): MPI back end spins, recorder writes WORK. */
    void (*work)(double flops);
    void (*mark)(int construct);
    void (*abort)(int status);
    /* --alone: every rank of the launcher's job leaves here together (NULL: nothing to do) */
    void (*align)(void);
} ps__backend;

typedef struct ps__runtime {
    int    rank, size;
    long   problem_size, iterations;
    long   default_size, default_iterations;
    /* ps_set_grid: the grid run (0: none said; the problem is the -s size) */
    long   grid_w, grid_h;
    int    grid_per_rank;
    int    quiet;
    int    initialized, finalized;
    double timeout;              /* seconds, 0 = none */
    char   trace_path[4096];     /* where rank 0 writes the trace, "" = nowhere */
    char   workload[128];
    const ps__backend *be;
    /* this rank's trace buffer: fixed capacity, no allocation when recording */
    ps_event *ev;
    size_t    nev, cap;
    uint64_t  dropped;
    double    t_begin, t_end;    /* local clock */
    double    t_start_process;
    /* what this rank is blocked in, for the timeout report */
    volatile const char *waiting_what;
    volatile int         waiting_peer;
    volatile size_t      waiting_bytes;
    int                  verify_failed;
    int                  tracing;        /* 0 with --no-trace: no events, no timestamps */
    int                  no_warmup;      /* --no-warmup: connections open inside the timed interval */
    int                  alone;          /* --alone: every rank runs the program as a 1-rank job of its own
                                            (the 1-rank calibration with the node's other processors busy) */
    int                  job_rank;       /* the rank in the launcher's job: rank, but under --alone */
    int                  setup_ended;    /* ps_setup_end() restarted the timed interval */
    int                  construct_began; /* a construct call began (ps__structure) and has recorded no
                                             instruction yet: the recorder flags its first (PS_OPF_BEGINS) */
    /* memory-system counters over the timed interval (memcount.c); -1: not measured */
    int64_t              timed_minflt, timed_majflt, timed_cache_misses;
    /* CPU time (microseconds) and context switches over the timed interval
     * (memcount.c; CLUE's Timer.Start .. Timer.Stop); -1: not measured */
    int64_t              timed_user_us, timed_sys_us, timed_nvcsw, timed_nivcsw;
} ps__runtime;

extern ps__runtime ps__rt;

/* Appends one event; counts it as dropped when the buffer is full. */
static inline void ps__record(uint8_t kind, int construct, double t0, double t1,
                              int peer, int tag, uint64_t bytes, uint8_t flags, uint32_t aux)
{
    if (!ps__rt.tracing) return;
    if (ps__rt.nev < ps__rt.cap) {
        ps_event *e = &ps__rt.ev[ps__rt.nev++];
        e->t0 = t0;
        e->t1 = t1;
        e->bytes = bytes;
        e->peer = peer;
        e->tag = tag;
        e->construct = (uint16_t)construct;
        e->kind = kind;
        e->flags = flags;
        e->aux = aux;
    } else {
        ps__rt.dropped++;
    }
}

const ps__backend *ps__mpi_backend(void);
/* Returns the recording back end if PARSCOPE_RECORD is set, else NULL. */
const ps__backend *ps__record_backend(void);

/* The virtual tree's mapping onto ranks (tree_order.c): from spec (NULL:
 * PARSCOPE_TREE_ORDER, else linear) for p ranks.  0, or -1 with the
 * message set (ps__set_error). */
int ps__tree_order_init(const char *spec, int p);
/* The memory counters (memcount.c): begin at the start of the timed
 * interval, end at its end (results in ps__rt.timed_*). */
void ps__memcount_begin(void);
void ps__memcount_end(void);
/* The page faults the runtime's scratch areas took when mapped in
 * (ps__map_present), so far: the timed interval's count leaves them out,
 * as they cost a tenth of a fault taken by a touch. */
long ps__scratch_faults(void);
/* Remembers the process's memory at ps_init; maps every page of what the
 * set-up allocated since, returning the bytes (firsttouch.c). */
void   ps__first_touch_mark(void);
/* Scratch memory for receives whose content does not matter (rt.c): apart
 * from ps_scratch's, which sends read from. */
void  *ps__scratch_in(size_t bytes);
size_t ps__first_touch(void);
/* Each page of [p, p + n) read once from user space, content kept: a populated
 * page's first access can still trap (firsttouch.c). */
void   ps__touch_pages(const void *p, size_t n);
/* A fresh zeroed mapping of bytes, every page present and touched (in huge
 * pages where offered); NULL when mmap fails (firsttouch.c). */
void  *ps__map_present(size_t bytes);
/* Each page of [p, p + n) once the target of a single-copy transfer (firsttouch.c). */
void   ps__pin_for_messages(const void *p, size_t n);

/* The problem size that ran: the cells a rank holds when the workload said
 * its grid (ps_set_grid), else the -s size.  And the params object of the
 * trace's metadata: {ranks, size, iterations} and, with a grid, grid "WxH"
 * and grid_per_rank (rt.c). */
long    ps__problem_size_ran(void);
struct json_t;
struct json_t *ps__params_json(int ranks);

/* Construct table, for writing the trace. */
int ps__construct_count(void);

/* The trace's metadata (docs/TRACE_FORMAT.md, "Metadata") as JSON text,
 * built on rank 0 once the ranks' traces are collected into t; malloc'd, NULL
 * when out of memory.  meta.c. */
char *ps__trace_meta(const ps_trace *t, const char *mpi_library, int same_host, int clock_rounds);

/* Sets the message ps_strerror() returns. */
void ps__set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Marks what this rank is blocked in (for the --timeout report). */
static inline void ps__waiting(const char *what, int peer, size_t bytes)
{
    ps__rt.waiting_peer = peer;
    ps__rt.waiting_bytes = bytes;
    ps__rt.waiting_what = what;
}

#endif
