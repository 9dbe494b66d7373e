/*
 * figure.h - a measured figure as text, for the terminal and the page alike.
 *
 * A figure that could not be measured (a null or missing JSON number, read as
 * NAN by ps_json_num) reads "-", never "nan" or an invented zero (FAULTS.md);
 * a figure whose document holds its uncertainty carries it:
 *
 *   char a[32], b[16];
 *   printf("r = %s%s\n", ps_fig(a, sizeof a, "%.0f Mflop/s", r / 1e6), ps_fig_pm(b, sizeof b, r_unc));
 *   -> "r = 4619 Mflop/s +/- 22%", "r = -"
 */
#ifndef PS_FIGURE_H
#define PS_FIGURE_H

#include <stdarg.h>
#include <stddef.h>

/* fmt applied to one double, its only argument ("%.3g flops"), or "-" when
 * that double is not finite.  Returns buf, to stand as a "%s" argument. */
const char *ps_fig(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *ps_vfig(char *buf, size_t len, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

/* " +/- 22%" for a relative uncertainty (0.22), "" where there is none
 * (null: one trial, or a figure that could not be measured). */
const char *ps_fig_pm(char *buf, size_t len, double rel);

/* The digits after the point, from `least` up to 2, with which two fractions print differently as per
 * cent ("%.*f%%" of 100 x), where they differ: an effect found beyond its noise (|effect| > noise)
 * never reads as equal to it ("25% +/- 25%" becomes "25.4% +/- 24.6%"), and a noise above zero never
 * reads as none ("73% +/- 0%" becomes "73.0% +/- 0.3%"). */
int ps_fig_pct_digits(double effect, double noise, int least);

#endif /* PS_FIGURE_H */
