/*
 * stats.h - the statistics of repeated measurements, one place for every
 * command (docs/SCALE.md "Statistics", PROBE.md, WHITEBOX.md).
 *
 * A figure measured K times is reported with the statistic used (best-of-K,
 * as CLUE and NetPIPE, or the median) and its uncertainty:
 *
 *   best-of-K  the relative gap between the best two trials,
 *              (x(2) - x(1)) / x(1): seed 004, "if the best two runs agree,
 *              you can be reasonably confident".  Interference only adds
 *              time, so the best trial is the least disturbed one and the
 *              second best says how reproducible it is.
 *   median     a distribution-free confidence interval from order
 *              statistics: [x(k), x(K-k+1)] covers the true median with
 *              probability 1 - 2 P(B <= k-1), B ~ Binomial(K, 1/2)
 *              (Le Boudec, "Performance Evaluation of Computer and
 *              Communication Systems", 2.1; Hoefler and Belli, "Scientific
 *              benchmarking of parallel computing systems", SC15, rules 5
 *              and 6: report intervals, do not assume normality).  No
 *              bootstrap: the interval is exact for any distribution and
 *              needs no random numbers, so results are reproducible.
 *
 * 95% needs K >= 6; with fewer trials the interval is the full range and its
 * own (lower) coverage is stated, e.g. 75% for K = 3.
 */
#ifndef PS_STATS_H
#define PS_STATS_H

/* The statistic a figure reports. */
typedef enum { PS_STAT_MIN = 0, PS_STAT_MEDIAN } ps_statistic;

/* "min" / "median" (the names results use). */
const char *ps_statistic_name(ps_statistic s);

#define PS_CI_LEVEL 0.95   /* the confidence the median's interval aims at */

typedef struct ps_sample_stats {
    int    n;                        /* finite samples (NAN ones, failed trials, are skipped) */
    double min, second, median, max; /* second: the second smallest, NAN when n < 2 */
    double q1, q3;                   /* quartiles (linear interpolation), NAN when n < 2 */
    double mean, sd;                 /* sd: sample standard deviation, NAN when n < 2 */
    double ci_low, ci_high;          /* the median's interval (order statistics), NAN when n < 2 */
    double ci_coverage;              /* its coverage: >= PS_CI_LEVEL when n >= 6, else the range's */
} ps_sample_stats;

/* Statistics of v[0..n) (not modified; NAN and infinite values skipped). */
void ps_sample_stats_of(const double *v, int n, ps_sample_stats *s);

/* Ranks (1-based) of the order statistics bounding the median with at least
 * `level` confidence among n samples: [x(*lo), x(*hi)], and the exact
 * coverage.  When n is too small for level, the full range (1, n) and its
 * coverage 1 - 2^(1-n).  -1 when n < 2. */
int ps_median_ci_ranks(int n, double level, int *lo, int *hi, double *coverage);

/* The value of statistic st, and its relative uncertainty (above): NAN when
 * it cannot be told (one sample, or a value that is not positive). */
double ps_stat_value(const ps_sample_stats *s, ps_statistic st);
double ps_stat_uncertainty(const ps_sample_stats *s, ps_statistic st);

/* The relative spread of all trials, (max - min) / min; NAN below 2 samples. */
double ps_stat_spread(const ps_sample_stats *s);

/* Relative uncertainty of a quotient or product of independent figures with
 * relative uncertainties a and b: a + b (the worst case, not the root sum
 * of squares: the disturbances of a shared machine are not independent). */
double ps_uncertainty_ratio(double a, double b);

#endif
