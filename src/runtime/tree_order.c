/*
 * tree_order.c - the mapping of the LOOP constructs' virtual tree onto the
 * ranks, "tuned by the user" (LOOP seed, section 4.1.1.6): parsed once at
 * start from --tree-order or PARSCOPE_TREE_ORDER (parscope.h has the
 * syntax).  Both back ends run the same patterns, so a recorded run (for
 * the simulator) follows the same tree as a measured one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

static int *pos_rank, *rank_pos; /* NULL: the identity */
static int  order_size;

/* Fills order[0..p-1] from spec; 0, or -1 with msg. */
static int parse_order(const char *spec, int p, int *order, char *msg, size_t len)
{
    if (!strcmp(spec, "linear")) {
        for (int k = 0; k < p; k++) order[k] = k;
        return 0;
    }
    char *end;
    if (!strncmp(spec, "stride:", 7)) {
        errno = 0;
        long s = strtol(spec + 7, &end, 10);
        if (errno || end == spec + 7 || *end || s < 1) {
            snprintf(msg, len, "'%s': the stride is not a whole number >= 1", spec);
            return -1;
        }
        int k = 0;
        for (long first = 0; first < s && first < p; first++)
            for (long r = first; r < p; r += s) order[k++] = (int)r;
        return 0;
    }
    /* an explicit list: a permutation of 0..p-1 starting at 0 */
    int k = 0;
    const char *q = spec;
    char *seen = calloc((size_t)p, 1);
    if (!seen) {
        snprintf(msg, len, "out of memory");
        return -1;
    }
    int rc = 0;
    while (*q && !rc) {
        errno = 0;
        long r = strtol(q, &end, 10);
        if (errno || end == q || (*end && *end != ',')) {
            snprintf(msg, len, "'%s' is not linear, stride:S or a list of ranks R0,R1,...", spec);
            rc = -1;
        } else if (r < 0 || r >= p) {
            snprintf(msg, len, "'%s': rank %ld is outside 0..%d", spec, r, p - 1);
            rc = -1;
        } else if (seen[r]) {
            snprintf(msg, len, "'%s': rank %ld appears twice", spec, r);
            rc = -1;
        } else {
            seen[r] = 1;
            order[k++] = (int)r;
            q = *end ? end + 1 : end;
        }
    }
    free(seen);
    if (!rc && k != p) {
        snprintf(msg, len, "'%s' names %d rank%s, the job has %d", spec, k, k == 1 ? "" : "s", p);
        rc = -1;
    }
    if (!rc && order[0] != 0) {
        snprintf(msg, len, "'%s': the tree's root (the first position) must be rank 0", spec);
        rc = -1;
    }
    return rc;
}

int ps__tree_order_init(const char *spec, int p)
{
    if (!spec || !*spec) {
        const char *e = getenv("PARSCOPE_TREE_ORDER");
        spec = e && *e ? e : "linear";
    }
    free(pos_rank);
    free(rank_pos);
    pos_rank = rank_pos = NULL;
    order_size = p;
    int *order = malloc((size_t)(p > 0 ? p : 1) * sizeof *order);
    int *inv = malloc((size_t)(p > 0 ? p : 1) * sizeof *inv);
    char msg[256];
    if (!order || !inv || parse_order(spec, p, order, msg, sizeof msg) != 0) {
        if (!order || !inv) snprintf(msg, sizeof msg, "out of memory");
        ps__set_error("--tree-order %s", msg);
        free(order);
        free(inv);
        return -1;
    }
    int identity = 1;
    for (int k = 0; k < p; k++) {
        inv[order[k]] = k;
        if (order[k] != k) identity = 0;
    }
    if (identity) {
        free(order);
        free(inv);
        return 0;
    }
    pos_rank = order;
    rank_pos = inv;
    return 0;
}

int ps_tree_rank(int position)
{
    return pos_rank && position >= 0 && position < order_size ? pos_rank[position] : position;
}

int ps_tree_position(int rank)
{
    return rank_pos && rank >= 0 && rank < order_size ? rank_pos[rank] : rank;
}
