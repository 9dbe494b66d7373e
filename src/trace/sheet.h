/*
 * sheet.h - the standard result sheet's figures, computed from a trace.
 *
 * Busy / overhead / idle per rank as ParaGraph defines them (LOOP seed §6):
 *   busy     = time in the timed interval outside the communication layer;
 *   overhead = time inside it doing work;
 *   idle     = time inside it waiting for a partner: for a receive, the part
 *              before the matching send began (on the corrected clocks); for a
 *              barrier, the part before the last rank arrived.
 * The three add up to the rank's timed interval [t_begin, t_end] (clipped to
 * the global interval, so every rank's lane covers the execution time).
 *
 * Messages are the workload's: the runtime's own (a predicted barrier's tree,
 * trace.h PS_TAG_BARRIER) are counted apart, as a measured run's MPI_Barrier
 * sends its own unseen; their time still counts as overhead and idle.
 *
 * Message queue length as ParaGraph defines it (Heath & Etheridge,
 * "Visualizing the performance of parallel programs", IEEE Software 1991:
 * the messages sent to a node and not yet received by it): a message joins
 * its receiver's queue when its send starts and leaves it when its receive
 * ends, the two instants the space-time diagram joins with its arrow; one
 * that no receive took stays to the end.  The sheet gives each node's
 * maximum and its average over the execution time.
 */
#ifndef PS_SHEET_H
#define PS_SHEET_H

#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"

typedef struct ps_stat {
    double   sum, min, max;
    uint64_t n;
} ps_stat;

static inline double ps_stat_avg(const ps_stat *s) { return s->n ? s->sum / (double)s->n : 0.0; }
void ps_stat_add(ps_stat *s, double v);

typedef struct ps_rank_sheet {
    double   busy, overhead, idle;      /* seconds */
    double   compute, data_move;        /* seconds in COMPUTE / DATA events */
    double   flops;
    uint64_t messages_sent, bytes_sent, messages_received, bytes_received;
    uint64_t runtime_sent, runtime_received; /* the runtime's own messages (trace.h), not counted above */
    ps_stat  send_time, recv_time;      /* per message call, seconds */
    uint64_t dropped;
    int      max_queue;                 /* most messages sent to this node and not yet received */
    double   avg_queue;                 /* its average over the execution time */
} ps_rank_sheet;

typedef struct ps_sheet {
    int            nranks;
    double         time;                /* execution time */
    double         busy_pct, overhead_pct, idle_pct;
    uint64_t       messages_sent, bytes_sent, messages_received, bytes_received;
    uint64_t       runtime_sent, runtime_received; /* a recorded barrier's tree messages (trace.h) */
    ps_stat        send_time, recv_time;
    uint64_t       unmatched;
    uint64_t       dropped;
    int            max_queue;           /* the largest node's maximum queue length */
    double         avg_queue;           /* the nodes' average queue lengths, averaged */
    ps_rank_sheet *rank;
} ps_sheet;

int  ps_sheet_compute(const ps_trace *t, ps_sheet *s);
void ps_sheet_free(ps_sheet *s);

/* The same sheet built event by event, for a producer that knows each
 * receive's matching send (the simulator) and keeps no trace: its memory is
 * the sheet's and about 6 bytes per message for the queue lengths.  Feed each
 * rank's events in its order (ps_sheet_acc_event; send_t0 is a receive's
 * matched send's start, NAN if none), then ps_sheet_acc_finish with every
 * rank's timed interval.  NULL / -1: out of memory. */
typedef struct ps_sheet_acc ps_sheet_acc;
ps_sheet_acc *ps_sheet_acc_new(int nranks);
int           ps_sheet_acc_event(ps_sheet_acc *a, int rank, const ps_event *e, double send_t0);
/* A send whose message no receive took (the simulation ended with it in a
 * channel or in a receive's outstanding request): counted unmatched, as
 * ps_trace_match counts it, and in receiver dst's queue from send_t0, its
 * SEND event's t0, on.  After the last event (never while a feed adds
 * them, sheet_feed.h), before the queues.  -1: out of memory. */
int           ps_sheet_acc_unreceived(ps_sheet_acc *a, int dst, int tag, double send_t0);
/* An event of a rank after its timed interval [t_begin, t_end] (the wait
 * the runtime's finalize makes for requests still open): counted, its time
 * clipped to that interval as ps_sheet_compute clips a measured trace's
 * (the time after a rank's end is its wait for the others already).  After
 * the last event (never while a feed adds them), before the queues.  -1:
 * out of memory. */
int           ps_sheet_acc_late_event(ps_sheet_acc *a, int rank, const ps_event *e, double send_t0,
                                      double t_begin, double t_end);
/* Fills s and frees a (also on failure). */
int           ps_sheet_acc_finish(ps_sheet_acc *a, const double *t_begin, const double *t_end, ps_sheet *s);
/* The most costly part of finishing, the receivers' queue lengths (their
 * messages' times sorted), for ranks r0 to r1 - 1 ahead of
 * ps_sheet_acc_finish, which then leaves them be: two threads may take two
 * ranges apart once every event is in.  -1: out of memory (finish does
 * those ranks again).  ps_sheet_acc_split: the rank where half of the
 * messages have gone before. */
int           ps_sheet_acc_queues(ps_sheet_acc *a, int r0, int r1, const double *t_begin, const double *t_end);
int           ps_sheet_acc_split(const ps_sheet_acc *a);
void          ps_sheet_acc_free(ps_sheet_acc *a);
/* The sheet as text, the seed's two pages: evaluated problem (workload with
 * its structural and runtime parameters), hardware, main results, the
 * per-processor summary and the statistics.  Structure and hardware come
 * from the trace (ps_trace_describe); t may be NULL (then they show "-").
 * size and iterations are what the caller knows: the trace's own params
 * (what the runtime recorded as run, with a workload's grid) go first. */
void ps_sheet_print(const ps_sheet *s, const ps_trace *t, const char *workload, long size, long iterations, FILE *f);

#endif
