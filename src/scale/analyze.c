/* analyze.c - from the plan and the run records to the "scale" document (see scale.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "launch/noise.h"
#include "report/result.h"
#include "scale/metrics.h"
#include "scale/scale.h"
#include "trace/json.h"
#include "util/stats.h"
#include "util/util.h"

static void copy_key(json_t *dst, const json_t *src, const char *k)
{
    json_t *v = json_object_get(src, k);
    if (v) json_object_set(dst, k, v);
}

const json_t *ps_scale_find_run(const json_t *runs, const char *variation, int ranks, int trial)
{
    const json_t *rec = NULL;
    size_t i;
    json_t *r;
    json_array_foreach(runs, i, r) {
        const char *v = json_string_value(json_object_get(r, "variation"));
        if (v && !strcmp(v, variation) && json_integer_value(json_object_get(r, "ranks")) == ranks &&
            json_integer_value(json_object_get(r, "trial")) == trial)
            rec = r;
    }
    return rec;
}

/* Where a run's ranks ran: the record's own placement (the sweep stores
 * it), else counted from its per-rank hosts with the plan's cores. */
static json_t *placement_of(const json_t *rec, const json_t *plan, int P)
{
    json_t *pl = json_object_get(rec, "placement");
    if (json_is_object(pl)) return json_deep_copy(pl);
    const json_t *rs = json_object_get(rec, "rank_sheets");
    int n = (int)json_array_size(rs);
    if (n == 0) return json_null();
    const char **host = ps_xmalloc((size_t)n * sizeof *host);
    for (int r = 0; r < n; r++) {
        host[r] = json_string_value(json_object_get(json_array_get(rs, (size_t)r), "host"));
        if (!host[r]) {
            free(host);
            return json_null();
        }
    }
    ps_placement p;
    memset(&p, 0, sizeof p);
    ps_placement_count_hosts(&p, host, n);
    free(host);
    p.ranks = P;
    p.cores = (int)json_integer_value(json_object_get(json_object_get(plan, "machine"), "cores"));
    return ps_placement_json(&p, "the ranks' hosts (run record), cores from the plan's machine");
}

/* The relative uncertainty of a point's time (best-of-K: the best two's gap). */
static double time_unc(const json_t *pt)
{
    return ps_json_num(json_object_get(pt, "time"), "uncertainty");
}

/* The counters' getrusage snapshots lie just outside the clock's readings of
 * the timed interval (runtime/memcount.c): this much CPU time, seconds. */
#define PS_SCALE_COUNTER_SLACK 1e-4

/* A point's process metrics against its execution time: over the same
 * interval no rank can use more CPU than the interval lasted, beyond the
 * time's noise (the best two trials' gap) and the counters' slack.  More
 * means CPU the rank's clock did not see (MPI's helper threads, a
 * whole-process figure): procstats.user_check says so. */
static void procstats_check(json_t *pt, double tp)
{
    const json_t *rec = json_object_get(pt, "procstats");
    if (!json_is_object(rec) || !json_is_true(json_object_get(rec, "timed")) || !(tp > 0)) return;
    double u = time_unc(pt), umax = ps_json_num(json_object_get(rec, "user_s"), "max");
    if (!isfinite(umax)) return;
    /* the run record's object is shared: the point gets its own */
    json_t *ps = json_deep_copy(rec);
    json_object_set_new(pt, "procstats", ps);
    double lim = tp * (1 + (isfinite(u) ? u : 0)) + PS_SCALE_COUNTER_SLACK;
    json_t *c = json_object();
    json_object_set_new(c, "user_max_s", json_real(umax));
    json_object_set_new(c, "limit_s", json_real(lim));
    json_object_set_new(c, "within", json_boolean(umax <= lim));
    if (umax > lim)
        json_object_set_new(c, "note", json_string("a rank used more CPU than the timed interval lasted, beyond the "
                                                   "noise: CPU its clock did not see (MPI's helper threads)"));
    json_object_set_new(ps, "user_check", c);
}

/* Identical configurations measured as two points of one sweep (base and
 * nodeorder where the order gives every rank the same neighbours): their
 * difference is noise, whatever the trials' gaps say. */
static json_t *identical_runs(const json_t *doc, double *largest)
{
    json_t *a = json_array();
    *largest = NAN;
    const json_t *pts = json_object_get(doc, "points");
    uint64_t seed = 1;
    const char *sv = json_string_value(json_object_get(json_object_get(json_object_get(doc, "params"), "seed"), "value"));
    if (sv) seed = strtoull(sv, NULL, 10);
    size_t i, j;
    json_t *p, *q;
    json_array_foreach(pts, i, p) {
        const char *v = json_string_value(json_object_get(p, "variation"));
        if (!v || strcmp(v, "base")) continue;
        int P = (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks"));
        if (ps_scale_order_differs(P, seed)) continue;
        json_array_foreach(pts, j, q) {
            const char *w = json_string_value(json_object_get(q, "variation"));
            if (!w || strcmp(w, "nodeorder") ||
                json_integer_value(json_object_get(json_object_get(q, "params"), "ranks")) != P)
                continue;
            double ta = ps_json_num(p, "time_s"), tb = ps_json_num(q, "time_s");
            if (!(ta > 0 && tb > 0)) continue;
            double d = fabs(ta - tb) / fmin(ta, tb);
            json_t *o = json_object();
            json_object_set_new(o, "a", json_string("base"));
            json_object_set_new(o, "b", json_string("nodeorder"));
            json_object_set_new(o, "ranks", json_integer(P));
            json_object_set_new(o, "time_a", json_real(ta));
            json_object_set_new(o, "time_b", json_real(tb));
            json_object_set_new(o, "difference", json_real(d));
            json_array_append_new(a, o);
            if (!(*largest >= d)) *largest = d;
        }
    }
    return a;
}

/* The uncertainty of every derived figure of a point (docs/SCALE.md
 * "Statistics"): time and ACT/s carry the point's own; speedup and
 * efficiency are quotients of T(1) and T(P), so their relative uncertainties
 * add; the serial fraction's follows from the speedup's. */
static json_t *point_noise(const json_t *pt, double u1, int P)
{
    double u = time_unc(pt), e = ps_json_num(pt, "efficiency"), s = ps_json_num(pt, "speedup");
    json_t *o = json_object();
    json_object_set_new(o, "time", ps_json_real_or_null(u));
    json_object_set_new(o, "act_per_s", ps_json_real_or_null(ps_json_num(pt, "act_per_s") * u));
    if (P > 1) {
        double us = ps_uncertainty_ratio(u1, u);
        json_object_set_new(o, "speedup", ps_json_real_or_null(s * us));
        json_object_set_new(o, "efficiency", ps_json_real_or_null(e * us));
        /* f = (1/S - 1/P) / (1 - 1/P): |df| = (1/S) us / (1 - 1/P) */
        json_object_set_new(o, "serial_fraction", ps_json_real_or_null(s > 0 ? us / s / (1.0 - 1.0 / P) : NAN));
    } else {
        json_object_set_new(o, "speedup", json_null());
        json_object_set_new(o, "efficiency", json_null());
        json_object_set_new(o, "serial_fraction", json_null());
    }
    json_object_set_new(o, "method", json_string("time: the best two trials' gap; speedup and efficiency: T(1)'s and "
                                                 "T(P)'s added; serial fraction: from the speedup's"));
    return o;
}

/* The CLUE seed's averages (3.5) "for each node count, each variation type,
 * and overall": ACT/s and net ACT/s over every point of the group, efficiency
 * and serial fraction over its points with P > 1 (at P = 1 they are 1 and
 * undefined by definition). */
static void avg_add(double *sum, int *n, double v)
{
    if (isfinite(v)) {
        *sum += v;
        (*n)++;
    }
}

static json_t *average_of(const json_t *points, const char *var, int ranks)
{
    double sa = 0, sn = 0, se = 0, sf = 0;
    int na = 0, nn = 0, ne = 0, nf = 0, count = 0;
    size_t i;
    json_t *p;
    json_array_foreach(points, i, p) {
        const char *v = json_string_value(json_object_get(p, "variation"));
        int P = (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks"));
        if ((var && (!v || strcmp(v, var))) || (ranks > 0 && P != ranks)) continue;
        if (!isfinite(ps_json_num(p, "time_s"))) continue;
        count++;
        avg_add(&sa, &na, ps_json_num(p, "act_per_s"));
        avg_add(&sn, &nn, ps_json_num(p, "net_act_per_s"));
        if (P > 1) {
            avg_add(&se, &ne, ps_json_num(p, "efficiency"));
            avg_add(&sf, &nf, ps_json_num(p, "serial_fraction"));
        }
    }
    json_t *o = json_object();
    if (var) json_object_set_new(o, "variation", json_string(var));
    if (ranks > 0) json_object_set_new(o, "ranks", json_integer(ranks));
    json_object_set_new(o, "points", json_integer(count));
    json_object_set_new(o, "act_per_s", ps_json_real_or_null(na ? sa / na : NAN));
    json_object_set_new(o, "net_act_per_s", ps_json_real_or_null(nn ? sn / nn : NAN));
    json_object_set_new(o, "efficiency", ps_json_real_or_null(ne ? se / ne : NAN));
    json_object_set_new(o, "serial_fraction", ps_json_real_or_null(nf ? sf / nf : NAN));
    return o;
}

static json_t *averages(const json_t *plan, const json_t *points)
{
    json_t *o = json_object(), *byp = json_array(), *byv = json_array();
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(plan, "ranks"), i, x)
        json_array_append_new(byp, average_of(points, NULL, (int)json_integer_value(x)));
    json_array_foreach(json_object_get(plan, "variations"), i, x)
        json_array_append_new(byv, average_of(points, json_string_value(x), 0));
    json_object_set_new(o, "by_ranks", byp);
    json_object_set_new(o, "by_variation", byv);
    json_object_set_new(o, "overall", average_of(points, NULL, 0));
    json_object_set_new(o, "note", json_string("ACT/s over every point of the group; efficiency and serial fraction "
                                               "over its points with P > 1 (CLUE seed 3.5)"));
    return o;
}

json_t *ps_scale_analyze(const json_t *plan, const json_t *runs)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "kind", json_string("scale"));
    copy_key(doc, plan, "workload");
    copy_key(doc, plan, "scaling");
    copy_key(doc, plan, "trials");
    copy_key(doc, plan, "params");
    copy_key(doc, plan, "machine");
    copy_key(doc, plan, "started");
    copy_key(doc, plan, "timing_run_cells_per_s");
    copy_key(doc, plan, "efficiency_threshold");
    json_object_set_new(doc, "time_used", json_string("min"));
    int is_clue = json_is_true(json_object_get(plan, "is_clue"));
    const char *scaling = json_string_value(json_object_get(plan, "scaling"));
    int weak = scaling && !strcmp(scaling, "weak");
    long w = (long)json_integer_value(json_object_get(plan, "width"));
    long h = (long)json_integer_value(json_object_get(plan, "height"));
    long iters = (long)json_integer_value(json_object_get(plan, "iterations"));
    long size = (long)json_integer_value(json_object_get(plan, "size"));
    int trials = (int)json_integer_value(json_object_get(plan, "trials"));
    /* automatic trials: beyond the minimum a point has the trials it needed */
    const json_t *ta = json_object_get(plan, "trials_auto");
    int min_trials = json_is_object(ta) ? (int)json_integer_value(json_object_get(ta, "min")) : trials;
    if (is_clue) {
        json_t *g = json_object();
        json_object_set_new(g, "width", json_integer(w));
        json_object_set_new(g, "height", json_integer(h));
        json_object_set_new(g, "iterations", json_integer(iters));
        json_object_set_new(g, "per_rank", json_boolean(weak));
        json_object_set_new(doc, "grid", g);
    }
    json_t *vars = json_object_get(plan, "variations"), *ranks = json_object_get(plan, "ranks");
    json_t *points = json_array(), *missing = json_array(), *fits = json_array();
    size_t vi, ri;
    json_t *vj, *rj;
    json_array_foreach(vars, vi, vj) {
        const char *vname = json_string_value(vj);
        const ps_ca_variation *var = is_clue ? ps_ca_variation_find(vname) : NULL;
        long viters = iters;
        json_t *ib = json_object_get(json_object_get(plan, "iterations_by_variation"), vname);
        if (json_is_integer(ib)) viters = (long)json_integer_value(ib);
        double t1 = NAN;
        int np = 0, pv[PS_SCALE_MAX_POINTS];
        double sv[PS_SCALE_MAX_POINTS];
        json_array_foreach(ranks, ri, rj) {
            int P = (int)json_integer_value(rj);
            double *samples = ps_xcalloc((size_t)(trials > 0 ? trials : 1), sizeof(double));
            int ns = 0;
            const json_t *best = NULL;
            json_t *failed = json_array();
            for (int t = 1; t <= trials; t++) {
                const json_t *rec = ps_scale_find_run(runs, vname, P, t);
                if (!rec && t > min_trials) continue;
                if (!rec) {
                    json_t *m = json_object();
                    json_object_set_new(m, "variation", json_string(vname));
                    json_object_set_new(m, "ranks", json_integer(P));
                    json_object_set_new(m, "trial", json_integer(t));
                    json_array_append_new(missing, m);
                    continue;
                }
                double tm = ps_json_num(rec, "time");
                const char *st = json_string_value(json_object_get(rec, "status"));
                if (!st || strcmp(st, "ok") || !isfinite(tm)) {
                    tm = NAN;
                    json_t *f = json_object();
                    json_object_set_new(f, "trial", json_integer(t));
                    copy_key(f, rec, "message");
                    json_array_append_new(failed, f);
                } else if (!best || tm < ps_json_num(best, "time")) {
                    best = rec;
                }
                samples[ns++] = tm;
            }
            json_t *pt = json_object();
            json_object_set_new(pt, "kind", json_string("run"));
            copy_key(pt, plan, "workload");
            json_object_set_new(pt, "variation", json_string(vname));
            json_t *par = json_object();
            json_object_set_new(par, "ranks", json_integer(P));
            json_object_set_new(par, "size", json_integer(is_clue ? (weak ? w * h : w * h / P) : size));
            json_object_set_new(par, "iterations", json_integer(viters));
            if (is_clue) {
                /* the grid computed, as `run clue` records it (rearrange: 2W x H/2) */
                int re = var && var->rearrange;
                json_object_set_new(par, "grid", json_sprintf("%ldx%ld", re ? 2 * w : w, re ? h / 2 : h));
                json_object_set_new(par, "grid_per_rank", json_boolean(weak));
            }
            json_object_set_new(pt, "params", par);
            json_object_set_new(pt, "time", ps_result_time(samples, ns));
            json_object_set_new(pt, "status", json_string(best ? "ok" : ns ? "failed" : "missing"));
            json_object_set_new(pt, "failed_trials", failed);
            double tp = best ? ps_json_num(best, "time") : NAN;
            if (P == 1) t1 = tp;
            if (best) {
                copy_key(pt, best, "sheet");
                json_t *rs = json_object_get(best, "rank_sheets");
                if (rs) json_object_set(pt, "ranks", rs);
                copy_key(pt, best, "procstats");
                copy_key(pt, best, "procstats_ranks");
                copy_key(pt, best, "others_busy_pct");
                json_t *pl = placement_of(best, plan, P);
                int over = json_is_object(pl) && json_integer_value(json_object_get(pl, "cores")) > 0 &&
                           json_integer_value(json_object_get(pl, "ranks_per_node")) >
                               json_integer_value(json_object_get(pl, "cores"));
                json_object_set_new(pt, "placement", pl);
                json_object_set_new(pt, "oversubscribed", json_boolean(over));
                if (over && json_is_object(json_object_get(pt, "sheet")))
                    json_object_set_new(json_object_get(pt, "sheet"), "time_sliced", json_true());
            }
            json_object_set_new(pt, "_t", ps_json_real_or_null(tp));
            json_array_append_new(points, pt);
            free(samples);
        }
        /* metrics need T(1): a second pass over this variation's points */
        size_t n = json_array_size(points), first = n - json_array_size(ranks);
        double u1 = NAN;
        for (size_t i = first; i < n; i++)
            if (json_integer_value(json_object_get(json_object_get(json_array_get(points, i), "params"), "ranks")) == 1)
                u1 = time_unc(json_array_get(points, i));
        for (size_t i = first; i < n; i++) {
            json_t *pt = json_array_get(points, i);
            int P = (int)json_integer_value(json_object_get(json_object_get(pt, "params"), "ranks"));
            double tp = ps_json_num(pt, "_t");
            json_object_del(pt, "_t");
            double k = weak ? (double)P : 1.0;
            ps_scale_metrics m = ps_scale_metrics_compute(t1, tp, P, k);
            double cells = is_clue ? (weak ? (double)w * (double)h : (double)w * (double)h / P) : NAN;
            double act = is_clue ? ps_act_per_s(cells, (double)viters, tp) : NAN;
            json_object_set_new(pt, "time_s", ps_json_real_or_null(tp));
            json_object_set_new(pt, "act_per_s", ps_json_real_or_null(act));
            json_object_set_new(pt, "net_act_per_s", ps_json_real_or_null(act * P));
            json_object_set_new(pt, "k", json_real(k));
            json_object_set_new(pt, "speedup", ps_json_real_or_null(m.speedup));
            json_object_set_new(pt, "efficiency", ps_json_real_or_null(m.efficiency));
            json_object_set_new(pt, "serial_fraction", ps_json_real_or_null(m.serial_fraction));
            json_object_set_new(pt, "noise", point_noise(pt, u1, P));
            procstats_check(pt, tp);
            if (np < PS_SCALE_MAX_POINTS && isfinite(m.speedup)) {
                pv[np] = P;
                sv[np++] = m.speedup;
            }
        }
        /* a fit of one parameter needs three points to have a residual that
         * means anything; with fewer, no fit is shown */
        int nfit = 0;
        for (int i = 0; i < np; i++) nfit += pv[i] > 1;
        double ra = NAN, rg = NAN, fa = NAN, fg = NAN;
        if (nfit >= PS_SCALE_FIT_MIN_POINTS) {
            fa = ps_fit_amdahl(pv, sv, np, &ra);
            fg = ps_fit_gustafson(pv, sv, np, &rg);
        }
        json_t *fit = json_object();
        json_object_set_new(fit, "variation", json_string(vname));
        json_object_set_new(fit, "points", json_integer(nfit));
        if (nfit < PS_SCALE_FIT_MIN_POINTS)
            json_object_set_new(fit, "note", json_sprintf("no fit: %d point(s) with P > 1, a fit needs %d", nfit,
                                                          PS_SCALE_FIT_MIN_POINTS));
        json_object_set_new(fit, "amdahl_f", ps_json_real_or_null(fa));
        json_object_set_new(fit, "amdahl_rms_rel_error", ps_json_real_or_null(ra));
        json_object_set_new(fit, "gustafson_f", ps_json_real_or_null(fg));
        json_object_set_new(fit, "gustafson_rms_rel_error", ps_json_real_or_null(rg));
        json_object_set_new(fit, "matches_scaling", json_string(weak ? "gustafson" : "amdahl"));
        json_array_append_new(fits, fit);
        (void)var;
    }
    json_object_set_new(doc, "points", points);
    json_object_set_new(doc, "fits", fits);
    /* the memory-bandwidth bound per variation: each update reads and
     * writes one cell (the three rows in use stay in cache) */
    json_t *mb = json_object_get(plan, "memory_bound");
    if (is_clue && mb) {
        json_t *m = json_deep_copy(mb);
        double bps = ps_json_num(mb, "copy_bytes_per_s");
        json_t *per = json_object();
        size_t i;
        json_t *pt;
        json_array_foreach(points, i, pt) {
            if (json_integer_value(json_object_get(json_object_get(pt, "params"), "ranks")) != 1) continue;
            const char *vn = json_string_value(json_object_get(pt, "variation"));
            const ps_ca_variation *var = ps_ca_variation_find(vn);
            if (!var) continue;
            double bound = bps / (2.0 * (double)ps_ca_cell_bytes(var->type));
            double act = ps_json_num(pt, "act_per_s");
            json_t *e = json_object();
            json_object_set_new(e, "bound_act_per_s", ps_json_real_or_null(bound));
            json_object_set_new(e, "act_per_s", ps_json_real_or_null(act));
            json_object_set_new(e, "fraction", ps_json_real_or_null(act / bound));
            json_object_set_new(per, vn, e);
        }
        json_object_set_new(m, "variations", per);
        json_object_set_new(doc, "memory_bound", m);
    }
    json_object_set_new(doc, "missing", missing);
    json_object_set_new(doc, "complete", json_boolean(json_array_size(missing) == 0));
    json_object_set_new(doc, "averages", averages(plan, points));
    /* one rule for every command: oversubscribed runs are marked, here and in
     * each point */
    {
        int over = 0, most = 0, cores = 0;
        size_t i;
        json_t *pt;
        json_array_foreach(points, i, pt)
            if (json_is_true(json_object_get(pt, "oversubscribed"))) {
                over = 1;
                json_t *pl = json_object_get(pt, "placement");
                if (json_integer_value(json_object_get(pl, "ranks_per_node")) > most) {
                    most = (int)json_integer_value(json_object_get(pl, "ranks_per_node"));
                    cores = (int)json_integer_value(json_object_get(pl, "cores"));
                }
            }
        json_object_set_new(doc, "oversubscribed", json_boolean(over));
        if (over)
            json_object_set_new(doc, "oversubscribed_note",
                                json_sprintf("oversubscribed: up to %d ranks shared %d cores; the points marked "
                                             "oversubscribed include time-slicing, and their busy / idle figures show "
                                             "when the scheduler ran each rank", most, cores));
    }
    if (json_is_object(ta)) {
        json_t *a = json_deep_copy(ta);
        int mx = 0, above = 0;
        size_t i;
        json_t *pt;
        json_array_foreach(points, i, pt) {
            json_t *tm = json_object_get(pt, "time");
            int n = (int)json_integer_value(json_object_get(tm, "trials"));
            if (n > mx) mx = n;
            double u = ps_json_num(tm, "uncertainty");
            if (!(u <= ps_json_num(ta, "target"))) above++;
        }
        const char *st = json_string_value(json_object_get(ta, "stopped"));
        json_object_set_new(a, "max_done", json_integer(mx));
        json_object_set_new(a, "points_above_target", json_integer(above));
        char text[512];
        snprintf(text, sizeof text,
                 "automatic, %d to %d per point until the best two trials agree within %.0f%%: %s", min_trials,
                 (int)json_integer_value(json_object_get(ta, "max")), 100 * ps_json_num(ta, "target"),
                 !st                         ? "not finished"
                 : !strcmp(st, "target")     ? "stopped because every point met the target"
                 : !strcmp(st, "budget")     ? "stopped because the time budget ran out"
                 : !strcmp(st, "max")        ? "stopped at the most trials allowed"
                 : !strcmp(st, "interrupted") ? "interrupted"
                                              : "stopped by a failure");
        if (above) {
            size_t o = strlen(text);
            snprintf(text + o, sizeof text - o, "; %d point(s) still above the target", above);
        }
        if (st && !strcmp(st, "budget")) {
            size_t o = strlen(text);
            snprintf(text + o, sizeof text - o, " (budget %.0f s)", ps_json_num(ta, "budget_s"));
        }
        json_object_set_new(a, "text", json_string(text));
        json_object_set_new(doc, "trials_auto", a);
    }
    double aa;
    json_t *same = identical_runs(doc, &aa), *nz = json_object();
    json_object_set_new(nz, "identical_runs", same);
    json_object_set_new(nz, "identical_largest", ps_json_real_or_null(aa));
    json_object_set_new(nz, "method",
                        json_string("a point's time: the gap of its best two trials; a comparison of two points: "
                                    "the sum of their figures' uncertainties, and at least the largest difference "
                                    "between identical configurations of the sweep (identical_runs)"));
    if (json_object_get(plan, "noise")) json_object_set(nz, "machine", json_object_get(plan, "noise"));
    json_object_set_new(doc, "noise", nz);
    json_object_set_new(doc, "conclusions", ps_scale_conclude(doc));
    return doc;
}
