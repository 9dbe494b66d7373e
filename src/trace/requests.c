/*
 * requests.c - which event completes which nonblocking operation (see
 * ps_trace_requests in trace.h).
 *
 * A version-2 trace names each operation's request in `aux` on its start and
 * on its completion, so pairing is a lookup.  Older traces (and events
 * without an id) are paired by order: per (send or receive, peer, tag), the
 * k-th completion completes the k-th start, the order MPI keeps for the
 * requests of one channel that are completed in posting order (which is how
 * every wait in parscope's runtime and simulator completes them).
 */
#include "trace/trace.h"

#include <stdlib.h>
#include <string.h>

typedef struct ref {
    uint64_t key;   /* id, or (class, peer, tag) for events without one */
    uint32_t index; /* event index on the rank */
} ref;

static int ref_cmp(const void *a, const void *b)
{
    const ref *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* class: 0 a send (its start is a SEND, its completion a WAIT), 1 a receive */
static uint64_t chan_key(int is_recv, int32_t peer, int32_t tag)
{
    return ((uint64_t)(uint32_t)is_recv << 63) | ((uint64_t)((uint32_t)peer & 0x7fffffffu) << 32) | (uint32_t)tag;
}

static int is_recv_class(const ps_event *e) { return e->kind == PS_EV_POST || e->kind == PS_EV_RECV; }

void ps_requests_free(ps_requests *q)
{
    free(q->partner);
    free(q->id);
    free(q->base);
    memset(q, 0, sizeof *q);
}

int ps_trace_requests(const ps_trace *t, ps_requests *q)
{
    memset(q, 0, sizeof *q);
    q->base = ps_trace_event_offsets(t);
    if (!q->base) return -1;
    size_t total = q->base[t->nranks];
    q->partner = malloc((total ? total : 1) * sizeof *q->partner);
    q->id = calloc(total ? total : 1, sizeof *q->id);
    if (!q->partner || !q->id) {
        ps_requests_free(q);
        return -1;
    }
    for (size_t i = 0; i < total; i++) q->partner[i] = -1;
    int use_ids = t->version >= 2;
    ref *st = NULL, *co = NULL;
    size_t cap = 0;
    for (int r = 0; r < t->nranks; r++) {
        const ps_rank_trace *rt = &t->rank[r];
        int64_t *partner = q->partner + q->base[r];
        uint32_t *id = q->id + q->base[r];
        if (rt->n > cap) {
            ref *a = realloc(st, rt->n * sizeof *a), *b = a ? realloc(co, rt->n * sizeof *b) : NULL;
            if (a) st = a;
            if (b) co = b;
            if (!a || !b) {
                free(st);
                free(co);
                ps_requests_free(q);
                return -1;
            }
            cap = rt->n;
        }
        /* two passes: events with ids, then those without (keys by channel) */
        uint32_t max_id = 0;
        for (int pass = 0; pass < 2; pass++) {
            size_t ns = 0, nc = 0;
            for (size_t i = 0; i < rt->n; i++) {
                const ps_event *e = &rt->ev[i];
                int start = ps_event_is_nb_start(e), done = ps_event_is_nb_completion(e);
                if (!start && !done) continue;
                int has_id = use_ids && e->aux != 0;
                if (has_id != (pass == 0)) continue;
                uint64_t key = has_id ? (((uint64_t)is_recv_class(e) << 32) | e->aux)
                                      : chan_key(is_recv_class(e), e->peer, e->tag);
                if (has_id && e->aux > max_id) max_id = e->aux;
                if (start) st[ns++] = (ref){key, (uint32_t)i};
                else co[nc++] = (ref){key, (uint32_t)i};
            }
            if (ns) qsort(st, ns, sizeof *st, ref_cmp);   /* (st and co are NULL for a rank with no events) */
            if (nc) qsort(co, nc, sizeof *co, ref_cmp);
            /* merge: within one key the k-th start pairs with the k-th completion */
            size_t a = 0, b = 0;
            while (a < ns || b < nc) {
                if (b == nc || (a < ns && st[a].key < co[b].key)) {
                    q->unfinished++;
                    a++;
                } else if (a == ns || co[b].key < st[a].key) {
                    q->orphans++;
                    b++;
                } else {
                    partner[st[a].index] = co[b].index;
                    partner[co[b].index] = st[a].index;
                    q->nrequests++;
                    a++;
                    b++;
                }
            }
            if (pass == 0) {
                for (size_t i = 0; i < rt->n; i++)
                    if (use_ids && rt->ev[i].aux && (ps_event_is_nb_start(&rt->ev[i]) ||
                                                     ps_event_is_nb_completion(&rt->ev[i])))
                        id[i] = rt->ev[i].aux;
            }
        }
        /* ids for the operations that had none: after the trace's own, in posting order */
        uint32_t next = max_id;
        for (size_t i = 0; i < rt->n; i++) {
            const ps_event *e = &rt->ev[i];
            if (id[i] || !ps_event_is_nb_start(e)) continue;
            id[i] = ++next;
            if (partner[i] >= 0) id[partner[i]] = id[i];
        }
    }
    free(st);
    free(co);
    return 0;
}
