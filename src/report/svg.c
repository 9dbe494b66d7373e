/* svg.c - the tiny SVG writer (see svg.h). */
#include "report/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "util/util.h"

void ps_svg_begin(FILE *f, double w, double h, const char *label)
{
    fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", f);
    ps_svg_num(f, w);
    fputs("\" height=\"", f);
    ps_svg_num(f, h);
    fputs("\" viewBox=\"0 0 ", f);
    ps_svg_num(f, w);
    fputc(' ', f);
    ps_svg_num(f, h);
    fputs("\" role=\"img\" aria-label=\"", f);
    ps_html_escape(f, label);
    fputs("\" font-size=\"11\">\n", f);
}

void ps_svg_end(FILE *f) { fputs("</svg>\n", f); }

int ps_svg_uid(void)
{
    static int next = 0;
    return ++next;
}

void ps_svg_num(FILE *f, double v)
{
    if (!isfinite(v)) v = 0;
    double r = round(v * 100.0) / 100.0;
    if (r == 0) r = 0; /* no "-0" */
    if (r == floor(r) && fabs(r) < 1e15) {
        fprintf(f, "%.0f", r);
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", r);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0') buf[--n] = 0;
    if (n > 0 && buf[n - 1] == '.') buf[--n] = 0;
    fputs(buf, f);
}

void ps_svg_rect(FILE *f, double x, double y, double w, double h, const char *fill, const char *title)
{
    fputs("<rect x=\"", f);
    ps_svg_num(f, x);
    fputs("\" y=\"", f);
    ps_svg_num(f, y);
    fputs("\" width=\"", f);
    ps_svg_num(f, w);
    fputs("\" height=\"", f);
    ps_svg_num(f, h);
    fprintf(f, "\" fill=\"%s\"", fill);
    if (title) {
        fputs("><title>", f);
        ps_html_escape(f, title);
        fputs("</title></rect>\n", f);
    } else {
        fputs("/>\n", f);
    }
}

void ps_svg_endpoints(FILE *f, double x1, double y1, double x2, double y2)
{
    fputs("x1=\"", f);
    ps_svg_num(f, x1);
    fputs("\" y1=\"", f);
    ps_svg_num(f, y1);
    fputs("\" x2=\"", f);
    ps_svg_num(f, x2);
    fputs("\" y2=\"", f);
    ps_svg_num(f, y2);
    fputc('"', f);
}

void ps_svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width,
                 const char *dash)
{
    fputs("<line ", f);
    ps_svg_endpoints(f, x1, y1, x2, y2);
    fprintf(f, " stroke=\"%s\" stroke-width=\"", stroke);
    ps_svg_num(f, width);
    fputc('"', f);
    if (dash) fprintf(f, " stroke-dasharray=\"%s\"", dash);
    fputs("/>\n", f);
}

void ps_svg_text(FILE *f, double x, double y, const char *anchor, double size, const char *fill,
                 double rotate, const char *fmt, ...)
{
    fputs("<text x=\"", f);
    ps_svg_num(f, x);
    fputs("\" y=\"", f);
    ps_svg_num(f, y);
    fprintf(f, "\" text-anchor=\"%s\" font-size=\"", anchor);
    ps_svg_num(f, size);
    fprintf(f, "\" fill=\"%s\"", fill);
    if (rotate != 0) {
        fputs(" transform=\"rotate(", f);
        ps_svg_num(f, rotate);
        fputc(' ', f);
        ps_svg_num(f, x);
        fputc(' ', f);
        ps_svg_num(f, y);
        fputs(")\"", f);
    }
    fputc('>', f);
    va_list ap;
    va_start(ap, fmt);
    ps_html_vescape(f, fmt, ap);
    va_end(ap);
    fputs("</text>\n", f);
}

void ps_svg_title(FILE *f, const char *fmt, ...)
{
    fputs("<title>", f);
    va_list ap;
    va_start(ap, fmt);
    ps_html_vescape(f, fmt, ap);
    va_end(ap);
    fputs("</title>", f);
}

int ps_svg_ticks(double lo, double hi, int want, double *v, int max)
{
    if (!(hi > lo) || !isfinite(lo) || !isfinite(hi) || want < 1 || max < 1) {
        if (max >= 1 && isfinite(lo)) {
            v[0] = lo;
            return 1;
        }
        return 0;
    }
    double raw = (hi - lo) / want;
    double mag = pow(10.0, floor(log10(raw)));
    double step = mag;
    double r = raw / mag;
    if (r > 5) step = 10 * mag;
    else if (r > 2) step = 5 * mag;
    else if (r > 1) step = 2 * mag;
    int n = 0;
    double first = ceil(lo / step - 1e-9) * step;
    for (double x = first; x <= hi + step * 1e-9 && n < max; x += step) {
        double y = round(x / step) * step;
        v[n++] = (fabs(y) < step * 1e-9) ? 0 : y;
    }
    return n;
}

void ps_svg_time_unit(double seconds, double *scale, const char **name)
{
    double s = fabs(seconds);
    if (s >= 1) *scale = 1, *name = "s";
    else if (s >= 1e-3) *scale = 1e-3, *name = "ms";
    else if (s >= 1e-6) *scale = 1e-6, *name = "\xc2\xb5s";
    else *scale = 1e-9, *name = "ns";
}

void ps_svg_fmt_tick(char *buf, size_t len, double v, double step)
{
    int dec = 0;
    if (step > 0 && step < 1) {
        dec = (int)ceil(-log10(step) - 1e-9);
        if (dec > 9) dec = 9;
    }
    snprintf(buf, len, "%.*f", dec, v);
}

double ps_svg_legend(FILE *f, double x, double y, int n, const char *const *colors, const char *const *names)
{
    double cx = x;
    fputs("<g class=\"legend\">\n", f);
    for (int i = 0; i < n; i++) {
        ps_svg_rect(f, cx, y - 9, 10, 10, colors[i], NULL);
        ps_svg_text(f, cx + 14, y, "start", 11, "#333", 0, "%s", names[i]);
        cx += 22 + 6.5 * (double)strlen(names[i]);
    }
    fputs("</g>\n", f);
    return cx - x;
}

int ps_svg_show_label(int i, int n, int every)
{
    if (every <= 1 || i == n - 1) return 1;
    return i % every == 0 && n - 1 - i >= every;
}
