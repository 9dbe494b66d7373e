/*
 * breakdown.c - a rank's time by activity and construct (see breakdown.h).
 */
#include "sim/breakdown.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "parscope/parscope.h"
#include "util/util.h"

const char *const ps_activity_names[PS_ACT__COUNT] = {"compute", "send", "recv", "wait", "other"};

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* A barrier: the runtime's own event, or the tree messages a prediction
 * stands for it (tagged with the barrier's id by the recorder). */
static int is_barrier(const ps_event *e)
{
    return e->kind == PS_EV_BARRIER || ((e->kind == PS_EV_SEND || e->kind == PS_EV_RECV) && e->tag == PS_C_BARRIER);
}

/* One event for first_excess: its kind of call and where it came. */
typedef struct call_kind {
    uint64_t bytes;
    size_t   index;
    double   d;
    int32_t  peer;
    uint16_t construct;
    uint8_t  kind, nonblocking;
} call_kind;

static int by_kind(const void *a, const void *b)
{
    const call_kind *x = a, *y = b;
    if (x->construct != y->construct) return x->construct < y->construct ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->nonblocking != y->nonblocking) return x->nonblocking < y->nonblocking ? -1 : 1;
    if (x->bytes != y->bytes) return x->bytes < y->bytes ? -1 : 1;
    if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Adds to b what each rank's first message call of each kind took beyond
 * its kind's median, and counts the kinds; v and d hold as many entries as
 * the longest rank's events.  Sums over ranks (the caller averages). */
static void rank_first_excess(const ps_rank_trace *rt, call_kind *v, double *d, ps_breakdown *b)
{
    size_t n = 0;
    for (size_t i = 0; i < rt->n; i++) {
        const ps_event *e = &rt->ev[i];
        /* the message calls only: a computation's first run (cold caches, pages first touched by
         * the program) is in its price where a calibration run priced it, spread over its calls */
        if (e->kind != PS_EV_SEND && e->kind != PS_EV_RECV && e->kind != PS_EV_POST && e->kind != PS_EV_WAIT) continue;
        if (is_barrier(e)) continue;   /* a prediction's barrier messages: waiting, as a run's barrier */
        if (e->t0 >= rt->t_end) continue;   /* after the timed interval: the finalize's wait */
        v[n++] = (call_kind){e->bytes, i, e->t1 - e->t0, e->peer, e->construct, e->kind,
                             (e->flags & PS_EVF_NONBLOCKING) != 0};
    }
    qsort(v, n, sizeof *v, by_kind);
    for (size_t a = 0, z; a < n; a = z) {
        for (z = a + 1; z < n && v[z].construct == v[a].construct && v[z].kind == v[a].kind &&
                        v[z].nonblocking == v[a].nonblocking && v[z].bytes == v[a].bytes && v[z].peer == v[a].peer;
             z++) {
        }
        if (z - a < PS_BREAKDOWN_FIRST_MIN) continue;
        for (size_t k = a; k < z; k++) d[k - a] = v[k].d;
        double median = ps_median(d, z - a);
        if (v[a].d - median > 1e-12) b->first_excess += v[a].d - median;   /* v[a]: the kind's first, by index */
        b->first_kinds++;
    }
}

/* first_excess and first_kinds over every rank, with one pair of buffers;
 * 0, or -1 on out of memory. */
static int first_calls(const ps_trace *t, ps_breakdown *b)
{
    size_t most = 1;
    for (int r = 0; r < t->nranks; r++)
        if (t->rank[r].n > most) most = t->rank[r].n;
    call_kind *v = malloc(most * sizeof *v);
    double *d = malloc(most * sizeof *d);
    int ok = v && d;
    for (int r = 0; ok && r < t->nranks; r++) rank_first_excess(&t->rank[r], v, d, b);
    free(v);
    free(d);
    return ok ? 0 : -1;
}

int ps_breakdown_compute(const ps_trace *t, ps_breakdown *b)
{
    memset(b, 0, sizeof *b);
    b->nranks = t->nranks;
    b->nconstructs = t->nconstructs;
    int nc = t->nconstructs > 0 ? t->nconstructs : 1;
    b->by_construct = calloc((size_t)nc * PS_ACT__COUNT, sizeof *b->by_construct);
    if (!b->by_construct) return -1;
    ps_match mt;
    ps_requests rq;   /* the nonblocking send each WAIT completes */
    if (ps_trace_match(t, &mt) != 0) {
        free(b->by_construct);
        b->by_construct = NULL;
        return -1;
    }
    if (ps_trace_requests(t, &rq) != 0) {
        ps_match_free(&mt);
        free(b->by_construct);
        b->by_construct = NULL;
        return -1;
    }
    for (int r = 0; r < t->nranks; r++) {
        const ps_rank_trace *rt = &t->rank[r];
        double covered = 0;
        const int64_t *pair = rq.partner + rq.base[r];
        for (size_t i = 0; i < rt->n; i++) {
            const ps_event *e = &rt->ev[i];
            /* the rank's timed interval only: what its finalize's wait completes
             * after it (a receive never waited for) is outside its time */
            double t0 = clampd(e->t0, rt->t_begin, rt->t_end), t1 = clampd(e->t1, rt->t_begin, rt->t_end);
            double d = t1 - t0;
            if (d <= 0 || e->kind == PS_EV_SECTION || e->kind == PS_EV_MARK) continue;
            double act[PS_ACT__COUNT] = {0};
            if (e->kind == PS_EV_COMPUTE || e->kind == PS_EV_DATA) {
                act[PS_ACT_COMPUTE] = d;
            } else if (is_barrier(e)) {
                act[PS_ACT_WAIT] = d;
            } else if (e->kind == PS_EV_POST) {
                act[PS_ACT_RECV] = d;
            } else if (e->kind == PS_EV_RECV) {
                /* before its message was sent: waiting */
                ps_evref s = ps_match_send(&mt, r, i);
                double w = 0;
                if (s.rank >= 0) {
                    const ps_event *se = &t->rank[s.rank].ev[s.index];
                    double avail = (se->flags & PS_EVF_NONBLOCKING) ? se->t1 : se->t0;
                    w = clampd(avail - t0, 0, d);
                }
                act[PS_ACT_WAIT] = w;
                act[PS_ACT_RECV] = d - w;
            } else if (e->kind == PS_EV_SEND || e->kind == PS_EV_WAIT) {
                /* a nonblocking send's post is all overhead; a blocking send
                 * or a send's completion waits for the receiver to arrive */
                double w = 0;
                if (!(e->kind == PS_EV_SEND && (e->flags & PS_EVF_NONBLOCKING))) {
                    int64_t si = e->kind == PS_EV_WAIT ? pair[i] : (int64_t)i;
                    if (si >= 0) {
                        ps_evref q = ps_match_recv(&mt, r, (size_t)si);
                        if (q.rank >= 0) w = clampd(t->rank[q.rank].ev[q.index].t0 - t0, 0, d);
                    }
                }
                act[PS_ACT_WAIT] = w;
                act[PS_ACT_SEND] = d - w;
            } else {
                continue;
            }
            covered += d;
            int c = e->construct < nc ? e->construct : 0;
            for (int k = 0; k < PS_ACT__COUNT; k++) {
                b->total[k] += act[k];
                b->by_construct[(size_t)c * PS_ACT__COUNT + k] += act[k];
            }
        }
        double span = rt->t_end - rt->t_begin;
        if (span > covered) b->total[PS_ACT_OTHER] += span - covered;
    }
    ps_match_free(&mt);
    ps_requests_free(&rq);
    if (first_calls(t, b) != 0) {
        free(b->by_construct);
        b->by_construct = NULL;
        return -1;
    }
    if (t->nranks > 0) {
        for (int k = 0; k < PS_ACT__COUNT; k++) b->total[k] /= t->nranks;
        b->first_excess /= t->nranks;
        for (size_t k = 0; k < (size_t)nc * PS_ACT__COUNT; k++) b->by_construct[k] /= t->nranks;
    }
    return 0;
}

void ps_breakdown_free(ps_breakdown *b)
{
    free(b->by_construct);
    memset(b, 0, sizeof *b);
}

static json_t *acts(const double *v)
{
    json_t *o = json_object();
    for (int k = 0; k < PS_ACT__COUNT; k++) json_object_set_new(o, ps_activity_names[k], json_real(v[k]));
    return o;
}

json_t *ps_breakdown_json(const ps_trace *t)
{
    ps_breakdown b;
    if (!t || ps_breakdown_compute(t, &b) != 0) return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "unit", json_string("seconds per rank (average)"));
    json_object_set_new(o, "total", acts(b.total));
    json_t *cs = json_object();
    for (int c = 0; c < b.nconstructs; c++) {
        const double *v = &b.by_construct[(size_t)c * PS_ACT__COUNT];
        double s = 0;
        for (int k = 0; k < PS_ACT__COUNT; k++) s += v[k];
        if (s > 0 && t->constructs[c]) json_object_set_new(cs, t->constructs[c], acts(v));
    }
    json_object_set_new(o, "constructs", cs);
    json_object_set_new(o, "first_calls",
                        json_pack("{s:f, s:I}", "excess", b.first_excess, "kinds", (json_int_t)b.first_kinds));
    ps_breakdown_free(&b);
    return o;
}
