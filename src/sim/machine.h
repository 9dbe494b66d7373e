/*
 * machine.h - the machine model: what probe measures and predict simulates on.
 *
 * On disk an INI file (DESIGN.md "Files"):
 *   [machine]  name, send_latency, recv_latency (s), word_time (s per 8-byte word),
 *              flop_time (s per multiply), network = bus|nobus|star, cores_per_node,
 *              nodes, link_rate (bytes/s of a node's link each way: star),
 *              processors (the nodes are one machine's and share these)
 *   [bsp]      r (flop/s), g, l (flop units), h0, h1 (fit interval), p,
 *              r_incache, r_outcache (flop/s), g_us, l_us
 *   [pingpong] one line per size: "bytes = seconds" (half round trip), ascending
 *              sizes; a time below PS_MACHINE_PP_DIP times a smaller size's is
 *              warned about (so it is in [pingpong_intra] and [self])
 *   [loggops]  the LogGOPS model probe measures with the runtime's own calls:
 *              S, S_ack, o_post, o_construct, o_done, o_ack, o_ack_more, contention, progress_send,
 *              progress_recv,
 *              rate, burst, half_round_trip_8B, half_round_trip_8B_spread, and one line
 *              per size "bytes = o_s o_r L gap [o_r_in]"
 *   [pingpong_intra] the same within a node, when [pingpong] is between nodes
 *   [self]     one line per size: "bytes = seconds": a message to the rank itself
 *              by the runtime's calls (its receive posted, its send, the wait of both)
 *   [written]  one line per size: "bytes = seconds": what a message sent from data its
 *              sender has just written (computed, or received) takes longer to arrive
 *              than one from a buffer nothing writes (the probe's ping-pong)
 *   [crossing] one line per size: "bytes = seconds": on a shaped link, how long after its
 *              send call ended a message arrives at the earliest when its receiver sent one
 *              to its sender that is still on its way (the two cross): from the probe's
 *              exchange, less the send call's, the receive's and the wait's own costs
 *   [meta]     the machine meta of results (docs/OUTPUTS.md): host, os, cpu,
 *              sockets, cores, pus, memory_bytes, cache_L1d .. cache_L4, mpi,
 *              compiler, date; and source (where the model comes from).  Files
 *              written before say memory and cache_l1 .. cache_l4; both load.
 * Only [machine] send_latency, recv_latency, word_time, flop_time (> 0) are
 * required; everything else may be missing (missing = 0 / empty = unknown).
 * Counts (nodes, cores_per_node, processors, [bsp] p, [meta] sockets, cores,
 * pus, memory_bytes, cache_*) are 1 or more where given: 0 is refused.
 * The estimator seed's architecture file ("receive latency = 0.24e-4 seconds")
 * is accepted as well (see machine.c).
 */
#ifndef PS_MACHINE_H
#define PS_MACHINE_H

#include <stddef.h>

#define PS_MACHINE_MAX_PP 256
/* A ping-pong ([pingpong], [pingpong_intra], [self]) row whose time is below
 * this fraction of the slowest smaller size's is warned about on load: a
 * larger message takes as long or longer, up to noise and cache effects.
 * The probe's own tables dip to 0.64 of it (a 2 MiB power of two against 3
 * bytes more, tests/report/data/characterize/probe.json), 0.81 in a quick
 * probe on a busy 2-core VM; a dip below half is a mistyped figure. */
#define PS_MACHINE_PP_DIP 0.5
/* How [meta] source begins in a file the probe wrote (its rows are what it
 * measured: the loader does not print the warning above for them). */
#define PS_MACHINE_PROBE_SOURCE "parscope probe"
#define PS_LOGGOPS_MAX 64

/* LogGOPS (Alexandrov et al., LogGP, SPAA 1995; Hoefler, Schneider and
 * Lumsdaine, LogGOPSim, HPDC 2010) per message-size range, as `parscope probe`
 * measures it through the runtime's own nonblocking calls, instrument
 * included (docs/PROBE.md "LogGOPS").  Row i gives, for a message of bytes[i]:
 *   os    the sender's CPU time in the send call (o_s + n O_s),
 *   orr   the receiver's CPU time completing the receive once the message has
 *         arrived while it was outside the runtime (o_r + n O_r): the next
 *         call takes it in (over TCP: reads it from the socket); above S it
 *         includes fetching the data,
 *   orin  the same for a message that arrived while the receiver was inside
 *         a call, whose runtime took it in then (that part of the cost lies
 *         in L, as in a ping-pong); equal to orr where not measured,
 *   L     from the end of the send call to the message (above S: its
 *         request to send) being at the receiver,
 *   gap   the least time between two messages leaving one rank (g + n G).
 * Between rows each is linear in n (o + O n on that range), never across S or
 * a measured S_ack. */
typedef struct ps_loggops {
    int    n;                          /* rows; 0 = no LogGOPS model (the seed's model applies) */
    double bytes[PS_LOGGOPS_MAX];      /* ascending */
    double os[PS_LOGGOPS_MAX], orr[PS_LOGGOPS_MAX], L[PS_LOGGOPS_MAX], gap[PS_LOGGOPS_MAX];
    double orin[PS_LOGGOPS_MAX];
    int    blocking;                   /* 1: osb and orbin hold the blocking calls' figures; 0: not measured
                                          (a blocking call costs what a nonblocking one does) */
    double osb[PS_LOGGOPS_MAX], orbin[PS_LOGGOPS_MAX]; /* (blocking) a blocking send's os up to S; a
                                          blocking receive's orin, its message arrived while it waited */
    double S;                          /* largest message sent eagerly (without its receive); 0 = no
                                          protocol switch found: every message eager */
    double S_ack;                      /* > 0: measured: above S up to this a send waits for its receiver's
                                          runtime only (data eager), not for its receive (S_ack = S: none
                                          such); 0: not measured (the simulator infers it from the
                                          receive's cost: ps_loggops_recv_step) */
    double o_post;                     /* posting a nonblocking receive, s */
    double o_construct;                /* a construct call's own code outside its calls (its bookkeeping),
                                          before its first message call, s; 0: none (not measured) */
    double o_done;                     /* completing a request that is already complete, s */
    double o_ack;                      /* > 0: completing a send above S up to S_ack whose receiver's
                                          acknowledgement came while this rank computed or sat in a call
                                          that does not complete that send: the wait that takes it in
                                          (and every such one pending), s; 0: o_done */
    double o_ack_more;                 /* ... each further acknowledgement that wait takes in with it, s */
    double contention;                 /* per-byte CPU costs are this many times longer while another
                                          rank of the node copies too (1 = no effect) */
    double progress_send, progress_recv; /* 0..1: how much a rendezvous transfer waits for the sender
                                          (receiver) to be inside the runtime (>= 0.5: it waits) */
    double rate, burst;                /* token bucket of a shaped link: bytes/s, bytes; 0 = none */
    double wire;                       /* shaped link: the bytes a message takes of the bucket beyond its
                                          payload (the runtime's and TCP/IP's headers, from a stop-and-wait
                                          series, whose replies carry the acknowledgements); 0 = none known */
    double oneway;                     /* shaped link: the bytes a message sent one way takes of the bucket
                                          beyond its payload and wire (its share of the acknowledgements its
                                          receiver sends alone, from a one-way stream); 0 = none known */
    double merged;                     /* shaped link: a small message written while its connection's
                                          previous one waits in the shaper joins it (TCP sends one
                                          segment): its bytes beyond its payload; 0 = none known ... */
    double o_s_merged, o_r_merged;     /* ... its send call's and its receiver's CPU time, s */
    double o_s_oneway;                 /* shaped link: the send call of a message sent one way that goes
                                          alone (the one-way stream's calls), s; 0 = none known */
    double nobus_contention;           /* >= 1: the probe took the network for a bus from an exchange that
                                          was not clearly serial (PS_PROBE_BUS_CLEAR); predict also
                                          simulates the ranks' copies side by side, at this contention */
    double half_8B;                    /* > 0: the half round trip of one double by plain MPI calls, taken
                                          with the LogGOPS rows (their machine state: compare sets a
                                          run's own beside it); 0: not measured */
    double half_8B_spread;             /* >= 1: the largest of the probe rounds' figures for half_8B over
                                          the smallest (how far the figure moves within one probe);
                                          0: fewer than two rounds measured it */
    double also_bus;                   /* 1: the probe took the network for nobus from an exchange that was
                                          not clearly free (PS_PROBE_DUPLEX_FREE); predict also simulates
                                          one message at a time (network = bus, contention 1) */
} ps_loggops;

/* One message's LogGOPS costs (seconds) at a size. */
typedef struct ps_loggops_cost {
    double os, orr, orin, L, gap;
    double osb, orbin;                 /* the blocking send's and receive's (ps_loggops.osb, orbin) */
    int    rendezvous;                 /* bytes > S (and S > 0) */
} ps_loggops_cost;

typedef struct ps_machine {
    char   name[128];
    /* the estimator's architecture (seed 003) */
    double send_latency, recv_latency;   /* seconds */
    double word_time;                    /* seconds per 8-byte word */
    double flop_time;                    /* seconds per multiply */
    int    bus;                          /* 1: bus (one message at a time), 0: nobus */
    int    cores_per_node;               /* 0 = unknown/unbounded */
    /* star: every node has one link into a switch, each direction a resource
     * its messages share (a message between nodes holds its sender's out-link
     * and its receiver's in-link, bytes / link_rate seconds) */
    int    star;                         /* network = star (bus is then 0) */
    int    nodes;                        /* nodes the model was measured on, 0 = unknown */
    double link_rate;                    /* bytes/s of a node's link each way, 0 = 8 / word_time */
    /* the nodes are one machine's (an emulated cluster): all of them share
     * these processors, so more ranks than that time-share them */
    int    processors;                   /* 0 = every node has its own */
    /* BSP (seed 004) */
    double bsp_r, bsp_g, bsp_l;          /* flop/s; g and l in flops */
    double bsp_h0, bsp_h1;               /* fit interval */
    int    bsp_p;
    double r_incache, r_outcache;        /* flop/s, 0 = unknown */
    /* ping-pong: half round-trip time per message size, ascending bytes */
    int    npp;
    double pp_bytes[PS_MACHINE_MAX_PP];
    double pp_time[PS_MACHINE_MAX_PP];
    /* ping-pong within a node when the table above is between nodes (probe
     * on several nodes); 0 entries: messages within a node cost the same */
    int    npp_intra;
    double ppi_bytes[PS_MACHINE_MAX_PP];
    double ppi_time[PS_MACHINE_MAX_PP];
    /* a message to the rank itself ([self]): its receive posted, its send and
     * the wait of both, by the runtime's calls; 0 entries: not measured */
    int    nself;
    double self_bytes[PS_MACHINE_MAX_PP];
    double self_time[PS_MACHINE_MAX_PP];
    /* [written]: the latency a message from data its sender has just written adds to one
     * from a buffer nothing writes (ps_machine_written_time); 0 entries: not measured */
    int    nwritten;
    double written_bytes[PS_MACHINE_MAX_PP];
    double written_time[PS_MACHINE_MAX_PP];
    /* [crossing], a shaped link's: how long after its send call ended a message that crosses one
     * going the other way arrives at the earliest (ps_machine_crossing_time); 0 entries: not measured */
    int    ncrossing;
    double crossing_bytes[PS_MACHINE_MAX_PP];
    double crossing_time[PS_MACHINE_MAX_PP];
    /* Hockney fit of the ping-pong: t(n) = t0 + n / r_inf */
    double t0, r_inf, n_half;
    /* meta */
    char host[128], os[128], cpu[256], mpi[128], compiler[128], date[64], source[256];
    int  sockets, cores, pus;
    long long memory_bytes;
    long long cache_bytes[4];            /* ps_cache_level_names: L1d .. L4; 0 = none */
    /* added by probe: optimistic g (one combined message per destination, as
     * bspprobe), flops; 0 = unknown */
    double bsp_g_combined;
    /* "" when the h-relation fit gave g and l; else why it failed ([bsp] fit =
     * failed, fit_note = ...), and the model has no g and l */
    char   bsp_fit_note[256];
    /* [loggops] lacks a row on one side of S or of S_ack (the probe writes both):
     * what the loader noticed, for predict to say; "" when nothing */
    char   lg_rows_note[512];
    /* what the loader warns about, lines "PATH:LINE: warning: ...\n" (a ping-pong
     * row far below a smaller size's: PS_MACHINE_PP_DIP); "" when nothing */
    char   warnings[1024];
    ps_loggops lg;                       /* lg.n == 0: none */
} ps_machine;

void ps_machine_init(ps_machine *m);

/* Loads an INI machine file.  On a missing file, a directory, a syntax error
 * or a missing/invalid key returns -1 with err naming the path and line
 * ("m.ini:7: word_time: not a number").  m->warnings, if any, are printed on
 * standard error ("parscope: m.ini:12: warning: ..."). */
int ps_machine_load(const char *path, ps_machine *m, char *err, size_t errlen);
/* Writes it (atomically).  0 or -1 with err. */
int ps_machine_save(const char *path, const ps_machine *m, char *err, size_t errlen);

/* Cost of one message of `bytes` bytes, seconds, from the ping-pong table
 * when present (piecewise linear in bytes), else send_latency + words * word_time. */
double ps_machine_msg_time(const ps_machine *m, double bytes);
/* The same within a node: from [pingpong_intra] when present, else as above. */
double ps_machine_msg_time_intra(const ps_machine *m, double bytes);

/* A message to the sending rank itself, from [self]: its receive's post,
 * its send and the wait of both, seconds; -1 when the model has no [self]. */
double ps_machine_self_time(const ps_machine *m, double bytes);

/* From [written]: the seconds a message of `bytes` from data its sender has
 * just written takes longer to arrive (never below 0); 0 when the model has
 * no [written]. */
double ps_machine_written_time(const ps_machine *m, double bytes);

/* From [crossing]: the seconds after its send call ended before which a message of
 * `bytes` that crosses one going the other way cannot arrive; 0 when the
 * model has no [crossing]. */
double ps_machine_crossing_time(const ps_machine *m, double bytes);

/* LogGOPS costs of a message of `bytes` bytes: linear between the rows of its
 * protocol (eager up to S, rendezvous above), extended past the last row with
 * the last range's slope (never falling).  m->lg.n must be > 0. */
void ps_loggops_at(const ps_loggops *g, double bytes, ps_loggops_cost *c);

/* A receive's cost that jumps PS_LOGGOPS_RECV_JUMP times or more between
 * two sizes side by side (1/16 apart or less) above S, and not at S itself:
 * a protocol step the runtime takes above S, where S is only where a send's
 * completion starts to wait for its receiver.  Between the two, the data
 * likely still move eagerly (Open MPI's shared memory up to 4 KiB, a send
 * completing once the receiver's runtime took the fragment in, whether its
 * receive was posted or not), and the simulator sends those messages so
 * (sim.c, M_ACKED) instead of by rendezvous.  Returns the
 * size below the step, 0 when there is none.  bytes ascending, n rows. */
#define PS_LOGGOPS_RECV_JUMP 2.0
double ps_loggops_recv_step(const double *bytes, const double *orr, int n, double S);

/* The file of a machine model named by path or by name: a path that exists
 * as given; else NAME, NAME.ini or machines/NAME.ini in the machine folders
 * ($PARSCOPE_MACHINES, an installed tree's share/parscope/machines, the
 * source tree's machines/).  0 with path, or -1 with err listing the models
 * that can be named. */
int ps_machine_find(const char *name, char *path, size_t len, char *err, size_t errlen);

/* Parses a machine file held in memory; `path` only names it in messages.
 * Prints nothing: its warnings are left in m->warnings. */
int ps_machine_parse(const char *text, const char *path, ps_machine *m, char *err, size_t errlen);

#endif
