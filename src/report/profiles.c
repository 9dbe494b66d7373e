/* profiles.c - utilisation, concurrency, per-rank bars, communication matrix
 * and message sizes as SVG (see profiles.h). */
#include "report/profiles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/svg.h"
#include "util/util.h"

void ps_profile_utilisation(const ps_timeline *tl, int nbins, double *out)
{
    memset(out, 0, (size_t)nbins * PS_ACT__COUNT * sizeof *out);
    double span = tl->t1 - tl->t0;
    if (!(span > 0) || nbins <= 0) return;
    double dt = span / nbins;
    for (int r = 0; r < tl->nranks; r++) {
        for (size_t i = 0; i < tl->nseg[r]; i++) {
            const ps_segment *s = &tl->seg[r][i];
            int b0 = (int)floor((s->t0 - tl->t0) / dt), b1 = (int)floor((s->t1 - tl->t0) / dt);
            if (b0 < 0) b0 = 0;
            if (b1 >= nbins) b1 = nbins - 1;
            for (int b = b0; b <= b1; b++) {
                double a = tl->t0 + b * dt, z = a + dt;
                double x = s->t0 > a ? s->t0 : a, y = s->t1 < z ? s->t1 : z;
                if (y > x) out[(size_t)b * PS_ACT__COUNT + s->act] += (y - x) / dt;
            }
        }
    }
}

void ps_profile_concurrency(const ps_timeline *tl, double *out)
{
    memset(out, 0, ((size_t)tl->nranks + 1) * sizeof *out);
    size_t n = 0;
    for (int r = 0; r < tl->nranks; r++)
        for (size_t i = 0; i < tl->nseg[r]; i++) n += tl->seg[r][i].act == PS_ACT_BUSY ? 2 : 0;
    ps_count_step *c = ps_xmalloc((n ? n : 1) * sizeof *c);
    n = 0;
    for (int r = 0; r < tl->nranks; r++)
        for (size_t i = 0; i < tl->nseg[r]; i++)
            if (tl->seg[r][i].act == PS_ACT_BUSY) {
                c[n++] = (ps_count_step){tl->seg[r][i].t0, +1};
                c[n++] = (ps_count_step){tl->seg[r][i].t1, -1};
            }
    ps_sort_count_steps(c, n);
    int busy = 0;
    double prev = tl->t0;
    for (size_t i = 0; i < n; i++) {
        if (c[i].t > prev) {
            out[busy < 0 ? 0 : busy > tl->nranks ? tl->nranks : busy] += c[i].t - prev;
            prev = c[i].t;
        }
        busy += c[i].d;
    }
    if (tl->t1 > prev) out[0] += tl->t1 - prev;
    free(c);
}

void ps_comm_matrix(const ps_trace *t, uint64_t *bytes, uint64_t *count)
{
    size_t P = (size_t)t->nranks;
    if (bytes) memset(bytes, 0, P * P * sizeof *bytes);
    if (count) memset(count, 0, P * P * sizeof *count);
    for (size_t r = 0; r < P; r++)
        for (size_t i = 0; i < t->rank[r].n; i++) {
            const ps_event *e = &t->rank[r].ev[i];
            if (e->kind != PS_EV_SEND || ps_tag_runtime(e->tag) || e->peer < 0 || (size_t)e->peer >= P) continue;
            if (bytes) bytes[r * P + (size_t)e->peer] += e->bytes;
            if (count) count[r * P + (size_t)e->peer]++;
        }
}

static int size_class(uint64_t b)
{
    int k = 0;
    while (b) {
        k++;
        b >>= 1;
    }
    return k;
}

void ps_message_sizes(const ps_trace *t, uint64_t hist[PS_SIZE_CLASSES])
{
    memset(hist, 0, PS_SIZE_CLASSES * sizeof *hist);
    for (int r = 0; r < t->nranks; r++)
        for (size_t i = 0; i < t->rank[r].n; i++)
            if (t->rank[r].ev[i].kind == PS_EV_SEND && !ps_tag_runtime(t->rank[r].ev[i].tag)) hist[size_class(t->rank[r].ev[i].bytes)]++;
}

/* ---- drawing helpers ------------------------------------------------------ */

typedef struct frame {
    double left, top, w, h;
} frame;

static void y_axis(FILE *f, const frame *fr, double lo, double hi, const char *label, const char *suffix)
{
    double ticks[16];
    int n = ps_svg_ticks(lo, hi, 5, ticks, 16);
    double step = n > 1 ? ticks[1] - ticks[0] : 1;
    for (int i = 0; i < n; i++) {
        double y = fr->top + fr->h - (ticks[i] - lo) / (hi - lo) * fr->h;
        char lab[32];
        ps_svg_fmt_tick(lab, sizeof lab, ticks[i], step);
        ps_svg_line(f, fr->left, y, fr->left + fr->w, y, "#e6e6e6", 1, NULL);
        ps_svg_text(f, fr->left - 5, y + 4, "end", 10, "#333", 0, "%s%s", lab, suffix);
    }
    ps_svg_text(f, 12, fr->top + fr->h / 2, "middle", 11, "#222", -90, "%s", label);
}

static void time_axis(FILE *f, const frame *fr, double span)
{
    double scale;
    const char *unit;
    ps_svg_time_unit(span, &scale, &unit);
    double ticks[32];
    int n = ps_svg_ticks(0, span / scale, 8, ticks, 32);
    double step = n > 1 ? ticks[1] - ticks[0] : 1;
    for (int i = 0; i < n; i++) {
        double x = fr->left + ticks[i] * scale / span * fr->w;
        char lab[32];
        ps_svg_fmt_tick(lab, sizeof lab, ticks[i], step);
        ps_svg_line(f, x, fr->top + fr->h, x, fr->top + fr->h + 4, "#333", 1, NULL);
        ps_svg_text(f, x, fr->top + fr->h + 16, "middle", 10, "#333", 0, "%s", lab);
    }
    ps_svg_text(f, fr->left + fr->w / 2, fr->top + fr->h + 32, "middle", 11, "#222", 0, "time since start (%s)", unit);
}

/* The axis maximum: v rounded up to the tick step, so bars stay inside. */
static double nice_max(double v)
{
    if (!(v > 0)) return 1;
    double t[16];
    int n = ps_svg_ticks(0, v, 5, t, 16);
    double step = n > 1 ? t[1] - t[0] : v;
    return ceil(v / step - 1e-9) * step;
}

static void act_legend(FILE *f, double x, double y)
{
    ps_svg_legend(f, x, y, PS_ACT__COUNT, ps_act_color, ps_act_name);
}

/* ---- utilisation over time ------------------------------------------------ */

void ps_profile_utilisation_svg(FILE *f, const ps_timeline *tl, double width)
{
    int nb = PS_PROFILE_BINS;
    double *u = ps_xmalloc((size_t)nb * PS_ACT__COUNT * sizeof *u);
    ps_profile_utilisation(tl, nb, u);
    frame fr = {54, 16, width - 54 - 20, 200};
    double H = fr.top + fr.h + 62, P = tl->nranks;
    double span = tl->t1 - tl->t0 > 0 ? tl->t1 - tl->t0 : 1e-9;
    ps_svg_begin(f, width, H, "utilisation over time");
    y_axis(f, &fr, 0, P, "ranks", "");
    /* one closed step path per class, stacked busy, overhead, idle */
    for (int c = 0; c < PS_ACT__COUNT; c++) {
        fprintf(f, "<path class=\"util-%s\" fill=\"%s\" d=\"", ps_act_name[c], ps_act_color[c]);
        for (int pass = 0; pass < 2; pass++) { /* upper edge forward, lower edge back */
            for (int k = 0; k < nb; k++) {
                int b = pass ? nb - 1 - k : k;
                double lo = 0;
                for (int j = 0; j < c; j++) lo += u[(size_t)b * 3 + j];
                double hi = lo + u[(size_t)b * 3 + c];
                double v = pass ? lo : hi;
                double y = fr.top + fr.h - v / P * fr.h;
                double xa = fr.left + (double)b / nb * fr.w, xb = fr.left + (double)(b + 1) / nb * fr.w;
                fputs(k == 0 && pass == 0 ? "M" : "L", f);
                ps_svg_num(f, pass ? xb : xa);
                fputc(',', f);
                ps_svg_num(f, y);
                fputc('L', f);
                ps_svg_num(f, pass ? xa : xb);
                fputc(',', f);
                ps_svg_num(f, y);
            }
        }
        fputs("Z\"/>\n", f);
    }
    time_axis(f, &fr, span);
    act_legend(f, fr.left, H - 8);
    ps_svg_end(f);
    free(u);
}

/* ---- concurrency profile -------------------------------------------------- */

void ps_profile_concurrency_svg(FILE *f, const ps_timeline *tl, double width)
{
    int P = tl->nranks;
    double *c = ps_xmalloc(((size_t)P + 1) * sizeof *c);
    ps_profile_concurrency(tl, c);
    double span = tl->t1 - tl->t0 > 0 ? tl->t1 - tl->t0 : 1e-9, top = 0;
    for (int k = 0; k <= P; k++)
        if (100 * c[k] / span > top) top = 100 * c[k] / span;
    double ymax = nice_max(top);
    frame fr = {54, 16, width - 54 - 20, 180};
    double H = fr.top + fr.h + 44;
    ps_svg_begin(f, width, H, "concurrency profile");
    y_axis(f, &fr, 0, ymax, "% of time", "%");
    double bw = fr.w / (P + 1);
    int every = (int)ceil(22.0 / bw);
    for (int k = 0; k <= P; k++) {
        double pct = 100 * c[k] / span, h = pct / ymax * fr.h;
        double x = fr.left + k * bw;
        char tip[96];
        snprintf(tip, sizeof tip, "%d ranks busy: %.1f%% of the time", k, pct);
        ps_svg_rect(f, x + bw * 0.1, fr.top + fr.h - h, bw * 0.8, h, PS_COLOR_BUSY, tip);
        if (k % every == 0 || k == P) ps_svg_text(f, x + bw / 2, fr.top + fr.h + 14, "middle", 10, "#333", 0, "%d", k);
    }
    ps_svg_text(f, fr.left + fr.w / 2, fr.top + fr.h + 32, "middle", 11, "#222", 0, "ranks busy at once");
    ps_svg_end(f);
    free(c);
}

/* ---- per-rank utilisation bars ------------------------------------------- */

void ps_rank_bars_svg(FILE *f, const ps_timeline *tl, double width)
{
    int P = tl->nranks;
    double bar = 300.0 / P;
    if (bar > 18) bar = 18;
    if (bar < 4) bar = 4;
    frame fr = {54, 10, width - 54 - 20, bar * P};
    double H = fr.top + fr.h + 56;
    ps_svg_begin(f, width, H, "utilisation per rank");
    int every = (int)ceil(12.0 / bar); /* labels at least 12 px apart, none below 10 px */
    for (int r = 0; r < P; r++) {
        const double *tot = &tl->total[(size_t)r * PS_ACT__COUNT];
        double all = tot[0] + tot[1] + tot[2], x = fr.left, y = fr.top + r * bar;
        if (ps_svg_show_label(r, P, every))
            ps_svg_text(f, fr.left - 6, y + bar / 2 + 4, "end", 10, "#333", 0, "%d", r);
        if (!(all > 0)) continue;
        for (int c = 0; c < PS_ACT__COUNT; c++) {
            double w = tot[c] / all * fr.w;
            char tip[96];
            snprintf(tip, sizeof tip, "rank %d %s: %.1f%%", r, ps_act_name[c], 100 * tot[c] / all);
            if (w > 0) ps_svg_rect(f, x, y + bar * 0.1, w, bar * 0.8, ps_act_color[c], tip);
            x += w;
        }
    }
    for (int p = 0; p <= 100; p += 20) {
        double x = fr.left + p / 100.0 * fr.w;
        ps_svg_line(f, x, fr.top + fr.h, x, fr.top + fr.h + 4, "#333", 1, NULL);
        ps_svg_text(f, x, fr.top + fr.h + 16, "middle", 10, "#333", 0, "%d%%", p);
    }
    ps_svg_text(f, 12, fr.top + fr.h / 2, "middle", 11, "#222", -90, "rank");
    act_legend(f, fr.left, H - 8);
    ps_svg_end(f);
}

/* ---- communication matrix ------------------------------------------------- */

/* "1.47 KiB" in at most 3 digits, to fit a cell */
static void short_bytes(char *b, size_t n, double v)
{
    if (v < 1024) snprintf(b, n, "%.0f B", v);
    else if (v < 1048576) snprintf(b, n, "%.3g KiB", v / 1024);
    else if (v < 1073741824) snprintf(b, n, "%.3g MiB", v / 1048576);
    else snprintf(b, n, "%.3g GiB", v / 1073741824);
}

void ps_comm_matrix_svg(FILE *f, const ps_trace *t, double width)
{
    size_t P = (size_t)t->nranks;
    uint64_t *bytes = ps_xmalloc(P * P * sizeof *bytes), *count = ps_xmalloc(P * P * sizeof *count);
    ps_comm_matrix(t, bytes, count);
    uint64_t max = 0;
    for (size_t i = 0; i < P * P; i++)
        if (bytes[i] > max) max = bytes[i];
    double avail = width - 60 - 20;
    if (avail > 520) avail = 520;
    double cell = avail / (double)P;
    /* large enough cells carry their bytes in 10 px type; the tooltip has them always */
    if (cell > 60) cell = 60;
    double left = 60, top = 34, side = cell * (double)P;
    double H = top + side + 40;
    if (H < top + 150) H = top + 150; /* room for the colour scale */
    ps_svg_begin(f, left + side + 170, H, "communication matrix");
    ps_svg_text(f, left + side / 2, 14, "middle", 12, "#222", 0, "receiver");
    ps_svg_text(f, 16, top + side / 2, "middle", 12, "#222", -90, "sender");
    ps_svg_rect(f, left, top, side, side, "#f7f7f9", NULL);
    int every = (int)ceil(14.0 / cell); /* rank labels at least 14 px apart, none below 10 px */
    for (size_t i = 0; i < P; i++) {
        if (!ps_svg_show_label((int)i, (int)P, every)) continue;
        ps_svg_text(f, left + (i + 0.5) * cell, top - 6, "middle", 10, "#333", 0, "%zu", i);
        ps_svg_text(f, left - 6, top + (i + 0.5) * cell + 4, "end", 10, "#333", 0, "%zu", i);
    }
    for (size_t i = 0; i < P; i++)
        for (size_t j = 0; j < P; j++) {
            uint64_t b = bytes[i * P + j], n = count[i * P + j];
            if (!n) continue;
            /* square-root scale so small flows stay visible next to big ones */
            double s = max ? sqrt((double)b / (double)max) : 0;
            char fill[40], tip[128], bb[32];
            int lvl = (int)(235 - s * 200);
            snprintf(fill, sizeof fill, "rgb(%d,%d,%d)", lvl - 40 < 0 ? 0 : lvl - 40, lvl - 20, 245);
            ps_fmt_bytes(bb, sizeof bb, (double)b);
            snprintf(tip, sizeof tip, "%zu \xe2\x86\x92 %zu: %llu messages, %s", i, j, (unsigned long long)n, bb);
            ps_svg_rect(f, left + j * cell, top + i * cell, cell, cell, fill, tip);
            if (cell >= 56) {
                char sb[32];
                short_bytes(sb, sizeof sb, (double)b);
                ps_svg_text(f, left + (j + 0.5) * cell, top + (i + 0.5) * cell + 4, "middle", 10,
                            s > 0.6 ? "#fff" : "#111", 0, "%s", sb);
            }
        }
    /* scale */
    char mx[32];
    ps_fmt_bytes(mx, sizeof mx, (double)max);
    double sx = left + side + 20;
    for (int k = 0; k < 10; k++) {
        double s = (9 - k) / 9.0;
        int lvl = (int)(235 - s * 200);
        char fill[32];
        snprintf(fill, sizeof fill, "rgb(%d,%d,%d)", lvl - 40 < 0 ? 0 : lvl - 40, lvl - 20, 245);
        ps_svg_rect(f, sx, top + k * 12, 14, 12, fill, NULL);
    }
    ps_svg_text(f, sx + 20, top + 10, "start", 11, "#333", 0, "%s", mx);
    ps_svg_text(f, sx + 20, top + 118, "start", 11, "#333", 0, "0 B");
    ps_svg_text(f, sx, top + 138, "start", 11, "#555", 0, "bytes sent (\xe2\x88\x9a scale)");
    ps_svg_end(f);
    free(bytes);
    free(count);
}

/* ---- message sizes -------------------------------------------------------- */

void ps_message_sizes_svg(FILE *f, const ps_trace *t, double width)
{
    uint64_t h[PS_SIZE_CLASSES];
    ps_message_sizes(t, h);
    int lo = -1, hi = -1;
    uint64_t max = 0;
    for (int k = 0; k < PS_SIZE_CLASSES; k++)
        if (h[k]) {
            if (lo < 0) lo = k;
            hi = k;
            if (h[k] > max) max = h[k];
        }
    frame fr = {54, 16, width - 54 - 20, 160};
    double H = fr.top + fr.h + 48;
    ps_svg_begin(f, width, H, "message sizes");
    if (lo < 0) {
        ps_svg_text(f, fr.left + fr.w / 2, fr.top + fr.h / 2, "middle", 12, "#555", 0, "no messages");
        ps_svg_end(f);
        return;
    }
    double ymax = nice_max((double)max);
    y_axis(f, &fr, 0, ymax, "messages", "");
    int nb = hi - lo + 1;
    double bw = fr.w / nb;
    if (bw > 60) bw = 60;
    for (int k = lo; k <= hi; k++) {
        double x = fr.left + (k - lo) * bw, hh = (double)h[k] / ymax * fr.h;
        char lab[32], tip[96];
        if (k == 0) snprintf(lab, sizeof lab, "0 B");
        else ps_fmt_bytes(lab, sizeof lab, ldexp(1.0, k - 1));
        snprintf(tip, sizeof tip, "%s%s: %llu messages", k ? "from " : "", lab, (unsigned long long)h[k]);
        if (h[k]) ps_svg_rect(f, x + bw * 0.1, fr.top + fr.h - hh, bw * 0.8, hh, PS_COLOR_MESSAGE, tip);
        if (bw >= 44 || (k - lo) % (int)ceil(44 / bw) == 0)
            ps_svg_text(f, x + bw / 2, fr.top + fr.h + 14, "middle", 10, "#333", 0, "%s", lab);
    }
    ps_svg_text(f, fr.left + fr.w / 2, fr.top + fr.h + 32, "middle", 11, "#222", 0,
                "message size (class from 2^k bytes to just below 2^(k+1))");
    ps_svg_end(f);
}
