/* test_out.c - the outputs: activity timelines against the sheet and hand
 * figures, profiles, the diagram's arrows and syncs (also thinned at 64
 * ranks), the exports' structure, escaping, and failure paths. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/activity.h"
#include "report/diagram.h"
#include "report/export.h"
#include "report/html.h"
#include "report/profiles.h"
#include "report/result.h"
#include "report/svg.h"
#include "synth.h"
#include "trace/sheet.h"
#include "util/util.h"

#include "check.h"

#define NEAR(a, b, tol) CHECK(fabs((a) - (b)) <= (tol))

/* Runs fn(f, arg) into memory; caller frees. */
static char *capture(void (*fn)(FILE *, void *), void *arg, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    fn(f, arg);
    fclose(f);
    if (len) *len = n;
    return buf;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

TEST_IMPL(timeline_small)
{
    ps_trace *t = synth_small();
    ps_timeline tl;
    char err[256];
    CHECK(ps_timeline_build(t, &tl, err, sizeof err) == 0);
    const double ms = 1e-3;
    /* hand figures (synth.c) */
    NEAR(tl.total[0 * 3 + PS_ACT_BUSY], 8.0 * ms, 1e-12);
    NEAR(tl.total[0 * 3 + PS_ACT_OVERHEAD], 1.1 * ms, 1e-12);
    NEAR(tl.total[0 * 3 + PS_ACT_IDLE], 0.9 * ms, 1e-12);
    /* rank 1: idle 0.35 (recv from 2 waits for send at 3.15) + 0.3 (barrier) */
    NEAR(tl.total[1 * 3 + PS_ACT_IDLE], 0.65 * ms, 1e-12);
    /* the same split as the result sheet, rank by rank */
    ps_sheet s;
    CHECK(ps_sheet_compute(t, &s) == 0);
    for (int r = 0; r < t->nranks; r++) {
        NEAR(tl.total[r * 3 + PS_ACT_BUSY], s.rank[r].busy, 1e-12);
        NEAR(tl.total[r * 3 + PS_ACT_OVERHEAD], s.rank[r].overhead, 1e-12);
        NEAR(tl.total[r * 3 + PS_ACT_IDLE], s.rank[r].idle, 1e-12);
        /* segments are adjacent, ordered and cover the run */
        CHECK(tl.nseg[r] > 0);
        NEAR(tl.seg[r][0].t0, tl.t0, 0);
        NEAR(tl.seg[r][tl.nseg[r] - 1].t1, tl.t1, 0);
        for (size_t i = 1; i < tl.nseg[r]; i++) {
            CHECK(tl.seg[r][i].t0 == tl.seg[r][i - 1].t1);
            CHECK(tl.seg[r][i].act != tl.seg[r][i - 1].act);
        }
    }
    ps_sheet_free(&s);
    NEAR(ps_timeline_time_in(&tl, 0, PS_ACT_IDLE, tl.t0 + 2.2 * ms, tl.t0 + 2.5 * ms), 0.3 * ms, 1e-12);

    /* utilisation: every bin holds all three ranks */
    double u[50 * 3];
    ps_profile_utilisation(&tl, 50, u);
    for (int b = 0; b < 50; b++) NEAR(u[b * 3] + u[b * 3 + 1] + u[b * 3 + 2], 3.0, 1e-9);
    /* concurrency: the shares add up to the run, and agree with sampling */
    double c[4], sampled[4] = {0};
    ps_profile_concurrency(&tl, c);
    NEAR(c[0] + c[1] + c[2] + c[3], tl.t1 - tl.t0, 1e-12);
    int N = 100000;
    for (int i = 0; i < N; i++) {
        double x = tl.t0 + (i + 0.5) / N * (tl.t1 - tl.t0);
        int busy = 0;
        for (int r = 0; r < 3; r++)
            for (size_t k = 0; k < tl.nseg[r]; k++)
                if (tl.seg[r][k].t0 <= x && x < tl.seg[r][k].t1 && tl.seg[r][k].act == PS_ACT_BUSY) busy++;
        sampled[busy] += (tl.t1 - tl.t0) / N;
    }
    for (int k = 0; k <= 3; k++) NEAR(c[k], sampled[k], 2e-7);

    /* communication matrix and sizes */
    uint64_t bytes[9], cnt[9], h[PS_SIZE_CLASSES];
    ps_comm_matrix(t, bytes, cnt);
    CHECK(bytes[0 * 3 + 1] == 100 && bytes[1 * 3 + 2] == 1000 && bytes[2 * 3 + 0] == 100);
    CHECK(cnt[0] == 0 && cnt[4] == 0 && cnt[8] == 0 && cnt[1] == 1);
    ps_message_sizes(t, h);
    CHECK(h[7] == 5);  /* 100 B: [64, 128) */
    CHECK(h[10] == 1); /* 1000 B: [512, 1024) */
    ps_timeline_free(&tl);
    ps_trace_free(t);
}

typedef struct dctx {
    ps_trace   *t;
    ps_timeline tl;
    ps_diagram_info info;
} dctx;

static void draw(FILE *f, void *arg)
{
    dctx *d = arg;
    ps_diagram_svg(f, d->t, &d->tl, NULL, &d->info);
}

TEST_IMPL(diagram_small)
{
    dctx d = {.t = synth_small()};
    char err[256];
    CHECK(ps_timeline_build(d.t, &d.tl, err, sizeof err) == 0);
    char *svg = capture(draw, &d, NULL);
    CHECK(d.info.messages == 6 && d.info.arrows == 6 && d.info.syncs == 2);
    CHECK(count(svg, "class=\"msg\" data-n=\"1\"") == 6);
    CHECK(count(svg, "class=\"sync\"") == 2);
    CHECK(strstr(svg, ">MULTIBCAST0<") != NULL); /* the phase between the syncs (size cut to fit) */
    CHECK(strstr(svg, ">SCALPROD<") != NULL);
    CHECK(strstr(svg, "time since start (ms)") != NULL);
    CHECK(strstr(svg, "<script") == NULL);
    free(svg);

    /* a window: only the messages inside it, the sync span found */
    double a, b;
    CHECK(ps_diagram_sync_span(d.t, &a, &b));
    NEAR(a, 1000.0 + 2.0e-3, 1e-12);
    NEAR(b, 1000.0 + 4.0e-3, 1e-12);
    char *buf;
    size_t n;
    ps_diagram_info info;
    ps_diagram_opts z = {800, 0, "zoom", a, b};
    FILE *f = open_memstream(&buf, &n);
    ps_diagram_svg(f, d.t, &d.tl, &z, &info);
    fclose(f);
    CHECK(info.messages == 6 && info.arrows == 6 && info.syncs == 2);
    CHECK(strstr(buf, "time since 2 ms after the start") != NULL);
    free(buf);
    ps_diagram_opts late = {800, 0, "late", 1000.0 + 5e-3, 1000.0 + 9e-3};
    f = open_memstream(&buf, &n);
    ps_diagram_svg(f, d.t, &d.tl, &late, &info);
    fclose(f);
    CHECK(info.messages == 0 && info.arrows == 0 && count(buf, "class=\"msg\"") == 0);
    free(buf);
    ps_timeline_free(&d.tl);
    ps_trace_free(d.t);
}

/* Summed data-n of the msg lines. */
static unsigned long sum_data_n(const char *svg, size_t *lines)
{
    unsigned long sum = 0;
    *lines = 0;
    for (const char *p = svg; (p = strstr(p, "class=\"msg\" data-n=\"")); p++) {
        sum += strtoul(p + strlen("class=\"msg\" data-n=\""), NULL, 10);
        (*lines)++;
    }
    return sum;
}

TEST_IMPL(diagram_thinned)
{
    dctx d = {.t = synth_ring(64, 800, 160, 64)};
    char err[256];
    CHECK(ps_timeline_build(d.t, &d.tl, err, sizeof err) == 0);
    size_t len, lines;
    char *svg = capture(draw, &d, &len);
    CHECK(d.info.messages == 64 * 800);
    CHECK(d.info.arrows <= PS_DIAGRAM_MAX_ARROWS && d.info.arrows > 0);
    CHECK(sum_data_n(svg, &lines) == 64 * 800);
    CHECK(lines == d.info.arrows);
    CHECK(d.info.binned_ranks == 64); /* 1600 segments per lane > pixel columns */
    CHECK(d.info.syncs == 5);
    CHECK(len < 3000000); /* bounded by pixels, not by events */
    free(svg);
    ps_timeline_free(&d.tl);
    ps_trace_free(d.t);
}

TEST_IMPL(perfetto_csv)
{
    ps_trace *t = synth_small();
    char *buf = NULL, err[256];
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    CHECK(ps_export_perfetto(t, f, err, sizeof err) == 0);
    fclose(f);
    json_error_t je;
    json_t *doc = json_loads(buf, 0, &je);
    CHECK(doc != NULL);
    json_t *evs = json_object_get(doc, "traceEvents");
    CHECK(json_is_array(evs));
    size_t i, nout = 0, nin = 0, nx = 0, ni = 0, lanes = 0, nsf = 0;
    long out_sum = 0, in_sum = 0;
    double first_ts = -1, out_ts[8] = {0}, in_ts[8] = {0};
    json_t *e;
    json_array_foreach(evs, i, e)
    {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        if (!ph) continue;
        if (!strcmp(ph, "s") || !strcmp(ph, "f")) nsf++;
        json_int_t bid = json_integer_value(json_object_get(e, "bind_id"));
        if (json_is_true(json_object_get(e, "flow_out"))) {
            nout++, out_sum += (long)bid;
            if (bid > 0 && bid < 8) out_ts[bid] = json_number_value(json_object_get(e, "ts"));
            CHECK(json_integer_value(json_object_get(e, "dur")) == 0);
        }
        if (json_is_true(json_object_get(e, "flow_in"))) {
            nin++, in_sum += (long)bid;
            if (bid > 0 && bid < 8) in_ts[bid] = json_number_value(json_object_get(e, "ts"));
        }
        if (!strcmp(ph, "X")) {
            nx++;
            if (first_ts < 0) first_ts = json_number_value(json_object_get(e, "ts"));
        }
        if (!strcmp(ph, "i")) ni++;
        if (!strcmp(ph, "M") && !strcmp(json_string_value(json_object_get(e, "name")), "thread_name")) lanes++;
    }
    /* one flow per matched message, bound to zero-length anchors */
    CHECK(nout == 6 && nin == 6 && out_sum == in_sum && out_sum == 21 && nsf == 0);
    CHECK(nx == 31 - 6 + 12 && ni == 6); /* 31 events, 6 of them marks; 12 anchors */
    /* message 1 (rank 0 -> 1): its send starts at 2.0 ms, its receive ends at 2.6 ms */
    NEAR(out_ts[1], 2000.0, 1e-6);
    NEAR(in_ts[1], 2600.0, 1e-6);
    for (int k = 1; k <= 6; k++) CHECK(in_ts[k] >= out_ts[k]); /* every arrow points forward */
    CHECK(lanes == 3);
    NEAR(first_ts, 0.0, 1e-9);      /* rebased to the run start */
    json_decref(doc);
    free(buf);

    f = open_memstream(&buf, &n);
    CHECK(ps_export_csv(t, f, err, sizeof err) == 0);
    fclose(f);
    CHECK(count(buf, "\n") == 32);
    CHECK(strstr(buf, "\"phase <1> & \"\"two\"\"\"") != NULL); /* CSV quoting */
    /* flops in their own column: rank 0's first row is SCALPROD's 2000 flops, no bytes */
    CHECK(strstr(buf, "message,flops,request\n") != NULL);
    CHECK(strstr(buf, "\n0,0,compute,SCALPROD,0.000000000,0.002000000,0.002000000,,-1,0,0,0,,2000,\n") != NULL);
    free(buf);
    ps_trace_free(t);
}

TEST_IMPL(export_failures)
{
    ps_trace *t = synth_small();
    char err[512];
    char *dir = ps_mktempdir("ps-out-test", err, sizeof err);
    CHECK(dir != NULL);
    /* an existing non-archive is never overwritten */
    char *plain = ps_xasprintf("%s/plain", dir);
    CHECK(ps_write_file(plain, "keep", 4, err, sizeof err) == 0);
    CHECK(ps_export_otf2(t, plain, err, sizeof err) == -1);
    CHECK(strstr(err, plain) != NULL);
    size_t len;
    char *kept = ps_read_file(plain, &len, err, sizeof err);
    CHECK(kept && len == 4 && !memcmp(kept, "keep", 4));
    free(kept);
    /* a file in a missing directory: an error naming it, nothing left */
    char *missing = ps_xasprintf("%s/no/such/dir/out.json", dir);
    CHECK(ps_export(t, PS_EXPORT_PERFETTO, missing, err, sizeof err) == -1);
    CHECK(strstr(err, missing) != NULL);
    /* an OTF2 archive is written, and replaced on a second export */
    char *arch = ps_xasprintf("%s/a.otf2", dir), *anchor = ps_xasprintf("%s/a.otf2/traces.otf2", dir);
    CHECK(ps_export_otf2(t, arch, err, sizeof err) == 0);
    CHECK(ps_file_exists(anchor));
    CHECK(ps_export_otf2(t, arch, err, sizeof err) == 0);
    CHECK(ps_file_exists(anchor));
    ps_rmtree(dir);
    free(plain), free(missing), free(arch), free(anchor), free(dir);
    ps_trace_free(t);
}

/* A trace with nonsense in it (as a damaged or foreign file could hold):
 * every output still works and stays well-formed. */
TEST_IMPL(odd_trace)
{
    ps_trace *t = ps_trace_new(2);
    const char *names[] = {"NONE", "X"};
    ps_trace_set_constructs(t, names, 2);
    t->rank[0].t_begin = t->rank[1].t_begin = 10;
    t->rank[0].t_end = t->rank[1].t_end = 11;
    ps_event ev[] = {
        {NAN, 10.5, 8, 1, 0, 1, PS_EV_COMPUTE, 0, 0},
        {10.6, 10.4, 8, 1, 0, 1, PS_EV_SEND, 0, 0},         /* ends before it starts */
        {10.7, 1e300, 8, 7, 0, 999, PS_EV_SEND, 0, 0},      /* absurd end, peer and construct */
        {10.8, 10.9, 0, -1, 0, 1, PS_EV_SECTION, 0, 4242}, /* section name out of range */
    };
    for (size_t i = 0; i < sizeof ev / sizeof *ev; i++) ps_trace_push(t, 0, &ev[i]);
    ps_event r1 = {10.5, 10.65, 8, 0, 0, 1, PS_EV_RECV, 0, 0};
    ps_trace_push(t, 1, &r1);
    char *buf, err[256];
    size_t n;
    FILE *f = open_memstream(&buf, &n);
    CHECK(ps_export_perfetto(t, f, err, sizeof err) == 0);
    fclose(f);
    json_t *doc = json_loads(buf, 0, NULL);
    CHECK(doc != NULL);
    json_decref(doc);
    free(buf);
    f = open_memstream(&buf, &n);
    CHECK(ps_export_csv(t, f, err, sizeof err) == 0);
    fclose(f);
    CHECK(count(buf, "\n") == 6 && strstr(buf, "nan") == NULL);
    free(buf);
    dctx d = {.t = t};
    CHECK(ps_timeline_build(t, &d.tl, err, sizeof err) == 0);
    char *svg = capture(draw, &d, NULL);
    CHECK(strstr(svg, "nan") == NULL && strstr(svg, "inf") == NULL);
    CHECK(d.info.messages == d.info.arrows);
    free(svg);
    ps_timeline_free(&d.tl);
    char *dir = ps_mktempdir("ps-out-odd", err, sizeof err), *arch = ps_xasprintf("%s/a", dir);
    CHECK(ps_export_otf2(t, arch, err, sizeof err) == 0);
    ps_rmtree(dir);
    free(dir), free(arch);
    ps_trace_free(t);
}

static void esc(FILE *f, void *arg) { ps_html_escape(f, arg); }

TEST_IMPL(escape_and_ticks)
{
    char *s = capture(esc, "<a href='x'>&\"\x01", NULL);
    CHECK(!strcmp(s, "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\xef\xbf\xbd"));
    free(s);
    double v[16];
    int n = ps_svg_ticks(0, 7.3, 8, v, 16);
    CHECK(n == 8 && v[0] == 0 && v[7] == 7);
    n = ps_svg_ticks(0, 0.012, 6, v, 16);
    CHECK(n == 7 && fabs(v[6] - 0.012) < 1e-12);
    double scale;
    const char *unit;
    ps_svg_time_unit(0.25, &scale, &unit);
    CHECK(scale == 1e-3 && !strcmp(unit, "ms"));
    ps_svg_time_unit(0.00999, &scale, &unit);
    CHECK(scale == 1e-3);
    ps_svg_time_unit(42e-6, &scale, &unit);
    CHECK(scale == 1e-6);
}

/* ParaGraph's queue lengths of synth_small(), by hand (ms): a message is in
 * its receiver's queue from its send's start to its receive's end.
 *   node 0: from 1 [2.6, 3.0], from 2 [3.1, 3.2]: max 1, area 0.5
 *   node 1: from 0 [2.0, 2.6], from 2 [3.15, 3.3]: max 1, area 0.75
 *   node 2: from 0 [2.1, 3.05], from 1 [2.7, 3.1]: max 2 on [2.7, 3.05], area 1.35
 * over the 10 ms execution time. */
TEST_IMPL(queue)
{
    ps_trace *t = synth_small();
    ps_sheet s;
    CHECK(ps_sheet_compute(t, &s) == 0);
    CHECK(s.rank[0].max_queue == 1 && s.rank[1].max_queue == 1 && s.rank[2].max_queue == 2 && s.max_queue == 2);
    NEAR(s.rank[0].avg_queue, 0.05, 1e-9);
    NEAR(s.rank[1].avg_queue, 0.075, 1e-9);
    NEAR(s.rank[2].avg_queue, 0.135, 1e-9);
    NEAR(s.avg_queue, (0.05 + 0.075 + 0.135) / 3, 1e-9);
    ps_sheet_free(&s);
    ps_trace_free(t);
}

/* A version-1 trace file (golden/small-v1.pst, synth_small() before request
 * ids and hardware were recorded) still reads, with the same figures, and its
 * nonblocking operations pair by order. */
TEST_IMPL(v1_trace)
{
    char err[512], *path = ps_xasprintf("%s/golden/small-v1.pst", PS_TEST_DATA);
    ps_trace *old = NULL, *now = synth_small();
    CHECK(ps_trace_read(path, &old, err, sizeof err) == 0);
    free(path);
    if (!old) {
        ps_trace_free(now);
        return;
    }
    CHECK(old->version == 1 && now->version == PS_TRACE_VERSION && old->nranks == 3);
    ps_sheet a, b;
    CHECK(ps_sheet_compute(old, &a) == 0 && ps_sheet_compute(now, &b) == 0);
    CHECK(a.messages_sent == b.messages_sent && a.bytes_sent == b.bytes_sent && a.max_queue == b.max_queue);
    NEAR(a.busy_pct, b.busy_pct, 1e-9);
    NEAR(a.idle_pct, b.idle_pct, 1e-9);
    ps_requests q;
    CHECK(ps_trace_requests(old, &q) == 0);
    /* rank 2: post (event 1) and its receive (3); send to 0 (5) and the wait (8) */
    CHECK(q.partner[q.base[2] + 1] == 3 && q.partner[q.base[2] + 5] == 8 && q.partner[q.base[2] + 6] == -1);
    CHECK(q.nrequests == 2 && q.unfinished == 3);
    ps_requests_free(&q);
    ps_sheet_free(&a);
    ps_sheet_free(&b);
    ps_trace_free(old);
    ps_trace_free(now);
}

/* A host named with quotes and a backslash stays itself through the result
 * JSON's hardware (written and read by jansson) and the text sheet. */
TEST_IMPL(host_names)
{
    ps_trace *t = synth_small();
    const char *name = "lab \"fast\" box\\x";
    snprintf(t->rank[1].host, sizeof t->rank[1].host, "%s", name);
    json_t *doc = json_object();
    ps_result_describe(doc, t, "synthetic");
    char *text = json_dumps(doc, JSON_COMPACT);
    json_t *back = text ? json_loads(text, 0, NULL) : NULL;
    CHECK(back != NULL);
    const json_t *hosts = json_object_get(json_object_get(back, "hardware"), "hosts");
    CHECK(json_array_size(hosts) == 3 && !strcmp(json_string_value(json_array_get(hosts, 1)), name));
    CHECK(!strcmp(json_string_value(json_object_get(back, "problem")), "synthetic(100,1000)"));
    ps_sheet s;
    CHECK(ps_sheet_compute(t, &s) == 0);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ps_sheet_print(&s, t, "synthetic", 100, 1, f);
    fclose(f);
    CHECK(strstr(buf, "Machine:                     node0, lab \"fast\" box\\x, node2\n") != NULL);
    CHECK(strstr(buf, "Network:                     TCP/IP network between 3 hosts\n") != NULL);
    free(buf);
    ps_sheet_free(&s);
    free(text);
    json_decref(back);
    json_decref(doc);
    ps_trace_free(t);
}

/* A result keeps a clock reading to the digit (realtime_s, seconds since
 * 1970, needs 17 significant digits), a measured figure to 10. */
TEST_IMPL(result_precision)
{
    char err[512];
    char *dir = ps_mktempdir("ps-out-test", err, sizeof err);
    CHECK(dir != NULL);
    json_t *doc = json_pack("{s:{s:{s:f,s:f}},s:f,s:f,s:f,s:f}", "trace_meta", "clock", "realtime_s",
                            1795510315.8163457, "monotonic_s", 36543.935021234, "time", 0.1, "avg",
                            0.012345678912345678, "flops", 2686976.0, "tiny", -1.5e-300);
    char *path = ps_xasprintf("%s/r.json", dir), *lines = ps_xasprintf("%s/runs.jsonl", dir);
    CHECK(ps_result_write(path, doc, err, sizeof err) == 0, "%s", err);
    CHECK(ps_result_append(lines, doc, err, sizeof err) == 0, "%s", err);
    const char *files[] = {path, lines};
    for (int k = 0; k < 2; k++) {
        size_t len;
        char *text = ps_read_file(files[k], &len, err, sizeof err);
        CHECK(text != NULL, "%s", err);
        if (!text) continue;
        CHECK(strstr(text, "1795510315.8163457") != NULL, "%s: realtime_s cut: %s", files[k], text);
        CHECK(strstr(text, "36543.935021234") != NULL, "%s: monotonic_s cut: %s", files[k], text);
        CHECK(strstr(text, "0.1,") != NULL || strstr(text, "0.1\n") != NULL, "%s: 0.1 widened: %s", files[k], text);
        CHECK(strstr(text, "0.01234567891,") != NULL || strstr(text, "0.01234567891\n") != NULL,
              "%s: a figure not at 10 digits: %s", files[k], text);
        CHECK(strstr(text, "2686976.0") != NULL && strstr(text, "-1.5e-300") != NULL, "%s: %s", files[k], text);
        json_t *back = json_loads(text, 0, NULL);
        CHECK(back && json_real_value(json_object_get(json_object_get(json_object_get(back, "trace_meta"), "clock"),
                                                      "realtime_s")) == 1795510315.8163457,
              "%s: realtime_s does not read back", files[k]);
        json_decref(back);
        free(text);
    }
    json_decref(doc);
    ps_rmtree(dir);
    free(path), free(lines), free(dir);
}
