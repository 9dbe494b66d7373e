/* output.c - the sweep's CSV, text table and files (see scale.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/result.h"
#include "scale/scale.h"
#include "util/util.h"

static double getnum(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

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
        csv_num(out, getnum(p, "time_s"));
        csv_num(out, getnum(p, "act_per_s"));
        csv_num(out, getnum(p, "net_act_per_s"));
        csv_num(out, getnum(p, "speedup"));
        csv_num(out, getnum(p, "efficiency"));
        csv_num(out, getnum(p, "serial_fraction"));
        csv_str(out, sc, 1);
        csv_num(out, getnum(p, "k"));
        fprintf(out, ",%d,%d", (int)json_integer_value(json_object_get(tm, "trials")),
                (int)json_integer_value(json_object_get(tm, "successful")));
        csv_num(out, getnum(tm, "min"));
        csv_num(out, getnum(tm, "median"));
        csv_num(out, getnum(tm, "max"));
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
    fprintf(out, "; best of %d trial(s)\n\n", (int)json_integer_value(json_object_get(doc, "trials")));
    fprintf(out, "%-11s %5s %10s %10s %11s %11s %8s %8s %8s\n", "variation", "P", "time_s", "spread", "ACT/s",
            "net ACT/s", "speedup", "effic.", "serial f");
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        char t[32], sp[32], a[32], na[32], s[32], e[32], f[32];
        json_t *tm = json_object_get(p, "time");
        double mn = getnum(tm, "min"), mx = getnum(tm, "max");
        fmt_or_dash(t, sizeof t, "%.4f", getnum(p, "time_s"), 1);
        fmt_or_dash(sp, sizeof sp, "%.1f%%", mn > 0 ? (mx - mn) / mn : NAN, 100);
        fmt_or_dash(a, sizeof a, "%.4g", getnum(p, "act_per_s"), 1);
        fmt_or_dash(na, sizeof na, "%.4g", getnum(p, "net_act_per_s"), 1);
        fmt_or_dash(s, sizeof s, "%.3f", getnum(p, "speedup"), 1);
        fmt_or_dash(e, sizeof e, "%.1f%%", getnum(p, "efficiency"), 100);
        fmt_or_dash(f, sizeof f, "%.2f%%", getnum(p, "serial_fraction"), 100);
        const char *st = json_string_value(json_object_get(p, "status"));
        fprintf(out, "%-11s %5d %10s %10s %11s %11s %8s %8s %8s%s%s\n",
                json_string_value(json_object_get(p, "variation")),
                (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks")), t, sp, a, na, s, e, f,
                st && strcmp(st, "ok") ? "  " : "", st && strcmp(st, "ok") ? st : "");
    }
    json_t *fits = json_object_get(doc, "fits");
    if (json_array_size(fits)) {
        fprintf(out, "\nserial fraction fitted over the sweep (Amdahl (1) / Gustafson (2), rms relative error):\n");
        json_array_foreach(fits, i, p) {
            char fa[32], fg[32], ra[32], rg[32];
            fmt_or_dash(fa, sizeof fa, "%.3f%%", getnum(p, "amdahl_f"), 100);
            fmt_or_dash(ra, sizeof ra, "%.1f%%", getnum(p, "amdahl_rms_rel_error"), 100);
            fmt_or_dash(fg, sizeof fg, "%.3f%%", getnum(p, "gustafson_f"), 100);
            fmt_or_dash(rg, sizeof rg, "%.1f%%", getnum(p, "gustafson_rms_rel_error"), 100);
            fprintf(out, "  %-11s Amdahl f %9s (%s)   Gustafson f %9s (%s)\n",
                    json_string_value(json_object_get(p, "variation")), fa, ra, fg, rg);
        }
    }
    json_t *c = json_object_get(doc, "conclusions");
    if (json_array_size(c)) {
        fprintf(out, "\nconclusions:\n");
        json_array_foreach(c, i, p) fprintf(out, "  - %s\n", json_string_value(json_object_get(p, "text")));
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
