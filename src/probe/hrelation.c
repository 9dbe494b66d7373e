/*
 * hrelation.c - BSP g and l from a full h-relation (seed 004, bspbench).
 *
 * Every rank puts h single 8-byte words into the other ranks cyclically:
 * word i goes to rank (s + 1 + i mod (p-1)) mod p at index s + (i / (p-1)) * p
 * (bspbench's destproc / destindex), each word its own MPI_Put, and the
 * superstep ends with MPI_Win_fence.  T(h) is the time of one such superstep:
 * the mean over a batch of supersteps on the slowest rank, best of
 * PS_PROBE_H_BATCHES batches.  "Underpromise and overdeliver": this
 * g is pessimistic.  The combined variant (bspprobe's optimistic g) sends the
 * same h words as one MPI_Put per destination.
 * T(h) = h g + l is fitted by least squares over [0, p] and [p, h_max].
 */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_int.h"
#include "trace/json.h"
#include "util/stats.h"
#include "util/util.h"

static int h_grid(int p, int step, int *h, int max)
{
    int n = 0;
    for (int v = 0; v <= PS_PROBE_H_MAX && n < max; v++)
        if (v <= p || v % step == 0 || v == PS_PROBE_H_MAX) h[n++] = v;
    return n;
}

static void superstep(int h, int combined, int s, int p, const double *src, MPI_Win win)
{
    if (!combined) {
        for (int i = 0; i < h; i++) {
            int dest = (s + 1 + i % (p - 1)) % p;
            MPI_Aint idx = s + (MPI_Aint)(i / (p - 1)) * p;
            MPI_Put(&src[i], 1, MPI_DOUBLE, dest, idx, 1, MPI_DOUBLE, win);
        }
    } else {
        /* the same words, one message per destination: word i goes to the
         * (i mod (p-1))-th other rank, so that rank gets ceil/floor(h/(p-1)) */
        for (int k = 0; k < p - 1 && k < h; k++) {
            int dest = (s + 1 + k) % p;
            int cnt = h / (p - 1) + (k < h % (p - 1) ? 1 : 0);
            MPI_Put(src, cnt, MPI_DOUBLE, dest, (MPI_Aint)s * (PS_PROBE_H_MAX + 1), cnt, MPI_DOUBLE, win);
        }
    }
    MPI_Win_fence(0, win);
}

json_t *ps__hrelation_measure(const ps_probe_budget *b, int combined)
{
    int s, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &s);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int hs[PS_PROBE_H_MAX + 1];
    int nh = h_grid(p, b->h_step, hs, PS_PROBE_H_MAX + 1);
    double *src = ps_xmalloc(sizeof(double) * (2 * PS_PROBE_H_MAX + 2));
    for (int i = 0; i < 2 * PS_PROBE_H_MAX + 2; i++) src[i] = (double)i;
    double *dest;
    MPI_Win win;
    /* room for bspbench's pattern (index < (h_max + 1) p) and the combined one */
    MPI_Aint words = (MPI_Aint)(PS_PROBE_H_MAX + 1) * p + p;
    MPI_Win_allocate(words * (MPI_Aint)sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &dest, &win);
    memset(dest, 0, (size_t)words * sizeof(double));
    MPI_Win_fence(0, win);

    /* a first estimate of T(h_max) for the batch lengths */
    double share = (combined ? 0.4 : 0.6) * b->hrelation_s;
    for (int k = 0; k < 3; k++) superstep(PS_PROBE_H_MAX, combined, s, p, src, win);
    double t = MPI_Wtime();
    for (int k = 0; k < 5; k++) superstep(PS_PROBE_H_MAX, combined, s, p, src, win);
    double dt = (MPI_Wtime() - t) / 5, tmax = 0;
    MPI_Allreduce(&dt, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    /* PS_PROBE_H_BATCHES batches per h; the round's T(h) is the best batch,
     * so a rank descheduled by another process on a shared machine spoils one
     * batch, not the figure.  The h are measured coarse to fine (every h up
     * to p, h_max, then halving strides over the rest), and once the share of
     * the budget is spent no further h is started: a loaded machine costs
     * points, not minutes, and the points left still span [p, h_max].  A
     * batch's length comes from the times measured so far (reduced, so the
     * same on every rank); the stop rides on the same reduction, so all ranks
     * take it together. */
    double batch_s = share / (nh * PS_PROBE_H_BATCHES);
    double est0 = NAN, estmax = tmax > 0 ? tmax : 1e-5;
    long total = 0;
    int order[PS_PROBE_H_MAX + 1], no = 0, seen[PS_PROBE_H_MAX + 1] = {0};
    for (int k = 0; k < nh; k++)
        if (hs[k] <= p) { order[no++] = k; seen[k] = 1; }
    if (!seen[nh - 1]) { order[no++] = nh - 1; seen[nh - 1] = 1; }
    int stride = 1;
    while (stride * 2 <= nh) stride *= 2;
    for (; stride >= 1; stride /= 2)
        for (int k = 0; k < nh; k += stride)
            if (!seen[k]) { order[no++] = k; seen[k] = 1; }
    double *times = ps_xmalloc(sizeof(double) * (size_t)nh);
    double *batches = ps_xmalloc(sizeof(double) * (size_t)nh * PS_PROBE_H_BATCHES);
    int *hm = ps_xmalloc(sizeof(int) * (size_t)nh);
    double start = MPI_Wtime();
    /* always measured: h = 0..p, h_max and the next PS_PROBE_H_MIN_MID of the
     * coarse order, so every round has a line to fit over [p, h_max] */
    int nm = 0, must = 0;
    for (int k = 0; k < nh; k++) must += hs[k] <= p || k == nh - 1;
    must += PS_PROBE_H_MIN_MID;
    if (must > no) must = no;
    for (int o = 0; o < no; o++) {
        int k = order[o];
        /* T(h) is about linear in h: the estimate from T(0..p) and T(h_max) */
        double est = isfinite(est0) ? est0 + (estmax - est0) * hs[k] / PS_PROBE_H_MAX : estmax;
        if (!(est > 0)) est = estmax;
        double want = batch_s / est, mine[PS_PROBE_H_BATCHES + 1], worst[PS_PROBE_H_BATCHES + 1];
        int per = want < 1 ? 1 : want > 20000 ? 20000 : (int)want;
        for (int bt = 0; bt < PS_PROBE_H_BATCHES; bt++) {
            MPI_Win_fence(0, win);
            double t0 = MPI_Wtime();
            for (int iter = 0; iter < per; iter++) superstep(hs[k], combined, s, p, src, win);
            mine[bt] = (MPI_Wtime() - t0) / per;
        }
        mine[PS_PROBE_H_BATCHES] = MPI_Wtime() - start;
        MPI_Allreduce(mine, worst, PS_PROBE_H_BATCHES + 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        total += (long)per * PS_PROBE_H_BATCHES;
        hm[nm] = hs[k];
        times[nm] = INFINITY;
        for (int bt = 0; bt < PS_PROBE_H_BATCHES; bt++) {
            batches[nm * PS_PROBE_H_BATCHES + bt] = worst[bt];
            if (worst[bt] < times[nm]) times[nm] = worst[bt];
        }
        if (times[nm] > 0 && isfinite(times[nm])) {
            if (hs[k] == 0 || (!isfinite(est0) && hs[k] <= p)) est0 = times[nm];
            if (k == nh - 1) estmax = times[nm];
        }
        nm++;
        if (o + 1 >= must && worst[PS_PROBE_H_BATCHES] > share) break;
    }
    /* back in the order of h */
    for (int i = 1; i < nm; i++)
        for (int j = i; j > 0 && hm[j - 1] > hm[j]; j--) {
            int th = hm[j]; hm[j] = hm[j - 1]; hm[j - 1] = th;
            double tt = times[j]; times[j] = times[j - 1]; times[j - 1] = tt;
            for (int bt = 0; bt < PS_PROBE_H_BATCHES; bt++) {
                double tb = batches[j * PS_PROBE_H_BATCHES + bt];
                batches[j * PS_PROBE_H_BATCHES + bt] = batches[(j - 1) * PS_PROBE_H_BATCHES + bt];
                batches[(j - 1) * PS_PROBE_H_BATCHES + bt] = tb;
            }
        }
    for (int i = 0; i < nm; i++) hs[i] = hm[i];
    free(hm);
    nh = nm;
    MPI_Win_free(&win);
    free(src);
    json_t *out = NULL;
    if (s == 0) {
        out = json_object();
        json_object_set_new(out, "pattern", json_string(combined ? "combined" : "single-word"));
        json_object_set_new(out, "p", json_integer(p));
        json_object_set_new(out, "niters", json_integer(total));
        json_t *jb = json_array();
        for (int k = 0; k < nh; k++)
            json_array_append_new(jb, ps__json_array_of(batches + k * PS_PROBE_H_BATCHES, PS_PROBE_H_BATCHES));
        json_object_set_new(out, "batches", jb);
        double hd[PS_PROBE_H_MAX + 1];
        for (int k = 0; k < nh; k++) hd[k] = hs[k];
        json_object_set_new(out, "h", ps__json_array_of(hd, nh));
        json_object_set_new(out, "time", ps__json_array_of(times, nh));
    }
    free(times);
    free(batches);
    return out;
}

/* ---- analysis ------------------------------------------------------------------ */

static int fit_range(const double *h, const double *t, int n, double h0, double h1, ps_linfit *f)
{
    double x[PS_PROBE_H_MAX + 1], y[PS_PROBE_H_MAX + 1];
    int k = 0;
    for (int i = 0; i < n && k <= PS_PROBE_H_MAX; i++)
        if (h[i] >= h0 && h[i] <= h1) { x[k] = h[i]; y[k] = t[i]; k++; }
    return ps_lsq_line(x, y, NULL, k, f);
}

static int read_series(const json_t *o, double *h, double *t, int max)
{
    const json_t *jh = json_object_get(o, "h"), *jt = json_object_get(o, "time");
    int n = (int)json_array_size(jh);
    if (n != (int)json_array_size(jt) || n > max) return -1;
    for (int i = 0; i < n; i++) {
        h[i] = json_number_value(json_array_get(jh, i));
        t[i] = json_number_value(json_array_get(jt, i));
    }
    return n;
}

int ps__hrelation_round_fit(const json_t *round, int p, double *g_s, double *l_s)
{
    double h[PS_PROBE_H_MAX + 1], t[PS_PROBE_H_MAX + 1];
    int n = read_series(json_object_get(round, "hrelation"), h, t, PS_PROBE_H_MAX + 1);
    ps_linfit f;
    if (n < 2 || fit_range(h, t, n, p, PS_PROBE_H_MAX, &f) != 0) {
        *g_s = *l_s = NAN;
        return -1;
    }
    *g_s = f.slope;
    *l_s = f.intercept;
    return 0;
}

/* Pools one pattern over the rounds into o: per h the best round (rounds on
 * a loaded machine may have measured fewer h); returns the number of h. */
static int pool(const json_t *rounds, const char *key, json_t *o, double *h, double *tmin)
{
    size_t nr = json_array_size(rounds);
    int n = 0;
    double hh[PS_PROBE_H_MAX + 1], tt[PS_PROBE_H_MAX + 1];
    for (size_t r = 0; r < nr; r++) {
        int k = read_series(json_object_get(json_array_get(rounds, r), key), hh, tt, PS_PROBE_H_MAX + 1);
        for (int i = 0; i < k; i++) {
            int j = 0;
            while (j < n && h[j] < hh[i]) j++;
            if (j < n && h[j] == hh[i]) continue;
            if (n > PS_PROBE_H_MAX) break;
            memmove(h + j + 1, h + j, sizeof(double) * (size_t)(n - j));
            h[j] = hh[i];
            n++;
        }
    }
    if (n < 2) return -1;
    json_t *samples = json_array(), *niters = json_array();
    for (int i = 0; i < n; i++) {
        tmin[i] = INFINITY;
        json_array_append_new(samples, json_array());
    }
    for (size_t r = 0; r < nr; r++) {
        const json_t *hr = json_object_get(json_array_get(rounds, r), key);
        int k = read_series(hr, hh, tt, PS_PROBE_H_MAX + 1);
        for (int i = 0; i < k; i++)
            for (int j = 0; j < n; j++)
                if (h[j] == hh[i]) {
                    if (tt[i] < tmin[j]) tmin[j] = tt[i];
                    json_array_append_new(json_array_get(samples, (size_t)j), json_real(tt[i]));
                }
        json_array_append_new(niters, json_integer((json_int_t)ps_json_num(hr, "niters")));
    }
    json_object_set_new(o, "statistic", json_string("min"));
    json_object_set_new(o, "niters", niters);
    json_object_set_new(o, "h", ps__json_array_of(h, n));
    json_object_set_new(o, "time", ps__json_array_of(tmin, n));
    json_object_set_new(o, "samples", samples);
    return n;
}

static json_t *fit_obj(const double *h, const double *t, int n, double h0, double h1, double r)
{
    ps_linfit f;
    if (fit_range(h, t, n, h0, h1, &f) != 0) return json_null();
    json_t *o = ps__fit_json(&f, h0, h1, r);
    json_t *res = json_array(), *rh = json_array();
    for (int i = 0; i < n; i++)
        if (h[i] >= h0 && h[i] <= h1) {
            json_array_append_new(rh, json_real(h[i]));
            json_array_append_new(res, json_real(t[i] - (f.intercept + f.slope * h[i])));
        }
    json_object_set_new(o, "residual_h", rh);
    json_object_set_new(o, "residuals", res);
    return o;
}

/* The fit of each round over [p, h_max]: the reported g and l are the
 * medians of these ("Run the benchmark at least three times", seed 004), so
 * they lie within the rounds' own range.  A fit of the rounds pooled per h
 * would mix rounds that saw different machines and can match none of them. */
static json_t *round_fits(const json_t *rounds, int p, double r, double *gs, double *ls, int *nf)
{
    json_t *a = json_array();
    *nf = 0;
    size_t i;
    json_t *round;
    json_array_foreach(rounds, i, round) {
        double h[PS_PROBE_H_MAX + 1], t[PS_PROBE_H_MAX + 1];
        int n = read_series(json_object_get(round, "hrelation"), h, t, PS_PROBE_H_MAX + 1);
        ps_linfit f;
        json_t *o;
        if (n >= 3 && fit_range(h, t, n, p, PS_PROBE_H_MAX, &f) == 0) {
            o = ps__fit_json(&f, p, PS_PROBE_H_MAX, r);
            if (*nf < 64) {
                gs[*nf] = f.slope;
                ls[*nf] = f.intercept;
                (*nf)++;
            }
        } else {
            o = json_object();
            json_object_set_new(o, "note", json_string("fewer than 3 values of h in [p, h_max]: no fit"));
        }
        json_object_set_new(o, "round", json_integer((json_int_t)i + 1));
        json_array_append_new(a, o);
    }
    return a;
}

static double median_of(const double *v, int n, double *lo, double *hi)
{
    ps_sample_stats st;
    ps_sample_stats_of(v, n, &st);
    *lo = st.min;
    *hi = st.max;
    return st.median;
}

/* The best two rounds' gap at one point (its rounds' times, a JSON array): the uncertainty of a
 * best-of figure (util/stats.h); NAN with fewer than two */
static double best_two_gap(const json_t *v)
{
    double t[64];
    int n = 0;
    size_t i;
    const json_t *x;
    json_array_foreach(v, i, x) if (n < 64 && json_number_value(x) > 0) t[n++] = json_number_value(x);
    ps_sample_stats st;
    ps_sample_stats_of(t, n, &st);
    return ps_stat_uncertainty(&st, PS_STAT_MIN);
}

int ps__hrelation_analyze(const json_t *rounds, int p, double r, json_t *bsp, json_t *warnings, char *err,
                          size_t errlen)
{
    double h[PS_PROBE_H_MAX + 1], t[PS_PROBE_H_MAX + 1];
    json_t *single = json_object();
    int n = pool(rounds, "hrelation", single, h, t);
    if (n < 2) {
        json_decref(single);
        ps_seterr(err, errlen, "the raw data has no usable h-relation measurements");
        return -1;
    }
    json_t *lo = fit_obj(h, t, n, 0, p, r), *hi = fit_obj(h, t, n, p, PS_PROBE_H_MAX, r);
    if (json_is_object(hi))
        json_object_set_new(hi, "role", json_string("the rounds pooled per h (best round): drawn, not reported"));
    json_object_set_new(single, "fit_low", lo);
    json_object_set_new(single, "fit_high", hi);
    double gs[64], ls[64];
    int nf;
    json_object_set_new(single, "round_fits", round_fits(rounds, p, r, gs, ls, &nf));
    double glo, ghi, llo, lhi;
    double g_s = median_of(gs, nf, &glo, &ghi), l_s = median_of(ls, nf, &llo, &lhi);
    json_t *rep = json_object();
    json_object_set_new(rep, "statistic", json_string("median of the rounds' fits over [p, h_max]"));
    json_object_set_new(rep, "rounds", json_integer(nf));
    json_object_set_new(rep, "g_s", isfinite(g_s) ? json_real(g_s) : json_null());
    json_object_set_new(rep, "l_s", isfinite(l_s) ? json_real(l_s) : json_null());
    json_object_set_new(rep, "g", isfinite(g_s) ? json_real(g_s * r) : json_null());
    json_object_set_new(rep, "l", isfinite(l_s) ? json_real(l_s * r) : json_null());
    json_object_set_new(rep, "g_range", nf ? json_pack("[ff]", glo * r, ghi * r) : json_null());
    json_object_set_new(rep, "l_range", nf ? json_pack("[ff]", llo * r, lhi * r) : json_null());
    json_object_set_new(single, "reported", rep);
    json_object_set_new(bsp, "hrelation", single);
    json_object_set_new(bsp, "h0", json_integer(p));
    json_object_set_new(bsp, "h1", json_integer(PS_PROBE_H_MAX));
    double g = g_s * r, l = l_s * r;
    json_object_set(bsp, "g_range", json_object_get(rep, "g_range"));
    json_object_set(bsp, "l_range", json_object_get(rep, "l_range"));

    /* the seed's artefacts (seed 004, "Advice from the trenches"); a fit that
     * is not a BSP cost is never a model value: the model says why */
    char failed[400] = "";
    if (nf == 0)
        snprintf(failed, sizeof failed, "no round measured three values of h in [%d, %d]", p, PS_PROBE_H_MAX);
    else if (!(g > 0))
        snprintf(failed, sizeof failed,
                 "g = %.3g flops is not positive: g is small and l is large, so the least-squares fit over [%d, %d] "
                 "does not give an accurate g",
                 g, p, PS_PROBE_H_MAX);
    else if (!(l > 0))
        snprintf(failed, sizeof failed,
                 "l = %.3g flops is not positive: the fitted line is not a BSP cost (the rounds' l range from %.3g to "
                 "%.3g)",
                 l, llo * r, lhi * r);
    if (failed[0]) {
        ps__warn(warnings, "the h-relation fit failed: %s; the model carries no g and l", failed);
        json_object_set_new(bsp, "g", json_null());
        json_object_set_new(bsp, "l", json_null());
        json_object_set_new(bsp, "g_us", json_null());
        json_object_set_new(bsp, "l_us", json_null());
        json_object_set_new(bsp, "fit", json_string("failed"));
        json_object_set_new(bsp, "fit_note", json_string(failed));
    } else {
        json_object_set_new(bsp, "g", json_real(g));
        json_object_set_new(bsp, "l", json_real(l));
        json_object_set_new(bsp, "g_us", json_real(g_s * 1e6));
        json_object_set_new(bsp, "l_us", json_real(l_s * 1e6));
        json_object_set_new(bsp, "fit", json_string("ok"));
        if (g * PS_PROBE_H_MAX < 0.2 * l)
            ps__warn(warnings, "the h-relation fit is dominated by l: at h = %d, h*g is only %.0f%% of l, so g is "
                     "inaccurate", PS_PROBE_H_MAX, 100 * g * PS_PROBE_H_MAX / l);
    }
    double rms_rel = ps_json_num(hi, "rms_rel");
    if (rms_rel > 0.10)
        ps__warn(warnings, "T(h) is not a straight line over [%d, %d] (rms residual %.0f%%): see the plot",
                 p, PS_PROBE_H_MAX, 100 * rms_rel);
    /* a fall below the point before, and below the one before that: one slow point between two on the
     * line (a disturbance) is not a change of mechanism; and beyond what the rounds' disagreement at
     * both points could make (each point's best two rounds' gap; one round measures none: no claim) */
    const json_t *samples = json_object_get(single, "samples");
    for (int i = 1; i < n; i++) {
        double fall = 1 - t[i] / t[i - 1];
        double noise = best_two_gap(json_array_get(samples, (size_t)i)) +
                       best_two_gap(json_array_get(samples, (size_t)i - 1));
        if (h[i] > p && fall > 0.2 && (i < 2 || t[i] < 0.8 * t[i - 2]) && fall > noise) {
            ps__warn(warnings, "sending more data takes less time at h = %.0f (T falls %.0f%%, beyond the %.0f%% "
                     "its rounds disagree by there): the library likely switches its data packing mechanism "
                     "there (seed 004, Cray T3E)", h[i], 100 * fall, 100 * noise);
            break;
        }
    }

    json_t *comb = json_object();
    double hc[PS_PROBE_H_MAX + 1], tc[PS_PROBE_H_MAX + 1];
    int nc = pool(rounds, "combined", comb, hc, tc);
    if (nc >= 2) {
        json_t *fc = fit_obj(hc, tc, nc, p, PS_PROBE_H_MAX, r);
        json_object_set_new(comb, "fit_high", fc);
        double gc = ps_json_num(fc, "g");
        if (!(gc > 0))
            ps__warn(warnings, "the combined-message g = %.3g flops is not positive: with one message per "
                     "destination T(h) hardly grows with h here, so this g is below what the fit resolves", gc);
        json_object_set(bsp, "g_combined", json_object_get(fc, "g"));
        json_object_set(bsp, "g_combined_us", json_object_get(fc, "g_us"));
        json_object_set_new(bsp, "combined", comb);
    } else {
        json_decref(comb);
    }
    return 0;
}
