/*
 * loggops.c - the LogGOPS model of point-to-point messages (Alexandrov et
 * al., LogGP, SPAA 1995; Hoefler, Schneider, Lumsdaine, LogGOPSim, HPDC 2010),
 * measured between ranks 0 and 1 the way netgauge measures LogGP, but through
 * the parscope runtime's own calls (ps_isend, ps_irecv, ps_wait) with its
 * trace instrument on: what a workload pays per call is what is measured.
 *
 * Per message size n (a table; the simulator interpolates between rows):
 *   o_s(n)   the send call, timed alone, sends spaced so none waits for another;
 *   o_r(n)   the wait of a receive whose message (above S: its request to
 *            send) arrived long before, while the receiver computed: taking
 *            it in and copying it out (over TCP reading it from the socket),
 *            or fetching it;
 *   o_r_in(n) the wait of a receive whose eager message arrived while the
 *            receiver was in another call, which took it in;
 *   L(n)     half a ping-pong round trip minus o_s, o_r_in and o_post: the
 *            rest of the way (in a ping-pong the receiver is in its call when
 *            the message arrives: the model's round trip is
 *            2 (o_s + L + o_r_in + o_post));
 *   gap(n)   per message of a long stream of n-byte messages: (T(k) - T(1)) /
 *            (k - 1), netgauge's g + (n - 1) G;
 * and per machine:
 *   S        the largest message whose send completes before its receive is
 *            posted (a receiver that posts late does not hold the sender up);
 *            found by doubling then bisection;
 *   o_post   posting a receive; o_done  completing a request already complete;
 *   progress how much a rendezvous waits for the receiver (sender) to be in
 *            a call: its data move while that side computes, or not;
 *   contention  both ranks sending to each other at once against the model
 *            without interference: the factor on per-byte CPU costs;
 *   rate, burst a token bucket (a shaped link), from a stop-and-wait series
 *            of 8 KiB messages after the link was idle: the first ones pass at
 *            line speed while the bucket lasts, then one per chunk / rate;
 *            where that finds none but the series goes at a stream's rate (a
 *            rate-limited link), series of 4 KiB, then 1 KiB messages (a
 *            bucket below 16 KiB holds too few 8 KiB chunks to show).  A bucket counts
 *            only when its rate agrees with the stream's (stalls of a loaded
 *            machine read as a slow bucket in a stop-and-wait series).
 * On a shaped link every test sends at most half the bucket, after an idle
 * pause long enough to refill it, so the table holds line-speed costs and the
 * bucket stays the simulator's (and no single write exceeds the bucket: a TCP
 * segment larger than a token-bucket filter's depth is dropped, not delayed).
 */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/html.h"
#include "parscope/loop.h"
#include "parscope/parscope.h"
#include "probe/probe_int.h"
#include "runtime/config.h"
#include "runtime/rt.h"
#include "trace/json.h"
#include "util/util.h"

enum { TAG_LG = 0x4c47, TAG_LG_CTRL = 0x4c48, TAG_LG_ACK = 0x4c49 };

#define LG_MAX_SIZES   24
#define LG_CHUNK       8192      /* bucket probe: bytes per stop-and-wait message */
static const int lg_small[] = {4096, 1024}; /* ... for a bucket the first series cannot see */
#define LG_CHUNKS      64        /* ... at most this many after the idle pause */
#define LG_MAX_BURST(c) ((c) * LG_CHUNKS * 3 / 4) /* largest bucket a series of chunk c can see */
#define LG_STREAM_S    0.25      /* the reference stream lasts about this long */
#define LG_SHAPED_MAX  32768     /* largest table size on a shaped link */
#define LG_WIRE_BYTES  256       /* shaped link: a small message's bytes on the wire beyond its payload, at
                                    most (TCP/IP's headers, its acknowledgement's) */
#define LG_SHAPED_TRIPS 50       /* shaped link: round trips of a ping-pong sample, at most */
#define LG_WIRE_CHUNK  512       /* shaped link: the small messages whose wire bytes are measured ... */
#define LG_WIRE_TRIPS  256       /* ... in a stop-and-wait series of this many, the bucket emptied first */
#define LG_WIRE_TRIES  3         /* ... series at most, until one gives a figure */
#define LG_ONEWAY_BYTES 16       /* shaped link: a one-way stream's messages (two words, as a sweep's) ... */
#define LG_ONEWAY_MSGS 2000      /* ... this many at most, the bucket emptied first ... */
#define LG_ONEWAY_S    0.05      /* ... and for about this long at most at the bucket's rate */
#define LG_MERGE_MSGS  256       /* shaped link: small messages written behind a backlog in the shaper ... */
#define LG_MERGE_AHEAD 30e-6     /* ... which holds the link this long per message at least ... */
#define LG_MERGE_MAX   (400 * LG_CHUNK) /* ... and this many bytes at most */
#define LG_ACK_BATCH   8         /* o_ack_more: acknowledgements one wait takes in together */

/* Decided in the first round, kept: every round measures the same sizes. */
static int    lg_decided, lg_shaped, lg_shared;
static long   lg_S;              /* 0: no switch up to lg_max */
static long   lg_S_ack;          /* above S up to this, a send waits for its receiver's runtime only */
static long   lg_max;
static double lg_rate, lg_burst; /* the first round's bucket (shaped only) */
static double lg_chunk = LG_CHUNK; /* the chunk of the series that found it */
static double lg_sbytes, lg_st;  /* the reference stream: bytes, best time */
static long   lg_sizes[LG_MAX_SIZES];
static int    lg_nsizes;
static double lg_clk;            /* cost of reading the clock */

static char *sbuf, *rbuf;
static size_t buflen;

/* ---- small tools -------------------------------------------------------------- */

static void spin_until(double t)
{
    while (ps_now() < t) {
    }
}

static void nap(double s)
{
    if (s <= 0) return;
    struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Both ranks leave at about the same time (one message each way). */
static void pair_sync(int peer)
{
    int a = 0, b = 0;
    MPI_Sendrecv(&a, 1, MPI_INT, peer, TAG_LG_CTRL, &b, 1, MPI_INT, peer, TAG_LG_CTRL, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

/* Rank 0 decides, rank 1 learns. */
static void share_double(int rank, int peer, double *v)
{
    if (rank == 0) MPI_Send(v, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD);
    else MPI_Recv(v, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* The trace buffer is rewound before each batch, so every call records its
 * event as in a workload (a full buffer would drop events, which is cheaper). */
static void rewind_trace(void) { ps__rt.nev = 0; }

static double median_of(double *v, int n) { return n > 0 ? ps_median(v, (size_t)n) : NAN; }

/* On a shaped link: wait until the bucket holds `bytes` again. */
static void refill(double bytes)
{
    if (lg_shaped && lg_rate > 0) nap(bytes / lg_rate + 1e-3);
}

/* Round trips of n bytes in a ping-pong sample.  On a shaped link as many as
 * half the bucket holds (each message charged LG_WIRE_BYTES for its headers
 * and acknowledgement), up to LG_SHAPED_TRIPS: a small message's figure is
 * then a steady ping-pong's, as a program's, not the first round trip after
 * an idle pause alone (6-40% longer than a program's steady one under slownet
 * 100mbit: docs/BENCHMARKS.md); elsewhere about 20 us of them, 2 to cap. */
static int pingpong_trips(long n, double best, int cap)
{
    if (lg_shaped) return (int)fmax(1, fmin(LG_SHAPED_TRIPS, lg_burst / 2 / (2.0 * ((double)n + LG_WIRE_BYTES))));
    return (int)fmax(2, fmin(cap, 20e-6 / fmax(best, 1e-7)));
}

/* ---- the measurements (ranks 0 and 1; peer = the other) ------------------------- */

/* m round trips of n bytes with the runtime's calls; half the mean round trip
 * (rank 0's figure; rank 1 returns 0). */
static double rt_pingpong(int rank, int peer, long n, int m)
{
    rewind_trace();
    ps_request r = ps_irecv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
    pair_sync(peer);
    double t0 = ps_now();
    for (int i = 0; i < m; i++) {
        if (rank == 0) {
            ps_request s = ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
            ps_wait(s);
            ps_wait(r);
            if (i + 1 < m) r = ps_irecv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
        } else {
            ps_wait(r);
            if (i + 1 < m) r = ps_irecv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
            ps_request s = ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
            ps_wait(s);
        }
    }
    double t = ps_now() - t0;
    return rank == 0 ? t / m / 2 : 0;
}

/* The same with blocking calls, as a program's blocking ping-pong makes it
 * (rank 0 sends then receives, rank 1 receives then sends).  written: each
 * rank sends the data it has just received, as a program sends what it has
 * computed or received, instead of a buffer nothing writes (whose lines the
 * receiver's cache may still hold from the trip before: the ping-pong's
 * figure, which a program's messages from the scratch area pay). */
static double rt_pingpong_block(int rank, int peer, long n, int m, int written)
{
    const char *out = written ? rbuf : sbuf;
    rewind_trace();
    pair_sync(peer);
    double t0 = ps_now();
    for (int i = 0; i < m; i++) {
        if (rank == 0) {
            ps_send(out, (size_t)n, peer, TAG_LG, PS_C_SEND);
            ps_recv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
        } else {
            ps_recv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
            ps_send(out, (size_t)n, peer, TAG_LG, PS_C_SEND);
        }
    }
    double t = ps_now() - t0;
    return rank == 0 ? t / m / 2 : 0;
}

/* k sends of n bytes, each timed alone and spaced d apart so none waits for
 * the previous; then each send's wait (eager: already complete).  Rank 1
 * times its k receive posts.  Fills os[] and done[] (rank 0) or post[].
 * blocking: blocking sends (eager: each returns without its receiver), no
 * waits (done unused), and rank 1's posts not timed (post unused). */
static void time_calls(int rank, int peer, long n, int k, double d, int blocking, double *os, double *done,
                       double *post)
{
    ps_request q[64];
    rewind_trace();
    if (rank == 1) {
        for (int i = 0; i < k; i++) {
            double t0 = ps_now();
            q[i] = ps_irecv(rbuf + (size_t)i * (size_t)n, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
            if (!blocking) post[i] = ps_now() - t0 - lg_clk;
        }
        pair_sync(peer);
        ps_waitall();
    } else {
        pair_sync(peer);
        for (int i = 0; i < k; i++) {
            double t0 = ps_now();
            if (blocking) ps_send(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
            else q[i] = ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
            os[i] = ps_now() - t0 - lg_clk;
            spin_until(t0 + d);
        }
        for (int i = 0; i < k && !blocking; i++) {
            double t0 = ps_now();
            ps_wait(q[i]);
            done[i] = ps_now() - t0 - lg_clk;
        }
    }
    pair_sync(peer);
}

/* k (at most LG_ACK_BATCH) sends of n bytes (above S up to S_ack: complete once the receiver's
 * runtime took them in and said so), spaced d apart, their receives posted
 * and waited for by rank 1; then, once every acknowledgement is back, their
 * waits: the first (it takes all of them in) and all k together (rank 0). */
static void time_acks(int rank, int peer, long n, int k, double d, double *first, double *all)
{
    ps_request q[LG_ACK_BATCH];
    rewind_trace();
    if (rank == 1) {
        for (int i = 0; i < k; i++) q[i] = ps_irecv(rbuf + (size_t)i * (size_t)n, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
        pair_sync(peer);
        ps_waitall();
    } else {
        pair_sync(peer);
        for (int i = 0; i < k; i++) {
            q[i] = ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
            spin_until(ps_now() + d);
        }
        spin_until(ps_now() + d);
        double t0 = ps_now();
        ps_wait(q[0]);
        double t1 = ps_now();
        for (int i = 1; i < k; i++) ps_wait(q[i]);
        double t2 = ps_now();
        *first = t1 - t0 - lg_clk;
        *all = t2 - t0 - lg_clk;
    }
    pair_sync(peer);
}

/* One message of n bytes, sent `lead` after the sync (so that the sync's own
 * call cannot take it in: rank 1 has left it by then), arriving while the
 * receiver computes; the receiver waits lead + d before completing it: the
 * wait's duration (rank 1). */
static double time_recv(int rank, int peer, long n, double lead, double d)
{
    double w = 0;
    rewind_trace();
    if (rank == 1) {
        ps_request r = ps_irecv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
        pair_sync(peer);
        spin_until(ps_now() + lead + d);
        double t0 = ps_now();
        ps_wait(r);
        w = ps_now() - t0 - lg_clk;
    } else {
        pair_sync(peer);
        spin_until(ps_now() + lead);
        ps_request s = ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
        ps_wait(s);
    }
    pair_sync(peer);
    return w;
}

/* One eager message of n bytes that arrives while the receiver waits in
 * another call (for a 1-byte message sent right after it, on the same path,
 * so behind it), which takes it in: then the wait of its own receive (rank 1). */
static double time_recv_in(int rank, int peer, long n)
{
    static char one[1];
    double w = 0;
    rewind_trace();
    if (rank == 1) {
        ps_request r = ps_irecv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
        ps_request a = ps_irecv(one, 1, peer, TAG_LG_ACK, PS_C_RECEIVE);
        pair_sync(peer);
        ps_wait(a);
        double t0 = ps_now();
        ps_wait(r);
        w = ps_now() - t0 - lg_clk;
    } else {
        pair_sync(peer);
        ps_request s = ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
        ps_request a = ps_isend(sbuf, 1, peer, TAG_LG_ACK, PS_C_SEND);
        ps_wait(s);
        ps_wait(a);
    }
    pair_sync(peer);
    return w;
}

/* A construct call's own code, outside its calls: the construct's bookkeeping (its source line,
 * its structure entry, the request array, the scratch buffer) and the loop around it.  The same
 * exchange of 8 bytes each way made by the construct (\MULTIBCAST_ALTER) and by its three calls
 * made directly (isend, recv, wait, each timed from outside in the rows: their instrumentation is
 * in o_s and o_r), batches of each taking turns; the difference of the fastest batches, per call
 * of the construct (rank 0's; both ranks get it), and in *noise how far the second fastest batch
 * of either kind was from its fastest.  The pair runs the construct as a job of its own two ranks
 * (the others wait in the quiet barrier). */
static double construct_code(int rank, int peer, double *noise)
{
    enum { CC_CALLS = 200, CC_BATCHES = 5, CC_BYTES = 8 };
    const int tag = PS_C_MULTIBCAST_ALTER << 8;   /* the construct's own tag (patterns.c) */
    double best[2] = {INFINITY, INFINITY}, second[2] = {INFINITY, INFINITY};
    int size = ps__rt.size;
    ps__rt.size = 2;
    ps_scratch(CC_BYTES);
    for (int b = 0; b < CC_BATCHES; b++)
        for (int k = 0; k < 2; k++) {
            rewind_trace();
            pair_sync(peer);
            double t0 = ps_now();
            for (int i = 0; i < CC_CALLS; i++) {
                if (k == 0) {
                    ps_multibcast_alter(CC_BYTES);
                } else {
                    ps_request q = ps_isend(NULL, CC_BYTES, peer, tag, PS_C_MULTIBCAST_ALTER);
                    ps_recv(NULL, CC_BYTES, peer, tag, PS_C_MULTIBCAST_ALTER);
                    ps_wait(q);
                }
                if ((i & 63) == 63) rewind_trace();
            }
            double t = (ps_now() - t0) / CC_CALLS;
            if (t < best[k]) {
                second[k] = best[k];
                best[k] = t;
            } else if (t < second[k]) {
                second[k] = t;
            }
        }
    ps__rt.size = size;
    pair_sync(peer);
    double v[2] = {0, 0};
    if (rank == 0) {
        v[0] = fmax(0, best[0] - best[1]);
        v[1] = fmax(second[0] - best[0], second[1] - best[1]);
    }
    share_double(rank, peer, &v[0]);
    share_double(rank, peer, &v[1]);
    *noise = v[1];
    return v[0];
}

/* Half the best round trip of one double by plain MPI calls, rank 1 to rank 0
 * and back, as the runtime's clock synchronisation times it in every run:
 * taken with the rows, it tells which state the machine was in while they
 * were measured (on the 2-core test VM shared memory is in one of two states
 * for tens of seconds; a probe's ping-pong table and its LogGOPS rows can be
 * in different ones); as many rounds as the synchronisation.  Rank 0's
 * figure (rank 1 measures it); 0 on rank 1. */
static double raw_half_8B(int rank, int peer)
{
    double x = 0, best = INFINITY;
    refill(2048);
    pair_sync(peer);
    for (int i = 0; i < PS_CLOCKSYNC_ROUNDS; i++) {
        if (rank == 1) {
            double t0 = ps_now();
            MPI_Send(&x, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            best = fmin(best, ps_now() - t0 - lg_clk);
        } else {
            MPI_Recv(&x, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&x, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD);
        }
    }
    double h = best / 2;
    share_double(rank == 1 ? 0 : 1, peer, &h);   /* rank 1 measured: to rank 0 */
    return rank == 0 ? h : 0;
}

/* m messages of n bytes from rank 0 to itself, each its receive posted, its
 * send and the wait of both, as a program's message to its own rank goes;
 * the mean time of one (rank 0; rank 1 waits, returns 0). */
static double self_message(int rank, int peer, long n, int m)
{
    rewind_trace();
    pair_sync(peer);
    double t = 0;
    if (rank == 0) {
        double t0 = ps_now();
        for (int i = 0; i < m; i++) {
            ps_request r = ps_irecv(rbuf, (size_t)n, 0, TAG_LG, PS_C_RECEIVE);
            ps_request q = ps_isend(sbuf, (size_t)n, 0, TAG_LG, PS_C_SEND);
            ps_wait(q);
            ps_wait(r);
        }
        t = (ps_now() - t0) / m;
    }
    pair_sync(peer);
    return t;
}

/* A stream of k messages of n bytes, then a 1-byte answer: its time (rank 0). */
static double stream(int rank, int peer, long n, int k)
{
    size_t step = (size_t)k * (size_t)n <= buflen ? (size_t)n : 0;
    rewind_trace();
    double t = 0;
    if (rank == 1) {
        for (int i = 0; i < k; i++) ps_irecv(rbuf + i * step, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
        pair_sync(peer);
        ps_waitall();
        ps_send(sbuf, 1, peer, TAG_LG_ACK, PS_C_SEND);
    } else {
        pair_sync(peer);
        double t0 = ps_now();
        for (int i = 0; i < k; i++) ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
        ps_waitall();
        ps_recv(rbuf, 1, peer, TAG_LG_ACK, PS_C_RECEIVE);
        t = ps_now() - t0;
    }
    pair_sync(peer);
    return t;
}

/* Does a send of n bytes complete while its receiver has not posted the
 * receive yet (d late)?  The receiver spends the d outside the runtime, or
 * (poll) inside it, polling for another message.  The send's time on rank 0;
 * 0 on rank 1. */
static double send_alone(int rank, int peer, long n, double d, int poll)
{
    double t = 0;
    rewind_trace();
    if (rank == 1) {
        pair_sync(peer);
        double end = ps_now() + d;
        int flag = 0;
        if (poll)
            while (ps_now() < end) MPI_Iprobe(peer, TAG_LG_ACK, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        else
            spin_until(end);
        ps_request r = ps_irecv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
        ps_wait(r);
    } else {
        pair_sync(peer);
        double t0 = ps_now();
        ps_request s = ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
        ps_wait(s);
        t = ps_now() - t0;
    }
    pair_sync(peer);
    return t;
}

/* Rendezvous progress: the receive's completion time on rank 1 from the
 * start, when the sender (who == 0) or the receiver (who == 1) computes d
 * between its call and its wait, or neither (who < 0).  With who == 1 it is
 * the wait alone. */
static double progress_run(int rank, int peer, long n, int who, double d)
{
    double t = 0;
    rewind_trace();
    if (rank == 1) {
        ps_request r = ps_irecv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
        pair_sync(peer);
        double t0 = ps_now();
        if (who == 1) {
            spin_until(t0 + d);
            t0 = ps_now();
        }
        ps_wait(r);
        t = ps_now() - t0;
    } else {
        pair_sync(peer);
        ps_request s = ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
        if (who == 0) spin_until(ps_now() + d);
        ps_wait(s);
    }
    pair_sync(peer);
    return t;
}

/* Both ranks send n bytes to each other at once: the time until both
 * directions are complete (the slower rank's; on rank 0). */
static double exchange(int peer, long n)
{
    rewind_trace();
    ps_request r = ps_irecv(rbuf, (size_t)n, peer, TAG_LG, PS_C_RECEIVE);
    pair_sync(peer);
    double t0 = ps_now();
    ps_request s = ps_isend(sbuf, (size_t)n, peer, TAG_LG, PS_C_SEND);
    ps_wait(r);
    ps_wait(s);
    double t = ps_now() - t0, other = 0;
    MPI_Sendrecv(&t, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, &other, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    return t > other ? t : other;
}

/* Stop and wait: after an idle pause, nchunks messages of `chunk` bytes,
 * each answered before the next goes; their round trips (rank 0). */
static void bucket_series(int rank, int peer, double idle, double *rt, int nchunks, size_t chunk)
{
    rewind_trace();
    pair_sync(peer);
    if (rank == 0) nap(idle);
    for (int j = 0; j < nchunks; j++) {
        if (rank == 0) {
            double t0 = ps_now();
            ps_send(sbuf, chunk, peer, TAG_LG, PS_C_SEND);
            ps_recv(rbuf, 1, peer, TAG_LG_ACK, PS_C_RECEIVE);
            rt[j] = ps_now() - t0;
        } else {
            ps_recv(rbuf, chunk, peer, TAG_LG, PS_C_RECEIVE);
            ps_send(sbuf, 1, peer, TAG_LG_ACK, PS_C_SEND);
        }
        if ((j & 15) == 15) rewind_trace();
    }
    pair_sync(peer);
}

/* Both directions at once: after an idle pause, each round both ranks send
 * a chunk to each other and wait for both; the rounds' times (rank 0). */
static void bucket_series_both(int peer, double idle, double *rt, int nchunks, size_t chunk)
{
    rewind_trace();
    pair_sync(peer);
    nap(idle);
    pair_sync(peer);
    for (int j = 0; j < nchunks; j++) {
        double t0 = ps_now();
        ps_irecv(rbuf, chunk, peer, TAG_LG, PS_C_RECEIVE);
        ps_isend(sbuf, chunk, peer, TAG_LG, PS_C_SEND);
        ps_waitall();
        rt[j] = ps_now() - t0;
        if ((j & 15) == 15) rewind_trace();
    }
    pair_sync(peer);
}

/* ---- the bucket, from a stop-and-wait series ------------------------------------ */

/* From the round trips of a series after an idle pause: the sustained rate
 * and the burst.  The rate is one chunk per the median round trip of the
 * chunks that waited (more than 3 times the fastest): the tokens for the
 * next refill while this one's answer travels.  Not the series' last
 * quarter: on a loopback shaped by tbf (slownet 100mbit) a stop-and-wait
 * series stalls for 8-20 ms every few waiting chunks (and on its first chunk
 * after the pause), each stall refills the bucket and the next chunks pass
 * at line speed, so the tail mixes all three.  The burst is the most that
 * passed beyond the refill between two chunks that waited for tokens (at
 * least half a chunk's time at the rate): b = J c - rate T over the J chunks
 * after one such chunk up to and including the next (which waited for
 * exactly its missing tokens); after a stall the bucket is full.  Shaped
 * when at least a quarter of the chunks waited and more than two chunks'
 * worth passed at line speed. */
void ps__loggops_bucket(const double *rt, int n, double chunk, int *shaped, double *rate, double *burst)
{
    *shaped = 0;
    *rate = *burst = 0;
    if (n < 8 || n > LG_CHUNKS) return;
    double fast = INFINITY, slow[LG_CHUNKS];
    for (int j = 0; j < n; j++)
        if (rt[j] < fast) fast = rt[j];
    if (!(fast > 0)) return;
    int ns = 0;
    for (int j = 0; j < n; j++)
        if (rt[j] > 3 * fast) slow[ns++] = rt[j];
    if (ns < n / 4) return;
    double r = chunk / ps_median(slow, (size_t)ns), b = 0, seg = 0;
    int J = 0;
    for (int j = 0; j < n; j++) {
        seg += rt[j];
        J++;
        if (rt[j] >= 0.5 * chunk / r) {
            if (J * chunk - r * seg > b) b = J * chunk - r * seg;
            seg = 0;
            J = 0;
        }
    }
    if (b <= 2 * chunk) return;
    *shaped = 1;
    *rate = r;
    *burst = b;
}

/* A shaped link: empties the bucket by a stream of a little more than it holds. */
static void drain_bucket(int rank, int peer)
{
    (void)stream(rank, peer, LG_CHUNK, (int)(lg_burst / LG_CHUNK) + 2);
}

/* A shaped link: what a small message costs its bucket beyond its payload
 * (its headers; the replies carry the acknowledgements).  The bucket is emptied by a stream, then a
 * stop-and-wait series of LG_WIRE_CHUNK-byte messages waits for its tokens
 * at every round trip: against the series that found the rate (lg_chunk per
 * lg_chunk / lg_rate), ps__loggops_wire.  Only where a round trip then takes
 * over twice its line-speed time (the bucket, not the latency, sets it). */
static double best_half(int rank, int peer, long n);

static void wire_measure(int rank, int peer, json_t *out)
{
    double line = 2 * best_half(rank, peer, LG_WIRE_CHUNK), rt[LG_WIRE_TRIPS];
    json_t *tries = rank == 0 ? json_array() : NULL;
    /* a series whose ranks were not scheduled for a while (a loaded machine) gives no figure:
     * another one, up to LG_WIRE_TRIES, each after the bucket is emptied again */
    for (int a = 0; a < LG_WIRE_TRIES; a++) {
        double v[3] = {0, 0, 0};
        drain_bucket(rank, peer);
        bucket_series(rank, peer, 0, rt, LG_WIRE_TRIPS, LG_WIRE_CHUNK);
        if (rank == 0) {
            /* the tokens a round trip takes, over the trips between two that waited for them */
            double tc = 0;
            int nw = ps__loggops_wire_round_trip(rt, LG_WIRE_TRIPS, line, lg_burst / lg_rate, &tc);
            int ok = nw > 0 && ps__loggops_wire(lg_chunk, lg_chunk / lg_rate, LG_WIRE_CHUNK, tc, lg_shared, &v[0], &v[1]);
            json_t *w = json_pack("{sfsfsfsisfsb}", "chunk", (double)LG_WIRE_CHUNK, "round_trip", tc, "line_round_trip",
                                  line, "window_trips", nw, "bytes", v[0], "measured", ok);
            if (ok) json_object_set_new(w, "rate", json_real(v[1]));
            json_object_set_new(w, "round_trips", ps__json_array_of(rt, LG_WIRE_TRIPS));
            json_array_append_new(tries, w);   /* the last one is the one measured, if any */
            v[2] = ok;
        }
        share_double(rank, peer, &v[2]);
        if (v[2] > 0.5) break;
    }
    if (rank == 0) json_object_set_new(out, "wire_attempts", tries);
}

/* A shaped link: what a message sent one way takes of the bucket.  Its
 * receiver answers none of them, so TCP acknowledges them by segments of
 * their own (under slownet 100mbit about one for every second message),
 * which take tokens that a stop-and-wait series' replies carry for free.
 * The bucket is emptied by a stream, then rank 0 posts k nonblocking sends
 * of LG_ONEWAY_BYTES back to back and rank 1 takes each by a blocking
 * receive (as a sweep's receiver does), then answers with one byte.  The
 * time a message, as bytes at the rate, is what the model charges such a
 * message (ps__loggops_oneway, once the rate is final), where the bucket
 * held the stream.  Its send calls are timed too (o_s_oneway): under
 * slownet 100mbit its packets hardly waited in the shaper while the
 * sender's calls took 10.6 us of the 10.7 a message, so the calls set the
 * pace, and where the stream went within a tenth of them the bytes say
 * nothing of the acknowledgements (none: ps__loggops_bucket_check).  Each
 * round (rank 0): a list of per-message times, and of the send calls'. */
static void oneway_measure(int rank, int peer, json_t *out)
{
    int k = (int)fmax(100, fmin(LG_ONEWAY_MSGS, LG_ONEWAY_S * lg_rate / (LG_ONEWAY_BYTES + LG_WIRE_BYTES / 2.0)));
    json_t *times = rank == 0 ? json_array() : NULL, *calls = rank == 0 ? json_array() : NULL;
    for (int a = 0; a < 2; a++) {
        drain_bucket(rank, peer);
        rewind_trace();
        pair_sync(peer);
        if (rank == 1) {
            for (int i = 0; i < k; i++) ps_recv(rbuf, LG_ONEWAY_BYTES, peer, TAG_LG, PS_C_RECEIVE);
            ps_send(sbuf, 1, peer, TAG_LG_ACK, PS_C_SEND);
        } else {
            double t0 = ps_now();
            for (int i = 0; i < k; i++) ps_isend(sbuf, LG_ONEWAY_BYTES, peer, TAG_LG, PS_C_SEND);
            double t1 = ps_now();
            ps_waitall();
            ps_recv(rbuf, 1, peer, TAG_LG_ACK, PS_C_RECEIVE);
            json_array_append_new(times, json_real((ps_now() - t0) / k));
            json_array_append_new(calls, json_real((t1 - t0) / k));
        }
        pair_sync(peer);
    }
    if (rank == 0)
        json_object_set_new(out, "oneway", json_pack("{sisfsoso}", "msgs", k, "bytes", (double)LG_ONEWAY_BYTES,
                                                     "seconds_per_msg", times, "send_seconds_per_msg", calls));
}

/* A shaped link: what a small message costs when it is written while its
 * connection's previous one still waits in the shaper.  TCP then holds it
 * and sends it with those that follow as one segment (autocorking), so it
 * takes fewer bytes of the bucket than one sent alone, and its two calls
 * less CPU (manysmall's 32 messages written behind a gathered vector).  The
 * bucket is emptied by a stream; rank 0 posts a backlog of LG_CHUNK-byte
 * messages that holds the link at least LG_MERGE_AHEAD a message, then
 * LG_MERGE_MSGS of LG_ONEWAY_BYTES, and waits for a 1-byte answer, which
 * rank 1 sends once it has received them all.  Each round (rank 0): the
 * whole time, the send calls' time a message, and the receiver's time a
 * message for those after the first (already there: one segment); the
 * bytes follow once the rate is final (ps__loggops_merged). */
static void merge_measure(int rank, int peer, json_t *out)
{
    long backlog = (long)fmin(LG_MERGE_MAX, fmax(8.0 * LG_CHUNK, lg_rate * LG_MERGE_MSGS * LG_MERGE_AHEAD));
    int nb = (int)((backlog + LG_CHUNK - 1) / LG_CHUNK);
    json_t *rounds = rank == 0 ? json_array() : NULL;
    for (int a = 0; a < 2; a++) {
        double v[4] = {0, 0, 0, 0};
        drain_bucket(rank, peer);
        rewind_trace();
        pair_sync(peer);
        if (rank == 1) {
            for (int i = 0; i < nb; i++) ps_recv(rbuf, LG_CHUNK, peer, TAG_LG, PS_C_RECEIVE);
            ps_recv(rbuf, LG_ONEWAY_BYTES, peer, TAG_LG, PS_C_RECEIVE);
            double t0 = ps_now();
            for (int i = 1; i < LG_MERGE_MSGS; i++) ps_recv(rbuf, LG_ONEWAY_BYTES, peer, TAG_LG, PS_C_RECEIVE);
            v[3] = (ps_now() - t0) / (LG_MERGE_MSGS - 1);
            ps_send(sbuf, 1, peer, TAG_LG_ACK, PS_C_SEND);
        } else {
            double t0 = ps_now();
            for (int i = 0; i < nb; i++) ps_isend(sbuf, LG_CHUNK, peer, TAG_LG, PS_C_SEND);
            double t1 = ps_now();
            for (int i = 0; i < LG_MERGE_MSGS; i++) ps_isend(sbuf, LG_ONEWAY_BYTES, peer, TAG_LG, PS_C_SEND);
            double t2 = ps_now();
            ps_waitall();
            ps_recv(rbuf, 1, peer, TAG_LG_ACK, PS_C_RECEIVE);
            v[0] = ps_now() - t0;
            v[1] = (t2 - t1) / LG_MERGE_MSGS;
            v[2] = t2 - t0;
        }
        /* the receiver's figure to rank 0 */
        if (rank == 1) MPI_Send(&v[3], 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD);
        else MPI_Recv(&v[3], 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rank == 0)
            json_array_append_new(rounds, json_pack("{sfsfsfsf}", "seconds", v[0], "send_seconds_per_msg", v[1],
                                                    "recv_seconds_per_msg", v[3], "written_in", v[2]));
        pair_sync(peer);
    }
    if (rank == 0)
        json_object_set_new(out, "merged", json_pack("{sisfsisfso}", "backlog_msgs", nb, "backlog_bytes",
                                                     (double)LG_CHUNK, "msgs", LG_MERGE_MSGS, "bytes",
                                                     (double)LG_ONEWAY_BYTES, "rounds", rounds));
}

/* (probe_int.h) */
double ps__loggops_merged(double rate, double wire, double backlog, int nb, double bytes, int k, double t)
{
    if (!(rate > 0) || !(wire > 0) || !(t > 0) || k < 1 || nb < 0) return NAN;
    /* the backlog's messages and the answer go alone; the answer's latency is left in (a few us: a
     * byte or two a message at 100 Mbit/s) */
    double per = (rate * t - nb * (backlog + wire) - (1 + wire)) / k - bytes;
    return fmin(wire, fmax(0, per));
}

/* (probe_int.h) */
void ps__loggops_crossing_floor(json_t *rows)
{
    double below = INFINITY;
    for (size_t i = json_array_size(rows); i-- > 0;) {
        json_t *row = json_array_get(rows, i);
        double c = ps_json_num(row, "crossing");
        if (!isfinite(c)) continue;
        if (c > below) {
            json_object_set_new(row, "crossing_measured", json_real(c));
            json_object_set_new(row, "crossing", json_real(below));
        }
        below = fmin(below, c);
    }
}

/* (probe_int.h) */
double ps__loggops_oneway(double rate, double wire, double bytes, double t)
{
    if (!(rate > 0) || !(wire > 0) || !(t > 0) || !(bytes >= 0)) return 0;
    return fmin(wire, fmax(0, rate * t - bytes - wire));
}

/* (probe_int.h) */
double ps__loggops_both_ways_round_trip(const double *rt, int n)
{
    if (n < 2) return n == 1 ? rt[0] : NAN;
    double *pair = ps_xcalloc((size_t)n - 1, sizeof *pair);
    for (int i = 0; i + 1 < n; i++) pair[i] = (rt[i] + rt[i + 1]) / 2;
    double m = ps_median(pair, (size_t)n - 1);
    free(pair);
    return m;
}

/* (probe_int.h) */
int ps__loggops_wire_round_trip(const double *rt, int n, double line, double fill, double *tc)
{
    *tc = 0;
    if (n < 8 || !(line > 0) || !(fill > 0)) return 0;
    /* the trips that waited for tokens: well above the line's round trip, near their median
     * (a stall of the loopback's TCP takes milliseconds and refills the bucket) */
    double *slow = ps_xmalloc((size_t)n * sizeof *slow);
    int ns = 0;
    for (int j = 0; j < n; j++)
        if (rt[j] > 2 * line) slow[ns++] = rt[j];
    double med = ns >= 4 ? ps_median(slow, (size_t)ns) : 0;
    free(slow);
    if (ns < 4) return 0;
    int a = -1, b = -1, nb = 0;
    for (int j = 0; j < n; j++) {
        if (rt[j] > 2 * line && rt[j] >= 0.5 * med && rt[j] <= 1.5 * med) {
            if (a < 0) a = j;
            else b = j;
            nb++;
        }
    }
    /* from the end of the first such trip (the bucket empty) to the end of the last (empty again):
     * every token that came in between was spent on these trips, but what a trip longer than
     * the bucket's filling time brought beyond a full bucket */
    if (b < 0 || nb < 4 || b - a < 16) return 0;
    double T = 0;
    for (int j = a + 1; j <= b; j++) T += fmin(rt[j], fill);
    *tc = T / (b - a);
    return b - a;
}

int ps__loggops_wire(double c0, double t0, double c, double tc, int shared, double *h, double *rate)
{
    *h = *rate = 0;
    if (!(c0 > c) || !(c >= 0) || !(t0 > tc) || !(tc > 0)) return 0;
    double r = (c0 - c) / (t0 - tc), w = shared ? (r * tc - c - 1) / 2 : r * tc - c;
    /* a message costs at least its bytes: the tokens' rate is at least the payload's, and h is not
     * below zero, each within noise (h: 1% of what a round trip passes); else the two series were
     * not of one bucket (a rate read from stalls) */
    if (r < 0.97 * c0 / t0 || r > 1.5 * c0 / t0 || !(w < PS_PROBE_WIRE_MAX) || w < -0.02 * (c + 1)) return 0;
    *h = fmax(0, w);
    *rate = r;
    return 1;
}

/* Does a bucket (rate, burst) from a stop-and-wait series agree with a
 * stream of `bytes` that took t seconds?  The stream took at most `burst`
 * bytes' tokens at once and the rest at the rate, so the rate lies between
 * (bytes - burst) / t and bytes / t.  A series whose ranks were not
 * scheduled for a while (a loaded machine) reads its stalls as a slow
 * bucket: 28 KiB at 0.48 MB/s on a link of 4 KiB at 1.25 MB/s whose stream
 * went at 1.20 MB/s.  A stream does not stall that way (the kernel drains
 * the socket while its rank waits).  Agrees within PS_PROBE_BUCKET_TOL. */
int ps__loggops_bucket_agrees(double rate, double burst, double bytes, double t)
{
    if (!(rate > 0) || !(burst >= 0) || !(bytes > 0) || !(t > 0)) return 0;
    double lo = fmax(bytes - burst, 0) / t, hi = bytes / t;
    return rate >= lo / PS_PROBE_BUCKET_TOL && rate <= hi * PS_PROBE_BUCKET_TOL;
}

/* ---- the rank side ---------------------------------------------------------------- */

int ps__loggops_begin(void)
{
    static char a0[] = "parscope-probe", a1[] = "--quiet";
    static char *av[] = {a0, a1, NULL};
    int ac = 2;
    char **avp = av;
    ps_set_args(&ac, &avp);
    if (ps_init(4096) != 0) return -1;
    buflen = (size_t)PS_PROBE_MAX_BYTES;
    sbuf = ps_xmalloc(buflen);
    rbuf = ps_xmalloc(buflen);
    memset(sbuf, 1, buflen);
    memset(rbuf, 0, buflen);
    /* the clock's own cost, taken off single-call timings */
    double best = INFINITY;
    for (int i = 0; i < 2000; i++) {
        double a = ps_now(), b = ps_now();
        if (b - a < best) best = b - a;
    }
    lg_clk = best;
    return 0;
}

void ps__loggops_end(void)
{
    ps_finalize();
    free(sbuf);
    free(rbuf);
    sbuf = rbuf = NULL;
}

static void add_size(long n)
{
    if (n < 1 || n > lg_max || lg_nsizes >= LG_MAX_SIZES) return;
    for (int i = 0; i < lg_nsizes; i++)
        if (lg_sizes[i] == n) return;
    lg_sizes[lg_nsizes++] = n;
    for (int i = lg_nsizes - 1; i > 0 && lg_sizes[i - 1] > lg_sizes[i]; i--) {
        long t = lg_sizes[i];
        lg_sizes[i] = lg_sizes[i - 1];
        lg_sizes[i - 1] = t;
    }
}

/* The fastest half round trip of n bytes (both ranks get it). */
static double best_half(int rank, int peer, long n)
{
    double best = INFINITY;
    for (int k = 0; k < 3; k++) {
        int m = pingpong_trips(n, isfinite(best) ? best : 1e-6, 50);
        refill(2.0 * m * ((double)n + LG_WIRE_BYTES));
        double h = rt_pingpong(rank, peer, n, m);
        share_double(rank, peer, &h);
        if (h < best) best = h;
    }
    return best;
}

/* Another repetition?  At least `min`, at most `max`, and none once `since`
 * is `budget` seconds ago (a slow network); rank 0 decides for both. */
static int again(int rank, int peer, int r, int min, int max, double since, double budget)
{
    double v = r + 1 < max && (r + 1 < min || ps_now() - since < budget);
    share_double(rank, peer, &v);
    return v > 0.5;
}

/* Does the send of n bytes wait for a receiver late by max(50 us, 8 one-way
 * times), which spends that time outside the runtime or (poll) inside it? */
static int send_waits(int rank, int peer, long n, int poll)
{
    double half = 0;
    for (int k = 0; k < 2; k++) {
        refill(2.0 * n);
        double h = rt_pingpong(rank, peer, n, 2);
        if (k == 0 || h < half) half = h;
    }
    share_double(rank, peer, &half);
    double d = fmax(50e-6, 8 * half), best = INFINITY;
    for (int k = 0; k < 2; k++) {
        refill(2.0 * n);
        double t = send_alone(rank, peer, n, d, poll);
        if (t < best) best = t;
    }
    double v = rank == 0 ? (best > d / 2) : 0;
    share_double(rank, peer, &v);
    return v > 0.5;
}

/* Is n sent eagerly?  (a late receiver does not hold the send up) */
static int is_eager(int rank, int peer, long n) { return !send_waits(rank, peer, n, 0); }

/* Above S: does the send of n bytes wait only for its receiver's runtime
 * (data sent eagerly, taken in by the receiver's progress, posted receive or
 * not: Open MPI's shared memory up to 4 KiB), not for its receive? */
static int is_acked(int rank, int peer, long n) { return !send_waits(rank, peer, n, 1); }

/* The largest n in [lo, max] for which holds(n), given that it holds at lo
 * (or lo is 0) and, once false, stays false for larger n: doubling from lo,
 * max itself when the doubling passes it, then bisection to the byte.  Both
 * ranks call it: every test is a collective decision (send_waits). */
static long largest_holding(int rank, int peer, long lo, long max, int (*holds)(int, int, long))
{
    long hi = 0;
    for (long n = lo ? 2 * lo : 1; n <= max; n *= 2) {
        if (!holds(rank, peer, n)) {
            hi = n;
            break;
        }
        lo = n;
    }
    if (!hi && lo < max) {
        if (holds(rank, peer, max)) return max;
        hi = max;
    }
    while (hi && hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (holds(rank, peer, mid)) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* First round: the bucket, S and the sizes. */
static void decide(int rank, int peer, const ps_probe_budget *b, json_t *out)
{
    /* a shaped link?  steady state first, for the rate that sets the pause */
    double rt[LG_CHUNKS];
    bucket_series(rank, peer, 0, rt, 16, LG_CHUNK);
    double steady = 0;
    if (rank == 0) {
        /* the chunks that waited for tokens, if any: a pause after fast ones
         * alone is too short to refill the bucket (1.4 ms under slownet
         * 100mbit, whose 64 KiB bucket refills in 5 ms) */
        int shaped;
        double r0, b0;
        ps__loggops_bucket(rt, 16, LG_CHUNK, &shaped, &r0, &b0);
        if (r0 > 0) {
            steady = LG_CHUNK / r0;
        } else {
            double t[8];
            memcpy(t, rt + 8, sizeof t);
            steady = ps_median(t, 8);
        }
    }
    share_double(rank, peer, &steady);
    /* the reference: a stream of chunks (about LG_STREAM_S at the steady
     * rate), the faster of two */
    int ks = (int)fmax(16, fmin(64, LG_STREAM_S / fmax(steady, 1e-9)));
    lg_sbytes = (double)ks * LG_CHUNK;
    lg_st = INFINITY;
    for (int r = 0; r < 2; r++) {
        double t = stream(rank, peer, LG_CHUNK, ks);
        if (t < lg_st) lg_st = t;
    }
    share_double(rank, peer, &lg_st);
    /* a pause long enough to refill the largest bucket the series can see
     * at the steady rate (which is at least the sustained one) */
    double idle = fmin(1.0, fmax(1e-3, LG_MAX_BURST(LG_CHUNK) / (LG_CHUNK / fmax(steady, 1e-9))));
    bucket_series(rank, peer, idle, rt, LG_CHUNKS, LG_CHUNK);
    /* v: shaped, rate, burst, chunk, and whether to try small chunks */
    double v[5] = {0, 0, 0, LG_CHUNK, 0};
    if (rank == 0) {
        int shaped;
        ps__loggops_bucket(rt, LG_CHUNKS, LG_CHUNK, &shaped, &v[1], &v[2]);
        v[0] = shaped;
        json_t *bk = json_object();
        json_object_set_new(bk, "chunk", json_integer(LG_CHUNK));
        json_object_set_new(bk, "idle", json_real(idle));
        json_object_set_new(bk, "round_trips", ps__json_array_of(rt, LG_CHUNKS));
        json_object_set_new(out, "bucket_series", bk);
        json_object_set_new(out, "bucket_stream", json_pack("{sfsf}", "bytes", lg_sbytes, "seconds", lg_st));
        /* a rate-limited link (each chunk of the series takes no more than
         * twice its time in the stream: the rate, not the latency, sets it)
         * whose bucket holds too few chunks to show */
        double med = ps_median(rt, LG_CHUNKS);
        v[4] = !shaped && med < 2 * LG_CHUNK * lg_st / lg_sbytes;
    }
    share_double(rank, peer, &v[4]);
    /* smaller chunks, each while none is found: a chunk must take over three
     * times its line-speed round trip at the rate to show (1 KiB at 100 Mbit/s
     * does not), and the bucket must hold more than two chunks */
    json_t *small = rank == 0 ? json_array() : NULL;
    for (size_t i = 0; v[4] > 0.5 && v[0] < 0.5 && i < sizeof lg_small / sizeof lg_small[0]; i++) {
        idle = fmin(1.0, fmax(1e-3, 1.5 * LG_MAX_BURST(lg_small[i]) * lg_st / lg_sbytes));
        bucket_series(rank, peer, idle, rt, LG_CHUNKS, (size_t)lg_small[i]);
        if (rank == 0) {
            int shaped;
            ps__loggops_bucket(rt, LG_CHUNKS, lg_small[i], &shaped, &v[1], &v[2]);
            v[3] = lg_small[i];
            json_t *bk = json_object();
            json_object_set_new(bk, "chunk", json_integer(lg_small[i]));
            json_object_set_new(bk, "idle", json_real(idle));
            json_object_set_new(bk, "round_trips", ps__json_array_of(rt, LG_CHUNKS));
            json_array_append_new(small, bk);
            v[0] = shaped;
        }
        share_double(rank, peer, &v[0]);
    }
    if (rank == 0) {
        json_object_set_new(out, "bucket_series_small", small);
        if (v[0] < 0.5) v[3] = LG_CHUNK;
    }
    if (rank == 0 && v[0] > 0.5 && !ps__loggops_bucket_agrees(v[1], v[2], lg_sbytes, lg_st)) {
        json_object_set_new(out, "bucket_rejected",
                            json_pack("{sfsfsf}", "rate", v[1], "burst", v[2], "chunk", v[3]));
        v[0] = v[1] = v[2] = 0;
    }
    for (int i = 0; i < 4; i++) share_double(rank, peer, &v[i]);
    lg_shaped = v[0] > 0.5;
    lg_rate = v[1];
    lg_burst = v[2];
    lg_chunk = v[3];
    /* one bucket for both directions (one shaping queue: a bus) or one each? */
    lg_shared = 0;
    if (lg_shaped) {
        bucket_series_both(peer, fmin(1.0, 1.5 * lg_burst / lg_rate), rt, LG_CHUNKS, (size_t)lg_chunk);
        double ratio = 0;
        if (rank == 0) {
            ratio = ps__loggops_both_ways_round_trip(rt + LG_CHUNKS - LG_CHUNKS / 4, LG_CHUNKS / 4) /
                    (lg_chunk / lg_rate);
            json_object_set_new(out, "bucket_both_ways", json_pack("{sfso}", "ratio", ratio, "round_trips",
                                                                   ps__json_array_of(rt, LG_CHUNKS)));
        }
        share_double(rank, peer, &ratio);
        lg_shared = ratio > PS_PROBE_BUCKET_SHARED;
        wire_measure(rank, peer, out);
    }
    lg_max = b->name[0] == 'f' ? PS_PROBE_MAX_BYTES : PS_PROBE_MAX_BYTES / 4;
    if (lg_shaped) lg_max = (long)fmin(LG_SHAPED_MAX, lg_burst / 2);

    /* S: the largest eager message (eager up to lg_max: no switch found, 0) */
    lg_S = largest_holding(rank, peer, 0, lg_max, is_eager);
    if (lg_S == lg_max) lg_S = 0;
    /* S_ack: above S, the largest whose send the receiver's runtime alone
     * completes (S itself: none such) */
    lg_S_ack = lg_S;
    if (lg_S && lg_S < lg_max && is_acked(rank, peer, lg_S + 1))
        lg_S_ack = largest_holding(rank, peer, lg_S + 1, lg_max, is_acked);
    /* the table: both sides of S and of every step of the ping-pong time
     * (a protocol switch that S alone does not show), and a few decades */
    lg_nsizes = 0;
    long pw[32];
    double hp[32];
    int np = 0;
    for (long n = 1; n <= lg_max && np < 32; n *= 2) {
        pw[np] = n;
        hp[np++] = best_half(rank, peer, n);
    }
    for (int k = 1; k + 1 < np; k++) {
        /* the extra time per extra byte peaks between 2^k and 2^(k+1), and
         * the time jumps (as the ping-pong's steps: docs/PROBE.md) */
        double c0 = (hp[k] - hp[k - 1]) / (double)(pw[k] - pw[k - 1]);
        double c1 = (hp[k + 1] - hp[k]) / (double)(pw[k + 1] - pw[k]);
        double c2 = k + 2 < np ? (hp[k + 2] - hp[k + 1]) / (double)(pw[k + 2] - pw[k + 1]) : 0;
        if (!(hp[k + 1] - hp[k] > PS_PROBE_STEP_JUMP * hp[k] && c1 > PS_PROBE_STEP_COST * c0 &&
              c1 > PS_PROBE_STEP_COST * c2))
            continue;
        long a = pw[k], z = pw[k + 1];
        double mid_t = (hp[k] + hp[k + 1]) / 2;
        while (z - a > 1) {
            long mid = a + (z - a) / 2;
            if (best_half(rank, peer, mid) > mid_t) z = mid;
            else a = mid;
        }
        /* a step, or a gradual rise (data leaving a cache)?  most of the
         * jump must be between the two sizes found */
        if (best_half(rank, peer, z) - best_half(rank, peer, a) > 0.5 * (hp[k + 1] - hp[k])) {
            add_size(a);
            add_size(z);
        }
    }
    static const long base[] = {1, 16, 128, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304};
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        if (!lg_S || base[i] < lg_S) add_size(base[i]);
    if (lg_S) {
        add_size(lg_S / 2);
        add_size(lg_S);
        add_size(lg_S + 1);
        if (lg_S_ack > lg_S) {
            /* both sides of the acknowledged range's end: no row above it interpolates into it */
            add_size(lg_S_ack);
            if (lg_S_ack < lg_max) add_size(lg_S_ack + 1);
        }
        for (long n = 4 * (lg_S + 1); n <= lg_max; n *= 4) add_size(n);
        add_size(lg_max);
    }
    lg_decided = 1;
}

json_t *ps__loggops_measure(const ps_probe_budget *b)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank > 1) {
        ps__quiet_barrier();
        return NULL;
    }
    const int peer = 1 - rank;
    json_t *out = rank == 0 ? json_object() : NULL;
    int first_round = !lg_decided;
    if (first_round) decide(rank, peer, b, out);
    double raw8 = raw_half_8B(rank, peer);
    /* this round's bucket (only where there is one: it takes seconds) */
    if (lg_shaped) {
        double rt[LG_CHUNKS];
        bucket_series(rank, peer, fmin(1.0, 1.5 * lg_burst / lg_rate), rt, LG_CHUNKS, (size_t)lg_chunk);
        if (rank == 0) {
            int shaped;
            double rate, burst;
            ps__loggops_bucket(rt, LG_CHUNKS, lg_chunk, &shaped, &rate, &burst);
            /* (a series that stalled: not this round's bucket) */
            int agrees = shaped && ps__loggops_bucket_agrees(rate, burst, lg_sbytes, lg_st);
            json_object_set_new(out, "bucket", json_pack("{sbsfsfsbsf}", "shaped", shaped, "rate", rate, "burst",
                                                         burst, "agrees", agrees, "chunk", lg_chunk));
        }
        /* a message's wire bytes again (the first round's came with the decision): of eighteen
         * probes' single series under slownet 100mbit one read 65 bytes where the others read 86-89
         * (and one 176, its bucket taken for one a direction): the model takes the rounds' median */
        if (!first_round) wire_measure(rank, peer, out);
        oneway_measure(rank, peer, out);
        merge_measure(rank, peer, out);
    }
    int reps = lg_shaped ? 2 : b->min_samples;
    json_t *sizes = rank == 0 ? json_array() : NULL;
    double *post_all = ps_xmalloc(sizeof(double) * 64 * (size_t)reps * LG_MAX_SIZES);
    int npost = 0;
    /* each size's share of the time budget, split over six parts (the ping-pongs two); every
     * part repeats at least once (twice for the ping-pong) */
    const double part = fmax(b->pingpong_s, 0.3) / lg_nsizes / 6;
    for (int si = 0; si < lg_nsizes; si++) {
        long n = lg_sizes[si];
        int rndv = lg_S && n > lg_S;
        /* ping-pong: half round trip, with the runtime's nonblocking calls and,
         * taking turns with it (the same machine state), with its blocking ones */
        double half = INFINITY, halfb = INFINITY, halfw = INFINITY, t0 = ps_now();
        for (int r = 0;; r++) {
            int m = pingpong_trips(n, half, 200);
            refill(2.0 * m * ((double)n + LG_WIRE_BYTES));
            double h = rt_pingpong(rank, peer, n, m);
            share_double(rank, peer, &h);   /* both ranks choose the same m next */
            if (h < half) half = h;
            refill(2.0 * m * ((double)n + LG_WIRE_BYTES));
            h = rt_pingpong_block(rank, peer, n, m, 0);
            if (h < halfb) halfb = h;
            refill(2.0 * m * ((double)n + LG_WIRE_BYTES));
            h = rt_pingpong_block(rank, peer, n, m, 1);
            if (h < halfw) halfw = h;
            if (!again(rank, peer, r, 2, reps, t0, 2 * part)) break;
        }
        /* the calls alone, spaced by a few one-way times */
        double d = fmax(2e-6, 3 * half);
        int k = lg_shaped ? (int)fmax(2, fmin(16, lg_burst / 2 / n)) : (int)fmax(2, fmin(16, part / d));
        if ((size_t)k * (size_t)n > buflen) k = (int)fmax(1, buflen / (size_t)n);
        double os_med = INFINITY, done_med = INFINITY, or_med = INFINITY, orin_med = INFINITY;
        double os[64], done[64], post[64], orr[64], orin[64], osb[64], osb_med = INFINITY;
        t0 = ps_now();
        for (int r = 0;; r++) {
            refill((double)k * n);
            time_calls(rank, peer, n, k, d, 0, os, done, post);
            /* (a blocking send above S waits for its receiver: no call of its own to time) */
            if (!rndv) {
                refill((double)k * n);
                time_calls(rank, peer, n, k, d, 1, osb, NULL, NULL);
            }
            if (rank == 0) {
                os_med = fmin(os_med, median_of(os, k));
                if (!rndv) done_med = fmin(done_med, median_of(done, k));
                if (!rndv) osb_med = fmin(osb_med, median_of(osb, k));
            } else {
                for (int i = 0; i < k; i++) post_all[npost++] = post[i];
            }
            if (!again(rank, peer, r, 1, reps, t0, part)) break;
        }
        /* the wait of a receive whose message has long arrived, sent two
         * one-way times after the sync and found by a receiver that computed
         * meanwhile; and (eager sizes) of one its runtime took in during another
         * call.  On a shaped link as many as half the bucket holds, 2 to 8.
         * (Over TCP the two differ most: 9-20 us against 0.1-0.5 us here, and
         * a message sent right after the sync was in one state or the other.) */
        int kr = lg_shaped ? (int)fmax(2, fmin(8, lg_burst / 2 / n)) : (int)fmax(2, fmin(8, part / (d + 4 * half)));
        int eager = !lg_S || n <= lg_S_ack;   /* (S_ack is S where there is no acknowledged range) */
        t0 = ps_now();
        for (int r = 0;; r++) {
            for (int i = 0; i < kr; i++) {
                refill((double)n);
                orr[i] = time_recv(rank, peer, n, 2 * half, d + 2e-6);
                if (eager) {
                    refill((double)n + 1);
                    orin[i] = time_recv_in(rank, peer, n);
                }
            }
            if (rank == 1) {
                or_med = fmin(or_med, median_of(orr, kr));
                if (eager) orin_med = fmin(orin_med, median_of(orin, kr));
            }
            if (!again(rank, peer, r, 1, reps, t0, part)) break;
        }
        /* a stream: per message time (as long as the budget allows) */
        int ks = lg_shaped ? (int)fmin(16, lg_burst / 2 / n) : (int)fmax(4, fmin(32, (double)(8L << 20) / n));
        double t1 = INFINITY, tk = INFINITY;
        if (ks >= 2) {
            refill((double)n);
            t1 = stream(rank, peer, n, 1);
            share_double(rank, peer, &t1);
            if (!lg_shaped) ks = (int)fmax(2, fmin(ks, part / fmax(t1, 1e-9)));
            t0 = ps_now();
            for (int r = 0;; r++) {
                refill((double)n);
                t1 = fmin(t1, stream(rank, peer, n, 1));
                refill((double)ks * n);
                tk = fmin(tk, stream(rank, peer, n, ks));
                if (!again(rank, peer, r, 1, reps, t0, part)) break;
            }
        }
        /* (above S up to S_ack) the wait of a send whose acknowledgement came
         * while the sender computed: one alone, and LG_ACK_BATCH taken in by one wait */
        double ack1 = INFINITY, ack8 = INFINITY;
        if (rndv && n <= lg_S_ack && !lg_shaped && (size_t)LG_ACK_BATCH * (size_t)n <= buflen) {
            double a1[8], a8[8], f, all;
            int ka = (int)fmax(2, fmin(8, part / (10 * d + 8 * half)));
            t0 = ps_now();
            for (int r = 0;; r++) {
                for (int i = 0; i < ka; i++) {
                    time_acks(rank, peer, n, 1, d, &a1[i], &all);
                    time_acks(rank, peer, n, LG_ACK_BATCH, d, &f, &a8[i]);
                }
                if (rank == 0) {
                    ack1 = fmin(ack1, median_of(a1, ka));
                    ack8 = fmin(ack8, median_of(a8, ka));
                }
                if (!again(rank, peer, r, 1, reps, t0, part)) break;
            }
        }
        /* both directions at once */
        double ex = INFINITY;
        t0 = ps_now();
        for (int r = 0;; r++) {
            refill(2.0 * n);
            ex = fmin(ex, exchange(peer, n));
            if (!again(rank, peer, r, 1, lg_shaped ? 1 : 3, t0, part)) break;
        }
        /* to the rank itself (no network: the same on a shaped link); the best of five batches */
        double self = INFINITY;
        for (int r = 0; r < 5; r++) self = fmin(self, self_message(rank, peer, n, n <= 65536 ? 64 : 8));
        if (rank == 0) {
            json_t *row = json_object();
            json_object_set_new(row, "bytes", json_integer(n));
            json_object_set_new(row, "self", json_real(self));
            json_object_set_new(row, "half_round_trip", json_real(half));
            json_object_set_new(row, "o_s", json_real(os_med));
            json_object_set_new(row, "half_round_trip_block", json_real(halfb));
            json_object_set_new(row, "half_round_trip_written", json_real(halfw));
            if (isfinite(osb_med)) json_object_set_new(row, "o_s_block", json_real(osb_med));
            if (isfinite(done_med)) json_object_set_new(row, "o_done", json_real(done_med));
            if (isfinite(ack1) && isfinite(ack8)) {
                json_object_set_new(row, "o_ack", json_real(ack1));
                json_object_set_new(row, "o_ack_8", json_real(ack8));
            }
            json_object_set_new(row, "spacing", json_real(d));
            if (ks >= 2) {
                json_object_set_new(row, "stream_k", json_integer(ks));
                json_object_set_new(row, "stream_1", json_real(t1));
                json_object_set_new(row, "stream_k_time", json_real(tk));
            }
            json_object_set_new(row, "exchange", json_real(ex));
            json_array_append_new(sizes, row);
        }
        /* rank 1 measured o_r and o_r_in: to rank 0 */
        double orv[2] = {or_med, orin_med};
        if (rank == 1) MPI_Send(orv, 2, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD);
        else {
            MPI_Recv(orv, 2, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            json_t *row = json_array_get(sizes, json_array_size(sizes) - 1);
            json_object_set_new(row, "o_r", json_real(orv[0]));
            if (isfinite(orv[1])) json_object_set_new(row, "o_r_in", json_real(orv[1]));
        }
    }
    /* receive posts: rank 1's samples, to rank 0 */
    double post_med = npost ? median_of(post_all, npost) : NAN;
    if (rank == 1) MPI_Send(&post_med, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD);
    else MPI_Recv(&post_med, 1, MPI_DOUBLE, peer, TAG_LG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    free(post_all);

    /* does a rendezvous wait for the receiver / the sender to be in a call? */
    if (lg_S) {
        /* a rendezvous size in the middle (geometrically) of those measured, above the
         * acknowledged ones where there are such (else an acknowledged one: what waits) */
        long base = lg_S_ack < lg_max ? lg_S_ack : lg_S, n = base + 1;
        double want = sqrt((double)(base + 1) * (double)lg_max), dist = INFINITY;
        for (int si = 0; si < lg_nsizes; si++)
            if (lg_sizes[si] > base && fabs(log((double)lg_sizes[si] / want)) < dist) {
                dist = fabs(log((double)lg_sizes[si] / want));
                n = lg_sizes[si];
            }
        double t0 = INFINITY, wr = INFINITY, ts = INFINITY;
        for (int r = 0; r < 3; r++) {
            refill(2.0 * n);
            double x = progress_run(rank, peer, n, -1, 0);
            if (x < t0) t0 = x;
        }
        share_double(rank == 1 ? 0 : 1, peer, &t0); /* rank 1 measured: to rank 0 */
        double d = 3 * t0 + 20e-6;
        share_double(rank, peer, &d);
        for (int r = 0; r < 3; r++) {
            refill(2.0 * n);
            double x = progress_run(rank, peer, n, 1, d);
            if (x < wr) wr = x;
            refill(2.0 * n);
            x = progress_run(rank, peer, n, 0, d);
            if (x < ts) ts = x;
        }
        share_double(rank == 1 ? 0 : 1, peer, &wr);
        share_double(rank == 1 ? 0 : 1, peer, &ts);
        if (rank == 0) {
            json_t *p = json_object();
            json_object_set_new(p, "bytes", json_integer(n));
            json_object_set_new(p, "delay", json_real(d));
            json_object_set_new(p, "both_wait", json_real(t0));
            json_object_set_new(p, "receiver_busy_wait", json_real(wr));
            json_object_set_new(p, "sender_busy_receive", json_real(ts));
            json_object_set_new(out, "progress", p);
        }
    }
    raw8 = fmin(raw8, raw_half_8B(rank, peer));
    double cons_noise, cons = construct_code(rank, peer, &cons_noise);
    ps__quiet_barrier();
    if (rank != 0) return NULL;
    json_object_set_new(out, "clock", json_real(lg_clk));
    json_object_set_new(out, "raw_half_8B", json_real(raw8));
    json_object_set_new(out, "shaped", json_boolean(lg_shaped));
    if (lg_shaped) {
        json_object_set_new(out, "rate", json_real(lg_rate));
        json_object_set_new(out, "burst", json_real(lg_burst));
        json_object_set_new(out, "shared_bucket", json_boolean(lg_shared));
    }
    json_object_set_new(out, "S", json_integer(lg_S));
    json_object_set_new(out, "S_ack", json_integer(lg_S_ack));
    json_object_set_new(out, "max_bytes", json_integer(lg_max));
    json_object_set_new(out, "o_post", json_real(post_med));
    json_object_set_new(out, "o_construct", json_real(cons));
    json_object_set_new(out, "o_construct_noise", json_real(cons_noise));
    json_object_set_new(out, "sizes", sizes);
    return out;
}

/* ---- analysis --------------------------------------------------------------------- */

static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* The best (smallest) value of key in row si over the rounds. */
static double best_over_rounds(const json_t *rounds, size_t si, const char *key)
{
    double best = INFINITY;
    size_t r;
    json_t *round;
    json_array_foreach(rounds, r, round) {
        const json_t *row = json_array_get(json_object_get(json_object_get(round, "loggops"), "sizes"), si);
        double v = ps_json_num(row, key);
        if (isfinite(v) && v < best) best = v;
    }
    return best;
}

/* The smallest and the largest finite value of a scalar over the rounds
 * (obj: of that object of the round's loggops, NULL: of loggops itself);
 * returns how many rounds have one (0: *lo INFINITY, *hi -INFINITY). */
static int scalar_range(const json_t *rounds, const char *obj, const char *key, double *lo, double *hi)
{
    int n = 0;
    size_t r;
    json_t *round;
    *lo = INFINITY;
    *hi = -INFINITY;
    json_array_foreach(rounds, r, round) {
        const json_t *lg = json_object_get(round, "loggops");
        double v = ps_json_num(obj ? json_object_get(lg, obj) : lg, key);
        if (!isfinite(v)) continue;
        n++;
        if (v < *lo) *lo = v;
        if (v > *hi) *hi = v;
    }
    return n;
}

static double best_scalar(const json_t *rounds, const char *obj, const char *key)
{
    double lo, hi;
    scalar_range(rounds, obj, key, &lo, &hi);
    return lo;
}

/* The median over the rounds of a scalar of loggops (NAN: no round has it). */
static double median_scalar(const json_t *rounds, const char *key)
{
    double v[64];
    int n = 0;
    size_t r;
    json_t *round;
    json_array_foreach(rounds, r, round) {
        double x = ps_json_num(json_object_get(round, "loggops"), key);
        if (isfinite(x) && n < 64) v[n++] = x;
    }
    return median_of(v, n);
}

/* A construct call's own code (construct_code): the rounds' median, where it stands above the
 * median of their batches' spread (else it cannot be told from the noise: 0, and *why says so);
 * 0 without a measurement (a probe before it was taken). */
static double construct_figure(const json_t *rounds, const char **why)
{
    double v = median_scalar(rounds, "o_construct"), noise = median_scalar(rounds, "o_construct_noise");
    *why = NULL;
    if (!isfinite(v)) return 0;
    if (isfinite(noise) && v <= noise) {
        *why = "below the spread of its batches";
        return 0;
    }
    return v;
}

/* The bucket's rate against the ping-pong (doc's "pingpong", analysed after
 * the LogGOPS rounds), and the warning that describes the bucket.  A
 * ping-pong of n bytes whose best half round trip took t passes n bytes each
 * way per round trip 2t: a bucket shared by both directions refills
 * rate * 2t and may give its burst once, so rate >= (2n - burst) / 2t; a
 * bucket per direction, rate >= (n - burst) / 2t.  The stop-and-wait series
 * reads the rate low when its ranks stall (a busy machine, TCP's stalls
 * under tbf: 1.85 MB/s on a 2.5 MB/s link whose 512 KiB ping-pong went at
 * 2.49 MB/s); the rate is then raised to what the ping-pong needed. */
void ps__loggops_bucket_check(json_t *doc, json_t *warnings)
{
    json_t *lg = json_object_get(doc, "loggops");
    if (!json_is_object(lg) || !json_is_true(json_object_get(lg, "shaped"))) return;
    double rate = ps_json_num(lg, "rate"), burst = ps_json_num(lg, "burst"), need = 0, at = 0, bw = 0;
    int shared = json_is_true(json_object_get(lg, "shared_bucket"));
    size_t i;
    json_t *row;
    const json_t *sizes = burst >= 0 ? json_object_get(json_object_get(doc, "pingpong"), "sizes") : NULL;
    json_array_foreach(sizes, i, row) {
        double n = ps_json_num(row, "bytes"), t = ps_json_num(row, "time");
        if (!(n > 0 && t > 0)) continue;
        double r = shared ? (2 * n - burst) / (2 * t) : (n - burst) / (2 * t);
        if (r > need) {
            need = r;
            at = n;
            bw = n / t;
        }
    }
    if (need > rate) {
        char b[32];
        ps_fmt_bytes(b, sizeof b, at);
        ps__warn(warnings, "the stop-and-wait series read the bucket's rate as %.3g MB/s, but the ping-pong of %s went "
                 "at %.3g MB/s, which needs tokens at %.3g MB/s at least: the series' ranks stalled (a busy machine); "
                 "the rate is taken as %.3g MB/s", rate / 1e6, b, bw / 1e6, need / 1e6, need / 1e6);
        json_object_set_new(lg, "rate_series", json_real(rate));
        rate = need;
        json_object_set_new(lg, "rate", json_real(rate));
    }
    /* a one-way stream whose sender's calls took its time (within a tenth) is paced by them, not
     * by the bucket: its acknowledgements' bytes are then not measured (none charged) */
    double ot = ps_json_num(lg, "oneway_seconds"), oc = ps_json_num(lg, "oneway_send_seconds");
    int paced = oc > 0 && ot < PS_PROBE_ONEWAY_PACED * oc;
    double ow = paced ? 0 : ps__loggops_oneway(rate, ps_json_num(lg, "wire_bytes"),
                                              ps_json_num(lg, "oneway_msg_bytes"), ot);
    if (json_object_get(lg, "oneway_seconds")) json_object_set_new(lg, "oneway_bytes", json_real(ow));
    /* messages written behind a backlog: a figure only where the backlog outlasted their writing
     * by twice (else some went alone) */
    const json_t *mp = json_object_get(lg, "merged_probe");
    double mwire = ps_json_num(lg, "wire_bytes"), mback = ps_json_num(mp, "backlog_msgs") * ps_json_num(mp, "backlog_bytes");
    double mb = NAN;
    if (mp && ps_json_num(lg, "merged_written_in") * 2 < mback / rate)
        mb = ps__loggops_merged(rate, mwire, ps_json_num(mp, "backlog_bytes"), (int)ps_json_num(mp, "backlog_msgs"),
                                ps_json_num(mp, "bytes"), (int)ps_json_num(mp, "msgs"), ps_json_num(lg, "merged_seconds"));
    if (isfinite(mb)) json_object_set_new(lg, "merged_bytes", json_real(mb));
    char a[32], w[1024] = "";
    ps_fmt_bytes(a, sizeof a, burst);
    const json_t *wr = json_object_get(lg, "wire_bytes_range");
    if (json_object_get(lg, "wire_bytes"))
        snprintf(w, sizeof w, "; a message takes %.0f bytes of it beyond its payload%s", ps_json_num(lg, "wire_bytes"),
                 json_array_size(wr) == 2 ? "" : " (one round's figure)");
    if (json_array_size(wr) == 2)
        snprintf(w + strlen(w), sizeof w - strlen(w), " (the rounds' median; they read %.0f to %.0f)",
                 json_real_value(json_array_get(wr, 0)), json_real_value(json_array_get(wr, 1)));
    if (json_object_get(lg, "oneway_bytes")) {
        double alone = ps_json_num(lg, "oneway_msg_bytes") + ps_json_num(lg, "wire_bytes");
        if (paced)
            snprintf(w + strlen(w), sizeof w - strlen(w), "; a stream sent one way went at %.1f us a message, its "
                     "sender's calls %.1f us: they set its pace", ot * 1e6, oc * 1e6);
        else if (ow > 0)
            snprintf(w + strlen(w), sizeof w - strlen(w), "; sent one way (a stream its receiver does not answer, "
                     "%.1f us a message), %.0f bytes more: the acknowledgements' share", ot * 1e6, ow);
        else
            snprintf(w + strlen(w), sizeof w - strlen(w), "; a stream sent one way went at %.1f us a message, %s "
                     "its payload and wire bytes at that rate (%.1f us): nothing more for the acknowledgements", ot * 1e6,
                     rate * ot < alone ? "faster than" : "as fast as", alone / rate * 1e6);
    }
    if (isfinite(mb))
        snprintf(w + strlen(w), sizeof w - strlen(w), "; one written while its connection's previous one waits in "
                 "the shaper joins it: %.0f bytes beyond its payload, its send call %.1f us", mb,
                 ps_json_num(lg, "o_s_merged") * 1e6);
    else if (mp)
        snprintf(w + strlen(w), sizeof w - strlen(w), "; messages written behind a backlog were not measured (the "
                 "writing took %.2g ms, the backlog %.2g ms)", ps_json_num(lg, "merged_written_in") * 1e3,
                 mback / rate * 1e3);
    ps__warn(warnings, "the link is shaped: a token bucket of %s passes at line speed, then %.3g MB/s%s; the "
             "LogGOPS table is measured below half the bucket, the simulator adds the bucket", a, rate / 1e6, w);
}

int ps__loggops_analyze(const json_t *rounds, json_t *doc, json_t *warnings)
{
    const json_t *first = json_object_get(json_array_get(rounds, 0), "loggops");
    const json_t *sizes0 = json_object_get(first, "sizes");
    size_t ns = json_array_size(sizes0);
    if (!json_is_object(first) || ns == 0) return -1;
    double S = ps_json_num(first, "S");
    const json_t *sack = json_object_get(first, "S_ack");   /* absent in a probe before it was measured */
    double S_ack = json_is_number(sack) ? fmax(S, json_number_value(sack)) : -1;
    double o_post = best_scalar(rounds, NULL, "o_post");
    if (!isfinite(o_post) || o_post < 0) o_post = 0;
    const char *cons_why;
    double o_cons = construct_figure(rounds, &cons_why);
    json_t *lg = json_object(), *rows = json_array();
    double bytes[LG_MAX_SIZES], os[LG_MAX_SIZES], orr[LG_MAX_SIZES], half[LG_MAX_SIZES], gap[LG_MAX_SIZES];
    double orin[LG_MAX_SIZES], osb[LG_MAX_SIZES], halfb[LG_MAX_SIZES], halfw[LG_MAX_SIZES];
    double ex[LG_MAX_SIZES], done[LG_MAX_SIZES], ack1[LG_MAX_SIZES], ack8[LG_MAX_SIZES], self[LG_MAX_SIZES];
    int n = 0, ndone = 0, nack = 0;
    for (size_t si = 0; si < ns && n < LG_MAX_SIZES; si++) {
        bytes[n] = ps_json_num(json_array_get(sizes0, si), "bytes");
        os[n] = fmax(0, best_over_rounds(rounds, si, "o_s"));
        orr[n] = fmax(0, best_over_rounds(rounds, si, "o_r"));
        /* (a rendezvous size, or a probe before it was measured: o_r; taken in, a message cannot cost more) */
        orin[n] = fmin(orr[n], fmax(0, best_over_rounds(rounds, si, "o_r_in")));
        half[n] = best_over_rounds(rounds, si, "half_round_trip");
        /* (not measured: a probe before they were, or osb above S) */
        osb[n] = best_over_rounds(rounds, si, "o_s_block");
        halfb[n] = best_over_rounds(rounds, si, "half_round_trip_block");
        halfw[n] = best_over_rounds(rounds, si, "half_round_trip_written");   /* (NAN: not measured) */
        ex[n] = best_over_rounds(rounds, si, "exchange");
        self[n] = best_over_rounds(rounds, si, "self");   /* (absent in a probe before it was measured) */
        double d = best_over_rounds(rounds, si, "o_done");
        if (isfinite(d)) done[ndone++] = d;
        double a1 = best_over_rounds(rounds, si, "o_ack"), a8 = best_over_rounds(rounds, si, "o_ack_8");
        if (isfinite(a1) && isfinite(a8)) {
            ack1[nack] = a1;
            ack8[nack++] = a8;
        }
        /* a stream's time per message: netgauge's (T(k) - T(1)) / (k - 1) */
        double k = ps_json_num(json_array_get(sizes0, si), "stream_k");
        double t1 = best_over_rounds(rounds, si, "stream_1"), tk = best_over_rounds(rounds, si, "stream_k_time");
        gap[n] = k >= 2 && isfinite(t1) && isfinite(tk) ? fmax(0, (tk - t1) / (k - 1)) : NAN;
        if (!isfinite(os[n]) || !isfinite(orr[n]) || !isfinite(half[n])) continue;
        n++;
    }
    if (n == 0) {
        json_decref(lg);
        json_decref(rows);
        return -1;
    }
    /* sizes without a stream (a shaped link's largest): the last known gap grows with the bytes */
    for (int i = 0; i < n; i++)
        if (!isfinite(gap[i])) {
            int j = i - 1;
            while (j >= 0 && !isfinite(gap[j])) j--;
            gap[i] = j >= 0 ? gap[j] * bytes[i] / bytes[j] : 0;
        }
    /* (each timing less the clock's cost: a call faster than the clock reads below 0, which is 0) */
    double o_done = ndone ? fmax(0, median_of(done, ndone)) : 0;
    /* the acknowledged range: the wait that takes the first acknowledgement in,
     * and each further one it takes in with it beyond its own wait's o_done */
    double o_ack = nack ? fmax(o_done, median_of(ack1, nack)) : 0;
    double o_ack_more = nack ? fmax(0, (median_of(ack8, nack) - o_ack) / (LG_ACK_BATCH - 1) - o_done) : 0;
    double worst = 0, from = 0, to = 0;   /* the rows whose calls alone outlast the half round trip */
    int nover = 0, ifrom = -1, ito = -1;
    int shaped = json_is_true(json_object_get(first, "shaped"));
    for (int i = 0; i < n; i++) {
        json_t *row = json_object();
        double calls = os[i] + orin[i] + o_post, L = fmax(0, half[i] - calls);
        if (calls > half[i] && half[i] > 0) {
            json_object_set_new(row, "calls_over_half_round_trip", json_real(calls / half[i]));
            worst = fmax(worst, calls / half[i]);
            if (!(from > 0)) {
                from = bytes[i];
                ifrom = i;
            }
            to = bytes[i];
            ito = i;
            nover++;
        }
        json_object_set_new(row, "bytes", json_real(bytes[i]));
        json_object_set_new(row, "o_s", json_real(os[i]));
        json_object_set_new(row, "o_r", json_real(orr[i]));
        json_object_set_new(row, "o_r_in", json_real(orin[i]));
        if (isfinite(halfb[i])) {
            /* the blocking calls (docs/PROBE.md) */
            double sb, rb;
            ps__loggops_blocking(bytes[i], S, S_ack, os[i], orin[i], o_done, L, osb[i], halfb[i], &sb, &rb);
            json_object_set_new(row, "o_s_block", json_real(sb));
            json_object_set_new(row, "o_r_in_block", json_real(rb));
            json_object_set_new(row, "half_round_trip_block", json_real(halfb[i]));
            if (isfinite(halfw[i])) {
                json_object_set_new(row, "half_round_trip_written", json_real(halfw[i]));
                json_object_set_new(row, "written", json_real(ps__loggops_written(halfb[i], halfw[i])));
            }
        }
        json_object_set_new(row, "L", json_real(L));
        json_object_set_new(row, "gap", json_real(gap[i]));
        json_object_set_new(row, "half_round_trip", json_real(half[i]));
        json_object_set_new(row, "exchange", isfinite(ex[i]) ? json_real(ex[i]) : json_null());
        /* a shaped link's exchange, the bucket refilled before it, takes longer than a message sent
         * alone (1.48 half round trips at 16 bytes under slownet 100mbit, docs/BENCHMARKS.md): each
         * message has arrived by the exchange's time less the send call's, the receive's and the
         * wait's own costs after its send call ended: the earliest a message that crosses one going
         * the other way arrives */
        double cross = ex[i] - os[i] - orin[i] - o_done;
        if (shaped && isfinite(cross) && cross > 0 && !(S > 0 && bytes[i] > S))
            json_object_set_new(row, "crossing", json_real(cross));
        if (isfinite(self[i]) && self[i] > 0) json_object_set_new(row, "self", json_real(self[i]));
        json_array_append_new(rows, row);
    }
    ps__loggops_crossing_floor(rows);
    if (worst > 1) {
        char a[32], b[32], where[120];
        ps_fmt_bytes(a, sizeof a, from);
        ps_fmt_bytes(b, sizeof b, to);
        if (from == to) snprintf(where, sizeof where, "at %s", a);
        else if (nover == ito - ifrom + 1) snprintf(where, sizeof where, "from %s to %s", a, b);
        else snprintf(where, sizeof where, "at %d of the %d sizes from %s to %s", nover, ito - ifrom + 1, a, b);
        ps__warn(warnings, "%s the runtime's own calls (o_s + o_r_in + o_post) take up to %.2f times the ping-pong's "
                 "half round trip: L is 0 there, and a modelled message takes that much longer than a blocking "
                 "ping-pong's (calls_over_half_round_trip in the rows)", where, worst);
    }
    /* a protocol step of the receive above S (ps_loggops_recv_step) */
    double step = ps_loggops_recv_step(bytes, orr, n, S);
    if (step > 0 && S_ack < 0) {
        int k = 0;
        while (k < n && bytes[k] <= step) k++;
        char a[32], b[32];
        ps_fmt_bytes(a, sizeof a, S);
        ps_fmt_bytes(b, sizeof b, step);
        ps__warn(warnings, "a send's completion waits for its receiver above %s (S), but the receive's cost "
                 "jumps only above %s (%.3g us to %.3g us): in between the data likely still move eagerly, each "
                 "send completing once its receiver's runtime has taken the message in, and predict models such "
                 "messages so, and says when a program sends them (docs/PREDICT.md)",
                 a, b, orr[k - 1] * 1e6, orr[k] * 1e6);
        json_object_set_new(lg, "recv_step_above_S", json_real(step));
    }
    /* both directions at once against the model without interference:
     * the factor on the per-byte CPU costs where they matter */
    double cf[LG_MAX_SIZES];
    int ncf = 0;
    for (int i = 0; i < n && !shaped; i++) {
        /* (each rank waits in its call while the other's message arrives: o_r_in) */
        double L = fmax(0, half[i] - os[i] - orin[i] - o_post);
        int rndv = S > 0 && bytes[i] > S;
        double L0 = fmax(0, half[0] - os[0] - orin[0] - o_post);
        /* (an acknowledged send's wait takes its acknowledgement in) */
        int acked = rndv && o_ack > 0 && bytes[i] <= S_ack;
        double model = os[i] + L + orin[i] + (acked ? o_ack : o_done) + (rndv ? L0 : 0);
        double copy = (os[i] - os[0]) + (orin[i] - orin[0]);
        if (isfinite(ex[i]) && copy > 0.25 * model) cf[ncf++] = 1 + (ex[i] - model) / copy;
    }
    double contention = ncf ? median_of(cf, ncf) : 1;
    contention = contention < 1 ? 1 : contention > 3 ? 3 : contention;
    /* rendezvous progress */
    double ps_ = 0, pr = 0;
    const json_t *pg = json_object_get(first, "progress");
    if (json_is_object(pg)) {
        double t0 = best_scalar(rounds, "progress", "both_wait");
        double wr = best_scalar(rounds, "progress", "receiver_busy_wait");
        double ts = best_scalar(rounds, "progress", "sender_busy_receive");
        double d = ps_json_num(pg, "delay");
        pr = t0 > 0 ? clamp01(wr / t0) : 0;
        ps_ = d > 0 ? clamp01((ts - t0) / d) : 0;
    }
    json_object_set_new(lg, "S", json_real(S));
    if (S_ack >= 0) json_object_set_new(lg, "S_ack", json_real(S_ack));
    json_object_set_new(lg, "max_bytes", json_real(ps_json_num(first, "max_bytes")));
    /* (absent in a probe before it was taken); and how far it moves from round to round of one
     * probe: a run's within that is no other state */
    double raw8, raw8_max;
    int n8 = scalar_range(rounds, NULL, "raw_half_8B", &raw8, &raw8_max);
    if (n8 && raw8 > 0) json_object_set_new(lg, "half_round_trip_8B", json_real(raw8));
    if (n8 >= 2 && raw8 > 0) json_object_set_new(lg, "half_round_trip_8B_spread", json_real(raw8_max / raw8));
    json_object_set_new(lg, "o_post", json_real(o_post));
    json_object_set_new(lg, "o_construct", json_real(o_cons));
    if (cons_why) json_object_set_new(lg, "o_construct_zero_because", json_string(cons_why));
    json_object_set_new(lg, "o_done", json_real(o_done));
    if (nack) {
        json_object_set_new(lg, "o_ack", json_real(o_ack));
        json_object_set_new(lg, "o_ack_more", json_real(o_ack_more));
    }
    json_object_set_new(lg, "contention", json_real(contention));
    json_object_set_new(lg, "progress_send", json_real(ps_));
    json_object_set_new(lg, "progress_recv", json_real(pr));
    json_object_set_new(lg, "shaped", json_boolean(shaped));
    double rate = 0, burst = 0;
    if (shaped) {
        /* the bucket: the rounds' median (each is one series after a pause) */
        double rr[64], bb[64];
        int nb = 0;
        size_t r;
        json_t *round;
        json_array_foreach(rounds, r, round) {
            const json_t *bk = json_object_get(json_object_get(round, "loggops"), "bucket");
            if (nb < 64 && json_is_true(json_object_get(bk, "shaped")) && !json_is_false(json_object_get(bk, "agrees"))) {
                rr[nb] = ps_json_num(bk, "rate");
                bb[nb++] = ps_json_num(bk, "burst");
            }
        }
        rate = nb ? median_of(rr, nb) : ps_json_num(first, "rate");
        burst = nb ? median_of(bb, nb) : ps_json_num(first, "burst");
        /* a message's bytes beyond its payload (wire_measure): the series' rates are of payload, the
         * tokens come faster by what the wire's series found.  Each round measures them (a raw
         * document before that has them in its first round alone); of the rounds that gave a figure,
         * the one with the median bytes gives both (the last of a round's attempts is its figure; a
         * raw round written before the attempts were kept has it alone, as wire) */
        const json_t *wr[64];
        int nw = 0;
        json_array_foreach(rounds, r, round) {
            const json_t *g = json_object_get(round, "loggops");
            const json_t *tries = json_object_get(g, "wire_attempts");
            const json_t *w = json_array_size(tries) ? json_array_get(tries, json_array_size(tries) - 1)
                                                     : json_object_get(g, "wire");
            if (nw < 64 && json_is_true(json_object_get(w, "measured"))) wr[nw++] = w;
        }
        for (int i = 1; i < nw; i++)   /* by bytes (a few rounds) */
            for (int j = i; j > 0 && ps_json_num(wr[j - 1], "bytes") > ps_json_num(wr[j], "bytes"); j--) {
                const json_t *t = wr[j];
                wr[j] = wr[j - 1];
                wr[j - 1] = t;
            }
        double r1 = ps_json_num(first, "rate");
        if (nw > 0 && r1 > 0) {
            const json_t *w = wr[(nw - 1) / 2];
            json_object_set_new(lg, "wire_bytes", json_real(ps_json_num(w, "bytes")));
            if (nw > 1)
                json_object_set_new(lg, "wire_bytes_range", json_pack("[f, f]", ps_json_num(wr[0], "bytes"),
                                                                      ps_json_num(wr[nw - 1], "bytes")));
            json_object_set_new(lg, "rate_payload", json_real(rate));
            rate *= ps_json_num(w, "rate") / r1;
        }
        /* a one-way stream's time per message (oneway_measure): the rounds' median; its bytes come
         * from it once the rate is final (ps__loggops_bucket_check) */
        double ow[64], oc[64];
        int no = 0, nc = 0;
        json_array_foreach(rounds, r, round) {
            const json_t *o = json_object_get(json_object_get(round, "loggops"), "oneway");
            size_t j;
            json_t *v;
            json_array_foreach(json_object_get(o, "seconds_per_msg"), j, v)
                if (no < 64 && json_number_value(v) > 0) ow[no++] = json_number_value(v);
            json_array_foreach(json_object_get(o, "send_seconds_per_msg"), j, v)
                if (nc < 64 && json_number_value(v) > 0) oc[nc++] = json_number_value(v);
            if (no && !json_object_get(lg, "oneway_msg_bytes"))
                json_object_set_new(lg, "oneway_msg_bytes", json_real(ps_json_num(o, "bytes")));
        }
        if (no) json_object_set_new(lg, "oneway_seconds", json_real(median_of(ow, no)));
        if (nc) json_object_set_new(lg, "oneway_send_seconds", json_real(median_of(oc, nc)));
        /* messages written behind a backlog (merge_measure): the rounds' medians, and the longest
         * time the writing took (the check that the backlog outlasted it needs the final rate) */
        double mt[64], ms[64], mr[64], win = 0;
        int nm = 0;
        json_array_foreach(rounds, r, round) {
            const json_t *o = json_object_get(json_object_get(round, "loggops"), "merged");
            size_t j;
            json_t *v;
            json_array_foreach(json_object_get(o, "rounds"), j, v) {
                if (nm >= 64 || !(ps_json_num(v, "seconds") > 0)) continue;
                mt[nm] = ps_json_num(v, "seconds");
                ms[nm] = ps_json_num(v, "send_seconds_per_msg");
                mr[nm++] = ps_json_num(v, "recv_seconds_per_msg");
                win = fmax(win, ps_json_num(v, "written_in"));
            }
            if (nm && !json_object_get(lg, "merged_probe"))
                json_object_set_new(lg, "merged_probe", json_pack("{sOsOsOsO}", "backlog_msgs",
                                                                  json_object_get(o, "backlog_msgs"), "backlog_bytes",
                                                                  json_object_get(o, "backlog_bytes"), "msgs",
                                                                  json_object_get(o, "msgs"), "bytes",
                                                                  json_object_get(o, "bytes")));
        }
        if (nm) {
            json_object_set_new(lg, "merged_seconds", json_real(median_of(mt, nm)));
            json_object_set_new(lg, "o_s_merged", json_real(median_of(ms, nm)));
            json_object_set_new(lg, "o_r_merged", json_real(median_of(mr, nm)));
            json_object_set_new(lg, "merged_written_in", json_real(win));
        }
        /* (said by ps__loggops_bucket_check, once the ping-pong has been read) */
    }
    json_object_set_new(lg, "rate", json_real(rate));
    json_object_set_new(lg, "burst", json_real(burst));
    json_object_set_new(lg, "shared_bucket", json_boolean(shaped && json_is_true(json_object_get(first, "shared_bucket"))));
    const json_t *rej = json_object_get(first, "bucket_rejected"), *st = json_object_get(first, "bucket_stream");
    if (json_is_object(rej) && json_is_object(st)) {
        char a[32], c[32];
        ps_fmt_bytes(a, sizeof a, ps_json_num(rej, "burst"));
        ps_fmt_bytes(c, sizeof c, ps_json_num(rej, "chunk"));
        ps__warn(warnings, "a stop-and-wait series of %s messages read a token bucket of %s at %.3g MB/s, but a "
                 "stream went at %.3g MB/s: taken as stalls (a loaded machine?), not a bucket; the model has none",
                 c, a, ps_json_num(rej, "rate") / 1e6, ps_json_num(st, "bytes") / ps_json_num(st, "seconds") / 1e6);
    }
    if (S <= 0) {
        char a[32];
        ps_fmt_bytes(a, sizeof a, ps_json_num(first, "max_bytes"));
        ps__warn(warnings, "no eager/rendezvous switch found up to %s: every message is modelled as sent eagerly", a);
    }
    json_object_set_new(lg, "sizes", rows);
    json_object_set_new(doc, "loggops", lg);
    return 0;
}

int ps__loggops_network_doubt(const json_t *doc, int nodes)
{
    const json_t *lg = json_object_get(doc, "loggops"), *dx = json_object_get(doc, "duplex");
    return nodes <= 1 && json_array_size(json_object_get(lg, "sizes")) > 0 &&
           json_is_false(json_object_get(dx, "serial")) && !json_is_true(json_object_get(dx, "free")) &&
           !json_is_true(json_object_get(lg, "shaped"));
}

void ps__loggops_blocking(double bytes, double S, double S_ack, double os, double orin, double o_done, double L,
                          double osb_measured, double half_block, double *osb, double *orbin)
{
    /* above S a blocking send waits for its receiver (its call is the
     * nonblocking one's and a wait); above the acknowledged range the receive
     * is a rendezvous's, whose cost is its data phase */
    int eager = !(S > 0) || bytes <= S;
    int eager_data = eager || bytes <= S_ack;
    *osb = eager && isfinite(osb_measured) ? fmin(fmax(0, osb_measured), os + o_done) : os;
    *orbin = eager_data && isfinite(half_block) ? fmin(orin, fmax(0, half_block - *osb - L)) : orin;
}

double ps__loggops_written(double half_block, double half_written)
{
    if (!isfinite(half_block) || !isfinite(half_written) || !(half_block > 0)) return 0;
    double d = half_written - half_block;
    return d > PS_PROBE_WRITTEN_NOISE * half_block ? d : 0;
}

/* The summary's line on messages from data just written: what they take
 * longer at the largest row and at the first row where they take longer at
 * all (nothing when the probe did not measure it). */
static void written_words(const json_t *lg, FILE *out)
{
    const json_t *rows = json_object_get(lg, "sizes"), *row, *first = NULL, *last = NULL;
    size_t i;
    json_array_foreach(rows, i, row) {
        double w = ps_json_num(row, "written");
        if (!isfinite(w)) continue;
        last = row;
        if (!first && w > 0) first = row;
    }
    if (!last) return;
    char a[32], b[32], c[32], d[32];
    if (!first) {
        fputs("  data just written (received or computed): no message took longer than the ping-pong's\n", out);
        return;
    }
    ps_fmt_bytes(a, sizeof a, ps_json_num(first, "bytes"));
    ps_fmt_time(b, sizeof b, ps_json_num(first, "written"));
    ps_fmt_bytes(c, sizeof c, ps_json_num(last, "bytes"));
    ps_fmt_time(d, sizeof d, ps_json_num(last, "written"));
    fprintf(out, "  data just written (received or computed): a message arrives %s later at %s, %s at %s, "
            "than the ping-pong's from a buffer nothing writes\n", b, a, d, c);
}

/* Do the rows carry the blocking calls' figures (a probe before they were measured: no)? */
static int rows_blocking(const json_t *lg)
{
    return json_is_number(json_object_get(json_array_get(json_object_get(lg, "sizes"), 0), "o_s_block"));
}

/* A row's o_r_in (a probe before it was measured: its o_r). */
static double row_orin(const json_t *row)
{
    const json_t *v = json_object_get(row, "o_r_in");
    return json_is_number(v) ? json_number_value(v) : ps_json_num(row, "o_r");
}

/* A table "bytes = seconds" of the model from the rows that have `key`:
 * its figure above 0 (or 0 too, keep_zero), sizes ascending, at most
 * PS_MACHINE_MAX_PP; the rows taken. */
static int key_table(const json_t *rows, const char *key, int keep_zero, double *bytes, double *secs)
{
    int n = 0;
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row) {
        double b = ps_json_num(row, "bytes"), t = ps_json_num(row, key);
        if (n < PS_MACHINE_MAX_PP && isfinite(t) && (t > 0 || (keep_zero && t == 0)) && (n == 0 || b > bytes[n - 1])) {
            bytes[n] = b;
            secs[n++] = t;
        }
    }
    return n;
}

void ps__loggops_model(const json_t *doc, int bus, ps_machine *m)
{
    const json_t *lg = json_object_get(doc, "loggops");
    const json_t *rows = json_object_get(lg, "sizes");
    ps_loggops *g = &m->lg;
    memset(g, 0, sizeof *g);
    m->nself = 0;
    if (!json_is_object(lg) || json_array_size(rows) == 0) return;
    size_t i;
    json_t *row;
    /* a message to the rank itself: [self]; one that crosses one going the other way on a shaped
     * link: [crossing]; one from data its sender has just written: [written] (a difference, 0 kept) */
    m->nself = key_table(rows, "self", 0, m->self_bytes, m->self_time);
    m->ncrossing = key_table(rows, "crossing", 0, m->crossing_bytes, m->crossing_time);
    m->nwritten = key_table(rows, "written", 1, m->written_bytes, m->written_time);
    json_array_foreach(rows, i, row) {
        if (g->n >= PS_LOGGOPS_MAX) break;
        g->bytes[g->n] = ps_json_num(row, "bytes");
        g->os[g->n] = ps_json_num(row, "o_s");
        g->orr[g->n] = ps_json_num(row, "o_r");
        g->orin[g->n] = row_orin(row);
        /* (a probe before the blocking calls were measured: they cost the nonblocking ones') */
        const json_t *sb = json_object_get(row, "o_s_block"), *rb = json_object_get(row, "o_r_in_block");
        if (json_is_number(sb) && json_is_number(rb)) {
            g->osb[g->n] = json_number_value(sb);
            g->orbin[g->n] = json_number_value(rb);
            g->blocking = 1;
        } else {
            g->osb[g->n] = g->os[g->n];
            g->orbin[g->n] = g->orin[g->n];
        }
        g->L[g->n] = ps_json_num(row, "L");
        g->gap[g->n] = ps_json_num(row, "gap");
        g->n++;
    }
    g->S = fmax(0, ps_json_num(lg, "S"));
    if (json_is_number(json_object_get(lg, "S_ack"))) g->S_ack = fmax(g->S, ps_json_num(lg, "S_ack"));
    g->o_post = ps_json_num(lg, "o_post");
    g->o_construct = ps_json_num(lg, "o_construct");
    if (!(g->o_construct > 0)) g->o_construct = 0;   /* (absent in a probe before it was measured) */
    g->o_done = ps_json_num(lg, "o_done");
    /* (absent in a probe before it was measured, or without an acknowledged range) */
    g->o_ack = fmax(0, ps_json_num(lg, "o_ack"));
    g->o_ack_more = fmax(0, ps_json_num(lg, "o_ack_more"));
    if (!(g->o_ack > 0)) g->o_ack = g->o_ack_more = 0;
    /* on a shared link the bus already serialises the two directions */
    g->contention = bus ? 1 : ps_json_num(lg, "contention");
    if (ps__loggops_network_doubt(doc, m->nodes)) {
        if (bus) g->nobus_contention = fmax(1, ps_json_num(lg, "contention"));
        else g->also_bus = 1;
    }
    g->progress_send = ps_json_num(lg, "progress_send");
    g->progress_recv = ps_json_num(lg, "progress_recv");
    g->rate = ps_json_num(lg, "rate");
    g->burst = ps_json_num(lg, "burst");
    double wire = ps_json_num(lg, "wire_bytes");
    g->wire = g->rate > 0 && isfinite(wire) && wire > 0 ? wire : 0;
    double oneway = ps_json_num(lg, "oneway_bytes");
    g->oneway = g->wire > 0 && isfinite(oneway) && oneway > 0 ? oneway : 0;
    double osw = ps_json_num(lg, "oneway_send_seconds");
    g->o_s_oneway = g->wire > 0 && isfinite(osw) && osw > 0 ? osw : 0;
    double merged = ps_json_num(lg, "merged_bytes"), osm = ps_json_num(lg, "o_s_merged"), orm = ps_json_num(lg, "o_r_merged");
    if (g->wire > 0 && isfinite(merged) && merged > 0 && isfinite(osm) && osm >= 0 && isfinite(orm) && orm >= 0) {
        g->merged = merged;
        g->o_s_merged = osm;
        g->o_r_merged = orm;
    }
    double raw8 = ps_json_num(lg, "half_round_trip_8B");
    g->half_8B = isfinite(raw8) && raw8 > 0 ? raw8 : 0;
    double spread = ps_json_num(lg, "half_round_trip_8B_spread");
    g->half_8B_spread = g->half_8B > 0 && spread >= 1 ? spread : 0;
}

/* S_ack in words, a clause after "; " (sep) or in parentheses: up to where
 * a send waits only for its receiver's runtime, or that above S every send
 * waits for its receive; "" when the probe did not measure it. */
static void ack_words(const json_t *lg, int paren, char *buf, size_t n)
{
    const json_t *v = json_object_get(lg, "S_ack");
    double S = ps_json_num(lg, "S");
    const char *a = paren ? " (" : "; ", *z = paren ? ")" : "";
    if (!json_is_number(v)) {
        snprintf(buf, n, "%s", "");
    } else if (json_number_value(v) > S) {
        char b[32];
        ps_fmt_bytes(b, sizeof b, json_number_value(v));
        snprintf(buf, n, "%sup to %s (%.0f B) a send waits only for its receiver's runtime to take the data in, "
                 "not for its receive%s", a, b, json_number_value(v), z);
    } else {
        snprintf(buf, n, "%sabove it a send waits for its receive to be posted%s", a, z);
    }
}

/* The wait of an acknowledged send, in words ("" where not measured). */
static int ack_wait_words(const json_t *lg, char *buf, size_t n)
{
    double a = ps_json_num(lg, "o_ack"), more = ps_json_num(lg, "o_ack_more");
    if (!(a > 0)) return 0;
    char x[32], y[32];
    ps_fmt_time(x, sizeof x, a);
    ps_fmt_time(y, sizeof y, isfinite(more) ? more : 0);
    snprintf(buf, n, "wait of an acknowledged send whose acknowledgement came while the sender was away takes it in: "
             "%s, and each further one pending %s more", x, y);
    return 1;
}

/* What the model takes for two ranks copying at once, in words: on a bus the
 * link already takes one message at a time, and machine.ini says 1. */
/* A shaped link's wire bytes as a clause (", each message ... more"), or "". */
static void wire_words(const json_t *lg, char *buf, size_t n)
{
    double w = ps_json_num(lg, "wire_bytes");
    double o = ps_json_num(lg, "oneway_bytes");
    if (isfinite(w) && w > 0 && isfinite(o) && o > 0)
        snprintf(buf, n, ", each message %.0f bytes beyond its payload (headers), one sent one way %.0f more "
                 "(acknowledgements)", w, o);
    else if (isfinite(w) && w > 0) snprintf(buf, n, ", each message %.0f bytes beyond its payload (headers)", w);
    else snprintf(buf, n, "%s", "");
    double oc = ps_json_num(lg, "oneway_send_seconds"), m = ps_json_num(lg, "merged_bytes");
    size_t k = strlen(buf);
    if (isfinite(w) && w > 0 && isfinite(oc) && oc > 0 && k < n)
        k += (size_t)snprintf(buf + k, n - k, "; a send call of a one-way stream %.2g us", oc * 1e6);
    if (isfinite(w) && w > 0 && isfinite(m) && k < n)
        snprintf(buf + k, n - k, "; a message written while its connection's previous one waits in the shaper "
                 "joins it: %.0f bytes beyond its payload, calls of %.2g and %.2g us", m,
                 ps_json_num(lg, "o_s_merged") * 1e6, ps_json_num(lg, "o_r_merged") * 1e6);
}

static void contention_words(const json_t *doc, char *buf, size_t n)
{
    const char *net = json_string_value(json_object_get(json_object_get(doc, "model"), "network"));
    double c = ps_json_num(json_object_get(doc, "loggops"), "contention");
    if (net && !strcmp(net, "bus"))
        snprintf(buf, n, "per-byte costs x %.2f measured, x 1 in the model (on a bus the link already takes one "
                 "message at a time)", c);
    else
        snprintf(buf, n, "per-byte costs x %.2f", c);
}

/* The construct call's own code in words, "construct call's own code ..." for the caller's article
 * (0: not measured). */
static int construct_words(const json_t *lg, char *buf, size_t n)
{
    const json_t *v = json_object_get(lg, "o_construct");
    if (!json_is_number(v)) return 0;
    const char *why = json_string_value(json_object_get(lg, "o_construct_zero_because"));
    char t[32];
    ps_fmt_time(t, sizeof t, json_number_value(v));
    if (why)
        snprintf(buf, n, "construct call's own code outside its calls: none told apart (%s)", why);
    else
        snprintf(buf, n, "construct call's own code outside its calls: %s a call (before its first message)", t);
    return 1;
}

void ps__loggops_print(const json_t *doc, FILE *out)
{
    const json_t *lg = json_object_get(doc, "loggops");
    if (!json_is_object(lg)) return;
    char a[32], b[32], c[32], d[32];
    fprintf(out, "\nLogGOPS (ranks 0 and 1 through the runtime's calls, instrument on; linear between sizes):\n");
    double S = ps_json_num(lg, "S");
    ps_fmt_time(a, sizeof a, ps_json_num(lg, "o_post"));
    ps_fmt_time(b, sizeof b, ps_json_num(lg, "o_done"));
    if (S > 0) {
        char ack[240];
        ack_words(lg, 0, ack, sizeof ack);
        ps_fmt_bytes(c, sizeof c, S);
        fprintf(out, "  S = %s (larger sends wait for their receiver%s), posting a receive %s, completing a done "
                "request %s\n", c, ack, a, b);
    } else {
        ps_fmt_bytes(c, sizeof c, ps_json_num(lg, "max_bytes"));
        fprintf(out, "  no switch to rendezvous up to %s, posting a receive %s, completing a done request %s\n", c, a,
                b);
    }
    fprintf(out, "  (o_r: a message that arrived while the receiver computed, taken in by its next call; o_r_in: one "
            "its runtime took in during a call)\n");
    int blk = rows_blocking(lg);
    fprintf(out, "  %10s  %10s  %10s  %10s  %10s  %10s", "bytes", "o_s", "o_r", "o_r_in", "L", "gap");
    if (blk) fprintf(out, "  %10s  %12s", "o_s_block", "o_r_in_block");
    fputc('\n', out);
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(lg, "sizes"), i, row) {
        char e[32];
        ps_fmt_time(a, sizeof a, ps_json_num(row, "o_s"));
        ps_fmt_time(b, sizeof b, ps_json_num(row, "o_r"));
        ps_fmt_time(e, sizeof e, row_orin(row));
        ps_fmt_time(c, sizeof c, ps_json_num(row, "L"));
        ps_fmt_time(d, sizeof d, ps_json_num(row, "gap"));
        fprintf(out, "  %10.0f  %10s  %10s  %10s  %10s  %10s", ps_json_num(row, "bytes"), a, b, e, c, d);
        if (blk) {
            ps_fmt_time(a, sizeof a, ps_json_num(row, "o_s_block"));
            ps_fmt_time(b, sizeof b, ps_json_num(row, "o_r_in_block"));
            fprintf(out, "  %10s  %12s", a, b);
        }
        fputc('\n', out);
    }
    if (blk) {
        const json_t *r0 = json_array_get(json_object_get(lg, "sizes"), 0);
        ps_fmt_time(a, sizeof a, ps_json_num(r0, "half_round_trip_block"));
        ps_fmt_time(b, sizeof b, ps_json_num(r0, "half_round_trip"));
        fprintf(out, "  blocking calls (a blocking ping-pong beside the nonblocking one): half round trip at %.0f B %s, "
                "with nonblocking calls %s\n", ps_json_num(r0, "bytes"), a, b);
    }
    written_words(lg, out);
    if (S > 0)
        fprintf(out, "  a rendezvous waits for its receiver in a call: %.2f, for its sender: %.2f (>= 0.5: it waits)\n",
                ps_json_num(lg, "progress_recv"), ps_json_num(lg, "progress_send"));
    char cw[200];
    contention_words(doc, cw, sizeof cw);
    fprintf(out, "  two ranks copying at once: %s\n", cw);
    char cons[160], aw[200];
    if (construct_words(lg, cons, sizeof cons)) fprintf(out, "  a %s\n", cons);
    if (ack_wait_words(lg, aw, sizeof aw)) fprintf(out, "  the %s\n", aw);
    if (json_is_true(json_object_get(lg, "shaped"))) {
        ps_fmt_bytes(a, sizeof a, ps_json_num(lg, "burst"));
        char w[480];
        wire_words(lg, w, sizeof w);
        fprintf(out, "  shaped link: a token bucket of %s, then %.4g MB/s%s\n", a, ps_json_num(lg, "rate") / 1e6, w);
    }
}

void ps__loggops_html(const json_t *doc, FILE *out)
{
    const json_t *lg = json_object_get(doc, "loggops");
    if (!json_is_object(lg)) return;
    char a[32], b[32], c[32], d[32];
    ps_html_heading(out, "LogGOPS through the runtime's calls");
    double S = ps_json_num(lg, "S");
    ps_fmt_bytes(a, sizeof a, S > 0 ? S : ps_json_num(lg, "max_bytes"));
    ps_fmt_time(b, sizeof b, ps_json_num(lg, "o_post"));
    ps_fmt_time(c, sizeof c, ps_json_num(lg, "o_done"));
    char cw[200];
    contention_words(doc, cw, sizeof cw);
    char ack[240] = "";
    if (S > 0) ack_words(lg, 1, ack, sizeof ack);
    ps_html_note(out, "%s %s%s; posting a receive %s, completing a complete request %s; two ranks copying at once: "
                 "%s; a rendezvous waits for its receiver %.2f, for its sender %.2f.",
                 S > 0 ? "S (largest send that completes without its receiver) =" : "no switch to rendezvous up to", a,
                 ack, b, c, cw, ps_json_num(lg, "progress_recv"), ps_json_num(lg, "progress_send"));
    char cons[160], aw[200];
    if (construct_words(lg, cons, sizeof cons)) ps_html_note(out, "A %s.", cons);
    if (ack_wait_words(lg, aw, sizeof aw)) ps_html_note(out, "The %s.", aw);
    if (json_is_true(json_object_get(lg, "shaped"))) {
        ps_fmt_bytes(a, sizeof a, ps_json_num(lg, "burst"));
        char w[480];
        wire_words(lg, w, sizeof w);
        ps_html_note(out, "Shaped link: a token bucket of %s, then %.4g MB/s%s.", a, ps_json_num(lg, "rate") / 1e6, w);
    }
    ps_html_note(out, "o_r: the receive of a message that arrived while the receiver computed (its next call takes it "
                 "in); o_r_in: of one its runtime took in during a call.");
    int blk = rows_blocking(lg);
    if (blk) ps_html_table_begin(out, 8, "bytes", "o_s", "o_r", "o_r_in", "L", "gap", "o_s_block", "o_r_in_block");
    else ps_html_table_begin(out, 6, "bytes", "o_s", "o_r", "o_r_in", "L", "gap");
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(lg, "sizes"), i, row) {
        char e[32];
        ps_fmt_time(a, sizeof a, ps_json_num(row, "o_s"));
        ps_fmt_time(b, sizeof b, ps_json_num(row, "o_r"));
        ps_fmt_time(e, sizeof e, row_orin(row));
        ps_fmt_time(c, sizeof c, ps_json_num(row, "L"));
        ps_fmt_time(d, sizeof d, ps_json_num(row, "gap"));
        ps_html_row_begin(out);
        ps_html_cell(out, 1, "%.0f", ps_json_num(row, "bytes"));
        ps_html_cell(out, 1, "%s", a);
        ps_html_cell(out, 1, "%s", b);
        ps_html_cell(out, 1, "%s", e);
        ps_html_cell(out, 1, "%s", c);
        ps_html_cell(out, 1, "%s", d);
        if (blk) {
            ps_fmt_time(a, sizeof a, ps_json_num(row, "o_s_block"));
            ps_fmt_time(b, sizeof b, ps_json_num(row, "o_r_in_block"));
            ps_html_cell(out, 1, "%s", a);
            ps_html_cell(out, 1, "%s", b);
        }
        ps_html_row_end(out);
    }
    ps_html_table_end(out);
}
