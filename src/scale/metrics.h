/*
 * metrics.h - the scalability metrics of DESIGN.md "Metrics" (CLUE seed,
 * formulas (1), (2), (6)-(11), (15), (16)).
 *
 * One general form covers both kinds of sweep: with the problem grown
 * k-fold on P ranks, S_k = k T(1,1) / T(P,k) (9), E_k = S_k / P (10),
 * f_k = (1/S_k - 1/P) / (1 - 1/P) (11).  Strong scaling is k = 1, which
 * gives the plain S = T(1)/T(P) (6), E = S/P (7) and Karp-Flatt f (8);
 * weak scaling (CLUE's default, the grid per rank fixed) is k = P.
 * The serial fraction is undefined at P = 1: NAN here, empty in CSV, "-"
 * in text, null in JSON.
 */
#ifndef PS_SCALE_METRICS_H
#define PS_SCALE_METRICS_H

typedef struct ps_scale_metrics {
    double speedup;          /* S_k */
    double efficiency;       /* E_k */
    double serial_fraction;  /* f_k, NAN at P = 1 */
} ps_scale_metrics;

/* t1: time on one rank at the base size; tp: time on p ranks at k times
 * the size.  Any input not positive/finite gives NAN figures. */
ps_scale_metrics ps_scale_metrics_compute(double t1, double tp, int p, double k);

/* Karp-Flatt serial fraction from a speedup (NAN at p <= 1). */
double ps_karp_flatt(double speedup, int p);

/* ACT/s (15): cells x iterations / wall time (per rank: the rank's own
 * grid), and Net ACT/s (16) = P x ACT/s. */
double ps_act_per_s(double cells_per_rank, double iterations, double seconds);

/* Least-squares fits of one serial fraction f to a sweep's speedups over
 * the points with p > 1 (n of them; NAN when none):
 *   Amdahl (1):    1/S = f + (1 - f)/P     -> f = sum a b / sum a^2,
 *                  a = 1 - 1/P, b = 1/S - 1/P
 *   Gustafson (2): S = f + (1 - f) P       -> f = sum (P-1)(P-S) / sum (P-1)^2
 * rms receives the root-mean-square relative error of the fitted model's
 * speedup against the measured one (may be NULL). */
double ps_fit_amdahl(const int *p, const double *s, int n, double *rms);
double ps_fit_gustafson(const int *p, const double *s, int n, double *rms);
/* The models' speedups. */
double ps_amdahl_speedup(double f, int p);
double ps_gustafson_speedup(double f, int p);

#endif
