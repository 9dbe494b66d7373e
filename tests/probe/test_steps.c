/* test_steps.c - the ping-pong's steps (a protocol switch, data leaving a
 * cache) on synthetic tables: a step is claimed between the groups of sizes
 * around two powers of two, never between neighbours a few bytes apart, and
 * only beyond the spread of the rounds' best times there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_int.h"

#include "check.h"

#define ROUNDS 3
#define MAX_SIZES 80

/* the true time of n bytes */
typedef double (*curve_fn)(double n);
/* the factor on that time of one size in one round (its best sample) */
typedef double (*noise_fn)(long n, int round);

/* the probe's sizes: powers of two from 1 B to 4 MiB and the same +/- 3 */
static int probe_sizes(long *v)
{
    int n = 0;
    for (long p = 1; p <= PS_PROBE_MAX_BYTES; p *= 2)
        for (long s = p - PS_PROBE_PERTURB; s <= p + PS_PROBE_PERTURB; s += PS_PROBE_PERTURB) {
            int dup = s < 1;
            for (int i = 0; i < n; i++) dup |= v[i] == s;
            if (!dup) v[n++] = s;
        }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            long t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n;
}

/* Raw rounds as the rank side writes them; each size's samples are its
 * best and two a little slower. */
static json_t *rounds_of(int rounds, curve_fn curve, noise_fn noise)
{
    long sizes[MAX_SIZES];
    int ns = probe_sizes(sizes);
    json_t *rl = json_array();
    for (int r = 0; r < rounds; r++) {
        json_t *pp = json_array();
        for (int i = 0; i < ns; i++) {
            double t = curve((double)sizes[i]) * noise(sizes[i], r);
            json_array_append_new(pp, json_pack("{sIsis[fff]}", "bytes", (json_int_t)sizes[i],
                                                "round_trips_per_sample", 1, "samples", t * 1.01, t, t * 1.03));
        }
        json_array_append_new(rl, json_pack("{so}", "pingpong", pp));
    }
    return rl;
}

/* the analysis: its steps in *steps (borrowed from *doc), its warnings */
static json_t *analyze_with(int rounds, curve_fn curve, noise_fn noise, json_t *loggops, json_t **doc,
                            json_t **warnings)
{
    char err[256];
    json_t *rl = rounds_of(rounds, curve, noise);
    *doc = json_object();
    if (loggops) json_object_set_new(*doc, "loggops", loggops);
    *warnings = json_array();
    CHECK(ps__pingpong_analyze(rl, *doc, *warnings, err, sizeof err) == 0, "%s", err);
    json_decref(rl);
    return json_object_get(json_object_get(*doc, "pingpong"), "steps");
}

static json_t *analyze(int rounds, curve_fn curve, noise_fn noise, json_t **doc, json_t **warnings)
{
    return analyze_with(rounds, curve, noise, NULL, doc, warnings);
}

static int warned(const json_t *warnings, const char *needle)
{
    size_t i;
    json_t *w;
    json_array_foreach(warnings, i, w) if (strstr(json_string_value(w), needle)) return 1;
    return 0;
}

static double num(const json_t *o, const char *k)
{
    return json_number_value(json_object_get(o, k));
}

/* deterministic, in [0, 1) */
static double unit(long n, int round)
{
    unsigned s = (unsigned)n * 2654435761u + (unsigned)round * 40503u + 12345u;
    s ^= s >> 13;
    s *= 1103515245u;
    s ^= s >> 16;
    return (s & 0xffff) / 65536.0;
}

/* Hockney: 1 us start-up, 20 GB/s */
static double flat(double n)
{
    return 1e-6 + n / 20e9;
}

/* 20 GB/s reached at n_1/2 = 1000 B, and 40% less from 100000 B up (between
 * the 64 KiB and the 128 KiB groups) */
static double stepped(double n)
{
    return n / (20e9 * n / (n + 1000) * (n > 100000 ? 0.6 : 1.0));
}

/* flat, 3 us more from 4097 B up: an eager limit at 4 KiB, inside its group */
static double eager_4k(double n)
{
    return flat(n) + (n > 4096 ? 3e-6 : 0);
}

static double quiet(long n, int round)
{
    return 1 + 0.02 * unit(n, round);
}

/* 1 when n is in the group around p (p - 3, p, p + 3), with its factor in round r from f */
static int in_group(long n, long p, const double f[3][ROUNDS], int r, double *factor)
{
    if (labs(n - p) > PS_PROBE_PERTURB) return 0;
    *factor = f[(n - p + PS_PROBE_PERTURB) / PS_PROBE_PERTURB][r];
    return 1;
}

/* A busy machine, as a user's quick probe saw it: every best up to 12% slow;
 * 1 MiB + 3 B 25% to 29% slow in every round (its neighbours at most 12%); the 4 MiB
 * group 45% to 120% slow, scattered over its sizes and rounds by up to 32%
 * (1 - 1.5 / 2.2), more than the 31% its best (1.45) lies below 2 MiB's. */
static double busy(long n, int round)
{
    static const double f[3][ROUNDS] = {{1.45, 2.10, 1.80}, {1.60, 2.20, 1.50}, {2.00, 1.55, 1.70}};
    double x;
    if (in_group(n, PS_PROBE_MAX_BYTES, f, round, &x)) return x;
    if (n == (1L << 20) + 3) return 1.25 + 0.04 * unit(n, round);
    return 1 + 0.12 * unit(n, round);
}

/* the 128 KiB group's rounds scatter by up to 45% (1 - 1.05 / 1.9): more than the step */
static double scattered_128k(long n, int round)
{
    static const double f[3][ROUNDS] = {{1.00, 1.80, 1.30}, {1.60, 1.05, 1.90}, {1.40, 1.75, 1.10}};
    double x;
    return in_group(n, 128L << 10, f, round, &x) ? x : quiet(n, round);
}

/* the user's noise: neither the neighbours at 1 MiB nor the scattered 4 MiB
 * group make a step */
TEST_IMPL(steps_noisy_flat)
{
    json_t *doc, *warnings;
    const json_t *steps = analyze(ROUNDS, flat, busy, &doc, &warnings);
    CHECK(json_array_size(steps) == 0, "%zu steps", json_array_size(steps));
    CHECK(!warned(warnings, "switches protocol"));
    /* the noise is measured and kept: 1 - 1.55 / 2.0 at 4 MiB + 3 B */
    const json_t *sizes = json_object_get(json_object_get(doc, "pingpong"), "sizes");
    const json_t *last = json_array_get(sizes, json_array_size(sizes) - 1);
    CHECK(num(last, "bytes") == PS_PROBE_MAX_BYTES + PS_PROBE_PERTURB);
    CHECK(fabs(num(last, "rounds_spread") - (1 - 1.55 / 2.0)) < 1e-9, "%g", num(last, "rounds_spread"));
    json_decref(doc);
    json_decref(warnings);
}

/* a clean 40% step between 64 KiB and 128 KiB is found there, and only there */
TEST_IMPL(steps_clean_drop)
{
    json_t *doc, *warnings;
    const json_t *steps = analyze(ROUNDS, stepped, quiet, &doc, &warnings);
    CHECK(json_array_size(steps) == 1, "%zu steps", json_array_size(steps));
    const json_t *st = json_array_get(steps, 0);
    CHECK(num(st, "from_bytes") == 65536 && num(st, "to_bytes") == 131072);
    CHECK(fabs(num(st, "bandwidth_ratio") - 0.6) < 0.02, "ratio %g", num(st, "bandwidth_ratio"));
    CHECK(warned(warnings, "bandwidth drops by") && warned(warnings, "from 64 KiB to 128 KiB"));
    json_decref(doc);
    json_decref(warnings);
}

/* the same step with rounds that scatter by more than it: within the noise, no claim */
TEST_IMPL(steps_drop_within_noise)
{
    json_t *doc, *warnings;
    const json_t *steps = analyze(ROUNDS, stepped, scattered_128k, &doc, &warnings);
    CHECK(json_array_size(steps) == 0, "%zu steps", json_array_size(steps));
    CHECK(!warned(warnings, "switches protocol"));
    json_decref(doc);
    json_decref(warnings);
}

/* An eager limit at 4096 B splits the 4 KiB group (4099 B is 3 us slower than
 * 4096 B): the time step is claimed from that group to the next, and the
 * neighbours' difference counts as no noise (each size's rounds agree). */
TEST_IMPL(steps_switch_inside_group)
{
    json_t *doc, *warnings;
    const json_t *steps = analyze(ROUNDS, eager_4k, quiet, &doc, &warnings);
    CHECK(json_array_size(steps) == 1, "%zu steps", json_array_size(steps));
    const json_t *st = json_array_get(steps, 0);
    CHECK(num(st, "from_bytes") == 4096 && num(st, "to_bytes") == 8192);
    CHECK(num(st, "cost_per_byte_ratio") > PS_PROBE_STEP_COST);
    CHECK(warned(warnings, "time jumps by") && warned(warnings, "between 4 KiB and 8 KiB"));
    json_decref(doc);
    json_decref(warnings);
}

/* one round measures no noise: no step is claimed, however clear */
TEST_IMPL(steps_one_round)
{
    json_t *doc, *warnings;
    const json_t *steps = analyze(1, stepped, quiet, &doc, &warnings);
    CHECK(json_array_size(steps) == 0, "%zu steps", json_array_size(steps));
    json_decref(doc);
    json_decref(warnings);
}

/* The same time step between 4 KiB and 8 KiB explained by what the probe's LogGOPS measurement
 * found (doc.loggops, analysed first): the eager limit inside it; a shaped link's bucket with no
 * eager limit up to beyond it; an eager limit elsewhere (then not the eager limit's step); no
 * measurement beyond the step (a protocol switch stays possible).  No warning names an eager-limit
 * switch the measurement ruled out. */
TEST_IMPL(steps_cause_from_loggops)
{
    struct {
        json_t *lg;
        const char *says, *never;
    } cases[] = {
        {json_pack("{sfsfsbsf}", "S", 4096.0, "max_bytes", 65536.0, "shaped", 0, "burst", 0.0),
         "switches protocol: the probe's LogGOPS measurement found its eager limit at 4 KiB", "bucket"},
        {json_pack("{sfsfsbsf}", "S", 0.0, "max_bytes", 31700.0, "shaped", 1, "burst", 63191.0),
         "token bucket (61.71 KiB) runs dry within a sample's round trips, not an eager limit (the LogGOPS "
         "measurement found none up to 30.96 KiB)",
         "likely switches protocol"},
        {json_pack("{sfsfsbsf}", "S", 65536.0, "max_bytes", 262144.0, "shaped", 0, "burst", 0.0),
         "data likely leaves a cache or the MPI library changes how it copies, not its eager limit (the LogGOPS "
         "measurement found that at 64 KiB)",
         "bucket"},
        {json_pack("{sfsfsbsf}", "S", 0.0, "max_bytes", 6000.0, "shaped", 0, "burst", 0.0),
         "likely switches protocol (eager to rendezvous) above the 5.859 KiB the LogGOPS measurement reached",
         "bucket"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *doc, *warnings;
        const json_t *steps = analyze_with(ROUNDS, eager_4k, quiet, cases[i].lg, &doc, &warnings);
        CHECK(json_array_size(steps) == 1, "case %zu: %zu steps", i, json_array_size(steps));
        CHECK(warned(warnings, "between 4 KiB and 8 KiB"), "case %zu", i);
        CHECK(warned(warnings, cases[i].says) && !warned(warnings, cases[i].never), "case %zu: %s", i,
              json_string_value(json_array_get(warnings, json_array_size(warnings) - 1)));
        json_decref(doc);
        json_decref(warnings);
    }
}

/* flat, with a stall at 32765 bytes (21 times its flat time; TCP under
 * slownet 100mbit took 8 times 32768's in every probe) */
static double stall_32765(double n)
{
    return flat(n) * (n == 32765 ? 21 : 1);
}

/* A size far slower than a larger one is said, with both sizes and the
 * factor (the loader is silent about a table the probe wrote); the flat
 * table's own dips (noise of a few percent) are not. */
TEST_IMPL(steps_stall_said)
{
    json_t *doc, *warnings;
    analyze(ROUNDS, stall_32765, quiet, &doc, &warnings);
    CHECK(warned(warnings, "the ping-pong at 32765 bytes took ") && warned(warnings, " times the ") && warned(warnings, "the transport stalls at that size"));
    json_decref(doc);
    json_decref(warnings);
    analyze(ROUNDS, flat, quiet, &doc, &warnings);
    CHECK(!warned(warnings, "the transport stalls"));
    json_decref(doc);
    json_decref(warnings);
}
