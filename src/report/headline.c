/*
 * headline.c - the headline of each document, for the page's summary (see
 * report.h): what a reader wants before any table.
 */
#include "report/report.h"

#include <math.h>
#include <string.h>

#include "report/html.h"
#include "report/result.h"
#include "trace/json.h"
#include "util/util.h"

static const char *str(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

/* "fingerprint on 4 ranks, measured on vm: 94.4 µs (best of 3); busy 61%, overhead 12%, idle 27%; 56 messages" */
static json_t *run_line(const json_t *d, const char *kind)
{
    const json_t *sh = json_object_get(d, "sheet"), *m = json_object_get(d, "machine");
    int predicted = kind && !strcmp(kind, "predict");
    const char *w = str(d, "workload");
    double P = ps_json_num(json_object_get(d, "params"), "ranks"), t = ps_result_used_time(d);
    double trials = ps_json_num(json_object_get(d, "time"), "trials");
    char tb[32], where[200] = "";
    ps_html_fmt_time(tb, sizeof tb, t);
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
    if (isfinite(msgs)) {
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
    double ta = ps_result_used_time(a), tz = ps_result_used_time(z);
    char x[32], y[32];
    ps_html_fmt_time(x, sizeof x, ta);
    ps_html_fmt_time(y, sizeof y, tz);
    return json_sprintf("%s %s%s%s for P = %.0f..%.0f (%zu counts): %s at P = %.0f, %s at P = %.0f (speedup %.3g).",
                        w ? w : "?", predicted ? "predicted" : "measured", name ? " on " : "", name ? name : "", Pa, Pz,
                        n, x, Pa, y, Pz, ta / tz);
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
        if (!text || (verdict && strcmp(verdict, "finding"))) continue;
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
        const json_t *pp = json_object_get(d, "pingpong"), *bsp = json_object_get(d, "bsp");
        char lat[32];
        ps_html_fmt_time(lat, sizeof lat, ps_json_num(pp, "latency"));
        const char *h = str(json_object_get(d, "machine"), "host");
        double bw = ps_json_num(pp, "bandwidth");
        char bws[32];
        if (bw >= 1e9) snprintf(bws, sizeof bws, "%.3g GB/s", bw / 1e9);
        else snprintf(bws, sizeof bws, "%.3g MB/s", bw / 1e6);
        json_array_append_new(list, json_sprintf("%s%sping-pong latency %s, bandwidth %s; BSP r = %.0f Mflop/s, "
                                                 "g = %.3g flops, l = %.3g flops (p = %.0f).",
                                                 h ? h : "", h ? ": " : "", lat, bws,
                                                 ps_json_num(bsp, "r") / 1e6, ps_json_num(bsp, "g"), ps_json_num(bsp, "l"), ps_json_num(bsp, "p")));
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
