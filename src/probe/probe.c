/*
 * probe.c - the probe's driver (rank side), analysis (rounds, agreement,
 * warnings, model), and outputs (text, SVG, HTML fragment).  See probe.h.
 */
#include "probe/probe.h"

#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "launch/meta.h"
#include "launch/noise.h"
#include "report/figure.h"
#include "report/html.h"
#include "report/noise.h"
#include "report/plot.h"
#include "report/result.h"
#include "probe/probe_int.h"
#include "trace/json.h"
#include "util/util.h"

/*                                 name     rounds pp_s  hrel_s daxpy_s rse   min max   step cap */
static const ps_probe_budget budgets[] = {
    [PS_PROBE_TINY]  = {"tiny",  3, 0.15, 0.15, 0.04, 0.05, 3, 100, 32, 16L << 20},
    [PS_PROBE_QUICK] = {"quick", 3, 1.4,  1.0,  0.25, 0.02, 5, 400, 8,  64L << 20},
    [PS_PROBE_FULL]  = {"full",  3, 12.0, 9.0,  2.5,  0.01, 8, 2000, 1, 1024L << 20},
};

const ps_probe_budget *ps_probe_budget_for(ps_probe_mode mode)
{
    return &budgets[mode];
}

double ps_probe_budget_seconds(ps_probe_mode mode)
{
    const ps_probe_budget *b = &budgets[mode];
    return b->rounds * (b->pingpong_s + b->hrelation_s + b->daxpy_s) + PS_PROBE_START_S;
}

/* ---- small JSON helpers ------------------------------------------------------------ */

json_t *ps__json_array_of(const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(a, isfinite(v[i]) ? json_real(v[i]) : json_null());
    return a;
}

void ps__warn(json_t *warnings, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_array_append_new(warnings, json_vsprintf(fmt, ap));
    va_end(ap);
}

/* Element i of a JSON array as a number, NAN where there is none. */
static double num_at(const json_t *a, size_t i)
{
    const json_t *v = json_array_get(a, i);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *jstr(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *ps__fit_json(const ps_linfit *f, double h0, double h1, double r)
{
    json_t *o = json_object();
    json_object_set_new(o, "h0", json_real(h0));
    json_object_set_new(o, "h1", json_real(h1));
    json_object_set_new(o, "points", json_integer(f->n));
    json_object_set_new(o, "g_s", num_or_null(f->slope));
    json_object_set_new(o, "l_s", num_or_null(f->intercept));
    json_object_set_new(o, "g", num_or_null(f->slope * r));
    json_object_set_new(o, "l", num_or_null(f->intercept * r));
    json_object_set_new(o, "g_us", num_or_null(f->slope * 1e6));
    json_object_set_new(o, "l_us", num_or_null(f->intercept * 1e6));
    json_object_set_new(o, "rms_s", num_or_null(f->rms));
    json_object_set_new(o, "rms_rel", num_or_null(f->rms_rel));
    json_object_set_new(o, "max_abs_residual_s", num_or_null(f->max_abs));
    return o;
}

/* ---- the rank side ------------------------------------------------------------------ */

void ps__quiet_barrier(void)
{
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    int done = 0;
    struct timespec ts = {0, 200000};
    for (;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done) break;
        nanosleep(&ts, NULL);
    }
}

/* Ranks on several hosts that boot ids show to be one kernel (the nodes of
 * an emulated cluster) share its processors: their number on rank 0, else
 * 0 (one host, separate machines, or a boot id that cannot be read). */
static int one_kernel_cpus(int rank, int p, const char *names)
{
    char id[48] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(id, sizeof id, f)) id[0] = 0;
        fclose(f);
    }
    char *ids = rank == 0 ? ps_xmalloc((size_t)p * sizeof id) : NULL;
    MPI_Gather(id, (int)sizeof id, MPI_CHAR, ids, (int)sizeof id, MPI_CHAR, 0, MPI_COMM_WORLD);
    int cpus = 0;
    if (rank == 0) {
        int same = id[0] != 0, several = 0;
        for (int k = 1; k < p; k++) {
            same &= strcmp(ids + (size_t)k * sizeof id, id) == 0;
            several |= strcmp(names + (size_t)k * MPI_MAX_PROCESSOR_NAME, names) != 0;
        }
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        if (same && several && n > 0) cpus = (int)n;
        free(ids);
    }
    return cpus;
}

/* The raw document (rank 0): the rounds so far; complete when all ran. */
static json_t *raw_doc(const ps_probe_budget *b, double budget, int p, const char *names, int kernel_cpus,
                       json_t *meta, json_t *rounds, double elapsed, double setup, int complete)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "schema", json_integer(PS_RESULT_SCHEMA));
    json_object_set_new(doc, "kind", json_string("probe-raw"));
    json_object_set_new(doc, "mode", json_string(b->name));
    json_object_set_new(doc, "ranks", json_integer(p));
    json_t *hosts = json_array();
    for (int i = 0; i < p; i++) json_array_append_new(hosts, json_string(names + (size_t)i * MPI_MAX_PROCESSOR_NAME));
    json_object_set_new(doc, "hosts", hosts);
    if (kernel_cpus > 0) json_object_set_new(doc, "one_kernel_cpus", json_integer(kernel_cpus));
    json_object_set(doc, "machine", meta);
    json_object_set_new(doc, "elapsed", json_real(elapsed));
    json_object_set_new(doc, "budget_seconds", json_real(budget));
    json_object_set_new(doc, "setup_seconds", json_real(setup));
    json_object_set(doc, "rounds", rounds);
    json_object_set_new(doc, "rounds_planned", json_integer(b->rounds));
    json_object_set_new(doc, "complete", json_boolean(complete));
    return doc;
}

/* The rounds so far on disk, for a probe that is stopped before the end. */
static void write_partial(const char *path, json_t *doc)
{
    char *text = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(17));
    char err[512];
    if (text && ps_write_file(path, text, strlen(text), err, sizeof err)) fprintf(stderr, "parscope: %s\n", err);
    free(text);
    json_decref(doc);
}

int ps_probe_rank_side(const ps_probe_opts *o, json_t **raw, char *err, size_t errlen)
{
    int inited = 0, rank, p;
    *raw = NULL;
    MPI_Initialized(&inited);
    if (!inited) MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p < 2) {
        ps_seterr(err, errlen, "the probe needs at least 2 ranks (this job has %d)", p);
        if (!inited) MPI_Finalize();
        return -1;
    }
    const ps_probe_budget *b = ps_probe_budget_for(o->mode);
    double start = MPI_Wtime();
    json_t *meta = NULL;
    if (rank == 0) {
        /* the library this job runs with, as the launcher would name it */
        char text[MPI_MAX_LIBRARY_VERSION_STRING] = "", lib[128];
        int len = 0;
        MPI_Get_library_version(text, &len);
        ps_mpi_library_name(text, lib, sizeof lib);
        meta = ps_machine_meta_with(lib);
    }
    /* which host each rank runs on: ranks per node */
    char name[MPI_MAX_PROCESSOR_NAME] = "";
    int nlen;
    MPI_Get_processor_name(name, &nlen);
    char *names = rank == 0 ? ps_xmalloc((size_t)p * MPI_MAX_PROCESSOR_NAME) : NULL;
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    int kernel_cpus = one_kernel_cpus(rank, p, names);

    /* several nodes: the pair of rank 0 with the first rank whose node is
     * the other kind than rank 1's (rank 0's own node when 1 is on
     * another, else another node) is measured too */
    int other[2] = {0, 0}; /* partner, between nodes */
    if (rank == 0) {
        const char *h0 = names, *h1 = names + MPI_MAX_PROCESSOR_NAME;
        int one_apart = strcmp(h0, h1) != 0;
        for (int k = 2; k < p && !other[0]; k++)
            if ((strcmp(h0, names + (size_t)k * MPI_MAX_PROCESSOR_NAME) != 0) != one_apart) {
                other[0] = k;
                other[1] = !one_apart;
            }
    }
    MPI_Bcast(other, 2, MPI_INT, 0, MPI_COMM_WORLD);

    double setup = MPI_Wtime();
    if (ps__loggops_begin() != 0) {
        ps_seterr(err, errlen, "the parscope runtime did not start for the LogGOPS measurement");
        free(names);
        json_decref(meta);
        if (!inited) MPI_Finalize();
        return -1;
    }
    ps__daxpy *dx = ps__daxpy_setup(b);
    setup = MPI_Wtime() - setup;
    json_t *rounds = rank == 0 ? json_array() : NULL;
    /* The budget is kept over the rounds: a round that ran long (a loaded
     * machine) shortens the parts of the rounds after it, so the rounds share
     * what is left.  Rank 0 decides and tells the others: the parts size
     * their batches from the budget, and every rank must run as many. */
    double per_round = b->pingpong_s + b->hrelation_s + b->daxpy_s;
    double deadline = start + b->rounds * per_round + PS_PROBE_START_S - PS_PROBE_LAUNCH_S;
    /* a job time limit that leaves less than that (launched by parscope probe: its limit) shortens
     * every round's parts alike, the first one's too, so that the rounds end before it as planned
     * (beside other jobs a first round at its full budget took the whole of an 8 s limit); they are
     * aimed at a share of the time the limit leaves (PS_PROBE_LIMIT_FILL), and after the first at
     * what the rounds took against their budgets (a round has costs its budget does not shrink: a
     * quick one took 0.8 s at a fifth of its 2.65 s), and the rule below starts none that would end
     * past the limit */
    double planned = deadline - start, by_limit = INFINITY;
    if (o->raw_path && o->timeout > 0) by_limit = start + o->timeout - PS_PROBE_LAUNCH_S - PS_PROBE_LIMIT_MARGIN_S;
    double first_scale = 1, first_unlimited = 1;   /* the first round's scale, and without the limit */
    /* a round that would end past the job's time limit (the longest so far taken again) is not
     * started: the rounds measured make a whole model, where a job stopped at its limit keeps
     * only them and says it was cut (a slow link's first round can take most of the limit) */
    double longest = 0, overrun = 1;   /* the most a round took over its budget, as a factor */
    int cut = 0;
    for (int r = 0; r < b->rounds; r++) {
        if (r > 0 && isfinite(by_limit)) {   /* (launched by parscope probe: its limit) */
            double stop = MPI_Wtime() + longest > by_limit;
            MPI_Bcast(&stop, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            if (stop > 0.5) {
                cut = 1;
                break;
            }
        }
        double now = MPI_Wtime(), f = (deadline - now) / ((b->rounds - r) * per_round);
        if (!(f <= 1)) f = 1;
        double f_lim = PS_PROBE_LIMIT_FILL * (by_limit - now) / ((b->rounds - r) * per_round * overrun);
        if (r == 0) first_unlimited = f;
        if (f_lim < f) f = f_lim;
        if (f < PS_PROBE_MIN_SCALE) f = PS_PROBE_MIN_SCALE;
        MPI_Bcast(&f, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (r == 0) first_scale = f;
        ps_probe_budget br = *b;
        br.pingpong_s *= f;
        br.hrelation_s *= f;
        br.daxpy_s *= f;
        double t[6];
        t[0] = MPI_Wtime();
        json_t *pp = ps__pingpong_measure(&br);
        json_t *dup = ps__duplex_measure(PS_PROBE_DUPLEX_BYTES, br.pingpong_s);
        json_t *po = other[0] ? ps__pingpong_pair_measure(other[0]) : NULL;
        t[5] = MPI_Wtime();
        json_t *lg = ps__loggops_measure(&br);
        t[1] = MPI_Wtime();
        json_t *da = ps__daxpy_measure(dx, &br);
        t[2] = MPI_Wtime();
        json_t *hr = ps__hrelation_measure(&br, 0);
        t[3] = MPI_Wtime();
        json_t *hc = ps__hrelation_measure(&br, 1);
        t[4] = MPI_Wtime();
        double took = t[4] - t[0];
        if (took > longest) longest = took;
        if (took / (f * per_round) > overrun) overrun = took / (f * per_round);
        if (rank == 0) {
            json_t *round = json_object();
            json_object_set_new(round, "budget_scale", json_real(f));
            json_object_set_new(round, "seconds", json_pack("{sfsfsfsfsf}", "pingpong", t[5] - t[0], "loggops",
                                                            t[1] - t[5], "daxpy", t[2] - t[1], "hrelation",
                                                            t[3] - t[2], "combined", t[4] - t[3]));
            json_object_set_new(round, "pingpong", pp);
            if (dup) json_object_set_new(round, "duplex", dup);
            if (lg) json_object_set_new(round, "loggops", lg);
            if (po)
                json_object_set_new(round, "pingpong_other",
                                    json_pack("{sisbso}", "partner", other[0], "between_nodes", other[1], "sizes", po));
            json_object_set_new(round, "daxpy", da);
            json_object_set_new(round, "hrelation", hr);
            json_object_set_new(round, "combined", hc);
            json_array_append_new(rounds, round);
            if (o->raw_path) write_partial(o->raw_path, raw_doc(b, ps_probe_budget_seconds(o->mode), p, names, kernel_cpus, meta, rounds, MPI_Wtime() - start, setup, 0));
        }
    }
    ps__daxpy_free(dx);
    ps__loggops_end();
    double elapsed = MPI_Wtime() - start;
    if (rank == 0) {
        *raw = raw_doc(b, ps_probe_budget_seconds(o->mode), p, names, kernel_cpus, meta, rounds, elapsed, setup, 1);
        if (cut)
            json_object_set_new(*raw, "rounds_cut", json_pack("{sisfsf}", "planned", b->rounds, "limit_s", o->timeout,
                                                              "longest_round_s", longest));
        if (first_scale < first_unlimited)
            json_object_set_new(*raw, "rounds_fit_limit",
                                json_pack("{sfsfsf}", "limit_s", o->timeout, "planned_s", planned, "scale", first_scale));
        json_decref(meta);
        json_decref(rounds);
    }
    free(names);
    if (!inited) MPI_Finalize();
    return 0;
}

/* ---- analysis ------------------------------------------------------------------------- */

/* The noise verdict and the rounds' agreement tell one story: a probe whose own rounds disagree
 * beyond PS_PROBE_AGREE (the same 5% as PS_NOISE_QUIET) was not taken on a quiet machine, whatever the
 * calibration loop and /proc/stat saw around it; its "quiet" becomes "busy", the reason the worst
 * figure's disagreement. */
static void noise_from_rounds(json_t *doc)
{
    json_t *nz = json_object_get(doc, "noise");
    const char *level = json_string_value(json_object_get(nz, "level"));
    if (!level || strcmp(level, "quiet")) return;
    const char *worst = NULL;
    double rel = 0;
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(doc, "agreement"), i, o)
        if (json_is_false(json_object_get(o, "agree")) && ps_json_num(o, "rel_diff") > rel) {
            rel = ps_json_num(o, "rel_diff");
            worst = json_string_value(json_object_get(o, "figure"));
        }
    if (!worst) return;
    char why[300];
    snprintf(why, sizeof why,
             "the probe's own rounds disagree, %s's best two %.1f%% apart, though neither the calibration loop "
             "nor other processes showed interference", worst, 100 * rel);
    ps_noise_raise(nz, "busy", why);
}

/* "Run the benchmark at least three times. If the best two runs agree, you
 * can be reasonably confident" (seed 004). */
static void agreement(json_t *list, json_t *warnings, const char *figure, const char *unit, const double *v, int n,
                      int lower_is_better)
{
    double s[64];
    int k = 0;
    for (int i = 0; i < n && k < 64; i++)
        if (isfinite(v[i])) s[k++] = v[i];
    ps_sort_doubles(s, (size_t)k);
    json_t *o = json_object();
    json_object_set_new(o, "figure", json_string(figure));
    json_object_set_new(o, "unit", json_string(unit));
    json_object_set_new(o, "values", ps__json_array_of(v, n));
    if (k >= 2) {
        double a = lower_is_better ? s[0] : s[k - 1], b = lower_is_better ? s[1] : s[k - 2];
        double den = fmax(fabs(a), fabs(b));
        double rel = den > 0 ? fabs(a - b) / den : 0;
        json_object_set_new(o, "best_two", ps__json_array_of((double[]){a, b}, 2));
        json_object_set_new(o, "rel_diff", json_real(rel));
        json_object_set_new(o, "agree", json_boolean(rel <= PS_PROBE_AGREE));
        if (rel > PS_PROBE_AGREE)
            ps__warn(warnings, "%s: the best two rounds differ by %.1f%% (more than %.0f%%): the machine was not "
                     "steady during the probe; run it again", figure, 100 * rel, 100 * PS_PROBE_AGREE);
    } else {
        /* one round cannot agree or differ with another: unknown */
        json_object_set_new(o, "agree", json_null());
        ps__warn(warnings, "%s: fewer than two rounds gave a value", figure);
    }
    json_array_append_new(list, o);
}

/* A ping-pong table's rows {bytes, time} into bytes[] and time[] (at most
 * PS_MACHINE_MAX_PP, a figure not known as 0); the number of rows. */
static int read_pingpong(const json_t *rows, double *bytes, double *time)
{
    int n = 0;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        if (n >= PS_MACHINE_MAX_PP) break;
        double b = ps_json_num(row, "bytes"), t = ps_json_num(row, "time");
        bytes[n] = isfinite(b) ? b : 0;
        time[n] = isfinite(t) ? t : 0;
        n++;
    }
    return n;
}

int ps_probe_model(const json_t *doc, ps_machine *m, char *err, size_t errlen)
{
    ps_machine_init(m);
    const json_t *model = json_object_get(doc, "model");
    const json_t *bsp = json_object_get(doc, "bsp"), *pp = json_object_get(doc, "pingpong");
    const json_t *meta = json_object_get(doc, "machine");
    if (!json_is_object(model)) {
        ps_seterr(err, errlen, "not a probe document (no \"model\")");
        return -1;
    }
    m->send_latency = ps_json_num(model, "send_latency");
    m->recv_latency = ps_json_num(model, "recv_latency");
    m->word_time = ps_json_num(model, "word_time");
    m->flop_time = ps_json_num(model, "flop_time");
    if (!(m->send_latency >= 0 && m->recv_latency >= 0 && m->word_time >= 0 && m->flop_time >= 0)) {
        ps_seterr(err, errlen, "the probe gave no usable latency, word time or flop time");
        return -1;
    }
    const char *net = json_string_value(json_object_get(model, "network"));
    m->bus = net && !strcmp(net, "bus");
    m->star = net && !strcmp(net, "star");
    m->nodes = (int)fmax(0, ps_json_num(model, "nodes"));
    m->link_rate = fmax(0, ps_json_num(model, "link_rate"));
    m->cores_per_node = (int)fmax(0, ps_json_num(model, "ranks_per_node"));
    m->processors = (int)fmax(0, ps_json_num(model, "processors"));
    const char *host = json_string_value(json_object_get(meta, "host"));
    snprintf(m->name, sizeof m->name, "%s", host ? host : "");
#define NUM0(o, k) (isfinite(ps_json_num(o, k)) ? ps_json_num(o, k) : 0)
    m->bsp_r = NUM0(bsp, "r");
    m->bsp_g = NUM0(bsp, "g");
    m->bsp_l = NUM0(bsp, "l");
    m->bsp_h0 = NUM0(bsp, "h0");
    m->bsp_h1 = NUM0(bsp, "h1");
    m->bsp_p = (int)NUM0(bsp, "p");
    m->r_incache = NUM0(bsp, "r_incache");
    m->r_outcache = NUM0(bsp, "r_outcache");
    m->bsp_g_combined = NUM0(bsp, "g_combined");
    const char *fn = json_string_value(json_object_get(bsp, "fit_note"));
    if (fn && !strcmp(json_string_value(json_object_get(bsp, "fit")) ? json_string_value(json_object_get(bsp, "fit")) : "", "failed"))
        snprintf(m->bsp_fit_note, sizeof m->bsp_fit_note, "%s", fn);
    const json_t *h = json_object_get(pp, "hockney");
    m->t0 = NUM0(h, "t0");
    m->r_inf = NUM0(h, "r_inf");
    m->n_half = NUM0(h, "n_half");
    m->npp = read_pingpong(json_object_get(pp, "sizes"), m->pp_bytes, m->pp_time);
    m->npp_intra = read_pingpong(json_object_get(model, "pingpong_intra"), m->ppi_bytes, m->ppi_time);
    const char *s;
#define STR(dst, key) if ((s = json_string_value(json_object_get(meta, key)))) snprintf(dst, sizeof dst, "%s", s)
    STR(m->host, "host");
    STR(m->os, "os");
    STR(m->cpu, "cpu");
    STR(m->mpi, "mpi");
    STR(m->compiler, "compiler");
    STR(m->date, "date");
    snprintf(m->source, sizeof m->source, PS_MACHINE_PROBE_SOURCE " (%s, %d ranks)",
             json_string_value(json_object_get(doc, "mode")) ? json_string_value(json_object_get(doc, "mode")) : "?",
             (int)NUM0(json_object_get(doc, "params"), "ranks"));
    m->sockets = (int)NUM0(meta, "sockets");
    m->cores = (int)NUM0(meta, "cores");
    m->pus = (int)NUM0(meta, "pus");
    m->memory_bytes = ps_meta_memory_bytes(meta);
    for (int k = 0; k < PS_CACHE_LEVELS; k++) m->cache_bytes[k] = ps_meta_cache_bytes(meta, k);
#undef NUM0
#undef STR
    ps__loggops_model(doc, m->bus, m);
    return 0;
}

/* A run over its budget, said first among the warnings with the excess outright
 * (rounded alike, 13.3 s against 12.95 s would read "13 s beyond 13 s") and its
 * cause: on a slow link (a ping-pong round trip above PS_PROBE_SLOW_RT) the
 * first round's samples of the slow sizes and its LogGOPS table take as long
 * whatever the budget (11 s of the quick budget's 13 under slownet 20mbit);
 * else the machine was slower than the budget assumes. */
static void budget_warning(const json_t *doc, json_t *warnings, double took, double budget)
{
    char over[32], why[256] = "the machine was slower than the budget assumes";
    ps_fmt_time(over, sizeof over, took - budget);
    const json_t *sizes = json_object_get(json_object_get(doc, "pingpong"), "sizes");
    for (size_t i = 0; i < json_array_size(sizes); i++) {
        const json_t *z = json_array_get(sizes, i);
        double half = ps_json_num(z, "time");
        if (!(2 * half > PS_PROBE_SLOW_RT)) continue;
        char b[32], t[32];
        ps_fmt_bytes(b, sizeof b, ps_json_num(z, "bytes"));
        ps_fmt_time(t, sizeof t, 2 * half);
        snprintf(why, sizeof why,
                 "the link is slow (a round trip of %s took %s), and the first round's samples at such sizes take "
                 "that long whatever the budget", b, t);
        break;
    }
    json_array_insert_new(warnings, 0,
                          json_sprintf("the measurement took %.1f s on the ranks, %s beyond its budget of %g s: %s",
                                       took, over, budget, why));
}

/* BSP's g on a shaped link: the h-relations (at most PS_PROBE_H_MAX words a
 * rank) pass within the token bucket at line speed, so g is the burst's cost
 * of a word, not the link's: under slownet 100mbit 0.0121 us a word (660
 * MB/s) against a sustained 12.5 MB/s.  Said with both figures (probe_int.h). */
void ps__bsp_bucket_check(const json_t *doc, const json_t *bsp, json_t *warnings)
{
    const json_t *lg = json_object_get(doc, "loggops");
    double rate = ps_json_num(lg, "rate"), burst = ps_json_num(lg, "burst"), g_us = ps_json_num(bsp, "g_us");
    if (!json_is_true(json_object_get(lg, "shaped")) || !(rate > 0) || !(g_us > 0)) return;
    double word_rate = 8 / (g_us * 1e-6);
    if (!(word_rate > 2 * rate)) return;
    char a[32], b[32];
    ps_fmt_bytes(a, sizeof a, 8.0 * PS_PROBE_H_MAX);
    ps_fmt_bytes(b, sizeof b, burst);
    ps__warn(warnings,
             "BSP g (%.3g us a word, %.3g MB/s) comes from h-relations of at most %d words a rank (%s), which pass "
             "within the shaped link's token bucket of %s at line speed; beyond it a word takes %.3g us (%.3g MB/s): "
             "a superstep that moves more than the bucket pays that",
             g_us, word_rate / 1e6, PS_PROBE_H_MAX, a, b, 8 / rate * 1e6, rate / 1e6);
}

json_t *ps_probe_analyze(const json_t *raw, ps_machine *m, char *err, size_t errlen)
{
    if (!json_is_object(raw) || !json_string_value(json_object_get(raw, "kind")) ||
        strcmp(json_string_value(json_object_get(raw, "kind")), "probe-raw") != 0) {
        ps_seterr(err, errlen, "not raw probe data (\"kind\": \"probe-raw\" expected)");
        return NULL;
    }
    const json_t *rounds = json_object_get(raw, "rounds");
    int p = (int)ps_json_num(raw, "ranks");
    int nr = (int)json_array_size(rounds);
    if (nr < 1 || p < 2) {
        ps_seterr(err, errlen, "the raw probe data has no rounds");
        return NULL;
    }
    json_t *doc = json_object(), *warnings = json_array();
    json_object_set_new(doc, "schema", json_integer(PS_RESULT_SCHEMA));
    json_object_set_new(doc, "kind", json_string("probe"));
    json_object_set_new(doc, "version", json_integer(1));
    json_object_set(doc, "mode", json_object_get(raw, "mode"));
    json_t *params = json_object();
    json_object_set_new(params, "ranks", json_integer(p));
    json_object_set_new(params, "pingpong_ranks", json_pack("[ii]", 0, 1));
    json_object_set_new(params, "rounds", json_integer(nr));
    json_object_set(params, "hosts", json_object_get(raw, "hosts"));
    json_object_set(params, "elapsed", json_object_get(raw, "elapsed"));
    if (json_object_get(raw, "budget_seconds")) json_object_set(params, "budget_seconds", json_object_get(raw, "budget_seconds"));
    json_object_set_new(doc, "params", params);
    if (json_object_get(raw, "noise")) json_object_set(doc, "noise", json_object_get(raw, "noise"));
    double budget = ps_json_num(raw, "budget_seconds"), took = ps_json_num(raw, "elapsed");
    json_object_set(doc, "machine", json_object_get(raw, "machine"));

    /* the LogGOPS analysis first, its warnings after the ping-pong's as the text reads: the
     * ping-pong's steps are explained by its eager limit and bucket (raw data from before the
     * LogGOPS measurement have none: the seed's model) */
    json_t *lg_warnings = json_array();
    ps__loggops_analyze(rounds, doc, lg_warnings);
    if (ps__pingpong_analyze(rounds, doc, warnings, err, errlen) != 0) {
        json_decref(lg_warnings);
        goto fail;
    }
    ps__loggops_bucket_check(doc, lg_warnings);
    json_array_extend(warnings, lg_warnings);
    json_decref(lg_warnings);
    if (budget > 0 && took > budget) budget_warning(doc, warnings, took, budget);
    const json_t *cut = json_object_get(raw, "rounds_cut");
    if (cut) {
        json_object_set(doc, "rounds_cut", (json_t *)cut);
        ps__warn(warnings, "%d of %d rounds measured: another (the longest took %.1f s) would have ended past the "
                 "time limit of %g s (--timeout): the rounds' agreement rests on these", nr,
                 (int)ps_json_num(cut, "planned"), ps_json_num(cut, "longest_round_s"), ps_json_num(cut, "limit_s"));
    }
    const json_t *fit = json_object_get(raw, "rounds_fit_limit");
    if (fit) {
        json_object_set(doc, "rounds_fit_limit", (json_t *)fit);
        double sc = ps_json_num(fit, "scale");
        ps__warn(warnings, "the time limit of %g s (--timeout) leaves the measurement less than its planned %.0f s "
                 "after launch: the first round's parts measured for %.0f%% of their budgets%s%s "
                 "(raw.rounds[].budget_scale in the JSON)",
                 ps_json_num(fit, "limit_s"), ps_json_num(fit, "planned_s"), 100 * sc,
                 sc <= PS_PROBE_MIN_SCALE ? " (the least share: the limit leaves too little for more)" : "",
                 nr > 1 ? ", the later rounds' as the time left allowed" : "");
    }
    ps__pingpong_other_analyze(raw, doc);
    json_t *bsp = json_object();
    json_object_set_new(doc, "bsp", bsp);
    json_object_set_new(bsp, "p", json_integer(p));
    ps__daxpy_analyze(rounds, bsp, warnings);
    double r = ps_json_num(bsp, "r");
    if (!(r > 0)) {
        ps_seterr(err, errlen, "the raw probe data has no DAXPY rate");
        goto fail;
    }
    if (ps__hrelation_analyze(rounds, p, r, bsp, warnings, err, errlen) != 0) goto fail;
    ps__bsp_bucket_check(doc, bsp, warnings);

    /* rounds and their agreement */
    json_t *rl = json_array(), *agree = json_array();
    double lat[64], bw[64], rr[64], g[64], l[64];
    int n = nr < 64 ? nr : 64;
    for (int i = 0; i < n; i++) {
        const json_t *round = json_array_get(rounds, (size_t)i);
        double gs, ls;
        ps__pingpong_round_figures(round, &lat[i], &bw[i]);
        const json_t *in = json_object_get(json_object_get(round, "daxpy"), "in_cache");
        const json_t *rates = json_object_get(in, "rates");
        double s = 0;
        for (size_t k = 0; k < json_array_size(rates); k++) s += json_number_value(json_array_get(rates, k));
        rr[i] = json_array_size(rates) ? s / (double)json_array_size(rates) : NAN;
        /* in flops with the reported r, so the rounds compare with the figure;
         * a round whose fit is no BSP cost (g or l not positive) has none */
        ps__hrelation_round_fit(round, p, &gs, &ls);
        g[i] = gs > 0 && ls > 0 ? gs * r : NAN;
        l[i] = gs > 0 && ls > 0 ? ls * r : NAN;
        json_t *o = json_object();
        json_object_set_new(o, "latency", num_or_null(lat[i]));
        json_object_set_new(o, "bandwidth", num_or_null(bw[i]));
        json_object_set_new(o, "r", num_or_null(rr[i]));
        json_object_set_new(o, "g", num_or_null(g[i]));
        json_object_set_new(o, "l", num_or_null(l[i]));
        json_array_append_new(rl, o);
    }
    json_object_set_new(doc, "rounds", rl);
    agreement(agree, warnings, "latency", "s", lat, n, 1);
    agreement(agree, warnings, "bandwidth", "bytes/s", bw, n, 0);
    agreement(agree, warnings, "r", "flop/s", rr, n, 0);
    agreement(agree, warnings, "g", "flop", g, n, 1);
    agreement(agree, warnings, "l", "flop", l, n, 1);
    json_object_set_new(doc, "agreement", agree);
    noise_from_rounds(doc);
    /* the uncertainty next to each figure: best-of figures by the gap of the
     * best two rounds; g and l, the median of the rounds' fits, by the
     * farther end of the rounds' range (with three rounds, the median's
     * distribution-free interval is that range, 75%) */
    {
        size_t i;
        json_t *a;
        json_array_foreach(agree, i, a) {
            const char *fig = json_string_value(json_object_get(a, "figure"));
            double u = ps_json_num(a, "rel_diff");
            json_t *where = !strcmp(fig, "latency") || !strcmp(fig, "bandwidth") ? json_object_get(doc, "pingpong")
                                                                                    : json_object_get(doc, "bsp");
            char key[64];
            snprintf(key, sizeof key, "%s_uncertainty", fig);
            if (!strcmp(fig, "g") || !strcmp(fig, "l")) {
                double v = ps_json_num(where, fig);
                json_t *rg = json_object_get(where, !strcmp(fig, "g") ? "g_range" : "l_range");
                double lo = json_number_value(json_array_get(rg, 0)), hi = json_number_value(json_array_get(rg, 1));
                u = v > 0 && json_array_size(rg) == 2 ? fmax(v - lo, hi - v) / v : NAN;
                json_object_set_new(a, "statistic", json_string("median"));
            } else {
                json_object_set_new(a, "statistic", json_string("best"));
            }
            json_object_set_new(a, "uncertainty", num_or_null(u));
            json_object_set_new(where, key, num_or_null(u));
        }
    }

    /* more ranks than cores: time-sharing shows in every figure */
    const json_t *meta = json_object_get(raw, "machine");
    double cores = ps_json_num(meta, "cores");
    const json_t *hosts = json_object_get(raw, "hosts");
    int per_node = 0;
    for (size_t i = 0; i < json_array_size(hosts); i++)
        if (json_equal(json_array_get(hosts, i), json_array_get(hosts, 0))) per_node++;
    if (cores > 0 && per_node > cores)
        ps__warn(warnings, "%d ranks share %.0f cores on %s: the figures include time-sharing", per_node, cores,
                 json_string_value(json_array_get(hosts, 0)));

    /* the estimator's model (seed 003) from the ping-pong and DAXPY */
    const json_t *pp = json_object_get(doc, "pingpong"), *hk = json_object_get(pp, "hockney");

    /* bus or nobus: both directions at once against one direction, same size.
     * A full-duplex link takes about the one-way time (1.03 times: the
     * emulated cluster's links, another VM's shared memory), one queue about
     * twice.  The simulator knows only those two: the model takes the nearer
     * (a bus from 1.5 times on).  Between the two (shared memory on the
     * 2-core test VM: 1.1 to 1.25 times once the exchange is measured on warm
     * buffers, ps__duplex_measure) neither fitted the programs that send both
     * ways on every day (docs/BENCHMARKS.md: one queue predicted xbcast +0.2%
     * against -29% side by side on 2026-11-23, and ring, xbcast and alter
     * 25-37% long against within 20% on 2026-11-25), so the model keeps what
     * predict needs to give the time under the other choice as well
     * (ps__loggops_network_doubt).
     * Each round's exchange is the best of its many, over the best one-way
     * time of the same size over all rounds: a round's own best is no fair
     * divisor, as later rounds of a quick probe get less of the budget, fewer
     * samples and a higher best (36.7 us in the first round, 42 to 61 us in
     * later ones, on one VM).  The rounds' median ratio counts, not their
     * best, so that one lucky round does not decide (on a slow link a quick
     * probe's later rounds may measure none: ps__duplex_measure). */
    int bus = 0;
    {
        double exr[64], one = INFINITY, dbytes = 0;
        int nr = 0;
        size_t k;
        json_t *row;
        for (size_t i = 0; i < json_array_size(rounds) && nr < 64; i++) {
            const json_t *d = json_object_get(json_array_get(rounds, i), "duplex");
            double x = ps_json_num(d, "exchange");
            if (!d || !(x > 0)) continue;
            dbytes = ps_json_num(d, "bytes");
            exr[nr++] = x;
        }
        json_array_foreach(json_object_get(pp, "sizes"), k, row)
            if (ps_json_num(row, "bytes") == dbytes) one = ps_json_num(row, "min");
        if (nr && isfinite(one) && one > 0) {
            json_t *per = json_array();
            double lo = INFINITY, hi = 0;
            int above = 0;
            for (int i = 0; i < nr; i++) {
                double r = exr[i] / one;
                json_array_append_new(per, json_real(r));
                above += r >= PS_PROBE_BUS_RATIO;
                lo = fmin(lo, r);
                hi = fmax(hi, r);
            }
            /* (sorts exr: the rounds' ratios, in their order, are in per) */
            double ex = ps_median(exr, (size_t)nr), ratio = ex / one;
            bus = ratio >= PS_PROBE_BUS_RATIO;
            json_t *dx = json_pack("{sfsfsfsfsbso}", "bytes", dbytes, "one_way", one, "exchange", ex, "ratio", ratio,
                                   "shared", bus, "round_ratios", per);
            /* a serial link takes twice one direction's time, a free one once; between
             * the two the model's choice is a guess (docs/PROBE.md, "Bus or no bus") */
            json_object_set_new(dx, "serial", json_boolean(ratio >= PS_PROBE_BUS_CLEAR));
            json_object_set_new(dx, "free", json_boolean(ratio < PS_PROBE_DUPLEX_FREE));
            json_object_set_new(doc, "duplex", dx);
            char a[32];
            ps_fmt_bytes(a, sizeof a, dbytes);
            if (bus && ratio >= PS_PROBE_BUS_CLEAR)
                ps__warn(warnings,
                         "two ranks exchanging %s at once take %.2f times one direction's time: the link is shared "
                         "(one queue, half duplex, or one node's memory), so the model says network = bus",
                         a, ratio);
            if (above && above < nr)
                ps__warn(warnings,
                         "the rounds' exchanges of %s took %.2f to %.2f times one direction's time, on both sides of "
                         "%.2f: the link is partly shared, and the model's choice of %s (from their median, %.2f) "
                         "is uncertain for programs that send both ways at once",
                         a, lo, hi, PS_PROBE_BUS_RATIO, bus ? "one message at a time" : "messages side by side", ratio);
        }
    }
    /* a shaped link whose one token bucket both directions share is a bus too,
     * whatever the 1 MiB exchange showed (TCP through a small bucket is erratic) */
    const json_t *lgd = json_object_get(doc, "loggops");
    if (!bus && json_is_true(json_object_get(lgd, "shared_bucket"))) {
        bus = 1;
        ps__warn(warnings, "both directions share the shaped link's token bucket: the model says network = bus");
    }
    double t0 = ps_json_num(hk, "t0"), rinf = ps_json_num(hk, "r_inf");
    const char *lat_from = "hockney t0 / 2";
    if (!(t0 > 0)) {
        t0 = ps_json_num(pp, "latency");
        lat_from = "smallest-message time / 2";
    }
    const char *word_from = "8 / hockney r_inf";
    if (!(rinf > 0)) {
        rinf = ps_json_num(pp, "bandwidth");
        word_from = "8 / best bandwidth";
    }
    json_t *model = json_object();
    json_object_set_new(model, "send_latency", json_real(t0 / 2));
    json_object_set_new(model, "recv_latency", json_real(t0 / 2));
    json_object_set_new(model, "word_time", json_real(8.0 / rinf));
    json_object_set_new(model, "flop_time", json_real(1.0 / r));
    /* the node structure: ranks on several hosts make a star (one link per
     * node into a switch), whose links go at the ping-pong's sustained rate
     * when ranks 0 and 1 were on different nodes */
    int nodes = 0;
    for (size_t i = 0; i < json_array_size(hosts); i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) seen = json_equal(json_array_get(hosts, i), json_array_get(hosts, j));
        nodes += !seen;
    }
    int across = json_array_size(hosts) >= 2 && !json_equal(json_array_get(hosts, 0), json_array_get(hosts, 1));
    int star = nodes > 1 && !bus;
    /* an exchange neither clearly serial nor clearly free, said once the nodes
     * are known: whether the model keeps the other choice (ps__loggops_model) */
    const json_t *dx = json_object_get(doc, "duplex");
    if (json_is_false(json_object_get(dx, "serial")) && json_is_false(json_object_get(dx, "free"))) {
        char a[32];
        ps_fmt_bytes(a, sizeof a, ps_json_num(dx, "bytes"));
        const char *keeps = !ps__loggops_network_doubt(doc, nodes) ? ", though neither fits clearly"
                            : bus ? ", and keeps nobus_contention so that predict also gives the time with the copies "
                                    "side by side"
                                  : ", and keeps also_bus so that predict also gives the time with one message at a "
                                    "time";
        ps__warn(warnings,
                 "two ranks exchanging %s at once take %.2f times one direction's time, between side by side (1) "
                 "and one at a time (2): the model says network = %s (%s)%s",
                 a, ps_json_num(dx, "ratio"), bus ? "bus" : star ? "star" : "nobus",
                 bus && json_is_true(json_object_get(lgd, "shared_bucket")) && ps_json_num(dx, "ratio") < PS_PROBE_BUS_RATIO
                     ? "one token bucket" : "the nearer",
                 keeps);
    }
    json_object_set_new(model, "network", json_string(bus ? "bus" : star ? "star" : "nobus"));
    json_object_set_new(model, "ranks_per_node", json_integer(per_node));
    json_object_set_new(model, "nodes", json_integer(nodes));
    json_object_set_new(model, "pingpong_between", json_string(across ? "nodes" : "ranks of one node"));
    /* the nodes are one machine's (one kernel): all of them share its processors */
    int kcpus = (int)fmax(0, ps_json_num(raw, "one_kernel_cpus"));
    if (nodes > 1 && kcpus > 0) json_object_set_new(model, "processors", json_integer(kcpus));
    if (star && across) json_object_set_new(model, "link_rate", json_real(rinf));
    const json_t *po = json_object_get(doc, "pingpong_other");
    if (across && po && !strcmp(json_string_value(json_object_get(po, "between")), "ranks of one node"))
        json_object_set(model, "pingpong_intra", json_object_get(po, "sizes"));
    json_object_set_new(model, "latency_from", json_string(lat_from));
    json_object_set_new(model, "word_time_from", json_string(word_from));
    json_object_set_new(model, "flop_time_from", json_string("1 / r (in-cache DAXPY)"));
    json_object_set_new(doc, "model", model);
    json_object_set_new(doc, "warnings", warnings);
    json_object_set(doc, "raw", (json_t *)raw);

    if (m && ps_probe_model(doc, m, err, errlen) != 0) {
        json_decref(doc);
        return NULL;
    }
    return doc;
fail:
    json_decref(warnings);
    json_decref(doc);
    return NULL;
}

/* ---- text ----------------------------------------------------------------------------- */

/* The model's network as a machine file names it, "nobus" when it has none. */
static const char *model_network(const json_t *model)
{
    const char *n = json_string_value(json_object_get(model, "network"));
    return n ? n : "nobus";
}

/* Where the ranks ran when they span nodes (the text and the HTML page say it
 * alike); the line ends here unless a node's link rate follows. */
static void print_nodes(FILE *out, const json_t *model)
{
    if (!(ps_json_num(model, "nodes") > 1)) return;
    fprintf(out, "       %d nodes, %d ranks on the first; ping-pong between %s%s", (int)ps_json_num(model, "nodes"),
            (int)ps_json_num(model, "ranks_per_node"), json_string_value(json_object_get(model, "pingpong_between")),
            isfinite(ps_json_num(model, "link_rate")) ? "" : "\n");
}

/* The rounds measured (params.rounds: the rounds that ran), and after an
 * interruption of how many planned: "2 of 3 rounds (INTERRUPTED)". */
/* Beside a best-of figure whose best two rounds differ by more than
 * PS_PROBE_AGREE: by how much, so that it is not read as a firm figure. */
static void figure_doubt(const json_t *pp, const char *key, char *buf, size_t len)
{
    double u = ps_json_num(pp, key);
    if (isfinite(u) && u > PS_PROBE_AGREE)
        snprintf(buf, len, "  (uncertain: the best two rounds differ by %.0f%%)", 100 * u);
    else
        snprintf(buf, len, "%s", "");
}

static void rounds_text(const json_t *doc, char *buf, size_t len)
{
    int done = (int)ps_json_num(json_object_get(doc, "params"), "rounds");
    double planned = ps_json_num(doc, "rounds_planned");
    if (json_is_true(json_object_get(doc, "interrupted")) && planned > done)
        snprintf(buf, len, "%d of %.0f rounds (INTERRUPTED)", done, planned);
    else
        snprintf(buf, len, "%d rounds", done);
}

void ps_probe_print(const json_t *doc, FILE *out)
{
    const json_t *pp = json_object_get(doc, "pingpong"), *hk = json_object_get(pp, "hockney");
    const json_t *bsp = json_object_get(doc, "bsp"), *model = json_object_get(doc, "model");
    const json_t *meta = json_object_get(doc, "machine"), *params = json_object_get(doc, "params");
    char a[32], b[32];
    char rounds[96];
    rounds_text(doc, rounds, sizeof rounds);
    fprintf(out, "parscope probe (%s): %s, %d ranks, %s, %s\n", json_string_value(json_object_get(doc, "mode")),
            json_string_value(json_object_get(meta, "host")), (int)ps_json_num(params, "ranks"), rounds,
            json_string_value(json_object_get(meta, "mpi")));
    char line[600];
    ps_noise_line(json_object_get(doc, "noise"), line, sizeof line);
    fprintf(out, "%s\n", line);
    double bud = ps_json_num(params, "budget_seconds"), el = ps_json_num(params, "elapsed");
    if (bud > 0 && el > 0)
        fprintf(out, "measured in %.1f s on the ranks (budget %g s, launch included)\n", el, bud);
    fprintf(out, "\nping-pong (ranks 0 and 1, half round trip, best sample):\n");
    ps_fmt_time(a, sizeof a, ps_json_num(pp, "latency"));
    char du[2][96];
    figure_doubt(pp, "latency_uncertainty", du[0], sizeof du[0]);
    figure_doubt(pp, "bandwidth_uncertainty", du[1], sizeof du[1]);
    fprintf(out, "  latency (%d B)        %s%s\n", (int)ps_json_num(pp, "latency_bytes"), a, du[0]);
    ps_fmt_bytes(b, sizeof b, ps_json_num(pp, "bandwidth_bytes"));
    fprintf(out, "  best bandwidth        %.1f MB/s at %s%s\n", ps_json_num(pp, "bandwidth") / 1e6, b, du[1]);
    if (isfinite(ps_json_num(pp, "sustained_bandwidth")))
        fprintf(out, "  sustained bandwidth   %.1f MB/s (the largest messages' time per extra byte, inverted: "
                     "it can exceed the best bandwidth, their bytes over their whole time)\n",
                ps_json_num(pp, "sustained_bandwidth") / 1e6);
    ps_fmt_time(a, sizeof a, ps_json_num(hk, "t0"));
    fprintf(out, "  Hockney fit           t0 = %s, r_inf = %.1f MB/s, n_1/2 = %.0f B (rms error %.0f%%)\n", a,
            ps_json_num(hk, "r_inf") / 1e6, ps_json_num(hk, "n_half"), 100 * ps_json_num(hk, "rms_rel"));
    fprintf(out, "\nBSP (p = %d):\n", (int)ps_json_num(bsp, "p"));
    fprintf(out, "  r (DAXPY in cache)    %.1f Mflop/s\n", ps_json_num(bsp, "r_incache") / 1e6);
    fprintf(out, "  r (out of cache)      %.1f Mflop/s\n", ps_json_num(bsp, "r_outcache") / 1e6);
    const json_t *hr = json_object_get(bsp, "hrelation");
    const json_t *f = json_object_get(hr, "fit_low");
    if (json_is_object(f))
        fprintf(out, "  h in [%3.0f, %3.0f]       g = %.4g flop (%.3g us), l = %.4g flop (%.3g us), rms residual %.1f%% "
                     "(rounds pooled)\n",
                ps_json_num(f, "h0"), ps_json_num(f, "h1"), ps_json_num(f, "g"), ps_json_num(f, "g_us"),
                ps_json_num(f, "l"), ps_json_num(f, "l_us"), 100 * ps_json_num(f, "rms_rel"));
    const json_t *gr = json_object_get(bsp, "g_range"), *lr = json_object_get(bsp, "l_range");
    const json_t *rep = json_object_get(hr, "reported");
    if (!strcmp(jstr(bsp, "fit"), "ok"))
        fprintf(out, "  h in [%3.0f, %3.0f]       g = %.4g flop (%.3g us) [rounds %.4g .. %.4g], l = %.4g flop (%.3g us) "
                     "[rounds %.4g .. %.4g]\n"
                     "                        (the median of %d rounds' fits)\n",
                ps_json_num(bsp, "h0"), ps_json_num(bsp, "h1"), ps_json_num(bsp, "g"), ps_json_num(bsp, "g_us"),
                json_number_value(json_array_get(gr, 0)), json_number_value(json_array_get(gr, 1)),
                ps_json_num(bsp, "l"), ps_json_num(bsp, "l_us"), json_number_value(json_array_get(lr, 0)),
                json_number_value(json_array_get(lr, 1)), (int)ps_json_num(rep, "rounds"));
    else
        fprintf(out, "  h in [%3.0f, %3.0f]       the fit failed: %s; no g and l in the model\n", ps_json_num(bsp, "h0"),
                ps_json_num(bsp, "h1"), jstr(bsp, "fit_note"));
    if (json_object_get(bsp, "g_combined"))
        fprintf(out, "  combined messages     g = %.4g flop (%.3g us) (optimistic, one message per destination)\n",
                ps_json_num(bsp, "g_combined"), ps_json_num(bsp, "g_combined_us"));
    ps__loggops_print(doc, out);
    fprintf(out, "\nrounds (best two must agree within %.0f%%):\n", 100 * PS_PROBE_AGREE);
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(doc, "agreement"), i, o) {
        const json_t *ag = json_object_get(o, "agree");
        fprintf(out, "  %-10s %s", json_string_value(json_object_get(o, "figure")),
                json_is_true(ag) ? "agree" : json_is_false(ag) ? "DIFFER" : "unknown (fewer than two rounds)");
        if (json_object_get(o, "rel_diff")) fprintf(out, " (%.1f%%)", 100 * ps_json_num(o, "rel_diff"));
        fputc('\n', out);
    }
    fprintf(out, "\nmodel: send_latency = recv_latency = %.3g s, word_time = %.3g s, flop_time = %.3g s, %s\n",
            ps_json_num(model, "send_latency"), ps_json_num(model, "word_time"), ps_json_num(model, "flop_time"),
            model_network(model));
    print_nodes(out, model);
    const json_t *po2 = json_object_get(doc, "pingpong_other");
    if (po2) {
        char lat[32], at[32];
        ps_fmt_time(lat, sizeof lat, ps_json_num(po2, "latency"));
        ps_fmt_bytes(at, sizeof at, ps_json_num(po2, "bandwidth_bytes"));
        fprintf(out, "\nping-pong between ranks 0 and %d (%s): latency %s, %.1f MB/s at %s\n",
                (int)ps_json_num(po2, "partner"), json_string_value(json_object_get(po2, "between")), lat,
                ps_json_num(po2, "bandwidth") / 1e6, at);
    }
    if (isfinite(ps_json_num(model, "link_rate")))
        fprintf(out, "; a node's link %.2f MB/s each way\n", ps_json_num(model, "link_rate") / 1e6);
    const json_t *w = json_object_get(doc, "warnings");
    if (json_array_size(w)) {
        fprintf(out, "\nwarnings (artefacts, not facts):\n");
        json_array_foreach(w, i, o) fprintf(out, "  - %s\n", json_string_value(o));
    }
}

/* ---- plots -------------------------------------------------------------------------- */

typedef struct probe_plots {
    ps_plot time, bw, hrel;
    double *bytes, *t, *bwv, *tfit, *bwfit;
    double *h, *ht, *hc, *hct, *hlo, *hhi, lo_x[2], lo_y[2], hi_x[2], hi_y[2];
    int ns, nh, nhc;
} probe_plots;

static int read_xy(const json_t *o, const char *kx, const char *ky, double **x, double **y)
{
    const json_t *jx = json_object_get(o, kx), *jy = json_object_get(o, ky);
    int n = (int)json_array_size(jx);
    if (n != (int)json_array_size(jy)) n = 0;
    *x = ps_xcalloc((size_t)n + 1, sizeof(double));
    *y = ps_xcalloc((size_t)n + 1, sizeof(double));
    for (int i = 0; i < n; i++) {
        json_t *a = json_array_get(jx, (size_t)i), *b = json_array_get(jy, (size_t)i);
        (*x)[i] = json_is_number(a) ? json_number_value(a) : NAN;
        (*y)[i] = json_is_number(b) ? json_number_value(b) : NAN;
    }
    return n;
}

static void bw_fmt(char *buf, size_t len, double v)
{
    if (v >= 1e9) snprintf(buf, len, "%.3g GB/s", v / 1e9);
    else if (v >= 1e6) snprintf(buf, len, "%.3g MB/s", v / 1e6);
    else snprintf(buf, len, "%.3g kB/s", v / 1e3);
}

static int build_plots(const json_t *doc, probe_plots *pl)
{
    memset(pl, 0, sizeof *pl);
    const json_t *pp = json_object_get(doc, "pingpong"), *hk = json_object_get(pp, "hockney");
    const json_t *sizes = json_object_get(pp, "sizes");
    int ns = (int)json_array_size(sizes);
    pl->ns = ns;
    pl->bytes = ps_xcalloc((size_t)ns + 1, sizeof(double));
    pl->t = ps_xcalloc((size_t)ns + 1, sizeof(double));
    pl->bwv = ps_xcalloc((size_t)ns + 1, sizeof(double));
    pl->tfit = ps_xcalloc((size_t)ns + 1, sizeof(double));
    pl->bwfit = ps_xcalloc((size_t)ns + 1, sizeof(double));
    double t0 = ps_json_num(hk, "t0"), rinf = ps_json_num(hk, "r_inf");
    for (int i = 0; i < ns; i++) {
        const json_t *row = json_array_get(sizes, (size_t)i);
        pl->bytes[i] = ps_json_num(row, "bytes");
        pl->t[i] = ps_json_num(row, "time");
        pl->bwv[i] = pl->bytes[i] / pl->t[i];
        pl->tfit[i] = t0 + pl->bytes[i] / rinf;
        pl->bwfit[i] = pl->bytes[i] / pl->tfit[i];
    }
    ps_plot_init(&pl->time, "Ping-pong: half round-trip time", "message size", "time");
    pl->time.xlog = 2;
    pl->time.ylog = 1;
    pl->time.xfmt = ps_fmt_bytes;
    pl->time.yfmt = ps_html_fmt_time;
    ps_plot_add(&pl->time, "measured (best sample)", pl->bytes, pl->t, ns, PS_PLOT_POINTS);
    ps_plot_add(&pl->time, "Hockney fit t0 + n/r_inf", pl->bytes, pl->tfit, ns, PS_PLOT_LINE | PS_PLOT_DASHED);

    ps_plot_init(&pl->bw, "Ping-pong: bandwidth", "message size", "bandwidth");
    pl->bw.xlog = 2;
    pl->bw.ylog = 1;
    pl->bw.xfmt = ps_fmt_bytes;
    pl->bw.yfmt = bw_fmt;
    ps_plot_add(&pl->bw, "measured", pl->bytes, pl->bwv, ns, PS_PLOT_POINTS | PS_PLOT_LINE);
    ps_plot_add(&pl->bw, "Hockney fit n / (t0 + n/r_inf)", pl->bytes, pl->bwfit, ns, PS_PLOT_LINE | PS_PLOT_DASHED);

    const json_t *bsp = json_object_get(doc, "bsp"), *hr = json_object_get(bsp, "hrelation");
    pl->nh = read_xy(hr, "h", "time", &pl->h, &pl->ht);
    pl->nhc = read_xy(json_object_get(bsp, "combined"), "h", "time", &pl->hc, &pl->hct);
    /* error bars: each h's best batch over the rounds, lowest to highest */
    pl->hlo = ps_xcalloc((size_t)pl->nh + 1, sizeof(double));
    pl->hhi = ps_xcalloc((size_t)pl->nh + 1, sizeof(double));
    const json_t *smp = json_object_get(hr, "samples");
    for (int i = 0; i < pl->nh; i++) {
        const json_t *row = json_array_get(smp, (size_t)i);
        double lo = INFINITY, hi = -INFINITY;
        for (size_t k = 0; k < json_array_size(row); k++) {
            double v = json_number_value(json_array_get(row, k));
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
        pl->hlo[i] = isfinite(lo) ? lo : NAN;
        pl->hhi[i] = isfinite(hi) ? hi : NAN;
    }
    ps_plot_init(&pl->hrel, "Full h-relation: time of one superstep", "h (8-byte words per rank)", "time");
    pl->hrel.yfmt = ps_html_fmt_time;
    ps_plot_series *hs = ps_plot_add(&pl->hrel, "single words, cyclic (bspbench): best round, bars: the rounds' range",
                                     pl->h, pl->ht, pl->nh, PS_PLOT_POINTS);
    if (hs) {
        hs->ylo = pl->hlo;
        hs->yhi = pl->hhi;
    }
    const json_t *lo = json_object_get(hr, "fit_low");
    if (json_is_object(lo)) {
        pl->lo_x[0] = ps_json_num(lo, "h0");
        pl->lo_x[1] = ps_json_num(lo, "h1");
        for (int k = 0; k < 2; k++) pl->lo_y[k] = ps_json_num(lo, "l_s") + ps_json_num(lo, "g_s") * pl->lo_x[k];
        ps_plot_add(&pl->hrel, "least squares over [0, p]", pl->lo_x, pl->lo_y, 2, PS_PLOT_LINE | PS_PLOT_DASHED);
    }
    /* the reported line: the median of the rounds' fits */
    const json_t *rep = json_object_get(hr, "reported");
    if (json_is_object(rep) && isfinite(ps_json_num(rep, "g_s")) && isfinite(ps_json_num(rep, "l_s"))) {
        pl->hi_x[0] = ps_json_num(bsp, "h0");
        pl->hi_x[1] = ps_json_num(bsp, "h1");
        for (int k = 0; k < 2; k++) pl->hi_y[k] = ps_json_num(rep, "l_s") + ps_json_num(rep, "g_s") * pl->hi_x[k];
        ps_plot_add(&pl->hrel, strcmp(jstr(bsp, "fit"), "failed") ? "g, l: median of the rounds' fits over [p, 256]"
                                                                   : "median of the rounds' fits (failed: not a model)",
                    pl->hi_x, pl->hi_y, 2, PS_PLOT_LINE);
    }
    if (pl->nhc) ps_plot_add(&pl->hrel, "one message per destination (bspprobe)", pl->hc, pl->hct, pl->nhc, PS_PLOT_POINTS);
    return ns > 0 ? 0 : -1;
}

static void free_plots(probe_plots *pl)
{
    free(pl->bytes); free(pl->t); free(pl->bwv); free(pl->tfit); free(pl->bwfit);
    free(pl->h); free(pl->ht); free(pl->hc); free(pl->hct); free(pl->hlo); free(pl->hhi);
}

int ps_probe_write_svgs(const json_t *doc, const char *dir, char *err, size_t errlen)
{
    probe_plots pl;
    if (build_plots(doc, &pl) != 0) {
        free_plots(&pl);
        ps_seterr(err, errlen, "not a probe document (no ping-pong sizes)");
        return -1;
    }
    int rc = ps_mkdirs(dir, err, errlen);
    const ps_plot *plots[3] = {&pl.time, &pl.bw, &pl.hrel};
    const char *names[3] = {"pingpong_time.svg", "pingpong_bandwidth.svg", "hrelation.svg"};
    for (int i = 0; i < 3 && rc == 0; i++) {
        char *path = ps_xasprintf("%s/%s", dir, names[i]);
        rc = ps_plot_write(plots[i], path, err, errlen);
        free(path);
    }
    free_plots(&pl);
    return rc;
}

/* ---- HTML fragment -------------------------------------------------------------------- */

int ps_probe_report_html(FILE *out, const json_t *doc, const char *dir, const char *source)
{
    (void)dir;
    (void)source;
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    if (!kind || strcmp(kind, "probe") != 0) return -1;
    probe_plots pl;
    if (build_plots(doc, &pl) != 0) {
        free_plots(&pl);
        return -1;
    }
    const json_t *pp = json_object_get(doc, "pingpong"), *hk = json_object_get(pp, "hockney");
    const json_t *bsp = json_object_get(doc, "bsp"), *model = json_object_get(doc, "model");
    const json_t *meta = json_object_get(doc, "machine"), *params = json_object_get(doc, "params");
    char a[32], b[32];
    ps_html_section_begin(out, "probe", "Machine probe: ping-pong and BSP r, g, l");
    ps_noise_html(out, json_object_get(doc, "noise"));
    ps_html_kv_begin(out);
    ps_html_kv(out, "host", "%s", jstr(meta, "host"));
    ps_html_kv(out, "CPU", "%s", jstr(meta, "cpu"));
    ps_html_kv(out, "MPI library", "%s", jstr(meta, "mpi"));
    char rounds[96];
    rounds_text(doc, rounds, sizeof rounds);
    ps_html_kv(out, "ranks / rounds", "%d / %s (%s)", (int)ps_json_num(params, "ranks"), rounds, jstr(doc, "mode"));
    ps_html_fmt_time(a, sizeof a, ps_json_num(pp, "latency"));
    ps_html_kv(out, "ping-pong latency (1 B, half round trip)", "%s", a);
    ps_fmt_bytes(b, sizeof b, ps_json_num(pp, "bandwidth_bytes"));
    ps_html_kv(out, "best bandwidth", "%.1f MB/s at %s", ps_json_num(pp, "bandwidth") / 1e6, b);
    ps_html_fmt_time(a, sizeof a, ps_json_num(hk, "t0"));
    ps_html_kv(out, "Hockney t0, r_inf, n_1/2", "%s, %.1f MB/s, %.0f B", a, ps_json_num(hk, "r_inf") / 1e6,
               ps_json_num(hk, "n_half"));
    ps_html_kv(out, "r (DAXPY in / out of cache)", "%.1f / %.1f Mflop/s", ps_json_num(bsp, "r_incache") / 1e6,
               ps_json_num(bsp, "r_outcache") / 1e6);
    if (!strcmp(jstr(bsp, "fit"), "failed")) {
        ps_html_kv(out, "g, l over [p, 256]", "the fit failed: %s; the model has no g and l", jstr(bsp, "fit_note"));
    } else {
        const json_t *gr = json_object_get(bsp, "g_range"), *lr = json_object_get(bsp, "l_range");
        ps_html_kv(out, "g, l over [p, 256] (median of the rounds' fits)",
                   "%.4g flop (%.3g \xc2\xb5s) [rounds %.4g .. %.4g], %.4g flop (%.3g \xc2\xb5s) [rounds %.4g .. %.4g]",
                   ps_json_num(bsp, "g"), ps_json_num(bsp, "g_us"), json_number_value(json_array_get(gr, 0)),
                   json_number_value(json_array_get(gr, 1)), ps_json_num(bsp, "l"), ps_json_num(bsp, "l_us"),
                   json_number_value(json_array_get(lr, 0)), json_number_value(json_array_get(lr, 1)));
    }
    if (json_object_get(bsp, "g_combined"))
        ps_html_kv(out, "g, one message per destination", "%.4g flop (%.3g \xc2\xb5s)", ps_json_num(bsp, "g_combined"),
                   ps_json_num(bsp, "g_combined_us"));
    ps_html_kv(out, "model", "send = recv latency %.3g s, word %.3g s, flop %.3g s, %s",
               ps_json_num(model, "send_latency"), ps_json_num(model, "word_time"), ps_json_num(model, "flop_time"),
               model_network(model));
    print_nodes(out, model);
    if (isfinite(ps_json_num(model, "link_rate")))
        fprintf(out, "; a node's link %.2f MB/s each way\n", ps_json_num(model, "link_rate") / 1e6);
    ps_html_kv_end(out);

    const json_t *w = json_object_get(doc, "warnings");
    size_t i;
    json_t *o;
    json_array_foreach(w, i, o) {
        /* stored for the terminal: the page's spelling of microseconds */
        fputs("<p class=\"note\">Warning: ", out);
        ps_html_escape_units(out, json_is_string(o) ? json_string_value(o) : "");
        fputs("</p>\n", out);
    }

    ps_html_heading(out, "Rounds");
    ps_html_table_begin(out, 4, "figure", "best two", "difference", "agree within 5%");
    json_array_foreach(json_object_get(doc, "agreement"), i, o) {
        const json_t *bt = json_object_get(o, "best_two");
        ps_html_row_begin(out);
        ps_html_cell(out, 0, "%s (%s)", jstr(o, "figure"),
                     jstr(o, "unit"));
        char a[32], b[32];
        const json_t *ag = json_object_get(o, "agree");
        ps_html_cell(out, 1, "%s, %s", ps_fig(a, sizeof a, "%.4g", num_at(bt, 0)),
                     ps_fig(b, sizeof b, "%.4g", num_at(bt, 1)));
        ps_html_cell_fig(out, "%.1f%%", 100 * ps_json_num(o, "rel_diff"));
        ps_html_cell(out, 0, "%s", json_is_true(ag) ? "yes" : json_is_false(ag) ? "no" : "- (fewer than two rounds)");
        ps_html_row_end(out);
    }
    ps_html_table_end(out);

    ps_html_heading(out, "Plots");
    fputs("<div class=\"figures\">\n", out);
    ps_plot_svg(&pl.time, out);
    ps_plot_svg(&pl.bw, out);
    ps_plot_svg(&pl.hrel, out);
    fputs("</div>\n", out);

    ps_html_heading(out, "Ping-pong table");
    ps_html_details_begin(out, "%zu message sizes: best and median half round-trip time, bandwidth",
                          json_array_size(json_object_get(pp, "sizes")));
    ps_html_table_begin(out, 6, "bytes", "best", "median", "samples", "rse", "bandwidth (MB/s)");
    json_array_foreach(json_object_get(pp, "sizes"), i, o) {
        ps_html_row_begin(out);
        ps_html_cell(out, 1, "%.0f", ps_json_num(o, "bytes"));
        ps_html_fmt_time(a, sizeof a, ps_json_num(o, "min"));
        ps_html_cell(out, 1, "%s", a);
        ps_html_fmt_time(a, sizeof a, ps_json_num(o, "median"));
        ps_html_cell(out, 1, "%s", a);
        ps_html_cell(out, 1, "%.0f", ps_json_num(o, "n"));
        ps_html_cell(out, 1, "%.1f%%", 100 * ps_json_num(o, "rse"));
        ps_html_cell(out, 1, "%.1f", ps_json_num(o, "bandwidth") / 1e6);
        ps_html_row_end(out);
    }
    ps_html_table_end(out);
    ps_html_details_end(out);
    ps__loggops_html(doc, out);
    ps_html_section_end(out);
    free_plots(&pl);
    return ferror(out) ? -1 : 0;
}
