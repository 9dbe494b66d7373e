/* noise.c - how busy the machine was around a measurement (see noise.h). */
#include "launch/noise.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "launch/meta.h"
#include "util/stats.h"
#include "util/util.h"

static double tv(struct timeval t) { return (double)t.tv_sec + 1e-6 * (double)t.tv_usec; }

static double own_cpu(void)
{
    struct rusage a, b;
    double s = 0;
    if (getrusage(RUSAGE_SELF, &a) == 0) s += tv(a.ru_utime) + tv(a.ru_stime);
    if (getrusage(RUSAGE_CHILDREN, &b) == 0) s += tv(b.ru_utime) + tv(b.ru_stime);
    return s;
}

/* The aggregate "cpu" line of /proc/stat: user nice system idle iowait irq
 * softirq steal (guest time is already inside user). */
static int read_stat(ps_noise_sample *s)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1;
    unsigned long long v[8] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                   &v[6], &v[7]);
    fclose(f);
    if (n < 4) return -1;
    s->total = 0;
    for (int i = 0; i < n; i++) s->total += v[i];
    s->idle = v[3] + (n > 4 ? v[4] : 0);
    s->steal = n > 7 ? v[7] : 0;
    s->have_stat = 1;
    return 0;
}

static double read_load(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double l = NAN;
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = NAN;
        fclose(f);
    }
    return l;
}

static void sample_now(ps_noise_sample *s)
{
    s->when = ps_clock();
    s->load1 = read_load();
    s->have_stat = 0;
    read_stat(s);
    s->own_cpu = own_cpu();
}

double ps_noise_others(const ps_noise_sample *a, const ps_noise_sample *b)
{
    if (!a->valid || !b->valid || !a->have_stat || !b->have_stat || b->total <= a->total) return NAN;
    double hz = (double)sysconf(_SC_CLK_TCK);
    double total = (double)(b->total - a->total) / hz;
    double idle = (double)(b->idle - a->idle) / hz, steal = (double)(b->steal - a->steal) / hz;
    double others = total - idle - steal - (b->own_cpu - a->own_cpu);
    if (others < 0) others = 0;
    return others / total;
}

double ps_noise_steal(const ps_noise_sample *a, const ps_noise_sample *b)
{
    if (!a->valid || !b->valid || !a->have_stat || !b->have_stat || b->total <= a->total) return NAN;
    return (double)(b->steal - a->steal) / (double)(b->total - a->total);
}

/* Fixed integer work the compiler cannot drop (the result is kept). */
static volatile uint64_t calib_sink;
static void calib_unit(void)
{
    uint64_t x = calib_sink | 1;
    for (long i = 0; i < PS_NOISE_CALIB_STEPS; i++) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    calib_sink = x;
}

static int parse_reps(const char *v)
{
    char *end;
    errno = 0;
    long n = v && *v ? strtol(v, &end, 10) : 0;
    return v && *v && !errno && !*end && n >= 1 && n <= PS_NOISE_CALIB_REPS_MAX ? (int)n : 0;
}

int ps_noise_reps(void)
{
    int n = parse_reps(getenv("PARSCOPE_NOISE_REPS"));
    return n ? n : PS_NOISE_CALIB_REPS;
}

int ps_noise_reps_check(char *err, size_t errlen)
{
    const char *v = getenv("PARSCOPE_NOISE_REPS");
    if (!v || !*v || parse_reps(v)) return 0;   /* set empty: as unset */
    ps_seterr(err, errlen, "PARSCOPE_NOISE_REPS=%.40s: not a whole number from 1 to %d (the noise calibration's repetitions)",
              v, PS_NOISE_CALIB_REPS_MAX);
    return -1;
}

void ps_noise_take(ps_noise_sample *s, int calibrate)
{
    memset(s, 0, sizeof *s);
    s->calib_slowdown = s->calib_cv = s->calib_others = s->calib_min = s->calib_median = NAN;
    if (calibrate) {
        ps_noise_sample a = {0};
        sample_now(&a);
        a.valid = 1;
        int reps = ps_noise_reps();
        double *t = ps_xcalloc((size_t)reps, sizeof *t);
        calib_unit(); /* warm: page in, clock up */
        for (int i = 0; i < reps; i++) {
            double t0 = ps_clock();
            calib_unit();
            t[i] = ps_clock() - t0;
        }
        ps_sample_stats st;
        ps_sample_stats_of(t, reps, &st);
        free(t);
        s->calib_n = st.n;
        s->calib_min = st.min;
        s->calib_median = st.median;
        s->calib_slowdown = st.min > 0 ? st.median / st.min - 1 : NAN;
        s->calib_cv = st.mean > 0 ? st.sd / st.mean : NAN;
        sample_now(s);
        s->valid = 1;
        s->calib_others = ps_noise_others(&a, s);
    } else {
        sample_now(s);
        s->valid = 1;
    }
}

static json_t *num(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static json_t *sample_json(const ps_noise_sample *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "load1", num(s->load1));
    if (s->calib_n > 0) {
        json_t *c = json_object();
        json_object_set_new(c, "n", json_integer(s->calib_n));
        json_object_set_new(c, "min_s", num(s->calib_min));
        json_object_set_new(c, "median_s", num(s->calib_median));
        json_object_set_new(c, "slowdown", num(s->calib_slowdown));
        json_object_set_new(c, "cv", num(s->calib_cv));
        json_object_set_new(c, "others_pct", num(100 * s->calib_others));
        json_object_set_new(o, "calibration", c);
    }
    return o;
}

/* The verdict and the line every output shows (one formatter for all of them): the level, the
 * reason, the load before (NAN: unknown) and the others' share during the measurement where the
 * reason is not already that share (NAN: not said). */
static void set_verdict(json_t *o, const char *level, const char *why, double load1, long cpus, double others)
{
    json_object_set_new(o, "level", json_string(level));
    json_object_set_new(o, "reason", json_string(why));
    char line[512];
    int n = snprintf(line, sizeof line, "machine noise: %s (%s", level, why);
    if (isfinite(load1) && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "; load %.1f on %ld CPUs before", load1, cpus);
    if (isfinite(others) && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "; others used %.0f%% of it during the measurement",
                      100 * others);
    if (n > 0 && (size_t)n < sizeof line) snprintf(line + n, sizeof line - (size_t)n, ")");
    json_object_set_new(o, "summary", json_string(line));
}

void ps_noise_raise(json_t *noise, const char *level, const char *why)
{
    json_t *b = json_object_get(noise, "before"), *d = json_object_get(noise, "during");
    json_t *l = json_object_get(b, "load1"), *u = json_object_get(d, "others_busy_pct");
    set_verdict(noise, level, why, json_is_number(l) ? json_number_value(l) : NAN,
                (long)json_integer_value(json_object_get(noise, "cpus")),
                json_is_number(u) ? json_number_value(u) / 100 : NAN);
}

json_t *ps_noise_json(const ps_noise_sample *b, const ps_noise_sample *a)
{
    json_t *o = json_object();
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    json_object_set_new(o, "cpus", json_integer(cpus > 0 ? cpus : 0));
    if (b && b->valid) json_object_set_new(o, "before", sample_json(b));
    double others = NAN, steal = NAN;
    if (b && a && b->valid && a->valid) {
        others = ps_noise_others(b, a);
        steal = ps_noise_steal(b, a);
        json_t *d = json_object();
        json_object_set_new(d, "seconds", json_real(a->when - b->when));
        json_object_set_new(d, "others_busy_pct", num(100 * others));
        json_object_set_new(d, "steal_pct", num(100 * steal));
        json_object_set_new(d, "own_cpu_s", json_real(a->own_cpu - b->own_cpu));
        json_object_set_new(o, "during", d);
    }
    if (a && a->valid) json_object_set_new(o, "after", sample_json(a));
    /* the verdict: the worst sign of interference seen */
    double worst = 0;
    char why[256] = "";
    const ps_noise_sample *s2[2] = {b, a};
    const char *when[2] = {"before", "after"};
    for (int i = 0; i < 2; i++) {
        const ps_noise_sample *s = s2[i];
        if (!s || !s->valid) continue;
        if (isfinite(s->calib_slowdown) && s->calib_slowdown > worst) {
            worst = s->calib_slowdown;
            snprintf(why, sizeof why, "the calibration loop ran %.0f%% slower than its best %s", 100 * worst,
                     when[i]);
        }
        if (isfinite(s->calib_others) && s->calib_others > worst) {
            worst = s->calib_others;
            snprintf(why, sizeof why, "other processes used %.0f%% of the machine %s", 100 * worst, when[i]);
        }
    }
    if (isfinite(others) && others > worst) {
        worst = others;
        snprintf(why, sizeof why, "other processes used %.0f%% of the machine during the run", 100 * worst);
    }
    if (isfinite(steal) && steal > worst) {
        worst = steal;
        snprintf(why, sizeof why, "the hypervisor took %.0f%% of the CPU time (steal) during the run", 100 * worst);
    }
    const char *level = worst > PS_NOISE_VERY_BUSY ? "very busy" : worst > PS_NOISE_QUIET ? "busy" : "quiet";
    if (!why[0]) snprintf(why, sizeof why, "no interference seen");
    set_verdict(o, level, why, b && b->valid ? b->load1 : NAN, cpus, worst != others ? others : NAN);
    /* the repetitions the loop ran (PARSCOPE_NOISE_REPS), not the default's */
    json_object_set_new(o, "method",
                        json_sprintf("load average (/proc/loadavg); a fixed integer loop timed %d times before and "
                                     "after (slowdown = median / best - 1, cv); the machine's busy CPU time minus "
                                     "parscope's own and its children's between the two samples (/proc/stat, "
                                     "getrusage), and steal where the kernel reports it",
                                     ps_noise_reps()));
    return o;
}

