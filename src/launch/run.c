/*
 * run.c - running a workload: K trials, each launched under MPI, each
 * trial's trace read back and timed (see run.h).
 */
#include "launch/run.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "lang/build.h"
#include "runtime/config.h"
#include "workloads/workloads.h"
#include "util/proc.h"
#include "util/stats.h"
#include "util/util.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

typedef struct argv_b {
    char **v;
    int n, cap;
} argv_b;

static void ab_push(argv_b *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->v = ps_xrealloc(a->v, (size_t)a->cap * sizeof *a->v);
    }
    a->v[a->n++] = ps_xstrdup(s);
    a->v[a->n] = NULL;
}

void ps_argv_free(char **argv)
{
    if (!argv) return;
    for (int i = 0; argv[i]; i++) free(argv[i]);
    free(argv);
}

int ps_runtime_program(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        ps_seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        ps_seterr(err, errlen, "%s: %s, not a program (a workload is a built-in name, a FILE.loop, or a program "
                               "linked with the parscope runtime)", path,
                  S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode) ? "a device" : "not a regular file");
        return -1;
    }
    if (access(path, X_OK) != 0) {
        ps_seterr(err, errlen, "%s: not executable (a workload is a built-in name, a FILE.loop, or a program linked "
                               "with the parscope runtime)", path);
        return -1;
    }
    /* an ELF file that holds the runtime's mark (linked statically) or names
     * libparscope.so (linked dynamically) */
    char e[256];
    size_t len = 0;
    char *data = ps_read_file(path, &len, e, sizeof e);
    if (!data) {
        ps_seterr(err, errlen, "%s", e);
        return -1;
    }
    int elf = len >= 4 && !memcmp(data, "\177ELF", 4);
    int linked = elf && (memmem(data, len, PS_RUNTIME_MARK, strlen(PS_RUNTIME_MARK)) ||
                         memmem(data, len, "libparscope.so", 14));
    free(data);
    if (!linked) {
        ps_seterr(err, errlen, "%s: %s (a workload is a built-in name, a FILE.loop, or a program linked with the "
                               "parscope runtime: parscope build FILE.loop makes one)", path,
                  elf ? "a program not linked with the parscope runtime" : "not a program");
        return -1;
    }
    return 0;
}

int ps_workload_argv(const ps_run_spec *s, char ***argv, char *err, size_t errlen)
{
    argv_b a = {0};
    const ps_workload *w = ps_workload_find(s->workload);
    const char *variant = s->variant && strcmp(s->variant, "full") ? s->variant : NULL;
    char name[256];
    if (w) {
        if (!w->entry) {
            ps_seterr(err, errlen, "workload '%s' is not built into this parscope", w->name);
            return 2;
        }
        if (variant) {
            /* variants of a built-in LOOP workload are built from its embedded source */
            if (!w->source || !*w->source) {
                ps_seterr(err, errlen, "workload '%s' has no LOOP source, so it has no '%s' variant", w->name,
                          variant);
                return 2;
            }
            char dir[PATH_MAX], exe[PATH_MAX];
            const char *cache = getenv("XDG_CACHE_HOME");
            const char *home = getenv("HOME");
            if (cache && *cache) snprintf(dir, sizeof dir, "%s/parscope/src", cache);
            else snprintf(dir, sizeof dir, "%s/.cache/parscope/src", home && *home ? home : "/tmp");
            if (ps_mkdirs(dir, err, errlen)) return 2;
            char path[PATH_MAX + 64];
            snprintf(path, sizeof path, "%s/%s.loop", dir, w->name);
            if (ps_write_file(path, *w->source, strlen(*w->source), err, errlen)) return 2;
            int rc = ps_build_cached(path, variant, exe, sizeof exe, err, errlen);
            if (rc) return rc;
            ab_push(&a, exe);
        } else {
            ab_push(&a, ps_self_exe());
            ab_push(&a, "__rank");
            ab_push(&a, w->name);
        }
        snprintf(name, sizeof name, "%s", w->name);
    } else if (ends_with(s->workload, ".loop")) {
        if (!ps_file_exists(s->workload)) {
            ps_seterr(err, errlen, "%s: no such file", s->workload);
            return 2;
        }
        char exe[PATH_MAX];
        int rc = ps_build_cached(s->workload, variant, exe, sizeof exe, err, errlen);
        if (rc) return rc;
        ab_push(&a, exe);
        const char *base = strrchr(s->workload, '/');
        snprintf(name, sizeof name, "%s", base ? base + 1 : s->workload);
        name[strlen(name) - 5] = '\0';
    } else if (strchr(s->workload, '/') && ps_file_exists(s->workload)) {
        if (ps_runtime_program(s->workload, err, errlen)) return 2;
        ab_push(&a, s->workload);
        const char *base = strrchr(s->workload, '/');
        snprintf(name, sizeof name, "%s", base + 1);
    } else {
        char list[1024];
        size_t o = 0;
        for (const ps_workload *x = ps_workloads; x->name && o + 32 < sizeof list; x++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", o ? ", " : "", x->name);
        ps_seterr(err, errlen, "unknown workload '%s' (built-in: %s; or a FILE.loop)", s->workload, list);
        return 2;
    }
    long size = s->size > 0 ? s->size : (w ? w->default_size : -1);
    long iters = s->iterations > 0 ? s->iterations : (w ? w->default_iterations : -1);
    char num[32];
    if (size > 0) {
        ab_push(&a, "-s");
        snprintf(num, sizeof num, "%ld", size);
        ab_push(&a, num);
    }
    if (iters > 0) {
        ab_push(&a, "-i");
        snprintf(num, sizeof num, "%ld", iters);
        ab_push(&a, num);
    }
    ab_push(&a, "--workload");
    ab_push(&a, name);
    if (s->launch.timeout > 0) {
        /* the ranks stop themselves at the limit, saying what they wait on;
         * parscope stops the job only if they do not (launch.h, self_stop) */
        snprintf(num, sizeof num, "%.17g", s->launch.timeout);
        ab_push(&a, "--timeout");
        ab_push(&a, num);
    }
    for (int i = 0; s->extra_args && s->extra_args[i]; i++) ab_push(&a, s->extra_args[i]);
    *argv = a.v;
    return 0;
}

/* The program's own arguments checked before a job starts: the program run
 * once, alone, with --check-args (it parses its arguments and ends there,
 * src/runtime/rt.c ps_program_args), so '-- --sise 100' or '-- -s abc' is
 * bad usage (2, the program's message in err), not a failed trial after a
 * launch, nor an argument silently ignored.  A program that does not end at
 * once (one built against a runtime without the check) is stopped and let
 * through: the job itself then says what it says. */
static int check_program_args(char **argv, char *err, size_t errlen)
{
    int n = 0;
    while (argv[n]) n++;
    char **a = ps_xcalloc((size_t)n + 2, sizeof *a);
    memcpy(a, argv, (size_t)n * sizeof *a);
    a[n] = "--check-args";
    ps_proc_opts po = {.timeout = 10, .kill_grace = 1, .out = "/dev/null", .err = PS_PROC_ERR_CAPTURE};
    ps_proc_result pr;
    ps_proc_run(a, &po, &pr);
    free(a);
    int rc = 0;
    if (pr.exited && pr.exit_code == 2) {
        char *msg = pr.err ? pr.err : "";
        if (!strncmp(msg, "parscope: ", 10)) msg += 10;
        msg[strcspn(msg, "\n")] = '\0';
        ps_seterr(err, errlen, "%s", *msg ? msg : "the program refused its arguments (exit status 2)");
        rc = 2;
    }
    ps_proc_result_free(&pr);
    return rc;
}

int ps_run_check_args(const ps_run_spec *s, char *err, size_t errlen)
{
    if (!s->extra_args || !s->extra_args[0]) return 0;
    char **argv;
    int rc = ps_workload_argv(s, &argv, err, errlen);
    if (rc) return rc;
    rc = check_program_args(argv, err, errlen);
    ps_argv_free(argv);
    return rc;
}

/* Whether the best two of the trials so far agree within PS_RUN_SPREAD_TARGET
 * (a failed trial's time is NAN: left out). */
static int trials_agree(const ps_run_result *r)
{
    double *tv = ps_xcalloc((size_t)r->ntrials + 1, sizeof *tv);
    for (int q = 0; q < r->ntrials; q++) tv[q] = r->trial[q].time;
    int yes = ps_run_times_agree(tv, r->ntrials, PS_RUN_SPREAD_TARGET);
    free(tv);
    return yes;
}

int ps_run_workload(const ps_run_spec *s, ps_run_result *r, ps_run_progress cb, void *ctx, char *err,
                    size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->best = -1;
    r->ranks = s->ranks;
    int trials = s->trials > 0 ? s->trials : 1;
    const ps_workload *w = ps_workload_find(s->workload);
    snprintf(r->workload, sizeof r->workload, "%s", w ? w->name : s->workload);
    r->size = s->size > 0 ? s->size : (w ? w->default_size : 0);
    r->iterations = s->iterations > 0 ? s->iterations : (w ? w->default_iterations : 0);

    int rc;
    if (s->check_args && (rc = ps_run_check_args(s, err, errlen))) return rc;
    char **argv;
    if ((rc = ps_workload_argv(s, &argv, err, errlen))) return rc;
    char *dir = ps_mktempdir("parscope-run", err, errlen);
    if (!dir) {
        ps_argv_free(argv);
        return 2;
    }
    int nargs = 0;
    while (argv[nargs]) nargs++;
    char **full = ps_xcalloc((size_t)nargs + 4, sizeof *full);
    for (int i = 0; i < nargs; i++) full[i] = argv[i];
    char tracefile[PATH_MAX];
    snprintf(tracefile, sizeof tracefile, "%s/trace.pst", dir);
    full[nargs] = "--trace";
    full[nargs + 1] = tracefile;
    full[nargs + 2] = "--quiet";
    full[nargs + 3] = NULL;

    int most = s->trials_max > trials ? s->trials_max : trials;
    r->trial = ps_xcalloc((size_t)most, sizeof *r->trial);
    r->planned = trials;
    r->trials_first = trials;
    r->trials_max = most > trials ? most : 0;
    ps_noise_take(&r->noise_before, !s->noise_quick);
    int failed = 0;
    double overhead = 0;
    int nok = 0;
    for (int k = 0; k < r->planned && !ps_interrupted(); k++) {
        ps_run_trial *t = &r->trial[k];
        t->time = NAN;
        t->others = NAN;
        unlink(tracefile);
        ps_noise_sample n0, n1;
        ps_noise_take(&n0, 0);
        ps_launch_opts lo = s->launch;
        lo.ranks = s->ranks;
        lo.status_dir = dir;
        lo.self_stop = s->launch.timeout > 0;
        ps_launch_result lr;
        int lrc = ps_launch(&lo, full, &lr);
        ps_noise_take(&n1, 0);
        t->others = ps_noise_others(&n0, &n1);
        if (lrc == 2) {
            ps_seterr(err, errlen, "%s", lr.message);
            rc = 2;
            break;
        }
        if (lr.interrupted) {
            /* stopped half-way: not a trial, a missing one */
            r->interrupted = 1;
            break;
        }
        r->ntrials = k + 1;
        if (lrc != 0) {
            t->status = 1;
            snprintf(t->message, sizeof t->message, "%.500s", lr.message);
            failed = 1;
        } else {
            char terr[512];
            ps_trace *tr;
            if (ps_trace_read(tracefile, &tr, terr, sizeof terr)) {
                t->status = 1;
                snprintf(t->message, sizeof t->message, "the program ended without a trace: %.450s", terr);
                failed = 1;
            } else {
                t->time = ps_trace_time(tr);
                overhead += lr.elapsed - t->time;
                nok++;
                if (r->best < 0 || t->time < r->trial[r->best].time) {
                    r->best = k;
                    ps_trace_free(r->best_trace);
                    r->best_trace = tr;
                    if (s->keep_all) {
                        /* keep a separate copy for the trial: read it again */
                        ps_trace_read(tracefile, &t->trace, terr, sizeof terr);
                    }
                } else if (s->keep_all) {
                    t->trace = tr;
                } else {
                    ps_trace_free(tr);
                }
            }
        }
        /* --auto-trials: one more while the best two still disagree (a failed trial ends them: the
         * result is then in doubt anyway, and another would likely fail too) */
        if (k + 1 == r->planned && r->planned < r->trials_max && !failed && !trials_agree(r)) r->planned++;
        if (cb) cb(s, r, k, ctx);
    }
    if (ps_interrupted()) r->interrupted = 1;
    /* however the trials ended (an interruption within the first -k too): what the samples say */
    if (r->trials_max) r->agreed = trials_agree(r);
    ps_noise_take(&r->noise_after, !s->noise_quick && !ps_interrupted());
    r->launch_overhead = nok ? overhead / nok : 0;
    /* an executable's parameters are known only from its trace */
    if (r->best_trace && r->best_trace->meta_json && (r->size <= 0 || r->iterations <= 0)) {
        json_t *meta = json_loads(r->best_trace->meta_json, 0, NULL);
        json_t *p = meta ? json_object_get(meta, "params") : NULL;
        if (p && r->size <= 0) r->size = (long)json_integer_value(json_object_get(p, "size"));
        if (p && r->iterations <= 0) r->iterations = (long)json_integer_value(json_object_get(p, "iterations"));
        json_decref(meta);
    }
    free(full);
    ps_argv_free(argv);
    ps_rmtree(dir);
    free(dir);
    if (rc) return rc;
    return failed ? 1 : 0;
}

void ps_run_result_free(ps_run_result *r)
{
    if (!r) return;
    for (int k = 0; k < r->ntrials && r->trial; k++) ps_trace_free(r->trial[k].trace);
    free(r->trial);
    ps_trace_free(r->best_trace);
    memset(r, 0, sizeof *r);
}

void ps_run_annotate(const ps_run_result *r, json_t *doc)
{
    json_object_set_new(doc, "noise", ps_noise_json(&r->noise_before, &r->noise_after));
    json_t *tm = json_object_get(doc, "time");
    if (json_is_object(tm)) {
        json_t *a = json_array();
        for (int k = 0; k < r->ntrials; k++)
            json_array_append_new(a, isfinite(r->trial[k].others) ? json_real(100 * r->trial[k].others) : json_null());
        json_object_set_new(tm, "others_busy_pct", a);
    }
    ps_placement p;
    ps_placement_of(r->best_trace, r->ranks, &p);
    ps_placement_annotate(doc, &p);
}

void ps_run_time_stats(const ps_run_result *r, ps_sample_stats *st)
{
    double *v = ps_xcalloc((size_t)r->ntrials + 1, sizeof *v);
    int n = 0;
    for (int k = 0; k < r->ntrials; k++)
        if (r->trial[k].status == 0) v[n++] = r->trial[k].time;
    ps_sample_stats_of(v, n, st);
    free(v);
}

int ps_run_times_agree(const double *t, int n, double target)
{
    double *v = ps_xcalloc((size_t)n + 1, sizeof *v);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(t[i])) v[k++] = t[i];
    ps_sample_stats st;
    ps_sample_stats_of(v, k, &st);
    free(v);
    double u = ps_stat_uncertainty(&st, PS_STAT_MIN);
    return isfinite(u) && u <= target;
}

void ps_run_auto_words(const ps_run_result *r, char *rule, size_t rlen, char *end, size_t elen)
{
    snprintf(rule, rlen, "%d to %d trials until the best two agree within %.0f%%", r->trials_first, r->trials_max,
             100 * PS_RUN_SPREAD_TARGET);
    ps_sample_stats st;
    ps_run_time_stats(r, &st);
    double u = ps_stat_uncertainty(&st, PS_STAT_MIN);
    int failed = 0;
    for (int q = 0; q < r->ntrials; q++) failed |= r->trial[q].status != 0;
    const char *why = r->interrupted ? " (interrupted)" : failed ? " (a trial failed, which ends them)" : "";
    if (r->agreed)
        snprintf(end, elen, "agreed after %d%s", r->ntrials, why);
    else if (isfinite(u))
        snprintf(end, elen, "the best two still %.1f%% apart after %d%s", 100 * u, r->ntrials, why);
    else
        snprintf(end, elen, "fewer than two successful trials in %d%s", r->ntrials, why);
}

json_t *ps_run_auto_json(const ps_run_result *r)
{
    if (!r->trials_max) return NULL;
    char rule[128], end[160], text[300];
    ps_run_auto_words(r, rule, sizeof rule, end, sizeof end);
    snprintf(text, sizeof text, "%s: %s", rule, end);
    return json_pack("{s:i, s:i, s:f, s:i, s:b, s:s}", "first", r->trials_first, "max", r->trials_max, "target",
                     PS_RUN_SPREAD_TARGET, "ran", r->ntrials, "agreed", r->agreed, "text", text);
}

/* "Trials: 3 (3 ok); best 1.99 ms +/- 72% (the gap of the best two), ..."
 * (nothing when no trial succeeded: they are reported one by one). */
static void print_trials(const ps_run_result *r, FILE *out)
{
    ps_sample_stats st;
    ps_run_time_stats(r, &st);
    if (st.n == 0) return;
    char best[32], med[32], lo[32], hi[32], unc[48];
    ps_fmt_time(best, sizeof best, st.min);
    ps_fmt_time(med, sizeof med, st.median);
    double u = ps_stat_uncertainty(&st, PS_STAT_MIN);
    if (isfinite(u)) snprintf(unc, sizeof unc, " +/- %.1f%%", 100 * u);
    else snprintf(unc, sizeof unc, " (one successful trial: no spread)");
    fprintf(out, "\nTrials: %d (%d ok); best %s%s (the gap of the best two), median %s", r->ntrials, st.n, best, unc,
            med);
    if (st.n >= 2) {
        ps_fmt_time(lo, sizeof lo, st.ci_low);
        ps_fmt_time(hi, sizeof hi, st.ci_high);
        fprintf(out, " in [%s, %s] (%.0f%% interval)", lo, hi, 100 * st.ci_coverage);
    }
    fprintf(out, "; the sheet is the fastest trial's\n");
    if (r->trials_max) {
        char rule[128], end[160];
        ps_run_auto_words(r, rule, sizeof rule, end, sizeof end);
        fprintf(out, "Trials by --auto-trials, %s: %s\n", rule, end);
    }
}

void ps_run_print_conditions(const ps_run_result *r, FILE *out)
{
    if (r->ntrials > 1) print_trials(r, out);
    ps_placement p;
    ps_placement_of(r->best_trace, r->ranks, &p);
    char w[600];
    ps_placement_warning(&p, w, sizeof w);
    if (w[0]) fprintf(out, "WARNING: %s\n", w);
    json_t *n = ps_noise_json(&r->noise_before, &r->noise_after);
    fprintf(out, "%s\n", json_string_value(json_object_get(n, "summary")));
    json_decref(n);
}
