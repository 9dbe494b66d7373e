/* analyze.c - from the plan and the run records to the "scale" document (see scale.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/result.h"
#include "scale/metrics.h"
#include "scale/scale.h"
#include "util/util.h"

static json_t *num(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static double getnum(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

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
                if (!rec) {
                    json_t *m = json_object();
                    json_object_set_new(m, "variation", json_string(vname));
                    json_object_set_new(m, "ranks", json_integer(P));
                    json_object_set_new(m, "trial", json_integer(t));
                    json_array_append_new(missing, m);
                    continue;
                }
                double tm = getnum(rec, "time");
                const char *st = json_string_value(json_object_get(rec, "status"));
                if (!st || strcmp(st, "ok") || !isfinite(tm)) {
                    tm = NAN;
                    json_t *f = json_object();
                    json_object_set_new(f, "trial", json_integer(t));
                    copy_key(f, rec, "message");
                    json_array_append_new(failed, f);
                } else if (!best || tm < getnum(best, "time")) {
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
            json_object_set_new(pt, "params", par);
            json_object_set_new(pt, "time", ps_result_time(samples, ns));
            json_object_set_new(pt, "status", json_string(best ? "ok" : ns ? "failed" : "missing"));
            json_object_set_new(pt, "failed_trials", failed);
            double tp = best ? getnum(best, "time") : NAN;
            if (P == 1) t1 = tp;
            if (best) {
                copy_key(pt, best, "sheet");
                json_t *rs = json_object_get(best, "rank_sheets");
                if (rs) json_object_set(pt, "ranks", rs);
                copy_key(pt, best, "procstats");
            }
            json_object_set_new(pt, "_t", num(tp));
            json_array_append_new(points, pt);
            free(samples);
        }
        /* metrics need T(1): a second pass over this variation's points */
        size_t n = json_array_size(points), first = n - json_array_size(ranks);
        for (size_t i = first; i < n; i++) {
            json_t *pt = json_array_get(points, i);
            int P = (int)json_integer_value(json_object_get(json_object_get(pt, "params"), "ranks"));
            double tp = getnum(pt, "_t");
            json_object_del(pt, "_t");
            double k = weak ? (double)P : 1.0;
            ps_scale_metrics m = ps_scale_metrics_compute(t1, tp, P, k);
            double cells = is_clue ? (weak ? (double)w * (double)h : (double)w * (double)h / P) : NAN;
            double act = is_clue ? ps_act_per_s(cells, (double)viters, tp) : NAN;
            json_object_set_new(pt, "time_s", num(tp));
            json_object_set_new(pt, "act_per_s", num(act));
            json_object_set_new(pt, "net_act_per_s", num(act * P));
            json_object_set_new(pt, "k", json_real(k));
            json_object_set_new(pt, "speedup", num(m.speedup));
            json_object_set_new(pt, "efficiency", num(m.efficiency));
            json_object_set_new(pt, "serial_fraction", num(m.serial_fraction));
            if (np < PS_SCALE_MAX_POINTS && isfinite(m.speedup)) {
                pv[np] = P;
                sv[np++] = m.speedup;
            }
        }
        double ra, rg;
        double fa = ps_fit_amdahl(pv, sv, np, &ra), fg = ps_fit_gustafson(pv, sv, np, &rg);
        json_t *fit = json_object();
        json_object_set_new(fit, "variation", json_string(vname));
        json_object_set_new(fit, "amdahl_f", num(fa));
        json_object_set_new(fit, "amdahl_rms_rel_error", num(ra));
        json_object_set_new(fit, "gustafson_f", num(fg));
        json_object_set_new(fit, "gustafson_rms_rel_error", num(rg));
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
        double bps = getnum(mb, "copy_bytes_per_s");
        json_t *per = json_object();
        size_t i;
        json_t *pt;
        json_array_foreach(points, i, pt) {
            if (json_integer_value(json_object_get(json_object_get(pt, "params"), "ranks")) != 1) continue;
            const char *vn = json_string_value(json_object_get(pt, "variation"));
            const ps_ca_variation *var = ps_ca_variation_find(vn);
            if (!var) continue;
            double bound = bps / (2.0 * (double)ps_ca_cell_bytes(var->type));
            double act = getnum(pt, "act_per_s");
            json_t *e = json_object();
            json_object_set_new(e, "bound_act_per_s", num(bound));
            json_object_set_new(e, "act_per_s", num(act));
            json_object_set_new(e, "fraction", num(act / bound));
            json_object_set_new(per, vn, e);
        }
        json_object_set_new(m, "variations", per);
        json_object_set_new(doc, "memory_bound", m);
    }
    json_object_set_new(doc, "missing", missing);
    json_object_set_new(doc, "complete", json_boolean(json_array_size(missing) == 0));
    json_object_set_new(doc, "conclusions", ps_scale_conclude(doc));
    return doc;
}
