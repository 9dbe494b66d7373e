/*
 * result.c - the result JSON documents (see result.h and DESIGN.md "Files").
 */
#include "report/result.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/describe.h"
#include "trace/json.h"
#include "util/stats.h"
#include "util/util.h"

/* What one run or point lacks of params.ranks and time, into err; 0 when nothing. */
static int run_lacks(const json_t *d, const char *what, char *err, size_t errlen)
{
    const json_t *r = json_object_get(json_object_get(d, "params"), "ranks");
    int ranks = json_is_integer(r) && json_integer_value(r) >= 1, time = json_is_object(json_object_get(d, "time"));
    if (ranks && time) return 0;
    ps_seterr(err, errlen, "%s lacks %s", what,
              !ranks && !time ? "params.ranks and time" : !ranks ? "params.ranks (a count of at least 1)" : "time");
    return -1;
}

int ps_result_check(const json_t *doc, char *err, size_t errlen)
{
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    char what[64];
    const json_t *pts = json_object_get(doc, "points");
    if (!json_is_array(pts)) {
        snprintf(what, sizeof what, "a %s result", kind ? kind : "");
        return run_lacks(doc, what, err, errlen);
    }
    if (!json_array_size(pts)) {
        ps_seterr(err, errlen, "a %s result with no points", kind ? kind : "");
        return -1;
    }
    size_t i;
    json_t *p;
    json_array_foreach(pts, i, p) {
        snprintf(what, sizeof what, "point %zu of the %s result", i + 1, kind ? kind : "");
        if (run_lacks(p, what, err, errlen)) return -1;
    }
    return 0;
}

double ps_result_used_time(const json_t *doc)
{
    const json_t *t = json_object_get(doc, "time");
    const char *u = json_string_value(json_object_get(t, "used"));
    double v = u && !strcmp(u, "median") ? ps_json_num(t, "median") : ps_json_num(t, "min");
    return isfinite(v) ? v : ps_json_num(json_object_get(doc, "sheet"), "time");
}

json_t *ps_result_ci(const ps_sample_stats *st)
{
    if (st->n < 2) return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "low", json_real(st->ci_low));
    json_object_set_new(o, "high", json_real(st->ci_high));
    json_object_set_new(o, "coverage", json_real(st->ci_coverage));
    json_object_set_new(o, "method", json_string("order statistics (binomial), distribution-free"));
    return o;
}

void ps_result_set_uncertainty(json_t *o, const ps_sample_stats *st, ps_statistic used)
{
    json_object_set_new(o, "statistic", json_string(ps_statistic_name(used)));
    json_object_set_new(o, "value", ps_json_real_or_null(ps_stat_value(st, used)));
    /* relative: best-of-K by the gap of the best two, the median by its interval */
    json_object_set_new(o, "uncertainty", ps_json_real_or_null(ps_stat_uncertainty(st, used)));
    json_object_set_new(o, "uncertainty_method",
                        json_string(used == PS_STAT_MIN ? "best two trials' gap (x2 - x1) / x1"
                                                        : "half width of the median's interval / median"));
    json_object_set_new(o, "spread", ps_json_real_or_null(ps_stat_spread(st)));
    json_object_set_new(o, "sd", ps_json_real_or_null(st->sd));
    json_object_set_new(o, "ci_median", ps_result_ci(st));
}

json_t *ps_result_time(const double *samples, int n)
{
    json_t *t = json_object();
    json_t *arr = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(arr, ps_json_real_or_null(samples[i]));
    ps_sample_stats st;
    ps_sample_stats_of(samples, n, &st);
    json_object_set_new(t, "trials", json_integer(n));
    json_object_set_new(t, "successful", json_integer(st.n));
    json_object_set_new(t, "min", ps_json_real_or_null(st.min));
    json_object_set_new(t, "median", ps_json_real_or_null(st.median));
    json_object_set_new(t, "max", ps_json_real_or_null(st.max));
    json_object_set_new(t, "samples", arr);
    /* the analysis uses the fastest trial, as CLUE does (best-of-K) */
    json_object_set_new(t, "used", json_string("min"));
    json_object_set_new(t, "unit", json_string("s"));
    ps_result_set_uncertainty(t, &st, PS_STAT_MIN);
    return t;
}

static json_t *stat_json(const ps_stat *s)
{
    json_t *o = json_object();
    /* no call, no time: null, never a zero that reads as a measured one */
    json_object_set_new(o, "avg", s->n ? json_real(ps_stat_avg(s)) : json_null());
    json_object_set_new(o, "min", s->n ? json_real(s->min) : json_null());
    json_object_set_new(o, "max", s->n ? json_real(s->max) : json_null());
    json_object_set_new(o, "count", json_integer((json_int_t)s->n));
    return o;
}

/* The message counts and call times of a sheet, and of each of its ranks. */
static void traffic_json(json_t *o, uint64_t messages_sent, uint64_t bytes_sent, uint64_t messages_received,
                         uint64_t bytes_received, const ps_stat *send_time, const ps_stat *recv_time)
{
    json_object_set_new(o, "messages_sent", json_integer((json_int_t)messages_sent));
    json_object_set_new(o, "bytes_sent", json_integer((json_int_t)bytes_sent));
    json_object_set_new(o, "messages_received", json_integer((json_int_t)messages_received));
    json_object_set_new(o, "bytes_received", json_integer((json_int_t)bytes_received));
    json_object_set_new(o, "send_time", stat_json(send_time));
    json_object_set_new(o, "recv_time", stat_json(recv_time));
}

json_t *ps_result_sheet(const ps_sheet *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "time", json_real(s->time));
    json_object_set_new(o, "busy_pct", json_real(s->busy_pct));
    json_object_set_new(o, "overhead_pct", json_real(s->overhead_pct));
    json_object_set_new(o, "idle_pct", json_real(s->idle_pct));
    traffic_json(o, s->messages_sent, s->bytes_sent, s->messages_received, s->bytes_received, &s->send_time,
                 &s->recv_time);
    json_object_set_new(o, "unmatched_messages", json_integer((json_int_t)s->unmatched));
    /* a prediction's barrier tree: the runtime's, not the workload's (a run's MPI_Barrier sends unseen) */
    if (s->runtime_sent || s->runtime_received)
        json_object_set_new(o, "runtime_messages",
                            json_pack("{s:I, s:I, s:s}", "sent", (json_int_t)s->runtime_sent, "received",
                                      (json_int_t)s->runtime_received, "what",
                                      "empty messages of the barrier's binary tree (machine model)"));
    json_object_set_new(o, "events_dropped", json_integer((json_int_t)s->dropped));
    /* ParaGraph's message queue: messages sent to a node, not yet received by it */
    json_object_set_new(o, "queue", json_pack("{s:i, s:f}", "max", s->max_queue, "avg", s->avg_queue));
    return o;
}

json_t *ps_result_ranks(const ps_sheet *s, const ps_trace *t)
{
    json_t *a = json_array();
    for (int r = 0; r < s->nranks; r++) {
        const ps_rank_sheet *rs = &s->rank[r];
        json_t *o = json_object();
        json_object_set_new(o, "rank", json_integer(r));
        if (t && r < t->nranks && t->rank[r].host[0]) json_object_set_new(o, "host", json_string(t->rank[r].host));
        json_object_set_new(o, "busy", json_real(rs->busy));
        json_object_set_new(o, "overhead", json_real(rs->overhead));
        json_object_set_new(o, "idle", json_real(rs->idle));
        json_object_set_new(o, "compute", json_real(rs->compute));
        json_object_set_new(o, "data_move", json_real(rs->data_move));
        json_object_set_new(o, "flops", json_real(rs->flops));
        traffic_json(o, rs->messages_sent, rs->bytes_sent, rs->messages_received, rs->bytes_received,
                     &rs->send_time, &rs->recv_time);
        json_object_set_new(o, "max_queue", json_integer(rs->max_queue));
        json_object_set_new(o, "avg_queue", json_real(rs->avg_queue));
        json_object_set_new(o, "events_dropped", json_integer((json_int_t)rs->dropped));
        if (t && r < t->nranks) {
            json_object_set_new(o, "clock_offset", json_real(t->rank[r].clock_offset));
            json_object_set_new(o, "clock_rtt", json_real(t->rank[r].clock_rtt));
            /* the rank's own process figures, whichever node it ran on */
            const ps_procstats *p = &t->rank[r].proc;
            json_t *pr = json_object();
            json_object_set_new(pr, "wall_s", json_real(p->wall));
            json_object_set_new(pr, "user_s", json_real(p->user));
            json_object_set_new(pr, "system_s", json_real(p->sys));
            json_object_set_new(pr, "minor_faults", json_integer((json_int_t)p->minflt));
            json_object_set_new(pr, "major_faults", json_integer((json_int_t)p->majflt));
            json_object_set_new(pr, "voluntary_switches", json_integer((json_int_t)p->nvcsw));
            json_object_set_new(pr, "involuntary_switches", json_integer((json_int_t)p->nivcsw));
            json_object_set_new(pr, "max_rss_kb", json_integer((json_int_t)p->maxrss_kb));
            json_object_set_new(o, "process", pr);
            /* memory-system counters over the timed interval (null: not measured) */
            json_object_set_new(o, "timed_minor_faults", p->timed_minflt >= 0 ? json_integer(p->timed_minflt) : json_null());
            json_object_set_new(o, "timed_major_faults", p->timed_majflt >= 0 ? json_integer(p->timed_majflt) : json_null());
            json_object_set_new(o, "timed_cache_misses",
                                p->timed_cache_misses >= 0 ? json_integer(p->timed_cache_misses) : json_null());
        }
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *agg(const double *v, int n)
{
    json_t *o = json_object();
    double sum = 0, mn = INFINITY, mx = -INFINITY;
    for (int i = 0; i < n; i++) {
        sum += v[i];
        if (v[i] < mn) mn = v[i];
        if (v[i] > mx) mx = v[i];
    }
    double avg = n ? sum / n : 0, ss = 0;
    for (int i = 0; i < n; i++) ss += (v[i] - avg) * (v[i] - avg);
    json_object_set_new(o, "avg", json_real(avg));
    json_object_set_new(o, "sd", json_real(n > 1 ? sqrt(ss / (n - 1)) : 0));
    json_object_set_new(o, "min", json_real(n ? mn : 0));
    json_object_set_new(o, "max", json_real(n ? mx : 0));
    return o;
}

/* What the process metrics cover.  The runtime takes getrusage at the start
 * and the end of the timed interval (runtime/memcount.c), the interval CLUE
 * times between Timer.Start and Timer.Stop (seed 3.2): the figures are its
 * differences, the wall time the rank's own interval.  Max RSS is a peak,
 * the process's.  A trace without them (a prediction, a file written before
 * trace version 4) has the whole-process figures, read when a rank ended. */
#define PS_PROCSTATS_TIMED                                                                                           \
    "timed interval: getrusage at its start and its end on every rank (CLUE's Timer.Start .. Timer.Stop); max RSS " \
    "is the process's peak"
#define PS_PROCSTATS_WHOLE "whole process: getrusage at the end of the rank, wall from the process start"

static int procstats_timed(const ps_trace *t)
{
    for (int r = 0; r < t->nranks; r++) {
        const ps_procstats *p = &t->rank[r].proc;
        if (p->timed_user_us < 0 || p->timed_sys_us < 0 || p->timed_minflt < 0 || p->timed_majflt < 0 ||
            p->timed_nvcsw < 0 || p->timed_nivcsw < 0)
            return 0;
    }
    return t->nranks > 0;
}

/* Rank r's metrics over the interval procstats_timed chose. */
static ps_procstats procstats_of(const ps_trace *t, int r, int timed)
{
    ps_procstats q = t->rank[r].proc;
    if (!timed) return q;
    q.wall = t->rank[r].t_end - t->rank[r].t_begin;
    q.user = 1e-6 * (double)q.timed_user_us;
    q.sys = 1e-6 * (double)q.timed_sys_us;
    q.minflt = (uint64_t)q.timed_minflt;
    q.majflt = (uint64_t)q.timed_majflt;
    q.nvcsw = (uint64_t)q.timed_nvcsw;
    q.nivcsw = (uint64_t)q.timed_nivcsw;
    return q;
}

json_t *ps_result_procstats_ranks(const ps_trace *t)
{
    json_t *a = json_array();
    int timed = procstats_timed(t);
    for (int r = 0; r < t->nranks; r++) {
        ps_procstats p = procstats_of(t, r, timed);
        json_t *o = json_object();
        json_object_set_new(o, "rank", json_integer(r));
        if (t->rank[r].host[0]) json_object_set_new(o, "host", json_string(t->rank[r].host));
        json_object_set_new(o, "wall_s", json_real(p.wall));
        json_object_set_new(o, "user_s", json_real(p.user));
        json_object_set_new(o, "system_s", json_real(p.sys));
        json_object_set_new(o, "minor_faults", json_integer((json_int_t)p.minflt));
        json_object_set_new(o, "major_faults", json_integer((json_int_t)p.majflt));
        json_object_set_new(o, "voluntary_switches", json_integer((json_int_t)p.nvcsw));
        json_object_set_new(o, "involuntary_switches", json_integer((json_int_t)p.nivcsw));
        json_object_set_new(o, "max_rss_kb", json_integer((json_int_t)p.maxrss_kb));
        json_array_append_new(a, o);
    }
    return a;
}

json_t *ps_result_procstats(const ps_trace *t)
{
    int n = t->nranks, timed = procstats_timed(t);
    double *v = ps_xcalloc((size_t)(n ? n : 1), sizeof *v);
    json_t *o = json_object();
    json_object_set_new(o, "interval", json_string(timed ? PS_PROCSTATS_TIMED : PS_PROCSTATS_WHOLE));
    json_object_set_new(o, "timed", json_boolean(timed));
#define PS_AGG(key, field)                                  \
    do {                                                    \
        for (int r = 0; r < n; r++) {                       \
            ps_procstats p = procstats_of(t, r, timed);     \
            v[r] = (double)p.field;                         \
        }                                                   \
        json_object_set_new(o, key, agg(v, n));             \
    } while (0)
    PS_AGG("wall_s", wall);
    PS_AGG("user_s", user);
    PS_AGG("system_s", sys);
    PS_AGG("minor_faults", minflt);
    PS_AGG("major_faults", majflt);
    PS_AGG("voluntary_switches", nvcsw);
    PS_AGG("involuntary_switches", nivcsw);
    PS_AGG("max_rss_kb", maxrss_kb);
#undef PS_AGG
    free(v);
    return o;
}

void ps_result_describe(json_t *doc, const ps_trace *t, const char *workload)
{
    json_t *meta = ps_trace_meta(t);
    json_t *structure = json_object_get(meta, "structure");
    char problem[1024];
    ps_problem_text(workload, structure, problem, sizeof problem);
    json_t *p = json_string(problem);
    if (p) json_object_set_new(doc, "problem", p);
    json_object_set_new(doc, "structure", json_is_array(structure) ? json_incref(structure) : json_array());
    json_object_set_new(doc, "hardware", ps_trace_hardware(t, meta));
    json_decref(meta);
}

void ps_result_params_from_trace(json_t *params, const ps_trace *t)
{
    json_t *meta = t && t->meta_json ? json_loads(t->meta_json, 0, NULL) : NULL;
    /* a run's trace holds params {size, iterations, ...}; a prediction's, top-level keys */
    json_t *tp = json_object_get(meta, "params");
    const char *kind = json_string_value(json_object_get(meta, "kind"));
    if (!json_is_object(tp) && kind && !strcmp(kind, "predict")) tp = meta;
    if (json_is_object(tp)) {
        static const char *const keys[] = {"size", "iterations"};
        for (int k = 0; k < 2; k++) {
            json_t *v = json_object_get(tp, keys[k]);
            if (json_is_integer(v) && json_integer_value(v) > 0) json_object_set(params, keys[k], v);
        }
        json_t *g = json_object_get(tp, "grid");
        if (json_is_string(g)) {
            json_object_set(params, "grid", g);
            json_object_set_new(params, "grid_per_rank", json_boolean(json_is_true(json_object_get(tp, "grid_per_rank"))));
        }
    }
    json_decref(meta);
}

json_t *ps_result_run(const char *kind, const char *workload, json_t *machine, int ranks, long size, long iterations,
                      const double *samples, int nsamples, const ps_trace *best, const char *trace_path)
{
    return ps_result_run_sheet(kind, workload, machine, ranks, size, iterations, samples, nsamples, best, NULL,
                               trace_path);
}

json_t *ps_result_run_sheet(const char *kind, const char *workload, json_t *machine, int ranks, long size,
                            long iterations, const double *samples, int nsamples, const ps_trace *best,
                            const ps_sheet *sheet, const char *trace_path)
{
    json_t *d = json_object();
    json_object_set_new(d, "kind", json_string(kind));
    json_object_set_new(d, "workload", json_string(workload));
    json_t *p = json_object();
    json_object_set_new(p, "ranks", json_integer(ranks));
    json_object_set_new(p, "size", json_integer(size));
    json_object_set_new(p, "iterations", json_integer(iterations));
    ps_result_params_from_trace(p, best);
    json_object_set_new(d, "params", p);
    json_object_set_new(d, "machine", machine ? machine : json_null());
    json_object_set_new(d, "time", ps_result_time(samples, nsamples));
    if (best) {
        ps_sheet s;
        if (sheet) {
            json_object_set_new(d, "sheet", ps_result_sheet(sheet));
            json_object_set_new(d, "ranks", ps_result_ranks(sheet, best));
        } else if (ps_sheet_compute(best, &s) == 0) {
            json_object_set_new(d, "sheet", ps_result_sheet(&s));
            json_object_set_new(d, "ranks", ps_result_ranks(&s, best));
            ps_sheet_free(&s);
        }
        /* a simulated trace ran no process: no metrics rather than zeros */
        if (strcmp(kind, "predict")) {
            json_object_set_new(d, "procstats", ps_result_procstats(best));
            json_object_set_new(d, "procstats_ranks", ps_result_procstats_ranks(best));
        }
        ps_result_describe(d, best, workload);
        if (best->meta_json) {
            json_error_t jerr;
            json_t *meta = json_loads(best->meta_json, 0, &jerr);
            if (meta) json_object_set_new(d, "trace_meta", meta);
            else json_object_set_new(d, "trace_meta_error", json_string(jerr.text));
        }
    }
    json_object_set_new(d, "trace", trace_path ? json_string(trace_path) : json_null());
    return d;
}

/* Reals below this magnitude are written with 10 significant digits (a
 * microsecond or finer for a time in seconds, more than any measured figure
 * holds); larger ones are clock readings (trace_meta.clock.realtime_s,
 * seconds since 1970, and monotonic_s, since boot), which 10 digits would
 * cut to 1 s or 10 us: they get the fewest digits that read back as the
 * same number (up to 17). */
#define PS_RESULT_WIDE_REAL 1e4

/* v as jansson writes a real with precision digits; caller frees. */
static char *real_text(double v, int precision)
{
    json_t *j = json_real(v);
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(precision)) : NULL;
    json_decref(j);
    return text;
}

/* text, a document dumped with 17 significant digits, with each real
 * written as PS_RESULT_WIDE_REAL says; a new string (text is freed), NULL
 * when out of memory. */
static char *real_digits(char *text)
{
    if (!text) return NULL;
    size_t n = strlen(text), cap = n + 1, len = 0;
    char *out = malloc(cap);
    if (!out) {
        free(text);
        return NULL;
    }
    int in_string = 0;
    for (size_t i = 0; i < n;) {
        char c = text[i];
        size_t tok = 1;
        const char *piece = text + i;
        char *made = NULL;
        if (in_string) {
            if (c == '\\') tok = 2;
            else if (c == '"') in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            tok = strspn(text + i, "0123456789+-.eE");
            if (memchr(text + i, '.', tok) || memchr(text + i, 'e', tok) || memchr(text + i, 'E', tok)) {
                double v = strtod(text + i, NULL);
                if (fabs(v) < PS_RESULT_WIDE_REAL) made = real_text(v, 10);
                else
                    for (int p = 10; p <= 17; p++) {
                        free(made);
                        made = real_text(v, p);
                        if (!made || strtod(made, NULL) == v) break;
                    }
                if (!made) {
                    free(out);
                    free(text);
                    return NULL;
                }
                piece = made;
            }
        }
        size_t plen = made ? strlen(made) : tok;
        if (len + plen + 1 > cap) {
            cap = 2 * (len + plen + 1);
            char *bigger = realloc(out, cap);
            if (!bigger) {
                free(made);
                free(out);
                free(text);
                return NULL;
            }
            out = bigger;
        }
        memcpy(out + len, piece, plen);
        len += plen;
        free(made);
        i += tok;
    }
    out[len] = '\0';
    free(text);
    return out;
}

/* doc with "schema" first (objects only; a document that has one keeps it),
 * its reals as real_digits writes them. */
static char *dump_with_schema(json_t *doc, size_t flags)
{
    flags |= JSON_REAL_PRECISION(17);
    if (!json_is_object(doc) || json_object_get(doc, "schema")) return real_digits(json_dumps(doc, flags));
    json_t *d = json_object();
    json_object_set_new(d, "schema", json_integer(PS_RESULT_SCHEMA));
    json_object_update(d, doc);
    char *text = json_dumps(d, flags);
    json_decref(d);
    return real_digits(text);
}

int ps_result_write(const char *path, json_t *doc, char *err, size_t errlen)
{
    char *text = dump_with_schema(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!text) {
        ps_seterr(err, errlen, "%s: cannot encode the result as JSON", path);
        return -1;
    }
    size_t n = strlen(text);
    char *withnl = ps_xmalloc(n + 2);
    memcpy(withnl, text, n);
    withnl[n] = '\n';
    withnl[n + 1] = '\0';
    int rc = ps_write_file(path, withnl, n + 1, err, errlen);
    free(text);
    free(withnl);
    return rc;
}

int ps_result_append(const char *path, json_t *doc, char *err, size_t errlen)
{
    char *text = dump_with_schema(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!text) {
        ps_seterr(err, errlen, "%s: cannot encode the result as JSON", path);
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (fd < 0) {
        ps_seterr(err, errlen, "%s: cannot append: %s", path, strerror(errno));
        free(text);
        return -1;
    }
    size_t n = strlen(text);
    text[n] = '\n';
    ssize_t w = write(fd, text, n + 1);
    int rc = 0;
    if (w != (ssize_t)(n + 1) || fsync(fd) != 0) {
        ps_seterr(err, errlen, "%s: write failed: %s", path, w < 0 ? strerror(errno) : "short write (disk full?)");
        rc = -1;
    }
    if (close(fd) != 0 && rc == 0) {
        ps_seterr(err, errlen, "%s: write failed: %s", path, strerror(errno));
        rc = -1;
    }
    free(text);
    return rc;
}
