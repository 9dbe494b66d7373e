/* The analysis and the conclusions on constructed run records: metrics per
 * point, failed and missing runs, and which conclusions fire. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale/scale.h"
#include "workloads/ca.h"

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

/* base and nodeorder at P = 1, 2, 4 on hosts host(r) (every record says
 * where its ranks ran); nodeorder's P = 4 time is `slow` times base's */
static json_t *order_sweep(double slow, const char *(*host)(int))
{
    json_t *runs = json_array();
    static const char *v[] = {"base", "nodeorder"};
    for (int k = 1; k <= 2; k++)
        for (int i = 0; i < 2; i++)
            for (int P = 1; P <= 4; P *= 2) {
                run(runs, v[i], P, k, (i == 1 && P == 4 ? slow : 1.0) * (k == 2 ? 1.02 : 1.0));
                json_t *rs = json_array();
                for (int r = 0; r < P; r++) json_array_append_new(rs, json_pack("{s:i, s:s}", "rank", r, "host", host(r)));
                json_object_set_new(json_array_get(runs, json_array_size(runs) - 1), "rank_sheets", rs);
            }
    return runs;
}

static const char *block_host(int r) { return r < 2 ? "node0" : "node1"; }
static const char *rr_host(int r) { static const char *h[] = {"node0", "node1", "node2", "node3"}; return h[r % 4]; }

static const json_t *conclusion(const json_t *doc, const char *id)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(doc, "conclusions"), i, c)
        if (!strcmp(json_string_value(json_object_get(c, "id")), id)) return c;
    return NULL;
}

/* Node order on several nodes: the conclusion counts the ring neighbour
 * pairs each order puts on different nodes (rank order in blocks of two:
 * (1,2) and (3,0); the random order: counted here from its permutation),
 * and gives the threshold and the sweep's noise. */
TEST_IMPL(analyze_node_order)
{
    json_t *pl = plan();
    json_array_clear(json_object_get(pl, "variations"));
    json_array_append_new(json_object_get(pl, "variations"), json_string("base"));
    json_array_append_new(json_object_get(pl, "variations"), json_string("nodeorder"));
    int pos[4], at[4], xo = 0;
    ps_ca_permutation(4, 1, pos);
    for (int r = 0; r < 4; r++) at[pos[r]] = r;
    for (int k = 0; k < 4; k++) xo += block_host(at[k]) != block_host(at[(k + 1) % 4]);
    CHECK(xo == 4, "seed 1's order puts %d neighbour pairs across the two nodes (the case below needs 4)", xo);

    json_t *runs = order_sweep(1.5, block_host);
    json_t *doc = ps_scale_analyze(pl, runs);
    const json_t *c = conclusion(doc, "node-order-sensitive");
    CHECK(c != NULL, "nodeorder 50%% slower on blocks of two is not node-order-sensitive");
    if (c) {
        const json_t *n = json_object_get(c, "numbers");
        const char *t = json_string_value(json_object_get(c, "text"));
        CHECK(num(n, "nodes") == 2 && num(n, "neighbours_across_nodes_base") == 2 &&
              num(n, "neighbours_across_nodes_nodeorder") == xo, "%s", t);
        CHECK(fabs(num(n, "noise") - 0.01) < 1e-9, "noise %g", num(n, "noise")); /* (1.02 - 1) / 1 / 2: median of 2 */
        CHECK(strstr(t, "On 2 nodes, 4 of the 4 ring neighbour pairs are on different nodes in random order against 2 "
                        "in rank order: messages between nodes cost more than within one.") &&
                  strstr(t, "the sweep's noise 1%"),
              "%s", t);
    }
    json_decref(doc);
    json_decref(runs);

    /* round robin over four nodes: every neighbour on another node either way */
    runs = order_sweep(1.0, rr_host);
    doc = ps_scale_analyze(pl, runs);
    c = conclusion(doc, "node-order-insensitive");
    CHECK(c != NULL, "equal times are not node-order-insensitive");
    if (c) {
        const char *t = json_string_value(json_object_get(c, "text"));
        CHECK(strstr(t, "On 4 nodes both orders put 4 of the 4 ring neighbour pairs on different nodes") &&
                  strstr(t, "--map block"), "%s", t);
    }
    json_decref(doc);
    json_decref(runs);

    /* one host: no word of nodes */
    runs = order_sweep(1.0, block_host);
    for (size_t i = 0; i < json_array_size(runs); i++)
        json_object_del(json_array_get(runs, i), "rank_sheets");
    doc = ps_scale_analyze(pl, runs);
    c = conclusion(doc, "node-order-insensitive");
    CHECK(c && !strstr(json_string_value(json_object_get(c, "text")), "nodes,") &&
          !json_object_get(json_object_get(c, "numbers"), "nodes"));
    json_decref(doc);
    json_decref(runs);
    json_decref(pl);
}
