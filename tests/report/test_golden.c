/* test_golden.c - a small stored trace in (golden/small.pst), the expected
 * sheet text, sheet page, CSV, Perfetto JSON and diagram out.
 * PS_UPDATE_GOLDEN=1 rewrites the expected files (review the diff!). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/activity.h"
#include "report/diagram.h"
#include "report/export.h"
#include "report/result.h"
#include "report/sheetpage.h"
#include "synth.h"
#include "trace/sheet.h"
#include "util/util.h"

#include "check.h"

static int update_golden(void)
{
    const char *u = getenv("PS_UPDATE_GOLDEN");
    return u && *u == '1';
}

static void compare(const char *name, const char *actual, size_t len)
{
    char *path = ps_xasprintf("%s/golden/%s", PS_TEST_DATA, name), err[512];
    if (update_golden()) {
        if (ps_write_file(path, actual, len, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            failures++;
        }
        free(path);
        return;
    }
    size_t glen = 0;
    char *golden = ps_read_file(path, &glen, err, sizeof err);
    if (!golden || glen != len || memcmp(golden, actual, len)) {
        char *out = ps_xasprintf("%s/tests/out/actual-%s", PS_BUILD_DIR, name);
        ps_write_file(out, actual, len, err, sizeof err);
        fprintf(stderr, "%s differs from the golden file; actual output in %s (diff -u %s %s)\n", name, out, path,
                out);
        free(out);
        failures++;
    }
    free(golden);
    free(path);
}

/* The stored trace (written first with PS_UPDATE_GOLDEN=1); exits when it
 * cannot be read. */
static ps_trace *stored_trace(void)
{
    char err[512], *stored = ps_xasprintf("%s/golden/small.pst", PS_TEST_DATA);
    ps_trace *t = NULL;
    if (update_golden()) {
        ps_trace *want = synth_small();
        if (ps_trace_write(want, stored, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            exit(1);
        }
        ps_trace_free(want);
    }
    if (ps_trace_read(stored, &t, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    free(stored);
    return t;
}

/* the stored file is the trace synth.c describes (hand figures there) */
TEST_IMPL(golden_stored_trace)
{
    ps_trace *want = synth_small(), *t = stored_trace();
    int same = t->nranks == want->nranks && t->nconstructs == want->nconstructs;
    for (int r = 0; same && r < t->nranks; r++)
        same = t->rank[r].n == want->rank[r].n && t->rank[r].t_begin == want->rank[r].t_begin &&
               t->rank[r].t_end == want->rank[r].t_end &&
               !memcmp(t->rank[r].ev, want->rank[r].ev, t->rank[r].n * sizeof(ps_event));
    CHECK(same, "golden/small.pst is not the trace synth_small() builds");
    ps_trace_free(t);
    ps_trace_free(want);
}

TEST_IMPL(golden_sheet_text)
{
    ps_trace *t = stored_trace();
    char *buf;
    size_t n;
    ps_sheet s;
    int rc = ps_sheet_compute(t, &s);
    CHECK(rc == 0);
    if (rc != 0) {
        ps_trace_free(t);
        return;
    }
    FILE *f = open_memstream(&buf, &n);
    ps_sheet_print(&s, t, "synthetic <small>", 100, 1, f);
    fclose(f);
    compare("sheet.txt", buf, n);
    free(buf);
    ps_sheet_free(&s);
    ps_trace_free(t);
}

TEST_IMPL(golden_sheet_page)
{
    ps_trace *t = stored_trace();
    char *buf;
    size_t n;
    ps_sheet s;
    int rc = ps_sheet_compute(t, &s);
    CHECK(rc == 0);
    if (rc != 0) {
        ps_trace_free(t);
        return;
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "kind", json_string("run"));
    json_object_set_new(doc, "workload", json_string("synthetic <small>"));
    json_object_set_new(doc, "params", json_pack("{s:i,s:i,s:i}", "ranks", 3, "size", 100, "iterations", 1));
    json_object_set_new(doc, "machine", json_pack("{s:s,s:i,s:I}", "host", "golden & <host>", "cores", 2,
                                                  "memory_bytes", (json_int_t)8 << 30));
    double time = ps_trace_time(t);
    json_object_set_new(doc, "time", ps_result_time(&time, 1));
    json_object_set_new(doc, "sheet", ps_result_sheet(&s));
    json_object_set_new(doc, "ranks", ps_result_ranks(&s, t));
    FILE *f = open_memstream(&buf, &n);
    ps_sheet_page_html(f, doc);
    fclose(f);
    compare("sheet.html", buf, n);
    free(buf);
    json_decref(doc);
    ps_sheet_free(&s);
    ps_trace_free(t);
}

TEST_IMPL(golden_csv)
{
    ps_trace *t = stored_trace();
    char *buf, err[512];
    size_t n;
    FILE *f = open_memstream(&buf, &n);
    CHECK(ps_export_csv(t, f, err, sizeof err) == 0, "%s", err);
    fclose(f);
    compare("events.csv", buf, n);
    free(buf);
    ps_trace_free(t);
}

TEST_IMPL(golden_perfetto)
{
    ps_trace *t = stored_trace();
    char *buf, err[512];
    size_t n;
    FILE *f = open_memstream(&buf, &n);
    CHECK(ps_export_perfetto(t, f, err, sizeof err) == 0, "%s", err);
    fclose(f);
    compare("perfetto.json", buf, n);
    free(buf);
    ps_trace_free(t);
}

TEST_IMPL(golden_diagram)
{
    ps_trace *t = stored_trace();
    char *buf, err[512];
    size_t n;
    ps_timeline tl;
    int rc = ps_timeline_build(t, &tl, err, sizeof err);
    CHECK(rc == 0, "%s", err);
    if (rc == 0) {
        FILE *f = open_memstream(&buf, &n);
        ps_diagram_svg(f, t, &tl, NULL, NULL);
        fclose(f);
        compare("diagram.svg", buf, n);
        free(buf);
        ps_timeline_free(&tl);
    }
    ps_trace_free(t);
}
