/*
 * test_whitebox.c - the white-box analysis on trials with known times:
 * order statistics, differences over trial pairs, the three parts overall
 * and per rank, a negative part within and beyond the noise (its note, the
 * order check and the conclusions agreeing), the kernels' message check,
 * sections, the simple model, the memory check (page faults priced by the
 * cost of a fault, a part flagged), set-up inside the timed interval, and
 * the text and HTML output against golden files (PS_UPDATE_GOLDEN=1
 * rewrites them).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/findings.h"
#include "util/util.h"
#include "whitebox/whitebox.h"

#include "check.h"

#define NEAR(a, b) CHECK(fabs((double)(a) - (double)(b)) < 1e-9 * (1 + fabs((double)(b))))

static double get(const json_t *doc, const char *path)
{
    /* "a.b.c" with numeric components as array indices */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const json_t *o = doc;
    for (char *tok = strtok(buf, "."); tok && o; tok = strtok(NULL, "."))
        o = json_is_array(o) ? json_array_get(o, (size_t)atoi(tok)) : json_object_get(o, tok);
    return o && json_is_number(o) ? json_number_value(o) : NAN;
}

static const char *gets_(const json_t *doc, const char *a, const char *b)
{
    const json_t *o = json_object_get(json_object_get(doc, a), b);
    return o && json_is_string(o) ? json_string_value(o) : "";
}

/* A trial of 2 ranks: rank 0's lane is the time, rank 1's 0.1 s less; each
 * rank sends 10 messages of 100 bytes. */
static void sample(ps_wb_sample *s, double time)
{
    memset(s, 0, sizeof *s);
    s->time = time;
    s->nranks = 2;
    s->lane = ps_xcalloc(2, sizeof(double));
    s->compute = ps_xcalloc(2, sizeof(double));
    s->data_move = ps_xcalloc(2, sizeof(double));
    s->messages = ps_xcalloc(2, sizeof(uint64_t));
    s->bytes = ps_xcalloc(2, sizeof(uint64_t));
    s->msg_table = ps_xcalloc(2, sizeof(double));
    for (int r = 0; r < 2; r++) {
        s->lane[r] = time - 0.1 * r;
        s->compute[r] = 2.0 + 0.5 * r;
        s->data_move[r] = 0.25;
        s->messages[r] = 10;
        s->bytes[r] = 1000;
        s->msg_table[r] = 0.002;
    }
}

/* Page faults of one trial per rank, and \INIT_ARRAY time in the interval. */
static void memory(ps_wb_sample *s, double f0, double f1, double init0)
{
    s->minflt = ps_xcalloc(2, sizeof(double));
    s->majflt = ps_xcalloc(2, sizeof(double));
    s->cache_misses = ps_xcalloc(2, sizeof(double));
    s->setup_in_timed = ps_xcalloc(2, sizeof(double));
    s->minflt[0] = f0;
    s->minflt[1] = f1;
    s->cache_misses[0] = s->cache_misses[1] = NAN; /* not counted */
    s->setup_in_timed[0] = init0;
}

static void data_of(ps_wb_data *d, const double t[][3], int nv)
{
    memset(d, 0, sizeof *d);
    d->fault_cost = NAN;
    d->nranks = 2;
    for (int v = 0; v < nv; v++) {
        d->ntrials[v] = 3;
        d->sample[v] = ps_xcalloc(3, sizeof(ps_wb_sample));
        for (int k = 0; k < 3; k++) sample(&d->sample[v][k], t[v][k]);
    }
}

static void machine_round(ps_machine *m)
{
    ps_machine_init(m);
    m->send_latency = 1e-4;
    m->recv_latency = 1e-4;
    m->word_time = 8e-9; /* 1 GB/s */
    snprintf(m->name, sizeof m->name, "round figures");
}

TEST_IMPL(stats)
{
    double v[] = {5, 1, NAN, 3, 2, 4};
    ps_wb_stat st = ps_wb_stat_of(v, 6);
    CHECK(st.n == 5);
    NEAR(st.median, 3);
    NEAR(st.min, 1);
    NEAR(st.max, 5);
    NEAR(st.q1, 2);
    NEAR(st.q3, 4);
    double a[] = {10, 12}, b[] = {3, 5, NAN};
    ps_wb_stat d = ps_wb_diff_of(a, 2, b, 3);   /* 7, 5, 9, 7 */
    CHECK(d.n == 4);
    NEAR(d.min, 5);
    NEAR(d.max, 9);
    NEAR(d.median, 7);
    ps_wb_stat e = ps_wb_stat_of(NULL, 0);
    CHECK(e.n == 0 && isnan(e.median));
}

TEST_IMPL(model)
{
    ps_machine m;
    machine_round(&m);
    ps_wb_model_params p;
    ps_wb_model_params_of(&m, &p);
    NEAR(p.latency, 1e-4);
    NEAR(p.bandwidth, 1e9);
    NEAR(ps_wb_model_time(&p, 10, 8000), 10 * 1e-4 + 8000 / 1e9);
    /* a probed machine: the Hockney fit wins */
    m.t0 = 2e-6;
    m.r_inf = 5e9;
    ps_wb_model_params_of(&m, &p);
    NEAR(p.latency, 2e-6);
    NEAR(p.bandwidth, 5e9);
    CHECK(strstr(p.source, "Hockney") != NULL);
}

static int golden(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/golden/%s", PS_TEST_DATA, name);
    char err[512];
    const char *up = getenv("PS_UPDATE_GOLDEN");
    if (up && !strcmp(up, "1")) return ps_write_file(path, text, strlen(text), err, sizeof err) ? 1 : 0;
    char *want = ps_read_file(path, NULL, err, sizeof err);
    if (!want) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int diff = strcmp(want, text) != 0;
    if (diff) fprintf(stderr, "%s differs from the output:\n%s\n", path, text);
    free(want);
    return diff;
}

static char *render(const json_t *doc, int html)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (html) CHECK(ps_whitebox_report_html(f, doc, NULL, NULL) == 0);
    else ps_whitebox_print(doc, f);
    fclose(f);
    return buf;
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++) n++;
    return n;
}

TEST_IMPL(breakdown)
{
    /* medians: comm 1.0, data 1.5, full 4.0, sections 4.1 */
    const double t[4][3] = {{1.0, 1.1, 0.9}, {1.5, 1.6, 1.4}, {4.0, 4.2, 3.8}, {4.1, 4.0, 4.3}};
    ps_wb_data d;
    data_of(&d, t, 4);
    /* sections: "solve" on both ranks, "halo" on rank 0 only */
    for (int k = 0; k < 3; k++) {
        ps_wb_sample *s = &d.sample[PS_WB_SECTIONS][k];
        s->nsections = 3;
        s->sections = ps_xcalloc(3, sizeof *s->sections);
        s->sections[0] = (ps_wb_section){ps_xstrdup("solve"), 0, 2.0 + 0.1 * k, 8};
        s->sections[1] = (ps_wb_section){ps_xstrdup("solve"), 1, 2.5 + 0.1 * k, 8};
        s->sections[2] = (ps_wb_section){ps_xstrdup("halo"), 0, 0.5, 16};
    }
    /* page faults per rank: comm 2 and 0, data and full 2 and 100; a fault
     * costs 1 ms, so data - comm differs by 100 faults = 0.1 s = 20% of the
     * 0.5 s part (flagged); \INIT_ARRAY ran 0.25 s inside the interval */
    d.fault_cost = 1e-3;
    d.fault_pages = 2048;
    for (int v = 0; v < 4; v++)
        for (int k = 0; k < 3; k++) memory(&d.sample[v][k], 2, v == PS_WB_COMM ? 0 : 100, 0.25);
    ps_machine m;
    machine_round(&m);
    json_t *doc = json_object();
    json_object_set_new(doc, "kind", json_string("whitebox"));
    json_object_set_new(doc, "workload", json_string("synthetic"));
    json_t *params = json_pack("{s:i, s:i, s:i, s:i, s:b}", "ranks", 2, "size", 100, "iterations", 8, "trials", 3,
                               "sections", 1);
    json_object_set_new(doc, "params", params);
    CHECK(ps_whitebox_analyze(&d, &m, "round.ini", doc) == 0);

    NEAR(get(doc, "parts.communication.value"), 1.0);
    NEAR(get(doc, "parts.data_movement.value"), 0.5);
    NEAR(get(doc, "parts.computation.value"), 2.5);
    /* data - comm over the 9 pairs: 1.4 - 1.1 .. 1.6 - 0.9 */
    NEAR(get(doc, "parts.data_movement.best"), 1.4 - 0.9);
    NEAR(get(doc, "parts.computation.best"), 3.8 - 1.4);
    NEAR(get(doc, "parts.communication.best"), 0.9);
    NEAR(get(doc, "parts.data_movement.min"), 0.3);
    NEAR(get(doc, "parts.data_movement.max"), 0.7);
    NEAR(get(doc, "parts.data_movement.pairs"), 9);
    NEAR(get(doc, "parts.computation.min"), 3.8 - 1.6);
    NEAR(get(doc, "parts.computation.max"), 4.2 - 1.4);
    NEAR(get(doc, "parts.data_movement.paired.1"), 0.5);
    NEAR(get(doc, "parts.communication.share_pct"), 25.0);
    NEAR(get(doc, "profile.computation_pct"), 62.5);
    NEAR(get(doc, "profile.communication_over_computation"), 1.5 / 2.5);
    CHECK(json_is_true(json_object_get(json_object_get(doc, "ordered"), "holds")));
    CHECK(json_is_true(json_object_get(json_object_get(doc, "messages"), "same")));
    NEAR(get(doc, "variants.full.time.median"), 4.0);
    NEAR(get(doc, "time.median"), 4.0);
    NEAR(get(doc, "rounds.2.data"), 1.4);
    /* per rank: rank 1's lanes are 0.1 s shorter in every variant */
    NEAR(get(doc, "ranks.1.communication.value"), 0.9);
    NEAR(get(doc, "ranks.1.computation.value"), 2.5);
    NEAR(get(doc, "ranks.1.instrumented_compute_s"), 2.5);
    NEAR(get(doc, "load_balance.instrumented_compute_max_over_mean"), 2.5 / 2.25);
    NEAR(get(doc, "load_balance.most_loaded_rank"), 1);
    /* sections, sorted by name; the slowest rank's median */
    CHECK(!strcmp(json_string_value(json_object_get(json_array_get(json_object_get(doc, "sections"), 0), "name")),
                  "halo"));
    NEAR(get(doc, "sections.1.max_rank_s"), 2.6);
    NEAR(get(doc, "sections.1.mean_rank_s"), 2.35);
    NEAR(get(doc, "sections.1.pct_of_run"), 100 * 2.6 / 4.1);
    NEAR(get(doc, "sections.0.ranks.1.median_s"), 0);
    NEAR(get(doc, "sections.0.ranks.0.count"), 16);
    /* the model: 10 x 100 us + 1000 B / 1 GB/s per rank; measured 1.0 s */
    NEAR(get(doc, "model.predicted_s"), 10 * 1e-4 + 1000 / 1e9);
    NEAR(get(doc, "model.predicted_table_s"), 0.002);
    NEAR(get(doc, "model.measured_s"), 1.0);
    NEAR(get(doc, "model.ranks.1.measured_s"), 0.9);
    CHECK(strstr(gets_(doc, "model", "note"), "slower than the model") != NULL);
    CHECK(strstr(gets_(doc, "model", "note"), "contention") != NULL);
    /* the conclusions: each part's share against how far its trial pairs
     * reach from the value towards zero, relative to T(full) = 4 s: T(comm)
     * 0.9 / 1.0 / 1.1 s gives (1.0 - 0.9) / 4 */
    char ferr[256];
    CHECK(ps_findings_check(json_object_get(doc, "conclusions"), NULL, ferr, sizeof ferr) == 0, "%s", ferr);
    NEAR(get(doc, "conclusions.0.effect"), 0.25);
    NEAR(get(doc, "conclusions.0.noise"), 0.1 / 4);
    NEAR(get(doc, "conclusions.1.noise"), (0.5 - 0.3) / 4);
    /* the model: 999 times the prediction, against T(comm)'s median interval
     * of 3 trials (the range: 0.9 s below the 1 s median), over the prediction */
    NEAR(get(doc, "conclusions.3.noise"), 0.1 / (10 * 1e-4 + 1000 / 1e9));
    CHECK(!strcmp(json_string_value(json_object_get(json_array_get(json_object_get(doc, "conclusions"), 3), "id")),
                  "model-comparison"));
    /* memory: the largest rank's median per kernel, the differences priced */
    NEAR(get(doc, "memory.fault_cost_s"), 1e-3);
    NEAR(get(doc, "memory.variants.comm.minor_faults"), 2);
    NEAR(get(doc, "memory.variants.data.minor_faults"), 100);
    NEAR(get(doc, "ranks.1.memory.data.minor_faults"), 100);
    NEAR(get(doc, "ranks.0.memory.full.major_faults"), 0);
    CHECK(json_is_null(json_object_get(json_object_get(json_object_get(json_object_get(doc, "memory"), "variants"),
                                                       "full"),
                                       "cache_misses")));
    NEAR(get(doc, "memory.parts.data_movement.fault_difference"), 100);
    NEAR(get(doc, "memory.parts.data_movement.fault_time_s"), 0.1);
    NEAR(get(doc, "memory.parts.data_movement.share_of_part_pct"), 20);
    const json_t *mp = json_object_get(json_object_get(doc, "memory"), "parts");
    CHECK(json_is_true(json_object_get(json_object_get(mp, "data_movement"), "flagged")));
    CHECK(json_is_false(json_object_get(json_object_get(mp, "computation"), "flagged")));
    NEAR(get(doc, "memory.parts.communication.fault_difference"), 2);   /* 2 ms of 1 s: not flagged */
    CHECK(json_is_false(json_object_get(json_object_get(mp, "communication"), "flagged")));
    CHECK(strstr(json_string_value(json_object_get(json_object_get(mp, "data_movement"), "note")),
                 "differ by 100 page faults per rank") != NULL);
    CHECK(json_is_true(json_object_get(json_object_get(doc, "memory"), "flagged")));
    NEAR(get(doc, "setup.init_array_in_timed_s.comm"), 0.25);
    CHECK(json_is_true(json_object_get(json_object_get(doc, "setup"), "inside")));

    char *text = render(doc, 0);
    CHECK(golden("synthetic.txt", text) == 0);
    CHECK(strstr(text, "Flagged, data movement: the data and comm kernels differ by 100 page faults") != NULL);
    CHECK(strstr(text, "Set-up: \\INIT_ARRAY ran inside the timed interval") != NULL);
    free(text);
    char *html = render(doc, 1);
    CHECK(golden("synthetic.html", html) == 0);
    CHECK(count(html, "<svg") == 1);
    CHECK(count(html, "fill=\"#1f3f8f\"><title>communication") == 3); /* overall + 2 ranks */
    CHECK(count(html, "<section") == 1 && count(html, "</section>") == 1);
    free(html);
    json_decref(doc);
    ps_wb_data_free(&d);
}

TEST_IMPL(negative)
{
    /* T(data) below T(comm) in every pair: shown as negative, with the pairs */
    const double t[3][3] = {{1.0, 1.1, 0.99}, {0.95, 0.9, 0.97}, {3.0, 3.1, 2.9}};
    ps_wb_data d;
    data_of(&d, t, 3);
    d.sample[PS_WB_COMM][0].messages[1] = 9; /* the skeleton lost a message */
    json_t *doc = json_pack("{s:s, s:s, s:{s:i}}", "kind", "whitebox", "workload", "neg", "params", "ranks", 2);
    CHECK(ps_whitebox_analyze(&d, NULL, NULL, doc) == 0);
    NEAR(get(doc, "parts.data_movement.value"), 0.95 - 1.0);
    CHECK(json_is_true(json_object_get(json_object_get(json_object_get(doc, "parts"), "data_movement"), "negative")));
    const char *note = json_string_value(
        json_object_get(json_object_get(json_object_get(doc, "parts"), "data_movement"), "note"));
    CHECK(note && strstr(note, "in 9 of 9 trial pairs"));
    CHECK(json_is_false(json_object_get(json_object_get(doc, "ordered"), "holds")));
    CHECK(json_is_false(json_object_get(json_object_get(doc, "messages"), "same")));
    CHECK(strstr(gets_(doc, "messages", "note"), "rank 1 sends 9 messages") != NULL);
    CHECK(json_is_false(json_object_get(json_object_get(doc, "model"), "available")));
    CHECK(strstr(gets_(doc, "model", "note"), "parscope probe -o m.ini") != NULL);
    CHECK(json_is_null(json_object_get(doc, "sections")));
    /* no memory counters (a machine without them): nothing priced or flagged */
    CHECK(json_is_null(json_object_get(json_object_get(json_object_get(json_object_get(doc, "memory"), "parts"),
                                                       "data_movement"),
                                       "fault_difference")));
    CHECK(json_is_false(json_object_get(json_object_get(doc, "memory"), "flagged")));
    char *text = render(doc, 0);
    CHECK(strstr(text, "negative: T(data) is below T(comm)") != NULL);
    CHECK(strstr(text, "Warning: rank 1 sends 9 messages") != NULL);
    free(text);
    char *html = render(doc, 1);
    CHECK(strstr(html, "data movement &lt; 0 (out of order)") != NULL);
    free(html);
    json_decref(doc);
    ps_wb_data_free(&d);

    /* not a white-box document */
    json_t *run = json_pack("{s:s}", "kind", "run");
    FILE *f = fopen("/dev/null", "w");
    CHECK(ps_whitebox_report_html(f, run, NULL, NULL) == -1);
    fclose(f);
    json_decref(run);
}

/* The part data - comm of three trials per variant: its note, the order
 * check and its conclusion, which must give one verdict. */
static void out_of_order_case(const double comm[3], const double data[3], int beyond)
{
    const double full[3] = {3.0, 2.9, 3.1};
    double t[3][3];
    for (int k = 0; k < 3; k++) {
        t[PS_WB_COMM][k] = comm[k];
        t[PS_WB_DATA][k] = data[k];
        t[PS_WB_FULL][k] = full[k];
    }
    ps_wb_data d;
    data_of(&d, t, 3);
    json_t *doc = json_pack("{s:s, s:s, s:{s:i}}", "kind", "whitebox", "workload", "order", "params", "ranks", 2);
    CHECK(ps_whitebox_analyze(&d, NULL, NULL, doc) == 0);
    const json_t *dm = json_object_get(json_object_get(doc, "parts"), "data_movement");
    CHECK(json_is_true(json_object_get(dm, "negative")));
    const char *note = json_string_value(json_object_get(dm, "note"));
    CHECK(note && strstr(note, beyond ? "beyond the run-to-run noise" : "within the run-to-run noise"), "%s", note);
    CHECK(json_is_boolean(json_object_get(json_object_get(doc, "ordered"), "holds")));
    CHECK(json_is_true(json_object_get(json_object_get(doc, "ordered"), "holds")) == !beyond);
    const json_t *concl = json_object_get(doc, "conclusions");
    const json_t *ooo = ps_finding_by_id(concl, "kernels-out-of-order");
    CHECK((ooo != NULL) == beyond);
    CHECK(!ooo || ps_finding_is(ooo));
    const json_t *share = ps_finding_by_id(concl, "data-movement-share");
    CHECK((share != NULL) == !beyond);
    CHECK(!share || !ps_finding_is(share), "%s", json_string_value(json_object_get(share, "text")));
    char ferr[256];
    CHECK(ps_findings_check(concl, NULL, ferr, sizeof ferr) == 0, "%s", ferr);
    /* the noise: how far the pairs reach above the negative value, over T(full) = 3 s */
    const json_t *rec = ooo ? ooo : share;
    double reach = get(doc, "parts.data_movement.max") - get(doc, "parts.data_movement.value");
    NEAR(json_real_value(json_object_get(rec, "noise")), reach / 3);
    char *text = render(doc, 0);
    CHECK((strstr(text, "out of order") != NULL) == beyond, "%s", text);
    free(text);
    json_decref(doc);
    ps_wb_data_free(&d);
}

TEST_IMPL(out_of_order)
{
    /* T(data) - T(comm) is -20 ms at the medians and its pairs span -40 ..
     * +15 ms: zero is inside, so no verdict may call the kernels out of
     * order, although the farther quartile (-5 ms) is only 15 ms away */
    const double comm[3] = {1.00, 1.01, 1.02};
    out_of_order_case(comm, (const double[3]){0.98, 0.99, 1.015}, 0);
    /* every pair below zero (-120 .. -80 ms): out of order, in all three */
    out_of_order_case(comm, (const double[3]){0.90, 0.91, 0.92}, 1);

    /* one pair has no spread: nothing is beyond a noise that cannot be told */
    json_t *one = json_pack("{s:f, s:f, s:f, s:i}", "value", -0.1, "min", -0.1, "max", -0.1, "pairs", 1);
    ps_wb_part_noise pn = ps_wb_part_noise_of(one, 1.0);
    CHECK(pn.verdict == PS_WB_NOISE_UNKNOWN && isnan(pn.noise));
    NEAR(pn.effect, -0.1);
    json_decref(one);
    /* a positive part whose pairs reach below zero is within the noise */
    json_t *pos = json_pack("{s:f, s:f, s:f, s:i}", "value", 0.1, "min", -0.05, "max", 0.3, "pairs", 9);
    pn = ps_wb_part_noise_of(pos, 2.0);
    CHECK(pn.verdict == PS_WB_WITHIN_NOISE);
    NEAR(pn.noise, 0.15 / 2);
    json_decref(pos);
}

TEST_IMPL(no_nan)
{
    /* computation below zero and no machine: the ratios are undefined, and
     * the outputs say "-", never "nan" */
    const double t[3][3] = {{1.0, 1.0, 1.0}, {2.0, 2.0, 2.0}, {1.5, 1.5, 1.5}};
    ps_wb_data d;
    data_of(&d, t, 3);
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 3; k++) d.sample[v][k].compute[0] = d.sample[v][k].compute[1] = 0;
    json_t *doc = json_pack("{s:s, s:s, s:{s:i}}", "kind", "whitebox", "workload", "undefined", "params", "ranks", 2);
    CHECK(ps_whitebox_analyze(&d, NULL, NULL, doc) == 0);
    char *text = render(doc, 0), *html = render(doc, 1);
    CHECK(strstr(text, "/ computation = -") != NULL);
    CHECK(!strstr(text, "nan") && !strstr(text, "inf "));
    CHECK(!strstr(html, "nan") && !strstr(html, ">inf"));
    free(text);
    free(html);
    json_decref(doc);
    ps_wb_data_free(&d);
}

