/*
 * plot.h - a small generic SVG XY plot: several series of lines and/or
 * points, linear or logarithmic axes with "nice" ticks, legend, title and
 * axis labels.  The output is one <svg> element (inline in HTML) or a
 * standalone .svg file.  Used by probe, scale and the report.
 *
 *   ps_plot p;
 *   ps_plot_init(&p, "Ping-pong time", "message size", "time");
 *   p.xlog = p.ylog = 1;
 *   p.xfmt = ps_fmt_bytes;  p.yfmt = ps_fmt_time;     (tick labels; NULL = %g)
 *   ps_plot_add(&p, "measured", x, y, n, PS_PLOT_POINTS);
 *   ps_plot_add(&p, "Hockney fit", x, yfit, n, PS_PLOT_LINE | PS_PLOT_DASHED);
 *   s = ps_plot_add(...); s->ylo = lo; s->yhi = hi;     (error bars, optional)
 *   ps_plot_write(&p, "time.svg", err, sizeof err);   (or ps_plot_svg(&p, FILE*))
 *
 * The plot keeps pointers to the data and the strings; they must live until
 * the plot is written.  Points that are NaN/infinite, or not positive on a log
 * axis, are skipped (and break a line).  Text is XML-escaped.
 */
#ifndef PS_PLOT_H
#define PS_PLOT_H

#include <stddef.h>
#include <stdio.h>

#define PS_PLOT_MAX_SERIES 12

/* Series styles (combine with |). */
enum {
    PS_PLOT_LINE = 1,     /* connect points in the given order */
    PS_PLOT_POINTS = 2,   /* a marker at each point */
    PS_PLOT_DASHED = 4    /* dashed line (fits, models) */
};

/* Tick label formatter: same signature as ps_fmt_time / ps_fmt_bytes (util.h). */
typedef void (*ps_plot_fmt)(char *buf, size_t len, double v);

typedef struct ps_plot_series {
    const char   *label;      /* legend text; NULL or "" = not in the legend */
    const double *x, *y;
    int           n;
    int           style;      /* PS_PLOT_* */
    const char   *color;      /* CSS colour; NULL = the palette's next colour */
    const double *ylo, *yhi;  /* error bars from ylo[i] to yhi[i] (both, or NULL: none); a
                                 bar whose ends cannot be drawn (NaN) is left out */
    int           shape;      /* marker: 0 by the series' place, k > 0 the k-th shape (one per
                                 machine on every figure of a page) */
} ps_plot_series;

typedef struct ps_plot {
    const char *title, *xlabel, *ylabel;
    int         width, height;      /* pixels; defaults 640 x 400 */
    int         xlog, ylog;         /* 0 linear; 1 logarithmic with ticks at powers of ten;
                                       2 logarithmic with ticks at powers of two (bytes) */
    ps_plot_fmt xfmt, yfmt;         /* tick labels; NULL = %g */
    int         nseries;
    ps_plot_series series[PS_PLOT_MAX_SERIES];
} ps_plot;

/* Zeroes the plot and sets the texts (any may be NULL) and default size. */
void ps_plot_init(ps_plot *p, const char *title, const char *xlabel, const char *ylabel);

/* Adds a series; returns it (to set .color), or NULL when the plot is full. */
ps_plot_series *ps_plot_add(ps_plot *p, const char *label, const double *x, const double *y,
                            int n, int style);

/* Writes the <svg> element to out.  An empty plot (no drawable point) still
 * writes a frame with "no data".  0, or -1 on a write error. */
int ps_plot_svg(const ps_plot *p, FILE *out);

/* Writes a standalone SVG file (XML prolog + the element) atomically.
 * 0, or -1 with err naming the path. */
int ps_plot_write(const ps_plot *p, const char *path, char *err, size_t errlen);

/* Tick positions for an axis range (exposed for tests): linear ticks at
 * 1, 2 or 5 times a power of ten; log ticks at powers of ten (with 2 and 5
 * in between when the range spans few decades); logscale 2: powers of two
 * (every k-th so that about ten remain).  Returns the count (<= max). */
int ps_plot_ticks(double lo, double hi, int logscale, double *ticks, int max);

#endif
