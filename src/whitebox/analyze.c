/*
 * analyze.c - from the trials of the white-box variants to the breakdown:
 * the three parts overall and per rank with their spreads, the
 * communication/computation profile, load balance, section times and the
 * simple-model comparison (seed 002; definitions in docs/WHITEBOX.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/result.h"
#include "util/util.h"
#include "whitebox/whitebox.h"
#include "trace/json.h"

/* The three parts: name in the document, minuend and subtrahend variants
 * (-1: none, the part is the variant's time itself). */
static const struct {
    const char *name, *formula;
    int a, b;
} parts[3] = {
    {"communication", "T(comm)", PS_WB_COMM, -1},
    {"data_movement", "T(comm+data) - T(comm)", PS_WB_DATA, PS_WB_COMM},
    {"computation", "T(full) - T(comm+data)", PS_WB_FULL, PS_WB_DATA},
};

static void set_stat(json_t *o, const ps_wb_stat *st)
{
    json_object_set_new(o, "min", ps_json_real_or_null(st->min));
    json_object_set_new(o, "q1", ps_json_real_or_null(st->q1));
    json_object_set_new(o, "q3", ps_json_real_or_null(st->q3));
    json_object_set_new(o, "max", ps_json_real_or_null(st->max));
    json_object_set_new(o, "pairs", json_integer(st->n));
}

/* The times of variant v (overall, or rank r's lane when r >= 0). */
static double *times_of(const ps_wb_data *d, int v, int r)
{
    int n = d->ntrials[v];
    double *x = ps_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    for (int k = 0; k < n; k++) {
        const ps_wb_sample *s = &d->sample[v][k];
        if (r < 0) x[k] = s->time;
        else x[k] = isfinite(s->time) && r < s->nranks ? s->lane[r] : NAN;
    }
    return x;
}

static double best_of(const ps_wb_data *d, int v, int r)
{
    double *t = times_of(d, v, r);
    ps_wb_stat st = ps_wb_stat_of(t, d->ntrials[v]);
    free(t);
    return st.min;
}

/* Why a negative part is negative: in how many trial pairs T(a) < T(b),
 * and whether that is beyond the noise (ps_wb_part_noise_of). */
static json_t *negative_note(const ps_wb_data *d, int a, int b, int r, const double *ta, const ps_wb_stat *st,
                             const json_t *part, double full_median)
{
    int below = 0;
    double *tb = times_of(d, b, r);
    for (int i = 0; i < d->ntrials[a]; i++)
        for (int j = 0; j < d->ntrials[b]; j++)
            if (isfinite(ta[i]) && isfinite(tb[j]) && ta[i] < tb[j]) below++;
    free(tb);
    const char *why;
    switch (ps_wb_part_noise_of(part, full_median).verdict) {
    case PS_WB_BELOW_NOISE:
        why = "every pair is below zero, beyond the run-to-run noise: the kernels are out of order";
        break;
    case PS_WB_WITHIN_NOISE: why = "the pairs reach zero or above, so this part is within the run-to-run noise"; break;
    default: why = "too few trial pairs to tell this part from the run-to-run noise"; break;
    }
    char note[320];
    snprintf(note, sizeof note, "negative: T(%s) is below T(%s) in %d of %d trial pairs; %s", ps_wb_variant_name(a),
             ps_wb_variant_name(b), below, st->n, why);
    return json_string(note);
}

/* A part (overall when r < 0): value = difference of the variants' medians
 * (so the three parts add up to the median of T(full)); spread over all
 * K x K trial pairs. */
static json_t *part_json(const ps_wb_data *d, int p, int r, double full_median, int detail)
{
    int a = parts[p].a, b = parts[p].b;
    double *ta = times_of(d, a, r);
    ps_wb_stat sa = ps_wb_stat_of(ta, d->ntrials[a]);
    json_t *o = json_object();
    ps_wb_stat st;
    double value;
    if (b < 0) {
        st = sa;
        value = sa.median;
    } else {
        double *tb = times_of(d, b, r);
        ps_wb_stat sb = ps_wb_stat_of(tb, d->ntrials[b]);
        st = ps_wb_diff_of(ta, d->ntrials[a], tb, d->ntrials[b]);
        value = sa.median - sb.median;
        if (detail) {
            /* the differences within each round of the interleaved order */
            json_t *paired = json_array();
            int n = d->ntrials[a] < d->ntrials[b] ? d->ntrials[a] : d->ntrials[b];
            for (int k = 0; k < n; k++) json_array_append_new(paired, ps_json_real_or_null(ta[k] - tb[k]));
            json_object_set_new(o, "paired", paired);
        }
        free(tb);
    }
    json_object_set_new(o, "value", ps_json_real_or_null(value));
    /* best-of-K (CLUE's figure): interference only adds time, so the fastest
     * trials are the least disturbed */
    json_object_set_new(o, "best", ps_json_real_or_null(b < 0 ? sa.min : sa.min - best_of(d, b, r)));
    set_stat(o, &st);
    if (detail) {
        json_object_set_new(o, "formula", json_string(parts[p].formula));
        json_object_set_new(o, "share_pct", ps_json_real_or_null(full_median > 0 ? 100.0 * value / full_median : NAN));
    }
    int negative = isfinite(value) && value < 0;
    json_object_set_new(o, "negative", json_boolean(negative));
    if (negative && detail) json_object_set_new(o, "note", negative_note(d, a, b, r, ta, &st, o, full_median));
    free(ta);
    return o;
}

static double median_of(const double *v, int n)
{
    ps_wb_stat st = ps_wb_stat_of(v, n);
    return st.median;
}

/* The first successful trial of variant v, or NULL. */
static const ps_wb_sample *first_ok(const ps_wb_data *d, int v)
{
    for (int k = 0; k < d->ntrials[v]; k++)
        if (isfinite(d->sample[v][k].time) && d->sample[v][k].nranks == d->nranks) return &d->sample[v][k];
    return NULL;
}

enum { F_LANE, F_COMPUTE, F_DATA_MOVE };

static double field(const ps_wb_sample *s, int f, int r)
{
    switch (f) {
    case F_LANE: return s->lane[r];
    case F_COMPUTE: return s->compute[r];
    default: return s->data_move[r];
    }
}

/* Median over the trials of variant v of a per-rank figure. */
static double rank_median(const ps_wb_data *d, int v, int r, int f)
{
    int n = d->ntrials[v];
    double *x = ps_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    for (int k = 0; k < n; k++) {
        const ps_wb_sample *s = &d->sample[v][k];
        if (!isfinite(s->time) || r >= s->nranks) {
            x[k] = NAN;
            continue;
        }
        x[k] = field(s, f, r);
    }
    double m = median_of(x, n);
    free(x);
    return m;
}

static json_t *variants_json(const ps_wb_data *d)
{
    static const char *const build[PS_WB_NVARIANTS] = {
        "PS_VARIANT=0 PS_SECTIONS=0", "PS_VARIANT=1 PS_SECTIONS=0", "PS_VARIANT=2 PS_SECTIONS=0",
        "PS_VARIANT=2 PS_SECTIONS=1"};
    static const char *const what[PS_WB_NVARIANTS] = {
        "communication skeleton", "communication skeleton + communication-related data movement",
        "the whole program", "the whole program with section timing"};
    json_t *o = json_object();
    for (int v = 0; v < PS_WB_NVARIANTS; v++) {
        if (!d->ntrials[v]) continue;
        json_t *x = json_object();
        json_object_set_new(x, "kernel", json_string(what[v]));
        json_object_set_new(x, "build", json_string(build[v]));
        double *t = times_of(d, v, -1);
        json_object_set_new(x, "time", ps_result_time(t, d->ntrials[v]));
        free(t);
        const ps_wb_sample *s = first_ok(d, v);
        if (s) {
            uint64_t m = 0, b = 0;
            for (int r = 0; r < s->nranks; r++) {
                m += s->messages[r];
                b += s->bytes[r];
            }
            json_object_set_new(x, "messages_sent", json_integer((json_int_t)m));
            json_object_set_new(x, "bytes_sent", json_integer((json_int_t)b));
        }
        json_object_set_new(o, ps_wb_variant_name(v), x);
    }
    return o;
}

static json_t *rounds_json(const ps_wb_data *d)
{
    int n = 0;
    for (int v = 0; v < PS_WB_NVARIANTS; v++)
        if (d->ntrials[v] > n) n = d->ntrials[v];
    json_t *a = json_array();
    for (int k = 0; k < n; k++) {
        json_t *x = json_object();
        json_object_set_new(x, "round", json_integer(k + 1));
        for (int v = 0; v < PS_WB_NVARIANTS; v++)
            if (k < d->ntrials[v])
                json_object_set_new(x, ps_wb_variant_name(v), ps_json_real_or_null(d->sample[v][k].time));
        json_array_append_new(a, x);
    }
    return a;
}

/* The skeleton must send what the whole program sends: otherwise the kernels
 * do not share a communication pattern and the subtraction means nothing. */
static json_t *messages_check(const ps_wb_data *d)
{
    const ps_wb_sample *ref = first_ok(d, PS_WB_FULL);
    json_t *o = json_object();
    int same = 1;
    char note[512] = "every variant sends the same messages per rank";
    for (int v = 0; v < PS_WB_NVARIANTS && ref; v++) {
        const ps_wb_sample *s = first_ok(d, v);
        if (!s || s == ref) continue;
        for (int r = 0; r < s->nranks && same; r++)
            if (s->messages[r] != ref->messages[r] || s->bytes[r] != ref->bytes[r]) {
                same = 0;
                snprintf(note, sizeof note,
                         "rank %d sends %llu messages / %llu bytes in the %s variant but %llu / %llu in the "
                         "full program: the kernels differ in communication, so the breakdown is not exact",
                         r, (unsigned long long)s->messages[r], (unsigned long long)s->bytes[r],
                         ps_wb_variant_name(v), (unsigned long long)ref->messages[r],
                         (unsigned long long)ref->bytes[r]);
            }
    }
    json_object_set_new(o, "same", json_boolean(same));
    json_object_set_new(o, "note", json_string(note));
    return o;
}

static json_t *load_balance_json(const ps_wb_data *d, const double *comp_rank)
{
    json_t *o = json_object();
    int n = d->nranks;
    double sum = 0, mx = -INFINITY, isum = 0, imx = -INFINITY, imn = INFINITY;
    int slow = -1, ok = 0, iok = 0;
    for (int r = 0; r < n; r++) {
        if (isfinite(comp_rank[r])) {
            sum += comp_rank[r];
            ok++;
            if (comp_rank[r] > mx) mx = comp_rank[r];
        }
        double ic = rank_median(d, PS_WB_FULL, r, F_COMPUTE);
        if (isfinite(ic)) {
            isum += ic;
            iok++;
            if (ic > imx) {
                imx = ic;
                slow = r;
            }
            if (ic < imn) imn = ic;
        }
    }
    double mean = ok ? sum / ok : NAN, imean = iok ? isum / iok : NAN;
    json_object_set_new(o, "computation_max_over_mean", ps_json_real_or_null(ok && mean > 0 ? mx / mean : NAN));
    json_object_set_new(o, "instrumented_compute_min_s", ps_json_real_or_null(iok ? imn : NAN));
    json_object_set_new(o, "instrumented_compute_max_s", ps_json_real_or_null(iok ? imx : NAN));
    json_object_set_new(o, "instrumented_compute_mean_s", ps_json_real_or_null(imean));
    double ratio = iok && imean > 0 ? imx / imean : NAN;
    json_object_set_new(o, "instrumented_compute_max_over_mean", ps_json_real_or_null(ratio));
    json_object_set_new(o, "imbalance_pct", ps_json_real_or_null(iok && imx > 0 ? 100.0 * (imx - imean) / imx : NAN));
    json_object_set_new(o, "most_loaded_rank", slow >= 0 ? json_integer(slow) : json_null());
    json_object_set_new(o, "note",
                        json_string("max/mean of the per-rank computation; 1 is perfect balance.  The "
                                    "instrumented figures are the COMPUTE events of the full program's "
                                    "trace (time each rank spends computing, without waiting)"));
    return o;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static json_t *sections_json(const ps_wb_data *d)
{
    int v = PS_WB_SECTIONS, n = d->ntrials[v];
    if (!n) return json_null();
    /* the section names, in order */
    char **names = NULL;
    int nn = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < d->sample[v][k].nsections; i++) {
            const char *s = d->sample[v][k].sections[i].name;
            int seen = 0;
            for (int j = 0; j < nn && !seen; j++) seen = !strcmp(names[j], s);
            if (!seen) {
                names = ps_xrealloc(names, (size_t)(nn + 1) * sizeof *names);
                names[nn++] = (char *)s;
            }
        }
    if (nn > 1) qsort(names, (size_t)nn, sizeof *names, cmp_str);
    double *tt = times_of(d, v, -1);
    double tmed = median_of(tt, n);
    free(tt);
    json_t *a = json_array();
    double *x = ps_xmalloc((size_t)n * sizeof *x);
    for (int j = 0; j < nn; j++) {
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(names[j]));
        json_t *pr = json_array();
        double mx = -INFINITY, sum = 0;
        int ok = 0;
        for (int r = 0; r < d->nranks; r++) {
            uint64_t count = 0;
            for (int k = 0; k < n; k++) {
                x[k] = isfinite(d->sample[v][k].time) ? 0 : NAN;
                for (int i = 0; i < d->sample[v][k].nsections; i++) {
                    const ps_wb_section *s = &d->sample[v][k].sections[i];
                    if (s->rank == r && !strcmp(s->name, names[j])) {
                        x[k] = s->seconds;
                        count = s->count;
                    }
                }
            }
            ps_wb_stat st = ps_wb_stat_of(x, n);
            json_t *e = json_object();
            json_object_set_new(e, "rank", json_integer(r));
            json_object_set_new(e, "count", json_integer((json_int_t)count));
            json_object_set_new(e, "median_s", ps_json_real_or_null(st.median));
            json_object_set_new(e, "min_s", ps_json_real_or_null(st.min));
            json_object_set_new(e, "max_s", ps_json_real_or_null(st.max));
            json_array_append_new(pr, e);
            if (isfinite(st.median)) {
                ok++;
                sum += st.median;
                if (st.median > mx) mx = st.median;
            }
        }
        json_object_set_new(o, "max_rank_s", ps_json_real_or_null(ok ? mx : NAN));
        json_object_set_new(o, "mean_rank_s", ps_json_real_or_null(ok ? sum / ok : NAN));
        json_object_set_new(o, "pct_of_run", ps_json_real_or_null(ok && tmed > 0 ? 100.0 * mx / tmed : NAN));
        json_object_set_new(o, "ranks", pr);
        json_array_append_new(a, o);
    }
    free(x);
    free(names);
    return a;
}

/* ---- memory: page faults and cache misses over the timed interval ---------- */

enum { M_MINOR, M_MAJOR, M_FAULTS, M_CACHE, M_SETUP };

static double mem_field(const ps_wb_sample *s, int f, int r)
{
    switch (f) {
    case M_MINOR: return s->minflt ? s->minflt[r] : NAN;
    case M_MAJOR: return s->majflt ? s->majflt[r] : NAN;
    case M_FAULTS: return s->minflt && s->majflt ? s->minflt[r] + s->majflt[r] : NAN;
    case M_CACHE: return s->cache_misses ? s->cache_misses[r] : NAN;
    default: return s->setup_in_timed ? s->setup_in_timed[r] : NAN;
    }
}

/* Median over the trials of variant v of rank r's figure f. */
static double mem_rank(const ps_wb_data *d, int v, int r, int f)
{
    int n = d->ntrials[v];
    double *x = ps_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *x);
    for (int k = 0; k < n; k++) {
        const ps_wb_sample *s = &d->sample[v][k];
        x[k] = isfinite(s->time) && r < s->nranks ? mem_field(s, f, r) : NAN;
    }
    double m = median_of(x, n);
    free(x);
    return m;
}

/* The largest rank's median (ranks count in parallel: the slowest decides). */
static double mem_max(const ps_wb_data *d, int v, int f)
{
    double mx = NAN;
    for (int r = 0; r < d->nranks; r++) {
        double x = mem_rank(d, v, r, f);
        if (isfinite(x) && (!isfinite(mx) || x > mx)) mx = x;
    }
    return mx;
}

static json_t *mem_counts(const ps_wb_data *d, int v, int r)
{
    json_t *o = json_object();
    static const char *const key[3] = {"minor_faults", "major_faults", "cache_misses"};
    static const int field_of[3] = {M_MINOR, M_MAJOR, M_CACHE};
    for (int i = 0; i < 3; i++) {
        double x = r < 0 ? mem_max(d, v, field_of[i]) : mem_rank(d, v, r, field_of[i]);
        json_object_set_new(o, key[i], isfinite(x) ? json_integer((json_int_t)llround(x)) : json_null());
    }
    return o;
}

/* A part's memory check: how many more page faults its minuend kernel takes
 * than its subtrahend (per rank, the largest difference), what they cost at
 * the measured price of a fault, and a flag when that is a sizeable share of
 * the part: the part then measures a difference of memory state (memory
 * touched for the first time inside the timed interval), not the activity. */
static json_t *mem_part_json(const ps_wb_data *d, int p, double value, double tfull, int *flagged)
{
    int a = parts[p].a, b = parts[p].b;
    double diff = NAN;
    for (int r = 0; r < d->nranks; r++) {
        double fa = mem_rank(d, a, r, M_FAULTS), fb = b < 0 ? 0 : mem_rank(d, b, r, M_FAULTS);
        if (isfinite(fa) && isfinite(fb) && (!isfinite(diff) || fabs(fa - fb) > fabs(diff))) diff = fa - fb;
    }
    json_t *o = json_object();
    json_object_set_new(o, "fault_difference", isfinite(diff) ? json_integer((json_int_t)llround(diff)) : json_null());
    double ft = isfinite(diff) && isfinite(d->fault_cost) ? fabs(diff) * d->fault_cost : NAN;
    json_object_set_new(o, "fault_time_s", ps_json_real_or_null(ft));
    double mag = fabs(value);
    json_object_set_new(o, "share_of_part_pct", ps_json_real_or_null(isfinite(ft) && mag > 0 ? 100.0 * ft / mag : NAN));
    int flag = isfinite(ft) && ft > 0 && isfinite(value) && ft >= 0.1 * mag && (!isfinite(tfull) || ft >= 0.01 * tfull);
    json_object_set_new(o, "flagged", json_boolean(flag));
    if (flag) {
        char t1[32], t2[32], note[640];
        ps_fmt_time(t1, sizeof t1, ft);
        ps_fmt_time(t2, sizeof t2, d->fault_cost);
        if (b < 0)
            snprintf(note, sizeof note,
                     "the communication kernel takes %.0f page faults per rank inside its timed interval, about %s "
                     "at %s per fault (%.0f%% of T(comm)): memory touched for the first time there (a buffer "
                     "allocated or first used after the set-up), not communication",
                     fabs(diff), t1, t2, mag > 0 ? 100.0 * ft / mag : 100.0);
        else
            snprintf(note, sizeof note,
                     "the %s and %s kernels differ by %.0f page faults per rank, about %s at %s per fault (%.0f%% "
                     "of this part): the part includes memory touched for the first time inside the timed "
                     "interval by one kernel only, not just %s",
                     ps_wb_variant_name(a), ps_wb_variant_name(b), fabs(diff), t1, t2,
                     mag > 0 ? 100.0 * ft / mag : 100.0, p == 1 ? "data movement" : "computation");
        json_object_set_new(o, "note", json_string(note));
        *flagged = 1;
    }
    return o;
}

static json_t *memory_json(const ps_wb_data *d, const double value[3], double tfull)
{
    json_t *o = json_object();
    json_object_set_new(o, "fault_cost_s", ps_json_real_or_null(d->fault_cost));
    char how[256];
    if (isfinite(d->fault_cost))
        snprintf(how, sizeof how, "measured here before the trials: touching %d fresh pages, the median of 3", d->fault_pages);
    else
        snprintf(how, sizeof how, "not measured: page faults cannot be counted here, so no part is priced");
    json_object_set_new(o, "fault_cost_note", json_string(how));
    json_t *vars = json_object();
    int cache = 0;
    for (int v = 0; v < PS_WB_NVARIANTS; v++) {
        if (!d->ntrials[v]) continue;
        json_object_set_new(vars, ps_wb_variant_name(v), mem_counts(d, v, -1));
        if (isfinite(mem_max(d, v, M_CACHE))) cache = 1;
    }
    json_object_set_new(o, "variants", vars);
    json_object_set_new(o, "cache_misses_counted", json_boolean(cache));
    json_t *pj = json_object();
    int flagged = 0;
    for (int p = 0; p < 3; p++) json_object_set_new(pj, parts[p].name, mem_part_json(d, p, value[p], tfull, &flagged));
    json_object_set_new(o, "parts", pj);
    json_object_set_new(o, "flagged", json_boolean(flagged));
    json_object_set_new(o, "note",
                        json_string(cache ? "page faults (getrusage) and cache misses (perf_event_open) over each "
                                            "kernel's timed interval: the largest rank's median over the trials"
                                          : "page faults (getrusage) over each kernel's timed interval: the largest "
                                            "rank's median over the trials; cache misses are not counted here "
                                            "(perf_event_open is not allowed, or there are no hardware counters)"));
    return o;
}

/* Set-up inside the timed interval: \INIT_ARRAY after the set-up ended. */
static json_t *setup_json(const ps_wb_data *d)
{
    json_t *o = json_object(), *vars = json_object();
    for (int v = 0; v < PS_WB_NVARIANTS; v++)
        if (d->ntrials[v])
            json_object_set_new(vars, ps_wb_variant_name(v), ps_json_real_or_null(mem_max(d, v, M_SETUP)));
    json_object_set_new(o, "init_array_in_timed_s", vars);
    double c = mem_max(d, PS_WB_COMM, M_SETUP);
    int inside = isfinite(c) && c > 0;
    json_object_set_new(o, "inside", json_boolean(inside));
    char note[512];
    if (inside) {
        char t[32];
        ps_fmt_time(t, sizeof t, c);
        snprintf(note, sizeof note,
                 "\\INIT_ARRAY ran inside the timed interval (%s in the comm kernel, the largest rank): the program "
                 "initializes arrays after its set-up ends (after the first message, in a \\LOOP), so that time "
                 "is counted in T(comm); it cancels in the other parts.  Initialize before the first message and "
                 "\\LOOP",
                 t);
    } else {
        snprintf(note, sizeof note, "no \\INIT_ARRAY ran inside the timed interval");
    }
    json_object_set_new(o, "note", json_string(note));
    return o;
}

static json_t *model_json(const ps_wb_data *d, const ps_machine *m, const char *machine_path)
{
    json_t *o = json_object();
    if (!m) {
        json_object_set_new(o, "available", json_false());
        json_object_set_new(o, "note", json_string("the comparison with low-level benchmarks needs a machine model: "
                                                   "measure one with 'parscope probe -o m.ini' and pass -m m.ini"));
        return o;
    }
    ps_wb_model_params p;
    ps_wb_model_params_of(m, &p);
    json_object_set_new(o, "available", json_true());
    json_object_set_new(o, "machine", json_string(machine_path ? machine_path : ""));
    if (m->name[0]) json_object_set_new(o, "machine_name", json_string(m->name));
    json_object_set_new(o, "latency_s", ps_json_real_or_null(p.latency));
    json_object_set_new(o, "bandwidth_Bps", ps_json_real_or_null(p.bandwidth));
    json_object_set_new(o, "parameters", json_string(p.source));
    json_object_set_new(o, "formula", json_string("per rank: messages sent x latency + bytes sent / bandwidth; the "
                                                  "kernel: the largest rank's figure"));
    const ps_wb_sample *s = first_ok(d, PS_WB_COMM);
    double *tc = times_of(d, PS_WB_COMM, -1);
    double measured = median_of(tc, d->ntrials[PS_WB_COMM]);
    free(tc);
    if (!s) {
        json_object_set_new(o, "note", json_string("no successful trial of the communication kernel to compare"));
        return o;
    }
    json_t *ranks = json_array();
    double pmax = 0, tmax = 0;
    for (int r = 0; r < s->nranks; r++) {
        double pr = ps_wb_model_time(&p, s->messages[r], s->bytes[r]);
        if (pr > pmax) pmax = pr;
        if (s->msg_table[r] > tmax) tmax = s->msg_table[r];
        json_t *e = json_object();
        json_object_set_new(e, "rank", json_integer(r));
        json_object_set_new(e, "messages", json_integer((json_int_t)s->messages[r]));
        json_object_set_new(e, "bytes", json_integer((json_int_t)s->bytes[r]));
        json_object_set_new(e, "latency_part_s", ps_json_real_or_null((double)s->messages[r] * p.latency));
        json_object_set_new(e, "predicted_s", ps_json_real_or_null(pr));
        json_object_set_new(e, "predicted_table_s", ps_json_real_or_null(s->msg_table[r]));
        json_object_set_new(e, "measured_s", ps_json_real_or_null(rank_median(d, PS_WB_COMM, r, F_LANE)));
        json_array_append_new(ranks, e);
    }
    json_object_set_new(o, "ranks", ranks);
    json_object_set_new(o, "predicted_s", ps_json_real_or_null(pmax));
    json_object_set_new(o, "predicted_table_s", ps_json_real_or_null(tmax));
    json_object_set_new(o, "measured_s", ps_json_real_or_null(measured));
    double ratio = pmax > 0 ? measured / pmax : NAN;
    json_object_set_new(o, "measured_over_predicted", ps_json_real_or_null(ratio));
    char note[640];
    const char *how = !isfinite(ratio) ? "cannot be compared (the model predicts no time)"
                      : ratio > 1.25   ? "is slower than the model predicts"
                      : ratio < 0.8    ? "is faster than the model predicts"
                                       : "is within 25% of the model";
    snprintf(note, sizeof note,
             "the measured communication kernel %s (measured / predicted = %.3g).  A latency + bandwidth "
             "model from a ping-pong does not see network contention, waiting for partners (pipelines, "
             "collectives built from point-to-point messages), overlap of messages in flight, or where in "
             "memory the messages come from; seed 002 found the same on the T3D and the SP2",
             how, ratio);
    json_object_set_new(o, "note", json_string(note));
    return o;
}

/* T(comm) <= T(comm+data) <= T(full) unless a difference is negative beyond
 * its noise (every trial pair below zero); null when the noise of a
 * difference cannot be told. */
static json_t *ordered_json(const json_t *parts_doc, double full_median)
{
    int below = 0, unknown = 0;
    for (int p = 1; p < 3; p++) {
        enum ps_wb_verdict v = ps_wb_part_noise_of(json_object_get(parts_doc, parts[p].name), full_median).verdict;
        below |= v == PS_WB_BELOW_NOISE;
        unknown |= v == PS_WB_NOISE_UNKNOWN;
    }
    json_t *ord = json_object();
    json_object_set_new(ord, "holds", below ? json_false() : unknown ? json_null() : json_true());
    json_object_set_new(ord, "note",
                        json_string(below     ? "the kernels are out of order beyond the measured spread: a part "
                                                "is negative in every trial pair (see parts)"
                                    : unknown ? "T(comm) <= T(comm+data) <= T(full) cannot be checked: a part has "
                                                "fewer than two trial pairs"
                                              : "T(comm) <= T(comm+data) <= T(full) within the measured spread"));
    return ord;
}

int ps_whitebox_analyze(const ps_wb_data *d, const ps_machine *m, const char *machine_path, json_t *doc)
{
    json_object_set_new(doc, "variants", variants_json(d));
    json_object_set_new(doc, "rounds", rounds_json(d));
    double *tf = times_of(d, PS_WB_FULL, -1);
    json_object_set_new(doc, "time", ps_result_time(tf, d->ntrials[PS_WB_FULL]));
    free(tf);
    /* the T(full) the conclusions read back, so every verdict sees the same figure */
    double full_median = ps_json_num(json_object_get(doc, "time"), "median");

    json_t *pj = json_object();
    double value[3];
    for (int p = 0; p < 3; p++) {
        json_t *o = part_json(d, p, -1, full_median, 1);
        value[p] = ps_json_num(o, "value");
        json_object_set_new(pj, parts[p].name, o);
    }
    json_object_set_new(doc, "parts", pj);
    json_object_set_new(doc, "ordered", ordered_json(pj, full_median));

    json_t *prof = json_object();
    double tot = full_median;
    json_object_set_new(prof, "communication_pct", ps_json_real_or_null(tot > 0 ? 100 * value[0] / tot : NAN));
    json_object_set_new(prof, "data_movement_pct", ps_json_real_or_null(tot > 0 ? 100 * value[1] / tot : NAN));
    json_object_set_new(prof, "computation_pct", ps_json_real_or_null(tot > 0 ? 100 * value[2] / tot : NAN));
    json_object_set_new(prof, "communication_over_computation",
                        ps_json_real_or_null(isfinite(value[2]) && value[2] > 0 ? (value[0] + value[1]) / value[2]
                                                                                 : NAN));
    json_object_set_new(doc, "profile", prof);

    json_object_set_new(doc, "messages", messages_check(d));

    json_t *ranks = json_array();
    double *comp_rank = ps_xcalloc((size_t)(d->nranks > 0 ? d->nranks : 1), sizeof *comp_rank);
    const ps_wb_sample *sc = first_ok(d, PS_WB_COMM);
    for (int r = 0; r < d->nranks; r++) {
        json_t *e = json_object();
        json_object_set_new(e, "rank", json_integer(r));
        double *tl = times_of(d, PS_WB_FULL, r);
        json_object_set_new(e, "lane_full_s", ps_json_real_or_null(median_of(tl, d->ntrials[PS_WB_FULL])));
        free(tl);
        for (int p = 0; p < 3; p++) {
            json_t *o = part_json(d, p, r, full_median, 0);
            if (p == 2) comp_rank[r] = json_is_real(json_object_get(o, "value"))
                                           ? json_real_value(json_object_get(o, "value"))
                                           : NAN;
            json_object_set_new(e, parts[p].name, o);
        }
        json_object_set_new(e, "instrumented_compute_s",
                            ps_json_real_or_null(rank_median(d, PS_WB_FULL, r, F_COMPUTE)));
        json_object_set_new(e, "instrumented_data_move_s",
                            ps_json_real_or_null(rank_median(d, PS_WB_FULL, r, F_DATA_MOVE)));
        if (sc) {
            json_object_set_new(e, "messages_sent", json_integer((json_int_t)sc->messages[r]));
            json_object_set_new(e, "bytes_sent", json_integer((json_int_t)sc->bytes[r]));
        }
        json_t *mem = json_object();
        for (int v = 0; v < PS_WB_NVARIANTS; v++)
            if (d->ntrials[v]) json_object_set_new(mem, ps_wb_variant_name(v), mem_counts(d, v, r));
        json_object_set_new(e, "memory", mem);
        json_array_append_new(ranks, e);
    }
    json_object_set_new(doc, "ranks", ranks);
    json_object_set_new(doc, "load_balance", load_balance_json(d, comp_rank));
    free(comp_rank);
    json_object_set_new(doc, "sections", sections_json(d));
    json_object_set_new(doc, "memory", memory_json(d, value, full_median));
    json_object_set_new(doc, "setup", setup_json(d));
    json_object_set_new(doc, "model", model_json(d, m, machine_path));
    json_object_set_new(doc, "conclusions", ps_whitebox_conclude(doc));
    return 0;
}
