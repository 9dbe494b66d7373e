/*
 * parscope.h - the parscope runtime: what runs inside every rank.
 *
 * Generated LOOP programs and the built-in workloads call only these
 * functions; they never call MPI themselves.  The runtime has two back ends:
 *
 *   MPI       - the program runs as one MPI process per rank; every message,
 *               computation and synchronisation becomes an event in a
 *               per-rank trace buffer (fixed capacity, no allocation or I/O
 *               on the hot path).  At ps_finalize() clocks are corrected to
 *               one global timeline and the trace is written.
 *   recording - (PARSCOPE_RECORD=P in the environment) the program runs once
 *               per rank id 0..P-1, each in a forked child of one process,
 *               without MPI; computation is skipped and messages are written
 *               as instruction streams for the simulator.
 *
 * Error convention: functions returning int return 0 on success and -1 on
 * failure; ps_strerror() then describes the last failure.  Fatal misuse
 * (a bad rank, an exhausted request table) prints "parscope: rank R: ..." and
 * aborts the job with exit status 1.
 */
#ifndef PARSCOPE_H
#define PARSCOPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here, and only that, is exported from libparscope.so
 * (the library is built with hidden visibility). */
#pragma GCC visibility push(default)

#define PS_VERSION_MAJOR 0
#define PS_VERSION_MINOR 1

/* The cores of the node a process runs on, where the node is a share of the
 * machine (parscope emulate's nodes): the count the results name, instead of
 * the machine's (a rank's own affinity cannot tell: MPI may bind it to one). */
#define PS_ENV_NODE_CORES "PARSCOPE_NODE_CORES"
/* The processors of the one machine under nodes that share them (parscope
 * emulate with NODES x C above them): a job of more ranks than these
 * time-shares them, however few ranks each node holds. */
#define PS_ENV_SHARED_PROCESSORS "PARSCOPE_SHARED_PROCESSORS"

/* Construct ids: small integers naming what issued an event, so sheets and
 * diagrams can group messages by construct.  Ids 0..PS_C__BUILTIN-1 are
 * fixed; programs may register more with ps_construct(). */
enum ps_construct_id {
    PS_C_NONE = 0,
    PS_C_USER,          /* plain user code / direct runtime calls */
    PS_C_COMMUNICATE,
    PS_C_EXCHANGE,
    PS_C_MULTIBCAST0,
    PS_C_MULTIBCAST_ME,
    PS_C_MULTIBCAST_ALTER,
    PS_C_TREE_BCAST,
    PS_C_TREE_COLLECT,
    PS_C_TREE_DISTRIB,
    PS_C_VISIBLE_SYNC,
    PS_C_SEND,          /* the estimator's six instructions */
    PS_C_RECEIVE,
    PS_C_BSEND,
    PS_C_BRECEIVE,
    PS_C_WORK,
    PS_C_WAIT,
    PS_C_SCALPROD,
    PS_C_MATVECPROD,
    PS_C_MATPROD,
    PS_C_INIT_ARRAY,
    PS_C_DATA_MOVE,
    PS_C_SECTION,
    PS_C_BARRIER,
    PS_C_REDUCE,
    PS_C_CLOCKSYNC,
    PS_C__BUILTIN
};

/* Registers (or looks up) a construct name; returns its id.  Names are
 * copied.  Safe to call before ps_init(). */
int ps_construct(const char *name);
const char *ps_construct_name(int id);

/* ---- life cycle ------------------------------------------------------- */

/* Defaults for -s and -i when the command line does not give them
 * (call before ps_init; the runtime's own defaults are 100 and 1). */
void ps_set_defaults(long problem_size, long iterations);

/* Hands the runtime the process arguments (generated code's main does this
 * before the user's main runs).  Runtime options are removed from argv:
 *   -s N / --size N        problem size
 *   -i N / --iterations N  iterations
 *   --trace PATH           write the trace file here (rank 0)
 *   --timeout SEC          abort with a report of what each rank waits on
 *   --quiet                do not print the result sheet at ps_finalize
 *   --workload NAME        name recorded in the trace
 *   --verify               check the result against a serial computation
 *   --no-trace             record no events (a baseline for the cost of tracing;
 *                          also PARSCOPE_NO_TRACE=1)
 *   --no-warmup            do not open connections before the timed interval
 *                          (also PARSCOPE_NO_WARMUP=1)
 */
void ps_set_args(int *argc, char ***argv);

/* After ps_set_args, what is left is the program's own.  A program whose
 * main takes no arguments (takes_args 0) has no use for any: the first is
 * refused, naming it, with exit status 2 (never silently ignored: '--sise
 * 100' would otherwise run the default size).  Under --check-args (the
 * launcher's check before a job starts) the process ends here, status 0 when
 * the arguments are good; a program that does not call it ends there in
 * ps_init, before the runtime starts. */
void ps_program_args(int argc, char **argv, int takes_args);

/* Starts the runtime (MPI_Init in the MPI back end), synchronises clocks,
 * and marks the start of the workload's timed interval.  trace_capacity is
 * the per-rank event capacity (0: the default, PS_TRACE_DEFAULT_CAPACITY). */
int ps_init(long trace_capacity);

/* Ends the set-up that follows ps_init (allocation, initialization, first
 * touch of memory): maps the pages the set-up allocated but did not write,
 * exchanges a round of messages with the ring neighbours (the set-up has
 * evicted the start-up's warm-up from the caches), synchronises the ranks
 * and starts the timed interval, and its memory counters, again here, so the
 * set-up lies outside it.  Events the set-up recorded (other than messages)
 * are dropped; call it before the program's first message.  LOOP programs
 * call it where \OPEN0's set-up ends (docs/LANGUAGE.md).  Later calls, and
 * calls in the recording back end, do nothing. */
void ps_setup_end(void);

/* Marks the end of the timed interval, synchronises clocks again, writes
 * the trace (if asked) and prints the result sheet on rank 0 (unless
 * --quiet), then ends MPI. */
void ps_finalize(void);

/* A grid workload whose grid is not the N x N that -s N implies (clue
 * --grid WxH) says which grid it runs: width x height cells held by every
 * rank (per_rank, weak scaling) or in all (split over the ranks).  What is
 * recorded as the problem (the trace's params, the sheet, the result JSON)
 * is then this grid: params.grid "WxH", params.grid_per_rank, and
 * params.size = the cells a rank holds (in all: W x H / P, rounded down).
 * Call after ps_init; ps_problem_size() still returns the -s value. */
void ps_set_grid(long width, long height, int per_rank);

int  ps_rank(void);
int  ps_size(void);
long ps_problem_size(void);
long ps_iterations(void);
int  ps_host(void);           /* LOOP's "host" id: always -1 (no host node) */
int  ps_recording(void);      /* nonzero in the recording back end */

/* The virtual tree of \TREE_BCAST, \TREE_COLLECT_VEC and \TREE_DISTRIB_VEC
 * (loop.h) has positions 0..P-1, position 0 its root; these map positions
 * to ranks and back.  The identity unless the user tunes the mapping
 * (--tree-order SPEC or PARSCOPE_TREE_ORDER; the root stays rank 0):
 *   linear        position k is rank k (the default)
 *   stride:S      positions take ranks 0, S, 2S, .., then 1, 1+S, .., and so
 *                 on: with ranks placed round robin over S nodes, the tree's
 *                 lowest levels stay within a node
 *   R0,R1,...     position k is rank Rk (a permutation of 0..P-1, R0 = 0) */
int  ps_tree_rank(int position);
int  ps_tree_position(int rank);

/* Seconds on this rank's monotonic clock. */
double ps_now(void);

/* ---- point to point -------------------------------------------------- */

/* A NULL buffer means "any bytes will do": the runtime uses scratch space.
 * Requests are handles, each naming its own request (never a later one),
 * completed by ps_wait or ps_waitall; waiting on a completed one returns at
 * once. */
typedef int ps_request;

ps_request ps_isend(const void *buf, size_t bytes, int dest, int tag, int construct);
ps_request ps_irecv(void *buf, size_t bytes, int src, int tag, int construct);
void ps_wait(ps_request req);
void ps_waitall(void);        /* every outstanding request of this rank */

void ps_send(const void *buf, size_t bytes, int dest, int tag, int construct);
void ps_recv(void *buf, size_t bytes, int src, int tag, int construct);

void ps_barrier(int construct);

/* Sum (or max) of doubles over all ranks, result on every rank.  Built from
 * point-to-point messages on a binary tree so the trace shows them. */
void ps_allreduce_sum(double *values, int count, int construct);
void ps_allreduce_max(double *values, int count, int construct);

/* ---- computation and marks ------------------------------------------- */

/* Records a computation that ran from t0 to t1 (ps_now values) doing
 * `flops` floating-point operations, on behalf of `construct`.  In the
 * recording back end it becomes a WORK instruction of `flops`. */
void ps_compute(int construct, double t0, double t1, double flops);

/* Abstract computation of `flops` floating-point operations (\WORK): runs a
 * dependent multiply-add loop of that length and records it. */
void ps_work(double flops);

/* A mark on the timeline (\VISIBLE_SYNC draws it as a line). */
void ps_mark(int construct);

/* Timed user sections (\SECTION(name) { ... }); nest properly. */
void ps_section_begin(const char *name);
void ps_section_end(const char *name);

/* Communication-related data movement (\DATA_MOVE): a separate activity. */
void ps_data_move_begin(void);
void ps_data_move_end(double bytes);

/* Scratch memory of at least `bytes` (grown on demand, never freed until
 * ps_finalize): what sends without a buffer carry.  Receives without one
 * write into an area of their own, never into this one. */
void *ps_scratch(size_t bytes);

/* Reproducible pseudo-random doubles in [0,1), seeded by (rank, stream).
 * ps_random_skip advances a state by k draws at once, so that one stream
 * can be shared out: a rank draws elements [lo, hi) of it after skipping lo
 * (different ranks' streams can overlap: in stream 1, rank 2's starts one
 * draw after rank 1's). */
double ps_random(uint64_t *state);
uint64_t ps_random_seed(int rank, int stream);
void ps_random_skip(uint64_t *state, uint64_t k);

/* --verify: nonzero when the user asked the workload to check its result
 * against a serial computation.  ps_verify_report() prints the outcome on
 * rank 0 (all ranks must call it) and makes the job fail (exit status 1) if
 * any rank reports ok == 0. */
int  ps_verify_requested(void);
void ps_verify_report(int ok, const char *what);

/* Ends the whole job over a bad parameter of the workload, such as a size
 * the ranks cannot share: bad input, not a failure of the run (exit status
 * 2); the launching parscope says the message once. */
void ps_bad_input(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* Ends the whole job with a message (exit status 1). */
void ps_abort(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

const char *ps_strerror(void);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* PARSCOPE_H */
