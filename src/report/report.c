/* report.c - report sections for runs, predictions and traces (see report.h). */
#include "report/report.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/activity.h"
#include "report/diagram.h"
#include "report/figure.h"
#include "report/html.h"
#include "report/noise.h"
#include "report/profiles.h"
#include "report/result.h"
#include "report/sheetpage.h"
#include "trace/json.h"
#include "trace/sheet.h"
#include "util/util.h"

#define PS_REPORT_WIDTH 1100.0

static const char *kind_title(const char *kind)
{
    if (!kind) return "Result";
    if (!strcmp(kind, "run")) return "Run";
    if (!strcmp(kind, "predict")) return "Prediction";
    return kind;
}

void ps_report_trace_pictures(FILE *f, const ps_trace *t)
{
    ps_timeline tl;
    char err[256];
    if (ps_timeline_build(t, &tl, err, sizeof err) != 0) {
        ps_html_note(f, "No pictures: %s.", err);
        return;
    }
    ps_html_heading(f, "Space-time diagram");
    ps_diagram_info info;
    ps_diagram_opts o = {PS_REPORT_WIDTH, 0, "space-time diagram", 0, 0};
    ps_diagram_svg(f, t, &tl, &o, &info);
    ps_html_note(f, "One lane per rank on the global (clock-corrected) time axis: green is busy (outside the "
                    "communication layer), amber is overhead (inside it, working), red is idle (inside it, waiting "
                    "for a partner). Each arrow is a message from the start of its send to the end of its receive; "
                    "purple lines join each rank's VISIBLE_SYNC, and the label above each phase names the construct "
                    "that took most of its time. A slanted (V-shaped) front in a phase means the network serialises "
                    "the messages; a vertical one means it keeps up.");
    double a, b;
    if (ps_diagram_sync_span(t, &a, &b) && b - a < 0.5 * (tl.t1 - tl.t0)) {
        /* the synchronised phases are a small part of the run (start-up,
         * a long computation): show them again, stretched */
        double m = 0.03 * (b - a);
        ps_diagram_opts z = {PS_REPORT_WIDTH, 0, "space-time diagram, zoomed to the VISIBLE_SYNC phases", a - m, b + m};
        ps_html_heading(f, "Space-time diagram, from the first to the last VISIBLE_SYNC");
        ps_diagram_svg(f, t, &tl, &z, NULL);
    }
    if (tl.match.unmatched_sends || tl.match.unmatched_recvs)
        ps_html_note(f, "%zu sends and %zu receives have no partner in the trace (lost events?) and are not drawn.",
                     tl.match.unmatched_sends, tl.match.unmatched_recvs);

    ps_html_heading(f, "Utilisation over time");
    ps_profile_utilisation_svg(f, &tl, PS_REPORT_WIDTH);
    ps_html_note(f, "How many ranks are busy, in overhead and idle, averaged over each of %d time bins.",
                 PS_PROFILE_BINS);
    ps_html_heading(f, "Concurrency profile");
    ps_profile_concurrency_svg(f, &tl, PS_REPORT_WIDTH);
    ps_html_note(f, "The share of the run during which exactly k ranks were busy at once.");
    ps_html_heading(f, "Utilisation per rank");
    ps_rank_bars_svg(f, &tl, PS_REPORT_WIDTH);
    ps_html_heading(f, "Communication matrix");
    ps_comm_matrix_svg(f, t, PS_REPORT_WIDTH);
    ps_html_note(f, "Bytes sent from each rank (row) to each rank (column); hover a cell for the message count.");
    ps_html_heading(f, "Message sizes");
    ps_message_sizes_svg(f, t, PS_REPORT_WIDTH);
    ps_timeline_free(&tl);
}

/* Resolves the trace key against the document's directory (DESIGN.md); a
 * path that only exists as written (relative to where the run was started)
 * is accepted too. */
static char *trace_path(const json_t *doc, const char *dir)
{
    const char *p = json_string_value(json_object_get(doc, "trace"));
    if (!p || !*p) return NULL;
    if (p[0] == '/' || !dir || !*dir) return ps_xstrdup(p);
    char *rel = ps_xasprintf("%s/%s", dir, p), tp[PATH_MAX];
    ps_trace_path(rel, tp, sizeof tp);
    if (ps_file_exists(tp)) return rel;
    ps_trace_path(p, tp, sizeof tp);
    if (ps_file_exists(tp)) {
        free(rel);
        return ps_xstrdup(p);
    }
    return rel;
}

void ps_report_named_traces(const char *json_path, void (*add)(const char *file, void *ctx), void *ctx)
{
    json_t *doc = json_load_file(json_path, 0, NULL);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return;
    }
    char *d = ps_xstrdup(json_path), *slash = strrchr(d, '/');
    if (slash) *slash = '\0';
    else strcpy(d, ".");
    const json_t *pts = json_object_get(doc, "points");
    size_t np = json_is_array(pts) ? json_array_size(pts) : 0;
    for (size_t i = 0; i <= np; i++) {
        char *tp = trace_path(i < np ? json_array_get(pts, i) : doc, d), file[PATH_MAX];
        if (!tp) continue;
        ps_trace_path(tp, file, sizeof file);
        add(file, ctx);
        free(tp);
    }
    free(d);
    json_decref(doc);
}

static int compact_page;

void ps_report_set_compact(int compact) { compact_page = compact; }

/* "1.23 ms; busy 80%, overhead 12%, idle 8%; 48 messages" */
static void headline(char *buf, size_t len, const json_t *d)
{
    const json_t *sh = json_object_get(d, "sheet");
    char t[32];
    ps_html_fmt_time(t, sizeof t, ps_result_used_time(d));
    double b = ps_json_num(sh, "busy_pct"), m = ps_json_num(sh, "messages_sent");
    char o[16], i[16];
    if (isfinite(b) && isfinite(m))
        snprintf(buf, len, "%s; busy %.0f%%, overhead %s, idle %s; %.0f messages", t, b,
                 ps_fig(o, sizeof o, "%.0f%%", ps_json_num(sh, "overhead_pct")),
                 ps_fig(i, sizeof i, "%.0f%%", ps_json_num(sh, "idle_pct")), m);
    else snprintf(buf, len, "%s", t);
}

/* Whether the trace a document names is another run's (its rank count or
 * its workload differ): 1 with why, else 0. */
static int other_run(const json_t *doc, const ps_trace *t, char *why, size_t len)
{
    json_int_t r = json_integer_value(json_object_get(json_object_get(doc, "params"), "ranks"));
    if (r > 0 && r != t->nranks) {
        snprintf(why, len, "%d ranks, this document's %lld", t->nranks, (long long)r);
        return 1;
    }
    const char *w = json_string_value(json_object_get(doc, "workload"));
    json_t *meta = t->meta_json ? json_loads(t->meta_json, 0, NULL) : NULL;
    const char *tw = json_string_value(json_object_get(meta, "workload"));
    int other = 0;
    if (w && tw && *w && *tw) {
        char a[256], b[256];
        ps_workload_key(w, a, sizeof a);
        ps_workload_key(tw, b, sizeof b);
        if ((other = strcmp(a, b) != 0)) snprintf(why, len, "workload %s, this document's %s", b, a);
    }
    json_decref(meta);
    return other;
}

/* The pictures of a document's trace. */
static void pictures(FILE *f, const json_t *doc, const char *dir)
{
    char *tp = trace_path(doc, dir);
    if (!tp) {
        ps_html_note(f, "This document names no trace, so there is no space-time diagram (run with --trace DIR).");
        return;
    }
    ps_trace *t = NULL;
    char err[512], why[600];
    if (ps_trace_read(tp, &t, err, sizeof err) != 0) {
        ps_html_note(f, "No pictures: the trace could not be read (%s).", err);
    } else if (other_run(doc, t, why, sizeof why)) {
        ps_html_note(f, "No pictures: the trace %s is of another run than this document: %s (a later run or "
                        "prediction wrote its trace there).", tp, why);
        ps_trace_free(t);
    } else {
        ps_report_trace_pictures(f, t);
        ps_trace_free(t);
    }
    free(tp);
}

static void run_section(FILE *f, const json_t *doc, const char *dir, const char *source)
{
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    const char *workload = json_string_value(json_object_get(doc, "workload"));
    const json_t *params = json_object_get(doc, "params");
    char title[512], line[256];
    json_int_t n = json_integer_value(json_object_get(params, "ranks"));
    snprintf(title, sizeof title, "%s: %s, %lld rank%s", kind_title(kind), workload ? workload : "?", (long long)n,
             n == 1 ? "" : "s");
    ps_html_section_begin(f, kind ? kind : "result", title);
    if (source) ps_html_note(f, "From %s.", source);
    /* how busy the machine was, and whether the ranks shared cores: before
     * any figure (a prediction has neither) */
    if (json_object_get(doc, "noise")) ps_noise_html(f, json_object_get(doc, "noise"));
    if (json_is_true(json_object_get(doc, "oversubscribed")))
        ps_html_note(f, "Oversubscribed: %s",
                     json_string_value(json_object_get(json_object_get(doc, "sheet"), "time_sliced_note"))
                         ? json_string_value(json_object_get(json_object_get(doc, "sheet"), "time_sliced_note"))
                         : "more ranks than cores; busy / overhead / idle are time-slicing artefacts");
    const json_t *tm = json_object_get(doc, "time");
    if (json_is_number(json_object_get(tm, "uncertainty")))
        ps_html_note(f, "Time: %s of %lld trial(s), +/- %.1f%% (the gap of the best two)%s",
                     json_string_value(json_object_get(tm, "used")) ? json_string_value(json_object_get(tm, "used"))
                                                                  : "min",
                     (long long)json_integer_value(json_object_get(tm, "successful")),
                     100 * json_number_value(json_object_get(tm, "uncertainty")),
                     json_is_object(json_object_get(tm, "ci_median")) ? "; the median's interval is in the JSON" : "");
    if (compact_page) {
        /* many results on the page: the headline shows, the sheets open on demand */
        headline(line, sizeof line, doc);
        ps_html_details_begin(f, "Result sheets: %s", line);
        ps_sheet_page_html(f, doc);
        ps_html_details_end(f);
    } else {
        ps_sheet_page_html(f, doc);
    }
    pictures(f, doc, dir);
    ps_html_section_end(f);
}

/* A document of several processor counts: one section, a table of the
 * counts, and each count's sheets (and pictures) folded under its row. */
static void points_section(FILE *f, const json_t *doc, const char *dir, const char *source)
{
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    const json_t *pts = json_object_get(doc, "points");
    const json_t *p0 = json_array_get(pts, 0), *pz = json_array_get(pts, json_array_size(pts) - 1);
    const char *workload = json_string_value(json_object_get(doc, "workload"));
    if (!workload) workload = json_string_value(json_object_get(p0, "workload"));
    int predicted = kind && !strcmp(kind, "predict");
    const json_t *m = json_object_get(p0, "machine");
    const char *on = json_string_value(json_object_get(m, predicted ? "name" : "host"));
    char title[512];
    snprintf(title, sizeof title, "%s: %s%s%s, P = %.0f..%.0f", kind_title(kind), workload ? workload : "?",
             on ? " on " : "", on ? on : "", ps_json_num(json_object_get(p0, "params"), "ranks"),
             ps_json_num(json_object_get(pz, "params"), "ranks"));
    ps_html_section_begin(f, kind ? kind : "result", title);
    if (source) ps_html_note(f, "From %s.", source);
    char id[64];
    ps_html_new_id(id, sizeof id, "points");
    fprintf(f, "<table id=\"%s\">\n<tr><th>P</th><th>time</th><th>speedup</th><th>busy</th><th>overhead</th>"
               "<th>idle</th><th>messages</th><th>bytes sent</th></tr>\n", id);
    double t1 = ps_result_used_time(p0);
    size_t i;
    json_t *p;
    json_array_foreach((json_t *)pts, i, p) {
        const json_t *sh = json_object_get(p, "sheet");
        char t[32], bb[32];
        double tp = ps_result_used_time(p);
        ps_html_fmt_time(t, sizeof t, tp);
        fprintf(f, "<tr><td class=\"num\">%.0f</td><td class=\"num\">%s</td>", ps_json_num(json_object_get(p, "params"), "ranks"), t);
        ps_html_cell_fig(f, "%.3g", t1 / tp);
        const char *k3[3] = {"busy_pct", "overhead_pct", "idle_pct"};
        for (int k = 0; k < 3; k++) ps_html_cell_fig(f, "%.1f%%", ps_json_num(sh, k3[k]));
        ps_html_cell_fig(f, "%.0f", ps_json_num(sh, "messages_sent"));
        double bytes = ps_json_num(sh, "bytes_sent");
        if (isfinite(bytes)) ps_fmt_bytes(bb, sizeof bb, bytes);
        else snprintf(bb, sizeof bb, "-");
        ps_html_cell(f, 1, "%s", bb);
        ps_html_row_end(f);
    }
    fputs("</table>\n", f);
    ps_html_note(f, "speedup against P = %.0f, the first count.", ps_json_num(json_object_get(p0, "params"), "ranks"));
    json_array_foreach((json_t *)pts, i, p) {
        json_t *copy = NULL;
        const json_t *pt = p;
        /* a point may leave its kind to the enclosing document */
        if (!json_object_get(p, "kind") && kind) {
            copy = json_copy(p);
            json_object_set_new(copy, "kind", json_string(kind));
            pt = copy;
        }
        char line[256];
        headline(line, sizeof line, pt);
        ps_html_details_begin(f, "P = %.0f: %s", ps_json_num(json_object_get(pt, "params"), "ranks"), line);
        ps_sheet_page_html(f, pt);
        pictures(f, pt, dir);
        ps_html_details_end(f);
        json_decref(copy);
    }
    ps_html_section_end(f);
}

int ps_report_run_html(FILE *f, const json_t *doc, const char *dir, const char *source)
{
    const json_t *points = json_object_get(doc, "points");
    if (json_is_array(points) && json_array_size(points) > 1) {
        points_section(f, doc, dir, source);
        return 0;
    }
    if (json_is_array(points) && json_array_size(points) == 1) {
        const json_t *p = json_array_get(points, 0);
        json_t *copy = json_copy((json_t *)p);
        if (!json_object_get(p, "kind") && json_object_get(doc, "kind"))
            json_object_set(copy, "kind", json_object_get(doc, "kind"));
        run_section(f, copy, dir, source);
        json_decref(copy);
        return 0;
    }
    run_section(f, doc, dir, source);
    return 0;
}

void ps_report_trace_section(FILE *f, const ps_trace *t, const char *source)
{
    const char *workload = "trace";
    json_t *meta = t->meta_json ? json_loads(t->meta_json, 0, NULL) : NULL;
    if (meta && json_is_string(json_object_get(meta, "workload")))
        workload = json_string_value(json_object_get(meta, "workload"));
    json_t *doc = NULL;
    ps_sheet s;
    if (ps_sheet_compute(t, &s) == 0) {
        double time = ps_trace_time(t);
        long size = -1, iters = -1;
        if (meta) {
            /* a run's trace holds params {size, iterations}; a prediction's, top-level keys */
            json_t *pm = json_object_get(meta, "params"), *src = json_is_object(pm) ? pm : meta;
            json_t *v = json_object_get(src, "size");
            if (json_is_integer(v)) size = (long)json_integer_value(v);
            v = json_object_get(src, "iterations");
            if (json_is_integer(v)) iters = (long)json_integer_value(v);
        }
        doc = json_object();
        /* a predicted trace is drawn as a prediction (machine model, no trials), as its result is */
        const char *mk = json_string_value(json_object_get(meta, "kind"));
        json_object_set_new(doc, "kind", json_string(mk && !strcmp(mk, "predict") ? "predict" : "trace"));
        json_object_set_new(doc, "workload", json_string(workload));
        json_t *params = json_pack("{s:i,s:I,s:I}", "ranks", t->nranks, "size", (json_int_t)size, "iterations",
                                   (json_int_t)iters);
        ps_result_params_from_trace(params, t); /* a grid workload's grid */
        json_object_set_new(doc, "params", params);
        json_object_set_new(doc, "time", ps_result_time(&time, 1));
        json_object_set_new(doc, "sheet", ps_result_sheet(&s));
        json_object_set_new(doc, "ranks", ps_result_ranks(&s, t));
        ps_result_describe(doc, t, workload);
        ps_sheet_free(&s);
    }
    char title[512];
    snprintf(title, sizeof title, "Trace: %s, %d rank%s", workload, t->nranks, t->nranks == 1 ? "" : "s");
    ps_html_section_begin(f, "trace", title);
    if (source) ps_html_note(f, "From %s.", source);
    if (doc) ps_sheet_page_html(f, doc);
    else ps_html_note(f, "The result sheet could not be computed from this trace.");
    ps_report_trace_pictures(f, t);
    ps_html_section_end(f);
    json_decref(doc);
    json_decref(meta);
}

int ps_report_nothing_html(FILE *f, const json_t *doc, const char *dir, const char *source)
{
    (void)f;
    (void)doc;
    (void)dir;
    (void)source;
    return 0;
}

void ps_report_generic_html(FILE *f, const json_t *doc, const char *source)
{
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    char title[256];
    snprintf(title, sizeof title, "%s document", kind ? kind : "Unknown");
    ps_html_section_begin(f, kind ? kind : "document", title);
    if (source) ps_html_note(f, "From %s. parscope has no picture for this kind of document; its top-level figures "
                                "follow.", source);
    ps_html_kv_begin(f);
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)doc, k, v)
    {
        if (json_is_string(v)) ps_html_kv(f, k, "%s", json_string_value(v));
        else if (json_is_integer(v)) ps_html_kv(f, k, "%lld", (long long)json_integer_value(v));
        else if (json_is_real(v)) ps_html_kv(f, k, "%.6g", json_real_value(v));
        else if (json_is_boolean(v)) ps_html_kv(f, k, "%s", json_is_true(v) ? "true" : "false");
        else if (json_is_array(v)) ps_html_kv(f, k, "[%zu entries]", json_array_size(v));
        else if (json_is_object(v)) ps_html_kv(f, k, "{%zu keys}", json_object_size(v));
    }
    ps_html_kv_end(f);
    ps_html_section_end(f);
}
