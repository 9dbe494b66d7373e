/*
 * conclude.c - automatic conclusions of a sweep (CLUE seed 5.2.3), each
 * with the numbers behind it.
 *
 * A difference counts when it exceeds the threshold max(5 %, the sweep's
 * noise), the noise being the median relative spread (max - min) / min of
 * the trials of the points.  Efficiency losses are relative to base's
 * efficiency at the same P: (E_base - E_var) / E_base.  The noise is the
 * median over the points of (median - min) / min of their trials: one
 * disturbed trial does not make the whole sweep look noisy.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/ca.h"
#include "scale/scale.h"
#include "util/util.h"

#define MIN_THRESHOLD 0.05

typedef struct pt {
    int    ok;
    double t, act, eff, f, spread, comm_pct;
} pt;

static double getnum(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static pt find(const json_t *doc, const char *var, int P)
{
    pt r = {0, NAN, NAN, NAN, NAN, NAN, NAN};
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        const char *v = json_string_value(json_object_get(p, "variation"));
        if (!v || strcmp(v, var) ||
            json_integer_value(json_object_get(json_object_get(p, "params"), "ranks")) != P)
            continue;
        r.t = getnum(p, "time_s");
        r.ok = isfinite(r.t);
        r.act = getnum(p, "act_per_s");
        r.eff = getnum(p, "efficiency");
        r.f = getnum(p, "serial_fraction");
        json_t *tm = json_object_get(p, "time");
        double mn = getnum(tm, "min"), mx = getnum(tm, "max");
        if (json_integer_value(json_object_get(tm, "successful")) >= 2 && mn > 0) r.spread = (mx - mn) / mn;
        json_t *sh = json_object_get(p, "sheet");
        r.comm_pct = getnum(sh, "overhead_pct") + getnum(sh, "idle_pct");
    }
    return r;
}

static int has_var(const json_t *doc, const char *var)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        const char *v = json_string_value(json_object_get(p, "variation"));
        if (v && !strcmp(v, var)) return 1;
    }
    return 0;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double noise(const json_t *doc)
{
    size_t n = json_array_size(json_object_get(doc, "points")), k = 0, i;
    double *v = ps_xcalloc(n + 1, sizeof *v);
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        json_t *tm = json_object_get(p, "time");
        double mn = getnum(tm, "min"), md = getnum(tm, "median");
        if (json_integer_value(json_object_get(tm, "successful")) >= 2 && mn > 0) v[k++] = (md - mn) / mn;
    }
    double r = 0;
    if (k) {
        if (k) qsort(v, k, sizeof *v, cmp_d);
        r = k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
    }
    free(v);
    return r;
}

static void add(json_t *arr, const char *id, json_t *numbers, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(json_t *arr, const char *id, json_t *numbers, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    json_t *c = json_object();
    json_object_set_new(c, "id", json_string(id));
    json_object_set_new(c, "text", json_string(text));
    json_object_set_new(c, "numbers", numbers ? numbers : json_object());
    json_array_append_new(arr, c);
}

static json_t *nums(int n, ...)
{
    json_t *o = json_object();
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        const char *k = va_arg(ap, const char *);
        double v = va_arg(ap, double);
        json_object_set_new(o, k, isfinite(v) ? json_real(v) : json_null());
    }
    va_end(ap);
    return o;
}

/* The largest P > 1 where every named variation has a measured point. */
static int common_pmax(const json_t *doc, const char *const *vars, int nv)
{
    int best = 0;
    size_t i;
    json_t *r;
    json_t *pts = json_object_get(doc, "points");
    json_array_foreach(pts, i, r) {
        int P = (int)json_integer_value(json_object_get(json_object_get(r, "params"), "ranks"));
        if (P <= 1 || P <= best) continue;
        int all = 1;
        for (int k = 0; k < nv && all; k++) all = find(doc, vars[k], P).ok;
        if (all) best = P;
    }
    return best;
}

static double loss(pt base, pt v) { return (base.eff - v.eff) / base.eff; }

/* Does the nodeorder permutation at P change who neighbours whom? */
static int order_differs(int P, uint64_t seed)
{
    if (P < 4) return 0; /* rings of 1..3 ranks: every order has the same neighbours */
    int *pos = ps_xcalloc((size_t)P, sizeof(int)), *at = ps_xcalloc((size_t)P, sizeof(int));
    ps_ca_permutation(P, seed, pos);
    for (int r = 0; r < P; r++) at[pos[r]] = r;
    int differs = 0;
    for (int r = 0; r < P && !differs; r++) {
        int a = at[(pos[r] + 1) % P], b = at[(pos[r] + P - 1) % P];
        int x = (r + 1) % P, y = (r + P - 1) % P;
        differs = !((a == x && b == y) || (a == y && b == x));
    }
    free(pos);
    free(at);
    return differs;
}

/* Where the ranks ran: the host of each rank of a point (its rank sheets),
 * or 0 when the point does not say. */
static int point_hosts(const json_t *doc, const char *var, int P, const char **host)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        const char *v = json_string_value(json_object_get(p, "variation"));
        if (!v || strcmp(v, var) || json_integer_value(json_object_get(json_object_get(p, "params"), "ranks")) != P)
            continue;
        const json_t *rs = json_object_get(p, "ranks");
        if (json_array_size(rs) != (size_t)P) return 0;
        for (int r = 0; r < P; r++)
            if (!(host[r] = json_string_value(json_object_get(json_array_get(rs, (size_t)r), "host")))) return 0;
        return 1;
    }
    return 0;
}

/* Ring neighbour pairs on different hosts: in rank order (random = 0) or
 * in the nodeorder permutation; *nodes gets the distinct hosts. */
static int pairs_across(int P, const char **host, int random, uint64_t seed, int *nodes)
{
    int *pos = ps_xcalloc((size_t)P, sizeof(int)), *at = ps_xcalloc((size_t)P, sizeof(int));
    if (random) ps_ca_permutation(P, seed, pos);
    else
        for (int r = 0; r < P; r++) pos[r] = r;
    for (int r = 0; r < P; r++) at[pos[r]] = r;
    int across = 0;
    for (int k = 0; k < P; k++) across += strcmp(host[at[k]], host[at[(k + 1) % P]]) != 0;
    *nodes = 0;
    for (int r = 0; r < P; r++) {
        int seen = 0;
        for (int q = 0; q < r && !seen; q++) seen = !strcmp(host[q], host[r]);
        *nodes += !seen;
    }
    free(pos);
    free(at);
    return across;
}

json_t *ps_scale_conclude(const json_t *doc)
{
    json_t *out = json_array();
    double nz = noise(doc);
    double T = nz > MIN_THRESHOLD ? nz : MIN_THRESHOLD;
    double thr = getnum(doc, "efficiency_threshold");
    if (!(thr > 0)) thr = PS_SCALE_EFF_THRESHOLD;
    const char *first = NULL;
    json_t *p0 = json_array_get(json_object_get(doc, "points"), 0);
    if (p0) first = json_string_value(json_object_get(p0, "variation"));
    if (!first) return out;
    const char *main_var = has_var(doc, "base") ? "base" : first;
    /* other workloads have one variation, "default": name the workload instead */
    const char *main_name = main_var;
    if (!strcmp(main_var, "default") && json_string_value(json_object_get(doc, "workload")))
        main_name = json_string_value(json_object_get(doc, "workload"));

    /* float against integer (seed 4.2) */
    pt b1 = find(doc, "base", 1), i1 = find(doc, "int", 1), d1 = find(doc, "double", 1);
    if (b1.ok && i1.ok && isfinite(b1.act) && isfinite(i1.act)) {
        double r = i1.act / b1.act;
        add(out, "float-vs-int", nums(3, "act_int", i1.act, "act_float", b1.act, "ratio", r),
            "Float against integer: at P = 1 integer cells (int) update at %.3g ACT/s and single-precision "
            "float cells (base) at %.3g ACT/s: integer arithmetic is %.0f%% %s here%s.",
            i1.act, b1.act, fabs(r - 1) * 100, r >= 1 ? "faster" : "slower",
            fabs(r - 1) < T ? " (within the noise threshold)" : "");
    }
    if (b1.ok && d1.ok && isfinite(b1.act) && isfinite(d1.act)) {
        double r = d1.act / b1.act;
        add(out, "double-computation", nums(3, "act_double", d1.act, "act_float", b1.act, "ratio", r),
            "Double precision on computation: at P = 1 (no communication) double cells update at %.3g ACT/s "
            "against %.3g for float: %.0f%% %s.",
            d1.act, b1.act, fabs(1 - r) * 100, r <= 1 ? "slower" : "faster");
    }
    /* double precision on the network versus on floating point (seed 4.2,
     * 5.2.3): double and rearrange both double the border bytes; only
     * double also computes in double precision */
    const char *dr[] = {"base", "double", "rearrange"};
    int pn = common_pmax(doc, dr, 3);
    if (pn) {
        pt b = find(doc, "base", pn), d = find(doc, "double", pn), r = find(doc, "rearrange", pn);
        double ld = loss(b, d), lr = loss(b, r);
        json_t *n = nums(7, "ranks", (double)pn, "efficiency_base", b.eff, "efficiency_double", d.eff,
                         "efficiency_rearrange", r.eff, "loss_double", ld, "loss_rearrange", lr, "threshold", T);
        if (lr >= T) {
            /* rearrange computes exactly as base: only its border bytes differ */
            json_object_set_new(n, "network_limited", json_true());
            add(out, "network-limited", n,
                "The network limits efficiency at P = %d: rearrange, which computes exactly as base but sends "
                "twice the border bytes, loses %.0f%% of base's efficiency (%.1f%% against %.1f%%); double, twice "
                "the bytes both sent and computed, loses %.0f%% (%.1f%%)%s (threshold %.0f%%).",
                pn, lr * 100, r.eff * 100, b.eff * 100, ld * 100, d.eff * 100,
                ld >= T ? "" : ": its computation grows with the bytes as well, keeping communication's share",
                T * 100);
        } else if (ld >= T) {
            add(out, "floating-point-limited", n,
                "Double precision loses %.0f%% of base's efficiency at P = %d while rearrange, with the same "
                "doubled border, loses %.0f%%: the cost is double-precision computation, not communication "
                "(threshold %.0f%%).",
                ld * 100, pn, lr * 100, T * 100);
        } else {
            add(out, "border-bytes-free", n,
                "Doubling the border bytes costs no efficiency at P = %d: double loses %.1f%% and rearrange "
                "%.1f%% of base's efficiency, within the %.0f%% threshold.",
                pn, ld * 100, lr * 100, T * 100);
        }
    }
    /* node order (topology) */
    if (has_var(doc, "nodeorder")) {
        const char *bn[] = {"base", "nodeorder"};
        uint64_t seed = 1;
        const char *sv = json_string_value(
            json_object_get(json_object_get(json_object_get(doc, "params"), "seed"), "value"));
        if (sv) seed = strtoull(sv, NULL, 10);
        int pt_ = 0;
        size_t i;
        json_t *r;
        json_array_foreach(json_object_get(doc, "points"), i, r) {
            int P = (int)json_integer_value(json_object_get(json_object_get(r, "params"), "ranks"));
            if (P > pt_ && order_differs(P, seed) && find(doc, "base", P).ok && find(doc, "nodeorder", P).ok)
                pt_ = P;
        }
        (void)bn;
        if (!pt_) {
            add(out, "node-order-untested", NULL,
                "Node order not tested: up to the largest P measured every order of the ranks gives each rank "
                "the same neighbours (a ring needs P >= 4 for a different order).");
        } else {
            pt b = find(doc, "base", pt_), o = find(doc, "nodeorder", pt_);
            double l = loss(b, o);
            json_t *n = nums(6, "ranks", (double)pt_, "efficiency_base", b.eff, "efficiency_nodeorder", o.eff,
                             "loss", l, "threshold", T, "noise", nz);
            /* on several nodes, which ring neighbours the two orders put on
             * different nodes: the messages that cross a node's link */
            const char **hb = ps_xcalloc((size_t)pt_, sizeof *hb), **ho = ps_xcalloc((size_t)pt_, sizeof *ho);
            int nodes = 1, xb = -1, xo = -1, nodes_o = 0;
            char where[400] = "";
            if (point_hosts(doc, "base", pt_, hb) && point_hosts(doc, "nodeorder", pt_, ho)) {
                xb = pairs_across(pt_, hb, 0, seed, &nodes);
                xo = pairs_across(pt_, ho, 1, seed, &nodes_o);
            }
            if (nodes > 1) {
                json_object_set_new(n, "nodes", json_integer(nodes));
                json_object_set_new(n, "neighbours_across_nodes_base", json_integer(xb));
                json_object_set_new(n, "neighbours_across_nodes_nodeorder", json_integer(xo));
                if (xo != xb)
                    snprintf(where, sizeof where,
                             " On %d nodes, %d of the %d ring neighbour pairs are on different nodes in random order "
                             "against %d in rank order%s",
                             nodes, xo, pt_, xb,
                             l >= T && xo > xb   ? ": messages between nodes cost more than within one."
                             : l < T && xo > xb  ? ", yet no extra cost of crossing nodes shows."
                                                 : ".");
                else
                    snprintf(where, sizeof where,
                             " On %d nodes both orders put %d of the %d ring neighbour pairs on different nodes, "
                             "so the order changes no message's way between nodes%s",
                             nodes, xb, pt_,
                             l >= T ? "; the loss is not explained by the nodes (noise or an uneven machine)."
                                    : " (place ranks in blocks, e.g. parscope emulate --map block, to test it).");
            }
            if (l >= T)
                add(out, "node-order-sensitive", n,
                    "Node order matters at P = %d: ranks in a random order lose %.0f%% of efficiency (%.1f%% "
                    "against %.1f%%; the threshold is %.0f%%, the sweep's noise %.0f%%): the interconnect has a "
                    "topology in which ring neighbours are closer.%s",
                    pt_, l * 100, o.eff * 100, b.eff * 100, T * 100, nz * 100, where);
            else
                add(out, "node-order-insensitive", n,
                    "Node order does not matter at P = %d (efficiency %.1f%% in random order against %.1f%%, "
                    "a difference within the %.0f%% threshold; the sweep's noise %.0f%%): no topology is visible, "
                    "as with a switch or shared memory.%s",
                    pt_, o.eff * 100, b.eff * 100, T * 100, nz * 100, where);
            free(hb);
            free(ho);
        }
    }
    /* efficiency with P, and where adding nodes stops paying */
    {
        char list[512] = "", plist[256] = "";
        size_t o1 = 0, o2 = 0;
        double e_first = NAN, e_last = NAN;
        int p_last = 0, p_cut = 0, p_before = 1;
        double e_cut = NAN;
        pt last = {0};
        size_t i;
        json_t *r;
        json_array_foreach(json_object_get(doc, "points"), i, r) {
            const char *v = json_string_value(json_object_get(r, "variation"));
            if (!v || strcmp(v, main_var)) continue;
            int P = (int)json_integer_value(json_object_get(json_object_get(r, "params"), "ranks"));
            pt x = find(doc, main_var, P);
            if (!x.ok || !isfinite(x.eff)) continue;
            if (o1 < sizeof list) o1 += (size_t)snprintf(list + o1, sizeof list - o1, "%s%.1f%%", o1 ? ", " : "", x.eff * 100);
            if (o2 < sizeof plist) o2 += (size_t)snprintf(plist + o2, sizeof plist - o2, "%s%d", o2 ? ", " : "", P);
            if (P > 1 && isnan(e_first)) e_first = x.eff;
            if (P > 1) {
                e_last = x.eff;
                p_last = P;
                last = x;
            }
            if (!p_cut && x.eff < thr) {
                p_cut = P;
                e_cut = x.eff;
            } else if (!p_cut) {
                p_before = P;
            }
        }
        if (p_last) {
            json_t *n = nums(4, "ranks", (double)p_last, "efficiency", e_last, "serial_fraction", last.f,
                             "communication_pct", last.comm_pct);
            if (e_last < 1 - T) {
                int comm = isfinite(last.comm_pct) && last.comm_pct >= T * 100;
                json_object_set_new(n, "communication_bound", json_boolean(comm));
                if (comm)
                    add(out, "efficiency-falls", n,
                        "Efficiency of %s falls with P: %s at P = %s; communication-bound: at P = %d the ranks "
                        "spend %.0f%% of the time in the communication layer (overhead + idle).",
                        main_name, list, plist, p_last, last.comm_pct);
                else
                    add(out, "efficiency-falls", n, "Efficiency of %s falls with P: %s at P = %s.", main_name, list,
                        plist);
            } else {
                add(out, "efficiency-holds", n, "Efficiency of %s holds with P: %s at P = %s (within %.0f%%).",
                    main_name, list, plist, T * 100);
            }
            (void)e_first;
            if (p_cut) {
                add(out, "not-cost-effective",
                    nums(4, "beyond", (double)p_before, "ranks", (double)p_cut, "efficiency", e_cut, "threshold", thr),
                    "Adding nodes is not cost effective beyond P = %d: efficiency of %s drops to %.1f%% at P = %d, "
                    "under the %.0f%% threshold.",
                    p_before, main_name, e_cut * 100, p_cut, thr * 100);
            } else {
                add(out, "cost-effective", nums(2, "ranks", (double)p_last, "threshold", thr),
                    "Adding nodes stays cost effective up to P = %d: efficiency of %s never drops under %.0f%%.",
                    p_last, main_name, thr * 100);
            }
        }
    }
    /* the further variations (seed 5.2.2) */
    const char *bc[] = {"base", "cellwise"};
    int pc = common_pmax(doc, bc, 2);
    if (pc) {
        pt b = find(doc, "base", pc), c = find(doc, "cellwise", pc);
        double l = loss(b, c);
        add(out, l >= T ? "per-message-cost" : "per-message-cost-small",
            nums(4, "ranks", (double)pc, "efficiency_base", b.eff, "efficiency_cellwise", c.eff, "loss", l),
            "Sending the borders one cell per message %s %.0f%% of base's efficiency at P = %d (%.1f%% against "
            "%.1f%%)%s",
            l >= 0 ? "loses" : "gains", fabs(l) * 100, pc, c.eff * 100, b.eff * 100,
            l >= T ? ": the per-message cost of the network stack and its buffers is high." : ", within the threshold.");
    }
    pt s1 = find(doc, "scatter", 1), v1 = find(doc, "vonneumann", 1);
    if (b1.ok && s1.ok && isfinite(s1.act)) {
        double r = s1.act / b1.act;
        add(out, "memory-hierarchy", nums(3, "act_scatter", s1.act, "act_base", b1.act, "ratio", r),
            "Memory hierarchy: with 8 scattered non-adjacent neighbours the cells update at %.3g ACT/s, %.0f%% of "
            "base's %.3g at P = 1: losing locality costs %.0f%% of the throughput.",
            s1.act, r * 100, b1.act, (1 - r) * 100);
    }
    if (b1.ok && v1.ok && isfinite(v1.act)) {
        double r = v1.act / b1.act;
        add(out, "stencil-size", nums(3, "act_vonneumann", v1.act, "act_base", b1.act, "ratio", r),
            "The 4-neighbour stencil updates at %.3g ACT/s, %.2f times the 8-neighbour base (%.3g) at P = 1%s",
            v1.act, r, b1.act,
            r < 1.25 ? ": fewer operations per cell do not make it faster, the kernel is bound by memory traffic."
                     : ": the arithmetic of the stencil matters.");
    }
    json_t *mb = json_object_get(json_object_get(json_object_get(doc, "memory_bound"), "variations"), "base");
    if (mb && isfinite(getnum(mb, "fraction"))) {
        double bw = getnum(json_object_get(doc, "memory_bound"), "copy_bytes_per_s");
        add(out, "memory-bandwidth",
            nums(3, "fraction", getnum(mb, "fraction"), "act_per_s", getnum(mb, "act_per_s"), "bound_act_per_s",
                 getnum(mb, "bound_act_per_s")),
            "The base kernel reaches %.0f%% of this machine's memory-bandwidth bound at P = 1 (%.3g of %.3g ACT/s, "
            "from a %.1f GB/s copy over the same footprint).",
            getnum(mb, "fraction") * 100, getnum(mb, "act_per_s"), getnum(mb, "bound_act_per_s"), bw / 1e9);
    }
    return out;
}
