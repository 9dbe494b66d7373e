/* eventq.c - growth and life cycle of the simulator's event queue. */
#include "sim/eventq.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/util.h"

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
        if (q->lane[L].b) munmap(q->lane[L].b, q->lane[L].cap * sizeof *q->lane[L].b);
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

/* A lane holds an event per message in flight (a million at 1024 ranks):
 * it grows in place (mremap), so that the memory touched, each first touch a
 * page fault, is the lane's and not the sum of every size it had. */
int ps_eventq_lane_grow(ps_lane *l)
{
    size_t nc = l->cap ? l->cap * 2 : 64;
    ps_qent *b = ps_remap_huge(l->b, l->cap * sizeof *b, nc * sizeof *b);
    if (!b) return -1;
    /* full: its entries run from head to the old end, then from 0 to head;
     * the second part moves past the old end, where they continue */
    PS_ASSERT(l->n == l->cap);
    memcpy(b + l->cap, b, l->head * sizeof *b);
    l->b = b;
    l->cap = nc;
    PS_ASSERT((nc & (nc - 1)) == 0);   /* positions wrap with a mask */
    return 0;
}
