/* placement.c - ranks per node against cores: oversubscription (see noise.h).
 *
 * One rule for every command: more ranks on a node than it has cores run
 * (the launcher allows it, as the tests need 4 ranks on 2 cores), but the
 * result says so (oversubscribed: true), the text warns, and the busy /
 * overhead / idle figures are marked: a rank that waits for a core looks
 * busy or idle according to when the scheduler happens to run it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parscope/parscope.h"
#include "launch/meta.h"
#include "launch/noise.h"
#include "util/util.h"

void ps_placement_count_hosts(ps_placement *p, const char *const *host, int n)
{
    p->nodes = p->max_per_node = 0;
    p->busiest[0] = 0;
    for (int r = 0; r < n; r++) {
        int seen = 0, count = 0;
        for (int q = 0; q < n; q++) {
            if (!strcmp(host[q], host[r])) {
                count++;
                if (q < r) seen = 1;
            }
        }
        if (!seen) p->nodes++;
        if (count > p->max_per_node) {
            p->max_per_node = count;
            snprintf(p->busiest, sizeof p->busiest, "%s", host[r]);
        }
    }
}

void ps_placement_of(const ps_trace *t, int ranks, ps_placement *p)
{
    memset(p, 0, sizeof *p);
    const ps_hwinfo *hw = ps_hwinfo_get();
    const char *nc = getenv(PS_ENV_NODE_CORES);
    p->node_cores = nc && atoi(nc) > 0;
    p->cores = p->node_cores ? atoi(nc) : hw->cores > 0 ? hw->cores : hw->pus;
    p->ranks = t ? t->nranks : ranks;
    if (t && t->nranks > 0 && t->rank[0].host[0]) {
        p->from_trace = 1;
        const char **host = ps_xmalloc((size_t)t->nranks * sizeof *host);
        for (int r = 0; r < t->nranks; r++) host[r] = t->rank[r].host;
        ps_placement_count_hosts(p, host, t->nranks);
        free(host);
    } else {
        p->nodes = 1;
        p->max_per_node = p->ranks;
        snprintf(p->busiest, sizeof p->busiest, "%.63s", hw->host);
    }
    p->oversubscribed = p->cores > 0 && p->max_per_node > p->cores;
    /* emulated nodes on one machine's processors: each node may hold no more
     * ranks than its cores, and the job still wait for a processor */
    const char *sp = getenv(PS_ENV_SHARED_PROCESSORS);
    if (!p->oversubscribed && sp && atoi(sp) > 0 && p->ranks > atoi(sp)) {
        p->shared = atoi(sp);
        p->oversubscribed = 1;
    }
}

void ps_placement_warning(const ps_placement *p, char *buf, size_t len)
{
    if (!p->oversubscribed) {
        if (len) buf[0] = '\0';
        return;
    }
    if (p->shared)
        snprintf(buf, len,
                 "oversubscribed: %d ranks on %d nodes that share %d processor%s of one machine, so ranks wait for a "
                 "processor: the times include time-slicing, and busy / overhead / idle show when the scheduler ran "
                 "each rank, not the program", p->ranks, p->nodes, p->shared, p->shared == 1 ? "" : "s");
    else
        snprintf(buf, len,
                 "oversubscribed: %d ranks share %d cores on %s, so ranks wait for a core: the times include "
                 "time-slicing, and busy / overhead / idle show when the scheduler ran each rank, not the program",
                 p->max_per_node, p->cores, p->busiest);
}

json_t *ps_placement_json(const ps_placement *p, const char *source)
{
    json_t *o = json_object();
    json_object_set_new(o, "ranks", json_integer(p->ranks));
    json_object_set_new(o, "nodes", json_integer(p->nodes));
    json_object_set_new(o, "ranks_per_node", json_integer(p->max_per_node));
    json_object_set_new(o, "cores", json_integer(p->cores));
    json_object_set_new(o, "host", json_string(p->busiest));
    if (p->shared) json_object_set_new(o, "shared_processors", json_integer(p->shared));
    json_object_set_new(o, "source", json_string(source));
    return o;
}

void ps_placement_annotate(json_t *doc, const ps_placement *p)
{
    json_object_set_new(doc, "oversubscribed", json_boolean(p->oversubscribed));
    char source[160];
    snprintf(source, sizeof source, "%s, cores from %s",
             p->from_trace ? "the ranks' hosts (trace)" : "all ranks on this host (no trace)",
             p->node_cores ? "the node's share of the machine (" PS_ENV_NODE_CORES ")" : "hwloc");
    json_object_set_new(doc, "placement", ps_placement_json(p, source));
    if (!p->oversubscribed) return;
    char w[512];
    ps_placement_warning(p, w, sizeof w);
    json_t *sheet = json_object_get(doc, "sheet");
    if (json_is_object(sheet)) {
        json_object_set_new(sheet, "time_sliced", json_true());
        json_object_set_new(sheet, "time_sliced_note", json_string(w));
    }
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "ranks"), i, r)
        if (json_is_object(r)) json_object_set_new(r, "time_sliced", json_true());
}
