/* eventq.c - growth and life cycle of the simulator's event queue. */
#include "sim/eventq.h"

#include <stdlib.h>
#include <string.h>

int ps_eventq_init(ps_eventq *q, size_t cap)
{
    memset(q->lane, 0, sizeof q->lane);
    q->n = 0;
    q->seq = 0;
    q->cap = cap ? cap : 64;
    q->h = malloc(q->cap * sizeof *q->h);
    return q->h ? 0 : -1;
}

void ps_eventq_free(ps_eventq *q)
{
    free(q->h);
    q->h = NULL;
    for (int L = 0; L < PS_EVENTQ_LANES; L++) {
        free(q->lane[L].b);
        q->lane[L] = (ps_lane){0};
    }
    q->n = q->cap = 0;
}

int ps_eventq_grow(ps_eventq *q)
{
    size_t nc = q->cap ? q->cap * 2 : 64;
    ps_qent *h = realloc(q->h, nc * sizeof *h);
    if (!h) return -1;
    q->h = h;
    q->cap = nc;
    return 0;
}

int ps_eventq_lane_grow(ps_lane *l)
{
    size_t nc = l->cap ? l->cap * 2 : 64;
    ps_qent *b = malloc(nc * sizeof *b);
    if (!b) return -1;
    for (size_t i = 0; i < l->n; i++) b[i] = l->b[(l->head + i) & (l->cap - 1)];
    free(l->b);
    l->b = b;
    l->head = 0;
    l->cap = nc;
    PS_ASSERT((nc & (nc - 1)) == 0);   /* positions wrap with a mask */
    return 0;
}
