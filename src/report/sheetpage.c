/* sheetpage.c - the standard result sheets as HTML (see sheetpage.h). */
#include "report/sheetpage.h"

#include <math.h>
#include <string.h>

#include "report/html.h"
#include "trace/describe.h"
#include "trace/json.h"
#include "util/util.h"

/* A JSON number at a dotted path ("sheet.send_time.avg"), or NAN: the objects
 * on the way walked here, the number itself read as everywhere else. */
static double num(const json_t *o, const char *path)
{
    char key[64];
    const char *dot;
    while ((dot = strchr(path, '.'))) {
        size_t n = (size_t)(dot - path);
        if (n >= sizeof key) return NAN;
        memcpy(key, path, n);
        key[n] = 0;
        o = json_object_get(o, key);
        path = dot + 1;
    }
    return ps_json_num(o, path);
}

/* A call time of the sheet ("send_time", "avg"), NAN where no call was made:
 * older results wrote zeros there, which read as measured. */
static double call_time(const json_t *sheet, const char *stat, const char *field)
{
    char path[64];
    snprintf(path, sizeof path, "%s.count", stat);
    if (num(sheet, path) == 0) return NAN;
    snprintf(path, sizeof path, "%s.%s", stat, field);
    return num(sheet, path);
}

static const char *str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static void kv_time(FILE *f, const char *key, double s)
{
    char b[32];
    if (isnan(s)) {
        ps_html_kv(f, key, "-");
        return;
    }
    ps_html_fmt_time(b, sizeof b, s);
    ps_html_kv(f, key, "%s", b);
}

static void kv_us(FILE *f, const char *key, double s)
{
    if (isnan(s)) ps_html_kv(f, key, "-");
    else ps_html_kv(f, key, "%.2f", s * 1e6);
}

static void kv_pct(FILE *f, const char *key, double v)
{
    if (isnan(v)) ps_html_kv(f, key, "-");
    else ps_html_kv(f, key, "%.2f %%", v);
}

static void kv_count(FILE *f, const char *key, double v)
{
    if (isnan(v)) ps_html_kv(f, key, "-");
    else ps_html_kv(f, key, "%.0f", v);
}

static void kv_param(FILE *f, const char *key, double v)
{
    if (isnan(v) || v < 0) ps_html_kv(f, key, "-");
    else ps_html_kv(f, key, "%.0f", v);
}

/* One machine meta value, whatever its JSON type. */
static void kv_meta(FILE *f, const char *key, const json_t *v)
{
    char b[64];
    if (json_is_string(v)) {
        if (*json_string_value(v)) ps_html_kv(f, key, "%s", json_string_value(v));
    }
    else if (json_is_integer(v) && strstr(key, "bytes")) {
        ps_fmt_bytes(b, sizeof b, (double)json_integer_value(v));
        ps_html_kv(f, key, "%s", b);
    } else if (json_is_integer(v)) ps_html_kv(f, key, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v)) ps_html_kv(f, key, "%g", json_real_value(v));
    else if (json_is_boolean(v)) ps_html_kv(f, key, "%s", json_is_true(v) ? "yes" : "no");
    else if (json_is_object(v)) {
        /* e.g. caches {L1d: bytes, ...}: one line */
        char line[512] = "";
        size_t n = 0;
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            char val[64];
            if (json_is_integer(x)) ps_fmt_bytes(val, sizeof val, (double)json_integer_value(x));
            else if (json_is_string(x)) snprintf(val, sizeof val, "%s", json_string_value(x));
            else if (json_is_number(x)) snprintf(val, sizeof val, "%g", json_number_value(x));
            else continue;
            int w = snprintf(line + n, sizeof line - n, "%s%s %s", n ? ", " : "", k, val);
            if (w < 0 || (size_t)w >= sizeof line - n) break;
            n += (size_t)w;
        }
        ps_html_kv(f, key, "%s", n ? line : "-");
    }
}

/* The hardware (a run) or the machine model (a prediction), all it is known by. */
static void hardware_table(FILE *f, const char *anchor, const json_t *hardware, const json_t *machine,
                           const json_t *params, int predicted)
{
    fprintf(f, "<table class=\"kv\" id=\"%s\" data-part=\"hardware\">\n", anchor);
    /* the seed's hardware lines: nodes, network; then everything known */
    ps_hw_text hw;
    double nranks = num(params, "ranks");
    ps_hardware_text(hardware, isnan(nranks) ? 0 : (int)nranks, &hw);
    if (json_is_object(hardware)) {
        if (!predicted) ps_html_kv(f, "Hosts", "%s", hw.machine);
        ps_html_kv(f, "Nodes", "%s", hw.nodes);
        ps_html_kv(f, "Network", "%s", hw.network);
        const char *basis = json_string_value(json_object_get(json_object_get(hardware, "interconnect"), "basis"));
        if (basis) ps_html_kv(f, "Network: how it is known", "%s", basis);
        if (!predicted) ps_html_kv(f, "Processor", "%s", hw.cpu);
    } else {
        ps_html_kv(f, "Network", "-");
    }
    if (json_is_object(machine) && json_object_size(machine)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)machine, k, v) kv_meta(f, k, v);
    } else {
        ps_html_kv(f, "Machine", "-");
    }
    ps_html_kv_end(f);
}

void ps_sheet_page_html(FILE *f, const json_t *doc)
{
    const json_t *params = json_object_get(doc, "params");
    const json_t *sheet = json_object_get(doc, "sheet");
    const json_t *time = json_object_get(doc, "time");
    const json_t *machine = json_object_get(doc, "machine");
    const json_t *ranks = json_object_get(doc, "ranks");
    const char *kind = str(doc, "kind");
    int predicted = kind && !strcmp(kind, "predict");

    const json_t *hardware = json_object_get(doc, "hardware");
    const json_t *structure = json_object_get(doc, "structure");
    char line[4096];

    fputs("<div class=\"sheets\">\n<div class=\"sheet\">\n", f);
    ps_html_heading(f, "Evaluated problem");
    fputs("<table class=\"kv\" data-part=\"problem\">\n", f);
    /* the seed's headline, "Fingerprint(1,500,1000)" */
    const char *problem = str(doc, "problem");
    if (!problem) {
        ps_problem_text(str(doc, "workload"), structure, line, sizeof line);
        problem = line;
    }
    ps_html_kv(f, "Problem", "%s", problem);
    ps_html_kv(f, "Workload", "%s", str(doc, "workload") ? str(doc, "workload") : "-");
    ps_html_kv(f, "Kind", "%s", predicted ? "prediction (simulated)" : kind ? kind : "-");
    kv_param(f, "No. nodes", num(params, "ranks"));
    const char *grid = str(params, "grid");
    if (grid) {
        int per_rank = json_is_true(json_object_get(params, "grid_per_rank"));
        double sz = num(params, "size");
        if (isfinite(sz)) ps_html_kv(f, "Problem size", "%.0f cells per rank%s", sz, per_rank ? "" : " on average");
        else kv_param(f, "Problem size", sz);
        if (per_rank) ps_html_kv(f, "Grid", "%s per rank (weak scaling)", grid);
        else ps_html_kv(f, "Grid", "%s in all, split by rows over the ranks", grid);
    } else {
        kv_param(f, "Problem size", num(params, "size"));
    }
    kv_param(f, "Iterations", num(params, "iterations"));
    ps_structure_text(structure, line, sizeof line);
    ps_html_kv(f, "Structure (each construct's calls)", "%s", line);
    ps_html_kv_end(f);

    ps_html_heading(f, predicted ? "Machine model" : "Hardware");
    /* each table once: a sheet on the same hardware (or model) as an earlier one on the page refers to it */
    json_t *keyj = json_pack("{s:b, s:O?, s:O?}", "predicted", predicted, "hardware", hardware, "machine", machine);
    json_t *mcopy = json_object_get(keyj, "machine");
    if (json_is_object(mcopy)) {
        mcopy = json_deep_copy(mcopy);
        /* when it ran is the run's, not the machine's; hwloc's memory figure moves by a few per cent
         * from run to run on one machine */
        json_object_del(mcopy, "date");
        json_object_del(mcopy, "memory_bytes");
        json_object_set_new(keyj, "machine", mcopy);
    }
    char *key = keyj ? json_dumps(keyj, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(keyj);
    char anchor[64];
    ps_html_new_id(anchor, sizeof anchor, predicted ? "model-table" : "hardware-table");
    const char *where = NULL;
    const char *first = key ? ps_html_once(key, anchor, ps_html_current_section(), &where) : NULL;
    free(key);
    if (first) {
        fputs("<table class=\"kv\" data-part=\"hardware-ref\">\n<tr><th>", f);
        fputs(predicted ? "Machine model" : "Hardware", f);
        fputs("</th><td>the same as in <a href=\"#", f);
        ps_html_escape(f, first);
        fputs("\">", f);
        ps_html_escape(f, where && *where ? where : "the first sheet");
        fputs("</a></td></tr>\n", f);
        const char *date = str(machine, "date");
        if (date) ps_html_kv(f, "date", "%s", date);
        ps_html_kv_end(f);
    } else {
        hardware_table(f, anchor, hardware, machine, params, predicted);
    }

    ps_html_heading(f, "Main results");
    fputs("<table class=\"kv\" data-part=\"results\">\n", f);
    double used = num(time, "min");
    const char *which = str(time, "used");
    if (which && !strcmp(which, "median")) used = num(time, "median");
    if (isnan(used)) used = num(sheet, "time");
    kv_time(f, "Execution time", used);
    double trials = num(time, "trials");
    /* a prediction is one simulation: no trials to tell of */
    if (!isnan(trials) && !predicted) {
        char a[32], b[32], c[32];
        ps_html_fmt_time(a, sizeof a, num(time, "min"));
        ps_html_fmt_time(b, sizeof b, num(time, "median"));
        ps_html_fmt_time(c, sizeof c, num(time, "max"));
        if (isnan(num(time, "min"))) ps_html_kv(f, "Trials", "%.0f, none successful", trials);
        else ps_html_kv(f, "Trials (min / median / max)", "%.0f (%s / %s / %s), %s used", trials, a, b, c,
                        which ? which : "min");
    }
    kv_pct(f, "Percent processors busy", num(sheet, "busy_pct"));
    kv_pct(f, "Percent processors overhead", num(sheet, "overhead_pct"));
    kv_pct(f, "Percent processors idle", num(sheet, "idle_pct"));
    kv_us(f, "Avg time send (\xc2\xb5s)", call_time(sheet, "send_time", "avg"));
    kv_us(f, "Avg time receive (\xc2\xb5s)", call_time(sheet, "recv_time", "avg"));
    ps_html_kv_end(f);

    ps_html_heading(f, "Per-processor summary");
    if (json_is_array(ranks) && json_array_size(ranks)) {
        fputs("<table data-part=\"ranks\">\n<tr><th>node</th><th>busy</th><th>overhead</th><th>idle</th><th>sent</th>"
              "<th>received</th><th>bytes sent</th><th>bytes received</th><th>queue max</th><th>queue avg</th></tr>\n",
              f);
        size_t i;
        json_t *r;
        json_array_foreach((json_t *)ranks, i, r)
        {
            double b = num(r, "busy"), o = num(r, "overhead"), id = num(r, "idle"), lane = b + o + id;
            ps_html_row_begin(f);
            ps_html_cell_fig(f, "%.0f", num(r, "rank"));
            if (lane > 0) {
                ps_html_cell(f, 1, "%.2f %%", 100 * b / lane);
                ps_html_cell(f, 1, "%.2f %%", 100 * o / lane);
                ps_html_cell(f, 1, "%.2f %%", 100 * id / lane);
            } else {
                for (int k = 0; k < 3; k++) ps_html_cell(f, 1, "-");
            }
            ps_html_cell_fig(f, "%.0f", num(r, "messages_sent"));
            ps_html_cell_fig(f, "%.0f", num(r, "messages_received"));
            ps_html_cell_fig(f, "%.0f", num(r, "bytes_sent"));
            ps_html_cell_fig(f, "%.0f", num(r, "bytes_received"));
            double qm = num(r, "max_queue"), qa = num(r, "avg_queue");
            if (isnan(qm) || isnan(qa) || !json_is_object(json_object_get(sheet, "queue"))) {
                /* documents before schema 1 counted something else under max_queue */
                ps_html_cell(f, 1, "-");
                ps_html_cell(f, 1, "-");
            } else {
                ps_html_cell(f, 1, "%.0f", qm);
                ps_html_cell(f, 1, "%.2f", qa);
            }
            ps_html_row_end(f);
        }
        ps_html_table_end(f);
    } else {
        ps_html_note(f, "No per-processor figures in this document.");
    }
    fputs("</div>\n<div class=\"sheet\">\n", f);

    ps_html_heading(f, "Statistics");
    fputs("<table class=\"kv\" data-part=\"statistics\">\n", f);
    kv_count(f, "Messages sent", num(sheet, "messages_sent"));
    kv_count(f, "Messages received", num(sheet, "messages_received"));
    kv_count(f, "Bytes sent", num(sheet, "bytes_sent"));
    kv_count(f, "Bytes received", num(sheet, "bytes_received"));
    kv_us(f, "Send time avg (\xc2\xb5s)", call_time(sheet, "send_time", "avg"));
    kv_us(f, "Send time min (\xc2\xb5s)", call_time(sheet, "send_time", "min"));
    kv_us(f, "Send time max (\xc2\xb5s)", call_time(sheet, "send_time", "max"));
    kv_us(f, "Receive time avg (\xc2\xb5s)", call_time(sheet, "recv_time", "avg"));
    kv_us(f, "Receive time min (\xc2\xb5s)", call_time(sheet, "recv_time", "min"));
    kv_us(f, "Receive time max (\xc2\xb5s)", call_time(sheet, "recv_time", "max"));
    /* ParaGraph's message queue: messages sent to a node and not yet received by it */
    double qmax = num(sheet, "queue.max"), qavg = num(sheet, "queue.avg");
    if (!isnan(qmax) && !isnan(qavg))
        ps_html_kv(f, "Message queue length, max / average (messages sent to a node, not yet received)",
                   "%.0f / %.2f", qmax, qavg);
    else ps_html_kv(f, "Message queue length", "-");
    double rt = num(sheet, "runtime_messages.sent");
    if (!isnan(rt))
        ps_html_kv(f, "Runtime messages (not counted above)", "%.0f: the barrier's binary tree in the machine model "
                   "(a measured run's MPI_Barrier sends its own, unseen)", rt);
    kv_count(f, "Unmatched messages", num(sheet, "unmatched_messages"));
    kv_count(f, "Events lost to full trace buffers", num(sheet, "events_dropped"));
    ps_html_kv_end(f);
    double dropped = num(sheet, "events_dropped");
    if (!isnan(dropped) && dropped > 0)
        ps_html_note(f, "Some events were lost to full trace buffers: the figures above undercount. "
                        "Raise TRACE_BUF.");
    fputs("</div>\n</div>\n", f);
}
