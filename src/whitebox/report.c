/*
 * report.c - the white-box breakdown for people: text for the terminal and
 * an HTML <section> for 'parscope report' (stacked bars per rank and
 * overall, the spreads, sections, the simple-model comparison).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "report/html.h"
#include "report/noise.h"
#include "report/svg.h"
#include "trace/json.h"
#include "util/util.h"
#include "whitebox/whitebox.h"

static const char *const part_key[3] = {"communication", "data_movement", "computation"};
static const char *const part_label[3] = {"communication", "data movement", "computation"};
static const char *const part_color[3] = {PS_COLOR_MESSAGE, PS_COLOR_OVERHEAD, PS_COLOR_BUSY};

static const char *jstr(const json_t *o, const char *key)
{
    json_t *v = o ? json_object_get(o, key) : NULL;
    return v && json_is_string(v) ? json_string_value(v) : "";
}

static int html_units; /* the page's spelling (µs) while drawing the HTML fragment */

/* "1.23 ms", "-0.12 ms", "-" for NAN. */
static const char *tm(char *buf, size_t len, double s)
{
    if (!isfinite(s)) {
        snprintf(buf, len, "-");
        return buf;
    }
    if (s < 0) {
        buf[0] = '-';
        (html_units ? ps_html_fmt_time : ps_fmt_time)(buf + 1, len - 1, -s);
    } else {
        (html_units ? ps_html_fmt_time : ps_fmt_time)(buf, len, s);
    }
    return buf;
}

/* One number by fmt, or "-" when it is not finite: an output never shows
 * "nan" (a ratio of a negative or missing part, say). */
static const char *fx(char *buf, size_t len, const char *fmt, double v)
{
    if (isfinite(v)) snprintf(buf, len, fmt, v);
    else snprintf(buf, len, "-");
    return buf;
}

/* An integer count, or "-" when it was not measured. */
static const char *cnt(char *buf, size_t len, const json_t *o, const char *key)
{
    double v = ps_json_num(o, key);
    if (isfinite(v)) snprintf(buf, len, "%.0f", v);
    else snprintf(buf, len, "-");
    return buf;
}

static const char *const var_key[PS_WB_NVARIANTS] = {"comm", "data", "full", "sections"};

static int is_whitebox(const json_t *doc)
{
    return doc && json_is_object(doc) && !strcmp(jstr(doc, "kind"), "whitebox") &&
           json_is_object(json_object_get(doc, "parts"));
}

/* The trials that ran: "5 trials per variant, interleaved and rotated", or
 * after an interruption "INTERRUPTED after 3 of 50 rounds: 3 comm, 3 data,
 * 2 full trials ran (of 50 asked), interleaved and rotated".  Every figure
 * is computed from the trials that ran. */
static void trials_text(const json_t *doc, char *buf, size_t len)
{
    const json_t *params = json_object_get(doc, "params"), *by = json_object_get(params, "trials_by_variant");
    double done = ps_json_num(params, "trials"), planned = ps_json_num(params, "trials_planned");
    int interrupted = json_is_true(json_object_get(doc, "interrupted"));
    int uneven = 0;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)by, key, v) uneven |= json_integer_value(v) != (json_int_t)done;
    if (!interrupted && !uneven && !(planned > done)) {
        snprintf(buf, len, "%lld trials per variant, interleaved and rotated", (long long)done);
        return;
    }
    size_t o = 0;
    if (interrupted)
        o += (size_t)snprintf(buf + o, len - o, "INTERRUPTED after %lld of %lld rounds: ", (long long)done,
                              (long long)planned);
    if (uneven) {
        int first = 1;
        json_object_foreach((json_t *)by, key, v) {
            if (o >= len) break;
            o += (size_t)snprintf(buf + o, len - o, "%s%lld %s", first ? "" : ", ", (long long)json_integer_value(v), key);
            first = 0;
        }
        if (o < len) o += (size_t)snprintf(buf + o, len - o, " trials ran");
    } else if (o < len) {
        o += (size_t)snprintf(buf + o, len - o, "%lld trials per variant ran", (long long)done);
    }
    if (o < len) snprintf(buf + o, len - o, " (of %lld asked), interleaved and rotated", (long long)planned);
}

/* ---- text -------------------------------------------------------------------- */

void ps_whitebox_print(const json_t *doc, FILE *f)
{
    if (!is_whitebox(doc)) return;
    char a[32], b[32], c[32], e[32];
    const json_t *params = json_object_get(doc, "params");
    char trials[400];
    trials_text(doc, trials, sizeof trials);
    fprintf(f, "White-box breakdown of %s: %lld ranks, size %lld, %lld iterations; %s\n\n", jstr(doc, "workload"),
            (long long)ps_json_num(params, "ranks"), (long long)ps_json_num(params, "size"),
            (long long)ps_json_num(params, "iterations"), trials);
    char line[600];
    ps_noise_line(json_object_get(doc, "noise"), line, sizeof line);
    fprintf(f, "  %s\n", line);
    if (json_is_true(json_object_get(doc, "oversubscribed")))
        fprintf(f, "  WARNING: %d ranks share %d cores: the times include time-slicing, and the per-rank parts show "
                   "when the scheduler ran each rank\n",
                (int)ps_json_num(json_object_get(doc, "placement"), "ranks_per_node"),
                (int)ps_json_num(json_object_get(doc, "placement"), "cores"));
    fputc('\n', f);
    fprintf(f, "  %-10s %-62s %11s %11s %11s\n", "kernel", "", "median", "min", "max");
    const json_t *vars = json_object_get(doc, "variants");
    const char *vn[PS_WB_NVARIANTS] = {"comm", "data", "full", "sections"};
    for (int v = 0; v < PS_WB_NVARIANTS; v++) {
        const json_t *x = json_object_get(vars, vn[v]);
        if (!x) continue;
        const json_t *t = json_object_get(x, "time");
        fprintf(f, "  %-10s %-62s %11s %11s %11s\n", vn[v], jstr(x, "kernel"), tm(a, 32, ps_json_num(t, "median")),
                tm(b, 32, ps_json_num(t, "min")), tm(c, 32, ps_json_num(t, "max")));
    }
    const json_t *parts = json_object_get(doc, "parts");
    fprintf(f, "\n  %-15s %-24s %11s %8s %11s   %s\n", "part", "", "time", "share", "best-of-K",
            "spread over trial pairs (min .. max)");
    for (int p = 0; p < 3; p++) {
        const json_t *o = json_object_get(parts, part_key[p]);
        char sh[32];
        fprintf(f, "  %-15s %-24s %11s %8s %11s   %s .. %s (%lld %s)\n", part_label[p], jstr(o, "formula"),
                tm(a, 32, ps_json_num(o, "value")), fx(sh, 32, "%.1f%%", ps_json_num(o, "share_pct")), tm(e, 32, ps_json_num(o, "best")),
                tm(b, 32, ps_json_num(o, "min")), tm(c, 32, ps_json_num(o, "max")), (long long)ps_json_num(o, "pairs"),
                p == 0 ? "trials" : "pairs");
        if (json_is_true(json_object_get(o, "negative"))) fprintf(f, "  %17s%s\n", "", jstr(o, "note"));
    }
    fprintf(f, "\n  %s\n", jstr(json_object_get(doc, "ordered"), "note"));
    const json_t *prof = json_object_get(doc, "profile");
    fprintf(f, "  Profile: communication %s %%, data movement %s %%, computation %s %%; "
               "(communication + data movement) / computation = %s\n",
            fx(a, 32, "%.1f", ps_json_num(prof, "communication_pct")), fx(b, 32, "%.1f", ps_json_num(prof, "data_movement_pct")),
            fx(c, 32, "%.1f", ps_json_num(prof, "computation_pct")),
            fx(e, 32, "%.3g", ps_json_num(prof, "communication_over_computation")));
    const json_t *msg = json_object_get(doc, "messages");
    if (msg && !json_is_true(json_object_get(msg, "same"))) fprintf(f, "  Warning: %s\n", jstr(msg, "note"));

    fprintf(f, "\n  %4s %14s %14s %14s %14s %12s %12s\n", "rank", "communication", "data movement", "computation",
            "instr. compute", "messages", "bytes");
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "ranks"), i, r) {
        fprintf(f, "  %4lld %14s %14s %14s %14s %12lld %12lld\n", (long long)ps_json_num(r, "rank"),
                tm(a, 32, ps_json_num(json_object_get(r, "communication"), "value")),
                tm(b, 32, ps_json_num(json_object_get(r, "data_movement"), "value")),
                tm(c, 32, ps_json_num(json_object_get(r, "computation"), "value")),
                tm(e, 32, ps_json_num(r, "instrumented_compute_s")), (long long)ps_json_num(r, "messages_sent"),
                (long long)ps_json_num(r, "bytes_sent"));
    }
    const json_t *lb = json_object_get(doc, "load_balance");
    fprintf(f, "  Load balance: computation max/mean %s by subtraction, %s instrumented (most loaded rank %s, "
               "imbalance %s %%)\n",
            fx(a, 32, "%.3f", ps_json_num(lb, "computation_max_over_mean")),
            fx(b, 32, "%.3f", ps_json_num(lb, "instrumented_compute_max_over_mean")),
            fx(c, 32, "%.0f", ps_json_num(lb, "most_loaded_rank")), fx(e, 32, "%.1f", ps_json_num(lb, "imbalance_pct")));

    const json_t *mem = json_object_get(doc, "memory");
    if (json_is_object(mem)) {
        double fc = ps_json_num(mem, "fault_cost_s");
        fprintf(f, "\n  Memory over the timed interval (the largest rank, median over the trials); a page fault costs "
                   "%s here (%s)\n",
                tm(a, 32, fc), isfinite(fc) ? "measured" : "not measured");
        fprintf(f, "  %-10s %14s %14s %14s\n", "kernel", "minor faults", "major faults", "cache misses");
        const json_t *mv = json_object_get(mem, "variants");
        for (int v = 0; v < PS_WB_NVARIANTS; v++) {
            const json_t *x = json_object_get(mv, var_key[v]);
            if (!x) continue;
            fprintf(f, "  %-10s %14s %14s %14s\n", var_key[v], cnt(a, 32, x, "minor_faults"),
                    cnt(b, 32, x, "major_faults"), cnt(c, 32, x, "cache_misses"));
        }
        if (!json_is_true(json_object_get(mem, "cache_misses_counted")))
            fprintf(f, "  (cache misses are not counted here: perf_event_open is not allowed or has no hardware counters)\n");
        const json_t *mp = json_object_get(mem, "parts");
        for (int p = 0; p < 3; p++) {
            const json_t *o = json_object_get(mp, part_key[p]);
            if (json_is_true(json_object_get(o, "flagged")))
                fprintf(f, "  Flagged, %s: %s\n", part_label[p], jstr(o, "note"));
        }
    }
    const json_t *setup = json_object_get(doc, "setup");
    if (json_is_true(json_object_get(setup, "inside"))) fprintf(f, "  Set-up: %s\n", jstr(setup, "note"));
    const json_t *sl = json_object_get(json_object_get(doc, "slicer"), "notes");
    if (json_array_size(sl)) {
        fprintf(f, "\n  Generator notes (statements kept in every kernel without certainty):\n");
        json_array_foreach(sl, i, r)
            fprintf(f, "    %s:%lld:%lld: %s\n", jstr(r, "file"), (long long)ps_json_num(r, "line"), (long long)ps_json_num(r, "col"),
                    jstr(r, "message"));
    }

    const json_t *secs = json_object_get(doc, "sections");
    if (json_is_array(secs)) {
        if (!json_array_size(secs))
            fprintf(f, "\n  Sections: the program has no \\SECTION (or none ran)\n");
        else
            fprintf(f, "\n  %-24s %14s %14s %8s\n", "section", "slowest rank", "mean rank", "of run");
        json_array_foreach(secs, i, r) {
            char pc[32];
            fprintf(f, "  %-24s %14s %14s %8s\n", jstr(r, "name"), tm(a, 32, ps_json_num(r, "max_rank_s")),
                    tm(b, 32, ps_json_num(r, "mean_rank_s")), fx(pc, 32, "%.1f%%", ps_json_num(r, "pct_of_run")));
        }
    }

    const json_t *mod = json_object_get(doc, "model");
    fprintf(f, "\n  Simple model (messages x latency + bytes / bandwidth):\n");
    if (!json_is_true(json_object_get(mod, "available"))) {
        fprintf(f, "    %s\n", jstr(mod, "note"));
    } else {
        fprintf(f, "    machine %s: latency %s, bandwidth %s MB/s (%s)\n", jstr(mod, "machine"),
                tm(a, 32, ps_json_num(mod, "latency_s")), fx(b, 32, "%.4g", ps_json_num(mod, "bandwidth_Bps") / 1e6),
                jstr(mod, "parameters"));
        fprintf(f, "    predicted %s (ping-pong table: %s), measured %s: measured / predicted = %s\n",
                tm(a, 32, ps_json_num(mod, "predicted_s")), tm(b, 32, ps_json_num(mod, "predicted_table_s")),
                tm(c, 32, ps_json_num(mod, "measured_s")), fx(e, 32, "%.3g", ps_json_num(mod, "measured_over_predicted")));
        fprintf(f, "    %s\n", jstr(mod, "note"));
    }
    const json_t *concl = json_object_get(doc, "conclusions");
    if (json_array_size(concl)) {
        fprintf(f, "\n  Conclusions (a finding only where the effect exceeds the noise of these trials):\n");
        ps_findings_print(concl, f);
    }
    const json_t *fails = json_object_get(doc, "failures");
    if (json_array_size(fails)) {
        fprintf(f, "\n  Failed trials:\n");
        json_array_foreach(fails, i, r)
            fprintf(f, "    %s, round %lld: %s\n", jstr(r, "variant"), (long long)ps_json_num(r, "round"), jstr(r, "message"));
    }
}

/* ---- HTML ---------------------------------------------------------------------- */

/* One stacked bar: the parts left to right; a negative part takes no width
 * and is marked with a red tick, a tooltip and whether it is within the
 * noise (full: the median T(full), as for the conclusions). */
static void bar(FILE *f, double x0, double y, double h, double scale, double full, const char *label,
                const json_t *row[3])
{
    double x = x0;
    ps_svg_text(f, x0 - 8, y + h * 0.68, "end", 12, "#222", 0, "%s", label);
    for (int p = 0; p < 3; p++) {
        double v = ps_json_num(row[p], "value");
        char a[32], b[32], c[32];
        char tip[200];
        snprintf(tip, sizeof tip, "%s: %s (spread %s .. %s)", part_label[p], tm(a, 32, v),
                 tm(b, 32, ps_json_num(row[p], "min")), tm(c, 32, ps_json_num(row[p], "max")));
        if (!isfinite(v)) continue;
        if (v > 0) {
            ps_svg_rect(f, x, y, v * scale, h, part_color[p], tip);
            x += v * scale;
        } else {
            ps_svg_line(f, x, y - 3, x, y + h + 3, PS_COLOR_IDLE, 2, NULL);
            int beyond = ps_wb_part_noise_of(row[p], full).verdict == PS_WB_BELOW_NOISE;
            ps_svg_text(f, x + 3, y - 4, "start", 10, PS_COLOR_IDLE, 0, "%s < 0 (%s)", part_label[p],
                        beyond ? "out of order" : "noise");
        }
    }
}

static void svg_bars(FILE *f, const json_t *doc)
{
    const json_t *ranks = json_object_get(doc, "ranks");
    const json_t *parts = json_object_get(doc, "parts");
    int n = (int)json_array_size(ranks);
    double maxsum = 0;
    for (int i = -1; i < n; i++) {
        const json_t *src = i < 0 ? parts : json_array_get(ranks, (size_t)i);
        double sum = 0;
        for (int p = 0; p < 3; p++) {
            double v = ps_json_num(json_object_get(src, part_key[p]), "value");
            if (isfinite(v) && v > 0) sum += v;
        }
        if (sum > maxsum) maxsum = sum;
    }
    const double left = 90, right = 30, width = 640, rowh = 22, gap = 10, top = 34;
    double h = top + (n + 1) * (rowh + gap) + 40;
    ps_svg_begin(f, left + width + right, h, "white-box breakdown: stacked bars per rank and overall");
    const char *names[3] = {part_label[0], part_label[1], part_label[2]};
    ps_svg_legend(f, left, 8, 3, part_color, names);
    double unit;
    const char *uname;
    ps_svg_time_unit(maxsum > 0 ? maxsum : 1, &unit, &uname);
    double scale = maxsum > 0 ? width / maxsum : 0;
    double full = ps_json_num(json_object_get(doc, "time"), "median");
    double y = top;
    for (int i = -1; i < n; i++) {
        const json_t *src = i < 0 ? parts : json_array_get(ranks, (size_t)i);
        const json_t *row[3];
        for (int p = 0; p < 3; p++) row[p] = json_object_get(src, part_key[p]);
        char label[32];
        if (i < 0) snprintf(label, sizeof label, "overall");
        else snprintf(label, sizeof label, "rank %lld", (long long)ps_json_num(src, "rank"));
        bar(f, left, y, rowh, scale, full, label, row);
        y += rowh + gap;
    }
    /* time axis */
    double ticks[16];
    int nt = ps_svg_ticks(0, maxsum > 0 ? maxsum / unit : 1, 6, ticks, 16);
    ps_svg_line(f, left, y, left + width, y, "#444", 1, NULL);
    for (int t = 0; t < nt; t++) {
        double x = left + ticks[t] * unit * scale;
        char lab[32];
        ps_svg_fmt_tick(lab, sizeof lab, ticks[t], nt > 1 ? ticks[1] - ticks[0] : 1);
        ps_svg_line(f, x, y, x, y + 4, "#444", 1, NULL);
        ps_svg_text(f, x, y + 16, "middle", 11, "#222", 0, "%s", lab);
    }
    ps_svg_text(f, left + width, y + 32, "end", 11, "#222", 0, "time (%s)", uname);
    ps_svg_end(f);
}

/* Table cells: a time ("-" when unknown), a count. */
static void time_cell(FILE *f, double s)
{
    char b[32];
    ps_html_cell(f, 1, "%s", tm(b, sizeof b, s));
}

static void count_cell(FILE *f, double v)
{
    ps_html_cell(f, 1, "%lld", (long long)v);
}

static int report_html(FILE *f, const json_t *doc, const char *dir, const char *source)
{
    (void)dir;
    (void)source;
    if (!is_whitebox(doc)) return -1;
    char a[32], b[32], c[32], d[32], e[32];
    const json_t *params = json_object_get(doc, "params");
    char title[320];
    snprintf(title, sizeof title, "White-box breakdown: %s on %lld ranks", jstr(doc, "workload"),
             (long long)ps_json_num(params, "ranks"));
    ps_html_section_begin(f, "whitebox", title);
    ps_noise_html(f, json_object_get(doc, "noise"));
    if (json_is_true(json_object_get(doc, "oversubscribed")))
        ps_html_note(f, "Oversubscribed: %d ranks share %d cores; the times include time-slicing and the per-rank "
                        "parts show when the scheduler ran each rank.",
                     (int)ps_json_num(json_object_get(doc, "placement"), "ranks_per_node"),
                     (int)ps_json_num(json_object_get(doc, "placement"), "cores"));
    {
        size_t ci;
        json_t *c;
        json_array_foreach(json_object_get(doc, "conclusions"), ci, c)
            ps_html_note(f, "[%s] %s", jstr(c, "verdict"), jstr(c, "text"));
    }
    ps_html_kv_begin(f);
    ps_html_kv(f, "workload", "%s", jstr(doc, "workload"));
    ps_html_kv(f, "ranks / size / iterations", "%lld / %lld / %lld", (long long)ps_json_num(params, "ranks"),
               (long long)ps_json_num(params, "size"), (long long)ps_json_num(params, "iterations"));
    char trials[400];
    trials_text(doc, trials, sizeof trials);
    if (strncmp(trials, "INTERRUPTED", 11) && !strstr(trials, "asked"))
        ps_html_kv(f, "trials per variant", "%lld (interleaved, the order rotated each round)",
                   (long long)ps_json_num(params, "trials"));
    else
        ps_html_kv(f, "trials", "%s (the order rotated each round)", trials);
    const json_t *prof = json_object_get(doc, "profile");
    ps_html_kv(f, "profile", "communication %s %%, data movement %s %%, computation %s %%",
               fx(a, 32, "%.1f", ps_json_num(prof, "communication_pct")), fx(b, 32, "%.1f", ps_json_num(prof, "data_movement_pct")),
               fx(c, 32, "%.1f", ps_json_num(prof, "computation_pct")));
    ps_html_kv(f, "(communication + data movement) / computation", "%s",
               fx(a, 32, "%.3g", ps_json_num(prof, "communication_over_computation")));
    ps_html_kv(f, "order of the kernels", "%s", jstr(json_object_get(doc, "ordered"), "note"));
    const json_t *lb = json_object_get(doc, "load_balance");
    ps_html_kv(f, "load balance (computation max / mean)", "%s by subtraction, %s instrumented",
               fx(a, 32, "%.3f", ps_json_num(lb, "computation_max_over_mean")),
               fx(b, 32, "%.3f", ps_json_num(lb, "instrumented_compute_max_over_mean")));
    const json_t *msg = json_object_get(doc, "messages");
    if (msg) ps_html_kv(f, "messages in the kernels", "%s", jstr(msg, "note"));
    ps_html_kv_end(f);
    ps_html_note(f, "%s", jstr(doc, "method"));

    svg_bars(f, doc);

    ps_html_heading(f, "The three parts");
    const json_t *parts = json_object_get(doc, "parts");
    ps_html_table_begin(f, 10, "part", "formula", "time (medians)", "share", "best-of-K", "min", "q1", "q3", "max",
                        "note");
    for (int p = 0; p < 3; p++) {
        const json_t *o = json_object_get(parts, part_key[p]);
        ps_html_row_begin(f);
        ps_html_cell(f, 0, "%s", part_label[p]);
        ps_html_cell(f, 0, "%s", jstr(o, "formula"));
        ps_html_cell(f, 1, "%s", tm(a, 32, ps_json_num(o, "value")));
        ps_html_cell(f, 1, "%s", fx(e, 32, "%.1f %%", ps_json_num(o, "share_pct")));
        ps_html_cell(f, 1, "%s", tm(b, 32, ps_json_num(o, "best")));
        ps_html_cell(f, 1, "%s", tm(b, 32, ps_json_num(o, "min")));
        ps_html_cell(f, 1, "%s", tm(c, 32, ps_json_num(o, "q1")));
        ps_html_cell(f, 1, "%s", tm(d, 32, ps_json_num(o, "q3")));
        ps_html_cell(f, 1, "%s", tm(e, 32, ps_json_num(o, "max")));
        ps_html_cell(f, 0, "%s", jstr(o, "note"));
        ps_html_row_end(f);
    }
    ps_html_table_end(f);

    ps_html_heading(f, "Trials, in the order they ran");
    size_t i;
    json_t *r;
    const json_t *vars = json_object_get(doc, "variants");
    int has_sec = json_object_get(vars, "sections") != NULL;
    ps_html_table_begin(f, has_sec ? 6 : 5, "round", "order", "T(comm)", "T(comm+data)", "T(full)", "T(sections)");
    json_array_foreach(json_object_get(doc, "rounds"), i, r) {
        char order[64] = "";
        size_t j;
        json_t *o;
        json_array_foreach(json_object_get(r, "order"), j, o) {
            size_t n = strlen(order);
            snprintf(order + n, sizeof order - n, "%s%s", j ? ", " : "", json_string_value(o) ? json_string_value(o) : "?");
        }
        ps_html_row_begin(f);
        count_cell(f, ps_json_num(r, "round"));
        ps_html_cell(f, 0, "%s", order);
        time_cell(f, ps_json_num(r, "comm"));
        time_cell(f, ps_json_num(r, "data"));
        time_cell(f, ps_json_num(r, "full"));
        if (has_sec) time_cell(f, ps_json_num(r, "sections"));
        ps_html_row_end(f);
    }
    ps_html_table_end(f);

    ps_html_heading(f, "Per rank (each rank's own timed interval)");
    ps_html_table_begin(f, 8, "rank", "communication", "data movement", "computation", "computation spread",
                        "instrumented compute", "messages sent", "bytes sent");
    json_array_foreach(json_object_get(doc, "ranks"), i, r) {
        const json_t *cp = json_object_get(r, "computation");
        ps_html_row_begin(f);
        count_cell(f, ps_json_num(r, "rank"));
        time_cell(f, ps_json_num(json_object_get(r, "communication"), "value"));
        time_cell(f, ps_json_num(json_object_get(r, "data_movement"), "value"));
        time_cell(f, ps_json_num(cp, "value"));
        char s1[32], s2[32];
        ps_html_cell(f, 1, "%s .. %s", tm(s1, 32, ps_json_num(cp, "min")), tm(s2, 32, ps_json_num(cp, "max")));
        time_cell(f, ps_json_num(r, "instrumented_compute_s"));
        count_cell(f, ps_json_num(r, "messages_sent"));
        count_cell(f, ps_json_num(r, "bytes_sent"));
        ps_html_row_end(f);
    }
    ps_html_table_end(f);

    const json_t *mem = json_object_get(doc, "memory");
    if (json_is_object(mem)) {
        ps_html_heading(f, "Memory system over the timed interval");
        ps_html_kv_begin(f);
        double fc = ps_json_num(mem, "fault_cost_s");
        ps_html_kv(f, "cost of a page fault here", "%s (%s)", tm(a, 32, fc), jstr(mem, "fault_cost_note"));
        ps_html_kv_end(f);
        ps_html_table_begin(f, 4, "kernel", "minor page faults", "major page faults", "cache misses");
        const json_t *mv = json_object_get(mem, "variants");
        for (int v = 0; v < PS_WB_NVARIANTS; v++) {
            const json_t *x = json_object_get(mv, var_key[v]);
            if (!x) continue;
            ps_html_row_begin(f);
            ps_html_cell(f, 0, "%s", var_key[v]);
            ps_html_cell(f, 1, "%s", cnt(a, 32, x, "minor_faults"));
            ps_html_cell(f, 1, "%s", cnt(b, 32, x, "major_faults"));
            ps_html_cell(f, 1, "%s", cnt(c, 32, x, "cache_misses"));
            ps_html_row_end(f);
        }
        ps_html_table_end(f);
        ps_html_table_begin(f, 5, "part", "difference in page faults", "their cost", "share of the part", "note");
        const json_t *mp = json_object_get(mem, "parts");
        for (int p = 0; p < 3; p++) {
            const json_t *o = json_object_get(mp, part_key[p]);
            ps_html_row_begin(f);
            ps_html_cell(f, 0, "%s", part_label[p]);
            ps_html_cell(f, 1, "%s", cnt(a, 32, o, "fault_difference"));
            ps_html_cell(f, 1, "%s", tm(b, 32, ps_json_num(o, "fault_time_s")));
            double sh = ps_json_num(o, "share_of_part_pct");
            if (isfinite(sh)) ps_html_cell(f, 1, "%.1f %%", sh);
            else ps_html_cell(f, 1, "-");
            ps_html_cell(f, 0, "%s", json_is_true(json_object_get(o, "flagged")) ? jstr(o, "note") : "");
            ps_html_row_end(f);
        }
        ps_html_table_end(f);
        ps_html_note(f, "%s", jstr(mem, "note"));
    }
    const json_t *setup = json_object_get(doc, "setup");
    if (json_is_true(json_object_get(setup, "inside"))) ps_html_note(f, "Set-up: %s", jstr(setup, "note"));
    const json_t *sl = json_object_get(json_object_get(doc, "slicer"), "notes");
    if (json_array_size(sl)) {
        ps_html_heading(f, "Generator notes");
        ps_html_table_begin(f, 2, "where", "note");
        json_array_foreach(sl, i, r) {
            ps_html_row_begin(f);
            ps_html_cell(f, 0, "%s:%lld:%lld", jstr(r, "file"), (long long)ps_json_num(r, "line"), (long long)ps_json_num(r, "col"));
            ps_html_cell(f, 0, "%s", jstr(r, "message"));
            ps_html_row_end(f);
        }
        ps_html_table_end(f);
    }

    const json_t *secs = json_object_get(doc, "sections");
    if (json_is_array(secs)) {
        ps_html_heading(f, "Sections (section timing compiled in)");
        if (!json_array_size(secs)) ps_html_note(f, "The program has no \\SECTION, or none ran.");
        else {
            ps_html_table_begin(f, 4, "section", "slowest rank", "mean over ranks", "of the run");
            json_array_foreach(secs, i, r) {
                ps_html_row_begin(f);
                ps_html_cell(f, 0, "%s", jstr(r, "name"));
                ps_html_cell(f, 1, "%s", tm(a, 32, ps_json_num(r, "max_rank_s")));
                ps_html_cell(f, 1, "%s", tm(b, 32, ps_json_num(r, "mean_rank_s")));
                ps_html_cell(f, 1, "%s", fx(c, 32, "%.1f %%", ps_json_num(r, "pct_of_run")));
                ps_html_row_end(f);
            }
            ps_html_table_end(f);
        }
    }

    ps_html_heading(f, "Communication kernel against the low-level benchmark");
    const json_t *mod = json_object_get(doc, "model");
    if (!json_is_true(json_object_get(mod, "available"))) {
        ps_html_note(f, "%s", jstr(mod, "note"));
    } else {
        ps_html_kv_begin(f);
        ps_html_kv(f, "machine model", "%s", jstr(mod, "machine"));
        ps_html_kv(f, "latency", "%s", tm(a, 32, ps_json_num(mod, "latency_s")));
        ps_html_kv(f, "bandwidth", "%s MB/s", fx(b, 32, "%.4g", ps_json_num(mod, "bandwidth_Bps") / 1e6));
        ps_html_kv(f, "parameters", "%s", jstr(mod, "parameters"));
        ps_html_kv(f, "predicted (simple model)", "%s", tm(a, 32, ps_json_num(mod, "predicted_s")));
        ps_html_kv(f, "predicted (ping-pong table per message)", "%s", tm(a, 32, ps_json_num(mod, "predicted_table_s")));
        ps_html_kv(f, "measured T(comm)", "%s", tm(a, 32, ps_json_num(mod, "measured_s")));
        ps_html_kv(f, "measured / predicted", "%s", fx(b, 32, "%.3g", ps_json_num(mod, "measured_over_predicted")));
        ps_html_kv_end(f);
        ps_html_table_begin(f, 6, "rank", "messages", "bytes", "latency part", "predicted", "measured");
        json_array_foreach(json_object_get(mod, "ranks"), i, r) {
            ps_html_row_begin(f);
            count_cell(f, ps_json_num(r, "rank"));
            count_cell(f, ps_json_num(r, "messages"));
            count_cell(f, ps_json_num(r, "bytes"));
            time_cell(f, ps_json_num(r, "latency_part_s"));
            time_cell(f, ps_json_num(r, "predicted_s"));
            time_cell(f, ps_json_num(r, "measured_s"));
            ps_html_row_end(f);
        }
        ps_html_table_end(f);
        ps_html_note(f, "%s", jstr(mod, "note"));
    }
    const json_t *fails = json_object_get(doc, "failures");
    if (json_array_size(fails)) {
        ps_html_heading(f, "Failed trials");
        ps_html_table_begin(f, 3, "variant", "round", "message");
        json_array_foreach(fails, i, r) {
            ps_html_row_begin(f);
            ps_html_cell(f, 0, "%s", jstr(r, "variant"));
            count_cell(f, ps_json_num(r, "round"));
            ps_html_cell(f, 0, "%s", jstr(r, "message"));
            ps_html_row_end(f);
        }
        ps_html_table_end(f);
    }
    ps_html_section_end(f);
    return 0;
}

int ps_whitebox_report_html(FILE *f, const json_t *doc, const char *dir, const char *source)
{
    html_units = 1;
    int rc = report_html(f, doc, dir, source);
    html_units = 0;
    return rc;
}
