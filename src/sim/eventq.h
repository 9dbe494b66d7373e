/*
 * eventq.h - the simulator's event queue: a 4-ary min-heap in program time
 * (half the depth of a binary heap, and a node's children are adjacent).
 * Comparisons are branch free (which of two events comes first is what a
 * simulation cannot predict), and removal moves the hole down to a leaf
 * before placing the last entry from there (Floyd: one comparison per level
 * fewer; the last entry mostly belongs near the bottom anyway).
 *
 * Entries are small values (no allocation per event; the array grows by
 * doubling and is reused).  Equal times pop in insertion order (a sequence
 * number breaks ties), so a simulation is deterministic.
 */
#ifndef PS_EVENTQ_H
#define PS_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

#include "util/assert.h"

typedef struct ps_qent {
    double   t;
    uint64_t seq;     /* insertion order, for ties */
    uint32_t id;      /* rank or message record */
    uint32_t kind;
} ps_qent;

/* A lane: a FIFO for events pushed in time order (those scheduled a fixed
 * delay after the current time); it stays sorted, so it needs no heap.
 * The simulator's lanes: wakes, posts, ends of transmissions (as many as
 * messages in flight: a million at 1024 ranks), completion notices. */
#define PS_EVENTQ_LANES 4
typedef struct ps_lane {
    ps_qent *b;
    size_t   head, n, cap;   /* ring buffer, cap a power of two */
} ps_lane;

typedef struct ps_eventq {
    ps_qent *h;
    size_t   n, cap;
    uint64_t seq;
    ps_lane  lane[PS_EVENTQ_LANES];
} ps_eventq;

static inline int ps__qless(const ps_qent *a, const ps_qent *b)
{
    return (a->t < b->t) | ((a->t == b->t) & (a->seq < b->seq));
}

/* Index of the earlier of entries i and j, without a branch. */
static inline size_t ps__qmin(const ps_qent *h, size_t i, size_t j)
{
    size_t lt = (size_t)ps__qless(&h[j], &h[i]);
    return i ^ ((i ^ j) & ((size_t)0 - lt));
}

int  ps_eventq_init(ps_eventq *q, size_t cap);
void ps_eventq_free(ps_eventq *q);
int  ps_eventq_grow(ps_eventq *q);
int  ps_eventq_lane_grow(ps_lane *l);

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

/* Pushes into lane L when t is not before its last entry (else into the
 * heap): the order of removal is the same (time, then insertion). */
static inline int ps_eventq_push_lane(ps_eventq *q, int L, double t, uint32_t id, uint32_t kind)
{
    ps_lane *l = &q->lane[L];
    if (l->n && t < l->b[(l->head + l->n - 1) & (l->cap - 1)].t) return ps_eventq_push(q, t, id, kind);
    if (l->n == l->cap && ps_eventq_lane_grow(l)) return -1;
    PS_ASSERT(l->n < l->cap && (l->cap & (l->cap - 1)) == 0);
    l->b[(l->head + l->n++) & (l->cap - 1)] = (ps_qent){t, q->seq++, id, kind};
    return 0;
}

static inline int ps__eventq_heap_pop(ps_eventq *q, ps_qent *out);

/* Removes the earliest entry into *out; 0, or -1 when empty. */
static inline int ps_eventq_pop(ps_eventq *q, ps_qent *out)
{
    int src = -1;
    const ps_qent *best = q->n ? &q->h[0] : NULL;
    for (int L = 0; L < PS_EVENTQ_LANES; L++) {
        ps_lane *l = &q->lane[L];
        if (l->n && (!best || ps__qless(&l->b[l->head], best))) {
            best = &l->b[l->head];
            src = L;
        }
    }
    if (!best) return -1;
    if (src < 0) return ps__eventq_heap_pop(q, out);
    ps_lane *l = &q->lane[src];
    *out = l->b[l->head];
    l->head = (l->head + 1) & (l->cap - 1);
    l->n--;
    /* a lane stays sorted: its next entry is not before the one taken */
    PS_ASSERT(!l->n || !ps__qless(&l->b[l->head], out));
    return 0;
}

/* The earliest entry, or NULL. */
static inline const ps_qent *ps_eventq_peek(const ps_eventq *q)
{
    const ps_qent *best = q->n ? &q->h[0] : NULL;
    for (int L = 0; L < PS_EVENTQ_LANES; L++) {
        const ps_lane *l = &q->lane[L];
        if (l->n && (!best || ps__qless(&l->b[l->head], best))) best = &l->b[l->head];
    }
    return best;
}

static inline int ps__eventq_heap_pop(ps_eventq *q, ps_qent *out)
{
    if (!q->n) return -1;
    ps_qent *h = q->h;
    *out = h[0];
    size_t n = --q->n, i = 0;
    if (!n) return 0;
    ps_qent last = h[n];
    /* the hole at i goes down along the earliest children to a leaf */
    for (;;) {
        size_t c = 4 * i + 1, best;
        if (c + 3 < n) {
            best = ps__qmin(h, ps__qmin(h, c, c + 1), ps__qmin(h, c + 2, c + 3));
        } else {
            if (c >= n) break;
            best = c;
            for (size_t k = c + 1; k < n; k++) best = ps__qmin(h, best, k);
        }
        h[i] = h[best];
        i = best;
    }
    /* then the last entry rises from there to its place */
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!ps__qless(&last, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = last;
    /* the heap's order: the new root is not before the entry removed, and
     * the moved entry not before its parent */
    PS_ASSERT(!ps__qless(&h[0], out) && (i == 0 || !ps__qless(&h[i], &h[(i - 1) / 4])));
    return 0;
}

#endif
