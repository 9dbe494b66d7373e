/* sweep.c - running the sweep: plan, interleaved trials, append, resume (see scale.h). */
#include "scale/scale.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/launch.h"
#include "launch/noise.h"
#include "launch/run.h"
#include "util/stats.h"
#include "report/result.h"
#include "trace/sheet.h"
#include "util/output.h"
#include "util/proc.h"
#include "util/progress.h"
#include "util/util.h"

/* ---- the plan ---------------------------------------------------------- */

static json_t *plan_json(const ps_scale_params *p, double copy_bps, size_t copy_bytes)
{
    json_t *d = json_object();
    json_object_set_new(d, "kind", json_string("scale-plan"));
    json_object_set_new(d, "workload", json_string(p->workload));
    json_object_set_new(d, "is_clue", json_boolean(p->is_clue));
    json_object_set_new(d, "scaling", json_string(p->is_clue && !p->strong ? "weak" : "strong"));
    json_t *v = json_array(), *r = json_array();
    if (p->is_clue)
        for (int i = 0; i < p->nvar; i++) json_array_append_new(v, json_string(p->var[i]->name));
    else
        json_array_append_new(v, json_string("default"));
    for (int i = 0; i < p->nranks; i++) json_array_append_new(r, json_integer(p->ranks[i]));
    json_object_set_new(d, "variations", v);
    if (p->is_clue) {
        json_t *ib = json_object();
        for (int i = 0; i < p->nvar; i++)
            json_object_set_new(ib, p->var[i]->name, json_integer(ps_scale_iterations_for(p, p->var[i])));
        json_object_set_new(d, "iterations_by_variation", ib);
    }
    json_object_set_new(d, "ranks", r);
    json_object_set_new(d, "trials", json_integer(p->trials));
    if (p->trials_auto) {
        json_t *a = json_object();
        json_object_set_new(a, "min", json_integer(PS_SCALE_AUTO_MIN_TRIALS));
        json_object_set_new(a, "max", json_integer(p->trials));
        json_object_set_new(a, "target", json_real(p->spread_target));
        json_object_set_new(a, "budget_s", json_real(p->time_budget));
        json_object_set_new(d, "trials_auto", a);
    }
    json_object_set_new(d, "width", json_integer(p->width));
    json_object_set_new(d, "height", json_integer(p->height));
    json_object_set_new(d, "iterations", json_integer(p->iterations));
    json_object_set_new(d, "size", json_integer(p->size));
    json_object_set_new(d, "seed", json_integer((json_int_t)p->seed));
    json_object_set_new(d, "efficiency_threshold", json_real(p->eff_threshold));
    json_t *params = json_object();
    for (int k = 0; k < PS_K__COUNT; k++) {
        char buf[1200];
        ps_scale_params_value(p, k, buf, sizeof buf);
        json_t *e = json_object();
        json_object_set_new(e, "value", json_string(buf));
        json_object_set_new(e, "source", json_string(ps_scale_source_name(p->src[k])));
        if (!p->is_clue && ps_scale_key_clue_only(k))
            json_object_set_new(e, "why", json_string("the clue workload's only: not used by this sweep"));
        else if (p->why[k][0])
            json_object_set_new(e, "why", json_string(p->why[k]));
        json_object_set_new(params, ps_scale_key_name(k), e);
    }
    json_object_set_new(d, "params", params);
    if (p->timing_rate > 0) json_object_set_new(d, "timing_run_cells_per_s", json_real(p->timing_rate));
    if (copy_bps > 0) {
        json_t *m = json_object();
        json_object_set_new(m, "copy_bytes", json_integer((json_int_t)copy_bytes));
        json_object_set_new(m, "copy_bytes_per_s", json_real(copy_bps));
        json_object_set_new(m, "method",
                            json_string("STREAM-like copy b[i] = a[i] over the grids' footprint, best of 10, "
                                        "bytes counted as STREAM (read + write)"));
        json_object_set_new(d, "memory_bound", m);
    }
    json_object_set_new(d, "machine", ps_machine_meta());
    char date[64];
    ps_iso_time(date, sizeof date);
    json_object_set_new(d, "started", json_string(date));
    return d;
}

int ps_scale_load_plan(const char *dir, ps_scale_params *p, json_t **plan, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/sweep.json", dir);
    json_error_t je;
    json_t *d = json_load_file(path, 0, &je);
    if (!d) {
        if (!ps_file_exists(path)) ps_seterr(err, errlen, "%s: no sweep here (no sweep.json)", dir);
        else ps_seterr(err, errlen, "%s:%d:%d: %s", path, je.line, je.column, je.text);
        return -1;
    }
    const char *wl = json_string_value(json_object_get(d, "workload"));
    json_t *params = json_object_get(d, "params");
    if (!wl || !json_is_object(params)) {
        ps_seterr(err, errlen, "%s: not a parscope scale plan", path);
        json_decref(d);
        return -1;
    }
    ps_scale_params_defaults(p);
    snprintf(p->workload, sizeof p->workload, "%s", wl);
    p->is_clue = json_is_true(json_object_get(d, "is_clue"));
    const char *key;
    json_t *e;
    json_object_foreach(params, key, e) {
        const char *val = json_string_value(json_object_get(e, "value"));
        const char *src = json_string_value(json_object_get(e, "source"));
        int s = PS_SRC_DEFAULT;
        for (int i = 0; i <= PS_SRC_OPTION; i++)
            if (src && !strcmp(src, ps_scale_source_name(i))) s = i;
        if (s == PS_SRC_DEFAULT || !val || !*val) continue;
        char e2[512];
        if (ps_scale_params_set(p, key, val, s, e2, sizeof e2)) {
            ps_seterr(err, errlen, "%s: parameter %s: %s", path, key, e2);
            json_decref(d);
            return -1;
        }
        const char *why = json_string_value(json_object_get(e, "why"));
        int k = ps_scale_key_index(key);
        if (why && k >= 0) snprintf(p->why[k], sizeof p->why[k], "%s", why);
    }
    p->timing_rate = json_real_value(json_object_get(d, "timing_run_cells_per_s"));
    if (plan) *plan = d;
    else json_decref(d);
    return 0;
}

json_t *ps_scale_read_runs(const char *dir, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/runs.ndjson", dir);
    json_t *arr = json_array();
    FILE *f = fopen(path, "r");
    if (!f) return arr;
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        json_error_t je;
        json_t *o = json_loads(line, 0, &je);
        /* a line cut short by a crash is skipped: that run is simply missing */
        if (!o) {
            ps_debug("%s:%d: skipped (%s)", path, lineno, je.text);
            continue;
        }
        json_array_append_new(arr, o);
    }
    free(line);
    fclose(f);
    (void)err;
    (void)errlen;
    return arr;
}

/* ---- running ----------------------------------------------------------- */

static int run_done(const json_t *runs, const char *var, int ranks, int trial)
{
    return ps_scale_find_run(runs, var, ranks, trial) != NULL;
}

/* Splits "a b  c" into words appended to v (n in/out). */
static void split_words(const char *s, char **v, int *n, int max)
{
    while (*s && *n < max) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) break;
        const char *e = s;
        while (*e && *e != ' ' && *e != '\t') e++;
        v[(*n)++] = strndup(s, (size_t)(e - s));
        s = e;
    }
}

/* The run spec of one point (args: room for 64 words, freed by the caller;
 * *n their count). */
static void point_spec(const ps_scale_params *p, const ps_ca_variation *var, int ranks, char **args, int *n,
                       ps_run_spec *s)
{
    char grid[64], seed[32];
    *n = 0;
    if (var) {
        snprintf(grid, sizeof grid, "%ldx%ld", p->width, p->height);
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)p->seed);
        args[(*n)++] = strdup("--variation");
        args[(*n)++] = strdup(var->name);
        args[(*n)++] = strdup("--grid");
        args[(*n)++] = strdup(grid);
        args[(*n)++] = strdup("--seed");
        args[(*n)++] = strdup(seed);
        if (p->strong) args[(*n)++] = strdup("--strong");
    }
    split_words(p->workload_args, args, n, 60);
    args[*n] = NULL;
    memset(s, 0, sizeof *s);
    s->workload = p->workload;
    s->ranks = ranks;
    s->size = var ? -1 : p->size;
    long it = var ? ps_scale_iterations_for(p, var) : p->iterations;
    s->iterations = it > 0 ? it : -1;
    s->trials = 1;
    s->extra_args = args;
    s->launch.launcher = p->launcher[0] ? p->launcher : NULL;
    s->launch.timeout = p->timeout;
    s->launch.quiet = 1;
    s->noise_quick = 1; /* the sweep calibrates once, before and after */
}

/* The user's --workload-args, the same at every point, checked once before
 * anything is made or run (ps_run_check_args): 0, or 2 with the program's
 * message in err. */
static int check_workload_args(const ps_scale_params *p, char *err, size_t errlen)
{
    if (!p->workload_args[0]) return 0;
    char *args[64];
    int n;
    ps_run_spec s;
    point_spec(p, p->is_clue ? p->var[0] : NULL, p->ranks[0], args, &n, &s);
    int rc = ps_run_check_args(&s, err, errlen);
    for (int i = 0; i < n; i++) free(args[i]);
    return rc;
}

static json_t *run_one(const ps_scale_params *p, const ps_ca_variation *var, int ranks, int trial, int *fatal,
                       char *err, size_t errlen)
{
    char *args[64];
    int n;
    ps_run_spec s;
    point_spec(p, var, ranks, args, &n, &s);
    ps_run_result r;
    double t0 = ps_clock();
    int rc = ps_run_workload(&s, &r, NULL, NULL, err, errlen);
    double elapsed = ps_clock() - t0;
    for (int i = 0; i < n; i++) free(args[i]);
    if (rc == 2) {
        *fatal = 1;
        ps_run_result_free(&r);
        return NULL;
    }
    json_t *o = json_object();
    json_object_set_new(o, "variation", json_string(var ? var->name : "default"));
    json_object_set_new(o, "ranks", json_integer(ranks));
    json_object_set_new(o, "trial", json_integer(trial));
    int ok = r.ntrials > 0 && r.trial[0].status == 0 && isfinite(r.trial[0].time);
    json_object_set_new(o, "status", json_string(ok ? "ok" : "failed"));
    json_object_set_new(o, "time", ok ? json_real(r.trial[0].time) : json_null());
    json_object_set_new(o, "elapsed", json_real(elapsed));
    if (!ok)
        json_object_set_new(o, "message",
                            json_string(r.ntrials > 0 ? r.trial[0].message : "the run did not start"));
    if (ok && r.best_trace) {
        ps_sheet sh;
        if (ps_sheet_compute(r.best_trace, &sh) == 0) {
            json_object_set_new(o, "sheet", ps_result_sheet(&sh));
            json_object_set_new(o, "rank_sheets", ps_result_ranks(&sh, r.best_trace));
            ps_sheet_free(&sh);
        }
        json_object_set_new(o, "procstats", ps_result_procstats(r.best_trace));
        json_object_set_new(o, "procstats_ranks", ps_result_procstats_ranks(r.best_trace));
    }
    if (ok) {
        ps_placement pl;
        ps_placement_of(r.best_trace, ranks, &pl);
        ps_placement_annotate(o, &pl);
        if (isfinite(r.trial[0].others)) json_object_set_new(o, "others_busy_pct", json_real(100 * r.trial[0].others));
    }
    if (r.launch_overhead > 0) json_object_set_new(o, "launch_overhead", json_real(r.launch_overhead));
    char date[64];
    ps_iso_time(date, sizeof date);
    json_object_set_new(o, "date", json_string(date));
    ps_run_result_free(&r);
    return o;
}

int ps_scale_sweep(ps_scale_params *p, const char *dir, int resume, char *err, size_t errlen)
{
    char plan_path[4200], runs_path[4200];
    snprintf(plan_path, sizeof plan_path, "%s/sweep.json", dir);
    snprintf(runs_path, sizeof runs_path, "%s/runs.ndjson", dir);
    json_t *plan = NULL;
    /* one sweep at a time in a directory: a second one is refused, not mixed in */
    if (ps_is_dir(dir) && ps_dir_lock(dir, err, errlen)) return 2;
    if (resume) {
        if (ps_scale_load_plan(dir, p, &plan, err, errlen)) return 2;
        if (check_workload_args(p, err, errlen)) {
            json_decref(plan);
            return 2;
        }
    } else {
        if (ps_file_exists(plan_path) || ps_file_exists(runs_path)) {
            ps_seterr(err, errlen, "%s already holds a sweep; continue it with --resume %s or choose another -o",
                      dir, dir);
            return 2;
        }
        if (check_workload_args(p, err, errlen) || ps_mkdirs(dir, err, errlen) || ps_dir_lock(dir, err, errlen))
            return 2;
        /* the memory-bandwidth bound, measured in this sweep over the grids' footprint */
        double copy_bps = 0;
        size_t copy_bytes = 0;
        if (p->is_clue) {
            copy_bytes = (size_t)p->width * (size_t)p->height * 8;
            if (copy_bytes < (8u << 20)) copy_bytes = 8u << 20;
            copy_bps = ps_ca_stream_copy(copy_bytes, 10);
        }
        plan = plan_json(p, copy_bps, copy_bytes);
        if (ps_result_write(plan_path, plan, err, errlen)) {
            json_decref(plan);
            return 2;
        }
    }
    json_t *runs = ps_scale_read_runs(dir, err, errlen);

    int nv = p->is_clue ? p->nvar : 1;
    int planned = p->trials_auto ? PS_SCALE_AUTO_MIN_TRIALS : p->trials;
    int todo = 0;
    for (int t = 1; t <= planned; t++)
        for (int v = 0; v < nv; v++)
            for (int i = 0; i < p->nranks; i++)
                if (!run_done(runs, p->is_clue ? p->var[v]->name : "default", p->ranks[i], t)) todo++;
    ps_progress pr;
    ps_progress_begin(&pr, todo, 0);
    if (resume && !pr.on)
        fprintf(stderr, "parscope scale: resuming %s: %d of %d runs to go\n", dir, todo,
                planned * nv * p->nranks);
    if (p->ranks[p->nranks - 1] > p->cores)
        fprintf(stderr,
                "parscope scale: P = %d exceeds the machine's %d cores: those runs are oversubscribed (marked in the "
                "results; their busy / idle figures are time-slicing)\n",
                p->ranks[p->nranks - 1], p->cores);

    ps_noise_sample nz0, nz1;
    ps_noise_take(&nz0, 1);
    ps_interrupt_install();
    int status = 0, fatal = 0, last_trial = 0;
    const char *stopped = NULL;
    char *need = ps_xcalloc((size_t)(nv * p->nranks), 1);
    memset(need, 1, (size_t)(nv * p->nranks));
    for (int t = 1; t <= p->trials && !fatal && !ps_interrupted(); t++) {
        if (p->trials_auto && t > PS_SCALE_AUTO_MIN_TRIALS) {
            /* CLUE's future work: more trials only where the best two still
             * disagree, until they agree or the time budget is spent */
            int left = 0;
            double est = 0;
            for (int v = 0; v < nv; v++)
                for (int i = 0; i < p->nranks; i++) {
                    const char *vn = p->is_clue ? p->var[v]->name : "default";
                    double x[PS_SCALE_AUTO_MAX_TRIALS + 1], el = 0;
                    int k = 0, ne = 0;
                    for (int q = 1; q < t && k <= PS_SCALE_AUTO_MAX_TRIALS; q++) {
                        const json_t *rec = ps_scale_find_run(runs, vn, p->ranks[i], q);
                        const char *st = rec ? json_string_value(json_object_get(rec, "status")) : NULL;
                        if (st && !strcmp(st, "ok")) x[k++] = json_number_value(json_object_get(rec, "time"));
                        if (rec) {
                            el += json_number_value(json_object_get(rec, "elapsed"));
                            ne++;
                        }
                    }
                    need[v * p->nranks + i] = !ps_run_times_agree(x, k, p->spread_target);
                    if (need[v * p->nranks + i]) {
                        left++;
                        est += ne ? el / ne : 0;
                    }
                }
            if (!left) {
                stopped = "target";
                break;
            }
            if (ps_clock() - pr.t0 + est > p->time_budget) {
                stopped = "budget";
                break;
            }
            pr.total += left;
        }
        last_trial = t;
        for (int v = 0; v < nv && !fatal && !ps_interrupted(); v++)
            for (int i = 0; i < p->nranks && !fatal && !ps_interrupted(); i++) {
                const ps_ca_variation *var = p->is_clue ? p->var[v] : NULL;
                const char *vn = var ? var->name : "default";
                if (run_done(runs, vn, p->ranks[i], t)) continue;
                if (p->trials_auto && t > PS_SCALE_AUTO_MIN_TRIALS && !need[v * p->nranks + i]) continue;
                ps_progress_show(&pr, "%s P=%d trial %d/%d", vn, p->ranks[i], t, p->trials);
                json_t *rec = run_one(p, var, p->ranks[i], t, &fatal, err, errlen);
                if (!rec) break;
                /* the run in progress at SIGINT finishes and counts; one the
                 * launcher killed at a second signal is left missing */
                const char *st0 = json_string_value(json_object_get(rec, "status"));
                if (ps_interrupted() && st0 && strcmp(st0, "ok")) {
                    json_decref(rec);
                    break;
                }
                char e2[512];
                if (ps_result_append(runs_path, rec, e2, sizeof e2)) {
                    ps_seterr(err, errlen, "%s", e2);
                    json_decref(rec);
                    fatal = 1;
                    break;
                }
                const char *st = json_string_value(json_object_get(rec, "status"));
                if (st && strcmp(st, "ok")) {
                    status = 1;
                    ps_progress_clear(&pr);
                    fprintf(stderr, "parscope scale: %s at P=%d, trial %d failed: %s\n", vn, p->ranks[i], t,
                            json_string_value(json_object_get(rec, "message")));
                }
                json_array_append_new(runs, rec);
                ps_progress_step(&pr);
            }
    }
    free(need);
    if (p->trials_auto) {
        if (!stopped) stopped = ps_interrupted() ? "interrupted" : fatal ? "failed" : "max";
        json_t *a = json_object_get(plan, "trials_auto");
        if (json_is_object(a)) {
            json_object_set_new(a, "stopped", json_string(stopped));
            json_object_set_new(a, "rounds", json_integer(last_trial));
            json_object_set_new(a, "elapsed_s", json_real(ps_clock() - pr.t0));
            char e5[512];
            ps_result_write(plan_path, plan, e5, sizeof e5);
        }
    }
    ps_progress_end(&pr);
    ps_noise_take(&nz1, !ps_interrupted());
    /* the machine's noise of the session that ran the runs, kept with the
     * plan: a --resume that only analyses keeps it */
    if (pr.done > 0) {
        json_object_set_new(plan, "noise", ps_noise_json(&nz0, &nz1));
        char e6[512];
        ps_result_write(plan_path, plan, e6, sizeof e6);
    }
    int interrupted = ps_interrupted();
    /* the bound is a best-of too: measure the copy again now and keep the faster */
    json_t *mb = json_object_get(plan, "memory_bound");
    if (mb && !interrupted && pr.done > 0) {
        size_t bytes = (size_t)json_integer_value(json_object_get(mb, "copy_bytes"));
        double again = ps_ca_stream_copy(bytes, 10);
        if (again > json_real_value(json_object_get(mb, "copy_bytes_per_s"))) {
            json_object_set_new(mb, "copy_bytes_per_s", json_real(again));
            char e4[512];
            ps_result_write(plan_path, plan, e4, sizeof e4);
        }
    }
    json_t *doc = ps_scale_analyze(plan, runs);
    if (interrupted) json_object_set_new(doc, "interrupted", json_true());
    char e3[1024];
    int wrc = ps_scale_write_outputs(dir, doc, e3, sizeof e3);
    if (!fatal) ps_scale_print(doc, stdout);
    size_t nmissing = json_array_size(json_object_get(doc, "missing"));
    if (wrc) {
        if (!fatal) ps_seterr(err, errlen, "%s", e3);
        fatal = 1;
    } else {
        fprintf(stderr, "parscope scale: wrote %s/scale.csv, %s/scale.json, %s/report.html\n", dir, dir, dir);
    }
    if (interrupted) {
        fprintf(stderr,
                "parscope scale: interrupted (%s): the analysis covers what was measured; %zu run(s) missing "
                "(listed in scale.json \"missing\"); continue with: parscope scale --resume %s\n",
                ps_interrupt_name(), nmissing, dir);
    }
    json_decref(doc);
    json_decref(runs);
    json_decref(plan);
    if (fatal) return 2;
    if (interrupted) return ps_interrupt_status();
    return status;
}
