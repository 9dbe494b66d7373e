/* output.c - the sweep's CSV, text table and files (see scale.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/findings.h"
#include "report/html.h"
#include "report/noise.h"
#include "report/result.h"
#include "scale/scale.h"
#include "trace/json.h"
#include "util/util.h"

/* CSV number: empty where undefined */
static void csv_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, ",%.6g", v);
    else fputc(',', f);
}

static void csv_str(FILE *f, const char *s, int comma)
{
    if (comma) fputc(',', f);
    if (!s) return;
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

/* A point's metrics and its time's statistics, in the order of the CSV's
 * columns (each column named for its key, time_ before the statistics). */
static const char *const point_metrics[] = {"time_s",     "act_per_s",       "net_act_per_s", "speedup",
                                            "efficiency", "serial_fraction", NULL};
static const char *const time_stats[] = {"min", "median", "max", NULL};

int ps_scale_write_csv(const json_t *doc, FILE *out)
{
    fputs("workload,variation,ranks,time_s,act_per_s,net_act_per_s,speedup,efficiency,serial_fraction,"
          "scaling,k,trials,successful,time_min,time_median,time_max,samples,status\n",
          out);
    const char *wl = json_string_value(json_object_get(doc, "workload"));
    const char *sc = json_string_value(json_object_get(doc, "scaling"));
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        json_t *tm = json_object_get(p, "time");
        csv_str(out, wl, 0);
        csv_str(out, json_string_value(json_object_get(p, "variation")), 1);
        fprintf(out, ",%d", (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks")));
        for (const char *const *k = point_metrics; *k; k++) csv_num(out, ps_json_num(p, *k));
        csv_str(out, sc, 1);
        csv_num(out, ps_json_num(p, "k"));
        fprintf(out, ",%d,%d", (int)json_integer_value(json_object_get(tm, "trials")),
                (int)json_integer_value(json_object_get(tm, "successful")));
        for (const char *const *k = time_stats; *k; k++) csv_num(out, ps_json_num(tm, *k));
        fputc(',', out);
        size_t k;
        json_t *s;
        json_array_foreach(json_object_get(tm, "samples"), k, s) {
            if (k) fputc(';', out);
            if (json_is_number(s)) fprintf(out, "%.6g", json_number_value(s));
            else fputs("failed", out);
        }
        csv_str(out, json_string_value(json_object_get(p, "status")), 1);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

static void fmt_or_dash(char *b, size_t n, const char *fmt, double v, double scale)
{
    if (isfinite(v)) snprintf(b, n, fmt, v * scale);
    else snprintf(b, n, "-");
}

/* "12.3 +/- 4.5" (pm absolute, in the value's scale) or "0.2194 +/- 12%"
 * (rel: pm relative), the value alone when the uncertainty is unknown (one
 * trial), "-" when there is no value. */
static void fmt_pm(char *b, size_t n, const char *fmt, double v, double pm, double scale, int rel)
{
    if (!isfinite(v)) {
        snprintf(b, n, "-");
        return;
    }
    int o = snprintf(b, n, fmt, v * scale);
    if (!isfinite(pm) || o <= 0 || (size_t)o >= n) return;
    if (rel) snprintf(b + o, n - (size_t)o, " +/- %.0f%%", 100 * pm);
    else snprintf(b + o, n - (size_t)o, " +/- %.1f", pm * scale);
}

/* One process metric of a point: "avg sd min max" over its ranks (CLUE's
 * timer class, seed 3.2), "-" when the point has none. */
static void fmt_agg(char *b, size_t n, const json_t *ps, const char *key, const char *fmt)
{
    const json_t *a = json_object_get(ps, key);
    if (!json_is_object(a)) {
        snprintf(b, n, "-");
        return;
    }
    char f[64];
    snprintf(f, sizeof f, "%s %s %s %s", fmt, fmt, fmt, fmt);
    snprintf(b, n, f, ps_json_num(a, "avg"), ps_json_num(a, "sd"), ps_json_num(a, "min"), ps_json_num(a, "max"));
}

/* The process metrics of every point, over the interval procstats.interval
 * names (the timed interval where the runtime measured it). */
static void print_procstats(const json_t *doc, FILE *out)
{
    size_t i;
    json_t *p;
    const char *interval = NULL;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        const json_t *ps = json_object_get(p, "procstats");
        if (json_is_object(ps)) {
            interval = json_string_value(json_object_get(ps, "interval"));
            break;
        }
    }
    if (!interval) return;
    fprintf(out, "\nprocess metrics per rank, avg sd min max over the ranks (%s):\n", interval);
    fprintf(out, "%-11s %3s %-31s %-31s %-23s %-23s %-23s\n", "variation", "P", "user s", "system s", "minor faults",
            "vol. switches", "invol. switches");
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        const json_t *ps = json_object_get(p, "procstats");
        if (!json_is_object(ps)) continue;
        char u[96], s[96], mf[96], vc[96], ic[96];
        fmt_agg(u, sizeof u, ps, "user_s", "%.5f");
        fmt_agg(s, sizeof s, ps, "system_s", "%.5f");
        fmt_agg(mf, sizeof mf, ps, "minor_faults", "%.0f");
        fmt_agg(vc, sizeof vc, ps, "voluntary_switches", "%.0f");
        fmt_agg(ic, sizeof ic, ps, "involuntary_switches", "%.0f");
        const json_t *uc = json_object_get(ps, "user_check");
        fprintf(out, "%-11s %3d %-31s %-31s %-23s %-23s %-23s%s\n", json_string_value(json_object_get(p, "variation")),
                (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks")), u, s, mf, vc, ic,
                json_is_false(json_object_get(uc, "within")) ? "  USER TIME ABOVE THE EXECUTION TIME" : "");
    }
}

void ps_scale_print(const json_t *doc, FILE *out)
{
    json_t *g = json_object_get(doc, "grid");
    fprintf(out, "parscope scale: %s, %s scaling", json_string_value(json_object_get(doc, "workload")),
            json_string_value(json_object_get(doc, "scaling")));
    if (g)
        fprintf(out, ", grid %lldx%lld %s, %lld iterations", (long long)json_integer_value(json_object_get(g, "width")),
                (long long)json_integer_value(json_object_get(g, "height")),
                json_is_true(json_object_get(g, "per_rank")) ? "per rank" : "in all",
                (long long)json_integer_value(json_object_get(g, "iterations")));
    /* the trials the points had, not those asked for: an interrupted or
     * partial sweep has fewer at some points (none at a missing one) */
    json_t *tr = json_object_get(doc, "trials_auto");
    int lo = -1, hi = 0;
    size_t pi;
    json_t *pp;
    json_array_foreach(json_object_get(doc, "points"), pi, pp) {
        int n = (int)json_integer_value(json_object_get(json_object_get(pp, "time"), "trials"));
        if (lo < 0 || n < lo) lo = n;
        if (n > hi) hi = n;
    }
    if (lo < 0) lo = 0;
    int asked = (int)json_integer_value(json_object_get(doc, "trials"));
    int partial = json_is_true(json_object_get(doc, "interrupted")) || json_is_false(json_object_get(doc, "complete"));
    if (json_is_object(tr)) {
        int mn = (int)json_integer_value(json_object_get(tr, "min"));
        fprintf(out, "; best of %d to %d trials (automatic%s)\n", lo < mn ? lo : mn, hi,
                partial ? ", sweep interrupted: some points have fewer" : "");
    } else if (lo == asked && hi == asked) {
        fprintf(out, "; best of %d trial(s)\n", asked);
    } else {
        char got[48];
        if (lo == hi) snprintf(got, sizeof got, "%d", lo);
        else snprintf(got, sizeof got, "%d to %d", lo, hi);
        fprintf(out, "; best of %s of the %d trial(s) asked%s\n", got, asked,
                partial ? " (sweep interrupted: the figures are from the trials that ran)" : "");
    }
    json_t *mn = json_object_get(json_object_get(doc, "noise"), "machine");
    if (mn) {
        char line[512];
        ps_noise_line(mn, line, sizeof line);
        fprintf(out, "%s\n", line);
    }
    if (json_is_object(tr)) fprintf(out, "trials: %s\n", json_string_value(json_object_get(tr, "text")));
    if (json_is_true(json_object_get(doc, "oversubscribed")))
        fprintf(out, "WARNING: %s\n", json_string_value(json_object_get(doc, "oversubscribed_note")));
    fprintf(out, "(+/-: the best two trials' gap for times, T(1)'s and T(P)'s added for speedup, efficiency and serial "
                 "fraction)\n\n");
    fprintf(out, "%-11s %3s %18s %11s %11s %15s %17s %17s\n", "variation", "P", "time_s", "ACT/s", "net ACT/s",
            "speedup", "effic. %", "serial f %");
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        char t[48], a[32], na[32], s[48], e[48], f[48];
        json_t *nz = json_object_get(p, "noise");
        double tm = ps_json_num(p, "time_s");
        fmt_pm(t, sizeof t, "%.4f", tm, ps_json_num(nz, "time"), 1, 1);
        fmt_or_dash(a, sizeof a, "%.4g", ps_json_num(p, "act_per_s"), 1);
        fmt_or_dash(na, sizeof na, "%.4g", ps_json_num(p, "net_act_per_s"), 1);
        fmt_pm(s, sizeof s, "%.3f", ps_json_num(p, "speedup"), ps_json_num(nz, "speedup"), 1, 0);
        fmt_pm(e, sizeof e, "%.1f", ps_json_num(p, "efficiency"), ps_json_num(nz, "efficiency"), 100, 0);
        fmt_pm(f, sizeof f, "%.1f", ps_json_num(p, "serial_fraction"), ps_json_num(nz, "serial_fraction"), 100, 0);
        const char *st = json_string_value(json_object_get(p, "status"));
        fprintf(out, "%-11s %3d %18s %11s %11s %15s %17s %17s%s%s%s%s\n",
                json_string_value(json_object_get(p, "variation")),
                (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks")), t, a, na, s, e, f,
                st && strcmp(st, "ok") ? "  " : "", st && strcmp(st, "ok") ? st : "",
                json_is_true(json_object_get(p, "oversubscribed")) ? "  oversubscribed" : "",
                json_array_size(json_object_get(p, "flags")) ? "  IMPOSSIBLE VALUE" : "");
    }
    print_procstats(doc, out);
    json_t *fits = json_object_get(doc, "fits");
    if (json_array_size(fits)) {
        fprintf(out, "\nserial fraction fitted over the sweep (Amdahl (1) / Gustafson (2), rms relative residual):\n");
        json_array_foreach(fits, i, p) {
            const char *note = json_string_value(json_object_get(p, "note"));
            if (note) {
                fprintf(out, "  %-11s %s\n", json_string_value(json_object_get(p, "variation")), note);
                continue;
            }
            char fa[32], fg[32], ra[32], rg[32];
            fmt_or_dash(fa, sizeof fa, "%.3f%%", ps_json_num(p, "amdahl_f"), 100);
            fmt_or_dash(ra, sizeof ra, "%.1f%%", ps_json_num(p, "amdahl_rms_rel_error"), 100);
            fmt_or_dash(fg, sizeof fg, "%.3f%%", ps_json_num(p, "gustafson_f"), 100);
            fmt_or_dash(rg, sizeof rg, "%.1f%%", ps_json_num(p, "gustafson_rms_rel_error"), 100);
            fprintf(out, "  %-11s Amdahl f %9s (residual %s)   Gustafson f %9s (residual %s)\n",
                    json_string_value(json_object_get(p, "variation")), fa, ra, fg, rg);
        }
    }
    json_t *av = json_object_get(doc, "averages");
    if (av) {
        fprintf(out, "\naverages (CLUE seed 3.5; efficiency and serial fraction over P > 1):\n");
        fprintf(out, "  %-14s %11s %11s %8s %10s\n", "", "ACT/s", "net ACT/s", "effic.", "serial f");
        const char *groups[] = {"by_ranks", "by_variation"};
        for (int k = 0; k < 3; k++) {
            json_t *arr = k < 2 ? json_object_get(av, groups[k]) : NULL;
            size_t n = k < 2 ? json_array_size(arr) : 1;
            for (size_t j = 0; j < n; j++) {
                json_t *x = k < 2 ? json_array_get(arr, j) : json_object_get(av, "overall");
                char name[64], a[32], na[32], e[32], f[32];
                if (k == 0) snprintf(name, sizeof name, "P = %d", (int)json_integer_value(json_object_get(x, "ranks")));
                else if (k == 1) snprintf(name, sizeof name, "%s", json_string_value(json_object_get(x, "variation")));
                else snprintf(name, sizeof name, "overall");
                fmt_or_dash(a, sizeof a, "%.4g", ps_json_num(x, "act_per_s"), 1);
                fmt_or_dash(na, sizeof na, "%.4g", ps_json_num(x, "net_act_per_s"), 1);
                fmt_or_dash(e, sizeof e, "%.1f%%", ps_json_num(x, "efficiency"), 100);
                fmt_or_dash(f, sizeof f, "%.1f%%", ps_json_num(x, "serial_fraction"), 100);
                fprintf(out, "  %-14s %11s %11s %8s %10s\n", name, a, na, e, f);
            }
        }
    }
    json_t *c = json_object_get(doc, "conclusions");
    if (json_array_size(c)) {
        fprintf(out, "\nconclusions (a finding only where the effect exceeds the noise of this sweep):\n");
        ps_findings_print(c, out);
    }
    json_t *m = json_object_get(doc, "missing");
    if (json_array_size(m)) {
        fprintf(out, "\nmissing (%zu run(s) not measured):", json_array_size(m));
        json_array_foreach(m, i, p) {
            if (i >= 12) {
                fprintf(out, " ...");
                break;
            }
            fprintf(out, " %s/P=%d/trial %d", json_string_value(json_object_get(p, "variation")),
                    (int)json_integer_value(json_object_get(p, "ranks")),
                    (int)json_integer_value(json_object_get(p, "trial")));
        }
        fputc('\n', out);
    }
}

/* The document and the directory a formatter needs, for ps_write_formatted. */
typedef struct write_ctx {
    int (*fn)(const json_t *, FILE *, const char *);
    const json_t *doc;
    const char *dir;
} write_ctx;

static int write_one(FILE *f, void *ctx)
{
    const write_ctx *w = ctx;
    return w->fn(w->doc, f, w->dir);
}

/* Writes through a temporary file so nothing is left half-written. */
static int write_via(const char *path, int (*fn)(const json_t *, FILE *, const char *), const json_t *doc,
                     const char *dir, char *err, size_t errlen)
{
    write_ctx w = {fn, doc, dir};
    return ps_write_formatted(path, write_one, &w, err, errlen);
}

static int csv_fn(const json_t *doc, FILE *f, const char *dir)
{
    (void)dir;
    return ps_scale_write_csv(doc, f);
}

static int html_fn(const json_t *doc, FILE *f, const char *dir)
{
    char title[300];
    snprintf(title, sizeof title, "parscope scale: %s", json_string_value(json_object_get(doc, "workload")));
    ps_html_begin(f, title);
    int rc = ps_scale_report_html(f, doc, dir, NULL);
    ps_html_end(f);
    return rc;
}

int ps_scale_write_outputs(const char *dir, const json_t *doc, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/scale.json", dir);
    if (ps_result_write(path, (json_t *)doc, err, errlen)) return -1;
    snprintf(path, sizeof path, "%s/scale.csv", dir);
    if (write_via(path, csv_fn, doc, dir, err, errlen)) return -1;
    snprintf(path, sizeof path, "%s/report.html", dir);
    if (write_via(path, html_fn, doc, dir, err, errlen)) return -1;
    return 0;
}
