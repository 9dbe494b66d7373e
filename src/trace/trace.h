/*
 * trace.h - the event record and the trace file: parscope's shared currency.
 *
 * Every run, real (runtime) or simulated (sim), produces a ps_trace; result
 * sheets, diagrams, exports and comparisons are functions of one.  The file
 * format is documented in docs/TRACE_FORMAT.md.
 *
 * Times in a trace read from disk are seconds on the global (clock-corrected)
 * timeline.  Every message appears twice: one PS_EV_SEND on the sender and
 * one PS_EV_RECV on the receiver; the k-th send from s to d with tag t
 * matches the k-th receive on d from s with tag t (MPI's non-overtaking
 * order), which is how ps_trace_match() pairs them.
 *
 * A nonblocking operation is two events: its start (a SEND with
 * PS_EVF_NONBLOCKING, or a POST) and its completion (a WAIT, or a RECV with
 * PS_EVF_NONBLOCKING); both carry the operation's request id in `aux`
 * (format version 2), which ps_trace_requests() turns into pairs.
 */
#ifndef PS_TRACE_H
#define PS_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ps_event_kind {
    PS_EV_COMPUTE = 1,  /* computation; bytes = flops */
    PS_EV_SEND,         /* a send call (blocking, or the post of a nonblocking one) */
    PS_EV_RECV,         /* the time spent completing one receive (blocking call, or
                           the wait for its request) */
    PS_EV_POST,         /* posting a nonblocking receive */
    PS_EV_WAIT,         /* waiting for a nonblocking send to complete; peer = dest */
    PS_EV_BARRIER,      /* a barrier */
    PS_EV_MARK,         /* an instant mark (t0 == t1), e.g. VISIBLE_SYNC */
    PS_EV_SECTION,      /* a user section; aux = section name id (in the construct table) */
    PS_EV_DATA,         /* communication-related data movement; bytes = bytes moved */
    PS_EV_COLLECTIVE,   /* a collective operation (t0..t1); the rank's send and recv events
                           inside it are how it was carried out; aux = enum ps_collective,
                           bytes = the operation's payload (format version 2) */
    PS_EV__COUNT
};

/* aux of a PS_EV_COLLECTIVE */
enum ps_collective {
    PS_COLL_ALLREDUCE = 1,  /* ps_allreduce_sum / _max: a reduction whose result every rank gets */
};

/* Tags below zero are the runtime's own messages, never an MPI tag (MPI's are
 * >= 0): a recorded barrier becomes empty messages up and down a binary tree
 * with PS_TAG_BARRIER, which a measured run's MPI_Barrier sends unseen.  The
 * sheet counts them apart from the workload's messages. */
#define PS_TAG_BARRIER (-2)
static inline int ps_tag_runtime(int32_t tag) { return tag < 0; }

/* flags */
#define PS_EVF_NONBLOCKING 0x01  /* SEND: posted with isend; RECV: completed by a wait */
#define PS_EVF_ESTIMATED   0x02  /* time is a model's, not a clock's (predictions) */
#define PS_EVF_WAITALL     0x04  /* WAIT / RECV: completed by a wait for every outstanding request */

typedef struct ps_event {
    double   t0, t1;    /* start and end, seconds */
    uint64_t bytes;     /* message bytes; flops for COMPUTE; bytes for DATA */
    int32_t  peer;      /* partner rank, -1 if none */
    int32_t  tag;
    uint16_t construct; /* index into ps_trace.constructs */
    uint8_t  kind;      /* enum ps_event_kind */
    uint8_t  flags;
    uint32_t aux;       /* kind-specific: SECTION: name id; SEND (nonblocking), POST, WAIT,
                           RECV (nonblocking): request id, 1-based per rank, 0 = unknown;
                           COLLECTIVE: enum ps_collective */
} ps_event;             /* 40 bytes */

/* Process metrics of one rank (getrusage at finalize, CLUE's timer class). */
typedef struct ps_procstats {
    double   wall, user, sys;        /* seconds */
    uint64_t minflt, majflt;         /* page faults */
    uint64_t nvcsw, nivcsw;          /* voluntary / involuntary context switches */
    uint64_t maxrss_kb;
    /* memory-system counters over the timed interval only (the rest are
     * whole-process figures); -1: not measured (a prediction, a version 1
     * trace, no perf_event_open for cache misses) */
    int64_t  timed_minflt, timed_majflt, timed_cache_misses;
    /* CPU time (microseconds) and context switches over the timed interval
     * (CLUE's Timer.Start .. Timer.Stop); -1: not measured (a prediction, a
     * trace before version 4) */
    int64_t  timed_user_us, timed_sys_us, timed_nvcsw, timed_nivcsw;
} ps_procstats;

typedef struct ps_rank_trace {
    ps_event    *ev;
    size_t       n;          /* events held */
    size_t       cap;        /* capacity (for writers filling in place) */
    uint64_t     dropped;    /* events lost to a full buffer */
    double       t_begin;    /* end of OPEN0 (start of the timed interval) */
    double       t_end;      /* start of CLOSE0 */
    double       clock_offset;  /* local - global at t_begin, seconds */
    double       clock_drift;   /* d(offset)/dt, seconds per second */
    double       clock_rtt;     /* best round trip used for the estimate */
    ps_procstats proc;
    char         host[64];
} ps_rank_trace;

typedef struct ps_trace {
    int            nranks;
    int            nconstructs;
    char         **constructs;  /* names, index = ps_event.construct */
    char          *meta_json;   /* free-form JSON object: workload, params, machine, ... */
    ps_rank_trace *rank;        /* nranks entries */
    uint32_t       version;     /* format version it was read from (PS_TRACE_VERSION when built) */
} ps_trace;

/* Allocation; construct names are copied.  Return NULL on out of memory. */
ps_trace *ps_trace_new(int nranks);
void      ps_trace_free(ps_trace *t);
int       ps_trace_set_constructs(ps_trace *t, const char *const *names, int n);
int       ps_trace_add_construct(ps_trace *t, const char *name); /* returns id or -1 */
int       ps_trace_set_meta(ps_trace *t, const char *json);
/* Appends one event to rank r, growing its array; 0 or -1 (out of memory). */
int       ps_trace_push(ps_trace *t, int r, const ps_event *e);

/* The file.  ps_trace_write writes atomically (temporary file + rename).
 * path may name a file or a directory (then DIR/trace.pst).  On failure
 * they return -1 and put a message naming the path in err. */
int ps_trace_write(const ps_trace *t, const char *path, char *err, size_t errlen);
int ps_trace_read(const char *path, ps_trace **out, char *err, size_t errlen);
/* Parses a trace held in memory; `name` is used in messages. */
int ps_trace_parse(const void *data, size_t len, const char *name, ps_trace **out, char *err, size_t errlen);
/* Resolves a path (file or directory) to the trace file's path. */
void ps_trace_path(const char *path, char *buf, size_t len);

/* The timed interval starts right after a warm-up (docs/TRACE_FORMAT.md,
 * runtime/mpi_backend.c): every pair of ranks up to PS_WARMUP_ALL_PAIRS
 * exchanges one message of each of PS_WARMUP_SIZES bytes, ring neighbours
 * both ways beyond.  The simulator charges those bytes to a shaped link's
 * token bucket, which the timed interval then finds drained. */
#define PS_WARMUP_ALL_PAIRS 64
#define PS_WARMUP_SIZES 1, 64, 512, 1024, 4096, 16384, 65536

/* Execution time as DESIGN.md defines it: latest rank's t_end minus the
 * earliest rank's t_begin. */
double ps_trace_time(const ps_trace *t);

const char *ps_event_kind_name(int kind);

/* The trace format version ps_trace_write writes (docs/TRACE_FORMAT.md);
 * ps_trace_parse reads this one and every earlier one. */
#define PS_TRACE_VERSION 4u

/* Where each rank's events start in one array of all the trace's events
 * (ps_requests and ps_match index so): a new array of nranks + 1 offsets,
 * the last one the total; NULL when out of memory. */
size_t *ps_trace_event_offsets(const ps_trace *t);

/* ---- nonblocking requests -------------------------------------------------- */

/* For every event (indexed like ps_match's arrays, base[r] + i): for a
 * nonblocking start (SEND with PS_EVF_NONBLOCKING, POST) the index on the
 * same rank of the event that completes it (WAIT, RECV with
 * PS_EVF_NONBLOCKING), for such a completion the index of its start, -1
 * for everything else or when the partner is missing; and the request id of
 * both (0 for other events).  Ids come from the trace (aux) where it has
 * them; a trace without them (version 1) gets ids in posting order, the k-th
 * completion on (peer, tag) completing the k-th start on it. */
typedef struct ps_requests {
    int64_t  *partner;
    uint32_t *id;
    size_t   *base;          /* base[r] = offset of rank r's events */
    size_t    nrequests;     /* starts with a completion */
    size_t    unfinished;    /* starts without one (the run ended first, or lost events) */
    size_t    orphans;       /* completions without a start */
} ps_requests;

int  ps_trace_requests(const ps_trace *t, ps_requests *q);
void ps_requests_free(ps_requests *q);
static inline int ps_event_is_nb_start(const ps_event *e)
{ return (e->kind == PS_EV_SEND && (e->flags & PS_EVF_NONBLOCKING)) || e->kind == PS_EV_POST; }
static inline int ps_event_is_nb_completion(const ps_event *e)
{ return e->kind == PS_EV_WAIT || (e->kind == PS_EV_RECV && (e->flags & PS_EVF_NONBLOCKING)); }

/* ---- message matching -------------------------------------------------- */

/* For every PS_EV_SEND, the index (rank, event) of its matching RECV, and the
 * reverse.  Matching is O(events) using per-(src,dst,tag) FIFO order. */
typedef struct ps_evref { int32_t rank; int32_t index; } ps_evref;
typedef struct ps_match {
    ps_evref *recv_of_send;   /* per rank, per event: parallel arrays, {-1,-1} if none */
    ps_evref *send_of_recv;
    size_t   *base;           /* base[r] = offset of rank r's events in the arrays */
    size_t    nmessages;      /* matched pairs */
    size_t    unmatched_sends, unmatched_recvs;
} ps_match;

int  ps_trace_match(const ps_trace *t, ps_match *m);
void ps_match_free(ps_match *m);
static inline ps_evref ps_match_recv(const ps_match *m, int rank, size_t i)
{ return m->recv_of_send[m->base[rank] + i]; }
static inline ps_evref ps_match_send(const ps_match *m, int rank, size_t i)
{ return m->send_of_recv[m->base[rank] + i]; }

#endif /* PS_TRACE_H */
