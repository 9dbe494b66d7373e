/* The statistics of repeated measurements against hand-computed values:
 * order statistics, the median's distribution-free interval (binomial
 * coverage computed independently here by exact integer counts), and the
 * uncertainty of best-of-K and of the median; the sort they rest on. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/stats.h"
#include "util/util.h"

#include "check.h"

static int near(double a, double b, double tol) { return fabs(a - b) <= tol; }

/* 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2), by exact counts (n <= 60) */
static double coverage_exact(int n, int k)
{
    uint64_t c = 1, sum = 0;
    for (int i = 0; i <= k - 1; i++) {
        sum += c;
        c = c * (uint64_t)(n - i) / (uint64_t)(i + 1);
    }
    return 1.0 - 2.0 * (double)sum / ldexp(1.0, n);
}

TEST_IMPL(stats_order_statistics)
{
    const double v[] = {3, 1, 2, NAN, 5};
    ps_sample_stats s;
    ps_sample_stats_of(v, 5, &s);
    CHECK(s.n == 4, "n %d", s.n);
    CHECK(s.min == 1 && s.second == 2 && s.max == 5 && s.median == 2.5, "order");
    CHECK(near(s.mean, 2.75, 1e-12), "mean %g", s.mean);
    CHECK(near(s.sd, sqrt(8.75 / 3), 1e-12), "sd %g", s.sd);
    CHECK(near(s.q1, 1.75, 1e-12) && near(s.q3, 3.5, 1e-12), "quartiles %g %g", s.q1, s.q3);
    /* four samples cannot reach 95%: the range, with its own coverage 1 - 2/16 */
    CHECK(s.ci_low == 1 && s.ci_high == 5 && near(s.ci_coverage, 0.875, 1e-12), "ci %g %g %g", s.ci_low,
          s.ci_high, s.ci_coverage);
    CHECK(near(ps_stat_uncertainty(&s, PS_STAT_MIN), 1.0, 1e-12), "best two");
    CHECK(near(ps_stat_uncertainty(&s, PS_STAT_MEDIAN), 1.0, 1e-12), "median half width");
    CHECK(near(ps_stat_spread(&s), 4.0, 1e-12), "spread");
    /* one sample: a value, no uncertainty */
    ps_sample_stats_of(v, 1, &s);
    CHECK(s.n == 1 && s.min == 3 && isnan(s.second) && isnan(ps_stat_uncertainty(&s, PS_STAT_MIN)) &&
              isnan(s.ci_low), "one sample");
    ps_sample_stats_of(v + 3, 1, &s);
    CHECK(s.n == 0 && isnan(s.min) && isnan(ps_stat_value(&s, PS_STAT_MEDIAN)), "no sample");
}

TEST_IMPL(stats_median_interval)
{
    int lo, hi;
    double cov;
    CHECK(ps_median_ci_ranks(1, 0.95, &lo, &hi, &cov) == -1, "one sample has no interval");
    /* below six samples 95% is out of reach: the range and its coverage */
    for (int n = 2; n <= 5; n++) {
        CHECK(ps_median_ci_ranks(n, 0.95, &lo, &hi, &cov) == 0 && lo == 1 && hi == n, "n %d", n);
        CHECK(near(cov, 1 - ldexp(1.0, 1 - n), 1e-12), "n %d coverage %g", n, cov);
    }
    /* ranks worked out from the binomial distribution: 6 -> [1,6], 10 -> [2,9], 20 -> [6,15], 50 -> [18,33] */
    const int n_[] = {6, 10, 20, 50}, lo_[] = {1, 2, 6, 18};
    for (int i = 0; i < 4; i++) {
        CHECK(ps_median_ci_ranks(n_[i], 0.95, &lo, &hi, &cov) == 0, "n %d", n_[i]);
        CHECK(lo == lo_[i] && hi == n_[i] - lo_[i] + 1, "n %d: [%d, %d]", n_[i], lo, hi);
        CHECK(near(cov, coverage_exact(n_[i], lo), 1e-9) && cov >= 0.95, "n %d coverage %g", n_[i], cov);
        CHECK(coverage_exact(n_[i], lo + 1) < 0.95, "n %d: the next rank would fall short", n_[i]);
    }
    /* the interval of 10 samples: x(2) and x(9) */
    double v[10];
    for (int i = 0; i < 10; i++) v[i] = 10 - i;
    ps_sample_stats s;
    ps_sample_stats_of(v, 10, &s);
    CHECK(s.ci_low == 2 && s.ci_high == 9 && s.median == 5.5, "ci %g %g", s.ci_low, s.ci_high);
    CHECK(near(ps_stat_uncertainty(&s, PS_STAT_MEDIAN), 3.5 / 5.5, 1e-12), "median uncertainty");
    CHECK(near(ps_stat_uncertainty(&s, PS_STAT_MIN), 1.0, 1e-12), "best two: 1 and 2");
    CHECK(near(ps_uncertainty_ratio(0.1, 0.05), 0.15, 1e-15), "ratio adds");
}

static int cmp_ref(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ps_sort_doubles (a radix sort from 64 values on) against the C library's
 * compared sort: sizes on both sides of the switch, negatives, zeros of
 * both signs, infinities, duplicates, values that share their high bytes
 * (the passes it skips) and values that differ only in their low ones. */
TEST_IMPL(sort_doubles)
{
    static const size_t sizes[] = {0, 1, 2, 63, 64, 65, 1000, 100000};
    uint64_t seed = 12345;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        for (int kind = 0; kind < 4; kind++) {
            size_t n = sizes[si];
            double *v = malloc((n ? n : 1) * sizeof *v), *w = malloc((n ? n : 1) * sizeof *w);
            for (size_t i = 0; i < n; i++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                double u = (double)(seed >> 11) / 9007199254740992.0;   /* [0, 1) */
                switch (kind) {
                case 0: v[i] = (u - 0.5) * 1e6; break;                     /* both signs */
                case 1: v[i] = 0.2 + u * 1e-9; break;                      /* one narrow range */
                case 2: v[i] = (double)((seed >> 20) % 7) - 3; break;      /* duplicates */
                default: {
                    static const double odd[] = {0.0, -0.0, INFINITY, -INFINITY, 1e-300, -1e300, 5e-324};
                    v[i] = i % 3 ? odd[(seed >> 30) % 7] : u;
                }
                }
                w[i] = v[i];
            }
            ps_sort_doubles(v, n);
            if (n) qsort(w, n, sizeof *w, cmp_ref);
            size_t bad = n;
            for (size_t i = 0; i < n && bad == n; i++)
                if (v[i] != w[i] || (i && v[i] < v[i - 1])) bad = i;
            CHECK(bad == n, "n %zu, kind %d: position %zu holds %g, %g expected", n, kind, bad, v[bad], w[bad]);
            /* -0 before +0 */
            for (size_t i = 1; kind == 3 && i < n; i++)
                CHECK(!(v[i] == 0 && v[i - 1] == 0 && signbit(v[i]) && !signbit(v[i - 1])), "n %zu: +0 before -0", n);
            free(v);
            free(w);
        }
    }
    /* the order-preserving keys */
    static const double x[] = {-INFINITY, -1e300, -1, -1e-300, -0.0, 0.0, 5e-324, 1e-300, 1, 1e300, INFINITY};
    for (size_t i = 0; i < sizeof x / sizeof *x; i++) {
        CHECK(ps_key_double(ps_double_key(x[i])) == x[i] && signbit(ps_key_double(ps_double_key(x[i]))) == signbit(x[i]),
              "%g back from its key", x[i]);
        if (i) CHECK(ps_double_key(x[i - 1]) < ps_double_key(x[i]), "%g's key below %g's", x[i - 1], x[i]);
    }
}

/* Times in words: the unit of the value as printed, so a value that rounds
 * up to the next unit is written in it (999.6 us is "1 ms", not "1e+03 us"). */
TEST_IMPL(fmt_time_units)
{
    static const struct {
        double s;
        const char *want;
    } c[] = {{0, "0 s"},         {232e-9, "232 ns"}, {999.6e-9, "1 us"}, {1.5e-6, "1.5 us"}, {999.6e-6, "1 ms"},
             {-999.6e-6, "-1 ms"}, {26.4e-6, "26.4 us"}, {0.9996, "1 s"}, {12.5, "12.5 s"}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char b[32];
        ps_fmt_time(b, sizeof b, c[i].s);
        CHECK(!strcmp(b, c[i].want), "%g s: '%s', want '%s'", c[i].s, b, c[i].want);
    }
}
