/* stats.c - statistics of repeated measurements (see stats.h). */
#include "util/stats.h"

#include <math.h>
#include <stdlib.h>

#include "util/util.h"

const char *ps_statistic_name(ps_statistic s)
{
    return s == PS_STAT_MEDIAN ? "median" : "min";
}

/* P(B <= j) for B ~ Binomial(n, 1/2), summed in logs so large n stays finite. */
static double binom_half_cdf(int n, int j)
{
    if (j < 0) return 0;
    if (j >= n) return 1;
    double sum = 0, ln2n = n * log(2.0);
    for (int i = 0; i <= j; i++)
        sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - ln2n);
    return sum > 1 ? 1 : sum;
}

int ps_median_ci_ranks(int n, double level, int *lo, int *hi, double *coverage)
{
    if (n < 2) return -1;
    /* the largest k whose interval [x(k), x(n-k+1)] still has the coverage */
    int best = 1;
    double cov = 1 - 2 * binom_half_cdf(n, 0);
    for (int k = 2; k <= n / 2; k++) {
        double c = 1 - 2 * binom_half_cdf(n, k - 1);
        if (c < level) break;
        best = k;
        cov = c;
    }
    *lo = best;
    *hi = n - best + 1;
    *coverage = cov;
    return 0;
}

static double quantile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    if (i >= n - 1) return sorted[n - 1];
    return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

void ps_sample_stats_of(const double *v, int n, ps_sample_stats *s)
{
    s->n = 0;
    s->min = s->second = s->median = s->max = s->q1 = s->q3 = s->mean = s->sd = NAN;
    s->ci_low = s->ci_high = s->ci_coverage = NAN;
    double *x = ps_xmalloc(sizeof *x * (size_t)(n > 0 ? n : 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) x[k++] = v[i];
    s->n = k;
    if (k == 0) {
        free(x);
        return;
    }
    ps_sort_doubles(x, (size_t)k);
    s->min = x[0];
    s->max = x[k - 1];
    s->median = k % 2 ? x[k / 2] : 0.5 * (x[k / 2 - 1] + x[k / 2]);
    double sum = 0;
    for (int i = 0; i < k; i++) sum += x[i];
    s->mean = sum / k;
    if (k >= 2) {
        s->second = x[1];
        s->q1 = quantile(x, k, 0.25);
        s->q3 = quantile(x, k, 0.75);
        double ss = 0;
        for (int i = 0; i < k; i++) ss += (x[i] - s->mean) * (x[i] - s->mean);
        s->sd = sqrt(ss / (k - 1));
        int lo, hi;
        double cov;
        if (ps_median_ci_ranks(k, PS_CI_LEVEL, &lo, &hi, &cov) == 0) {
            s->ci_low = x[lo - 1];
            s->ci_high = x[hi - 1];
            s->ci_coverage = cov;
        }
    }
    free(x);
}

double ps_stat_value(const ps_sample_stats *s, ps_statistic st)
{
    return st == PS_STAT_MEDIAN ? s->median : s->min;
}

double ps_stat_uncertainty(const ps_sample_stats *s, ps_statistic st)
{
    if (s->n < 2) return NAN;
    double v = ps_stat_value(s, st);
    if (!(v > 0)) return NAN;
    if (st == PS_STAT_MIN) return (s->second - s->min) / v;
    return fmax(s->median - s->ci_low, s->ci_high - s->median) / v;
}

double ps_stat_spread(const ps_sample_stats *s)
{
    return s->n >= 2 && s->min > 0 ? (s->max - s->min) / s->min : NAN;
}

double ps_uncertainty_ratio(double a, double b)
{
    return a + b;
}
