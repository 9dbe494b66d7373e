/*
 * sheet.c - the standard result sheet's figures from a trace (see sheet.h).
 */
#include "trace/sheet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "trace/describe.h"
#include "trace/stream_format.h"
#include "util/util.h"

void ps_stat_add(ps_stat *s, double v)
{
    if (s->n == 0 || v < s->min) s->min = v;
    if (s->n == 0 || v > s->max) s->max = v;
    s->sum += v;
    s->n++;
}

static void stat_merge(ps_stat *a, const ps_stat *b)
{
    if (!b->n) return;
    if (!a->n || b->min < a->min) a->min = b->min;
    if (!a->n || b->max > a->max) a->max = b->max;
    a->sum += b->sum;
    a->n += b->n;
}

static int is_comm(int kind)
{
    return kind == PS_EV_SEND || kind == PS_EV_RECV || kind == PS_EV_POST || kind == PS_EV_WAIT ||
           kind == PS_EV_BARRIER;
}

static double clip(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* The sends no receive matched, by receiver: their starts, clipped to [gb,
 * ge], receiver d's from (*at)[d] to (*at)[d + 1] of *t0 (both NULL when there
 * are none).  The runtime's own messages are not in the queue.  -1: out of
 * memory. */
static int unreceived_sends(const ps_trace *t, const ps_match *m, double gb, double ge, size_t **at, double **t0)
{
    *at = NULL;
    *t0 = NULL;
    if (!m->unmatched_sends) return 0;
    size_t *c = calloc((size_t)t->nranks + 1, sizeof *c);
    double *v = malloc(m->unmatched_sends * sizeof *v);
    if (!c || !v) {
        free(c);
        free(v);
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int r = 0; r < t->nranks; r++)
            for (size_t i = 0; i < t->rank[r].n; i++) {
                const ps_event *e = &t->rank[r].ev[i];
                if (e->kind != PS_EV_SEND || ps_tag_runtime(e->tag) || e->peer < 0 || e->peer >= t->nranks ||
                    ps_match_recv(m, r, i).rank >= 0)
                    continue;
                if (pass == 0) c[e->peer + 1]++;
                else v[c[e->peer]++] = clip(e->t0, gb, ge);
            }
        /* c[d + 1] counted receiver d's; summed, c[d] is where its begin (filling moves it on to
         * where d + 1's begin, and it is put back below) */
        if (pass == 0)
            for (int d = 0; d < t->nranks; d++) c[d + 1] += c[d];
    }
    for (int d = t->nranks; d > 0; d--) c[d] = c[d - 1];
    c[0] = 0;
    *at = c;
    *t0 = v;
    return 0;
}

/* ParaGraph's message queue of every node (sheet.h): a message is in its
 * receiver's queue from its send's start to its receive's end, or to the end
 * of the execution if no receive took it, clipped to the execution time [gb,
 * ge].  Returns -1 when out of memory. */
static int queue_lengths(const ps_trace *t, const ps_match *m, double gb, double ge, ps_sheet *s)
{
    ps_count_step *q = NULL; /* +1 when a message to the node is sent, -1 when it has received one */
    size_t cap = 0, *uat;
    double *ut;
    if (unreceived_sends(t, m, gb, ge, &uat, &ut)) return -1;
    for (int d = 0; d < t->nranks; d++) {
        const ps_rank_trace *rt = &t->rank[d];
        size_t n = 0, nu = uat ? uat[d + 1] - uat[d] : 0;
        ps_count_step *nq = nu ? ps_grow(q, &cap, 2 * nu, sizeof *nq, 256) : q;
        if (nu && !nq) {
            free(q);
            free(uat);
            free(ut);
            return -1;
        }
        q = nq;
        for (size_t k = 0; k < nu; k++) {
            q[n++] = (ps_count_step){ut[uat[d] + k], +1};
            q[n++] = (ps_count_step){ge, -1};
        }
        for (size_t i = 0; i < rt->n; i++) {
            if (rt->ev[i].kind != PS_EV_RECV || ps_tag_runtime(rt->ev[i].tag)) continue;
            ps_evref sr = ps_match_send(m, d, i);
            if (sr.rank < 0) continue;
            double a = clip(t->rank[sr.rank].ev[sr.index].t0, gb, ge), b = clip(rt->ev[i].t1, gb, ge);
            if (b < a) b = a; /* a receive ending before its send began: clocks, not a queue */
            nq = ps_grow(q, &cap, n + 2, sizeof *nq, 256);
            if (!nq) {
                free(q);
                free(uat);
                free(ut);
                return -1;
            }
            q = nq;
            q[n++] = (ps_count_step){a, +1};
            q[n++] = (ps_count_step){b, -1};
        }
        ps_sort_count_steps(q, n);
        int len = 0, mx = 0;
        double area = 0, last = gb;
        for (size_t k = 0; k < n; k++) {
            area += len * (q[k].t - last);
            last = q[k].t;
            len += q[k].d;
            if (len > mx) mx = len;
        }
        ps_rank_sheet *rs = &s->rank[d];
        rs->max_queue = mx;
        rs->avg_queue = ge > gb ? area / (ge - gb) : 0;
        if (mx > s->max_queue) s->max_queue = mx;
        s->avg_queue += rs->avg_queue / t->nranks;
    }
    free(q);
    free(uat);
    free(ut);
    return 0;
}

/* A rank's busy / overhead / idle from its time in the communication layer
 * (comm) and waiting there (idle), both within [gb, ge]; adds them to sums
 * and its traffic to the sheet's. */
static void close_rank(ps_sheet *s, ps_rank_sheet *rs, double tb, double te, double gb, double ge, double comm,
                       double idle, double sums[3])
{
    double lane = s->time;
    /* before its own start and after its own end a rank waits in the
     * runtime for the others (start-up barrier, finalize): idle */
    double outside = (clip(tb, gb, ge) - gb) + (ge - clip(te, gb, ge));
    comm += outside;
    idle += outside;
    if (comm > lane) comm = lane;
    if (idle > comm) idle = comm;
    rs->idle = idle;
    rs->overhead = comm - idle;
    rs->busy = lane - comm;
    sums[0] += rs->busy;
    sums[1] += rs->overhead;
    sums[2] += rs->idle;
    s->messages_sent += rs->messages_sent;
    s->bytes_sent += rs->bytes_sent;
    s->messages_received += rs->messages_received;
    s->bytes_received += rs->bytes_received;
    s->runtime_sent += rs->runtime_sent;
    s->runtime_received += rs->runtime_received;
    stat_merge(&s->send_time, &rs->send_time);
    stat_merge(&s->recv_time, &rs->recv_time);
}

static void close_sheet(ps_sheet *s, const double sums[3])
{
    double tot = sums[0] + sums[1] + sums[2];
    if (tot > 0) {
        s->busy_pct = 100.0 * sums[0] / tot;
        s->overhead_pct = 100.0 * sums[1] / tot;
        s->idle_pct = 100.0 * sums[2] / tot;
    } else if (s->nranks) {
        s->busy_pct = 100.0;
    }
}

/* What one event adds to its rank's counts, whether the events come as a
 * whole trace (ps_sheet_compute) or one by one (ps_sheet_acc_event): the
 * workload's messages and bytes apart from the runtime's own, send and
 * receive times, computation and data movement.  d: the event's duration
 * that counts. */
static void count_event(ps_rank_sheet *rs, const ps_event *e, double d)
{
    switch (e->kind) {
    case PS_EV_SEND:
        if (ps_tag_runtime(e->tag)) {
            rs->runtime_sent++;
            break;
        }
        rs->messages_sent++;
        rs->bytes_sent += e->bytes;
        ps_stat_add(&rs->send_time, e->t1 - e->t0);
        break;
    case PS_EV_RECV:
        if (ps_tag_runtime(e->tag)) {
            rs->runtime_received++;
            break;
        }
        rs->messages_received++;
        rs->bytes_received += e->bytes;
        ps_stat_add(&rs->recv_time, e->t1 - e->t0);
        break;
    case PS_EV_COMPUTE:
        rs->compute += d;
        rs->flops += (double)e->bytes;
        break;
    case PS_EV_DATA:
        rs->data_move += d;
        break;
    default:
        break;
    }
}

int ps_sheet_compute(const ps_trace *t, ps_sheet *s)
{
    memset(s, 0, sizeof *s);
    s->nranks = t->nranks;
    s->rank = calloc((size_t)(t->nranks ? t->nranks : 1), sizeof *s->rank);
    if (!s->rank) return -1;
    ps_match m;
    if (ps_trace_match(t, &m)) {
        free(s->rank);
        s->rank = NULL;
        return -1;
    }
    s->unmatched = m.unmatched_sends + m.unmatched_recvs;

    double gb = INFINITY, ge = -INFINITY;
    for (int r = 0; r < t->nranks; r++) {
        if (t->rank[r].t_begin < gb) gb = t->rank[r].t_begin;
        if (t->rank[r].t_end > ge) ge = t->rank[r].t_end;
    }
    s->time = t->nranks ? ge - gb : 0;

    /* Barrier idle: the k-th barrier of every rank is one episode; a rank
     * waits until the last rank has entered it. */
    size_t maxbar = 0;
    size_t nr = t->nranks > 0 ? (size_t)t->nranks : 1;
    size_t *nbar = calloc(nr, sizeof *nbar);
    for (int r = 0; r < t->nranks && nbar; r++) {
        for (size_t i = 0; i < t->rank[r].n; i++)
            if (t->rank[r].ev[i].kind == PS_EV_BARRIER) nbar[r]++;
        if (nbar[r] > maxbar) maxbar = nbar[r];
    }
    double *last_enter = nbar ? calloc(maxbar ? maxbar : 1, sizeof *last_enter) : NULL;
    for (size_t k = 0; last_enter && k < maxbar; k++) last_enter[k] = -INFINITY;
    for (int r = 0; r < t->nranks && last_enter; r++) {
        size_t k = 0;
        for (size_t i = 0; i < t->rank[r].n; i++) {
            const ps_event *e = &t->rank[r].ev[i];
            if (e->kind != PS_EV_BARRIER) continue;
            if (e->t0 > last_enter[k]) last_enter[k] = e->t0;
            k++;
        }
    }

    double sums[3] = {0, 0, 0};
    for (int r = 0; r < t->nranks; r++) {
        const ps_rank_trace *rt = &t->rank[r];
        ps_rank_sheet *rs = &s->rank[r];
        rs->dropped = rt->dropped;
        s->dropped += rt->dropped;
        double comm = 0, idle = 0;
        size_t bar = 0;
        /* the rank's own timed interval: the time outside it is close_rank's (waiting in the runtime for
         * the others), so what its \CLOSE0 waits for after it (a receive never waited for) adds none */
        double lo = clip(rt->t_begin, gb, ge), hi = clip(rt->t_end, lo, ge);
        for (size_t i = 0; i < rt->n; i++) {
            const ps_event *e = &rt->ev[i];
            /* only the timed interval counts; events are clipped to it */
            double a = clip(e->t0, lo, hi), b = clip(e->t1, lo, hi);
            double d = b > a ? b - a : 0;
            count_event(rs, e, d);
            if (e->kind == PS_EV_RECV) {
                ps_evref sr = ps_match_send(&m, r, i);
                if (sr.rank >= 0) idle += clip(t->rank[sr.rank].ev[sr.index].t0, a, b) - a;
            } else if (e->kind == PS_EV_BARRIER) {
                if (last_enter && bar < maxbar) idle += clip(last_enter[bar], a, b) - a;
                bar++;
            }
            if (is_comm(e->kind)) comm += d;
        }
        close_rank(s, rs, rt->t_begin, rt->t_end, gb, ge, comm, idle, sums);
    }
    close_sheet(s, sums);
    free(nbar);
    free(last_enter);
    int rc = queue_lengths(t, &m, gb, ge, s);
    ps_match_free(&m);
    if (rc) ps_sheet_free(s);
    return rc;
}

void ps_sheet_free(ps_sheet *s)
{
    free(s->rank);
    s->rank = NULL;
}

/* ---- event by event ------------------------------------------------------------ */

typedef struct dvec {
    double *v;
    size_t  n, cap;
} dvec;

static int dvec_push2(dvec *d, double a, double b)
{
    if (d->n + 2 > d->cap) {
        size_t nc = d->cap ? d->cap + d->cap / 2 + 2 : 16;
        double *nv = realloc(d->v, nc * sizeof *nv);
        if (!nv) return -1;
        d->v = nv;
        d->cap = nc;
    }
    d->v[d->n++] = a;
    d->v[d->n++] = b;
    return 0;
}

/* A receiver's messages for its queue: the pairs (send start, receive end)
 * as varint differences of their order-preserving keys (ps_double_key) from
 * the previous pair's, ~6 bytes a message, not 16.  The log is a chain of
 * blocks cut from the accumulator's slabs: it grows without being copied,
 * and the memory touched is the memory written (arrays that double would
 * touch three times their size, a page fault every 4 KB: at a million
 * messages, a fifth of a simulation's time). */
typedef struct qblk {
    struct qblk *next;
    uint32_t     used, cap;
    uint8_t      b[];
} qblk;

typedef struct qlog {
    qblk    *head, *tail;
    size_t   n;
    uint64_t last_start, last_end;
    int      starts_sorted, ends_sorted;   /* 0 once a value came before the one it follows */
    int      done;                         /* its figures are in the rank's sheet (ps_sheet_acc_queues) */
} qlog;

#define QBLK_FIRST 48       /* a rank with few messages takes little */
#define QBLK_MAX   4080
/* slabs double from 64 KB (a small simulation zeroes no 2 MB page) to 2 MB */
#define QSLAB_FIRST ((size_t)64 << 10)
#define QSLAB_MAX   ((size_t)2 << 20)

/* A slab's first bytes link it to the one cut before it. */
typedef struct qslab {
    struct qslab *prev;
    size_t        size;
} qslab;

struct ps_sheet_acc {
    int            nranks;
    ps_rank_sheet *rank;
    double        *comm, *idle;
    qlog          *queue;     /* per receiver: (send start, receive end) of each message; a send no
                                 receive took ends at infinity (ps_sheet_acc_unreceived) */
    uint64_t       unmatched; /* sends no receive took */
    qslab         *slab;      /* the latest slab the logs' blocks are cut from */
    size_t         slab_used;
    dvec          *barrier;   /* per rank: (t0, t1) of each barrier */
    double         lo, hi;    /* earliest and latest event time */
};

ps_sheet_acc *ps_sheet_acc_new(int nranks)
{
    ps_sheet_acc *a = calloc(1, sizeof *a);
    size_t n = nranks > 0 ? (size_t)nranks : 1;
    if (!a) return NULL;
    a->nranks = nranks;
    a->rank = calloc(n, sizeof *a->rank);
    a->comm = calloc(n, sizeof *a->comm);
    a->idle = calloc(n, sizeof *a->idle);
    a->queue = calloc(n, sizeof *a->queue);
    a->barrier = calloc(n, sizeof *a->barrier);
    a->lo = INFINITY;
    a->hi = -INFINITY;
    if (!a->rank || !a->comm || !a->idle || !a->queue || !a->barrier) {
        ps_sheet_acc_free(a);
        return NULL;
    }
    return a;
}

void ps_sheet_acc_free(ps_sheet_acc *a)
{
    if (!a) return;
    for (qslab *sl = a->slab, *prev; sl; sl = prev) {
        prev = sl->prev;
        munmap(sl, sl->size);
    }
    for (int r = 0; a->barrier && r < a->nranks; r++) free(a->barrier[r].v);
    free(a->queue);
    free(a->barrier);
    free(a->rank);
    free(a->comm);
    free(a->idle);
    free(a);
}

/* A block of cap bytes for a log, cut from the latest slab (a new one,
 * twice the size up to 2 MB, given 2 MB pages where the kernel can, when it
 * is full). */
static qblk *qblk_new(ps_sheet_acc *a, uint32_t cap)
{
    size_t need = (sizeof(qblk) + cap + 15) & ~(size_t)15;
    if (!a->slab || a->slab->size - a->slab_used < need) {
        size_t size = !a->slab ? QSLAB_FIRST : a->slab->size >= QSLAB_MAX / 2 ? QSLAB_MAX : 2 * a->slab->size;
        PS_ASSERT(need + sizeof(qslab) + 15 <= size);
        qslab *sl = ps_map_huge(size);
        if (!sl) return NULL;
        sl->prev = a->slab;
        sl->size = size;
        a->slab = sl;
        a->slab_used = (sizeof(qslab) + 15) & ~(size_t)15;
    }
    qblk *b = (qblk *)((uint8_t *)a->slab + a->slab_used);
    a->slab_used += need;
    b->next = NULL;
    b->used = 0;
    b->cap = cap;
    return b;
}

static int qlog_add(ps_sheet_acc *a, qlog *q, double start, double end)
{
    if (!q->tail || q->tail->cap - q->tail->used < 2 * 10) {
        uint32_t cap = !q->tail ? QBLK_FIRST : q->tail->cap >= QBLK_MAX / 2 ? QBLK_MAX : 2 * q->tail->cap;
        qblk *b = qblk_new(a, cap);
        if (!b) return -1;
        if (q->tail) q->tail->next = b;
        else q->head = b;
        q->tail = b;
    }
    uint64_t ks = ps_double_key(start), ke = ps_double_key(end);
    if (!q->n) q->starts_sorted = q->ends_sorted = 1;
    else {
        if (ks < q->last_start) q->starts_sorted = 0;
        if (ke < q->last_end) q->ends_sorted = 0;
    }
    uint8_t *p = q->tail->b + q->tail->used, *p0 = p;
    p = ps__put_varint(p, ps__zigzag((int64_t)(ks - q->last_start)));
    p = ps__put_varint(p, ps__zigzag((int64_t)(ke - q->last_end)));
    q->tail->used += (uint32_t)(p - p0);
    q->last_start = ks;
    q->last_end = ke;
    q->n++;
    return 0;
}

/* As ps_sheet_compute's loop over a rank's events, the event's time
 * clipped to [gb, ge] (its call's own duration, in the send and receive
 * times, is not). */
static int acc_event(ps_sheet_acc *a, int r, const ps_event *e, double send_t0, double gb, double ge)
{
    ps_rank_sheet *rs = &a->rank[r];
    double t0 = clip(e->t0, gb, ge), t1 = clip(e->t1, gb, ge);
    double d = t1 > t0 ? t1 - t0 : 0;
    if (t0 < a->lo) a->lo = t0;
    if (t1 > a->hi) a->hi = t1;
    count_event(rs, e, d);
    if (e->kind == PS_EV_RECV && !isnan(send_t0)) {
        a->idle[r] += clip(send_t0, t0, t1) - t0;
        /* the runtime's own messages are not in the workload's queue; a
         * receive ending before its send began is clocks, not a queue (the
         * same as queue_lengths's after clipping: clipping is monotone) */
        if (!ps_tag_runtime(e->tag) && qlog_add(a, &a->queue[r], send_t0, e->t1 < send_t0 ? send_t0 : e->t1))
            return -1;
    } else if (e->kind == PS_EV_BARRIER && dvec_push2(&a->barrier[r], e->t0, e->t1)) {
        return -1;
    }
    if (is_comm(e->kind)) a->comm[r] += d;
    return 0;
}

/* Not clipped (the timed interval is not known yet): finish checks that
 * the events lay inside it. */
int ps_sheet_acc_event(ps_sheet_acc *a, int r, const ps_event *e, double send_t0)
{
    return acc_event(a, r, e, send_t0, -INFINITY, INFINITY);
}

int ps_sheet_acc_unreceived(ps_sheet_acc *a, int dst, int tag, double send_t0)
{
    a->unmatched++;
    /* in its receiver's queue from its start to the end of the execution (the clip to ge) */
    if (ps_tag_runtime(tag)) return 0;
    return qlog_add(a, &a->queue[dst], send_t0, INFINITY);
}

int ps_sheet_acc_late_event(ps_sheet_acc *a, int r, const ps_event *e, double send_t0, double t_begin, double t_end)
{
    /* clipped to the rank's own interval, as ps_sheet_compute clips */
    return acc_event(a, r, e, send_t0, t_begin, t_end > t_begin ? t_end : t_begin);
}

/* One node's queue (queue_lengths): its messages' starts and ends, clipped
 * as there; at one instant departures before arrivals.  -1: out of memory. */
static int acc_queue(const qlog *q, double gb, double ge, ps_rank_sheet *rs)
{
    size_t n = q->n, i = 0;
    double *a = malloc((n ? 2 * n : 1) * sizeof *a);
    if (!a) return -1;
    double *b = a + n;
    uint64_t ks = 0, ke = 0;
    for (const qblk *k = q->head; k; k = k->next) {
        const uint8_t *p = k->b, *end = k->b + k->used;
        while (p < end) {
            uint64_t ds = 0, de = 0;
            p = ps__get_varint(p, end, &ds);
            PS_ASSERT(p && i < n);   /* the log holds what qlog_add wrote */
            p = ps__get_varint(p, end, &de);
            PS_ASSERT(p);
            ks += (uint64_t)ps__unzigzag(ds);
            ke += (uint64_t)ps__unzigzag(de);
            a[i] = clip(ps_key_double(ks), gb, ge);
            b[i] = clip(ps_key_double(ke), gb, ge);
            i++;
        }
    }
    PS_ASSERT(i == n);
    if (!q->starts_sorted) ps_sort_doubles(a, n);
    if (!q->ends_sorted) ps_sort_doubles(b, n);
    int len = 0, mx = 0;
    double area = 0, last = gb;
    for (size_t i = 0, j = 0; i < n || j < n;) {
        int dep = j < n && (i >= n || b[j] <= a[i]);
        double t = dep ? b[j++] : a[i++];
        area += len * (t - last);
        last = t;
        len += dep ? -1 : 1;
        if (len > mx) mx = len;
    }
    free(a);
    rs->max_queue = mx;
    rs->avg_queue = ge > gb ? area / (ge - gb) : 0;
    return 0;
}

/* The timed interval: the earliest rank's start to the latest one's end. */
static void span(int P, const double *t_begin, const double *t_end, double *gb, double *ge)
{
    *gb = INFINITY;
    *ge = -INFINITY;
    for (int r = 0; r < P; r++) {
        if (t_begin[r] < *gb) *gb = t_begin[r];
        if (t_end[r] > *ge) *ge = t_end[r];
    }
}

int ps_sheet_acc_split(const ps_sheet_acc *a)
{
    size_t total = 0, half = 0;
    for (int r = 0; r < a->nranks; r++) total += a->queue[r].n;
    int r = 0;
    while (r < a->nranks && 2 * half < total) half += a->queue[r++].n;
    return r;
}

int ps_sheet_acc_queues(ps_sheet_acc *a, int r0, int r1, const double *t_begin, const double *t_end)
{
    double gb, ge;
    span(a->nranks, t_begin, t_end, &gb, &ge);
    for (int r = r0; r < r1; r++) {
        if (acc_queue(&a->queue[r], gb, ge, &a->rank[r])) return -1;
        a->queue[r].done = 1;
    }
    return 0;
}

int ps_sheet_acc_finish(ps_sheet_acc *a, const double *t_begin, const double *t_end, ps_sheet *s)
{
    memset(s, 0, sizeof *s);
    int P = a->nranks;
    double gb, ge;
    span(P, t_begin, t_end, &gb, &ge);
    /* events outside the timed interval would have needed clipping */
    if (P && (a->lo < gb || a->hi > ge)) {
        ps_sheet_acc_free(a);
        return -1;
    }
    s->nranks = P;
    s->time = P ? ge - gb : 0;
    s->unmatched = a->unmatched;
    s->rank = a->rank;
    a->rank = NULL;
    /* barrier idle: the k-th barrier of every rank is one episode */
    size_t maxbar = 0;
    for (int r = 0; r < P; r++)
        if (a->barrier[r].n / 2 > maxbar) maxbar = a->barrier[r].n / 2;
    double *last_enter = maxbar ? malloc(maxbar * sizeof *last_enter) : NULL;
    if (maxbar && !last_enter) {
        ps_sheet_acc_free(a);
        ps_sheet_free(s);
        return -1;
    }
    for (size_t k = 0; k < maxbar; k++) last_enter[k] = -INFINITY;
    for (int r = 0; r < P; r++)
        for (size_t k = 0; k < a->barrier[r].n / 2; k++)
            if (a->barrier[r].v[2 * k] > last_enter[k]) last_enter[k] = a->barrier[r].v[2 * k];
    double sums[3] = {0, 0, 0};
    for (int r = 0; r < P; r++) {
        double idle = a->idle[r];
        for (size_t k = 0; k < a->barrier[r].n / 2; k++) {
            double b0 = a->barrier[r].v[2 * k], b1 = a->barrier[r].v[2 * k + 1];
            idle += clip(last_enter[k], b0, b1) - b0;
        }
        close_rank(s, &s->rank[r], t_begin[r], t_end[r], gb, ge, a->comm[r], idle, sums);
        if (!a->queue[r].done && acc_queue(&a->queue[r], gb, ge, &s->rank[r])) {
            free(last_enter);
            ps_sheet_acc_free(a);
            ps_sheet_free(s);
            return -1;
        }
        if (s->rank[r].max_queue > s->max_queue) s->max_queue = s->rank[r].max_queue;
        s->avg_queue += s->rank[r].avg_queue / P;
    }
    close_sheet(s, sums);
    free(last_enter);
    ps_sheet_acc_free(a);
    return 0;
}

/* A call time of the sheet, "-" where no call was made (never a zero that
 * reads as measured). */
static void stat_avg_text(char *buf, size_t n, const ps_stat *st)
{
    if (st->n) ps_fmt_time(buf, n, ps_stat_avg(st));
    else snprintf(buf, n, "-");
}

static void stat_us_text(char *buf, size_t n, const ps_stat *st)
{
    if (st->n) snprintf(buf, n, "%.2f / %.2f / %.2f", 1e6 * ps_stat_avg(st), 1e6 * st->min, 1e6 * st->max);
    else snprintf(buf, n, "- / - / - (no call)");
}

void ps_sheet_print(const ps_sheet *s, const ps_trace *t, const char *workload, long size, long iterations, FILE *f)
{
    char tb[64];
    json_t *meta = ps_trace_meta(t);
    json_t *structure = json_object_get(meta, "structure");
    json_t *hw = ps_trace_hardware(t, meta);
    ps_hw_text h;
    ps_hardware_text(hw, s->nranks, &h);
    size_t linelen = 4096; /* a large program's structure is long */
    char *line = malloc(linelen);
    if (!line) return;
    fprintf(f, "Evaluated problem\n");
    ps_problem_text(workload, structure, line, linelen);
    fprintf(f, "  %s\n", line);
    fprintf(f, "  Workload:                    %s\n", workload ? workload : "?");
    fprintf(f, "  No. nodes:                   %d\n", s->nranks);
    /* what ran, as the runtime recorded it, before what the caller was asked for */
    const json_t *params = json_object_get(meta, "params");
    const json_t *ps = json_object_get(params, "size"), *pi = json_object_get(params, "iterations");
    const char *grid = json_string_value(json_object_get(params, "grid"));
    if (json_is_integer(ps) && json_integer_value(ps) > 0) size = (long)json_integer_value(ps);
    if (json_is_integer(pi) && json_integer_value(pi) > 0) iterations = (long)json_integer_value(pi);
    if (grid) {
        int per_rank = json_is_true(json_object_get(params, "grid_per_rank"));
        /* split by rows, the ranks hold the same cells only when the rows divide evenly */
        long gw = 0, gh = 0, P = s->nranks > 0 ? s->nranks : 1;
        int known = sscanf(grid, "%ldx%ld", &gw, &gh) == 2;
        fprintf(f, "  Problem size:                %ld cells per rank%s\n", size,
                per_rank || (known && gh % P == 0) ? ""
                : known && gw * gh % P == 0        ? " on average"
                                                   : " on average (rounded down)");
        if (per_rank) fprintf(f, "  Grid:                        %s per rank (weak scaling)\n", grid);
        else fprintf(f, "  Grid:                        %s in all, split by rows over %d ranks\n", grid, s->nranks);
    } else {
        fprintf(f, "  Problem size:                %ld\n", size);
    }
    fprintf(f, "  Iterations:                  %ld\n", iterations);
    ps_structure_text(structure, line, linelen);
    fprintf(f, "  Structure:                   %s\n", line);
    fprintf(f, "\nHardware\n");
    fprintf(f, "  Machine:                     %s\n", h.machine);
    fprintf(f, "  Nodes:                       %s\n", h.nodes);
    fprintf(f, "  Processor:                   %s\n", h.cpu);
    fprintf(f, "  Network:                     %s\n", h.network);
    fprintf(f, "  MPI:                         %s\n", h.mpi);
    json_decref(hw);
    json_decref(meta);
    free(line);
    fprintf(f, "\nMain results\n");
    fprintf(f, "  Execution time:              %.6f s\n", s->time);
    fprintf(f, "  Percent processors busy:     %6.2f %%\n", s->busy_pct);
    fprintf(f, "  Percent processors overhead: %6.2f %%\n", s->overhead_pct);
    fprintf(f, "  Percent processors idle:     %6.2f %%\n", s->idle_pct);
    stat_avg_text(tb, sizeof tb, &s->send_time);
    fprintf(f, "  Avg time send:               %s\n", tb);
    stat_avg_text(tb, sizeof tb, &s->recv_time);
    fprintf(f, "  Avg time receive:            %s\n", tb);
    fprintf(f, "\nStatistics\n");
    fprintf(f, "  Messages sent / received:    %llu / %llu\n", (unsigned long long)s->messages_sent,
            (unsigned long long)s->messages_received);
    fprintf(f, "  Bytes sent / received:       %llu / %llu\n", (unsigned long long)s->bytes_sent,
            (unsigned long long)s->bytes_received);
    stat_us_text(tb, sizeof tb, &s->send_time);
    fprintf(f, "  Send time avg/min/max (us):  %s\n", tb);
    stat_us_text(tb, sizeof tb, &s->recv_time);
    fprintf(f, "  Recv time avg/min/max (us):  %s\n", tb);
    fprintf(f, "  Message queue length:        max %d, average %.2f (messages sent to a node, not yet received)\n",
            s->max_queue, s->avg_queue);
    if (s->runtime_sent)
        fprintf(f, "  Runtime messages:            %llu (the model's barrier tree; not counted above)\n",
                (unsigned long long)s->runtime_sent);
    if (s->unmatched)
        fprintf(f, "  Unmatched messages:          %llu%s\n", (unsigned long long)s->unmatched,
                s->dropped ? " (events were lost: a message whose send or receive was lost counts here)" : "");
    if (s->dropped)
        fprintf(f, "  WARNING: %llu events lost to full trace buffers: the counts and times above miss them (a "
                   "larger capacity: \\OPEN0's last argument, or PARSCOPE_TRACE_CAPACITY=EVENTS per rank)\n",
                (unsigned long long)s->dropped);
    fprintf(f, "\nPer processor       busy  overhead      idle   sent  recv  queue max   avg\n");
    for (int r = 0; r < s->nranks; r++) {
        const ps_rank_sheet *rs = &s->rank[r];
        double lane = rs->busy + rs->overhead + rs->idle;
        fprintf(f, "  %4d          %6.2f %%  %6.2f %%  %6.2f %%  %5llu %5llu  %9d  %5.2f\n", r,
                lane > 0 ? 100 * rs->busy / lane : 0, lane > 0 ? 100 * rs->overhead / lane : 0,
                lane > 0 ? 100 * rs->idle / lane : 0, (unsigned long long)rs->messages_sent,
                (unsigned long long)rs->messages_received, rs->max_queue, rs->avg_queue);
    }
}
