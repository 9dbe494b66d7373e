/*
 * pingpong.c - the COMMS1 / NetPIPE-style ping-pong between ranks 0 and 1
 * (seed 002: "Measurements made with COMMS1 (the Parkbench ping-pong
 * benchmark) ... startup time ... bandwidth"), and its analysis.
 *
 * Sizes: every power of two from 1 B to 4 MiB and the same +/- 3 bytes (as
 * NetPIPE perturbs them).  Per size: two untimed warm-up round trips, one
 * calibration round trip, then samples, each the mean half round trip of a
 * batch of m round trips (m fills PS_PROBE_BATCH_S).  Sampling stops when
 * the relative standard error of the samples reaches the target, or the
 * size's share of the time budget is spent (never below min_samples).  A slow
 * network's sizes (below, slow_from): one warm-up round trip in the first
 * round and none after, then samples of one round trip each, PS_PROBE_SLOW_SAMPLES
 * in the first round and as many as the round's budget holds after it.
 */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_int.h"
#include "sim/machine.h"
#include "trace/json.h"
#include "util/util.h"

enum { TAG_DATA = 101, TAG_CTRL = 102 };

static int make_sizes(long *sizes, int max)
{
    int n = 0;
    for (long p = 1; p <= PS_PROBE_MAX_BYTES; p *= 2)
        for (int d = -PS_PROBE_PERTURB; d <= PS_PROBE_PERTURB; d += PS_PROBE_PERTURB) {
            long s = p + d;
            if (s < 1 || n >= max) continue;
            int dup = 0;
            for (int i = 0; i < n; i++) dup |= sizes[i] == s;
            if (!dup) sizes[n++] = s;
        }
    /* ascending */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sizes[j - 1] > sizes[j]; j--) {
            long t = sizes[j];
            sizes[j] = sizes[j - 1];
            sizes[j - 1] = t;
        }
    return n;
}

static double rse(const double *v, int n)
{
    if (n < 2) return INFINITY;
    double s = 0, ss = 0;
    for (int i = 0; i < n; i++) s += v[i];
    double mean = s / n;
    for (int i = 0; i < n; i++) ss += (v[i] - mean) * (v[i] - mean);
    double sd = sqrt(ss / (n - 1));
    return mean > 0 ? sd / sqrt((double)n) / mean : INFINITY;
}

/* Largest size measured: set in the first round when one round trip alone
 * would spend several times a size's share of the budget (a slow network),
 * then kept, so every round measures the same sizes (as NetPIPE stops when a
 * transfer takes too long). */
static long size_cutoff = PS_PROBE_MAX_BYTES + PS_PROBE_PERTURB;
/* From this size on (set in the first round when a round trip exceeds
 * PS_PROBE_SLOW_RT) only powers of two are measured, with fewer samples: a
 * slow network still gets sizes large enough to show its sustained rate (a
 * shaped link's burst hides it below the bucket size). */
static long slow_from = PS_PROBE_MAX_BYTES * 2L;
/* The first round's fastest round trips of those sizes, added up: in the
 * rounds after it each takes as many samples (up to PS_PROBE_SLOW_SAMPLES,
 * at least one) as the round's ping-pong budget holds.  A shaped link's
 * samples agree to a thousandth (slownet 20mbit: 421.5-421.7 ms at 512 KiB
 * in three rounds), and three samples of 32 KiB to 512 KiB took 2.4 s a
 * round against a quick round's 0.28-1.4 s. */
static double slow_rt_sum = 0;

json_t *ps__pingpong_measure(const ps_probe_budget *b)
{
    static int rounds_done; /* the sweep's shape is decided in the first round only */
    const int first_round = rounds_done++ == 0;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank > 1) {
        ps__quiet_barrier();
        return NULL;
    }
    long sizes[128];
    int nsizes = make_sizes(sizes, 128);
    size_t cap = (size_t)PS_PROBE_MAX_BYTES + PS_PROBE_PERTURB;
    /* separate send and receive buffers, as NetPIPE and applications have */
    char *buf = ps_xmalloc(cap), *rbuf = ps_xmalloc(cap);
    memset(buf, rank + 1, cap);
    memset(rbuf, 0, cap);
    double per_size = b->pingpong_s / nsizes;
    json_t *out = rank == 0 ? json_array() : NULL;
    double *samples = ps_xmalloc(sizeof(double) * (size_t)b->max_samples);
    const int peer = 1 - rank;

    for (int si = 0; si < nsizes; si++) {
        int bytes = (int)sizes[si];
        if (bytes >= slow_from && (bytes & (bytes - 1)) != 0) continue; /* both ranks skip it */
        if (rank == 0 && bytes > size_cutoff) {
            int done = -1; /* no more sizes */
            MPI_Send(&done, 1, MPI_INT, peer, TAG_CTRL, MPI_COMM_WORLD);
            break;
        }
        int all_done = 0;
        if (rank == 0) {
            double start = ps_clock(), est = 0;
            int slow_n = PS_PROBE_SLOW_SAMPLES;
            if (!first_round && slow_rt_sum > 0) {
                double fit = floor(b->pingpong_s / slow_rt_sum);
                slow_n = fit < 1 ? 1 : fit < slow_n ? (int)fit : slow_n;
            }
            /* a slow network's sizes (a round trip above PS_PROBE_SLOW_RT): one round
             * trip a sample whatever the calibration says, so the one warm-up round
             * trip is all that precedes the samples (two round trips fewer a size),
             * and none after the first round: the link has carried these sizes and
             * the memset above touched the buffers' pages (at 20 Mbit/s the warm-ups
             * of 32 to 512 KiB took 0.8 s a round) */
            const int slow = bytes >= slow_from;
            int m = slow ? 1 : 2, phase = slow && !first_round ? 2 : 0, n = 0; /* 0 warm-up, 1 calibration, 2 samples */
            for (;;) {
                MPI_Send(&m, 1, MPI_INT, peer, TAG_CTRL, MPI_COMM_WORLD);
                double t = MPI_Wtime();
                for (int k = 0; k < m; k++) {
                    MPI_Send(buf, bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
                    MPI_Recv(rbuf, bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }
                double half = (MPI_Wtime() - t) / m / 2.0;
                if (phase == 0) { phase = slow ? 2 : 1; m = 1; continue; }
                if (phase == 1) {
                    est = half * 2;
                    phase = 2;
                } else {
                    samples[n++] = half;
                    int min_n = slow ? slow_n : b->min_samples;
                    int enough = n >= min_n &&
                                 (slow || rse(samples, n) <= b->rse_target || ps_clock() - start > per_size);
                    if (enough || n >= b->max_samples) break;
                }
                double mm = slow ? 1 : est > 0 ? ceil(PS_PROBE_BATCH_S / est) : 1000;
                m = mm < 1 ? 1 : mm > 10000 ? 10000 : (int)mm;
            }
            int stop = 0;
            MPI_Send(&stop, 1, MPI_INT, peer, TAG_CTRL, MPI_COMM_WORLD);
            /* the fastest round trip of this size: one descheduled sample on a
             * busy machine must not be taken for a slow network */
            double rt = INFINITY;
            for (int k = 0; k < n; k++)
                if (2 * samples[k] < rt) rt = 2 * samples[k];
            if (first_round && slow) slow_rt_sum += rt;
            if (first_round && size_cutoff > PS_PROBE_MAX_BYTES && rt > PS_PROBE_MAX_RT) size_cutoff = bytes;
            if (first_round && slow_from > PS_PROBE_MAX_BYTES && rt > PS_PROBE_SLOW_RT) slow_from = bytes + 1;
            /* the partner skips the same sizes */
            long sf = slow_from, co = size_cutoff;
            MPI_Send(&sf, 1, MPI_LONG, peer, TAG_CTRL, MPI_COMM_WORLD);
            MPI_Send(&co, 1, MPI_LONG, peer, TAG_CTRL, MPI_COMM_WORLD);
            json_t *row = json_object();
            json_object_set_new(row, "bytes", json_integer(bytes));
            json_object_set_new(row, "round_trips_per_sample", json_integer(m));
            json_object_set_new(row, "samples", ps__json_array_of(samples, n));
            json_array_append_new(out, row);
        } else {
            for (;;) {
                int m;
                MPI_Recv(&m, 1, MPI_INT, peer, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (m < 0) all_done = 1;
                if (m == 0) {
                    MPI_Recv(&slow_from, 1, MPI_LONG, peer, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Recv(&size_cutoff, 1, MPI_LONG, peer, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }
                if (m <= 0) break;
                for (int k = 0; k < m; k++) {
                    MPI_Recv(rbuf, bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(buf, bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
                }
            }
        }
        if (all_done) break;
    }
    free(samples);
    free(buf);
    free(rbuf);
    ps__quiet_barrier();
    return out;
}

/* The other pair (rank 0 and `partner`: within rank 0's node when ranks 0
 * and 1 are on two, or the other way round): powers of four from 1 B to
 * PS_PROBE_PAIR_MAX_BYTES, PS_PROBE_PAIR_SAMPLES batches each after a
 * calibrating one, up to the first size whose round trip exceeds
 * PS_PROBE_MAX_RT.  Collective; rank 0 gets [{bytes, samples}]. */
json_t *ps__pingpong_pair_measure(int partner)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (partner <= 0 || (rank != 0 && rank != partner)) {
        ps__quiet_barrier();
        return NULL;
    }
    const int peer = rank == 0 ? partner : 0;
    char *buf = ps_xmalloc(PS_PROBE_PAIR_MAX_BYTES), *rbuf = ps_xmalloc(PS_PROBE_PAIR_MAX_BYTES);
    memset(buf, rank + 1, PS_PROBE_PAIR_MAX_BYTES);
    json_t *out = rank == 0 ? json_array() : NULL;
    for (long bytes = 1; bytes <= PS_PROBE_PAIR_MAX_BYTES; bytes *= 4) {
        int last = 0;
        if (rank == 0) {
            double samples[PS_PROBE_PAIR_SAMPLES], best = INFINITY;
            int m = 1;
            for (int k = -1; k < PS_PROBE_PAIR_SAMPLES; k++) {
                MPI_Send(&m, 1, MPI_INT, peer, TAG_CTRL, MPI_COMM_WORLD);
                double t = MPI_Wtime();
                for (int j = 0; j < m; j++) {
                    MPI_Send(buf, (int)bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
                    MPI_Recv(rbuf, (int)bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }
                double half = (MPI_Wtime() - t) / m / 2.0;
                if (k < 0) { /* warm-up and calibration: a batch fills PS_PROBE_BATCH_S */
                    double mm = half > 0 ? ceil(PS_PROBE_BATCH_S / (2 * half)) : 1000;
                    m = mm < 1 ? 1 : mm > 10000 ? 10000 : (int)mm;
                    continue;
                }
                samples[k] = half;
                if (half < best) best = half;
            }
            int stop = 0;
            MPI_Send(&stop, 1, MPI_INT, peer, TAG_CTRL, MPI_COMM_WORLD);
            last = 2 * best > PS_PROBE_MAX_RT || bytes * 4 > PS_PROBE_PAIR_MAX_BYTES;
            MPI_Send(&last, 1, MPI_INT, peer, TAG_CTRL, MPI_COMM_WORLD);
            json_array_append_new(out, json_pack("{sIso}", "bytes", (json_int_t)bytes, "samples",
                                                 ps__json_array_of(samples, PS_PROBE_PAIR_SAMPLES)));
        } else {
            for (;;) {
                int m;
                MPI_Recv(&m, 1, MPI_INT, peer, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (m <= 0) break;
                for (int j = 0; j < m; j++) {
                    MPI_Recv(rbuf, (int)bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(buf, (int)bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
                }
            }
            MPI_Recv(&last, 1, MPI_INT, peer, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (last) break;
    }
    free(buf);
    free(rbuf);
    ps__quiet_barrier();
    return out;
}

/* ---- analysis --------------------------------------------------------------- */

static double min_of(const json_t *arr)
{
    double m = INFINITY;
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (json_number_value(v) < m) m = json_number_value(v);
    return m;
}

int ps__pingpong_round_figures(const json_t *round, double *latency, double *bandwidth)
{
    const json_t *pp = json_object_get(round, "pingpong");
    *latency = NAN;
    *bandwidth = NAN;
    if (!json_is_array(pp) || json_array_size(pp) == 0) return -1;
    double bw = 0;
    size_t i;
    json_t *row;
    json_array_foreach(pp, i, row) {
        double t = min_of(json_object_get(row, "samples"));
        double n = ps_json_num(row, "bytes");
        if (i == 0) *latency = t;
        if (t > 0 && isfinite(t) && n / t > bw) bw = n / t;
    }
    *bandwidth = bw > 0 ? bw : NAN;
    return 0;
}

/* How far the rounds' best times of one size lie apart, as a fraction of the
 * slowest: 1 - fastest / slowest (NAN with fewer than two rounds). */
static double rounds_spread(const json_t *per_round)
{
    double lo = INFINITY, hi = 0;
    int n = 0;
    size_t r;
    json_t *smp;
    json_array_foreach(per_round, r, smp) {
        double t = min_of(smp);
        if (!(t > 0) || !isfinite(t)) continue;
        lo = fmin(lo, t);
        hi = fmax(hi, t);
        n++;
    }
    return n >= 2 ? 1 - lo / hi : NAN;
}

/* ---- steps ------------------------------------------------------------------ */

/* The sizes around one power of two (itself and PS_PROBE_PERTURB either
 * side).  An MPI library's limits are mostly powers of two, so a switch
 * often falls inside a group: steps are looked for between groups, never
 * between neighbours a few bytes apart. */
typedef struct {
    double bytes;    /* the power of two */
    double time;     /* the best time of its sizes */
    double bw;       /* the best bandwidth of its sizes */
    double spread;   /* the largest rounds' spread of its sizes; NAN: one round, no measure of the noise */
} pp_group;

static long nearest_power(long b)
{
    long p = 1;
    while (p * 2 <= b + PS_PROBE_PERTURB) p *= 2;
    return p;
}

static int make_groups(const double *bytes, const double *tmin, const double *spread, size_t ns, pp_group *g,
                       int max)
{
    int ng = 0;
    for (size_t s = 0; s < ns; s++) {
        long b = (long)bytes[s], p = nearest_power(b);
        if (p < PS_PROBE_STEP_MIN_BYTES || labs(b - p) > PS_PROBE_PERTURB || !(tmin[s] > 0)) continue;
        if (ng == 0 || g[ng - 1].bytes != (double)p) {
            if (ng == max) break;
            g[ng++] = (pp_group){(double)p, INFINITY, 0, NAN};
        }
        pp_group *G = &g[ng - 1];
        G->time = fmin(G->time, tmin[s]);
        G->bw = fmax(G->bw, bytes[s] / tmin[s]);
        /* fmax ignores a NAN: one measured size gives the group its noise */
        G->spread = fmax(G->spread, spread[s]);
    }
    return ng;
}

static json_t *step_json(const pp_group *a, const pp_group *b)
{
    return json_pack("{sIsIsfs[ff]}", "from_bytes", (json_int_t)a->bytes, "to_bytes", (json_int_t)b->bytes,
                     "bandwidth_ratio", b->bw / a->bw, "rounds_spread", a->spread, b->spread);
}

/* extra time per extra byte from one group to the next */
static double cost(const pp_group *a, const pp_group *b)
{
    return (b->time - a->time) / (b->bytes - a->bytes);
}

/* What a step of the ping-pong between a and b bytes likely is, from what the same probe's
 * LogGOPS measurement found (lg: doc.loggops, NULL in raw data from before it): the eager limit S
 * it found inside the step; a shaped link's token bucket, whose burst a sample's round trips run
 * through; no eager limit up to its largest size beyond the step, or its S elsewhere (then not the
 * eager limit's step: a cache, or another of the library's copy mechanisms, as Open MPI's shared
 * memory changes at 4 KiB); else a protocol switch or data leaving a cache, as before such a
 * measurement. */
static void step_cause(const json_t *lg, double a, double b, char *buf, size_t n)
{
    double S = ps_json_num(lg, "S"), max = ps_json_num(lg, "max_bytes"), burst = ps_json_num(lg, "burst");
    int shaped = json_is_true(json_object_get(lg, "shaped")) && burst > 0, none_up_to_b = !(S > 0) && max >= b;
    char sb[32], mb[32], kb[32];
    ps_fmt_bytes(sb, sizeof sb, S);
    ps_fmt_bytes(mb, sizeof mb, max);
    ps_fmt_bytes(kb, sizeof kb, burst);
    if (!lg)
        snprintf(buf, n, "the MPI library likely switches protocol (eager to rendezvous) or data leaves a cache");
    else if (S > 0 && a <= S && S < b)
        snprintf(buf, n, "the MPI library switches protocol: the probe's LogGOPS measurement found its eager limit "
                 "at %s", sb);
    else if (shaped && a < burst && none_up_to_b)
        snprintf(buf, n, "the shaped link's token bucket (%s) runs dry within a sample's round trips, not an "
                 "eager limit (the LogGOPS measurement found none up to %s)", kb, mb);
    else if (shaped && a < burst && S > 0)
        snprintf(buf, n, "the shaped link's token bucket (%s) runs dry within a sample's round trips (the eager "
                 "limit, at %s, lies elsewhere)", kb, sb);
    else if (shaped && a < burst)
        snprintf(buf, n, "the shaped link's token bucket (%s) likely runs dry within a sample's round trips, or the "
                 "MPI library switches protocol above the %s the LogGOPS measurement reached", kb, mb);
    else if (S > 0 || none_up_to_b)
        snprintf(buf, n, "data likely leaves a cache or the MPI library changes how it copies, not its eager limit "
                 "(the LogGOPS measurement found %s %s)", S > 0 ? "that at" : "none up to", S > 0 ? sb : mb);
    else
        snprintf(buf, n, "the MPI library likely switches protocol (eager to rendezvous) above the %s the LogGOPS "
                 "measurement reached, or data leaves a cache", mb);
}

/* Steps where the bandwidth stays flat, e.g. an eager limit: from one group
 * to the next the extra time per extra byte peaks (PS_PROBE_STEP_COST times
 * both neighbouring intervals') and the time jumps (PS_PROBE_STEP_JUMP of
 * it), by more than the neighbours' cost plus what the rounds' spread at
 * both ends could make.  known[k]: a step from g[k] to g[k + 1]. */
static void time_steps(const pp_group *g, int ng, const json_t *lg, json_t *steps, json_t *warnings, int *known)
{
    for (int k = 1; k + 2 < ng; k++) {
        const pp_group *a = &g[k], *b = &g[k + 1];
        double c0 = cost(&g[k - 1], a), c1 = cost(a, b), c2 = cost(b, &g[k + 2]);
        double jump = b->time - a->time, beyond = jump - fmax(c0, c2) * (b->bytes - a->bytes);
        double noise = a->spread * a->time + b->spread * b->time;   /* NAN (one round): no claim */
        if (!(c1 > 0 && c1 > PS_PROBE_STEP_COST * c0 && c1 > PS_PROBE_STEP_COST * c2 &&
              jump > PS_PROBE_STEP_JUMP * a->time && beyond > noise))
            continue;
        json_t *st = step_json(a, b);
        json_object_set_new(st, "cost_per_byte_ratio", json_real(c1 / fmax(c0, c2)));
        json_array_append_new(steps, st);
        known[k] = 1;
        char sa[32], sb[32], t[32];
        ps_fmt_bytes(sa, sizeof sa, a->bytes);
        ps_fmt_bytes(sb, sizeof sb, b->bytes);
        ps_fmt_time(t, sizeof t, jump);
        char why[320];
        step_cause(lg, a->bytes, b->bytes, why, sizeof why);
        ps__warn(warnings, "ping-pong time jumps by %s between %s and %s (each extra byte costs %.1f times more than "
                 "around it; the rounds differ by at most %.0f%% and %.0f%% there): a step where %s; one Hockney "
                 "line cannot describe both sides",
                 t, sa, sb, c1 / fmax(c0, c2), 100 * a->spread, 100 * b->spread, why);
    }
}

/* Steps where the bandwidth falls from one group to the next (a protocol
 * switch or data leaving a cache): by more than 1 - PS_PROBE_STEP_RATIO and
 * by more than the rounds' spreads at both groups together. */
static void bandwidth_drops(const pp_group *g, int ng, const json_t *lg, json_t *steps, json_t *warnings,
                            const int *known)
{
    for (int k = 1; k < ng; k++) {
        const pp_group *a = &g[k - 1], *b = &g[k];
        double drop = 1 - b->bw / a->bw, noise = a->spread + b->spread;   /* NAN (one round): no claim */
        if (known[k - 1] || !(drop > 1 - PS_PROBE_STEP_RATIO && drop > noise)) continue;
        json_array_append_new(steps, step_json(a, b));
        char sa[32], sb[32];
        ps_fmt_bytes(sa, sizeof sa, a->bytes);
        ps_fmt_bytes(sb, sizeof sb, b->bytes);
        char why[320];
        step_cause(lg, a->bytes, b->bytes, why, sizeof why);
        ps__warn(warnings, "ping-pong bandwidth drops by %.0f%% from %s to %s, beyond the rounds' spread there "
                 "(%.0f%% and %.0f%%): a step where %s",
                 100 * drop, sa, sb, 100 * a->spread, 100 * b->spread, why);
    }
}

/* doc.pingpong.steps and their warnings; nothing the noise could make. */
static void find_steps(const double *bytes, const double *tmin, const double *spread, size_t ns, const json_t *lg,
                       json_t *pp, json_t *warnings)
{
    pp_group g[64];
    int known[64] = {0};
    int ng = make_groups(bytes, tmin, spread, ns, g, 64);
    json_t *steps = json_array();
    time_steps(g, ng, lg, steps, warnings, known);
    bandwidth_drops(g, ng, lg, steps, warnings, known);
    json_object_set_new(pp, "steps", steps);
}

int ps__pingpong_analyze(const json_t *rounds, json_t *doc, json_t *warnings, char *err, size_t errlen)
{
    size_t nr = json_array_size(rounds);
    const json_t *first = json_object_get(json_array_get(rounds, 0), "pingpong");
    size_t ns = json_array_size(first);
    if (nr == 0 || ns < 2) {
        ps_seterr(err, errlen, "the raw data has no ping-pong measurements");
        return -1;
    }
    double *bytes = ps_xmalloc(sizeof(double) * ns), *tmin = ps_xmalloc(sizeof(double) * ns);
    double *spread = ps_xmalloc(sizeof(double) * ns);
    json_t *sizes = json_array();
    for (size_t s = 0; s < ns; s++) {
        bytes[s] = ps_json_num(json_array_get(first, s), "bytes");
        json_t *per_round = json_array(), *m_round = json_array();
        double *all = NULL;
        size_t nall = 0;
        for (size_t r = 0; r < nr; r++) {
            const json_t *row = json_array_get(json_object_get(json_array_get(rounds, r), "pingpong"), s);
            if (!row || ps_json_num(row, "bytes") != bytes[s]) {
                ps_seterr(err, errlen, "round %zu of the raw data measured other message sizes", r + 1);
                json_decref(per_round);
                json_decref(m_round);
                json_decref(sizes);
                free(all);
                free(bytes);
                free(tmin);
                free(spread);
                return -1;
            }
            const json_t *smp = json_object_get(row, "samples");
            json_array_append(per_round, (json_t *)smp);
            json_array_append_new(m_round, json_integer((json_int_t)ps_json_num(row, "round_trips_per_sample")));
            size_t i;
            json_t *v;
            json_array_foreach(smp, i, v) {
                all = ps_xrealloc(all, sizeof(double) * (nall + 1));
                all[nall++] = json_number_value(v);
            }
        }
        double sum = 0, ss = 0;
        for (size_t i = 0; i < nall; i++) sum += all[i];
        double mean = nall ? sum / (double)nall : NAN;
        for (size_t i = 0; i < nall; i++) ss += (all[i] - mean) * (all[i] - mean);
        double sd = nall > 1 ? sqrt(ss / (double)(nall - 1)) : NAN;
        double med = nall ? ps_median(all, nall) : NAN;   /* sorts all */
        tmin[s] = nall ? all[0] : NAN;
        spread[s] = rounds_spread(per_round);
        json_t *o = json_object();
        json_object_set_new(o, "bytes", json_integer((json_int_t)bytes[s]));
        json_object_set_new(o, "time", json_real(tmin[s]));
        json_object_set_new(o, "bandwidth", json_real(bytes[s] / tmin[s]));
        json_object_set_new(o, "n", json_integer((json_int_t)nall));
        json_object_set_new(o, "min", json_real(tmin[s]));
        json_object_set_new(o, "median", json_real(med));
        json_object_set_new(o, "mean", json_real(mean));
        json_object_set_new(o, "sd", json_real(sd));
        json_object_set_new(o, "rse", json_real(nall > 1 && mean > 0 ? sd / sqrt((double)nall) / mean : NAN));
        json_object_set_new(o, "rounds_spread", isfinite(spread[s]) ? json_real(spread[s]) : json_null());
        json_object_set_new(o, "round_trips_per_sample", m_round);
        json_object_set_new(o, "samples", per_round);
        json_array_append_new(sizes, o);
        free(all);
    }
    json_t *pp = json_object();
    json_object_set_new(pp, "statistic", json_string("min"));
    json_object_set_new(pp, "sizes", sizes);

    long planned[128];
    int np = make_sizes(planned, 128);
    if (ns > 0 && bytes[ns - 1] < PS_PROBE_MAX_BYTES) {
        char a[32], t[32];
        ps_fmt_bytes(a, sizeof a, bytes[ns - 1]);
        ps_fmt_time(t, sizeof t, 2 * tmin[ns - 1]);
        ps__warn(warnings,
                 "the ping-pong stopped at %s: one round trip took %s, too long for the time budget (a slow network); "
                 "the bandwidth is the best up to that size",
                 a, t);
    }
    /* the first planned size not measured below the last measured one, after
     * sizes between the powers of two were: from there on the first round
     * found a round trip slower than PS_PROBE_SLOW_RT and kept only the powers
     * of two (data of powers of two only did not switch) */
    for (int k = 0, s = 0, between = 0; k < np && planned[k] <= bytes[ns - 1]; k++) {
        if (s < (int)ns && bytes[s] == planned[k]) {
            between |= (planned[k] & (planned[k] - 1)) != 0;
            s++;
            continue;
        }
        if (!between) break;
        char a[32], t[32];
        ps_fmt_bytes(a, sizeof a, (double)planned[k]);
        ps_fmt_time(t, sizeof t, PS_PROBE_SLOW_RT);
        ps__warn(warnings,
                 "from %s on the ping-pong measured only powers of two, with fewer samples: the fastest round trip "
                 "there took over %s, as on a slow network (on a fast link: the machine was busy)",
                 a, t);
        break;
    }
    /* a size much slower than a larger one (the loader's PS_MACHINE_PP_DIP, seen from the other side):
     * the transport stalls at that size (under slownet 100mbit every probe took 32765 bytes 8 times as
     * long as 32768: TCP's acknowledgements), kept as measured; the loader says nothing of a table the
     * probe wrote, so it is said here, once */
    for (size_t s = 0; s + 1 < ns; s++) {
        size_t f = s + 1;
        for (size_t k = s + 1; k < ns; k++)
            if (tmin[k] < tmin[f]) f = k;
        if (!(tmin[f] < PS_MACHINE_PP_DIP * tmin[s])) continue;
        char b[32], d[32];
        ps_fmt_time(b, sizeof b, tmin[s]);
        ps_fmt_time(d, sizeof d, tmin[f]);
        /* (to the byte: the probe's sizes lie 3 bytes apart around each power of two) */
        ps__warn(warnings,
                 "the ping-pong at %.0f bytes took %s, %.1f times the %s of %.0f bytes: the transport stalls at "
                 "that size (as TCP does at some sizes); kept as measured, so a program that sends it pays it in "
                 "the model too",
                 bytes[s], b, tmin[s] / tmin[f], d, bytes[f]);
        break;
    }
    /* small-message latency and the best bandwidth, as NetPIPE reports them */
    int best = 0;
    for (size_t s = 0; s < ns; s++)
        if (bytes[s] / tmin[s] > bytes[best] / tmin[best]) best = (int)s;
    json_object_set_new(pp, "latency", json_real(tmin[0]));
    json_object_set_new(pp, "latency_bytes", json_integer((json_int_t)bytes[0]));
    json_object_set_new(pp, "bandwidth", json_real(bytes[best] / tmin[best]));
    json_object_set_new(pp, "bandwidth_bytes", json_integer((json_int_t)bytes[best]));

    /* The sustained rate: the slope of the time over the largest messages
     * (those from an eighth of the largest size up).  Hockney's r_inf is the
     * asymptotic rate; a token bucket (a shaped link) or a cache lets short
     * messages pass far faster, and one line through every size then claims
     * a rate no long message reaches. */
    double sustained = NAN;
    {
        int from = (int)ns;
        while (from > 0 && bytes[from - 1] >= bytes[ns - 1] / PS_PROBE_TAIL_SPAN) from--;
        ps_linfit tf;
        if ((int)ns - from >= 3 && ps_lsq_line(bytes + from, tmin + from, NULL, (int)ns - from, &tf) == 0 &&
            tf.slope > 0)
            sustained = 1.0 / tf.slope;
    }
    if (isfinite(sustained)) {
        json_object_set_new(pp, "sustained_bandwidth", json_real(sustained));
        if (bytes[best] / tmin[best] > PS_PROBE_BURST_RATIO * sustained) {
            char a[32];
            ps_fmt_bytes(a, sizeof a, bytes[best]);
            ps__warn(warnings,
                     "the best bandwidth (%.1f MB/s at %s) is %.0f times the sustained rate of the largest messages "
                     "(%.1f MB/s): short messages pass faster than long ones (a token bucket's burst on a shaped "
                     "link, or a cache); r_inf is the sustained rate",
                     bytes[best] / tmin[best] / 1e6, a, bytes[best] / tmin[best] / sustained, sustained / 1e6);
        }
    }

    /* COMMS1 / Hockney */
    double t0, rinf, nhalf;
    ps_linfit f;
    json_t *h = json_object();
    if (ps_hockney_fit(bytes, tmin, (int)ns, &t0, &rinf, &nhalf, &f) == 0) {
        const char *from = "fit";
        double rms_rel = f.rms_rel;   /* of the line given as t0, r_inf */
        if (isfinite(sustained) && (rinf > PS_PROBE_RINF_OVER * sustained || rinf * PS_PROBE_RINF_AGREE < sustained)) {
            /* one line cannot hold both ends: the rate from the long messages,
             * the start-up time from the shortest */
            json_object_set_new(h, "line_r_inf", json_real(rinf));
            json_object_set_new(h, "line_t0", json_real(t0));
            ps__warn(warnings,
                     "one Hockney line over every size gives r_inf = %.1f MB/s, but the largest messages go at "
                     "%.1f MB/s: r_inf is that sustained rate and t0 the smallest message's time",
                     rinf / 1e6, sustained / 1e6);
            rinf = sustained;
            t0 = tmin[0];
            nhalf = t0 * rinf;
            from = "largest messages";
            /* the error printed beside t0 and r_inf is this line's, not the fit's */
            json_object_set_new(h, "line_rms_rel", json_real(f.rms_rel));
            ps_linfit line;
            ps_line_residuals(bytes, tmin, (int)ns, t0, 1.0 / rinf, &line);
            rms_rel = line.rms_rel;
        }
        json_object_set_new(h, "t0", json_real(t0));
        json_object_set_new(h, "r_inf", json_real(rinf));
        json_object_set_new(h, "n_half", json_real(nhalf));
        json_object_set_new(h, "r_inf_from", json_string(from));
        json_object_set_new(h, "rms_rel", isfinite(rms_rel) ? json_real(rms_rel) : json_null());
        json_object_set_new(h, "points", json_integer((json_int_t)ns));
        if (t0 <= 0)
            ps__warn(warnings, "the Hockney fit gives a start-up time t0 = %.3g s <= 0: a single line does not "
                     "describe this network; the model uses the 1-byte time as latency instead", t0);
        if (rms_rel > 0.25)
            ps__warn(warnings, "the Hockney line t(n) = t0 + n/r_inf misses the measured times by %.0f%% (rms): "
                     "the ping-pong table in the model is more faithful than t0 and r_inf", 100 * rms_rel);
    } else {
        ps__warn(warnings, "the Hockney fit failed (times do not grow with message size)");
    }
    json_object_set_new(pp, "hockney", h);

    find_steps(bytes, tmin, spread, ns, json_object_get(doc, "loggops"), pp, warnings);
    json_object_set_new(doc, "pingpong", pp);
    free(bytes);
    free(tmin);
    free(spread);
    return 0;
}

/* Both directions at once: ranks 0 and 1 exchange `bytes` simultaneously
 * (nonblocking send and receive, then wait), best of several.  Compared with
 * the one-way time of the same size it tells a full-duplex link (about the
 * same time) from a shared one (about twice: a bus in the estimator's
 * terms, e.g. one Ethernet segment or one shaping queue).
 * The one-way time is the best of the ping-pong's many samples on warm
 * buffers, so the exchange gets warm buffers and more than a few samples too:
 * on the 2-core VM of docs/PROBE.md ("Bus or no bus") the first exchanges
 * of fresh 1 MiB buffers took 2-8 times the later ones, and the best of three
 * after one warm-up read 1.2-2.1 times one direction where the best of
 * twelve read 0.9-1.2.  Both ranks stop after the same exchange: they decide
 * from the times they share.
 * On a slow link (the ping-pong's round trips passed PS_PROBE_SLOW_RT:
 * slow_from, known to both ranks; 0.42 s an exchange at 512 KiB under slownet
 * 20mbit) the exchanges are timed from the first: the warm-ups are for fresh
 * buffers in memory, a thousandth of that (and deciding by the warm-up's own
 * time would let one descheduled warm-up on a busy machine cut a fast link's
 * samples to three).  In the rounds after the first, an
 * exchange whose best so far times PS_PROBE_DUPLEX_REPS exceeds `allow` is
 * not measured: the rounds that have one give the ratio (probe.c), and a
 * quick probe over 20 Mbit/s took 2.1 s a round for it, with a 1.4 s budget
 * for the whole ping-pong. */
json_t *ps__duplex_measure(long bytes, double allow)
{
    static double best_before = 0;   /* the same on ranks 0 and 1: from the times they share */
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank > 1 || (best_before > 0 && PS_PROBE_DUPLEX_REPS * best_before > allow)) {
        ps__quiet_barrier();
        return NULL;
    }
    if (bytes > size_cutoff) bytes = size_cutoff;
    while (bytes & (bytes - 1)) bytes &= bytes - 1; /* a power of two */
    char *sb = ps_xmalloc((size_t)bytes), *rb = ps_xmalloc((size_t)bytes);
    memset(sb, rank + 1, (size_t)bytes);
    memset(rb, 0, (size_t)bytes);
    const int peer = 1 - rank;
    double best = INFINITY, spent = 0;
    int timed = 0;
    for (int k = 0;; k++) {
        MPI_Request q[2];
        /* the two start together; a barrier of MPI_COMM_WORLD here would not
         * match the other ranks' one nonblocking barrier (MPI-3 5.12), and
         * the job hung beyond two ranks */
        MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, TAG_CTRL, NULL, 0, MPI_BYTE, peer, TAG_CTRL, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        double t = MPI_Wtime();
        MPI_Irecv(rb, (int)bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(sb, (int)bytes, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &q[1]);
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        MPI_Wait(&q[1], MPI_STATUS_IGNORE);
        t = MPI_Wtime() - t;
        double other = 0;
        MPI_Sendrecv(&t, 1, MPI_DOUBLE, peer, TAG_CTRL, &other, 1, MPI_DOUBLE, peer, TAG_CTRL, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        double both = t > other ? t : other;   /* the same on both ranks */
        if (k < PS_PROBE_DUPLEX_WARMUP && slow_from > PS_PROBE_MAX_BYTES) continue;
        if (both < best) best = both;
        spent += both;
        timed++;
        if (timed >= PS_PROBE_DUPLEX_MAX || (timed >= PS_PROBE_DUPLEX_REPS && spent >= PS_PROBE_DUPLEX_S)) break;
    }
    free(sb);
    free(rb);
    if (best_before == 0 || best < best_before) best_before = best;
    ps__quiet_barrier();
    if (rank != 0) return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "bytes", json_integer(bytes));
    json_object_set_new(o, "exchange", json_real(best));
    json_object_set_new(o, "samples", json_integer(timed));
    return o;
}

void ps__pingpong_other_analyze(const json_t *raw, json_t *doc)
{
    const json_t *rounds = json_object_get(raw, "rounds"), *first = NULL;
    size_t r;
    json_t *round;
    json_array_foreach(rounds, r, round) if (!first) first = json_object_get(round, "pingpong_other");
    if (!first) return;
    json_t *sizes = json_array();
    double lat = NAN, bw = NAN, bw_bytes = 0;
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(first, "sizes"), i, row) {
        double bytes = ps_json_num(row, "bytes"), best = INFINITY;
        /* the best sample of this size over every round that measured it */
        json_array_foreach(rounds, r, round) {
            const json_t *o = json_object_get(json_object_get(round, "pingpong_other"), "sizes");
            const json_t *same = json_array_get(o, i);
            if (same && ps_json_num(same, "bytes") == bytes) {
                double t = min_of(json_object_get(same, "samples"));
                if (t < best) best = t;
            }
        }
        if (!(best > 0) || !isfinite(best)) continue;
        json_array_append_new(sizes, json_pack("{sfsf}", "bytes", bytes, "time", best));
        if (i == 0) lat = best;
        bw = bytes / best;
        bw_bytes = bytes;
    }
    json_t *o = json_object();
    json_object_set_new(o, "partner", json_integer((json_int_t)ps_json_num(first, "partner")));
    json_object_set_new(o, "between", json_string(json_is_true(json_object_get(first, "between_nodes"))
                                                      ? "nodes" : "ranks of one node"));
    json_object_set_new(o, "latency", isfinite(lat) ? json_real(lat) : json_null());
    json_object_set_new(o, "bandwidth", isfinite(bw) ? json_real(bw) : json_null());
    json_object_set_new(o, "bandwidth_bytes", json_integer((json_int_t)bw_bytes));
    json_object_set_new(o, "sizes", sizes);
    json_object_set_new(doc, "pingpong_other", o);
}
