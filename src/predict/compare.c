/*
 * compare.c - relative error of a prediction against a measurement.
 *
 * Per processor count: the execution time (time.min of each document: the
 * best trial, as the runs use it) and the three activities of the result
 * sheet (busy / overhead / idle, as seconds per rank: pct x time), and, when
 * both documents carry it, the simulator's breakdown.  error = (predicted -
 * measured) / measured.
 */
#include "predict/compare.h"

#include <math.h>
#include <string.h>

#include "util/util.h"

double ps_result_doc_time(json_t *doc)
{
    json_t *t = json_object_get(doc, "time");
    json_t *v = t ? json_object_get(t, "min") : NULL;
    if (!v || !json_is_number(v)) v = t ? json_object_get(t, "median") : NULL;
    return v && json_is_number(v) ? json_number_value(v) : NAN;
}

static int doc_ranks(json_t *doc)
{
    json_t *p = json_object_get(doc, "params");
    json_t *r = p ? json_object_get(p, "ranks") : NULL;
    return r && json_is_integer(r) ? (int)json_integer_value(r) : -1;
}

/* The documents of a result: its points, or itself. */
static json_t *points_of(json_t *doc)
{
    json_t *pts = json_object_get(doc, "points");
    if (json_is_array(pts)) return json_incref(pts);
    json_t *a = json_array();
    json_array_append(a, doc);
    return a;
}

static json_t *find_ranks(json_t *pts, int p)
{
    size_t i;
    json_t *d;
    json_array_foreach(pts, i, d) if (doc_ranks(d) == p) return d;
    return NULL;
}

static double pct_seconds(json_t *doc, const char *key)
{
    json_t *s = json_object_get(doc, "sheet");
    json_t *v = s ? json_object_get(s, key) : NULL;
    double t = ps_result_doc_time(doc);
    return v && json_is_number(v) ? json_number_value(v) / 100.0 * t : NAN;
}

static double rel(double pred, double meas) { return meas > 0 ? (pred - meas) / meas : NAN; }

static json_t *num(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static void fmt_err(char *b, size_t n, double e)
{
    if (isfinite(e)) snprintf(b, n, "%+.1f%%", 100 * e);
    else snprintf(b, n, "-");
}

json_t *ps_compare_results(json_t *measured, json_t *predicted, FILE *out, char *err, size_t errlen)
{
    if (!json_is_object(measured) || !json_is_object(predicted)) {
        ps_seterr(err, errlen, "not a result document");
        return NULL;
    }
    json_t *mp = points_of(measured), *pp = points_of(predicted);
    json_t *rows = json_array();
    double maxabs = 0;
    static const char *acts[3] = {"busy", "overhead", "idle"};
    if (out) {
        fprintf(out, "%6s  %12s  %12s  %8s  %9s  %9s  %9s\n", "P", "measured s", "predicted s", "error",
                "busy", "overhead", "idle");
    }
    size_t i;
    json_t *pd;
    json_array_foreach(pp, i, pd)
    {
        int p = doc_ranks(pd);
        json_t *md = find_ranks(mp, p);
        if (p < 0 || !md) continue;
        double tm = ps_result_doc_time(md), tp = ps_result_doc_time(pd);
        double e = rel(tp, tm);
        if (isfinite(e) && fabs(e) > maxabs) maxabs = fabs(e);
        json_t *row = json_object();
        json_object_set_new(row, "ranks", json_integer(p));
        json_object_set_new(row, "measured_s", num(tm));
        json_object_set_new(row, "predicted_s", num(tp));
        json_object_set_new(row, "error", num(e));
        json_t *ao = json_object();
        char eb[3][32];
        for (int k = 0; k < 3; k++) {
            char key[32];
            snprintf(key, sizeof key, "%s_pct", acts[k]);
            double am = pct_seconds(md, key), ap = pct_seconds(pd, key);
            json_t *a = json_object();
            json_object_set_new(a, "measured_s", num(am));
            json_object_set_new(a, "predicted_s", num(ap));
            json_object_set_new(a, "error", num(rel(ap, am)));
            json_object_set_new(ao, acts[k], a);
            fmt_err(eb[k], sizeof eb[k], rel(ap, am));
        }
        json_object_set_new(row, "activities", ao);
        json_array_append_new(rows, row);
        if (out) {
            char e0[32];
            fmt_err(e0, sizeof e0, e);
            fprintf(out, "%6d  %12.6g  %12.6g  %8s  %9s  %9s  %9s\n", p, tm, tp, e0, eb[0], eb[1], eb[2]);
        }
    }
    json_decref(mp);
    json_decref(pp);
    if (json_array_size(rows) == 0) {
        json_decref(rows);
        ps_seterr(err, errlen, "the two results have no processor count in common");
        return NULL;
    }
    if (out)
        fprintf(out, "(error = (predicted - measured) / measured; activities are seconds per rank: busy = "
                     "computation, overhead = communication work, idle = waiting)\n");
    json_t *doc = json_object();
    json_object_set_new(doc, "kind", json_string("compare"));
    json_object_set_new(doc, "rows", rows);
    json_object_set_new(doc, "max_abs_error", json_real(maxabs));
    return doc;
}
