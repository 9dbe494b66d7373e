/*
 * report.c - the "scale" report fragment: parameters, table, conclusions
 * and the CLUE seed's Figures 4.2-4.6 as inline SVG.
 *
 * Figures 4.2-4.4 (ACT/s, efficiency, serial fraction by variation) are
 * grouped bars, one group per variation, one bar per processor count;
 * Figures 4.5-4.6 (efficiency and serial fraction by processor count) are
 * XY plots with one line per variation (out/plot.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/html.h"
#include "report/noise.h"
#include "report/plot.h"
#include "scale/scale.h"
#include "trace/json.h"
#include "util/util.h"

#define MAXV 16
#define MAXP PS_SCALE_MAX_POINTS

typedef struct table {
    int         nv, np;
    const char *var[MAXV];
    int         P[MAXP];
    double      act[MAXV][MAXP], eff[MAXV][MAXP], f[MAXV][MAXP];
    /* each figure's +/- (point noise, absolute) */
    double      act_pm[MAXV][MAXP], eff_pm[MAXV][MAXP], f_pm[MAXV][MAXP];
} table;

static void collect(const json_t *doc, table *t)
{
    memset(t, 0, sizeof *t);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        const char *v = json_string_value(json_object_get(p, "variation"));
        int P = (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks"));
        int vi = -1, pi = -1;
        for (int k = 0; k < t->nv; k++)
            if (!strcmp(t->var[k], v)) vi = k;
        if (vi < 0 && t->nv < MAXV) {
            vi = t->nv++;
            t->var[vi] = v;
            for (int k = 0; k < MAXP; k++)
                t->act[vi][k] = t->eff[vi][k] = t->f[vi][k] = t->act_pm[vi][k] = t->eff_pm[vi][k] = t->f_pm[vi][k] = NAN;
        }
        for (int k = 0; k < t->np; k++)
            if (t->P[k] == P) pi = k;
        if (pi < 0 && t->np < MAXP) {
            pi = t->np++;
            t->P[pi] = P;
            for (int k = 0; k < MAXV; k++)
                t->act[k][pi] = t->eff[k][pi] = t->f[k][pi] = t->act_pm[k][pi] = t->eff_pm[k][pi] = t->f_pm[k][pi] = NAN;
        }
        if (vi < 0 || pi < 0) continue;
        t->act[vi][pi] = ps_json_num(p, "act_per_s");
        t->eff[vi][pi] = ps_json_num(p, "efficiency");
        t->f[vi][pi] = ps_json_num(p, "serial_fraction");
        const json_t *nz = json_object_get(p, "noise");
        t->act_pm[vi][pi] = ps_json_num(nz, "act_per_s");
        t->eff_pm[vi][pi] = ps_json_num(nz, "efficiency");
        t->f_pm[vi][pi] = ps_json_num(nz, "serial_fraction");
    }
}

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

/* Grouped bars: groups = variations, one bar per processor count. */
static void bars(FILE *f, const char *title, const char *ylabel, const table *t, double (*v)[MAXP],
                 double (*pm)[MAXP], double scale, int skip_p1)
{
    double mx = 0;
    for (int i = 0; i < t->nv; i++)
        for (int j = 0; j < t->np; j++)
            if (isfinite(v[i][j]) && !(skip_p1 && t->P[j] == 1) && v[i][j] * scale > mx) mx = v[i][j] * scale;
    int W = 640, H = 320, L = 70, R = 10, T = 30, B = 60;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", W, H, W, H);
    fprintf(f, "<text x=\"%d\" y=\"18\" text-anchor=\"middle\" font-size=\"13\">", W / 2);
    ps_html_escape(f, title);
    fprintf(f, "</text>\n");
    if (!(mx > 0)) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no data</text></svg>\n", W / 2, H / 2);
        return;
    }
    double ticks[16];
    int nt = ps_plot_ticks(0, mx, 0, ticks, 16);
    double top = nt ? (ticks[nt - 1] > mx ? ticks[nt - 1] : mx) : mx;
    int ph = H - T - B, pw = W - L - R;
    for (int k = 0; k < nt; k++) {
        double y = T + ph - ticks[k] / top * ph;
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n",
                L, W - R, y, y, L - 4, y + 4, ticks[k]);
    }
    fprintf(f, "<text transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\">", T + ph / 2);
    ps_html_escape(f, ylabel);
    fprintf(f, "</text>\n");
    int nb = 0;
    for (int j = 0; j < t->np; j++) nb += !(skip_p1 && t->P[j] == 1);
    double gw = (double)pw / (t->nv ? t->nv : 1), bw = gw * 0.8 / (nb ? nb : 1);
    for (int i = 0; i < t->nv; i++) {
        double x0 = L + i * gw + gw * 0.1;
        int b = 0;
        for (int j = 0; j < t->np; j++) {
            if (skip_p1 && t->P[j] == 1) continue;
            double val = v[i][j] * scale;
            if (isfinite(val) && val > 0) {
                double hgt = val / top * ph;
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                           "<title>%s P=%d: %.4g</title></rect>\n",
                        x0 + b * bw, T + ph - hgt, bw * 0.9, hgt, palette[j % 10], t->var[i], t->P[j], val);
                /* the uncertainty as a whisker, clipped to the plot */
                double e = pm[i][j] * scale;
                if (isfinite(e) && e > 0) {
                    double ylo = val - e < 0 ? 0 : val - e, yhi = val + e > top ? top : val + e;
                    double xc = x0 + b * bw + bw * 0.45;
                    fprintf(f, "<path fill=\"none\" stroke=\"#222\" d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f"
                               "M%.1f %.1fL%.1f %.1f\"/>\n",
                            xc, T + ph - ylo / top * ph, xc, T + ph - yhi / top * ph, xc - 3, T + ph - ylo / top * ph,
                            xc + 3, T + ph - ylo / top * ph, xc - 3, T + ph - yhi / top * ph, xc + 3,
                            T + ph - yhi / top * ph);
                }
            }
            b++;
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", L + i * gw + gw / 2, T + ph + 14);
        ps_html_escape(f, t->var[i]);
        fprintf(f, "</text>\n");
    }
    int lx = L;
    for (int j = 0; j < t->np; j++) {
        if (skip_p1 && t->P[j] == 1) continue;
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">P = %d</text>\n",
                lx, H - 22, palette[j % 10], lx + 14, H - 13, t->P[j]);
        lx += 70;
    }
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#333\"/></svg>\n", L, W - R, T + ph, T + ph);
}

static void by_p(FILE *f, const char *title, const char *ylabel, const table *t, double (*v)[MAXP],
                 double (*pm)[MAXP], double scale, int skip_p1)
{
    static double xs[MAXV][MAXP], ys[MAXV][MAXP], lo[MAXV][MAXP], hi[MAXV][MAXP];
    ps_plot p;
    ps_plot_init(&p, title, "processors P", ylabel);
    p.xlog = 2;
    p.width = 640;
    p.height = 360;
    for (int i = 0; i < t->nv && i < PS_PLOT_MAX_SERIES; i++) {
        int n = 0;
        for (int j = 0; j < t->np; j++) {
            if (skip_p1 && t->P[j] == 1) continue;
            xs[i][n] = t->P[j];
            lo[i][n] = (v[i][j] - pm[i][j]) * scale;
            hi[i][n] = (v[i][j] + pm[i][j]) * scale;
            ys[i][n++] = v[i][j] * scale;
        }
        ps_plot_series *s = ps_plot_add(&p, t->var[i], xs[i], ys[i], n, PS_PLOT_LINE | PS_PLOT_POINTS);
        if (s) {
            s->color = palette[i % 10];
            s->ylo = lo[i];
            s->yhi = hi[i];
        }
    }
    ps_plot_svg(&p, f);
}

int ps_scale_report_html(FILE *out, const json_t *doc, const char *dir, const char *source)
{
    (void)source;
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    if (!kind || strcmp(kind, "scale")) return -1;
    const char *wl = json_string_value(json_object_get(doc, "workload"));
    char title[300];
    snprintf(title, sizeof title, "Scalability sweep: %s (%s scaling)", wl ? wl : "?",
             json_string_value(json_object_get(doc, "scaling")) ? json_string_value(json_object_get(doc, "scaling")) : "?");
    ps_html_section_begin(out, "scale", title);
    ps_noise_html(out, json_object_get(json_object_get(doc, "noise"), "machine"));
    if (json_is_true(json_object_get(doc, "oversubscribed")))
        ps_html_note(out, "Oversubscribed: %s.", json_string_value(json_object_get(doc, "oversubscribed_note")));
    if (json_is_object(json_object_get(doc, "trials_auto")))
        ps_html_note(out, "Trials: %s.", json_string_value(json_object_get(json_object_get(doc, "trials_auto"), "text")));
    if (dir) ps_html_note(out, "Sweep directory: %s", dir);
    if (json_is_true(json_object_get(doc, "interrupted")) || !json_is_true(json_object_get(doc, "complete")))
        ps_html_note(out, "Partial sweep: %zu run(s) missing; the figures cover what was measured.",
                     json_array_size(json_object_get(doc, "missing")));

    /* conclusions first: what a reader wants */
    ps_html_heading(out, "Conclusions");
    fputs("<ul>\n", out);
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(doc, "conclusions"), i, c) {
        fputs("<li>[", out);
        ps_html_escape(out, json_string_value(json_object_get(c, "verdict")) ? json_string_value(json_object_get(c, "verdict")) : "?");
        fputs("] ", out);
        ps_html_escape(out, json_string_value(json_object_get(c, "text")));
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);

    ps_html_heading(out, "Results (time: best of the trials, as CLUE)");
    ps_html_table_begin(out, 10, "variation", "P", "time (s)", "min / median / max", "ACT/s", "net ACT/s",
                        "speedup", "efficiency", "serial fraction", "status");
    json_t *p;
    json_array_foreach(json_object_get(doc, "points"), i, p) {
        json_t *tm = json_object_get(p, "time");
        ps_html_row_begin(out);
        ps_html_cell(out, 0, "%s", json_string_value(json_object_get(p, "variation")));
        ps_html_cell(out, 1, "%d", (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks")));
        double v[7] = {ps_json_num(p, "time_s"), ps_json_num(tm, "min"), ps_json_num(tm, "median"), ps_json_num(tm, "max"),
                       ps_json_num(p, "act_per_s"), ps_json_num(p, "net_act_per_s"), ps_json_num(p, "speedup")};
        if (isfinite(v[0])) ps_html_cell(out, 1, "%.4f", v[0]);
        else ps_html_cell(out, 1, "-");
        if (isfinite(v[1])) ps_html_cell(out, 1, "%.4f / %.4f / %.4f", v[1], v[2], v[3]);
        else ps_html_cell(out, 1, "-");
        for (int k = 4; k < 7; k++) {
            if (isfinite(v[k])) ps_html_cell(out, 1, k == 6 ? "%.3f" : "%.4g", v[k]);
            else ps_html_cell(out, 1, "-");
        }
        double e = ps_json_num(p, "efficiency"), f = ps_json_num(p, "serial_fraction");
        const json_t *nz = json_object_get(p, "noise");
        double ep = ps_json_num(nz, "efficiency"), fp = ps_json_num(nz, "serial_fraction");
        if (isfinite(e) && isfinite(ep)) ps_html_cell(out, 1, "%.1f%% +/- %.1f", e * 100, ep * 100);
        else if (isfinite(e)) ps_html_cell(out, 1, "%.1f%%", e * 100);
        else ps_html_cell(out, 1, "-");
        if (isfinite(f) && isfinite(fp)) ps_html_cell(out, 1, "%.2f%% +/- %.2f", f * 100, fp * 100);
        else if (isfinite(f)) ps_html_cell(out, 1, "%.2f%%", f * 100);
        else ps_html_cell(out, 1, "-");
        ps_html_cell(out, 0, "%s", json_string_value(json_object_get(p, "status")));
        ps_html_row_end(out);
    }
    ps_html_table_end(out);

    table t;
    collect(doc, &t);
    ps_html_heading(out, "Figures (CLUE seed, Figures 4.2 to 4.6)");
    fputs("<div class=\"figures\">\n", out);
    ps_html_note(out, "Bars and whiskers: each figure +/- its uncertainty (times: the best two trials' gap; speedup, "
                      "efficiency and serial fraction: T(1)'s and T(P)'s added).");
    bars(out, "Figure 4.2: ACT/s by variation", "ACT/s (million)", &t, t.act, t.act_pm, 1e-6, 0);
    bars(out, "Figure 4.3: efficiency by variation", "efficiency (%)", &t, t.eff, t.eff_pm, 100, 1);
    bars(out, "Figure 4.4: serial fraction by variation", "serial fraction (%)", &t, t.f, t.f_pm, 100, 1);
    by_p(out, "Figure 4.5: efficiency by processor count", "efficiency (%)", &t, t.eff, t.eff_pm, 100, 0);
    by_p(out, "Figure 4.6: serial fraction by processor count", "serial fraction (%)", &t, t.f, t.f_pm, 100, 1);
    fputs("</div>\n", out);

    json_t *fits = json_object_get(doc, "fits");
    if (json_array_size(fits)) {
        ps_html_heading(out, "Serial fraction fitted over the sweep");
        ps_html_table_begin(out, 5, "variation", "Amdahl f", "rms error", "Gustafson f", "rms error");
        json_array_foreach(fits, i, p) {
            ps_html_row_begin(out);
            ps_html_cell(out, 0, "%s", json_string_value(json_object_get(p, "variation")));
            const char *k[] = {"amdahl_f", "amdahl_rms_rel_error", "gustafson_f", "gustafson_rms_rel_error"};
            for (int j = 0; j < 4; j++) {
                double v = ps_json_num(p, k[j]);
                if (isfinite(v)) ps_html_cell(out, 1, j % 2 ? "%.1f%%" : "%.3f%%", v * 100);
                else ps_html_cell(out, 1, "-");
            }
            ps_html_row_end(out);
        }
        ps_html_table_end(out);
    }

    json_t *mb = json_object_get(doc, "memory_bound");
    if (mb) {
        ps_html_heading(out, "Memory-bandwidth bound");
        ps_html_kv_begin(out);
        ps_html_kv(out, "copy bandwidth", "%.2f GB/s over %.0f MiB", ps_json_num(mb, "copy_bytes_per_s") / 1e9,
                   ps_json_num(mb, "copy_bytes") / 1048576.0);
        const char *key;
        json_t *e;
        json_object_foreach(json_object_get(mb, "variations"), key, e) {
            double fr = ps_json_num(e, "fraction");
            if (isfinite(fr))
                ps_html_kv(out, key, "%.3g of %.3g ACT/s (%.0f%% of the bound)", ps_json_num(e, "act_per_s"),
                           ps_json_num(e, "bound_act_per_s"), fr * 100);
        }
        ps_html_kv_end(out);
    }

    ps_html_heading(out, "Parameters (and where each came from)");
    ps_html_table_begin(out, 4, "parameter", "value", "source", "why");
    const char *key;
    json_object_foreach(json_object_get(doc, "params"), key, p) {
        ps_html_row_begin(out);
        ps_html_cell(out, 0, "%s", key);
        ps_html_cell(out, 0, "%s", json_string_value(json_object_get(p, "value")));
        ps_html_cell(out, 0, "%s", json_string_value(json_object_get(p, "source")));
        const char *why = json_string_value(json_object_get(p, "why"));
        ps_html_cell(out, 0, "%s", why ? why : "");
        ps_html_row_end(out);
    }
    ps_html_table_end(out);
    ps_html_section_end(out);
    return 0;
}
