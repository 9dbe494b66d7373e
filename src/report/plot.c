/* plot.c - a small generic SVG XY plot (see plot.h). */
#include "report/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "util/util.h"

/* Colour-blind-friendly palette (Okabe-Ito), then a few more. */
static const char *const palette[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
                                      "#56b4e9", "#000000", "#f0e442", "#7f7f7f", "#8c564b"};
#define NPALETTE (sizeof palette / sizeof palette[0])

enum { MARGIN_L = 78, MARGIN_R = 18, MARGIN_T = 34, MARGIN_B = 52 };

void ps_plot_init(ps_plot *p, const char *title, const char *xlabel, const char *ylabel)
{
    memset(p, 0, sizeof *p);
    p->title = title;
    p->xlabel = xlabel;
    p->ylabel = ylabel;
    p->width = 640;
    p->height = 400;
}

ps_plot_series *ps_plot_add(ps_plot *p, const char *label, const double *x, const double *y,
                            int n, int style)
{
    if (p->nseries >= PS_PLOT_MAX_SERIES) return NULL;
    ps_plot_series *s = &p->series[p->nseries++];
    memset(s, 0, sizeof *s);
    s->label = label;
    s->x = x;
    s->y = y;
    s->n = n > 0 ? n : 0;
    s->style = style ? style : PS_PLOT_LINE;
    return s;
}

static double nice_step(double x)
{
    if (!(x > 0) || !isfinite(x)) return 1.0;
    double e = floor(log10(x));
    double base = pow(10.0, e);
    double f = x / base;
    double nf = f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0;
    return nf * base;
}

int ps_plot_ticks(double lo, double hi, int logscale, double *ticks, int max)
{
    int n = 0;
    if (!(hi > lo) || max <= 0) return 0;
    if (!logscale) {
        double step = nice_step((hi - lo) / 5.0);
        double k0 = ceil(lo / step - 1e-9), k1 = floor(hi / step + 1e-9);
        for (double k = k0; k <= k1 && n < max; k += 1.0) {
            double t = k * step;
            if (fabs(t) < step * 1e-9) t = 0.0;
            ticks[n++] = t;
        }
        return n;
    }
    if (!(lo > 0)) return 0;
    if (logscale == 2) {
        /* powers of two, at most about ten of them */
        double e0 = ceil(log2(lo) - 1e-9), e1 = floor(log2(hi) + 1e-9);
        int every = (int)ceil((e1 - e0 + 1) / 10.0);
        if (every < 1) every = 1;
        for (double e = e0; e <= e1 && n < max; e += every) ticks[n++] = ldexp(1.0, (int)e);
        if (n < 2 && hi / lo < 4) {
            /* a narrow axis (one processor count): the whole numbers in it */
            n = 0;
            for (double k = ceil(lo - 1e-9); k <= hi + 1e-9 && n < max; k += 1.0) ticks[n++] = k;
        }
        return n;
    }
    double d0 = floor(log10(lo) + 1e-9), d1 = ceil(log10(hi) - 1e-9);
    double decades = log10(hi / lo);
    if (decades < 0.7) {
        /* a narrow logarithmic axis: evenly spaced round values read better */
        double step = nice_step((hi - lo) / 4.0);
        for (double k = ceil(lo / step - 1e-9); k * step <= hi * (1 + 1e-9) && n < max; k += 1.0)
            if (k * step > 0) ticks[n++] = k * step;
        return n;
    }
    static const double sub[] = {1.0, 2.0, 5.0};
    int every = decades > 12 ? (int)ceil(decades / 8.0) : 1;
    for (double d = d0; d <= d1 && n < max; d += 1.0) {
        for (int i = 0; i < (decades <= 2.0 ? 3 : 1) && n < max; i++) {
            if (i == 0 && every > 1 && fmod(d - d0, every) != 0) continue;
            double t = sub[i] * pow(10.0, d);
            if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9)) ticks[n++] = t;
        }
    }
    return n;
}

static int usable(double v, int logscale)
{
    return isfinite(v) && (!logscale || v > 0);
}

/* The axis range: data extent widened to nice bounds. */
static int axis_range(const ps_plot *p, int yaxis, double *lo, double *hi)
{
    int lg = yaxis ? p->ylog : p->xlog;
    double a = INFINITY, b = -INFINITY;
    for (int s = 0; s < p->nseries; s++) {
        const ps_plot_series *se = &p->series[s];
        for (int i = 0; i < se->n; i++) {
            double x = se->x[i], y = se->y[i];
            if (!usable(x, p->xlog) || !usable(y, p->ylog)) continue;
            double v = yaxis ? y : x;
            if (v < a) a = v;
            if (v > b) b = v;
            /* error bars count on the y axis where they can be drawn */
            if (yaxis && se->ylo && usable(se->ylo[i], p->ylog) && se->ylo[i] < a) a = se->ylo[i];
            if (yaxis && se->yhi && usable(se->yhi[i], p->ylog) && se->yhi[i] > b) b = se->yhi[i];
        }
    }
    if (!(a <= b)) return -1;
    if (lg) {
        /* one value: a narrow axis around it (its own tick), not one that
         * suggests data where there is none */
        if (b / a < 1.0001) {
            *lo = a / 1.25;
            *hi = b * 1.25;
            return 0;
        }
        if (lg == 2) {
            /* powers of two at the ends when they are close to the data */
            double pa = ldexp(1.0, (int)floor(log2(a) + 1e-9)), pb = ldexp(1.0, (int)ceil(log2(b) - 1e-9));
            double span = log2(b / a);
            *lo = log2(a / pa) <= 0.15 * span ? pa : a / pow(2, 0.04 * span);
            *hi = log2(pb / b) <= 0.15 * span ? pb : b * pow(2, 0.04 * span);
            return 0;
        }
        double decades = log10(b / a);
        /* ends at 1, 2 or 5 times a power of ten, when that adds little */
        static const double m[] = {1, 2, 5, 10};
        double e = floor(log10(a) + 1e-9), na = a, nb = b;
        for (int k = 2; k >= 0; k--)
            if (m[k] * pow(10, e) <= a * (1 + 1e-9)) {
                na = m[k] * pow(10, e);
                break;
            }
        e = floor(log10(b) - 1e-9);
        for (int k = 1; k <= 3; k++)
            if (m[k] * pow(10, e) >= b * (1 - 1e-9)) {
                nb = m[k] * pow(10, e);
                break;
            }
        double pad = decades * 0.05;
        a = log10(a / na) <= 0.2 * decades ? na : a / pow(10, pad);
        b = log10(nb / b) <= 0.2 * decades ? nb : b * pow(10, pad);
    } else {
        if (b - a < 1e-300 + fabs(b) * 1e-9) {
            double d = a != 0 ? fabs(a) * 0.1 : 1.0;
            a -= d;
            b += d;
        }
        /* a linear axis of non-negative data starts at zero when that costs little */
        if (a > 0 && a < (b - a) * 0.5) a = 0;
        double step = nice_step((b - a) / 5.0);
        a = floor(a / step + 1e-9) * step;
        b = ceil(b / step - 1e-9) * step;
    }
    *lo = a;
    *hi = b;
    return 0;
}

typedef struct frame {
    double x0, x1, y0, y1;   /* data range */
    double px, py, pw, ph;   /* plot area in pixels */
    int xlog, ylog;
} frame;

static double map_x(const frame *f, double v)
{
    double t = f->xlog ? (log10(v) - log10(f->x0)) / (log10(f->x1) - log10(f->x0))
                       : (v - f->x0) / (f->x1 - f->x0);
    return f->px + t * f->pw;
}

static double map_y(const frame *f, double v)
{
    double t = f->ylog ? (log10(v) - log10(f->y0)) / (log10(f->y1) - log10(f->y0))
                       : (v - f->y0) / (f->y1 - f->y0);
    return f->py + f->ph - t * f->ph;
}

static void tick_label(char *buf, size_t len, ps_plot_fmt fmt, double v)
{
    if (fmt) fmt(buf, len, v);
    else snprintf(buf, len, "%.3g", v);
}

static void marker(FILE *out, int shape, double x, double y, const char *color)
{
    switch (shape % 3) {
    case 0:
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", x, y, color);
        break;
    case 1:
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" fill=\"%s\"/>", x - 3, y - 3,
                color);
        break;
    default:
        fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>", x, y - 4, x + 4, y + 3,
                x - 4, y + 3, color);
        break;
    }
}

/* The corner of the frame for a legend box of w x h whose box covers the
 * fewest data: markers, and points sampled along each line.  Top left
 * wins ties, so a legend stays where it always was unless it hides data.
 * Returns how many data samples the chosen corner still covers. */
static int legend_corner(const ps_plot *p, const frame *f, double w, double h, double *lx, double *ly)
{
    const double cx[4] = {f->px + 8, f->px + f->pw - 8 - w, f->px + 8, f->px + f->pw - 8 - w};
    const double cy[4] = {f->py + 8, f->py + 8, f->py + f->ph - 8 - h, f->py + f->ph - 8 - h};
    int best = 0, hits[4] = {0, 0, 0, 0};
    for (int c = 0; c < 4; c++) {
        for (int s = 0; s < p->nseries; s++) {
            const ps_plot_series *se = &p->series[s];
            double x0 = NAN, y0 = NAN;
            for (int i = 0; i < se->n; i++) {
                if (!usable(se->x[i], f->xlog) || !usable(se->y[i], f->ylog)) {
                    x0 = NAN;
                    continue;
                }
                double x1 = map_x(f, se->x[i]), y1 = map_y(f, se->y[i]);
                /* the point itself, and 16 samples of the segment to it */
                int steps = (se->style & PS_PLOT_LINE) && isfinite(x0) ? 16 : 0;
                for (int k = 0; k <= steps; k++) {
                    double x = steps ? x0 + (x1 - x0) * k / steps : x1, y = steps ? y0 + (y1 - y0) * k / steps : y1;
                    hits[c] += x >= cx[c] - 4 && x <= cx[c] + w + 4 && y >= cy[c] - 4 && y <= cy[c] + h + 4;
                }
                x0 = x1;
                y0 = y1;
            }
        }
        if (hits[c] < hits[best]) best = c;
    }
    *lx = cx[best];
    *ly = cy[best];
    return hits[best];
}

int ps_plot_svg(const ps_plot *p, FILE *out)
{
    static int counter;
    int id = ++counter;
    int W = p->width > 0 ? p->width : 640, H = p->height > 0 ? p->height : 400;
    frame f = {0};
    f.xlog = p->xlog;
    f.ylog = p->ylog;
    f.px = MARGIN_L;
    f.py = MARGIN_T;
    f.pw = W - MARGIN_L - MARGIN_R;
    f.ph = H - MARGIN_T - MARGIN_B;

    int have = axis_range(p, 0, &f.x0, &f.x1) == 0 && axis_range(p, 1, &f.y0, &f.y1) == 0;
    /* the legend: inside the frame where it hides no data, else below the plot */
    int nl = 0;
    size_t longest = 0;
    for (int s = 0; s < p->nseries; s++)
        if (p->series[s].label && *p->series[s].label) {
            nl++;
            if (strlen(p->series[s].label) > longest) longest = strlen(p->series[s].label);
        }
    double lw = 36 + 6.2 * (double)longest, lh = 16 * nl + 6, lx = f.px + 8, ly = f.py + 8;
    int Htot = H;
    if (have && nl && legend_corner(p, &f, lw, lh, &lx, &ly) > 0) {
        lx = f.px;
        ly = H + 2;
        Htot = H + (int)lh + 8;
    }
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                 "font-family=\"sans-serif\" font-size=\"11\" role=\"img\" class=\"plot\">\n", W, Htot, W, Htot);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, Htot);
    if (p->title) {
        fprintf(out, "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">", W / 2);
        ps_html_escape(out, p->title);
        fputs("</text>\n", out);
    }
    fprintf(out, "<rect class=\"frame\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#444\"/>\n",
            f.px, f.py, f.pw, f.ph);
    if (!have) {
        fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" fill=\"#888\">no data</text>\n",
                f.px + f.pw / 2, f.py + f.ph / 2);
    } else {
        double t[64];
        char buf[64];
        int nt = ps_plot_ticks(f.x0, f.x1, f.xlog, t, 64);
        for (int i = 0; i < nt; i++) {
            double x = map_x(&f, t[i]);
            fprintf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>", x, f.py, x,
                    f.py + f.ph);
            tick_label(buf, sizeof buf, p->xfmt, t[i]);
            fprintf(out, "<text class=\"xtick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">", x, f.py + f.ph + 15);
            ps_html_escape(out, buf);
            fputs("</text>\n", out);
        }
        nt = ps_plot_ticks(f.y0, f.y1, f.ylog, t, 64);
        for (int i = 0; i < nt; i++) {
            double y = map_y(&f, t[i]);
            fprintf(out, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>", f.px, y,
                    f.px + f.pw, y);
            tick_label(buf, sizeof buf, p->yfmt, t[i]);
            fprintf(out, "<text class=\"ytick\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", f.px - 5, y + 4);
            ps_html_escape(out, buf);
            fputs("</text>\n", out);
        }
        fprintf(out, "<clipPath id=\"psplot%d\"><rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"/></clipPath>\n",
                id, f.px - 4, f.py - 4, f.pw + 8, f.ph + 8);
        /* error bars first, in a group of their own: under the markers, and
         * their caps (3 px either side) are no data positions */
        fprintf(out, "<g class=\"errorbars\" clip-path=\"url(#psplot%d)\">\n", id);
        for (int s = 0; s < p->nseries; s++) {
            const ps_plot_series *se = &p->series[s];
            const char *color = se->color ? se->color : palette[s % NPALETTE];
            if (se->ylo && se->yhi) {
                for (int i = 0; i < se->n; i++) {
                    if (!usable(se->x[i], f.xlog) || !usable(se->ylo[i], f.ylog) || !usable(se->yhi[i], f.ylog))
                        continue;
                    double x = map_x(&f, se->x[i]), y0 = map_y(&f, se->ylo[i]), y1 = map_y(&f, se->yhi[i]);
                    fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1\" d=\"M%.1f %.1fL%.1f %.1f"
                                 "M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\"/>",
                            color, x, y0, x, y1, x - 3, y0, x + 3, y0, x - 3, y1, x + 3, y1);
                }
                fputc('\n', out);
            }
        }
        fputs("</g>\n", out);
        fprintf(out, "<g class=\"data\" clip-path=\"url(#psplot%d)\">\n", id);
        for (int s = 0; s < p->nseries; s++) {
            const ps_plot_series *se = &p->series[s];
            const char *color = se->color ? se->color : palette[s % NPALETTE];
            if (se->style & PS_PLOT_LINE) {
                fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s d=\"", color,
                        (se->style & PS_PLOT_DASHED) ? " stroke-dasharray=\"6 4\"" : "");
                int pen = 0;
                for (int i = 0; i < se->n; i++) {
                    if (!usable(se->x[i], f.xlog) || !usable(se->y[i], f.ylog)) { pen = 0; continue; }
                    fprintf(out, "%c%.1f %.1f", pen ? 'L' : 'M', map_x(&f, se->x[i]), map_y(&f, se->y[i]));
                    pen = 1;
                }
                fputs("\"/>\n", out);
            }
            if (se->style & PS_PLOT_POINTS) {
                for (int i = 0; i < se->n; i++) {
                    if (!usable(se->x[i], f.xlog) || !usable(se->y[i], f.ylog)) continue;
                    marker(out, se->shape > 0 ? se->shape - 1 : s, map_x(&f, se->x[i]), map_y(&f, se->y[i]), color);
                }
                fputc('\n', out);
            }
        }
        fputs("</g>\n", out);
        /* the legend where it was placed above: a corner of the frame, or below the plot */
        if (nl) {
            fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbb\"/>\n",
                    lx, ly, lw, lh);
            int k = 0;
            for (int s = 0; s < p->nseries; s++) {
                const ps_plot_series *se = &p->series[s];
                if (!se->label || !*se->label) continue;
                const char *color = se->color ? se->color : palette[s % NPALETTE];
                double yy = ly + 14 + 16 * k++;
                if (se->style & PS_PLOT_LINE)
                    fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"1.6\"%s/>",
                            lx + 4, yy - 4, lx + 26, yy - 4, color,
                            (se->style & PS_PLOT_DASHED) ? " stroke-dasharray=\"6 4\"" : "");
                if (se->style & PS_PLOT_POINTS) marker(out, se->shape > 0 ? se->shape - 1 : s, lx + 15, yy - 4, color);
                fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">", lx + 31, yy);
                ps_html_escape(out, se->label);
                fputs("</text>\n", out);
            }
        }
    }
    if (p->xlabel) {
        fprintf(out, "<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">", f.px + f.pw / 2, H - 12);
        ps_html_escape(out, p->xlabel);
        fputs("</text>\n", out);
    }
    if (p->ylabel) {
        fprintf(out, "<text x=\"14\" y=\"%.0f\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 14 %.0f)\">",
                f.py + f.ph / 2, f.py + f.ph / 2);
        ps_html_escape(out, p->ylabel);
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}

static int plot_file(FILE *f, void *ctx)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    return ps_plot_svg(ctx, f);
}

int ps_plot_write(const ps_plot *p, const char *path, char *err, size_t errlen)
{
    return ps_write_formatted(path, plot_file, (void *)p, err, errlen);
}
