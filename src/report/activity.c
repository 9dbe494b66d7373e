/* activity.c - per-rank busy / overhead / idle timelines (see activity.h). */
#include "report/activity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "util/util.h"

const char *const ps_act_name[PS_ACT__COUNT] = {"busy", "overhead", "idle"};
const char *const ps_act_color[PS_ACT__COUNT] = {PS_COLOR_BUSY, PS_COLOR_OVERHEAD, PS_COLOR_IDLE};

int ps_event_is_comm(int kind)
{
    switch (kind) {
    case PS_EV_SEND:
    case PS_EV_RECV:
    case PS_EV_POST:
    case PS_EV_WAIT:
    case PS_EV_BARRIER: return 1;
    default: return 0;
    }
}

typedef struct piece {
    double t0, t1;
    int    act;
} piece;

static int piece_cmp(const void *a, const void *b)
{
    const piece *x = a, *y = b;
    return (x->t0 > y->t0) - (x->t0 < y->t0);
}

typedef struct segbuf {
    ps_segment *v;
    size_t      n, cap;
} segbuf;

/* Appends [a, b) of class act, merging with the previous segment. */
static void emit(segbuf *s, double a, double b, int act)
{
    if (!(b > a)) return;
    if (s->n && s->v[s->n - 1].act == act && s->v[s->n - 1].t1 >= a) {
        s->v[s->n - 1].t1 = b;
        return;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = ps_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = (ps_segment){a, b, (uint8_t)act};
}

static void add_piece(piece **v, size_t *n, size_t *cap, double a, double b, int act)
{
    if (!(b > a)) return;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *v = ps_xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = (piece){a, b, act};
}

/* Sweeps the sorted pieces into disjoint segments covering [lo, hi]; where
 * pieces overlap, the highest class wins.  Overlaps are rare (nested calls),
 * so the active set is a small array. */
static void sweep(const piece *p, size_t n, double lo, double hi, segbuf *out)
{
    piece  active[64];
    size_t na = 0;
    double c = lo;
    for (size_t i = 0; i <= n; i++) {
        double s = i < n ? p[i].t0 : hi;
        if (s < c) s = c;
        /* advance the cursor to s, retiring active pieces as they end */
        for (;;) {
            int    best = PS_ACT_BUSY;
            double end = s;
            size_t first = na;
            for (size_t k = 0; k < na; k++) {
                if (active[k].act > best) best = active[k].act;
                if (active[k].t1 <= end) end = active[k].t1, first = k;
            }
            if (end < c) end = c;
            emit(out, c, end, best);
            c = end;
            if (first == na) break;
            active[first] = active[--na];
        }
        if (i == n) break;
        if (na == sizeof active / sizeof *active) {
            /* pathological nesting: drop the piece that ends first */
            size_t k = 0;
            for (size_t j = 1; j < na; j++)
                if (active[j].t1 < active[k].t1) k = j;
            active[k] = active[--na];
        }
        active[na++] = p[i];
    }
    emit(out, c, hi, PS_ACT_BUSY);
}

int ps_timeline_build(const ps_trace *t, ps_timeline *tl, char *err, size_t errlen)
{
    memset(tl, 0, sizeof *tl);
    tl->nranks = t->nranks;
    if (t->nranks <= 0) {
        ps_seterr(err, errlen, "trace has no ranks");
        return -1;
    }
    if (ps_trace_match(t, &tl->match) != 0) {
        ps_seterr(err, errlen, "cannot match the trace's messages");
        return -1;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (int r = 0; r < t->nranks; r++) {
        if (t->rank[r].t_begin < lo) lo = t->rank[r].t_begin;
        if (t->rank[r].t_end > hi) hi = t->rank[r].t_end;
    }
    if (!(hi >= lo)) lo = hi = 0;
    tl->t0 = lo;
    tl->t1 = hi;

    /* the k-th barrier's last arrival over all ranks */
    size_t nbar = 0;
    double *last = NULL;
    for (int r = 0; r < t->nranks; r++) {
        size_t k = 0;
        const ps_rank_trace *rt = &t->rank[r];
        for (size_t i = 0; i < rt->n; i++) {
            if (rt->ev[i].kind != PS_EV_BARRIER) continue;
            if (k == nbar) {
                last = ps_xrealloc(last, (nbar + 1) * sizeof *last);
                last[nbar++] = -INFINITY;
            }
            if (rt->ev[i].t0 > last[k]) last[k] = rt->ev[i].t0;
            k++;
        }
    }

    tl->seg = ps_xcalloc((size_t)t->nranks, sizeof *tl->seg);
    tl->nseg = ps_xcalloc((size_t)t->nranks, sizeof *tl->nseg);
    tl->total = ps_xcalloc((size_t)t->nranks * PS_ACT__COUNT, sizeof *tl->total);
    piece *pv = NULL;
    size_t pcap = 0;
    for (int r = 0; r < t->nranks; r++) {
        const ps_rank_trace *rt = &t->rank[r];
        size_t np = 0, kbar = 0;
        for (size_t i = 0; i < rt->n; i++) {
            const ps_event *e = &rt->ev[i];
            if (!ps_event_is_comm(e->kind)) continue;
            double a = e->t0 < lo ? lo : e->t0, b = e->t1 > hi ? hi : e->t1;
            double split = a; /* end of the idle part */
            if (e->kind == PS_EV_RECV) {
                ps_evref s = ps_match_send(&tl->match, r, i);
                if (s.rank >= 0) split = t->rank[s.rank].ev[s.index].t0;
            } else if (e->kind == PS_EV_BARRIER) {
                split = last[kbar++];
            }
            if (split < a) split = a;
            if (split > b) split = b;
            add_piece(&pv, &np, &pcap, a, split, PS_ACT_IDLE);
            add_piece(&pv, &np, &pcap, split, b, PS_ACT_OVERHEAD);
        }
        /* before its own start and after its own end a rank waits in the
         * runtime for the others: idle (as the sheet counts it) */
        double rb = rt->t_begin < lo ? lo : rt->t_begin > hi ? hi : rt->t_begin;
        double re = rt->t_end > hi ? hi : rt->t_end < lo ? lo : rt->t_end;
        add_piece(&pv, &np, &pcap, lo, rb, PS_ACT_IDLE);
        add_piece(&pv, &np, &pcap, re, hi, PS_ACT_IDLE);
        if (np) qsort(pv, np, sizeof *pv, piece_cmp);
        segbuf sb = {0};
        sweep(pv, np, lo, hi, &sb);
        tl->seg[r] = sb.v;
        tl->nseg[r] = sb.n;
        for (size_t i = 0; i < sb.n; i++)
            tl->total[(size_t)r * PS_ACT__COUNT + sb.v[i].act] += sb.v[i].t1 - sb.v[i].t0;
    }
    free(pv);
    free(last);
    return 0;
}

void ps_timeline_free(ps_timeline *tl)
{
    if (tl->seg)
        for (int r = 0; r < tl->nranks; r++) free(tl->seg[r]);
    free(tl->seg);
    free(tl->nseg);
    free(tl->total);
    if (tl->match.base) ps_match_free(&tl->match);
    memset(tl, 0, sizeof *tl);
}

double ps_timeline_time_in(const ps_timeline *tl, int r, int act, double a, double b)
{
    const ps_segment *s = tl->seg[r];
    size_t n = tl->nseg[r], lo = 0, hi = n;
    while (lo < hi) { /* first segment ending after a */
        size_t mid = (lo + hi) / 2;
        if (s[mid].t1 <= a) lo = mid + 1;
        else hi = mid;
    }
    double sum = 0;
    for (size_t i = lo; i < n && s[i].t0 < b; i++) {
        if (s[i].act != act) continue;
        double x = s[i].t0 > a ? s[i].t0 : a, y = s[i].t1 < b ? s[i].t1 : b;
        if (y > x) sum += y - x;
    }
    return sum;
}
