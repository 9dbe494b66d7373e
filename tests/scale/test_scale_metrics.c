/* Metric formulas against hand-computed values (DESIGN.md, CLUE seed). */
#include <math.h>
#include <stdio.h>

#include "scale/metrics.h"

#include "check.h"

#define NEAR(a, b, tol) do { double _a = (a), _b = (b); if (!(fabs(_a - _b) <= (tol))) { failures++; \
    printf("FAIL %s:%d: %s = %.9g, expected %.9g\n", __FILE__, __LINE__, #a, _a, _b); } } while (0)

TEST_IMPL(metrics_speedup)
{
    /* strong (k = 1): T(1) = 10, T(2) = 6 -> S = 5/3, E = 5/6, f = (0.6 - 0.5)/0.5 = 0.2 */
    ps_scale_metrics m = ps_scale_metrics_compute(10, 6, 2, 1);
    NEAR(m.speedup, 10.0 / 6.0, 1e-12);
    NEAR(m.efficiency, 10.0 / 12.0, 1e-12);
    NEAR(m.serial_fraction, 0.2, 1e-12);
    /* P = 1: S = E = 1, f undefined (never 100%) */
    m = ps_scale_metrics_compute(10, 10, 1, 1);
    NEAR(m.speedup, 1.0, 0);
    NEAR(m.efficiency, 1.0, 0);
    CHECK(isnan(m.serial_fraction));
    /* weak (k = P = 4): T(1,1) = 10, T(4,4) = 12.5 -> S_k = 3.2, E_k = 0.8,
     * f_k = (1/3.2 - 1/4) / (3/4) = 0.0625 / 0.75 = 1/12 */
    m = ps_scale_metrics_compute(10, 12.5, 4, 4);
    NEAR(m.speedup, 3.2, 1e-12);
    NEAR(m.efficiency, 0.8, 1e-12);
    NEAR(m.serial_fraction, 1.0 / 12.0, 1e-12);
    /* perfect weak scaling: f = 0 */
    m = ps_scale_metrics_compute(3, 3, 8, 8);
    NEAR(m.efficiency, 1.0, 1e-12);
    NEAR(m.serial_fraction, 0.0, 1e-12);
    /* failed points give NAN, not numbers */
    m = ps_scale_metrics_compute(10, NAN, 2, 1);
    CHECK(isnan(m.speedup) && isnan(m.efficiency) && isnan(m.serial_fraction));
    m = ps_scale_metrics_compute(0, 5, 2, 1);
    CHECK(isnan(m.speedup));
}

TEST_IMPL(metrics_karp_flatt_act)
{
    /* Karp-Flatt directly */
    CHECK(isnan(ps_karp_flatt(1.0, 1)));
    NEAR(ps_karp_flatt(4.0, 4), 0.0, 1e-15);
    NEAR(ps_karp_flatt(1.0, 2), 1.0, 1e-15);   /* no speedup at all: everything serial */
    /* ACT/s (15), Net ACT/s (16) */
    NEAR(ps_act_per_s(1000.0 * 1000.0, 20, 2.0), 1e7, 1e-6);
    CHECK(isnan(ps_act_per_s(100, 1, 0)));
}

TEST_IMPL(metrics_amdahl_gustafson)
{
    /* the seed's worked examples (section 2.1) */
    NEAR(ps_amdahl_speedup(0.01, 16), 13.913, 5e-4);
    NEAR(ps_amdahl_speedup(0.01, 512), 83.797, 5e-4);
    NEAR(ps_gustafson_speedup(0.01, 512), 506.89, 5e-3);
    /* the fits recover the serial fraction of a model's speedups */
    int p[] = {1, 2, 4, 8, 16};
    double sa[5], sg[5], rms;
    for (int i = 0; i < 5; i++) { sa[i] = ps_amdahl_speedup(0.05, p[i]); sg[i] = ps_gustafson_speedup(0.03, p[i]); }
    NEAR(ps_fit_amdahl(p, sa, 5, &rms), 0.05, 1e-12);
    NEAR(rms, 0.0, 1e-12);
    NEAR(ps_fit_gustafson(p, sg, 5, &rms), 0.03, 1e-12);
    NEAR(rms, 0.0, 1e-12);
    /* hand-computed Amdahl fit of two points: S(2) = 1.6 (b = 0.125, a = 0.5),
     * S(4) = 2.5 (b = 0.15, a = 0.75): f = (0.0625 + 0.1125) / (0.25 + 0.5625) = 0.175 / 0.8125 */
    int p2[] = {2, 4};
    double s2[] = {1.6, 2.5};
    NEAR(ps_fit_amdahl(p2, s2, 2, NULL), 0.175 / 0.8125, 1e-12);
    /* Gustafson fit by hand: S(2) = 1.9, S(4) = 3.7: f = (1*0.1 + 3*0.3) / (1 + 9) = 0.1 */
    double s3[] = {1.9, 3.7};
    NEAR(ps_fit_gustafson(p2, s3, 2, NULL), 0.1, 1e-12);
    int p1[] = {1};
    double s1[] = {1};
    CHECK(isnan(ps_fit_amdahl(p1, s1, 1, NULL)));
}
