/* metrics.c - speedup, efficiency, Karp-Flatt and the fits (see metrics.h). */
#include "scale/metrics.h"

#include <math.h>

static int ok(double v) { return isfinite(v) && v > 0; }

double ps_karp_flatt(double s, int p)
{
    if (p <= 1 || !ok(s)) return NAN;
    double ip = 1.0 / (double)p;
    return (1.0 / s - ip) / (1.0 - ip);
}

ps_scale_metrics ps_scale_metrics_compute(double t1, double tp, int p, double k)
{
    ps_scale_metrics m = {NAN, NAN, NAN};
    if (!ok(t1) || !ok(tp) || p < 1 || !ok(k)) return m;
    m.speedup = k * t1 / tp;
    m.efficiency = m.speedup / (double)p;
    m.serial_fraction = ps_karp_flatt(m.speedup, p);
    return m;
}

double ps_act_per_s(double cells, double iterations, double seconds)
{
    if (!ok(seconds) || !(cells >= 0) || !(iterations >= 0)) return NAN;
    return cells * iterations / seconds;
}

double ps_amdahl_speedup(double f, int p) { return 1.0 / (f + (1.0 - f) / (double)p); }
double ps_gustafson_speedup(double f, int p) { return f + (1.0 - f) * (double)p; }

static double rms_error(const int *p, const double *s, int n, double f, double (*model)(double, int))
{
    double sum = 0;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] <= 1 || !ok(s[i])) continue;
        double e = (model(f, p[i]) - s[i]) / s[i];
        sum += e * e;
        m++;
    }
    return m ? sqrt(sum / m) : NAN;
}

double ps_fit_amdahl(const int *p, const double *s, int n, double *rms)
{
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] <= 1 || !ok(s[i])) continue;
        double a = 1.0 - 1.0 / p[i], b = 1.0 / s[i] - 1.0 / p[i];
        num += a * b;
        den += a * a;
    }
    double f = den > 0 ? num / den : NAN;
    if (rms) *rms = isnan(f) ? NAN : rms_error(p, s, n, f, ps_amdahl_speedup);
    return f;
}

double ps_fit_gustafson(const int *p, const double *s, int n, double *rms)
{
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] <= 1 || !ok(s[i])) continue;
        double a = (double)(p[i] - 1);
        num += a * ((double)p[i] - s[i]);
        den += a * a;
    }
    double f = den > 0 ? num / den : NAN;
    if (rms) *rms = isnan(f) ? NAN : rms_error(p, s, n, f, ps_gustafson_speedup);
    return f;
}
