/*
 * sim.c - the execution simulator (see sim.h and docs/PREDICT.md).
 *
 * State is small and flat so large runs fit: a record per rank, a pool of
 * message records (a cache line each, alive only while a message is in
 * flight or waited for), a hash table of channels (receiver, sender, tag)
 * holding the FIFO of unmatched sends or unmatched receives (matching is O(1)
 * per message and the table only holds channels with something pending) or,
 * up to DENSE_MAX ranks, an index of (receiver, sender) pairs, the event
 * queue, and a FIFO of transmissions waiting for the bus.
 *
 * Speed comes from memory traffic: with a million messages pending, every
 * table probe and every message record is a cache miss.  So a table slot is
 * 8 bytes (the FIFO's first record and the key's 32-bit hash, which also
 * gives the slot's home: no record is read to probe past it or to move it),
 * the key and the FIFO's tail live in the first record, and the slot a send
 * or receive will probe is prefetched when the instruction is decoded, a
 * latency before it is posted.
 */
#include "sim/sim.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "parscope/parscope.h"
#include "sim/eventq.h"
#include "sim/sheet_feed.h"
#include "sim/thread.h"
#include "util/assert.h"
#include "util/util.h"

#define NIL UINT32_MAX

/* EV_TXEND: the seed's transmission ends; under LogGOPS a message (a
 * rendezvous: its request to send) reaches its receiver.  EV_DATAEND: a
 * rendezvous's data are at the receiver; EV_FIN: the sender learns it (or
 * that the receiver's runtime took an acknowledged message in). */
enum { EV_STEP = 0, EV_TXEND = 1, EV_DATAEND = 2, EV_FIN = 3 };
/* The event queue's lanes (eventq.h): an event goes to its lane when it is
 * not before the lane's last, else to the heap; the order of removal is the
 * same either way.  Transmissions of one size end a fixed time after they
 * start, and notices come a fixed latency after the data. */
enum { LANE_WAKE = 0, LANE_POST, LANE_TXEND, LANE_FIN };
enum { PH_NEXT = 0, PH_POST, PH_WAKE };
enum { ST_RUN = 0, ST_BLK_MSG, ST_BLK_ALL, ST_BLK_ONE, ST_DONE };

/* message flags; bits 12-13 count the references (sender, receiver) */
#define M_SPOSTED  0x001
#define M_RPOSTED  0x002
#define M_STARTED  0x004
#define M_ARRIVED  0x008
#define M_SDONE    0x010
#define M_RDONE    0x020
#define M_EAGER    0x040
#define M_SBLOCK   0x080
#define M_RBLOCK   0x100
#define M_QUEUED   0x200
#define M_RNDV     0x400    /* LogGOPS: above S, sent by rendezvous */
#define M_DATA     0x800    /* LogGOPS: the rendezvous's data phase has begun, or the receiver's
                               runtime took an acknowledged message in (M_ACKED) */
#define M_ACKED    0x4000   /* LogGOPS: above S up to the receive's protocol step: the data go
                               eagerly, the send completes once the receiver's runtime took them */
#define M_REF      0x1000
#define M_REFS     0x3000
#define M_COLD     0x8000   /* LogGOPS: an eager message that arrived while its receiver was outside
                               the runtime: its next call takes it in, at o_r instead of o_r_in */
#define PAD_JOINED 1        /* pad of a buffered message (not M_ACKED, whose pad is a tag): it joined its
                               connection's segment in the shaper (lg_send_kind) */

typedef struct msg {
    int32_t  src, dst, tag;
    uint16_t flags, pad;   /* (the constructs are the requests': outreq, rstate.pend) */
    uint32_t next;      /* channel FIFO / bus queue / free list */
    uint32_t tail;      /* in a channel's first record: its last */
    uint64_t bytes;
    /* the receive's size while no send is posted (for the deadlock report);
     * from the send's posting (M_SPOSTED) on, when the send began: its SEND
     * event's t0, which the sheet needs at the receive's end.  One field, so
     * that a receive reads no line besides its record. */
    union {
        uint64_t recv_bytes;
        double   sent0;
    };
    double   t_start, t_sdone, t_rdone;
} msg;

_Static_assert(sizeof(msg) == 64, "a message record is one cache line");

/* an outstanding request; the one in slot k was issued as number ord0 + k */
typedef struct outreq {
    uint32_t m;
    uint16_t is_send;
    uint16_t construct;   /* of the call that posted it: its completion is named after it, as the
                             runtime names it (a receive's construct need not be its send's) */
} outreq;

typedef struct rstate {
    const uint8_t *pc, *end;
    ps_insn_ctx    ctx;
    ps_insn        pend;       /* the message instruction whose latency is running */
    uint32_t       pend_h;     /* its channel's hash */
    double         op_t0;      /* start of the current instruction */
    double         blk_t0;     /* when it blocked */
    uint32_t       blk_msg;
    uint8_t        state, phase, blk_send;
    uint8_t        final;      /* its stream ended: in the runtime's wait for what is still open */
    uint8_t        join;       /* the pending send joins its connection's segment (SEND_JOINS) */
    double         after;      /* ... its call goes on this long after its data are written (SEND_ONEWAY) */
    double         end_comm;   /* ... its communication time when the stream ended (the timed interval's) */
    /* outstanding nonblocking requests: slot i holds request ord0 + i (posting
     * order, so WAITONE finds its request in O(1)); completed slots are
     * tombstones (m == NIL); live slots are [head, nout) */
    uint32_t       head, nout, capout, incomplete, blk_slot;
    outreq        *out;
    uint64_t       nissued, ord0;
} rstate;

/* Free order, many ranks: a rank's next instructions, decoded ahead (peek_one)
 * into its ring of PEEK at S->la + rank * PEEK: where they start, how many. */
typedef struct lapos {
    uint32_t head, n;
} lapos;

/* Per-rank state of the LogGOPS model (allocated only when the machine has one). */
typedef struct lgrank {
    double    link_free;   /* when its link can take the next message (nobus) */
    double    fetch_free;  /* until when it fetches a rendezvous's data (one at a time) */
    double    tok, tok_t;  /* its token bucket (nobus, shaped): tokens at time tok_t */
    double    itok, itok_t; /* star, shaped: the bucket of node (this index)'s way in */
    double    step_t0;     /* start of the request being completed (trace interval) */
    uint32_t  walk;        /* WAIT: the slot being completed */
    uint8_t   inrt, busy;  /* inside the runtime (blocked in a call); paying a cost (a wake is due) */
    uint32_t *stall, nstall, capstall; /* rendezvous and acknowledgements waiting for this rank to enter the
                                          runtime */
    uint32_t *fq, fqh, nfq, capfq; /* rendezvous ready while it fetched another: a queue from fq[fqh] */
    uint32_t *cold, ncold, capcold; /* eager messages that arrived while it computed (M_COLD) */
    uint32_t  nack;        /* acknowledgements (M_ACKED) that came and no wait took in yet */
    uint16_t  ack_tag;     /* ... each carries this in its record (pad); a wait that takes them in
                              moves on to the next (never 0) */
    /* its last buffered send ([crossing], oneway_ack_bytes): posted at cross_t to cross_dst, arriving
     * at cross_arr */
    int32_t   cross_dst;
    double    cross_t, cross_arr;
    /* its last message through the shaper (merge): to seg_dst, leaving the bucket at seg_dep */
    int32_t   seg_dst;
    double    seg_dep;
} lgrank;

/* A channel: its first record (NIL: empty slot) and the hash of its key. */
typedef struct chan {
    uint32_t head, h;
} chan;

typedef struct late_ev late_ev;

typedef struct sim {
    late_ev          *late;    /* events after their rank's timed interval, for the sheet (late_put) */
    size_t            nlate, caplate;
    const ps_streams *s;
    const ps_machine *m;
    ps_sim_opts       o;
    ps_sim_result    *r;
    int               P;
    rstate           *rk;
    msg              *pool;
    uint32_t          npool, cappool, nfree, capfree;
    uint32_t         *freestk;  /* free records, a stack (so taking one reads no cold record) */
    int               pool_fixed; /* pool: address space for every record, reserved at the start */
    struct pool_fill *fill;     /* ... its memory made ready ahead on another processor, or NULL */
    int               fill_off;   /* no helper could be started: none is asked for again */
    uint32_t          pf[64];   /* hashes of the last sends/receives decoded (prefetch pipeline) */
    uint32_t          npf, pfdist;
    int               peek;     /* free order, many ranks: instructions decoded ahead (peek_one) */
    uint32_t          pk[64];   /* ... the channels of the last sends/receives so decoded */
    uint32_t          npk;
    ps_insn          *la;       /* ... the ranks' rings of instructions decoded ahead */
    lapos            *lap;      /* ... and what each holds (apart from rstate, which time order reads) */
    uint64_t          alive;
    chan             *ch;
    size_t            chcap, chn;
    /* up to DENSE_MAX ranks: the channels of a (receiver, sender) pair are
     * one FIFO of both sides and every tag, its first record at dch[dst * P
     * + src] (no hash, no probe, no key to compare; a few MB) */
    uint32_t         *dch;
    ps_eventq         q;
    /* free order (the seed's model on a network without shared links): no
     * outcome depends on the order in which the ranks' steps are taken, so
     * they wait on a stack of ready ranks, not in a queue in time order */
    int               free_order;
    ps_qent          *ready;
    uint32_t          nready;
    double            tmax;     /* the latest time simulated (free order: the end of a deadlock) */
    /* free order checks the streams as it decodes them instead of in a pass of its own before
     * (ps_streams_validate), which it makes only if it met a bad instruction or did not run every
     * rank to its end: then the same first error in rank order, or the counts, come from there */
    int               bad;      /* it met one: the simulation stopped */
    double            flops;    /* the WORK flops it decoded (DATA_MOVE's bytes apart) */
    int               bus;
    int               bus_busy;
    int               star, nodes;  /* rank r on node r mod nodes; star: links per node */
    double            link_rate;    /* bytes/s of a node's link each way */
    double           *link_out, *link_in;  /* when each node's link is free again, each way */
    uint32_t          bus_head, bus_tail;
    double            send_lat, recv_lat;
    double            o_cons;   /* a construct call's own code before its first message call (LogGOPS) */
    /* LogGOPS (NULL lg: the seed's model) */
    const ps_loggops *lg;
    ps_loggops        lgc;      /* the model's, with --eager applied */
    ps_loggops_cost   base0;    /* its costs at its smallest size */
    lgrank           *lgr;
    int               rp, sp;   /* a rendezvous waits for the receiver / the sender to be in the runtime */
    int               cold;     /* some row's o_r_in is below its o_r: where a message arrives matters */
    int               cross;    /* a shaped bus whose model has [crossing]: messages that cross are priced (lg_crossing) */
    int               merge;    /* a shaped bus whose model has merged_bytes: a small message joins its connection's
                                   segment still in the shaper (lg_send_kind) */
    int               intra;    /* messages within a node have costs of their own ([pingpong_intra]) */
    double            lfin;     /* latency of a completion notice (rendezvous, acknowledgement) */
    double            bus_free, btok, btok_t;
    /* oneway_ack_bytes: bit src * P + dst set when dst has sent to src since src's last message to dst */
    uint8_t          *answered;
    double           *cp_end, *cp_prev;  /* per node: end of the latest copy, and of another rank's */
    int              *cp_rank;
    ps_trace         *tr;
    ps_sheet_acc     *sh;       /* the result sheet, built as events happen (no trace needed) */
    ps_sheet_feed    *feed;     /* ... on a thread of its own, or NULL (sheet_feed.h) */
    int               oom;
    char             *err;
    size_t            errlen;
} sim;

void ps_sim_defaults(ps_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->bus = -1;
    o->build_trace = 1;
    o->build_sheet = 1;
}

/* ---- the cost model ----------------------------------------------------- */

double ps_sim_transfer_time(const ps_machine *m, double bytes)
{
    if (m->npp >= 2) {
        /* probe's ping-pong gives the whole one-way time; the latencies are paid apart */
        double t = ps_machine_msg_time(m, bytes) - m->send_latency - m->recv_latency;
        return t > 0 ? t : 0;
    }
    return bytes / 8.0 * m->word_time;
}

static double last_level_cache(const ps_machine *m)
{
    double c = 0;
    for (int i = 0; i < 4; i++)
        if ((double)m->cache_bytes[i] > c) c = (double)m->cache_bytes[i];
    return c;
}

/* Seconds per flop of a kernel call of `flops` by the working set its flop
 * count implies (2n, 2n^2, 2n^3 flops on doubles): in-cache or out-of-cache
 * DAXPY rate; 0 when the construct implies none or the model lacks them. */
static double ws_flop_time(const ps_machine *m, int construct, double flops)
{
    double ws = 0;
    if (construct == PS_C_SCALPROD) ws = 8.0 * flops;                 /* x, y: 16 n bytes */
    else if (construct == PS_C_MATVECPROD) ws = 4.0 * flops;          /* A: 8 n^2 bytes */
    else if (construct == PS_C_MATPROD) ws = 24.0 * pow(flops / 2.0, 2.0 / 3.0); /* A, B, C */
    double cache = last_level_cache(m);
    if (construct == PS_C_DATA_MOVE) {
        /* a copy of n bytes reads n and writes n.  DAXPY moves 24 bytes per 2 flops (STREAM's
         * count, McCalpin), so the probe's DAXPY rate r gives 12 r bytes/s of memory traffic:
         * 2n / 12r seconds, at the in-cache rate while source and destination fit the cache */
        if (!(m->r_incache > 0 && m->r_outcache > 0)) return 0;
        return 1.0 / (6.0 * (cache > 0 && 2.0 * flops <= cache ? m->r_incache : m->r_outcache));
    }
    if (ws > 0 && cache > 0 && m->r_incache > 0 && m->r_outcache > 0)
        return 1.0 / (ws <= cache ? m->r_incache : m->r_outcache);
    return 0;
}

double ps_sim_work_time(const ps_machine *m, const ps_sim_opts *o, int construct, double flops)
{
    if (flops <= 0) return 0;
    if (o && construct >= 0 && construct < o->nconstruct_flop_time && o->construct_flop_time[construct] > 0) {
        double p = o->construct_flop_time[construct];
        /* measured at another working set: the kernel's own price, moved by the
         * machine's in-cache / out-of-cache ratio when the call crosses the cache
         * (the estimator seed's memory hierarchy without extra parameters) */
        double ref = o->construct_flops_per_call ? o->construct_flops_per_call[construct] : 0;
        double now = ws_flop_time(m, construct, flops), then = ref > 0 ? ws_flop_time(m, construct, ref) : 0;
        if (now > 0 && then > 0) p *= now / then;
        return flops * p;
    }
    if (construct == PS_C_WORK && o && o->work_flop_time > 0) return flops * o->work_flop_time;
    double w = ws_flop_time(m, construct, flops);
    /* bytes moved are no flops: without a memory rate they are not priced (the result counts them) */
    if (construct == PS_C_DATA_MOVE) return flops * w;
    return w > 0 ? flops * w : flops * m->flop_time;
}

/* ---- message pool ------------------------------------------------------- */

static void fill_stop(sim *S);

/* Frees the simulator's own state (not the result). */
static void sim_free(sim *S)
{
    if (S->rk)
        for (int i = 0; i < S->P; i++) free(S->rk[i].out);
    if (S->lgr)
        for (int i = 0; i < S->P; i++) {
            free(S->lgr[i].stall);
            free(S->lgr[i].fq);
            free(S->lgr[i].cold);
        }
    free(S->lgr);
    free(S->late);
    free(S->answered);
    free(S->cp_end);
    free(S->cp_prev);
    free(S->cp_rank);
    free(S->rk);
    fill_stop(S);
    if (S->pool) munmap(S->pool, (size_t)S->cappool * sizeof *S->pool);
    ps_sheet_feed_stop(S->feed);
    ps_sheet_acc_free(S->sh);
    free(S->freestk);
    if (S->ch) munmap(S->ch, S->chcap * sizeof *S->ch);
    if (S->dch) munmap(S->dch, (size_t)S->P * (size_t)S->P * sizeof *S->dch);
    free(S->link_out);
    free(S->link_in);
    ps_eventq_free(&S->q);
    free(S->ready);
    free(S->la);
    free(S->lap);
}

/* ---- the message pool's memory ------------------------------------------
 * A million records in flight are 64 MB, and memory a process touches for
 * the first time costs its page faults and the zeroing of each page (on the
 * VMs here 0.1 to 1.7 ms a megabyte, docs/BENCHMARKS.md): a twentieth of a
 * 1024-rank simulation's time went there.  So the pool's address space is
 * reserved whole at the start (no record ever moves) and, once the pool has
 * grown past FILL_START records, a helper thread on the second processor
 * faults its pages in (MADV_POPULATE_WRITE, Linux 5.14) FILL_AHEAD records
 * ahead of the last one taken: the simulation finds them ready. */
enum { FILL_START = 1 << 15, FILL_STEP = 1 << 15, FILL_AHEAD = 1 << 17 };

typedef struct pool_fill {
    pthread_t       th;
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    char           *base;
    size_t          want, done, cap;   /* bytes from base: asked for, made ready, reserved */
    int             stop;
} pool_fill;

static void *fill_main(void *arg)
{
    pool_fill *f = arg;
    const size_t step = (size_t)2 << 20;   /* a huge page at a time: the address space's lock is let go between */
    pthread_mutex_lock(&f->mu);
    for (;;) {
        while (!f->stop && f->done >= f->want) pthread_cond_wait(&f->cv, &f->mu);
        if (f->stop) break;
        size_t a = f->done, b = f->want < f->cap ? f->want : f->cap;
        pthread_mutex_unlock(&f->mu);
        int ok = 1;
        for (size_t x = a; x < b && ok; x += step) {
            int rc = -1;
            /* interrupted, or a resource busy for the moment: again, a few times */
            for (int k = 0; k < 8 && rc != 0; k++) {
                rc = madvise(f->base + x, b - x < step ? b - x : step, MADV_POPULATE_WRITE);
                if (rc != 0 && errno != EINTR && errno != EAGAIN) break;
            }
            ok = rc == 0;
        }
        pthread_mutex_lock(&f->mu);
        f->done = ok ? b : f->cap;   /* no such advice: the simulation faults its pages in itself */
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* The pool's records up to n (plus FILL_AHEAD) are to be made ready. */
static void fill_ask(sim *S, uint32_t n)
{
    if (!S->fill) {
        if (!S->pool_fixed || S->fill_off || n < FILL_START) return;
        pool_fill *f = ps_cpus_usable() > 1 ? calloc(1, sizeof *f) : NULL;
        if (!f) {   /* one processor: the simulation's own faults cost no more than a helper's */
            S->fill_off = 1;
            return;
        }
        f->base = (char *)S->pool;
        f->cap = (size_t)S->cappool * sizeof *S->pool;
        f->done = (size_t)n * sizeof *S->pool;   /* what the simulation touched already */
        pthread_mutex_init(&f->mu, NULL);
        pthread_cond_init(&f->cv, NULL);
        if (ps_thread_start(&f->th, fill_main, f)) {
            pthread_mutex_destroy(&f->mu);
            pthread_cond_destroy(&f->cv);
            free(f);
            S->fill_off = 1;
            return;
        }
        S->fill = f;
    }
    pthread_mutex_lock(&S->fill->mu);
    S->fill->want = ((size_t)n + FILL_AHEAD) * sizeof *S->pool;
    pthread_cond_signal(&S->fill->cv);
    pthread_mutex_unlock(&S->fill->mu);
}

static void fill_stop(sim *S)
{
    pool_fill *f = S->fill;
    if (!f) return;
    pthread_mutex_lock(&f->mu);
    f->stop = 1;
    pthread_cond_signal(&f->cv);
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->th, NULL);
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->cv);
    free(f);
    S->fill = NULL;
}

/* Reserves the address space of every record the pool can hold (NIL - 1,
 * 256 GB, committed only where touched); where it cannot be had (a limit
 * on the address space) the pool grows by doubling instead, moved by
 * mremap. */
static void pool_reserve(sim *S)
{
    size_t bytes = (size_t)(NIL - 1) * sizeof *S->pool;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return;
    madvise(p, bytes, MADV_HUGEPAGE);
    S->pool = p;
    S->cappool = NIL - 1;
    S->pool_fixed = 1;
}

static uint32_t msg_new(sim *S)
{
    uint32_t i;
    if (S->nfree) {
        i = S->freestk[--S->nfree];
        if (S->nfree) __builtin_prefetch(&S->pool[S->freestk[S->nfree - 1]], 1);
    } else {
        if (S->npool == S->capfree) {
            /* the free stack holds at most every record taken so far */
            uint32_t nc = S->capfree ? (S->capfree < NIL / 2 ? S->capfree * 2 : NIL - 1) : 1024;
            uint32_t *nf = nc > S->capfree ? realloc(S->freestk, (size_t)nc * sizeof *nf) : NULL;
            if (!nf) {
                S->oom = 1;
                return NIL;
            }
            S->freestk = nf;
            S->capfree = nc;
        }
        if (S->npool == S->cappool) {
            /* records stay aligned to cache lines; indices below NIL */
            uint32_t nc = S->cappool ? (S->cappool < NIL / 2 ? S->cappool * 2 : NIL - 1) : 1024;
            /* mapped pages, grown in place by mremap: page aligned, and no old and
             * new pool side by side (a million records in flight are 64 MB) */
            msg *np = NULL;
            if (nc > S->cappool) np = ps_remap_huge(S->pool, (size_t)S->cappool * sizeof *np, (size_t)nc * sizeof *np);
            if (!np) {
                S->oom = 1;
                return NIL;
            }
            S->pool = np;
            S->cappool = nc;
        }
        i = S->npool++;
        if (!(i & (FILL_STEP - 1))) fill_ask(S, i);
    }
    memset(&S->pool[i], 0, sizeof S->pool[i]);
    S->pool[i].next = NIL;
    S->pool[i].flags = 2 * M_REF;
    if (++S->alive > S->r->peak_in_flight) S->r->peak_in_flight = S->alive;
    return i;
}

static void msg_release(sim *S, uint32_t i)
{
    PS_ASSERT(S->pool[i].flags & M_REFS);   /* released once by each side */
    S->pool[i].flags = (uint16_t)(S->pool[i].flags - M_REF);
    if (!(S->pool[i].flags & M_REFS)) {
        S->freestk[S->nfree++] = i;
        S->alive--;
    }
}

/* ---- channels: (dst, src, tag) -> FIFO, linear probing ------------------- */

static inline uint32_t ch_hash(int32_t dst, int32_t src, int32_t tag)
{
    uint64_t h = (uint64_t)(uint32_t)dst * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)src * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)(uint32_t)tag * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return (uint32_t)(h >> 32);
}

static inline void ch_prefetch(const sim *S, uint32_t h)
{
    __builtin_prefetch(&S->ch[h & (S->chcap - 1)], 1);
}

static int ch_grow(sim *S)
{
    if (S->chcap >= ((size_t)1 << 32)) return -1;   /* the hash gives 32 bits of home */
    size_t nc = S->chcap * 2;
    chan *n = ps_map_huge(nc * sizeof *n);
    if (!n) return -1;
    for (size_t i = 0; i < nc; i++) n[i].head = NIL;
    for (size_t i = 0; i < S->chcap; i++) {
        if (S->ch[i].head == NIL) continue;
        size_t j = S->ch[i].h & (nc - 1);
        while (n[j].head != NIL) j = (j + 1) & (nc - 1);
        n[j] = S->ch[i];
    }
    munmap(S->ch, S->chcap * sizeof *S->ch);
    S->ch = n;
    S->chcap = nc;
    return 0;
}

/* Finds the channel's slot, or the empty slot where it would go. */
static inline size_t ch_find(sim *S, uint32_t h, int32_t dst, int32_t src, int32_t tag)
{
    size_t mask = S->chcap - 1, i = h & mask;
    for (;; i = (i + 1) & mask) {
        const chan *c = &S->ch[i];
        if (c->head == NIL) return i;
        if (c->h == h) {
            const msg *m = &S->pool[c->head];
            if (m->dst == dst && m->src == src && m->tag == tag) return i;
        }
    }
}

/* Backward-shift deletion keeps probe sequences intact without tombstones. */
static void ch_delete(sim *S, size_t i)
{
    size_t mask = S->chcap - 1, j = i;
    S->ch[i].head = NIL;
    for (;;) {
        j = (j + 1) & mask;
        if (S->ch[j].head == NIL) break;
        size_t k = S->ch[j].h & mask;
        /* move j back to i if k is not cyclically in (i, j] */
        if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
            S->ch[i] = S->ch[j];
            S->ch[j].head = NIL;
            i = j;
        }
    }
    S->chn--;
}

/* A new record for a side posted on (dst, src, tag), not yet in a FIFO;
 * NIL on out of memory. */
static uint32_t msg_posted(sim *S, int32_t dst, int32_t src, int32_t tag, int is_send)
{
    uint32_t m = msg_new(S);
    if (m == NIL) return NIL;
    msg *n = &S->pool[m];
    n->src = src;
    n->dst = dst;
    n->tag = tag;
    n->flags |= is_send ? M_SPOSTED : M_RPOSTED;
    return m;
}

/* Record m joins the end of the FIFO whose first record is head. */
static void fifo_append(sim *S, uint32_t head, uint32_t m)
{
    msg *f = &S->pool[head];
    S->pool[f->tail].next = m;
    f->tail = m;
}

/* An empty table of 1024 channels. */
static int ch_init(sim *S)
{
    S->chcap = 1024;
    S->chn = 0;
    S->ch = ps_map_huge(S->chcap * sizeof *S->ch);
    if (!S->ch) return -1;
    for (size_t i = 0; i < S->chcap; i++) S->ch[i].head = NIL;
    return 0;
}

/* Record m opens channel (its dst, src, tag; hash h) in the empty slot *i
 * that ch_find gave, growing the table first when it is half full (*i is
 * then found again).  Nonzero when the table could not grow. */
static int ch_open(sim *S, size_t *i, uint32_t h, uint32_t m)
{
    msg *n = &S->pool[m];
    if ((S->chn + 1) * 2 > S->chcap) {
        if (ch_grow(S)) return -1;
        *i = ch_find(S, h, n->dst, n->src, n->tag);
    }
    n->tail = m;
    S->ch[*i].head = m;
    S->ch[*i].h = h;
    S->chn++;
    return 0;
}

/* A side (send or receive) of a message is posted on channel (dst, src,
 * tag), whose hash is h: takes the oldest unmatched record of the other side
 * if there is one, else queues a new record.  Returns the record, NIL on out
 * of memory. */
static uint32_t ch_post(sim *S, uint32_t h, int32_t dst, int32_t src, int32_t tag, int is_send)
{
    size_t i = ch_find(S, h, dst, src, tag);
    uint32_t head = S->ch[i].head;
    if (head != NIL) {
        msg *f = &S->pool[head];
        PS_ASSERT(f->dst == dst && f->src == src && f->tag == tag);
        /* the FIFO holds unmatched sends or unmatched receives, never both */
        PS_ASSERT(!!(S->pool[f->tail].flags & M_SPOSTED) == !!(f->flags & M_SPOSTED));
        if (!!(f->flags & M_SPOSTED) != is_send) {
            uint32_t next = f->next;
            f->next = NIL;
            if (next == NIL) {
                ch_delete(S, i);
            } else {
                S->ch[i].head = next;
                S->pool[next].tail = f->tail;
            }
            return head;
        }
    }
    uint32_t m = msg_posted(S, dst, src, tag, is_send);
    if (m == NIL) return NIL;
    if (head != NIL) {
        fifo_append(S, head, m);
    } else if (ch_open(S, &i, h, m)) {
        S->oom = 1;
        return NIL;
    }
    return m;
}

/* The dense index: a side posted on pair key k = dst * P + src takes the
 * first record of its tag there if it is of the other side (records of one
 * tag are all sends or all receives), else queues a new record at the end.
 * The first record's tail is the last. */
enum { DENSE_MAX = 1024, DENSE_WALK = 64 };

/* The channel key of a side: the hash of (dst, src, tag), or the dense pair index. */
static inline uint32_t ch_key(const sim *S, int32_t dst, int32_t src, int32_t tag)
{
    return S->dch ? (uint32_t)dst * (uint32_t)S->P + (uint32_t)src : ch_hash(dst, src, tag);
}

/* The channel key of rank's send or receive instruction in. */
static inline uint32_t pend_key(const sim *S, int rank, const ps_insn *in)
{
    int is_send = in->op == PS_OP_SEND || in->op == PS_OP_BSEND;
    return is_send ? ch_key(S, in->peer, rank, in->tag) : ch_key(S, rank, in->peer, in->tag);
}

/* Moves every pending record from the pair index to the hash table of
 * (dst, src, tag), each tag's records in their order, and rekeys the posts
 * in flight.  Taken when a pair's FIFO grows long with other tags (many
 * tags pending between two ranks), where the walk would make matching
 * quadratic. */
static int dch_to_hash(sim *S)
{
    size_t n = (size_t)S->P * (size_t)S->P;
    if (ch_init(S)) return -1;
    for (size_t k = 0; k < n; k++)
        for (uint32_t i = S->dch[k], next; i != NIL; i = next) {
            msg *m = &S->pool[i];
            next = m->next;
            m->next = NIL;
            uint32_t h = ch_hash(m->dst, m->src, m->tag);
            size_t j = ch_find(S, h, m->dst, m->src, m->tag);
            if (S->ch[j].head != NIL) fifo_append(S, S->ch[j].head, i);
            else if (ch_open(S, &j, h, i)) return -1;
        }
    munmap(S->dch, n * sizeof *S->dch);
    S->dch = NULL;
    for (int r = 0; r < S->P; r++) S->rk[r].pend_h = pend_key(S, r, &S->rk[r].pend);
    return 0;
}

static uint32_t dch_post(sim *S, uint32_t k, int32_t dst, int32_t src, int32_t tag, int is_send)
{
    uint32_t head = S->dch[k], prev = NIL;
    int walked = 0;
    for (uint32_t i = head; i != NIL; prev = i, i = S->pool[i].next) {
        msg *f = &S->pool[i];
        if (f->tag != tag) {
            if (++walked < DENSE_WALK) continue;
            if (dch_to_hash(S)) {
                S->oom = 1;
                return NIL;
            }
            return ch_post(S, ch_hash(dst, src, tag), dst, src, tag, is_send);
        }
        if (!!(f->flags & M_SPOSTED) == is_send) break;   /* same side: queue behind it */
        uint32_t next = f->next;
        if (prev == NIL) {
            S->dch[k] = next;
            if (next != NIL) S->pool[next].tail = f->tail;
        } else {
            S->pool[prev].next = next;
            if (next == NIL) S->pool[head].tail = prev;
        }
        f->next = NIL;
        return i;
    }
    uint32_t m = msg_posted(S, dst, src, tag, is_send);
    if (m == NIL) return NIL;
    if (head != NIL) {
        fifo_append(S, head, m);
    } else {
        S->pool[m].tail = m;
        S->dch[k] = m;
    }
    return m;
}


/* The first record of a key's channel (NIL: none). */
static inline uint32_t ch_head(const sim *S, uint32_t key)
{
    return S->dch ? S->dch[key] : S->ch[key & (S->chcap - 1)].head;
}

/* The next event will touch a message record: start loading it now.  (The
 * channel's slot was prefetched when the instruction was decoded.) */
static inline void prefetch_event(const sim *S, const ps_qent *e)
{
    if (e->kind != EV_STEP) {
        __builtin_prefetch(&S->pool[e->id], 1);
        return;
    }
    const rstate *R = &S->rk[e->id];
    if (R->phase == PH_POST) {
        uint32_t head = ch_head(S, R->pend_h);
        if (head != NIL) __builtin_prefetch(&S->pool[head], 1);
    } else if (R->phase == PH_WAKE && R->blk_msg != NIL && R->blk_msg < S->npool) {
        __builtin_prefetch(&S->pool[R->blk_msg], 0);
    }
}

/* The lanes hold the coming events in time order: a few places on in a
 * lane (more pops than that, the heap and the other lanes between), those
 * of the ranks stepping next.  Their rank records (AHEAD_RANK places on),
 * then a post's channel slot the record names (AHEAD_SLOT: the slot
 * prefetched at the decode, a latency before, is out of the near caches by
 * the post), then the instructions and messages those point at (AHEAD), are
 * fetched early enough for memory to answer (one event ahead, as
 * prefetch_event does, is not).  Each stage reads only what the one before
 * fetched.  4, 8 and 12 were faster than 4 and 8 without the slot's stage,
 * or 4, 10 and 16, on fingerprint at 1024 ranks (docs/BENCHMARKS.md). */
enum { AHEAD = 4, AHEAD_SLOT = 8, AHEAD_RANK = 12 };

static inline void prefetch_lanes(const sim *S)
{
    for (int L = LANE_WAKE; L <= LANE_POST; L++) {
        const ps_lane *l = &S->q.lane[L];
        if (l->n > AHEAD_RANK) {
            uint32_t id = l->b[(l->head + AHEAD_RANK) & (l->cap - 1)].id;
            __builtin_prefetch(&S->rk[id]);
            __builtin_prefetch(&S->r->rank[id], 1);
        }
        if (L == LANE_POST && S->dch && l->n > AHEAD_SLOT) {
            const rstate *R = &S->rk[l->b[(l->head + AHEAD_SLOT) & (l->cap - 1)].id];
            if (R->phase == PH_POST) __builtin_prefetch(&S->dch[R->pend_h]);
        }
        if (l->n > AHEAD) {
            const ps_qent *e = &l->b[(l->head + AHEAD) & (l->cap - 1)];
            __builtin_prefetch(S->rk[e->id].pc);
            prefetch_event(S, e);
        }
    }
    const ps_lane *l = &S->q.lane[LANE_TXEND];
    if (l->n > AHEAD) prefetch_event(S, &l->b[(l->head + AHEAD) & (l->cap - 1)]);
}

/* In free order a rank mostly runs on until it needs a message not yet sent,
 * so its next sends and receives are the next it posts: its instructions
 * are decoded PEEK ahead (a ring per rank), and as each is decoded a send's
 * or receive's channel slot is fetched, then, PEEK_RECORD such decodes
 * later, the record that slot names (which a post reads: mostly a message
 * another rank made long before). */
enum { PEEK = 16, PEEK_RECORD = 8 };
enum { OP_UNDECODED = 0 };   /* (no instruction's op) */

/* Decodes the rank's next instruction (pc < end); what is not one is
 * OP_UNDECODED and the rank's last (free order stops at it: insn_ok). */
static inline void decode_next(rstate *R, ps_insn *in)
{
    const uint8_t *pc = ps_insn_decode(&R->ctx, R->pc, R->end, in);
    if (!pc) in->op = OP_UNDECODED;
    R->pc = pc ? pc : R->end;
}

/* Decodes the rank's next instruction into its ring (pc < end). */
static inline void peek_one(sim *S, int rank, rstate *R, lapos *L)
{
    ps_insn *in = &S->la[(size_t)rank * PEEK + ((L->head + L->n++) & (PEEK - 1))];
    decode_next(R, in);
    if (in->op != PS_OP_SEND && in->op != PS_OP_BSEND && in->op != PS_OP_RECV && in->op != PS_OP_BRECV) return;
    if ((uint32_t)in->peer >= (uint32_t)S->P) return;   /* (no rank: exec stops at it, no channel to fetch) */
    uint32_t key = pend_key(S, rank, in);
    if (S->dch) __builtin_prefetch(&S->dch[key]);
    else ch_prefetch(S, key);
    uint32_t k = S->npk++ & 63;
    S->pk[k] = key;
    if (S->npk > PEEK_RECORD) {
        uint32_t head = ch_head(S, S->pk[(k - PEEK_RECORD) & 63]);
        if (head != NIL) __builtin_prefetch(&S->pool[head], 1);
    }
}

/* The rank's next instruction (some left: la_n or pc < end), its ring kept full. */
static inline void peek_next(sim *S, int rank, rstate *R, ps_insn *in)
{
    lapos *L = &S->lap[rank];
    while (L->n < PEEK && R->pc < R->end) peek_one(S, rank, R, L);
    *in = S->la[(size_t)rank * PEEK + L->head];
    L->head = (L->head + 1) & (PEEK - 1);
    L->n--;
}

/* ---- trace -------------------------------------------------------------- */

/* An event after its rank's timed interval, kept for the sheet until every
 * rank's interval is known (ps_simulate gives them to it then). */
typedef struct late_ev {
    ps_event e;
    double   sent0;
    int      rank;
} late_ev;

static void late_put(sim *S, int rank, const ps_event *e, double sent0)
{
    if (S->nlate == S->caplate) {
        size_t nc = S->caplate ? 2 * S->caplate : 16;
        late_ev *n = realloc(S->late, nc * sizeof *n);
        if (!n) {
            S->oom = 1;
            return;
        }
        S->late = n;
        S->caplate = nc;
    }
    S->late[S->nlate++] = (late_ev){*e, sent0, rank};
}

/* aux: a nonblocking operation's request id (its issue number + 1), else 0 */
/* An event to the trace and the sheet; sent0: a receive's send's start. */
static void tr_put(sim *S, int rank, const ps_event *e, double sent0)
{
    if (S->tr && ps_trace_push(S->tr, rank, e)) S->oom = 1;
    if (S->sh && S->rk[rank].final) {
        late_put(S, rank, e, sent0);
        return;
    }
    if (S->sh && (S->feed ? ps_sheet_feed_event(S->feed, rank, e, sent0) : ps_sheet_acc_event(S->sh, rank, e, sent0)))
        S->oom = 1;
}

static void tr_event(sim *S, int rank, uint8_t kind, int construct, double t0, double t1, int peer, int tag,
                     uint64_t bytes, uint8_t flags, uint32_t aux)
{
    PS_ASSERT(kind != PS_EV_RECV);   /* tr_recv: the sheet needs its send */
    if (!S->tr && !S->sh) return;
    ps_event e = {.t0 = t0, .t1 = t1, .bytes = bytes, .peer = peer, .tag = tag,
                  .construct = (uint16_t)construct, .kind = kind,
                  .flags = (uint8_t)(flags | PS_EVF_ESTIMATED), .aux = aux};
    tr_put(S, rank, &e, NAN);
}

/* The receive of message record mi. */
static void tr_recv(sim *S, int rank, int construct, double t0, double t1, uint32_t mi, uint8_t flags, uint32_t aux)
{
    if (!S->tr && !S->sh) return;
    const msg *m = &S->pool[mi];
    PS_ASSERT(m->flags & M_SPOSTED);   /* so sent0 holds the send's start */
    ps_event e = {.t0 = t0, .t1 = t1, .bytes = m->bytes, .peer = m->src, .tag = m->tag,
                  .construct = (uint16_t)construct, .kind = PS_EV_RECV,
                  .flags = (uint8_t)(flags | PS_EVF_ESTIMATED), .aux = aux};
    tr_put(S, rank, &e, m->sent0);
}

/* ---- scheduling ------------------------------------------------------------- */

static inline void schedule_step(sim *S, int rank, double t, int phase)
{
    S->rk[rank].phase = (uint8_t)phase;
    if (S->free_order) {
        /* a rank is on the stack at most once: it is scheduled only when it runs */
        PS_ASSERT(S->nready < (uint32_t)S->P);
        S->ready[S->nready++] = (ps_qent){.t = t, .id = (uint32_t)rank, .kind = EV_STEP};
        return;
    }
    /* posts come a latency after now and wakes at now: in time order, so in lanes */
    int rc = phase == PH_WAKE ? ps_eventq_push_lane(&S->q, LANE_WAKE, t, (uint32_t)rank, EV_STEP)
             : phase == PH_POST && S->send_lat == S->recv_lat
                 ? ps_eventq_push_lane(&S->q, LANE_POST, t, (uint32_t)rank, EV_STEP)
                 : ps_eventq_push(&S->q, t, (uint32_t)rank, EV_STEP);
    if (rc) S->oom = 1;
}

static void tx_end(sim *S, uint32_t mi, double t);
static void complete_side(sim *S, uint32_t mi, int is_send, double t);

/* On a star network a message between nodes waits until both its links,
 * the sender node's way out and the receiver node's way in, are free, and
 * then holds them for bytes / link_rate (first come, first served: events
 * come in time order); it arrives its transfer time after it could start. */
static void start_tx(sim *S, uint32_t mi, double t)
{
    msg *m = &S->pool[mi];
    double tx, self = m->src == m->dst ? ps_machine_self_time(S->m, (double)m->bytes) : -1;
    if (self >= 0) {
        /* to the rank itself: the model's whole figure, a copy stretched as the rank's other costs
         * are, latencies (stretched already) paid apart */
        tx = self * S->r->stretch - S->send_lat - S->recv_lat;
        if (tx < 0) tx = 0;
    } else if (S->nodes > 1 && S->m->npp_intra >= 2 && m->src % S->nodes == m->dst % S->nodes) {
        /* within a node: the model's ping-pong there, latencies paid apart */
        tx = ps_machine_msg_time_intra(S->m, (double)m->bytes) - S->m->send_latency - S->m->recv_latency;
        if (tx < 0) tx = 0;
    } else {
        tx = ps_sim_transfer_time(S->m, (double)m->bytes);
    }
    if (S->star) {
        int a = m->src % S->nodes, b = m->dst % S->nodes;
        if (a != b) {
            if (S->link_out[a] > t) t = S->link_out[a];
            if (S->link_in[b] > t) t = S->link_in[b];
            S->link_out[a] = S->link_in[b] = t + (double)m->bytes / S->link_rate;
        }
    }
    m->t_start = t;
    if (S->free_order) {
        /* nothing can delay it: it ends now, at its own time */
        S->r->events++;
        if (t + tx > S->tmax) S->tmax = t + tx;
        tx_end(S, mi, t + tx);
        return;
    }
    if (ps_eventq_push_lane(&S->q, LANE_TXEND, t + tx, mi, EV_TXEND)) S->oom = 1;
}

/* A message is transmitted once its send is posted and either its receive
 * is posted or it is small enough to be buffered; on a bus, one at a time.
 * Until then t_start holds when the send was posted and t_rdone when the
 * receive was (classic_post): it starts at the later of the two (in free
 * order the side posted last need not be the later one). */
static void try_start(sim *S, uint32_t mi)
{
    msg *m = &S->pool[mi];
    if ((m->flags & (M_STARTED | M_SPOSTED)) != M_SPOSTED) return;
    if (!(m->flags & (M_RPOSTED | M_EAGER))) return;
    int self = m->src == m->dst;
    if (self && !(m->flags & M_RPOSTED)) {
        /* buffered, to the rank itself: the send is complete, the copy waits for the receive */
        if (!(m->flags & M_SDONE)) complete_side(S, mi, 1, m->t_start);
        return;
    }
    double t = m->t_start;
    if ((!(m->flags & M_EAGER) || self) && m->t_rdone > t) t = m->t_rdone;
    m->flags |= M_STARTED;
    if (S->bus && m->src != m->dst) {   /* (a message to the rank itself takes no network) */
        if (S->bus_busy) {
            m->flags |= M_QUEUED;
            m->next = NIL;
            if (S->bus_tail == NIL) S->bus_head = mi;
            else S->pool[S->bus_tail].next = mi;
            S->bus_tail = mi;
            return;
        }
        S->bus_busy = 1;
    }
    start_tx(S, mi, t);
}

static void complete_side(sim *S, uint32_t mi, int is_send, double t)
{
    msg *m = &S->pool[mi];
    int rank = is_send ? m->src : m->dst;
    rstate *R = &S->rk[rank];
    if (is_send) {
        m->flags |= M_SDONE;
        m->t_sdone = t;
    } else {
        m->flags |= M_RDONE;
        m->t_rdone = t;
    }
    if (m->flags & (is_send ? M_SBLOCK : M_RBLOCK)) {
        if (R->state == ST_BLK_MSG) {
            R->state = ST_RUN;
            schedule_step(S, rank, t, PH_WAKE);
        }
        return;
    }
    R->incomplete--;
    if ((R->state == ST_BLK_ALL && R->incomplete == 0) ||
        (R->state == ST_BLK_ONE && R->blk_msg == mi && R->blk_send == is_send)) {
        R->state = ST_RUN;
        schedule_step(S, rank, t, PH_WAKE);
    }
}

static void tx_end(sim *S, uint32_t mi, double t)
{
    msg *m = &S->pool[mi];
    if (S->bus && m->src != m->dst) {
        S->bus_busy = 0;
        if (S->bus_head != NIL) {
            uint32_t n = S->bus_head;
            S->bus_head = S->pool[n].next;
            if (S->bus_head == NIL) S->bus_tail = NIL;
            S->pool[n].next = NIL;
            S->pool[n].flags &= (uint16_t)~M_QUEUED;
            S->bus_busy = 1;
            start_tx(S, n, t);
        }
    }
    m = &S->pool[mi];
    m->flags |= M_ARRIVED;
    if (!(m->flags & M_SDONE)) complete_side(S, mi, 1, t);   /* (a buffered send to the rank itself completed) */
    /* (in free order a buffered message can arrive before its receive is posted) */
    if (m->flags & M_RPOSTED) complete_side(S, mi, 0, m->t_rdone > t ? m->t_rdone : t);
}

/* Splits a blocked interval [tb, t] into communication (the message of
 * interest on the wire) and waiting (for a partner). */
static void account_block(sim *S, int rank, double tb, double t, double t_start)
{
    ps_sim_rank *a = &S->r->rank[rank];
    double blocked = t - tb;
    if (blocked <= 0) return;
    double c = t - (t_start > tb ? t_start : tb);
    if (c < 0) c = 0;
    if (c > blocked) c = blocked;
    a->comm += c;
    a->wait += blocked - c;
}

/* Ends a blocking send or receive at time t. */
static void finish_blocking(sim *S, int rank, uint32_t mi, int is_send, double t)
{
    rstate *R = &S->rk[rank];
    msg *m = &S->pool[mi];
    if (is_send)
        tr_event(S, rank, PS_EV_SEND, R->pend.construct, R->op_t0, t, m->dst, m->tag, m->bytes, 0, 0);
    else
        tr_recv(S, rank, R->pend.construct, R->op_t0, t, mi, 0, 0);
    account_block(S, rank, R->blk_t0, t, (m->flags & M_STARTED) ? m->t_start : t);
    msg_release(S, mi);
}

/* A wait reads the records of its requests, which completed long before and
 * are out of cache: as it takes slot k (of those below end) it fetches the
 * record of the request WAIT_AHEAD slots on (waits mostly come in posting
 * order). */
enum { WAIT_AHEAD = 4 };

static inline void prefetch_wait_record(const sim *S, const rstate *R, uint32_t k, uint32_t end)
{
    if (k + WAIT_AHEAD < end && R->out[k + WAIT_AHEAD].m != NIL) __builtin_prefetch(&S->pool[R->out[k + WAIT_AHEAD].m]);
}

/* Ends a wait for the outstanding requests in slots k0..k1-1 (posting
 * order; tombstones skipped), blocked since tb, once the last completed
 * (t: when it was known to; in free order a request learnt of last can have
 * completed earlier than another); all: a wait for every one.  Returns when
 * the wait ends. */
static double finish_wait(sim *S, int rank, uint32_t k0, uint32_t k1, double tb, double t, int all)
{
    uint8_t fl = (uint8_t)(PS_EVF_NONBLOCKING | (all ? PS_EVF_WAITALL : 0));
    rstate *R = &S->rk[rank];
    double prev = tb, last_done = -1, last_start = t;
    for (uint32_t k = k0; k < k1; k++) {
        outreq *o = &R->out[k];
        prefetch_wait_record(S, R, k, k1);
        if (o->m == NIL) continue;
        msg *m = &S->pool[o->m];
        double done = o->is_send ? m->t_sdone : m->t_rdone;
        double e = done > prev ? done : prev;
        /* named after the posting call's construct, as the runtime records a completion */
        if (o->is_send)
            tr_event(S, rank, PS_EV_WAIT, o->construct, prev, e, m->dst, m->tag, m->bytes, fl, (uint32_t)(R->ord0 + k + 1));
        else
            tr_recv(S, rank, o->construct, prev, e, o->m, fl, (uint32_t)(R->ord0 + k + 1));
        prev = e;
        if (done > last_done) {
            last_done = done;
            last_start = (m->flags & M_STARTED) ? m->t_start : done;
        }
        msg_release(S, o->m);
        o->m = NIL;
    }
    if (S->free_order) {
        t = prev;
        if (t > S->tmax) S->tmax = t;
    }
    account_block(S, rank, tb, t, last_start);
    while (R->head < R->nout && R->out[R->head].m == NIL) R->head++;
    if (R->head == R->nout) {
        R->head = R->nout = 0;
        R->ord0 = R->nissued;
    }
    return t;
}

static int out_push(sim *S, rstate *R, uint32_t mi, int is_send, int construct)
{
    if (R->nout == R->capout && R->head > R->nout / 2) {
        /* drop the completed prefix: amortized O(1) */
        memmove(R->out, R->out + R->head, (size_t)(R->nout - R->head) * sizeof *R->out);
        R->nout -= R->head;
        R->ord0 += R->head;
        R->head = 0;
    }
    if (R->nout == R->capout) {
        uint32_t nc = R->capout ? R->capout * 2 : 8;
        outreq *n = realloc(R->out, (size_t)nc * sizeof *n);
        if (!n) {
            S->oom = 1;
            return -1;
        }
        R->out = n;
        R->capout = nc;
    }
    if (R->nout == 0) R->ord0 = R->nissued;
    PS_ASSERT(R->ord0 + R->nout == R->nissued);
    R->out[R->nout++] = (outreq){mi, (uint16_t)is_send, (uint16_t)construct};
    R->nissued++;
    R->incomplete++;
    return 0;
}

static void exec(sim *S, int rank, double t);

/* ---- LogGOPS ---------------------------------------------------------------
 * When the machine has a [loggops] section (probe measured it with the
 * runtime's own calls), messages follow LogGOPS (Hoefler et al., LogGOPSim):
 *   - a send costs its rank os(n) of CPU; a message up to S then leaves on the
 *     sender's link (the network, on a bus) no sooner than gap(n) after the
 *     previous one and after the token bucket of a shaped link lets it, and
 *     reaches its receiver L(n) later; its send is complete at once;
 *   - above S up to S_ack (or the receive's protocol step: recv_step) the
 *     data go as an eager message's, and the send completes once they have
 *     arrived and the receiver is inside the runtime (where the probe found
 *     progress needs it), orr(n) and a latency later (M_ACKED);
 *   - above that only a request to send travels (L); the data move once the
 *     receive is posted and, where the probe found it needs them, the
 *     receiver and the sender are inside the runtime (MPI progresses only in
 *     its calls); the receiver then spends orr(n) fetching them, and the
 *     sender's request completes a latency later;
 *   - posting a receive costs o_post; completing a receive whose message has
 *     arrived costs orr(n), any other request o_done; a WAIT completes its
 *     requests one after the other in posting order, as the runtime does;
 *   - per-byte CPU costs of two ranks of a node that copy at the same time
 *     take `contention` times longer;
 *   - on a shaped bus (TCP through one bucket), a small message that joins
 *     its connection's previous one still in the bucket, and one sent one
 *     way, have costs of their own (lg_send_kind).
 * The rank's time never runs ahead of the event clock: a cost to pay
 * schedules a wake. */

static inline int same_node(const sim *S, int a, int b) { return a % S->nodes == b % S->nodes; }

/* A message from src to dst uses no link (no gap, no token bucket, no star link): to the rank
 * itself, or within a node whose own path the model has. */
static inline int no_link(const sim *S, int src, int dst)
{
    return src == dst || (S->intra && same_node(S, src, dst));
}

/* The latency of the completion notice of message m (rendezvous, acknowledgement): none travels
 * back to the rank itself. */
static inline double notice_latency(const sim *S, const msg *m)
{
    return m->src == m->dst ? 0 : S->lfin;
}

/* The LogGOPS costs of a message from src to dst.  The table is what the
 * probe measured between ranks 0 and 1; when those were on two nodes and
 * the model has the ping-pong within a node ([pingpong_intra]), a message
 * between two ranks of one node uses no link (no gap, no token bucket, no
 * star link) and its costs are the table's scaled by f, so that one message
 * takes the half round trip measured within the node:
 *   f (o_s + L + o_r_in) + o_post = pingpong_intra(n),  0 <= f <= 1
 * (in a ping-pong the receiver is in its call when the message arrives),
 * and the blocking calls' figures by their own factor (below, *fbp when
 * fbp is not NULL).
 * Returns f (1: between nodes, or nothing is known within a node). */
static double lg_msg_cost(const sim *S, int src, int dst, double bytes, ps_loggops_cost *c, double *fbp)
{
    ps_loggops_at(S->lg, bytes, c);
    if (fbp) *fbp = 1;
    if (src == dst) {
        /* to the rank itself: no link (no gap, no bucket); with [self], the send costs the model's
         * whole figure less the receive's post and the two completions, and the message is there
         * as the send ends (S still decides whether the send waits for its receive) */
        c->gap = 0;
        double self = ps_machine_self_time(S->m, bytes);
        if (self >= 0) {
            double os = self - S->lg->o_post - 2 * S->lg->o_done;
            c->os = c->osb = os > 0 ? os : 0;
            c->orr = c->orin = c->orbin = S->lg->o_done;
            c->L = 0;
            return 1;
        }
        /* not measured: as a message between two ranks of a node (below), said beside the prediction */
    }
    if (!S->intra || !same_node(S, src, dst)) return 1;
    double pp = ps_machine_msg_time_intra(S->m, bytes);
    double sum = c->os + c->L + c->orin, f = 1;
    if (sum > 0) f = (pp - S->lg->o_post) / sum;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    /* the blocking calls: a blocking ping-pong (the one [pingpong_intra] times) pays no post,
     * fb (o_s_block + o_r_in_block) + f L = pingpong_intra(n) */
    double blk = c->osb + c->orbin, fb = 1;
    if (blk > 0) fb = (pp - f * c->L) / blk;
    fb = fb < 0 ? 0 : fb > 1 ? 1 : fb;
    if (!S->lg->blocking) fb = f;   /* (a model without them: the blocking calls are the nonblocking ones) */
    if (fbp) *fbp = fb;
    c->os *= f;
    c->orr *= f;
    c->orin *= f;
    c->osb *= fb;
    c->orbin *= fb;
    c->L *= f;
    c->gap = 0;
    return f;
}

/* A CPU copy of `cost` seconds starting at t on rank, of which everything
 * above `base` grows with the bytes: stretched when another rank of the
 * node is copying at t.  Returns the (stretched) cost. */
static double lg_copy(sim *S, int rank, double t, double cost, double base)
{
    double per = cost - base;
    if (per <= 0) return cost;
    int node = rank % S->nodes;   /* rank r is on node r mod nodes, as same_node() says */
    double other = S->cp_rank[node] != rank ? S->cp_end[node] : S->cp_prev[node];
    if (other > t) cost = base + per * S->lg->contention;
    double end = t + cost;
    if (S->cp_rank[node] != rank) {
        S->cp_prev[node] = S->cp_end[node];
        S->cp_rank[node] = rank;
        S->cp_end[node] = end;
    } else if (end > S->cp_end[node]) {
        S->cp_end[node] = end;
    }
    return cost;
}

/* Tokens of a bucket (depth burst, filling at rate) that had *tok at *tt,
 * at time t. */
static double lg_tokens(const sim *S, const double *tok, const double *tt, double t)
{
    double k = *tok + S->lg->rate * (t - *tt);
    return k > S->lg->burst ? S->lg->burst : k;
}

/* A message from src to dst leaving at t on a shaped bus, with
 * oneway_ack_bytes: those bytes when dst has sent nothing to src since src's
 * previous message to it (TCP then acknowledges it by a segment of its own,
 * which takes the same bucket's tokens), else none; the message answers
 * dst's.  One that crosses dst's last message to src (still on its way)
 * counts as answered too: the two ranks exchange, and whichever the
 * simulation takes first, each side's next message carries the other's
 * acknowledgement (without this an exchange's messages were charged or not
 * by the order in which the two sends were simulated: butterfly 110 or
 * 1100 of its 2100). */
static double oneway_ack(sim *S, int src, int dst, double t)
{
    size_t mine = (size_t)src * (size_t)S->P + (size_t)dst, theirs = (size_t)dst * (size_t)S->P + (size_t)src;
    int answered = S->answered[mine >> 3] >> (mine & 7) & 1;
    const lgrank *D = &S->lgr[dst];
    if (D->cross_dst == src && D->cross_arr > t) S->answered[mine >> 3] |= (uint8_t)(1u << (mine & 7));
    else S->answered[mine >> 3] &= (uint8_t) ~(1u << (mine & 7));
    S->answered[theirs >> 3] |= (uint8_t)(1u << (theirs & 7));
    if (answered) return 0;
    S->r->oneway_ack++;
    return S->o.oneway_ack_bytes;
}

/* What kind of message a send from src to dst whose data are written at t
 * (as its call's own cost ends) posts on a shaped bus, for its call's CPU
 * time and its bytes:
 *   SEND_JOINS   with merged_bytes, an eager message whose connection's
 *                previous one has not yet left the bucket: TCP holds the
 *                write (autocorking) and sends it with what follows as one
 *                segment, so it costs merged_bytes beyond its payload, no
 *                acknowledgement of its own, and its two calls o_s_merged
 *                and o_r_merged (the probe's burst behind a backlog under
 *                slownet 100mbit: 25 bytes, 0.3 and 0.1 us, against 88
 *                bytes, 5.4 and 11.7 us alone; manysmall's 32 messages
 *                written behind its gathered vector: +67% before);
 *   SEND_ONEWAY  with oneway_ack_bytes, one whose receiver has sent nothing
 *                back since its previous message (oneway_ack): its call
 *                costs at least o_s_oneway, the one-way stream's (its
 *                packets hardly waited in the shaper while its calls took
 *                10.5 us, against 5.6 us spaced: the sender, not the
 *                bucket, sets the pace, and its messages go alone);
 *   SEND_ALONE   any other. */
enum { SEND_ALONE, SEND_JOINS, SEND_ONEWAY };

static int lg_send_kind(const sim *S, int src, int dst, int rendezvous, double t)
{
    if (rendezvous || !(S->lg->rate > 0) || !S->bus || no_link(S, src, dst)) return SEND_ALONE;
    const lgrank *Q = &S->lgr[src];
    if (S->merge && Q->seg_dst == dst && Q->seg_dep > t) return SEND_JOINS;
    size_t mine = (size_t)src * (size_t)S->P + (size_t)dst;
    if (S->answered && !(S->answered[mine >> 3] >> (mine & 7) & 1)) return SEND_ONEWAY;
    return SEND_ALONE;
}

/* Did buffered message m join its connection's segment (SEND_JOINS)? */
static inline int lg_joined(const msg *m)
{
    return !(m->flags & M_ACKED) && m->pad == PAD_JOINED;
}

/* n bytes from rank src to dst are ready to leave at t: when they start
 * moving, after the link's previous message (gap) and the token bucket.
 * The link is the network on a bus; on a star the sender node's way out,
 * and the message also waits for the receiver node's way in.  Without a
 * bucket it holds the way in for n / link_rate (as the classic model's
 * star); on a shaped star each way has a bucket (tbf on both ends of a
 * link): the message waits for the tokens of both, so one that finds its
 * link idle passes at line speed, and then holds the way in for gap(n),
 * as the way out; else the sender's (on a shaped bus too: its bucket is the
 * shared part). */
static double lg_inject(sim *S, int src, int dst, double n, double t, double gap, int join)
{
    int star = S->star && !same_node(S, src, dst);
    lgrank *Q = &S->lgr[S->star ? src % S->nodes : src];
    lgrank *I = star ? &S->lgr[dst % S->nodes] : NULL;
    /* on a shaped bus the one bucket is what the ranks share; the gap, which the
     * probe measured at line speed, is each sender's own (under slownet 16 B
     * took 12 us a message, its sender's calls, while the wire at line speed
     * takes none of it: held on the bus, two ranks' messages waited 12 us for
     * each other) */
    double *fr = S->bus && !(S->lg->rate > 0) ? &S->bus_free : &Q->link_free;
    double st = t > *fr ? t : *fr, delay = 0;
    if (star && S->link_in[dst % S->nodes] > st) st = S->link_in[dst % S->nodes];
    if (S->lg->rate > 0) {
        /* a token bucket of depth `burst` filling at `rate`: a message passes
         * at once while tokens last, the rest at the sustained rate; on a
         * star it passes both buckets, the slower one sets when.  A message
         * takes its bytes and the wire's beyond them (its headers: wire),
         * and with oneway_ack_bytes the acknowledgement of one sent one way */
        if (join) {
            n += S->lg->merged;   /* in the segment it joined: no headers, no acknowledgement of its own */
        } else {
            n += S->lg->wire;
            if (S->answered) n += oneway_ack(S, src, dst, t);
        }
        double *tok = S->bus ? &S->btok : &Q->tok, *tt = S->bus ? &S->btok_t : &Q->tok_t;
        double k = lg_tokens(S, tok, tt, st), ki = I ? lg_tokens(S, &I->itok, &I->itok_t, st) : n;
        double kmin = k < ki ? k : ki;
        if (kmin < n) delay = (n - kmin) / S->lg->rate;
        /* each bucket refilled while the message waited (never above its depth) */
        k += S->lg->rate * delay - n;
        *tok = k > S->lg->burst ? S->lg->burst : k;
        *tt = st + delay;
        if (I) {
            ki += S->lg->rate * delay - n;
            I->itok = ki > S->lg->burst ? S->lg->burst : ki;
            I->itok_t = st + delay;
        }
    }
    *fr = st + delay + gap;
    if (S->merge) {
        Q->seg_dst = dst;
        Q->seg_dep = st + delay;
    }
    if (star) S->link_in[dst % S->nodes] = st + delay + (S->lg->rate > 0 ? gap : n / S->link_rate);
    return st + delay;
}

/* n bytes of the runtime's warm-up from src to dst, taken from the buckets
 * they pass as lg_inject takes them (none within a node with its own path). */
static void lg_warm_pay(sim *S, int src, int dst, double n)
{
    if (no_link(S, src, dst)) return;
    n += S->lg->wire;
    double *tok = S->bus ? &S->btok : &S->lgr[S->star ? src % S->nodes : src].tok;
    *tok = *tok > n ? *tok - n : 0;
    if (S->star && !same_node(S, src, dst)) {
        double *in = &S->lgr[dst % S->nodes].itok;
        *in = *in > n ? *in - n : 0;
    }
}

/* The timed interval starts right after the runtime's warm-up (every pair
 * of ranks up to PS_WARMUP_ALL_PAIRS exchanges one message of each size in
 * PS_WARMUP_SIZES, ring neighbours both ways beyond: runtime/mpi_backend.c),
 * so a shaped link's bucket starts with what those bytes left of it, not
 * full.  Under slownet 100mbit the warm-up's 175 KB empty the 64 KB bucket;
 * a full one hid 5.6 of cg's 10.7 ms (-52% predicted; -5.5% with this). */
static void lg_warm_buckets(sim *S)
{
    static const double sizes[] = {PS_WARMUP_SIZES};
    double w = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) w += sizes[i];
    int p = S->P, last = p <= PS_WARMUP_ALL_PAIRS ? p - 1 : 1;
    for (int me = 0; me < p; me++)
        for (int k = 1; k <= last; k++) {
            lg_warm_pay(S, me, (me + k) % p, w);
            if (p > PS_WARMUP_ALL_PAIRS) lg_warm_pay(S, me, (me - k + p) % p, w);
        }
}

/* Appends v to a growing array of message indices (S->oom when it cannot grow). */
static void u32_push(sim *S, uint32_t **a, uint32_t *n, uint32_t *cap, uint32_t v)
{
    if (*n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 4;
        uint32_t *b = realloc(*a, (size_t)nc * sizeof *b);
        if (!b) {
            S->oom = 1;
            return;
        }
        *a = b;
        *cap = nc;
    }
    (*a)[(*n)++] = v;
}

/* Keeps message mi until rank enters the runtime (lg_enter). */
static void lg_stall(sim *S, int rank, uint32_t mi)
{
    lgrank *Q = &S->lgr[rank];
    u32_push(S, &Q->stall, &Q->nstall, &Q->capstall, mi);
}

/* Queues a rendezvous that is ready while its receiver fetches another. */
static void lg_fetch_later(sim *S, int rank, uint32_t mi)
{
    lgrank *Q = &S->lgr[rank];
    if (Q->fqh == Q->nfq) Q->fqh = Q->nfq = 0;
    u32_push(S, &Q->fq, &Q->nfq, &Q->capfq, mi);
}

/* A rendezvous's data move when its request to send has arrived, its
 * receive is posted, the ranks whose progress it needs are in the runtime,
 * and its receiver is not fetching another: the data phase is the
 * receiver's work (o_r above S_ack: the probe's fetch of one message), so a
 * receiver with several ready fetches them one after the other, in the order
 * they became ready (lg_fetch_next). */
static void lg_try_data(sim *S, uint32_t mi, double t)
{
    msg *m = &S->pool[mi];
    if ((m->flags & (M_RNDV | M_ARRIVED | M_RPOSTED | M_DATA)) != (M_RNDV | M_ARRIVED | M_RPOSTED)) return;
    if (S->rp && !S->lgr[m->dst].inrt) {
        lg_stall(S, m->dst, mi);
        return;
    }
    if (S->sp && !S->lgr[m->src].inrt) {
        lg_stall(S, m->src, mi);
        return;
    }
    lgrank *D = &S->lgr[m->dst];
    if (D->fetch_free > t) {
        lg_fetch_later(S, m->dst, mi);
        return;
    }
    m->flags |= M_DATA;
    ps_loggops_cost c;
    double f = lg_msg_cost(S, m->src, m->dst, (double)m->bytes, &c, NULL);
    double st = no_link(S, m->src, m->dst) ? t : lg_inject(S, m->src, m->dst, (double)m->bytes, t, c.gap, 0);
    double d = lg_copy(S, m->dst, st, c.orr * S->r->stretch, f * S->base0.orr * S->r->stretch);
    D->fetch_free = st + d;
    m->t_start = st;
    if (ps_eventq_push(&S->q, st + d, mi, EV_DATAEND)) S->oom = 1;
}

/* The receiver's fetch ended at t: the next rendezvous queued behind it
 * starts (or, its receiver or sender now outside the runtime, waits for it
 * as any other). */
static void lg_fetch_next(sim *S, int rank, double t)
{
    lgrank *Q = &S->lgr[rank];
    while (Q->fqh < Q->nfq && !(Q->fetch_free > t)) lg_try_data(S, Q->fq[Q->fqh++], t);
}

/* An eagerly sent message above S (M_ACKED) has arrived: its receiver's
 * runtime takes it in (into the posted receive or, not yet posted, as an
 * unexpected message) when it next runs, where the probe found that progress
 * needs the receiver in a call; that costs the receive's copy, and the
 * sender's request completes a latency later.  (Open MPI's shared memory
 * returns such a fragment to its sender only then: docs/PREDICT.md.) */
/* Is rank blocked in a blocking receive of message mi since before it
 * arrived (eager: t_start is the arrival)?  Such a receive costs the
 * blocking call's o_r_in_block (ps_loggops.orbin). */
static int lg_waited_in_brecv(const sim *S, int rank, uint32_t mi)
{
    const rstate *R = &S->rk[rank];
    return R->state == ST_BLK_MSG && R->blk_msg == mi && !R->blk_send && S->pool[mi].t_start >= R->op_t0;
}

static void lg_try_ack(sim *S, uint32_t mi, double t)
{
    msg *m = &S->pool[mi];
    if ((m->flags & (M_ACKED | M_ARRIVED | M_SDONE | M_DATA)) != (M_ACKED | M_ARRIVED)) return;
    if (S->rp && !S->lgr[m->dst].inrt) {
        lg_stall(S, m->dst, mi);
        return;
    }
    m->flags |= M_DATA;   /* taken in: acknowledged once */
    ps_loggops_cost c;
    lg_msg_cost(S, m->src, m->dst, (double)m->bytes, &c, NULL);
    /* (its receiver in a blocking receive for it since before it came: as lg_walk prices it) */
    double take = m->flags & M_COLD ? c.orr : lg_waited_in_brecv(S, m->dst, mi) ? c.orbin : c.orin;
    if (ps_eventq_push_lane(&S->q, LANE_FIN, t + take * S->r->stretch + notice_latency(S, m), mi, EV_FIN))
        S->oom = 1;
}

/* rank enters the runtime (blocks in a call): the rendezvous and the
 * acknowledgements waiting for it go on, and it takes in the eager messages
 * that arrived while it computed.  Returns what that costs it (seconds): the
 * call spends it first, as the runtime reads them before anything else
 * (over TCP from the socket: o_r, where one taken in while the receiver was
 * in a call costs o_r_in at its completion; docs/PREDICT.md). */
static double lg_enter(sim *S, int rank, double t)
{
    lgrank *Q = &S->lgr[rank];
    Q->inrt = 1;
    /* in the order they stalled: the first ready is the first fetched (the
     * calls below stall only other ranks' messages, this rank being in) */
    uint32_t n = Q->nstall;
    Q->nstall = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t mi = Q->stall[i];
        if (S->pool[mi].flags & M_ACKED) lg_try_ack(S, mi, t);
        else lg_try_data(S, mi, t);
    }
    double debt = 0;
    for (uint32_t i = 0; i < Q->ncold; i++) {
        msg *m = &S->pool[Q->cold[i]];
        ps_loggops_cost c;
        double f = lg_msg_cost(S, m->src, m->dst, (double)m->bytes, &c, NULL);
        double more = (c.orr - c.orin) * S->r->stretch, base = f * (S->base0.orr - S->base0.orin) * S->r->stretch;
        if (more > 0 && !lg_joined(m)) debt += lg_copy(S, rank, t + debt, more, base > 0 ? base : 0);
        m->flags &= (uint16_t)~M_COLD;
    }
    Q->ncold = 0;
    return debt;
}

/* An eager message reached rank at t: outside the runtime, it waits there
 * for the rank's next call to take it in. */
static void lg_arrive(sim *S, uint32_t mi)
{
    msg *m = &S->pool[mi];
    lgrank *Q = &S->lgr[m->dst];
    if (Q->inrt) return;
    m->flags |= M_COLD;
    u32_push(S, &Q->cold, &Q->ncold, &Q->capcold, mi);
}

/* Is rank blocked, idle, in a call that completes the send mi (its blocking
 * send, a WAITONE for it, or a WAIT)?  Such a call takes the acknowledgement
 * in as it comes: the path the probe's ping-pong, and so L, already holds. */
static int lg_waits_for(const sim *S, int rank, uint32_t mi)
{
    const rstate *R = &S->rk[rank];
    const lgrank *Q = &S->lgr[rank];
    if (!Q->inrt || Q->busy) return 0;
    switch (R->state) {
    case ST_BLK_MSG: return R->blk_msg == mi;
    case ST_BLK_ONE: return R->blk_slot != NIL && R->out[R->blk_slot].m == mi;
    case ST_BLK_ALL: return 1;
    default: return 0;
    }
}

/* What completing the send mi costs rank: an acknowledged send whose
 * acknowledgement came while the rank was elsewhere (computing, or in
 * another call: not lg_waits_for), and no wait took in yet, costs o_ack, and
 * that wait takes in every other one pending (o_ack_more each); any other
 * completed send o_done (a blocking send: nothing beyond its call). */
static double lg_send_done(sim *S, int rank, const msg *m, int blocking)
{
    const ps_loggops *g = S->lg;
    lgrank *Q = &S->lgr[rank];
    if ((m->flags & M_ACKED) && g->o_ack > 0 && m->pad == Q->ack_tag && Q->nack > 0) {
        double c = g->o_ack + (Q->nack - 1) * g->o_ack_more;
        Q->nack = 0;
        Q->ack_tag = (uint16_t)(Q->ack_tag == UINT16_MAX ? 1 : Q->ack_tag + 1);
        return c;
    }
    return blocking ? 0 : g->o_done;
}

/* Completes the blocked rank's requests in order from time t while they are
 * complete.  Returns 1 when the call is over (the rank goes on at *tp), 0
 * when it waits for an event or pays a cost (a wake is scheduled). */
static int lg_walk(sim *S, int rank, double *tp)
{
    rstate *R = &S->rk[rank];
    lgrank *Q = &S->lgr[rank];
    ps_sim_rank *a = &S->r->rank[rank];
    double t = *tp;
    if (Q->busy) return 0;   /* taking in what arrived while it computed (lg_block) */
    for (;;) {
        uint32_t mi;
        int is_send;
        uint32_t slot = NIL;
        if (R->state == ST_BLK_MSG) {
            if (R->blk_msg == NIL) break;
            mi = R->blk_msg;
            is_send = R->blk_send;
        } else {
            if (R->state == ST_BLK_ALL) {
                while (Q->walk < R->nout && R->out[Q->walk].m == NIL) Q->walk++;
                if (Q->walk >= R->nout) break;
                slot = Q->walk;
            } else {
                slot = R->blk_slot;
                if (R->out[slot].m == NIL) break;
            }
            mi = R->out[slot].m;
            is_send = R->out[slot].is_send;
        }
        msg *m = &S->pool[mi];
        int rndv = (m->flags & M_RNDV) != 0;
        if (is_send ? !(m->flags & M_SDONE) : rndv ? !(m->flags & M_RDONE) : !(m->flags & M_ARRIVED)) return 0;
        /* the cost of completing it */
        double cost = 0;
        if (!is_send && !rndv) {
            /* taken in already: at arrival, or by this call's start (lg_enter) */
            ps_loggops_cost c;
            double fb, f = lg_msg_cost(S, m->src, m->dst, (double)m->bytes, &c, &fb);
            /* a blocking receive whose message arrived while it waited costs the blocking call's figure
             * (its part that does not grow with the bytes scaled as it is) */
            int waited = lg_waited_in_brecv(S, rank, mi);
            double own = waited ? c.orbin : c.orin, base = waited ? fb * S->base0.orbin : f * S->base0.orin;
            if (lg_joined(m)) own = base = S->lg->o_r_merged;
            cost = lg_copy(S, rank, t, own * S->r->stretch, base * S->r->stretch);
        } else if (is_send) {
            /* (a rendezvous receive's orr was its data phase) */
            cost = lg_send_done(S, rank, m, slot == NIL) * S->r->stretch;
        }
        double end = t + cost, t0 = Q->step_t0;
        a->comm += cost;
        if (!is_send && rndv) {
            /* blocked while its own data moved: communication, not waiting */
            double from = m->t_start > t0 ? m->t_start : t0;
            if (t > from) a->comm += t - from;
        }
        if (slot == NIL) {
            /* the blocking call itself */
            if (is_send)
                tr_event(S, rank, PS_EV_SEND, R->pend.construct, R->op_t0, end, m->dst, m->tag, m->bytes, 0, 0);
            else
                tr_recv(S, rank, R->pend.construct, R->op_t0, end, mi, 0, 0);
            R->blk_msg = NIL;
        } else {
            uint8_t fl = (uint8_t)(PS_EVF_NONBLOCKING | (R->state == ST_BLK_ALL ? PS_EVF_WAITALL : 0));
            uint32_t id = (uint32_t)(R->ord0 + slot + 1);
            if (is_send)
                tr_event(S, rank, PS_EV_WAIT, R->out[slot].construct, t0, end, m->dst, m->tag, m->bytes, fl, id);
            else
                tr_recv(S, rank, R->out[slot].construct, t0, end, mi, fl, id);
            R->out[slot].m = NIL;
            R->incomplete--;
        }
        msg_release(S, mi);
        Q->step_t0 = end;
        if (end > t) {
            Q->busy = 1;
            schedule_step(S, rank, end, PH_WAKE);
            return 0;
        }
    }
    while (R->head < R->nout && R->out[R->head].m == NIL) R->head++;
    if (R->head == R->nout) {
        R->head = R->nout = 0;
        R->ord0 = R->nissued;
    }
    R->state = ST_RUN;
    Q->inrt = 0;
    *tp = t;
    return 1;
}

/* Something rank may be waiting for happened at t. */
static void lg_poke(sim *S, int rank, double t)
{
    rstate *R = &S->rk[rank];
    if (R->state == ST_RUN || R->state == ST_DONE || S->lgr[rank].busy) return;
    if (lg_walk(S, rank, &t)) exec(S, rank, t);
}

/* rank blocks in a call at t (WAIT, WAITONE, BSEND, BRECV); what arrived
 * while it computed is taken in first (a wake ends that) */
static void lg_block(sim *S, int rank, double t, int state)
{
    rstate *R = &S->rk[rank];
    lgrank *Q = &S->lgr[rank];
    R->state = (uint8_t)state;
    R->blk_t0 = t;
    Q->step_t0 = state == ST_BLK_MSG ? R->op_t0 : t;
    Q->walk = R->head;
    double debt = lg_enter(S, rank, t);
    if (debt > 0) {
        S->r->rank[rank].comm += debt;
        Q->busy = 1;
        schedule_step(S, rank, t + debt, PH_WAKE);
    }
}

/* Message m is longer than the receive that takes it (posted for `room`
 * bytes): MPI fails such a receive (MPI_ERR_TRUNCATE), unless the size is
 * a recording's stand-in for one the program computes from data its
 * messages carry (the recorder carries none).  Counted, the first kept;
 * the message is priced by its send. */
static void truncated(sim *S, const msg *m, uint64_t room)
{
    ps_sim_truncated *t = &S->r->truncated;
    if (!t->count++) {
        t->rank = m->dst;
        t->from = m->src;
        t->tag = m->tag;
        t->posted_bytes = room;
        t->message_bytes = m->bytes;
    }
}

/* A send or receive's message: posted on its channel, its side's fields
 * and counters set; NIL when the channel could not take it (S->oom). */
static uint32_t post_message(sim *S, int rank, int *is_send_out, int *blocking_out)
{
    rstate *R = &S->rk[rank];
    ps_insn *in = &R->pend;
    int is_send = in->op == PS_OP_SEND || in->op == PS_OP_BSEND;
    int blocking = in->op == PS_OP_BSEND || in->op == PS_OP_BRECV;
    *is_send_out = is_send;
    *blocking_out = blocking;
    int32_t dst = is_send ? in->peer : rank, src = is_send ? rank : in->peer;
    uint32_t mi = S->dch ? dch_post(S, R->pend_h, dst, src, in->tag, is_send)
                         : ch_post(S, R->pend_h, dst, src, in->tag, is_send);
    if (mi == NIL) return NIL;
    msg *m = &S->pool[mi];
    if (is_send) {
        m->src = rank;
        m->dst = in->peer;
        m->tag = in->tag;
        m->bytes = in->n;
        /* (the receive's size, posted first, shares its field with sent0) */
        if ((m->flags & M_RPOSTED) && in->n > m->recv_bytes) truncated(S, m, m->recv_bytes);
        m->flags |= M_SPOSTED | (blocking ? M_SBLOCK : 0);
        m->sent0 = R->op_t0;
        ps_sim_rank *a = &S->r->rank[rank];
        a->sent++;
        a->bytes_sent += in->n;
        S->r->messages++;
        S->r->runtime_messages += ps_tag_runtime(in->tag);
        S->r->self_messages += in->peer == rank;
    } else {
        m->src = in->peer;
        m->dst = rank;
        m->tag = in->tag;
        m->flags |= M_RPOSTED | (blocking ? M_RBLOCK : 0);
        if (!(m->flags & M_SPOSTED)) m->recv_bytes = in->n;
        else if (m->bytes > in->n) truncated(S, m, in->n);
        S->r->rank[rank].received++;
        S->r->rank[rank].bytes_received += in->n;
    }
    return mi;
}

/* A nonblocking send or receive: its request, and its event in the trace.
 * Nonzero when the request table could not grow. */
static int post_event(sim *S, int rank, uint32_t mi, int is_send, double t)
{
    rstate *R = &S->rk[rank];
    ps_insn *in = &R->pend;
    if (out_push(S, R, mi, is_send, in->construct)) return 1;
    if (is_send)
        tr_event(S, rank, PS_EV_SEND, in->construct, R->op_t0, t, in->peer, in->tag, in->n, PS_EVF_NONBLOCKING,
                 (uint32_t)R->nissued); /* out_push gave it number nissued - 1 */
    else
        tr_event(S, rank, PS_EV_POST, in->construct, R->op_t0, t, in->peer, in->tag, in->n, PS_EVF_NONBLOCKING,
                 (uint32_t)R->nissued);
    return 0;
}

/* LogGOPS: the send or receive's CPU cost has passed and its message mi is
 * posted: start its transfer. */
static void lg_post(sim *S, int rank, uint32_t mi, int is_send, int blocking, double t)
{
    rstate *R = &S->rk[rank];
    ps_insn *in = &R->pend;
    msg *m = &S->pool[mi];
    if (is_send) {
        ps_loggops_cost c;
        lg_msg_cost(S, rank, in->peer, (double)in->n, &c, NULL);
        /* data its sender has written since it last sent them arrive later than the ping-pong's,
         * whose buffer nothing writes (the receiver's copy reads lines held in the sender's cache:
         * [written], at the message's size, for the written share of its bytes) */
        if (in->written && rank != in->peer && in->n > 0)
            c.L += ps_machine_written_time(S->m, (double)in->n) * (double)in->written / (double)in->n;
        int acked = c.rendezvous && (double)in->n <= S->r->recv_step;
        if (c.rendezvous && !acked) {
            m->flags |= M_RNDV;
            if (ps_eventq_push_lane(&S->q, LANE_TXEND, t + c.L, mi, EV_TXEND)) S->oom = 1;
        } else {
            int join = R->join && !acked;
            double out = no_link(S, rank, in->peer) ? t : lg_inject(S, rank, in->peer, (double)in->n, t, c.gap, join);
            m->pad = join ? PAD_JOINED : 0;
            m->t_start = out + c.L;
            if (ps_eventq_push_lane(&S->q, LANE_TXEND, m->t_start, mi, EV_TXEND)) S->oom = 1;
            if (acked) {
                m->flags |= M_ACKED;
                S->r->below_step++;
            } else {
                m->flags |= M_SDONE;   /* buffered: complete without its receive */
                m->t_sdone = t;
                if (S->cross || S->answered) {
                    lgrank *Q = &S->lgr[rank];
                    Q->cross_dst = in->peer;
                    Q->cross_t = t;
                    Q->cross_arr = m->t_start;
                }
            }
        }
    }
    if (!blocking) {
        double after = is_send ? R->after : 0;
        if (post_event(S, rank, mi, is_send, t + after)) return;
        if (!is_send) lg_try_data(S, mi, t);
        if (after > 0) {
            S->r->rank[rank].comm += after;
            schedule_step(S, rank, t + after, PH_NEXT);
            return;
        }
        exec(S, rank, t);
        return;
    }
    R->blk_msg = mi;
    R->blk_send = (uint8_t)is_send;
    if (!is_send) lg_try_data(S, mi, t);
    lg_block(S, rank, t, ST_BLK_MSG);
    if (lg_walk(S, rank, &t)) exec(S, rank, t);
}

/* A buffered message's arrival at t on a shaped bus whose model has
 * [crossing]: when its receiver had posted a message to its sender that was
 * on its way while this one was (posted before this one arrives, arriving
 * after this one was posted), the two crossed, and this one arrives no
 * earlier than the model's crossing time after it was posted, its send call
 * ended (the probe's
 * exchange with the bucket refilled: 1.48 half round trips at 16 bytes under
 * slownet 100mbit, where the model's messages had arrived before either
 * receive began; docs/BENCHMARKS.md).  The bucket's own delay, when longer,
 * is kept (back-to-back exchanges).  Returns that floor, else 0. */
static double lg_crossing(const sim *S, const msg *m, double t)
{
    if (!S->cross || !(m->flags & M_SDONE) || (m->flags & M_RNDV) || no_link(S, m->src, m->dst)) return 0;
    const lgrank *D = &S->lgr[m->dst];
    if (D->cross_dst != m->src || D->cross_t > t || D->cross_arr <= m->t_sdone) return 0;
    return m->t_sdone + ps_machine_crossing_time(S->m, (double)m->bytes);
}

/* A message event: arrival (or a rendezvous's request to send), data at the
 * receiver, completion notice at the sender. */
static void lg_event(sim *S, uint32_t mi, uint32_t kind, double t)
{
    msg *m = &S->pool[mi];
    if (kind == EV_TXEND) {
        double floor = lg_crossing(S, m, t);
        if (floor > t) {
            /* (when it comes again at the floor, the floor is the same or none: it arrives then) */
            m->t_start = floor;
            if (ps_eventq_push_lane(&S->q, LANE_TXEND, floor, mi, EV_TXEND)) S->oom = 1;
            return;
        }
        m->flags |= M_ARRIVED;
        if (m->flags & M_RNDV) {
            lg_try_data(S, mi, t);
        } else {
            if (S->cold) lg_arrive(S, mi);
            if (m->flags & M_ACKED) lg_try_ack(S, mi, t);
            if (m->flags & M_RPOSTED) lg_poke(S, m->dst, t);
        }
    } else if (kind == EV_DATAEND) {
        m->flags |= M_RDONE;
        m->t_rdone = t;
        if (ps_eventq_push_lane(&S->q, LANE_FIN, t + notice_latency(S, m), mi, EV_FIN)) S->oom = 1;
        /* the receiver's call may end with this message: a fetch queued
         * behind it then waits, where progress needs the receiver in a call,
         * for the next one */
        lg_poke(S, m->dst, t);
        lg_fetch_next(S, m->dst, t);
    } else {
        m->flags |= M_SDONE;
        m->t_sdone = t;
        if ((m->flags & M_ACKED) && S->lg->o_ack > 0 && !lg_waits_for(S, m->src, mi)) {
            /* the sender is elsewhere: a wait of its takes the acknowledgement in later */
            lgrank *Q = &S->lgr[m->src];
            m->pad = Q->ack_tag;
            Q->nack++;
        }
        lg_poke(S, m->src, t);
    }
}

/* The classic model: the latency of a send or receive has passed and its
 * message mi is posted: start or complete it. */
static void classic_post(sim *S, int rank, uint32_t mi, int is_send, int blocking, double t)
{
    rstate *R = &S->rk[rank];
    msg *m = &S->pool[mi];
    if (is_send && (double)R->pend.n <= S->o.eager_bytes) m->flags |= M_EAGER;
    if (!blocking) {
        if (post_event(S, rank, mi, is_send, t)) return;
    }
    /* the side's posting time, until the message starts / the receive completes (try_start) */
    if (is_send) m->t_start = t;
    else m->t_rdone = t;
    if (!is_send && (m->flags & M_ARRIVED)) complete_side(S, mi, 0, m->t_sdone > t ? m->t_sdone : t);
    else try_start(S, mi);
    if (!blocking) {
        exec(S, rank, t);
        return;
    }
    R->blk_t0 = t;
    R->blk_msg = mi;
    R->blk_send = (uint8_t)is_send;
    if (m->flags & (is_send ? M_SDONE : M_RDONE)) {
        /* (in free order it can complete later than it was posted, without blocking) */
        double done = is_send ? m->t_sdone : m->t_rdone;
        if (done > t) t = done;
        if (t > S->tmax) S->tmax = t;
        finish_blocking(S, rank, mi, is_send, t);
        exec(S, rank, t);
    } else {
        R->state = ST_BLK_MSG;
    }
}

/* The send or receive of the rank's pending instruction is due: post its
 * message, then go on by the machine's model. */
static void post(sim *S, int rank, double t)
{
    int is_send, blocking;
    uint32_t mi = post_message(S, rank, &is_send, &blocking);
    if (mi == NIL) return;
    if (S->lg) lg_post(S, rank, mi, is_send, blocking, t);
    else classic_post(S, rank, mi, is_send, blocking, t);
}

/* A blocked rank may continue at t. */
static void wake(sim *S, int rank, double t)
{
    rstate *R = &S->rk[rank];
    if (S->lg) {
        S->lgr[rank].busy = 0;
        if (lg_walk(S, rank, &t)) exec(S, rank, t);
        return;
    }
    if (R->pend.op == PS_OP_BSEND || R->pend.op == PS_OP_BRECV) {
        finish_blocking(S, rank, R->blk_msg, R->blk_send, t);
    } else if (R->pend.op == PS_OP_WAIT) {
        t = finish_wait(S, rank, R->head, R->nout, R->blk_t0, t, 1);
    } else { /* WAITONE */
        t = finish_wait(S, rank, R->blk_slot, R->blk_slot + 1, R->blk_t0, t, 0);
    }
    exec(S, rank, t);
}

/* What the streams' check refuses, as the instruction is taken: not an
 * instruction, or what ps_insn_fault refuses. */
static int insn_ok(const sim *S, const rstate *R, const ps_insn *in)
{
    return in->op != OP_UNDECODED && !ps_insn_fault(in, S->P, R->nissued, S->s->nconstructs);
}

/* The rank's step scheduled at t (schedule_step). */
static void step(sim *S, int rank, double t)
{
    switch (S->rk[rank].phase) {
    case PH_NEXT: exec(S, rank, t); break;
    case PH_POST: post(S, rank, t); break;
    case PH_WAKE:
        S->r->events++;
        wake(S, rank, t);
        break;
    }
}

/* Has the rank requests no wait completed yet? */
static int requests_open(const rstate *R)
{
    for (uint32_t k = R->head; k < R->nout; k++)
        if (R->out[k].m != NIL) return 1;
    return 0;
}

/* A wait for every outstanding request (R->pend), from t: 1 when it ended
 * at once (*t: when), 0 when the rank blocked. */
static int wait_all(sim *S, int rank, double *t)
{
    rstate *R = &S->rk[rank];
    if (S->lg) {
        lg_block(S, rank, *t, ST_BLK_ALL);
        return lg_walk(S, rank, t);
    }
    if (R->incomplete == 0) {
        *t = finish_wait(S, rank, R->head, R->nout, *t, *t, 1);
        return 1;
    }
    R->blk_t0 = *t;
    R->state = ST_BLK_ALL;
    return 0;
}

/* Runs rank's instructions from time t until one takes time or blocks. */
static void exec(sim *S, int rank, double t)
{
    rstate *R = &S->rk[rank];
    ps_sim_rank *a = &S->r->rank[rank];
    for (;;) {
        if (R->pc >= R->end && !(S->peek && S->lap[rank].n)) {
            if (!R->final && requests_open(R)) {
                /* the runtime's finalize waits for every request still open, after the
                 * timed interval: the run records those completions (a receive never
                 * waited for is received there), its time ends here */
                R->final = 1;
                a->end = t;
                R->end_comm = a->comm;
                R->pend = (ps_insn){.op = PS_OP_WAIT, .construct = PS_C_NONE};
                if (wait_all(S, rank, &t)) continue;
                return;
            }
            R->state = ST_DONE;
            if (R->final) a->comm = R->end_comm; /* what the wait at the end cost is not the program's */
            else a->end = t;
            /* (LogGOPS) the rank ends in the runtime: what waits for its progress goes on */
            if (S->lg) (void)lg_enter(S, rank, t);
            return;
        }
        ps_insn in;
        if (S->peek) peek_next(S, rank, R, &in);
        else decode_next(R, &in);
        if (S->free_order && !insn_ok(S, R, &in)) {
            S->bad = 1;   /* the simulation stops here; the streams' check says why */
            return;
        }
        /* the ranks take turns, so each reads its stream from a line of its
         * own that nothing else brings in: fetch its next line now */
        if (R->end - R->pc > 64) __builtin_prefetch(R->pc + 64, 0, 1);
        a->instructions++;
        S->r->events++;
        switch (in.op) {
        case PS_OP_WORK: {
            if (S->free_order && in.construct != PS_C_DATA_MOVE) S->flops += (double)in.n;
            double d = ps_sim_work_time(S->m, &S->o, in.construct, (double)in.n) * S->r->stretch;
            int move = in.construct == PS_C_DATA_MOVE;
            /* a copy shares the node's memory with the other ranks' copies, as a message's does
             * (the probe's contention; the calibration's 1-rank run has none) */
            if (move && S->lg && d > 0) d = lg_copy(S, rank, t, d, 0);
            if (move && d == 0) S->r->unpriced_bytes += (double)in.n;
            tr_event(S, rank, move ? PS_EV_DATA : PS_EV_COMPUTE, in.construct, t, t + d, -1, 0, in.n, 0, 0);
            a->work += d;
            schedule_step(S, rank, t + d, PH_NEXT);
            return;
        }
        case PS_OP_SEND:
        case PS_OP_BSEND:
        case PS_OP_RECV:
        case PS_OP_BRECV: {
            int is_send = in.op == PS_OP_SEND || in.op == PS_OP_BSEND;
            double lat = is_send ? S->send_lat : S->recv_lat;
            /* the construct call's own code runs first, outside any call (a gap in the trace) */
            if (in.begins) t += S->o_cons;
            if (S->lg) {
                /* LogGOPS: the call's CPU time (the seed: its latency) */
                if (is_send) {
                    ps_loggops_cost c;
                    double fb, f = lg_msg_cost(S, rank, in.peer, (double)in.n, &c, &fb);
                    /* a blocking send up to S returns once its data are out: the blocking call's figure */
                    int blk = in.op == PS_OP_BSEND && !c.rendezvous;
                    double base = blk ? fb * S->base0.osb : f * S->base0.os;
                    lat = lg_copy(S, rank, t, (blk ? c.osb : c.os) * S->r->stretch, base * S->r->stretch);
                    /* (its data are written as the call's own cost ends) */
                    int kind = lg_send_kind(S, rank, in.peer, c.rendezvous, t + lat);
                    double ow = S->lg->o_s_oneway * S->r->stretch;
                    R->join = kind == SEND_JOINS;
                    R->after = 0;
                    if (kind == SEND_JOINS) {
                        lat = S->lg->o_s_merged * S->r->stretch;
                    } else if (kind == SEND_ONEWAY && lat < ow) {
                        /* the call goes on after the write (a blocking send's within its call) */
                        if (blk) lat = ow;
                        else R->after = ow - lat;
                    }
                } else {
                    lat = S->lg->o_post * S->r->stretch;
                }
            }
            R->pend = in;
            R->pend_h = pend_key(S, rank, &in);
            if (S->dch) __builtin_prefetch(&S->dch[R->pend_h], 1);
            else ch_prefetch(S, R->pend_h);
            if (S->pfdist) {
                /* the instruction decoded pfdist ago: its slot is in cache, its record may not be */
                uint32_t k = S->npf++ & 63, old = S->pf[(k - S->pfdist) & 63];
                S->pf[k] = R->pend_h;
                if (S->npf > S->pfdist) {
                    uint32_t head = ch_head(S, old);
                    if (head != NIL) __builtin_prefetch(&S->pool[head], 1);
                }
            }
            R->op_t0 = t;
            a->comm += lat;
            schedule_step(S, rank, t + lat, PH_POST);
            return;
        }
        case PS_OP_WAIT:
            R->pend = in;
            if (wait_all(S, rank, &t)) continue;
            return;
        case PS_OP_WAITONE: {
            uint64_t ord = R->nissued - 1 - in.n;
            R->pend = in;
            if (ord < R->ord0 + R->head || ord >= R->ord0 + R->nout) continue; /* completed earlier */
            uint32_t k = (uint32_t)(ord - R->ord0);
            if (R->out[k].m == NIL) continue;
            if (S->lg) {
                R->blk_slot = k;
                lg_block(S, rank, t, ST_BLK_ONE);
                if (lg_walk(S, rank, &t)) continue;
                return;
            }
            prefetch_wait_record(S, R, k, R->nout);
            msg *m = &S->pool[R->out[k].m];
            if (m->flags & (R->out[k].is_send ? M_SDONE : M_RDONE)) {
                t = finish_wait(S, rank, k, k + 1, t, t, 0);
                continue;
            }
            R->blk_t0 = t;
            R->blk_msg = R->out[k].m;
            R->blk_send = R->out[k].is_send;
            R->blk_slot = k;
            R->state = ST_BLK_ONE;
            return;
        }
        case PS_OP_MARK:
            tr_event(S, rank, PS_EV_MARK, in.construct, t, t, -1, 0, 0, 0, 0);
            continue;
        default:
            return;
        }
    }
}

/* ---- deadlock report ----------------------------------------------------- */

typedef struct sbuf {
    char  *p;
    size_t n, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        size_t room = b->cap - b->n;
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0) return;
        if (b->p && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        size_t nc = (b->cap + (size_t)k + 256) * 2;
        char *np = realloc(b->p, nc);
        if (!np) return;
        b->p = np;
        b->cap = nc;
    }
}

static void describe_side(sim *S, sbuf *b, uint32_t mi, int is_send, int blocking)
{
    msg *m = &S->pool[mi];
    if (is_send)
        sb_printf(b, "%s to %d (tag %d, %llu bytes): %s", blocking ? "BSEND" : "SEND", m->dst, m->tag,
                  (unsigned long long)m->bytes,
                  (m->flags & M_RPOSTED) ? "in transmission" : "no matching receive posted");
    else
        sb_printf(b, "%s from %d (tag %d, %llu bytes): %s", blocking ? "BRECEIVE" : "RECEIVE", m->src, m->tag,
                  (unsigned long long)((m->flags & M_SPOSTED) ? m->bytes : m->recv_bytes),
                  (m->flags & M_SPOSTED) ? "in transmission" : "no matching send posted");
}

static void deadlock_report(sim *S, double t)
{
    sbuf b = {0};
    int stuck = 0, shown = 0;
    for (int r = 0; r < S->P; r++)
        if (S->rk[r].state != ST_DONE) stuck++;
    sb_printf(&b, "deadlock at t = %.9g s: %d of %d ranks cannot proceed\n", t, stuck, S->P);
    for (int r = 0; r < S->P && shown < 64; r++) {
        rstate *R = &S->rk[r];
        if (R->state == ST_DONE) continue;
        shown++;
        if (R->final)
            sb_printf(&b, "  rank %d: after its last instruction (%llu), its program's end (the runtime waits there for "
                          "every request still open), ",
                      r, (unsigned long long)S->r->rank[r].instructions);
        else
            sb_printf(&b, "  rank %d: instruction %llu, ", r, (unsigned long long)S->r->rank[r].instructions);
        if (R->state == ST_BLK_MSG) {
            describe_side(S, &b, R->blk_msg, R->blk_send, 1);
        } else if (R->state == ST_BLK_ONE) {
            /* (the request's slot: the LogGOPS path keeps only that) */
            sb_printf(&b, "WAITONE for ");
            describe_side(S, &b, R->out[R->blk_slot].m, R->out[R->blk_slot].is_send, 0);
        } else if (R->state == ST_BLK_ALL) {
            sb_printf(&b, "WAIT for %u incomplete request%s:", R->incomplete, R->incomplete == 1 ? "" : "s");
            int listed = 0;
            for (uint32_t k = R->head; k < R->nout && listed < 8; k++) {
                if (R->out[k].m == NIL) continue;
                msg *m = &S->pool[R->out[k].m];
                if (m->flags & (R->out[k].is_send ? M_SDONE : M_RDONE)) continue;
                sb_printf(&b, listed ? "; " : " ");
                describe_side(S, &b, R->out[k].m, R->out[k].is_send, 0);
                listed++;
            }
            if (R->incomplete > 8) sb_printf(&b, "; ...");
        } else {
            sb_printf(&b, "not blocked (internal error)");
        }
        sb_printf(&b, "\n");
    }
    if (shown < stuck) sb_printf(&b, "  ... and %d more ranks\n", stuck - shown);
    S->r->report = b.p;
}

/* ---- messages no receive took --------------------------------------------- */

/* Message record i, if its send was posted and no receive took it, to the
 * sheet (ps_sheet_acc_unreceived).  -1: out of memory. */
static int unreceived(sim *S, uint32_t i)
{
    const msg *m = &S->pool[i];
    if (!(m->flags & M_SPOSTED)) return 0;
    return ps_sheet_acc_unreceived(S->sh, m->dst, m->tag, m->sent0);
}

/* The sends whose message no receive took once every rank ended, to the
 * sheet: those waiting in a channel for a receive never posted, and those a
 * nonblocking receive took that no wait completed (no RECV event: the
 * measured trace's match, ps_trace_match, leaves such a send unmatched). */
static int sheet_unreceived(sim *S)
{
    for (int r = 0; r < S->P; r++) {
        const rstate *R = &S->rk[r];
        for (uint32_t k = R->head; k < R->nout; k++)
            if (R->out[k].m != NIL && !R->out[k].is_send && unreceived(S, R->out[k].m)) return -1;
    }
    /* a channel's FIFO holds the sends or the receives still unmatched (its tag's, in the pair index) */
    size_t nheads = S->dch ? (size_t)S->P * (size_t)S->P : S->chcap;
    for (size_t k = 0; k < nheads; k++)
        for (uint32_t i = S->dch ? S->dch[k] : S->ch[k].head; i != NIL; i = S->pool[i].next)
            if (unreceived(S, i)) return -1;
    return 0;
}

/* ---- driver ---------------------------------------------------------------- */

/* A thread costs tens of microseconds to start and a second processor to
 * pay off: streams of 1 MB (~100,000 events) and more. */
#define SHEET_THREAD_BYTES ((size_t)1 << 20)

static int sheet_on_thread(const ps_sim_opts *o, const ps_streams_stats *st)
{
    if (o->sheet_thread) return o->sheet_thread > 0;
    return st->encoded_bytes >= SHEET_THREAD_BYTES && ps_cpus_usable() > 1;
}

int ps_simulate(const ps_streams *s, const ps_machine *m, const ps_sim_opts *o, ps_sim_result *r, char *err,
                size_t errlen)
{
    ps_sim_opts defaults;
    if (!o) {
        ps_sim_defaults(&defaults);
        o = &defaults;
    }
    memset(r, 0, sizeof *r);
    sim S = {.s = s, .m = m, .o = *o, .r = r, .P = s->nranks, .bus_head = NIL,
             .bus_tail = NIL, .err = err, .errlen = errlen};
    S.bus = o->bus >= 0 ? o->bus : m->bus;
    r->nranks = S.P;
    r->stretch = 1;
    /* the nodes: as asked, else those the model was measured on */
    int nodes = o->nodes > 0 ? o->nodes : m->nodes > 0 ? m->nodes : 1;
    if (m->cores_per_node > 0) {
        double per_node = ceil((double)S.P / nodes);
        if (per_node > m->cores_per_node) r->stretch = per_node / m->cores_per_node;
    }
    /* ranks mostly take turns: a send decoded now is posted after ~P other events */
    S.pfdist = S.P >= 64 ? (S.P / 8 < 48 ? (uint32_t)S.P / 8 : 48) : 0;
    S.nodes = nodes;
    S.star = o->bus < 0 && m->star && nodes > 1;
    if (S.star) {
        S.link_rate = m->link_rate > 0 ? m->link_rate : m->word_time > 0 ? 8.0 / m->word_time : 0;
        S.link_out = calloc((size_t)nodes, sizeof *S.link_out);
        S.link_in = calloc((size_t)nodes, sizeof *S.link_in);
        if (!S.link_out || !S.link_in) goto oom;
        if (!(S.link_rate > 0)) S.star = 0; /* no rate: the links cost nothing */
    }
    S.send_lat = m->send_latency * r->stretch;
    S.recv_lat = m->recv_latency * r->stretch;
    if (m->lg.n > 0) {
        /* the LogGOPS model; --eager replaces its S */
        S.lgc = m->lg;
        if (o->eager_bytes > 0) S.lgc.S = o->eager_bytes;
        /* the messages above S sent eagerly, each send complete once the receiver's runtime took
         * it in: up to S_ack where the probe measured it, else up to the receive's protocol step
         * above the measured S; none when --eager asks for rendezvous below the measured S */
        double hi = m->lg.S_ack > 0 ? (m->lg.S_ack > m->lg.S ? m->lg.S_ack : 0)
                                    : ps_loggops_recv_step(m->lg.bytes, m->lg.orr, m->lg.n, m->lg.S);
        if (o->eager_bytes > 0 && o->eager_bytes < m->lg.S) hi = 0;
        r->recv_step = hi > S.lgc.S ? hi : 0;
        r->ack_measured = m->lg.S_ack > 0;
        /* --bus / --nobus against the model's network: a bus takes one message at a time, so
         * no two copies run side by side (contention 1, as the probe writes for one); side by
         * side, a bus's model gives the contention it measured (nobus_contention), if any */
        if (S.bus && !m->bus) S.lgc.contention = 1;
        if (!S.bus && m->bus && m->lg.nobus_contention >= 1) S.lgc.contention = m->lg.nobus_contention;
        if (S.lgc.contention < 1) S.lgc.contention = 1;
        S.lg = &S.lgc;
        /* the costs at the smallest size: the part of a call that does not grow with the bytes
         * (lg_copy); a model without the blocking calls' figures gives the nonblocking ones'
         * there, as at every size (ps_loggops_at) */
        ps_loggops_at(S.lg, S.lg->bytes[0], &S.base0);
        S.o_cons = S.lgc.o_construct > 0 ? S.lgc.o_construct * r->stretch : 0;
        S.rp = S.lgc.progress_recv >= 0.5;
        for (int i = 0; i < S.lgc.n; i++)
            if (S.lgc.orin[i] < S.lgc.orr[i]) S.cold = 1;
        S.sp = S.lgc.progress_send >= 0.5;
        S.lfin = S.lgc.L[0];
        S.intra = S.nodes > 1 && m->npp_intra >= 2;
        S.cross = m->ncrossing > 0 && S.bus && S.lgc.rate > 0;
        S.merge = m->lg.merged > 0 && S.bus && S.lgc.rate > 0;
        S.btok = S.lgc.burst;
        int nodes = S.nodes;
        S.lgr = calloc((size_t)S.P, sizeof *S.lgr);
        S.o.oneway_ack_bytes = o->oneway_ack_bytes < 0 ? 0 : o->oneway_ack_bytes > 0 ? o->oneway_ack_bytes : m->lg.oneway;
        /* the one-way rule: its bytes, or its send calls' pace where the model has them (a negative
         * option turns both off) */
        int oneway = S.o.oneway_ack_bytes > 0 || (o->oneway_ack_bytes >= 0 && m->lg.o_s_oneway > 0);
        if (oneway && S.lgc.rate > 0 && S.bus && S.P <= PS_SIM_ACK_RANKS) {
            if (!(S.answered = calloc(((size_t)S.P * (size_t)S.P + 7) / 8, 1))) goto oom;
            r->oneway_ack_applied = 1;
        }
        S.cp_end = calloc((size_t)nodes, sizeof *S.cp_end);
        S.cp_prev = calloc((size_t)nodes, sizeof *S.cp_prev);
        S.cp_rank = malloc((size_t)nodes * sizeof *S.cp_rank);
        if (!S.lgr || !S.cp_end || !S.cp_prev || !S.cp_rank) goto oom;
        for (int i = 0; i < nodes; i++) S.cp_rank[i] = -1;
        for (int i = 0; i < S.P; i++) {
            S.lgr[i].tok = S.lgr[i].itok = S.lgc.burst;
            S.lgr[i].ack_tag = 1;
            S.lgr[i].cross_dst = -1;
            S.lgr[i].seg_dst = -1;
        }
        if (S.lgc.rate > 0 && !o->no_warmup) lg_warm_buckets(&S);
    }
    /* The seed's model on a network without shared links: a message's times
     * follow from when its two sides are posted, and which send a receive
     * takes from the order of each side's own calls, so the ranks' steps can
     * be taken in any order (try_start, complete_side, finish_wait): each
     * rank runs until it needs a message not yet sent.  It checks the
     * streams as it takes each instruction (insn_ok) and counts as it goes;
     * any other model has them checked and counted first. */
    S.free_order = !S.lg && !S.bus && !S.star && !o->ordered;
    if (!S.free_order && ps_streams_validate(s, &r->streams, err, errlen)) {
        sim_free(&S);
        ps_sim_result_free(r);
        return -1;
    }
    for (int i = 0; S.free_order && i < s->nranks; i++)
        if (s->data[i]) r->streams.encoded_bytes += s->len[i];
    if (!o->grown_pool) pool_reserve(&S);
    size_t np = (size_t)(unsigned)S.P;   /* >= 1: a stream set has a rank (ps_streams_new, the file's reader) */
    r->rank = calloc(np, sizeof *r->rank);
    S.rk = calloc(np, sizeof *S.rk);
    if (np <= DENSE_MAX && !o->hashed_channels) {
        size_t n = np * np;
        S.dch = ps_map_huge(n * sizeof *S.dch);
        if (S.dch) memset(S.dch, 0xff, n * sizeof *S.dch);   /* NIL */
    } else {
        ch_init(&S);
    }
    if (!r->rank || !S.rk || !(S.ch || S.dch) || ps_eventq_init(&S.q, (size_t)S.P + 64)) goto oom;
    if (o->build_sheet && !(S.sh = ps_sheet_acc_new(S.P))) goto oom;
    if (S.sh && sheet_on_thread(o, &r->streams)) S.feed = ps_sheet_feed_start(S.sh);   /* NULL: built here */
    if (o->build_trace) {
        if (!(S.tr = ps_trace_new(S.P))) goto oom;
        if (ps_trace_set_constructs(S.tr, (const char *const *)s->constructs, s->nconstructs)) goto oom;
        r->trace = S.tr;
    }
    if (S.free_order && !(S.ready = malloc(np * sizeof *S.ready))) goto oom;
    if (S.free_order) {
        /* the pipeline of time order (the ranks taking turns) fetches for posts already made */
        S.peek = S.pfdist > 0;
        S.pfdist = 0;
    }
    if (S.peek && (!(S.la = malloc(np * PEEK * sizeof *S.la)) || !(S.lap = calloc(np, sizeof *S.lap)))) goto oom;
    for (int j = 0; j < S.P; j++) {
        int i = S.free_order ? S.P - 1 - j : j;   /* (rank 0 first off the stack) */
        S.rk[i].pc = s->data[i];
        S.rk[i].end = s->data[i] + s->len[i];
        S.rk[i].ctx.rank = i;
        schedule_step(&S, i, 0.0, PH_NEXT);   /* the seed's LOAD event */
    }
    ps_qent e;
    double now = 0;
    while (S.free_order && !S.oom && !S.bad && S.nready) {
        e = S.ready[--S.nready];
        if (e.t > S.tmax) S.tmax = e.t;
        step(&S, (int)e.id, e.t);
    }
    if (S.free_order) now = S.tmax;
    while (!S.oom && ps_eventq_pop(&S.q, &e) == 0) {
        PS_ASSERT(e.t >= now);   /* simulated time never runs back */
        now = e.t;
        const ps_qent *next = ps_eventq_peek(&S.q);
        if (next) prefetch_event(&S, next);
        prefetch_lanes(&S);
        if (e.kind != EV_STEP) {
            r->events++;
            if (S.lg) lg_event(&S, e.id, e.kind, e.t);
            else tx_end(&S, e.id, e.t);
            continue;
        }
        step(&S, (int)e.id, e.t);
    }
    if (S.oom) goto oom;
    if (S.free_order) {
        /* every instruction taken was checked; those of a rank that did not end were not */
        int ended = !S.bad;
        for (int i = 0; ended && i < S.P; i++) ended = S.rk[i].state == ST_DONE;
        if (!ended) {
            if (ps_streams_validate(s, &r->streams, err, errlen)) {
                sim_free(&S);
                ps_sim_result_free(r);
                return -1;
            }
            PS_ASSERT(!S.bad);   /* what the simulation refused, the check refuses */
        } else {
            ps_streams_stats *st = &r->streams;
            st->messages = r->messages;
            st->flops = S.flops;
            for (int i = 0; i < S.P; i++) {
                st->instructions += r->rank[i].instructions;
                st->bytes += r->rank[i].bytes_sent;
            }
        }
    }
    int stuck = 0;
    double wsum = 0, csum = 0, vsum = 0;
    for (int i = 0; i < S.P; i++) {
        ps_sim_rank *a = &r->rank[i];
        if (S.rk[i].state != ST_DONE) {
            stuck = 1;
            a->end = now;
        }
        if (a->end > r->time) r->time = a->end;
        /* waiting is what is left of the rank's time */
        a->wait = a->end - a->work - a->comm;
        if (a->wait < 1e-12 * a->end) a->wait = 0; /* rounding */
        wsum += a->work;
        csum += a->comm;
        vsum += a->wait;
        if (S.tr) {
            S.tr->rank[i].t_begin = 0;
            S.tr->rank[i].t_end = a->end;
            snprintf(S.tr->rank[i].host, sizeof S.tr->rank[i].host, "simulated");
        }
    }
    r->work = wsum / S.P;
    r->comm = csum / S.P;
    r->wait = vsum / S.P;
    if (stuck) {
        r->deadlock = 1;
        deadlock_report(&S, now);
    } else if (S.sh) {
        size_t np = S.P > 0 ? (size_t)S.P : 1;
        double *tb = calloc(np, sizeof *tb), *te = calloc(np, sizeof *te);
        for (int i = 0; te && i < S.P; i++) te[i] = r->rank[i].end;
        r->sheet_thread = S.feed != NULL;
        int bad = ps_sheet_feed_stop(S.feed) || !tb || !te;
        S.feed = NULL;
        /* (the feed's thread has added every event: the sheet is this thread's again) */
        for (const late_ev *l = S.late; !bad && l < S.late + S.nlate; l++)
            bad = ps_sheet_acc_late_event(S.sh, l->rank, &l->e, l->sent0, tb[l->rank], te[l->rank]);
        bad = bad || sheet_unreceived(&S);
        if (bad) {
            ps_sheet_acc_free(S.sh);
        } else {
            if (r->sheet_thread) ps_sheet_feed_queues(S.sh, S.P, tb, te);
            bad = ps_sheet_acc_finish(S.sh, tb, te, &r->sheet);
        }
        S.sh = NULL;
        free(tb);
        free(te);
        if (bad) goto oom;
        r->has_sheet = 1;
    }
    sim_free(&S);
    return stuck ? 1 : 0;
oom:
    ps_seterr(err, errlen, "out of memory simulating %d ranks", S.P);
    sim_free(&S);
    ps_sim_result_free(r);
    return -1;
}

void ps_sim_result_free(ps_sim_result *r)
{
    free(r->rank);
    ps_trace_free(r->trace);
    ps_sheet_free(&r->sheet);
    free(r->report);
    memset(r, 0, sizeof *r);
}
