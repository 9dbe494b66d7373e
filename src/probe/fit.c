/* fit.c - least squares lines and the Hockney fit (see probe.h). */
#include <math.h>
#include <stddef.h>

#include "probe/probe.h"

int ps_lsq_line(const double *x, const double *y, const double *w, int n, ps_linfit *f)
{
    f->intercept = f->slope = NAN;
    f->n = n;
    f->rms = f->rms_rel = f->max_abs = NAN;
    /* two points give a line with no residual: nothing says it fits */
    if (n < PS_FIT_MIN_POINTS) return -1;
    /* centred sums: stable when x is large (message sizes up to 4 MiB) */
    double sw = 0, sx = 0, sy = 0;
    for (int i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        sw += wi;
        sx += wi * x[i];
        sy += wi * y[i];
    }
    if (!(sw > 0)) return -1;
    double mx = sx / sw, my = sy / sw, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        sxx += wi * (x[i] - mx) * (x[i] - mx);
        sxy += wi * (x[i] - mx) * (y[i] - my);
    }
    if (!(sxx > 0)) return -1;
    ps_line_residuals(x, y, n, my - sxy / sxx * mx, sxy / sxx, f);
    return 0;
}

void ps_line_residuals(const double *x, const double *y, int n, double intercept, double slope, ps_linfit *f)
{
    f->intercept = intercept;
    f->slope = slope;
    f->n = n;
    double ss = 0, ssr = 0, mx_abs = 0;
    int nrel = 0;
    for (int i = 0; i < n; i++) {
        double r = y[i] - (intercept + slope * x[i]);
        ss += r * r;
        if (y[i] != 0) { ssr += (r / y[i]) * (r / y[i]); nrel++; }
        if (fabs(r) > mx_abs) mx_abs = fabs(r);
    }
    f->rms = n > 0 ? sqrt(ss / n) : NAN;
    f->rms_rel = nrel ? sqrt(ssr / nrel) : NAN;
    f->max_abs = mx_abs;
}

int ps_hockney_fit(const double *bytes, const double *t, int n, double *t0, double *r_inf, double *n_half,
                   ps_linfit *f)
{
    double w[n > 0 ? n : 1];
    for (int i = 0; i < n; i++) w[i] = t[i] > 0 ? 1.0 / (t[i] * t[i]) : 0.0;
    if (ps_lsq_line(bytes, t, w, n, f) != 0 || !(f->slope > 0)) {
        *t0 = *r_inf = *n_half = NAN;
        return -1;
    }
    *t0 = f->intercept;
    *r_inf = 1.0 / f->slope;
    *n_half = *t0 * *r_inf;
    return 0;
}
