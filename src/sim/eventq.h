/*
 * eventq.h - the simulator's event queue: a 4-ary min-heap in program time
 * (half the depth of a binary heap, and a node's children share a cache line).
 *
 * Entries are small values (no allocation per event; the array grows by
 * doubling and is reused).  Equal times pop in insertion order (a sequence
 * number breaks ties), so a simulation is deterministic.
 */
#ifndef PS_EVENTQ_H
#define PS_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

typedef struct ps_qent {
    double   t;
    uint64_t seq;     /* insertion order, for ties */
    uint32_t id;      /* rank or message record */
    uint32_t kind;
} ps_qent;

typedef struct ps_eventq {
    ps_qent *h;
    size_t   n, cap;
    uint64_t seq;
} ps_eventq;

static inline int ps__qless(const ps_qent *a, const ps_qent *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int  ps_eventq_init(ps_eventq *q, size_t cap);
void ps_eventq_free(ps_eventq *q);
int  ps_eventq_grow(ps_eventq *q);

static inline int ps_eventq_push(ps_eventq *q, double t, uint32_t id, uint32_t kind)
{
    if (q->n == q->cap && ps_eventq_grow(q)) return -1;
    ps_qent e = {t, q->seq++, id, kind};
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!ps__qless(&e, &q->h[p])) break;
        q->h[i] = q->h[p];
        i = p;
    }
    q->h[i] = e;
    return 0;
}

/* Removes the earliest entry into *out; 0, or -1 when empty. */
static inline int ps_eventq_pop(ps_eventq *q, ps_qent *out)
{
    if (!q->n) return -1;
    *out = q->h[0];
    ps_qent last = q->h[--q->n];
    size_t n = q->n, i = 0;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n) break;
        size_t end = c + 4 < n ? c + 4 : n, best = c;
        for (size_t k = c + 1; k < end; k++)
            if (ps__qless(&q->h[k], &q->h[best])) best = k;
        if (!ps__qless(&q->h[best], &last)) break;
        q->h[i] = q->h[best];
        i = best;
    }
    if (n) q->h[i] = last;
    return 0;
}

#endif
