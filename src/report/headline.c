/*
 * headline.c - the headline of each document, for the page's summary (see
 * report.h): what a reader wants before any table.
 */
#include "report/report.h"

#include <math.h>
#include <string.h>

#include "report/figure.h"
#include "report/html.h"
#include "report/result.h"
#include "trace/json.h"
#include "util/util.h"

static const char *str(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

/* "94.4 µs +/- 0.52%": a result's time with the uncertainty it measured. */
static const char *timed(char *b, size_t n, const json_t *d)
{
    char t[32], u[24];
    ps_html_fmt_time(t, sizeof t, ps_result_used_time(d));
    snprintf(b, n, "%s%s", t, ps_fig_pm(u, sizeof u, ps_json_num(json_object_get(d, "time"), "uncertainty")));
    return b;
}

/* "fingerprint on 4 ranks, measured on vm: 94.4 µs +/- 0.52% (best of 3); busy 61%, overhead 12%, idle 27%; 56
 * messages" */
static json_t *run_line(const json_t *d, const char *kind)
{
    const json_t *sh = json_object_get(d, "sheet"), *m = json_object_get(d, "machine");
    int predicted = kind && !strcmp(kind, "predict");
    const char *w = str(d, "workload");
    double P = ps_json_num(json_object_get(d, "params"), "ranks");
    double trials = ps_json_num(json_object_get(d, "time"), "trials");
    char tb[64], where[200] = "";
    timed(tb, sizeof tb, d);
    const char *name = predicted ? str(m, "name") : str(m, "host");
    if (name && *name) snprintf(where, sizeof where, ", %s %s", predicted ? "predicted on" : "measured on", name);
    else snprintf(where, sizeof where, ", %s", predicted ? "predicted" : "measured");
    char trial[48] = "";
    if (!predicted && trials > 1) snprintf(trial, sizeof trial, " (best of %.0f)", trials);
    double b = ps_json_num(sh, "busy_pct"), o = ps_json_num(sh, "overhead_pct"), i = ps_json_num(sh, "idle_pct");
    double msgs = ps_json_num(sh, "messages_sent");
    char shares[160] = "";
    if (isfinite(b) && isfinite(o) && isfinite(i)) {
        const char *most = o + i > b ? (i > o ? ": most of the time is spent waiting for partners"
                                              : ": most of the time is spent inside the communication layer")
                                     : "";
        snprintf(shares, sizeof shares, "; busy %.0f%%, overhead %.0f%%, idle %.0f%%%s", b, o, i, most);
    }
    char mb[64] = "";
    if (isfinite(msgs) && isfinite(ps_json_num(sh, "bytes_sent"))) {
        char bb[32];
        ps_fmt_bytes(bb, sizeof bb, ps_json_num(sh, "bytes_sent"));
        snprintf(mb, sizeof mb, "; %.0f messages, %s", msgs, bb);
    }
    return json_sprintf("%s on %.0f rank%s%s: %s%s%s%s.", w ? w : "?", P, P == 1 ? "" : "s", where, tb, trial, shares,
                        mb);
}

/* "psrs predicted on IBM SP2 for P = 1..16: 0.355 s at P = 1, 25.1 ms at P = 16 (speedup 14.1)" */
static json_t *points_line(const json_t *d, const char *kind)
{
    const json_t *pts = json_object_get(d, "points");
    size_t n = json_array_size(pts);
    const json_t *a = json_array_get(pts, 0), *z = json_array_get(pts, n - 1);
    int predicted = kind && !strcmp(kind, "predict");
    const char *w = str(d, "workload") ? str(d, "workload") : str(a, "workload");
    const json_t *m = json_object_get(a, "machine");
    const char *name = predicted ? str(m, "name") : str(m, "host");
    double Pa = ps_json_num(json_object_get(a, "params"), "ranks"), Pz = ps_json_num(json_object_get(z, "params"), "ranks");
    char x[64], y[64], sp[16];
    ps_fig(sp, sizeof sp, "%.3g", ps_result_used_time(a) / ps_result_used_time(z));
    return json_sprintf("%s %s%s%s for P = %.0f..%.0f (%zu counts): %s at P = %.0f, %s at P = %.0f (speedup %s).",
                        w ? w : "?", predicted ? "predicted" : "measured", name ? " on " : "", name ? name : "", Pa, Pz,
                        n, timed(x, sizeof x, a), Pa, timed(y, sizeof y, z), Pz, sp);
}

/* "vm: ping-pong latency 380 ns +/- 0.021%, bandwidth 24.8 GB/s +/- 2.8%; BSP (p = 2): r = 2661 Mflop/s
 * +/- 4.1%, g = 195 flops +/- 79%, l = 1.11e+04 flops +/- 155%.", each figure with the uncertainty the probe
 * measured; a failed h-relation fit says so instead of g and l (docs/PROBE.md). */
static json_t *probe_line(const json_t *d)
{
    const json_t *pp = json_object_get(d, "pingpong"), *bsp = json_object_get(d, "bsp");
    const char *h = str(json_object_get(d, "machine"), "host");
    double bw = ps_json_num(pp, "bandwidth");
    char lat[32], bws[32], p[16], r[32], g[32], l[32], gl[160], u[5][24];
    ps_html_fmt_time(lat, sizeof lat, ps_json_num(pp, "latency"));
    if (bw >= 1e9) ps_fig(bws, sizeof bws, "%.3g GB/s", bw / 1e9);
    else ps_fig(bws, sizeof bws, "%.3g MB/s", bw / 1e6);
    if (str(bsp, "fit") && !strcmp(str(bsp, "fit"), "failed"))
        snprintf(gl, sizeof gl, "; the h-relation fit failed: no g and l");
    else
        snprintf(gl, sizeof gl, ", g = %s%s, l = %s%s", ps_fig(g, sizeof g, "%.3g flops", ps_json_num(bsp, "g")),
                 ps_fig_pm(u[3], sizeof u[3], ps_json_num(bsp, "g_uncertainty")),
                 ps_fig(l, sizeof l, "%.3g flops", ps_json_num(bsp, "l")),
                 ps_fig_pm(u[4], sizeof u[4], ps_json_num(bsp, "l_uncertainty")));
    return json_sprintf("%s%sping-pong latency %s%s, bandwidth %s%s; BSP (p = %s): r = %s%s%s.", h ? h : "", h ? ": " : "",
                        lat, ps_fig_pm(u[0], sizeof u[0], ps_json_num(pp, "latency_uncertainty")), bws,
                        ps_fig_pm(u[1], sizeof u[1], ps_json_num(pp, "bandwidth_uncertainty")),
                        ps_fig(p, sizeof p, "%.0f", ps_json_num(bsp, "p")),
                        ps_fig(r, sizeof r, "%.0f Mflop/s", ps_json_num(bsp, "r") / 1e6),
                        ps_fig_pm(u[2], sizeof u[2], ps_json_num(bsp, "r_uncertainty")), gl);
}

/* A document's own conclusions, as it words them: strings, or records
 * {id, text, effect, noise, verdict} of which only those whose verdict is a
 * finding (or that carry no verdict) make the headline; the others stay in
 * the document's section.  At most `max`; returns how many were added. */
static int own_findings(json_t *list, const json_t *arr, int max)
{
    int n = 0;
    size_t i;
    json_t *f;
    json_array_foreach(arr, i, f) {
        if (n == max) break;
        const char *text = json_is_string(f) ? json_string_value(f) : str(f, "text");
        const char *verdict = str(f, "verdict");
        /* a record without words says nothing in a headline */
        if (!text || !*text || (verdict && strcmp(verdict, "finding"))) continue;
        json_array_append_new(list, json_string(text));
        n++;
    }
    return n;
}

void ps_report_findings(json_t *list, const json_t *d)
{
    const char *kind = str(d, "kind");
    /* findings a document carries come first and stand for it */
    if (own_findings(list, json_object_get(d, "findings"), 4)) return;
    if (!kind) return;
    if (!strcmp(kind, "run") || !strcmp(kind, "predict") || !strcmp(kind, "trace")) {
        if (json_array_size(json_object_get(d, "points")) > 1) json_array_append_new(list, points_line(d, kind));
        else if (json_array_size(json_object_get(d, "points")) == 1)
            json_array_append_new(list, run_line(json_array_get(json_object_get(d, "points"), 0), kind));
        else json_array_append_new(list, run_line(d, kind));
        /* the counts a prediction left out, and why (predict's not_predicted) */
        size_t i;
        json_t *x;
        json_array_foreach(json_object_get(d, "not_predicted"), i, x)
            json_array_append_new(list, json_sprintf("P = %lld not predicted: %s.",
                                                     (long long)json_integer_value(json_object_get(x, "ranks")),
                                                     str(x, "error") ? str(x, "error") : "?"));
    } else if (!strcmp(kind, "characterize")) {
        const json_t *b = json_object_get(d, "bottleneck");
        if (str(b, "name")) {
            char reason[1024];
            snprintf(reason, sizeof reason, "%s", str(b, "reason") ? str(b, "reason") : "");
            if (reason[0] >= 'a' && reason[0] <= 'z') reason[0] = (char)(reason[0] - 'a' + 'A');
            json_array_append_new(list, json_sprintf("Main bottleneck: %s. %s.", str(b, "name"), reason));
        }
        if (str(d, "warning")) json_array_append_new(list, json_sprintf("Warning: %s.", str(d, "warning")));
    } else if (!strcmp(kind, "probe")) {
        json_array_append_new(list, probe_line(d));
    } else if (!strcmp(kind, "scale")) {
        /* the sweep's first two conclusions that are findings, named by its workload */
        json_t *mine = json_array();
        own_findings(mine, json_object_get(d, "conclusions"), 2);
        size_t i;
        json_t *c;
        json_array_foreach(mine, i, c)
            json_array_append_new(list, json_sprintf("%s sweep: %s", str(d, "workload") ? str(d, "workload") : "scale",
                                                     json_string_value(c)));
        json_decref(mine);
    } else if (!strcmp(kind, "whitebox")) {
        own_findings(list, json_object_get(d, "conclusions"), 2);
    }
}
