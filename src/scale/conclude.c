/*
 * conclude.c - automatic conclusions of a sweep (CLUE seed 5.2.3), each a
 * record {id, text, effect, noise, unit, verdict, numbers} (report/findings.h).
 *
 * The effect of a conclusion is compared with the noise measured in the same
 * sweep (docs/SCALE.md "How noise is judged"):
 *   - a point's time is best-of-K; its uncertainty is the relative gap of its
 *     best two trials (seed 004);
 *   - a quotient of times (an ACT/s ratio, an efficiency, an efficiency loss)
 *     adds the relative uncertainties of the times in it;
 *   - and never less than the largest difference between two identical
 *     configurations of the sweep (base and nodeorder where the order
 *     changes no neighbours): what the machine does to identical runs.
 * Only an effect larger than that is a finding; a claim that something does
 * not matter is never a finding (the noise bounds it, and the text says so).
 * A record's id names the claim examined ("network-limited"); its verdict
 * says whether the sweep established it.
 * Pairs of conclusions that cannot both hold are reconciled at the end.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/figure.h"
#include "report/findings.h"
#include "scale/scale.h"
#include "trace/json.h"
#include "util/util.h"
#include "workloads/ca.h"

const char *const ps_scale_exclusive[][2] = {{"network-limited", "floating-point-limited"},
                                            {"cost-effective", "not-cost-effective"},
                                            {"node-order-sensitive", "node-order-untestable"},
                                            {NULL, NULL}};

typedef struct pt {
    int    ok, P;
    double t, u, act, eff, f, comm_pct, eff_pm, f_pm, others;
    int    over, nodes;
} pt;

static pt from_json(const json_t *p)
{
    pt r = {0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0, 0};
    r.P = (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks"));
    r.t = ps_json_num(p, "time_s");
    r.ok = isfinite(r.t) && r.t > 0;
    r.u = ps_json_num(json_object_get(p, "time"), "uncertainty");
    r.act = ps_json_num(p, "act_per_s");
    r.eff = ps_json_num(p, "efficiency");
    r.f = ps_json_num(p, "serial_fraction");
    json_t *sh = json_object_get(p, "sheet");
    r.comm_pct = ps_json_num(sh, "overhead_pct") + ps_json_num(sh, "idle_pct");
    json_t *nz = json_object_get(p, "noise");
    r.eff_pm = ps_json_num(nz, "efficiency");
    r.f_pm = ps_json_num(nz, "serial_fraction");
    r.others = ps_json_num(p, "others_busy_pct");
    r.over = json_is_true(json_object_get(p, "oversubscribed"));
    r.nodes = (int)json_integer_value(json_object_get(json_object_get(p, "placement"), "nodes"));
    return r;
}

static pt find(const json_t *doc, const char *var, int P)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        const char *v = json_string_value(json_object_get(p, "variation"));
        if (v && !strcmp(v, var) && json_integer_value(json_object_get(json_object_get(p, "params"), "ranks")) == P)
            return from_json(p);
    }
    pt none = {0, P, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0, 0};
    return none;
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
    json_array_foreach(json_object_get(doc, "points"), i, r) {
        int P = (int)json_integer_value(json_object_get(json_object_get(r, "params"), "ranks"));
        if (P <= 1 || P <= best) continue;
        int all = 1;
        for (int k = 0; k < nv && all; k++) all = find(doc, vars[k], P).ok;
        if (all) best = P;
    }
    return best;
}

int ps_scale_order_differs(int P, uint64_t seed)
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

/* The noise of a relative comparison of figures whose times have the given
 * uncertainties (n of them, NAN = unknown): their sum, at least the largest
 * difference between identical runs (floor, NAN = none measured). */
static double cmp_noise(double floor, int n, ...)
{
    double sum = 0;
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        double u = va_arg(ap, double);
        if (!isfinite(u)) sum = NAN;
        else sum += u;
    }
    va_end(ap);
    if (isfinite(floor) && isfinite(sum) && floor > sum) sum = floor;
    return sum;
}

/* A point's efficiency and serial-fraction uncertainties with the sweep's
 * floor: its speedup's relative uncertainty is T(1)'s and T(P)'s added, at
 * least the largest difference between identical runs. */
static void with_floor(pt *x, pt one, double aa)
{
    if (x->P <= 1) return;
    double us = cmp_noise(aa, 2, one.u, x->u);
    x->eff_pm = x->eff * us;
    x->f_pm = x->eff > 0 ? us / (x->eff * x->P) / (1.0 - 1.0 / x->P) : NAN;
}

/* Efficiency loss of v against base at the same P, relative to base's:
 * 1 - E_v / E_b = 1 - (T_v1 T_bP) / (T_b1 T_vP). */
static double loss(pt b, pt v) { return (b.eff - v.eff) / b.eff; }

static const char *percent(char *buf, size_t n, double v)
{
    if (isfinite(v)) snprintf(buf, n, "%.1f%%", 100 * v);
    else snprintf(buf, n, "-");
    return buf;
}

/* The points where a figure lies above 1 beyond its noise (an impossible
 * value): listed for the finding's claim, with the largest excess and its noise. */
typedef struct above_one {
    char   list[600];
    size_t len;
    double worst, worst_noise;
} above_one;

/* Notes variation v at P when its figure x +/- pm lies above 1 beyond the
 * noise, flagging the point with flag; 1 when it does. */
static int above_one_note(above_one *a, json_t *flags, const char *flag, const char *v, int P, double x, double pm)
{
    if (!isfinite(x) || !isfinite(pm) || !(x - 1 > pm)) return 0;
    json_array_append_new(flags, json_string(flag));
    if (a->len < sizeof a->list)
        a->len += (size_t)snprintf(a->list + a->len, sizeof a->list - a->len, "%s%s P = %d (%.0f%% +/- %.0f%%)",
                                   a->len ? ", " : "", v, P, x * 100, pm * 100);
    if (x - 1 - pm > a->worst) {
        a->worst = x - 1 - pm;
        a->worst_noise = pm;
    }
    return 1;
}

json_t *ps_scale_conclude(const json_t *doc)
{
    json_t *out = json_array();
    double aa = ps_json_num(json_object_get(doc, "noise"), "identical_largest");
    double thr = ps_json_num(doc, "efficiency_threshold");
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
    char claim[2560], q[1024], a1[32], a2[32], a3[32];

    /* ---- at P = 1: the variations' computation alone (seed 4.2) ---- */
    pt b1 = find(doc, "base", 1);
    struct {
        const char *var, *id, *against, *what_claim, *question;
    } one[] = {
        {"int", "float-vs-int", "base",
         "integer arithmetic (int, 32-bit cells, the float's width)",
         "whether integer arithmetic is slower or faster than single-precision float"},
        {"double", "double-computation", "base", "double-precision cells (twice the bytes, computed in double)",
         "whether double precision costs computation time"},
        {"long", "integer-width", "int", "64-bit integer cells (twice int's bytes, the same arithmetic)",
         "whether twice the cell width costs time"},
        {"scatter", "memory-hierarchy", "base", "8 scattered non-adjacent neighbours (locality lost)",
         "whether losing locality costs throughput"},
        {"vonneumann", "stencil-size", "base", "the 4-neighbour stencil (half the additions)",
         "whether a stencil with half the operations is faster"},
    };
    for (size_t k = 0; k < sizeof one / sizeof one[0]; k++) {
        pt ref = find(doc, one[k].against, 1), v = find(doc, one[k].var, 1);
        if (!ref.ok || !v.ok || !isfinite(ref.act) || !isfinite(v.act)) continue;
        double r = v.act / ref.act, effect = r - 1;
        double nz = cmp_noise(aa, 2, ref.u, v.u);
        snprintf(claim, sizeof claim,
                 "At P = 1, %s update at %.3g ACT/s against %.3g for %s: %.0f%% %s (noise %s).%s", one[k].what_claim,
                 v.act, ref.act, one[k].against, fabs(effect) * 100, effect < 0 ? "slower" : "faster",
                 percent(a1, sizeof a1, nz),
                 !strcmp(one[k].id, "stencil-size") && effect < 0
                     ? " Fewer operations do not help: the kernel is bound by memory traffic, not arithmetic."
                 : !strcmp(one[k].id, "integer-width") && effect < 0
                     ? " The width, not the arithmetic, costs: the kernel is bound by memory traffic."
                     : "");
        snprintf(q, sizeof q, "At P = 1, %s (%.3g against %.3g ACT/s)", one[k].question, v.act, ref.act);
        ps_finding_add(out, one[k].id, effect, nz, "relative",
                       nums(4, "act", v.act, "act_reference", ref.act, "ratio", r, "identical_runs", aa), claim, q,
                       NULL);
    }

    /* ---- the network against floating point (seed 4.2, 5.2.3): double and
     * rearrange both double the border bytes; only double also computes in
     * double precision, rearrange computes exactly as base ---- */
    const char *dr[] = {"base", "double", "rearrange"};
    int pn = common_pmax(doc, dr, 3);
    if (pn) {
        pt b = find(doc, "base", pn), d = find(doc, "double", pn), r = find(doc, "rearrange", pn);
        pt d1 = find(doc, "double", 1), r1 = find(doc, "rearrange", 1);
        double ld = loss(b, d), lr = loss(b, r);
        double nd = cmp_noise(aa, 4, b1.u, b.u, d1.u, d.u), nr = cmp_noise(aa, 4, b1.u, b.u, r1.u, r.u);
        json_t *n = nums(7, "ranks", (double)pn, "efficiency_base", b.eff, "efficiency_double", d.eff,
                         "efficiency_rearrange", r.eff, "loss_double", ld, "loss_rearrange", lr, "noise_double", nd);
        if (isfinite(lr) && isfinite(nr) && lr > nr && lr >= PS_SCALE_MIN_EFFECT) {
            snprintf(claim, sizeof claim,
                     "The network limits efficiency at P = %d: rearrange, which computes exactly as base but sends "
                     "twice the border bytes, loses %.0f%% of base's efficiency (%s against %s; noise %s).",
                     pn, lr * 100, percent(a1, sizeof a1, r.eff), percent(a2, sizeof a2, b.eff),
                     percent(a3, sizeof a3, nr));
            ps_finding_add(out, "network-limited", lr, nr, "relative", n, claim, "", NULL);
        } else if (isfinite(ld) && isfinite(nd) && ld - (lr > 0 ? lr : 0) > fmax(nd, nr) &&
                   ld >= PS_SCALE_MIN_EFFECT) {
            double e = ld - (lr > 0 ? lr : 0), nz = fmax(nd, nr);
            snprintf(claim, sizeof claim,
                     "Double precision loses %.0f%% of base's efficiency at P = %d while rearrange, with the same "
                     "doubled border, loses %.0f%%: the cost is double-precision computation, not communication "
                     "(noise %s).",
                     ld * 100, pn, lr * 100, percent(a1, sizeof a1, nz));
            ps_finding_add(out, "floating-point-limited", e, nz, "relative", n, claim, "", NULL);
        } else {
            snprintf(q, sizeof q,
                     "Whether doubling the border bytes costs efficiency at P = %d (rearrange's efficiency is %s, "
                     "double's %s, base's %s)",
                     pn, percent(a1, sizeof a1, r.eff), percent(a2, sizeof a2, d.eff), percent(a3, sizeof a3, b.eff));
            /* beyond the noise but no limit (a gain, or a loss below
             * PS_SCALE_MIN_EFFECT): a finding of its own, never one that the
             * network limits, which the bottleneck is named from */
            int none = isfinite(lr) && isfinite(nr) && fabs(lr) > nr;
            snprintf(claim, sizeof claim,
                     "The network does not limit efficiency at P = %d: rearrange, which sends twice the border bytes, "
                     "%s %.1f%% of base's efficiency (%s against %s; noise %s), %s.",
                     pn, lr < 0 ? "gains" : "loses", fabs(lr) * 100, percent(a1, sizeof a1, r.eff),
                     percent(a2, sizeof a2, b.eff), percent(a3, sizeof a3, nr),
                     lr < 0 ? "so doubling them costs nothing measurable"
                            : "less than a limit would");
            ps_finding_add(out, none ? "network-not-limiting" : "network-limited", lr, nr, "relative", n, claim, q,
                           NULL);
        }
    }

    /* ---- node order (topology): only where the order changes neighbours
     * and the ranks span more than one node ---- */
    if (has_var(doc, "nodeorder")) {
        uint64_t seed = 1;
        const char *sv = json_string_value(
            json_object_get(json_object_get(json_object_get(doc, "params"), "seed"), "value"));
        if (sv) seed = strtoull(sv, NULL, 10);
        int pt_ = 0, multi = 0, pmax = 0;
        size_t i;
        json_t *r;
        json_array_foreach(json_object_get(doc, "points"), i, r) {
            pt x = from_json(r);
            const char *v = json_string_value(json_object_get(r, "variation"));
            if (x.P > pmax) pmax = x.P;
            if (x.nodes > 1 && v && (!strcmp(v, "nodeorder") || !strcmp(v, "base"))) multi = 1;
            if (x.P > pt_ && ps_scale_order_differs(x.P, seed) && find(doc, "base", x.P).ok &&
                find(doc, "nodeorder", x.P).ok)
                pt_ = x.P;
        }
        const char *host = NULL;
        json_array_foreach(json_object_get(doc, "points"), i, r)
            if (!host) host = json_string_value(json_object_get(json_object_get(r, "placement"), "host"));
        json_t *c = NULL;
        if (!multi) {
            snprintf(claim, sizeof claim,
                     "Node order cannot be tested here: every rank ran on one host (%s), where all ranks reach each "
                     "other through its memory, so there is no network topology to see; cannot tell whether node "
                     "order matters without a run over several nodes.",
                     host ? host : "this machine");
            c = ps_finding_add_text(out, "node-order-untestable", NAN, NAN, "relative",
                                    nums(1, "largest_ranks", (double)pmax), "", claim);
        } else if (!pt_) {
            snprintf(claim, sizeof claim,
                     "Node order cannot be tested up to P = %d: every order of a ring of fewer than 4 ranks gives each "
                     "rank the same neighbours; cannot tell whether node order matters (run with P >= 4).",
                     pmax);
            c = ps_finding_add_text(out, "node-order-untestable", NAN, NAN, "relative",
                                    nums(1, "largest_ranks", (double)pmax), "", claim);
        }
        if (c) {
            json_object_set_new(c, "verdict", json_string("untestable"));
        } else {
            pt b = find(doc, "base", pt_), o = find(doc, "nodeorder", pt_), o1 = find(doc, "nodeorder", 1);
            double l = loss(b, o), nz = cmp_noise(aa, 4, b1.u, b.u, o1.u, o.u);
            json_t *n = nums(5, "ranks", (double)pt_, "efficiency_base", b.eff, "efficiency_nodeorder", o.eff,
                             "loss", l, "noise", nz);
            int matters = isfinite(l) && isfinite(nz) && fabs(l) > nz;
            /* on several nodes, which ring neighbours the two orders put on
             * different nodes: the messages that cross a node's link */
            const char **hb = ps_xcalloc((size_t)pt_, sizeof *hb), **ho = ps_xcalloc((size_t)pt_, sizeof *ho);
            int nodes = 1, xb = -1, xo = -1, nodes_o = 0;
            char where[400] = "", how[400] = "";
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
                             nodes, xo, pt_, xb, l > 0 && xo > xb ? ": messages between nodes cost more than within one." : ".");
                else if (matters)
                    snprintf(where, sizeof where,
                             " On %d nodes both orders put %d of the %d ring neighbour pairs on different nodes, so the "
                             "order changes no message's way between nodes; the difference is not explained by the "
                             "nodes (noise or an uneven machine).",
                             nodes, xb, pt_);
                else
                    snprintf(how, sizeof how,
                             "on %d nodes both orders put %d of the %d ring neighbour pairs on different nodes, so the "
                             "order changes no message's way between nodes: place ranks in blocks (e.g. parscope "
                             "emulate --map block) to test it",
                             nodes, xb, pt_);
            }
            if (matters) {
                snprintf(claim, sizeof claim,
                         "Node order matters at P = %d: ranks in a random order %s %.0f%% of efficiency (%s against "
                         "%s, noise %s): the interconnect has a topology in which ring neighbours are %s.%s",
                         pt_, l > 0 ? "lose" : "gain", fabs(l) * 100, percent(a1, sizeof a1, o.eff),
                         percent(a2, sizeof a2, b.eff), percent(a3, sizeof a3, nz), l > 0 ? "closer" : "farther", where);
                ps_finding_add(out, "node-order-sensitive", l, nz, "relative", n, claim, "", NULL);
            } else {
                snprintf(q, sizeof q, "Whether node order matters at P = %d (efficiency %s in random order against %s)",
                         pt_, percent(a1, sizeof a1, o.eff), percent(a2, sizeof a2, b.eff));
                ps_finding_add(out, "node-order-sensitive", l, nz, "relative", n, "", q, how[0] ? how : NULL);
            }
            free(hb);
            free(ho);
        }
    }

    /* ---- efficiency with P, and where adding nodes stops paying ---- */
    {
        pt m1 = find(doc, main_var, 1);
        char list[512] = "", plist[256] = "";
        size_t o1 = 0, o2 = 0;
        int p_last = 0, p_cut = 0, p_before = 1;
        pt last = {0}, cut = {0};
        size_t i;
        json_t *r;
        json_array_foreach(json_object_get(doc, "points"), i, r) {
            const char *v = json_string_value(json_object_get(r, "variation"));
            if (!v || strcmp(v, main_var)) continue;
            pt x = from_json(r);
            if (!x.ok || !isfinite(x.eff)) continue;
            with_floor(&x, m1, aa);
            char pm[32] = "";
            if (x.P > 1 && isfinite(x.eff_pm)) snprintf(pm, sizeof pm, " +/- %.1f", x.eff_pm * 100);
            if (o1 < sizeof list)
                o1 += (size_t)snprintf(list + o1, sizeof list - o1, "%s%.1f%s%%", o1 ? ", " : "", x.eff * 100, pm);
            if (o2 < sizeof plist) o2 += (size_t)snprintf(plist + o2, sizeof plist - o2, "%s%d", o2 ? ", " : "", x.P);
            if (x.P > 1) {
                p_last = x.P;
                last = x;
            }
            if (x.P > 1 && !p_cut && x.eff < thr) {
                p_cut = x.P;
                cut = x;
            } else if (!p_cut) {
                p_before = x.P;
            }
        }
        if (p_last) {
            char sliced[200] = "";
            if (last.over)
                snprintf(sliced, sizeof sliced, " (oversubscribed: the ranks share cores, so this share is time-slicing)");
            else if (isfinite(last.others) && last.others > 100 * PS_SCALE_MIN_EFFECT)
                snprintf(sliced, sizeof sliced,
                         "; other processes used %.0f%% of the machine during that run, so part of the loss may be "
                         "theirs",
                         last.others);
            json_t *n = nums(5, "ranks", (double)p_last, "efficiency", last.eff, "efficiency_noise", last.eff_pm,
                             "serial_fraction", last.f, "communication_pct", last.comm_pct);
            double l = 1 - last.eff;
            json_object_set_new(n, "oversubscribed", json_boolean(last.over));
            if (isfinite(l) && l < 0 && isfinite(last.eff_pm) && -l > last.eff_pm) {
                /* above 1 beyond the noise: flagged below as an impossible value */
            } else if (isfinite(last.comm_pct) && isfinite(l) && l > last.eff_pm) {
                snprintf(claim, sizeof claim,
                         "Efficiency of %s falls with P: %s at P = %s; at P = %d the ranks spend %.0f%% of the time in "
                         "the communication layer (overhead + idle)%s.",
                         main_name, list, plist, p_last, last.comm_pct, sliced);
                snprintf(q, sizeof q, "Whether the efficiency of %s falls with P (%s at P = %s)", main_name, list,
                         plist);
                ps_finding_add(out, "efficiency-falls", l, last.eff_pm, "efficiency", n, claim, q, NULL);
            } else {
                snprintf(claim, sizeof claim, "Efficiency of %s falls with P: %s at P = %s%s.", main_name, list, plist,
                         sliced);
                snprintf(q, sizeof q, "Whether the efficiency of %s falls with P (%s at P = %s)", main_name, list,
                         plist);
                ps_finding_add(out, "efficiency-falls", l, last.eff_pm, "efficiency", n, claim, q, NULL);
            }
            /* the cost-effective cut: the first P under the threshold, by
             * more than its noise; else whether the last P is above it */
            pt x = p_cut ? cut : last;
            double e = p_cut ? thr - x.eff : x.eff - thr;
            json_t *m = nums(5, "beyond", (double)p_before, "ranks", (double)x.P, "efficiency", x.eff,
                             "efficiency_noise", x.eff_pm, "threshold", thr);
            /* one decimal, or two where one would print the margin to the threshold as its noise */
            int dg = ps_fig_pct_digits(e, x.eff_pm, 1);
            if (p_cut) {
                snprintf(claim, sizeof claim,
                         "Adding nodes is not cost effective beyond P = %d: efficiency of %s drops to %.*f%% +/- %.*f%% "
                         "at P = %d, under the %.0f%% threshold.",
                         p_before, main_name, dg, x.eff * 100, dg, x.eff_pm * 100, x.P, thr * 100);
                snprintf(q, sizeof q,
                         "Whether adding nodes beyond P = %d is cost effective (efficiency %.1f%% at P = %d against the "
                         "%.0f%% threshold)",
                         p_before, x.eff * 100, x.P, thr * 100);
                ps_finding_add(out, "not-cost-effective", e, x.eff_pm, "efficiency", m, claim, q, NULL);
            } else {
                snprintf(claim, sizeof claim,
                         "Adding nodes stays cost effective up to P = %d: efficiency of %s is %.*f%% +/- %.*f%% there, "
                         "above the %.0f%% threshold.",
                         x.P, main_name, dg, x.eff * 100, dg, x.eff_pm * 100, thr * 100);
                snprintf(q, sizeof q,
                         "Whether adding nodes stays cost effective up to P = %d (efficiency %.1f%% against the %.0f%% "
                         "threshold)",
                         x.P, x.eff * 100, thr * 100);
                ps_finding_add(out, "cost-effective", e, x.eff_pm, "efficiency", m, claim, q, NULL);
            }
        }
    }

    /* ---- one cell per message (seed 5.2.2) ---- */
    const char *bc[] = {"base", "cellwise"};
    int pc = common_pmax(doc, bc, 2);
    if (pc) {
        pt b = find(doc, "base", pc), c = find(doc, "cellwise", pc), c1 = find(doc, "cellwise", 1);
        double l = loss(b, c), nz = cmp_noise(aa, 4, b1.u, b.u, c1.u, c.u);
        snprintf(claim, sizeof claim,
                 "Sending the borders one cell per message %s %.0f%% of base's efficiency at P = %d (%s against %s, "
                 "noise %s)%s",
                 l >= 0 ? "loses" : "gains", fabs(l) * 100, pc, percent(a1, sizeof a1, c.eff),
                 percent(a2, sizeof a2, b.eff), percent(a3, sizeof a3, nz),
                 l > 0 ? ": the per-message cost of the network stack and its buffers is high." : ".");
        snprintf(q, sizeof q, "Whether one message per cell costs efficiency at P = %d (%s against %s)", pc,
                 percent(a1, sizeof a1, c.eff), percent(a2, sizeof a2, b.eff));
        ps_finding_add(out, "per-message-cost", l, nz,
                       "relative", nums(4, "ranks", (double)pc, "efficiency_base", b.eff, "efficiency_cellwise", c.eff,
                                        "loss", l),
                       claim, q, NULL);
    }

    /* ---- the memory-bandwidth bound ---- */
    const json_t *mbv = json_object_get(json_object_get(doc, "memory_bound"), "variations");
    json_t *mb = json_object_get(mbv, "base");
    if (mb && isfinite(ps_json_num(mb, "fraction")) && b1.ok) {
        /* the kernel as fast as it ran: nodeorder at P = 1, where the sweep measured it as a
         * configuration identical to base (noise.identical_runs), counts as base too, as the
         * fastest trial does within a point (one sweep: base 92.4%, nodeorder 97.4%) */
        const char *from = "";
        json_t *o = json_object_get(mbv, "nodeorder"), *same;
        size_t k;
        json_array_foreach(json_object_get(json_object_get(doc, "noise"), "identical_runs"), k, same) {
            if (json_integer_value(json_object_get(same, "ranks")) == 1 && o &&
                ps_json_num(o, "fraction") > ps_json_num(mb, "fraction")) {
                mb = o;
                from = ", in nodeorder's run, identical to base's at P = 1";
            }
        }
        double fr = ps_json_num(mb, "fraction"), bw = ps_json_num(json_object_get(doc, "memory_bound"), "copy_bytes_per_s");
        double nz = fr * cmp_noise(aa, 1, b1.u);
        int dg = ps_fig_pct_digits(1 - fr, nz, 1);
        snprintf(claim, sizeof claim,
                 "The base kernel reaches %.*f%% +/- %.*f%% of this machine's memory-bandwidth bound at P = 1 (%.3g of "
                 "%.3g ACT/s, from a %.1f GB/s copy over the same footprint%s): something other than memory bandwidth "
                 "limits it.",
                 dg, fr * 100, dg, nz * 100, ps_json_num(mb, "act_per_s"), ps_json_num(mb, "bound_act_per_s"), bw / 1e9,
                 from);
        snprintf(q, sizeof q, "Whether the base kernel runs at the memory-bandwidth bound (%.0f%% of it at P = 1)",
                 fr * 100);
        ps_finding_add(out, "memory-bandwidth", 1 - fr, nz, "efficiency",
                       nums(3, "fraction", fr, "act_per_s", ps_json_num(mb, "act_per_s"), "bound_act_per_s",
                            ps_json_num(mb, "bound_act_per_s")),
                       claim, q, NULL);
    }

    /* ---- impossible values: efficiency above 1 (a negative serial
     * fraction) or a serial fraction above 1, beyond their noise ---- */
    {
        above_one hi = {.worst_noise = NAN}, lo = {.worst_noise = NAN};
        int over = 0, strong = !strcmp(json_string_value(json_object_get(doc, "scaling")) ? json_string_value(json_object_get(doc, "scaling")) : "", "strong");
        double others = NAN;
        size_t i;
        json_t *r;
        json_array_foreach(json_object_get(doc, "points"), i, r) {
            pt x = from_json(r);
            const char *v = json_string_value(json_object_get(r, "variation"));
            with_floor(&x, find(doc, v ? v : "", 1), aa);
            if (x.P <= 1 || !isfinite(x.eff) || !isfinite(x.eff_pm)) continue;
            json_t *flags = json_array();
            above_one_note(&hi, flags, "efficiency above 1", v, x.P, x.eff, x.eff_pm);
            if (above_one_note(&lo, flags, "serial fraction above 1", v, x.P, x.f, x.f_pm)) {
                over |= x.over;
                if (isfinite(x.others) && !(others >= x.others)) others = x.others;
            }
            if (json_array_size(flags)) json_object_set_new(r, "flags", flags);
            else json_decref(flags);
        }
        if (hi.len) {
            snprintf(claim, sizeof claim,
                     "Impossible values: efficiency above 100%% (a negative serial fraction) beyond the noise at %s. "
                     "Likely cause: %s.",
                     hi.list,
                     strong ? "cache effects: each rank's smaller share of the problem fits a faster level of the "
                              "memory hierarchy (superlinear speedup)"
                            : "noise in the one-rank run (its best trial was still disturbed) or a different CPU clock "
                              "between the runs; with the grid per rank fixed the parallel runs do the same work per "
                              "rank");
            ps_finding_add_text(out, "efficiency-superlinear", hi.worst + hi.worst_noise, hi.worst_noise, "efficiency",
                                nums(1, "excess_beyond_noise", hi.worst), claim, "");
        }
        if (lo.len) {
            char why[400];
            if (over)
                snprintf(why, sizeof why, "more ranks than cores: they take turns on the cores (time-slicing)");
            else if (isfinite(others) && others > 5)
                snprintf(why, sizeof why,
                         "other processes took the cores (they used %.0f%% of the machine during the run): the ranks "
                         "took turns with them",
                         others);
            else
                snprintf(why, sizeof why, "the parallel runs are slower than one rank: contention for a shared "
                                          "resource (memory bandwidth, cores) or noise");
            snprintf(claim, sizeof claim,
                     "Impossible values: serial fraction above 100%% beyond the noise at %s: the runs on P ranks took "
                     "longer in all than one rank. Likely cause: %s.",
                     lo.list, why);
            ps_finding_add_text(out, "serial-fraction-above-one", lo.worst + lo.worst_noise, lo.worst_noise, "efficiency",
                                nums(1, "excess_beyond_noise", lo.worst), claim, "");
        }
    }
    ps_findings_reconcile(out, ps_scale_exclusive);
    return out;
}
