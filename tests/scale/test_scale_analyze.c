/* The analysis and the conclusions on constructed run records: metrics per
 * point, failed and missing runs, and which conclusions fire. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale/scale.h"

#include "check.h"

static json_t *plan(void)
{
    return json_pack("{s:s, s:s, s:b, s:s, s:[s,s,s], s:[i,i,i], s:i, s:i, s:i, s:i, s:f, s:{s:{s:s,s:s}}}",
                     "kind", "scale-plan", "workload", "clue", "is_clue", 1, "scaling", "weak",
                     "variations", "base", "double", "rearrange", "ranks", 1, 2, 4, "trials", 2,
                     "width", 100, "height", 100, "iterations", 10, "efficiency_threshold", 0.8,
                     "params", "seed", "value", "1", "source", "default");
}

static void run(json_t *runs, const char *v, int P, int trial, double t)
{
    json_t *r = json_pack("{s:s, s:i, s:i, s:s}", "variation", v, "ranks", P, "trial", trial, "status",
                          isnan(t) ? "failed" : "ok");
    json_object_set_new(r, "time", isnan(t) ? json_null() : json_real(t));
    if (isnan(t)) json_object_set_new(r, "message", json_string("rank 1 died (signal 9)"));
    json_array_append_new(runs, r);
}

/* times at P = 1, 2, 4 for base, double, rearrange; trial 2 is 10 % slower */
static json_t *sweep(const double t[3][3])
{
    static const char *v[] = {"base", "double", "rearrange"};
    json_t *runs = json_array();
    for (int k = 1; k <= 2; k++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) run(runs, v[i], 1 << j, k, t[i][j] * (k == 2 ? 1.1 : 1.0));
    return runs;
}

static int has(const json_t *doc, const char *id)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(doc, "conclusions"), i, c)
        if (!strcmp(json_string_value(json_object_get(c, "id")), id)) return 1;
    return 0;
}

static const json_t *point(const json_t *doc, const char *v, int P)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p)
        if (!strcmp(json_string_value(json_object_get(p, "variation")), v) &&
            json_integer_value(json_object_get(json_object_get(p, "params"), "ranks")) == P)
            return p;
    return NULL;
}

static double num(const json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }

/* a fast interconnect: nothing loses efficiency */
TEST_IMPL(analyze_fast_network)
{
    json_t *pl = plan();
    const double fast[3][3] = {{1.0, 1.01, 1.03}, {2.0, 2.02, 2.06}, {1.0, 1.01, 1.03}};
    json_t *runs = sweep(fast);
    json_t *doc = ps_scale_analyze(pl, runs);
    const json_t *b4 = point(doc, "base", 4), *b1 = point(doc, "base", 1);
    CHECK(fabs(num(b4, "speedup") - 4.0 / 1.03) < 1e-9, "S_k %g", num(b4, "speedup"));
    CHECK(fabs(num(b4, "efficiency") - 1.0 / 1.03) < 1e-9, "E_k");
    CHECK(fabs(num(b4, "serial_fraction") - (1.03 / 4 - 0.25) / 0.75) < 1e-9, "f_k");
    CHECK(fabs(num(b4, "act_per_s") - 100.0 * 100 * 10 / 1.03) < 1e-6, "ACT/s");
    CHECK(fabs(num(b4, "net_act_per_s") - 4 * 100.0 * 100 * 10 / 1.03) < 1e-6, "net ACT/s");
    CHECK(json_is_null(json_object_get(b1, "serial_fraction")) && num(b1, "speedup") == 1.0, "P = 1");
    CHECK(fabs(num(json_object_get(b4, "time"), "median") - 1.03 * 1.05) < 1e-9, "median of 1.03, 1.133");
    CHECK(json_is_true(json_object_get(doc, "complete")), "complete");
    CHECK(has(doc, "border-bytes-free") && !has(doc, "network-limited"), "fast network named");
    CHECK(has(doc, "efficiency-holds") && has(doc, "cost-effective"), "efficiency conclusions");
    CHECK(has(doc, "double-computation"), "double computation");
    json_decref(doc);
    json_decref(runs);
    json_decref(pl);
}

/* a slow network: rearrange (same computation, twice the border) loses */
TEST_IMPL(analyze_slow_network)
{
    json_t *pl = plan();
    const double slow[3][3] = {{1.0, 1.05, 1.1}, {2.0, 2.1, 2.5}, {1.0, 1.6, 2.0}};
    json_t *runs = sweep(slow);
    json_t *doc = ps_scale_analyze(pl, runs);
    CHECK(has(doc, "network-limited") && !has(doc, "border-bytes-free"), "slow network not named");
    json_decref(doc);
    json_decref(runs);
    json_decref(pl);
}

/* double alone loses: floating point */
TEST_IMPL(analyze_floating_point)
{
    json_t *pl = plan();
    const double fp[3][3] = {{1.0, 1.05, 1.1}, {1.0, 1.6, 2.2}, {1.0, 1.05, 1.1}};
    json_t *runs = sweep(fp);
    json_t *doc = ps_scale_analyze(pl, runs);
    CHECK(has(doc, "floating-point-limited") && !has(doc, "network-limited"), "floating point");
    json_decref(doc);
    json_decref(runs);
    json_decref(pl);
}

/* efficiency under the threshold at P = 4: not cost effective beyond 2;
 * a failed run and a missing one; the CSV and the report fragment */
TEST_IMPL(analyze_partial_sweep)
{
    json_t *pl = plan();
    const double cut[3][3] = {{1.0, 1.05, 1.6}, {2.0, 2.1, 3.2}, {1.0, 1.05, 1.6}};
    json_t *runs = sweep(cut);
    json_array_remove(runs, json_array_size(runs) - 1);   /* rearrange P=4 trial 2 ... */
    run(runs, "rearrange", 4, 2, NAN);                    /* ... failed instead */
    json_array_remove(runs, 0);                           /* base P=1 trial 1 missing */
    json_t *doc = ps_scale_analyze(pl, runs);
    CHECK(has(doc, "not-cost-effective") && has(doc, "efficiency-falls"), "cut");
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(doc, "conclusions"), i, c)
        if (!strcmp(json_string_value(json_object_get(c, "id")), "not-cost-effective"))
            CHECK(num(json_object_get(c, "numbers"), "beyond") == 2 && strstr(json_string_value(json_object_get(c, "text")), "beyond P = 2"),
                  "%s", json_string_value(json_object_get(c, "text")));
    CHECK(!json_is_true(json_object_get(doc, "complete")) && json_array_size(json_object_get(doc, "missing")) == 1,
          "missing %zu", json_array_size(json_object_get(doc, "missing")));
    const json_t *r4 = point(doc, "rearrange", 4);
    CHECK(json_array_size(json_object_get(r4, "failed_trials")) == 1 && !strcmp(json_string_value(json_object_get(r4, "status")), "ok"),
          "failed trial");
    /* base at P = 1 from its one remaining trial (1.1) */
    CHECK(fabs(num(point(doc, "base", 1), "time_s") - 1.1) < 1e-12, "remaining trial");
    /* CSV: empty serial fraction at P = 1, "failed" among the samples */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ps_scale_write_csv(doc, f);
    fclose(f);
    CHECK(strstr(buf, "\nclue,base,1,1.1,90909.1,90909.1,1,1,,weak,1,1,1,") != NULL, "CSV P=1 row:\n%s", buf);
    CHECK(strstr(buf, "1.6;failed,ok") != NULL, "CSV failed sample:\n%s", buf);
    free(buf);
    /* the report fragment */
    buf = NULL;
    f = open_memstream(&buf, &len);
    CHECK(ps_scale_report_html(f, doc, NULL, NULL) == 0, "report");
    fclose(f);
    CHECK(strstr(buf, "<section") && strstr(buf, "Figure 4.2") && strstr(buf, "Figure 4.6") && strstr(buf, "Partial sweep"),
          "report content");
    free(buf);
    json_decref(doc);
    json_decref(runs);
    json_decref(pl);
}

TEST_IMPL(analyze_other_kinds)
{
    json_t *notscale = json_pack("{s:s}", "kind", "run");
    CHECK(ps_scale_report_html(stdout, notscale, NULL, NULL) == -1, "other kinds refused");
    json_decref(notscale);
}
