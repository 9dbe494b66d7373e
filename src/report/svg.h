/*
 * svg.h - a tiny SVG writer: every picture parscope draws (space-time
 * diagram, profiles, bars, matrices, histograms) goes through it, so the
 * output is well-formed XML with all text escaped.
 *
 * Coordinates are user units (pixels at 100%); numbers are written with at
 * most two decimals.  Several SVGs may sit in one HTML page: ps_svg_uid()
 * gives ids that do not collide (for markers and gradients).
 */
#ifndef PS_SVG_H
#define PS_SVG_H

#include <stdio.h>

/* <svg xmlns=... width height viewBox role="img" aria-label=LABEL> */
void ps_svg_begin(FILE *f, double w, double h, const char *label);
void ps_svg_end(FILE *f);
/* A process-unique small integer for element ids. */
int ps_svg_uid(void);

/* A number in compact form ("12", "12.5", "12.25"). */
void ps_svg_num(FILE *f, double v);

/* Shapes.  fill / stroke are CSS colours (not escaped: pass constants);
 * title (escaped, may be NULL) becomes a hover tooltip. */
void ps_svg_rect(FILE *f, double x, double y, double w, double h, const char *fill, const char *title);
/* The attributes x1="..." y1="..." x2="..." y2="..." of a line. */
void ps_svg_endpoints(FILE *f, double x1, double y1, double x2, double y2);
void ps_svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width,
                 const char *dash);
/* Text; anchor is "start", "middle" or "end"; the text is escaped.  rotate is
 * in degrees around (x, y), 0 for none. */
void ps_svg_text(FILE *f, double x, double y, const char *anchor, double size, const char *fill,
                 double rotate, const char *fmt, ...) __attribute__((format(printf, 8, 9)));
/* <title>TEXT</title> (escaped); call between an open tag and its close. */
void ps_svg_title(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Axis ticks: up to about `want` "nice" values (1, 2, 5 x 10^k) covering
 * [lo, hi]; returns how many were written into v (at most max). */
int ps_svg_ticks(double lo, double hi, int want, double *v, int max);

/* A time axis unit for a span of `seconds`: the divisor and the name, e.g.
 * 1e-3 and "ms" for a span of 0.25 s. */
void ps_svg_time_unit(double seconds, double *scale, const char **name);
/* A tick label for value v: "%g"-like but without exponent noise. */
void ps_svg_fmt_tick(char *buf, size_t len, double v, double step);

/* Whether item i of n gets a label when only every `every`-th fits: the
 * multiples of every, and the last one (then the multiple nearest before
 * it gives way, so two labels never crowd). */
int ps_svg_show_label(int i, int n, int every);

/* A colour legend: n boxes with names, as an SVG group at (x, y); returns
 * its width. */
double ps_svg_legend(FILE *f, double x, double y, int n, const char *const *colors,
                     const char *const *names);

#endif /* PS_SVG_H */
