/*
 * sim.h - the execution simulator: instruction streams + a machine model ->
 * predicted times, a predicted trace, the seed's breakdown.
 *
 * Event driven as the estimator seed's (seeds/003): an event queue ordered
 * in program time and a queue of pending communications.  Every send or
 * receive first costs its latency on the issuing rank (the single-threaded
 * system software, one entry point); only then is the communication posted.
 * A posted communication is transmitted when both partners have posted it
 * (or at once, for messages up to the eager size) and, on a bus machine,
 * when the bus is free; it takes transfer(bytes).  WORK costs flops times
 * the price of a flop.  When nothing can proceed but some rank has
 * instructions left, the program has deadlocked.
 */
#ifndef PS_SIM_H
#define PS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "sim/machine.h"
#include "sim/stream.h"
#include "trace/sheet.h"
#include "trace/trace.h"

typedef struct ps_sim_opts {
    double eager_bytes;   /* messages up to this size are buffered: the send completes without the
                             receiver (default 0: every send waits for its receive, as the seed) */
    int    nodes;         /* nodes the ranks are spread over (0 = 1 when the machine gives
                             cores_per_node, else a core per rank) */
    int    bus;           /* -1: the machine's network type, 0 nobus, 1 bus */
    int    build_trace;   /* fill result.trace */
    int    build_sheet;   /* fill result.sheet as the simulation runs (default 1; no trace needed) */
    int    sheet_thread;  /* the sheet built on a second thread (sheet_feed.h): 0 when the streams
                             are large and a second processor is there (default), 1 always, -1 never;
                             the same sheet either way */
    int    hashed_channels; /* 1: match messages through the hash table of (receiver, sender, tag) even
                             at few ranks (tests compare it with the pair index; the same result) */
    int    ordered;       /* 1: the seed's model on a network without shared links takes the ranks'
                             steps in time order through the event queue, as every other model
                             does, instead of in free order (tests compare them; the same result) */
    int    grown_pool;    /* 1: the message pool grows by doubling (mremap), as where its address space
                             cannot be reserved whole, instead of reserved and made ready ahead by a
                             helper thread (tests compare them; the same result) */
    double work_flop_time;/* seconds per flop for \WORK instructions (construct WORK); 0 = flop_time */
    /* seconds per flop by construct id (the streams' table), from a calibration run; 0 or
     * beyond n = the machine model's price */
    const double *construct_flop_time;
    int           nconstruct_flop_time;
    /* with construct_flop_time: the flops per call it was measured at (0: unknown); a
     * kernel call whose working set falls on the other side of the last-level cache
     * is priced by the machine's r_incache / r_outcache ratio (ps_sim_work_time) */
    const double *construct_flops_per_call;
    int no_warmup;        /* the run had no warm-up (its --no-warmup): a shaped link's token
                             bucket starts full, not with what the runtime's warm-up left */
    /* a LogGOPS model's shaped bus: bytes more for a message whose receiver has sent nothing back
     * to its sender since the sender's previous message to it (TCP acknowledges such messages by
     * segments of their own, which a stop-and-wait series' wire_bytes leaves out); 0: the model's
     * oneway_bytes (none where it has none), < 0: none, and no o_s_oneway either (the same
     * messages' send calls).  Ignored elsewhere, and above PS_SIM_ACK_RANKS ranks
     * (result.oneway_ack 0). */
    double oneway_ack_bytes;
} ps_sim_opts;

#define PS_SIM_ACK_RANKS 4096  /* oneway_ack_bytes: a bit per ordered pair of ranks, 2 MB at most */

void ps_sim_defaults(ps_sim_opts *o);

/* The seed's breakdown of one rank's time. */
typedef struct ps_sim_rank {
    double   end;          /* when the rank finished its stream */
    double   work;         /* in WORK (computation, and \DATA_MOVE's copies) */
    double   comm;         /* latencies, and blocked while its own message was on the wire */
    double   wait;         /* blocked waiting for a partner (end - work - comm) */
    uint64_t sent, received, bytes_sent, bytes_received;
    uint64_t instructions;
} ps_sim_rank;

/* Messages longer than the receive that took them (MPI_ERR_TRUNCATE in a
 * run, unless a recording stood in for a size computed from message data):
 * how many, and the first. */
typedef struct ps_sim_truncated {
    uint64_t count;
    int      rank, from, tag;
    uint64_t posted_bytes, message_bytes;
} ps_sim_truncated;

typedef struct ps_sim_result {
    int          nranks;
    double       time;          /* execution time: the last rank's end */
    double       work, comm, wait;   /* averages over ranks, seconds */
    uint64_t     events;        /* events simulated (ends of transmissions, wakes and instructions; in
                                   free order, ordered = 0, a wait that finds its request complete at a
                                   later time goes on without a wake) */
    uint64_t     messages;
    uint64_t     runtime_messages; /* of them, the runtime's own (the model's barrier tree: ps_tag_runtime),
                                   which a run's sheet counts apart */
    uint64_t     self_messages; /* of them, to the sending rank itself (priced by the model's [self], or as
                                   messages between two ranks of a node when it has none) */
    uint64_t     peak_in_flight;/* most message records alive at once (in free order: in the order the
                                   ranks' steps were taken, not in time) */
    double       stretch;       /* oversubscription factor applied to CPU costs */
    double       unpriced_bytes;/* \DATA_MOVE bytes the model has no memory rate for (priced 0) */
    double       recv_step;     /* LogGOPS: above S up to this, messages go eagerly and their sends complete once
                                   the receiver's runtime took them in: the machine's S_ack where measured
                                   (ack_measured), else the receive's protocol step (ps_loggops_recv_step); 0 = none */
    int          ack_measured;
    uint64_t     below_step;    /*   messages above S up to recv_step */
    uint64_t     oneway_ack;    /* messages sent one way: charged oneway_ack_bytes, their calls o_s_oneway
                                   at least (0 where the rule did not apply) */
    int          oneway_ack_applied; /* the option applied: a LogGOPS model's shaped bus, P <= PS_SIM_ACK_RANKS */
    ps_streams_stats streams;   /* the streams' counts, from their validation (set unless -1) */
    ps_sim_rank *rank;
    ps_trace    *trace;         /* when build_trace */
    ps_sheet     sheet;         /* the predicted trace's result sheet, when build_sheet and has_sheet */
    int          has_sheet;
    int          sheet_thread;  /* the sheet was built on a second thread (ps_sim_opts.sheet_thread) */
    int          deadlock;      /* 1 if the program deadlocked */
    char        *report;        /* deadlock report (which ranks wait on what), or NULL */
    ps_sim_truncated truncated; /* messages longer than the receive that took them */
} ps_sim_result;

/* Simulates.  Returns 0 (completed), 1 (deadlock: r->report says which ranks
 * wait on what; r->trace holds what happened before), or -1 with err (bad
 * streams, out of memory). */
int  ps_simulate(const ps_streams *s, const ps_machine *m, const ps_sim_opts *o, ps_sim_result *r,
                 char *err, size_t errlen);
void ps_sim_result_free(ps_sim_result *r);

/* The pieces of the cost model (seconds), exposed for tests and exports. */
double ps_sim_transfer_time(const ps_machine *m, double bytes);
/* Seconds for a WORK of `flops` issued by `construct`: at its calibrated
 * price (moved across the cache as construct_flops_per_call says), else by
 * working set when the construct implies one and the machine gives in-cache
 * and out-of-cache rates, else flops * flop_time.  For DATA_MOVE the count is
 * bytes copied: calibrated, or at the memory rate the DAXPY rates imply, or 0
 * when the model has none. */
double ps_sim_work_time(const ps_machine *m, const ps_sim_opts *o, int construct, double flops);

#endif
