/*
 * breakdown.c - a rank's time by activity and construct (see breakdown.h).
 */
#include "sim/breakdown.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "parscope/parscope.h"

const char *const ps_activity_names[PS_ACT__COUNT] = {"compute", "send", "recv", "wait", "other"};

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* A barrier: the runtime's own event, or the tree messages a prediction
 * stands for it (tagged with the barrier's id by the recorder). */
static int is_barrier(const ps_event *e)
{
    return e->kind == PS_EV_BARRIER || ((e->kind == PS_EV_SEND || e->kind == PS_EV_RECV) && e->tag == PS_C_BARRIER);
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
            double d = e->t1 - e->t0;
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
                    w = clampd(avail - e->t0, 0, d);
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
                        if (q.rank >= 0) w = clampd(t->rank[q.rank].ev[q.index].t0 - e->t0, 0, d);
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
    if (t->nranks > 0) {
        for (int k = 0; k < PS_ACT__COUNT; k++) b->total[k] /= t->nranks;
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
    ps_breakdown_free(&b);
    return o;
}
