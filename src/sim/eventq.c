/* eventq.c - growth and life cycle of the simulator's event queue. */
#include "sim/eventq.h"

#include <stdlib.h>

int ps_eventq_init(ps_eventq *q, size_t cap)
{
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
