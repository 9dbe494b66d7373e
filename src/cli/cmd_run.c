/*
 * cmd_run.c - 'parscope run': a workload under MPI, K trials, the result
 * sheet printed and the result JSON written (src/launch/run.c runs the
 * trials); and '__rank', the same binary acting as one rank of a built-in
 * workload inside the MPI job; and 'workloads', the list of built-ins.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "launch/run.h"
#include "parscope/parscope.h"
#include "report/export.h"
#include "report/result.h"
#include "trace/json.h"
#include "trace/sheet.h"
#include "util/proc.h"
#include "util/util.h"
#include "whitebox/whitebox.h"
#include "workloads/workloads.h"

static const char about[] =
    "Runs a built-in workload (parscope workloads lists them) or a FILE.loop under MPI,\n"
    "K trials, prints the standard result sheet of the fastest trial and writes the\n"
    "result JSON.\n";

typedef struct run_opts {
    int         ranks, trials, quiet, verify, force, auto_trials, trials_given;
    long        size, iterations;
    double      timeout;
    const char *trace_dir, *output, *launcher, *variant;
} run_opts;

static int variant_opt(const char *v, void *dest, char *err, size_t errlen)
{
    if (strcmp(v, "full") && strcmp(v, "comm") && strcmp(v, "data") && strcmp(v, "sections")) {
        ps_seterr(err, errlen, "'%s' is not one of full, comm, data, sections", v);
        return -1;
    }
    *(const char **)dest = v;
    return 0;
}

/* The first of the launchers' variables that is set, as a number; 0 when
 * none is. */
static int env_first(const char *const *vars)
{
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return atoi(v);
    }
    return 0;
}

static int env_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", NULL};
    return env_first(vars);
}

/* The job's size from the launcher's environment; 0 when it says none. */
static int env_size(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", NULL};
    return env_first(vars);
}

/* Already a rank of an MPI job (mpirun -n 4 parscope run cg): run the
 * built-in workload here; rank 0 writes the trace, prints the sheet, and
 * writes the result JSON afterwards.  One trial. */
static int run_inside(const ps_opt_cmd *c, const char *workload, const run_opts *o, char **extra)
{
    /* the job's size is the rank count: an -n that differs would be silently ignored */
    int size = env_size();
    if (o->ranks > 0 && size > 0 && o->ranks != size)
        return ps_opt_error(c->name, "-n %d: this MPI job has %d ranks, and inside a job they are the rank count "
                                     "(leave -n out, or start the job with %d)", o->ranks, size, o->ranks);
    /* the job is the one trial: -k and --auto-trials would be silently one */
    if ((o->trials_given && o->trials > 1) || o->auto_trials)
        return ps_opt_error(c->name, "%s: inside an MPI job the job is the one trial (start parscope outside the job "
                                     "for trials)", o->auto_trials ? "--auto-trials" : "-k");
    const ps_workload *w = ps_workload_find(workload);
    if (!w || !w->entry)
        return ps_opt_error(c->name, "inside an MPI job only built-in workloads run directly ('%s' is not one); "
                                     "start parscope outside the job to build a .loop file", workload);
    char tracefile[PATH_MAX] = "", err[512], num[2][32], *av[64], *tmpdir = NULL;
    if (o->trace_dir) snprintf(tracefile, sizeof tracefile, "%s/trace.pst", o->trace_dir);
    else if (o->output) {
        if (!(tmpdir = ps_mktempdir("parscope-run", err, sizeof err))) return ps_fail(2, "%s", err);
        snprintf(tracefile, sizeof tracefile, "%s/trace.pst", tmpdir);
    }
    int n = 0;
    av[n++] = (char *)w->name;
    if (o->size > 0) { snprintf(num[0], 32, "%ld", o->size); av[n++] = "-s"; av[n++] = num[0]; }
    if (o->iterations > 0) { snprintf(num[1], 32, "%ld", o->iterations); av[n++] = "-i"; av[n++] = num[1]; }
    av[n++] = "--workload";
    av[n++] = (char *)w->name;
    if (tracefile[0]) { av[n++] = "--trace"; av[n++] = tracefile; }
    if (o->quiet || ps_output_is_stdout(o->output)) av[n++] = "--quiet"; /* -o -: only the JSON */
    for (int i = 0; extra[i] && n < 62; i++) av[n++] = extra[i];
    av[n] = NULL;
    ps_set_defaults(w->default_size, w->default_iterations);
    int rc = w->entry(n, av);
    ps_trace *t;
    if (rc == 0 && o->output && env_rank() == 0) {
        if (ps_trace_read(tracefile, &t, err, sizeof err)) {
            rc = ps_fail(1, "%s", err);
        } else {
            double sample = ps_trace_time(t);
            json_t *doc = ps_result_run("run", w->name, ps_machine_meta_for(t), t->nranks, o->size > 0 ? o->size : w->default_size,
                                        o->iterations > 0 ? o->iterations : w->default_iterations, &sample, 1, t,
                                        o->trace_dir ? tracefile : NULL);
            if (ps_result_write(o->output, doc, err, sizeof err)) rc = ps_fail(1, "%s", err);
            json_decref(doc);
            ps_trace_free(t);
        }
    }
    if (tmpdir) ps_rmtree(tmpdir);
    free(tmpdir);
    return rc;
}

/* Page faults inside the fastest trial's timed interval (memory first
 * touched while timed), priced on this host; said above 2% of the trial. */
#define PS_RUN_FAULT_SHARE 0.02
#define PS_RUN_FAULT_MIN 32   /* ... and at least this many (a stray few are the system's) */
typedef struct timed_faults {
    int    rank;       /* -1: no rank counted any (or none could be counted) */
    long   count;
    double cost, share;
} timed_faults;

static timed_faults faults_of(const ps_run_result *r)
{
    timed_faults f = {.rank = -1, .cost = NAN, .share = NAN};
    const ps_trace *t = r->best_trace;
    if (!t || r->best < 0) return f;
    for (int k = 0; k < t->nranks; k++)
        if (t->rank[k].proc.timed_minflt > f.count) {
            f.count = (long)t->rank[k].proc.timed_minflt;
            f.rank = k;
        }
    if (f.count < PS_RUN_FAULT_MIN) return f;   /* a stray few: not priced */
    f.cost = ps_wb_fault_cost(PS_WB_FAULT_PAGES, PS_WB_FAULT_REPEATS);
    double time = r->trial[r->best].time;
    if (isfinite(f.cost) && time > 0) f.share = (double)f.count * f.cost / time;
    return f;
}

static int faults_significant(const timed_faults *f)
{
    return f->count >= PS_RUN_FAULT_MIN && isfinite(f->share) && f->share > PS_RUN_FAULT_SHARE;
}

static void print_faults(const timed_faults *f, FILE *out)
{
    if (!faults_significant(f)) return;
    char c[32], d[32];
    ps_fmt_time(c, sizeof c, (double)f->count * f->cost);
    ps_fmt_time(d, sizeof d, f->cost);
    fprintf(out,
            "WARNING: rank %d took %ld page faults inside the timed interval, about %s at %s a fault here (%.0f%% of "
            "the fastest trial): memory first touched while timed (a buffer allocated after the set-up, or a "
            "library's scratch mapped on each call); allocate and touch it in the set-up\n",
            f->rank, f->count, c, d, fmin(100, 100 * f->share));
}

static json_t *faults_json(const timed_faults *f)
{
    return json_pack("{s:o, s:I, s:o, s:o, s:b}", "rank", f->rank >= 0 ? json_integer(f->rank) : json_null(),
                     "count", (json_int_t)f->count, "cost_per_fault_s", ps_json_real_or_null(f->cost), "share",
                     ps_json_real_or_null(f->share), "significant", faults_significant(f));
}

/* The sheet of the fastest trial, and the spread of the trials. */
static void print_run(const ps_run_result *r, const double *samples, const timed_faults *f, FILE *out)
{
    ps_sheet s;
    if (ps_sheet_compute(r->best_trace, &s) == 0) {
        ps_sheet_print(&s, r->best_trace, r->workload, r->size, r->iterations, out);
        ps_sheet_free(&s);
    }
    (void)samples;
    ps_run_print_conditions(r, out);
    print_faults(f, out);
}

/* The result JSON: every trial, the failures, the trace relative to the
 * JSON's directory, and whether it is complete: written after each trial
 * too (with "interrupted": true until the last), so that whatever stops
 * parscope, even SIGKILL, the trials that finished are on disk. */
static int write_result(const run_opts *o, const ps_run_result *r, const char *tracefile, int final,
                        const timed_faults *f)
{
    char *rel = NULL, err[1024];
    if (tracefile[0] && strcmp(o->output, "-")) {
        rel = ps_relpath_beside(o->output, tracefile);
    }
    double *samples = ps_xcalloc((size_t)(r->ntrials ? r->ntrials : 1), sizeof *samples);
    for (int k = 0; k < r->ntrials; k++) samples[k] = r->trial[k].time;
    json_t *doc = ps_result_run("run", r->workload, ps_machine_meta_for(r->best_trace), o->ranks, r->size, r->iterations, samples,
                                r->ntrials, r->best_trace, rel ? rel : (tracefile[0] ? tracefile : NULL));
    free(samples);
    free(rel);
    ps_run_annotate(r, doc);
    json_t *fails = json_array();
    for (int k = 0; k < r->ntrials; k++)
        if (r->trial[k].status)
            json_array_append_new(fails, json_pack("{s:i, s:s}", "trial", k + 1, "message", r->trial[k].message));
    json_object_set_new(doc, "failures", fails);
    json_object_set_new(doc, "launch_overhead_s", json_real(r->launch_overhead));
    if (f) json_object_set_new(doc, "timed_faults", faults_json(f));
    json_t *au = ps_run_auto_json(r);
    if (au) json_object_set_new(doc, "trials_auto", au);
    if (o->variant) json_object_set_new(doc, "variant", json_string(o->variant));
    /* what is missing: the trials not run (a document written between
     * trials says so too, in case it is the last one written) */
    json_t *missing = json_array();
    for (int k = r->ntrials; k < r->planned; k++) json_array_append_new(missing, json_pack("{s:i}", "trial", k + 1));
    json_object_set_new(doc, "trials_planned", json_integer(r->planned));
    json_object_set_new(doc, "complete", json_boolean(r->ntrials >= r->planned));
    json_object_set_new(doc, "interrupted", json_boolean(!final || r->interrupted));
    if (!final) json_object_set_new(doc, "note", json_string("written after each trial; the run did not finish"));
    json_object_set_new(doc, "missing", missing);
    int rc = ps_result_write(o->output, doc, err, sizeof err);
    if (rc) fprintf(stderr, "parscope: %s\n", err);
    json_decref(doc);
    return rc ? 1 : 0;
}

/* After each trial: the result and the fastest trial's trace so far on disk. */
typedef struct run_state {
    const run_opts *o;
    char            tracefile[PATH_MAX];
    int             trace_of;   /* the trial whose trace is on disk, -1 none */
    int             write_error;
} run_state;

static void after_trial(const ps_run_spec *spec, const ps_run_result *r, int trial, void *ctx)
{
    (void)spec;
    (void)trial;
    run_state *st = ctx;
    char err[1024];
    if (st->o->trace_dir && r->best_trace && r->best != st->trace_of) {
        snprintf(st->tracefile, sizeof st->tracefile, "%s/trace.pst", st->o->trace_dir);
        if (ps_trace_write(r->best_trace, st->tracefile, err, sizeof err)) {
            fprintf(stderr, "parscope: %s\n", err);
            st->tracefile[0] = '\0';
            st->write_error = 1;
        } else {
            st->trace_of = r->best;
        }
    }
    /* a FIFO or a device takes the one document at the end */
    if (st->o->output && ps_output_replaceable(st->o->output) &&
        write_result(st->o, r, st->tracefile, r->ntrials >= r->planned, NULL))
        st->write_error = 1;
}

/* Outside an MPI job: the trials through the launcher. */
static int run_outside(const char *workload, const run_opts *o, char **extra)
{
    ps_run_spec spec = {.workload = workload, .ranks = o->ranks, .size = o->size, .iterations = o->iterations,
                        .trials = o->trials, .variant = o->variant, .extra_args = extra,
                        .check_args = 1, .trials_max = o->auto_trials ? PS_RUN_AUTO_MAX_TRIALS : 0};
    spec.launch = (ps_launch_opts){.launcher = o->launcher, .timeout = o->timeout, .quiet = !o->verify};
    ps_interrupt_install();
    ps_run_result r;
    char err[1024];
    run_state st = {.o = o, .trace_of = -1};
    int rc = ps_run_workload(&spec, &r, after_trial, &st, err, sizeof err);
    if (ps_interrupted() && r.ntrials == 0) {
        ps_run_result_free(&r);
        fprintf(stderr, "parscope: interrupted (%s) before a trial finished: nothing measured, nothing written\n",
                ps_interrupt_name());
        return ps_interrupt_status();
    }
    if (rc == 2) {
        ps_run_result_free(&r);
        return ps_fail(2, "%s", err);
    }
    for (int k = 0; k < r.ntrials; k++)
        if (r.trial[k].status) fprintf(stderr, "parscope: trial %d of %d: %s\n", k + 1, r.planned, r.trial[k].message);
    if (rc && r.ntrials == 0) fprintf(stderr, "parscope: no trial ran%s%s\n", err[0] ? ": " : "", err);
    double *samples = ps_xcalloc((size_t)(r.ntrials ? r.ntrials : 1), sizeof *samples);
    for (int k = 0; k < r.ntrials; k++) samples[k] = r.trial[k].time;
    timed_faults f = faults_of(&r);
    if (r.best_trace && !o->quiet) print_run(&r, samples, &f, ps_text_out(o->output));
    free(samples);
    if (o->output && write_result(o, &r, st.tracefile, 1, &f)) rc = rc ? rc : 1;
    if (st.write_error) rc = rc ? rc : 1;
    if (!r.best_trace && rc == 0) rc = 1;
    if (ps_interrupted()) {
        fprintf(stderr, "parscope: interrupted (%s): %d of %d trials finished%s%s; %d missing%s\n", ps_interrupt_name(),
                r.ntrials, r.planned, o->output ? " and are in " : "", o->output ? o->output : "",
                r.planned - r.ntrials, o->output ? " (listed in its \"missing\")" : "");
        rc = ps_interrupt_status();
    }
    ps_run_result_free(&r);
    return rc;
}

int ps_cmd_run(int argc, char **argv)
{
    run_opts o = {.trials = 0, .size = -1, .iterations = -1, .timeout = 300};
    const ps_opt opts[] = {
        PS_OPT_RANKS(&o.ranks, "processes (required)"),
        PS_OPT_SIZE(&o.size, "problem size (default: the workload's)"),
        PS_OPT_ITERATIONS(&o.iterations, "iterations (default: the workload's)"),
        PS_OPT_TRIALS(&o.trials, "trials (default 1; 3 with --auto-trials); the fastest is analysed, all are kept"),
        PS_OPT_BOOL(0, "auto-trials", &o.auto_trials, "after -k trials, one more at a time until the best two agree\n"
                                                      "within 5% (at most 10 in all)"),
        PS_OPT_STR(0, "trace", "DIR", &o.trace_dir, "keep the fastest trial's trace as DIR/trace.pst"),
        PS_OPT_OUTPUT(&o.output, "FILE", "result JSON (default: none; '-': standard output, the sheet\n"
                                         "then goes to standard error)"),
        PS_OPT_TIMEOUT(&o.timeout, "stop a trial that runs longer (default 300)"),
        PS_OPT_LAUNCHER(&o.launcher, "launcher template (or PARSCOPE_LAUNCHER): shell-like words, {ranks},\n"
                                     "{hostfile}; e.g. 'srun --ntasks={ranks} --mpi=pmix' (docs/LAUNCHER.md)"),
        PS_OPT_FN(0, "variant", "V", variant_opt, &o.variant, "full | comm | data | sections (LOOP workloads)"),
        PS_OPT_BOOL(0, "verify", &o.verify, "check the result against a serial computation (mmm, cg, red_black, psrs, fft)"),
        PS_OPT_QUIET(&o.quiet, "do not print the sheet"),
        PS_OPT_FORCE(&o.force, "replace an existing -o file or --trace directory's trace"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope run", .usage = "WORKLOAD -n RANKS [options] [-- PROGRAM-ARGS]",
                            .about = about, .opts = opts, .min_args = 1, .max_args = -1, .missing = "no workload given",
                            .notes = "The result JSON is written after every trial, so a run stopped in any way keeps\n"
                                     "the trials that finished (\"interrupted\", \"missing\").  SIGINT or SIGTERM stops\n"
                                     "the running trial at once; what finished is written.\n"
                                     "Exit status: 0 ok, 1 a trial failed (the others are still reported), 2 bad usage\n"
                                     "or input, 130 / 143 interrupted by SIGINT / SIGTERM.\n"};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    o.trials_given = o.trials > 0;
    if (!o.trials) o.trials = o.auto_trials ? 3 : 1;
    if (o.auto_trials && o.trials >= PS_RUN_AUTO_MAX_TRIALS && !ps_inside_mpi())
        fprintf(stderr, "parscope run: --auto-trials adds none to -k %d (its limit is %d trials in all): %d trials\n",
                o.trials, PS_RUN_AUTO_MAX_TRIALS, o.trials);
    /* inside an MPI job the job's size is the rank count */
    if (o.ranks <= 0 && !ps_inside_mpi()) return ps_opt_error(cmd.name, "-n RANKS is required");
    if (ps_check_launcher(&cmd, o.launcher)) return 2;
    char prev[PATH_MAX];
    /* never overwrite earlier results silently; every output checked (and
     * the trace directory locked) before anything is built or launched */
    if (o.trace_dir && !o.force && (snprintf(prev, sizeof prev, "%s/trace.pst", o.trace_dir), ps_file_exists(prev)))
        return ps_opt_error(cmd.name, "--trace %s: holds a trace already (use --force to replace it)", o.trace_dir);
    ps_output_spec outs[] = {{"-o", o.output, PS_OUTPUT_FILE}, {"--trace", o.trace_dir, PS_OUTPUT_DIR}};
    const char *inputs[] = {argv[1]};
    if (ps_check_outputs(&cmd, outs, 2, inputs, 1, o.force)) return 2;
    if (o.trace_dir && (snprintf(prev, sizeof prev, "%s/trace.pst", o.trace_dir), ps_file_exists(prev)))
        ps_export_note_stale(cmd.name, prev);
    /* the rest are the program's own arguments, and --verify */
    char **extra = ps_xcalloc((size_t)n + 1, sizeof *extra);
    for (int i = 2; i <= n; i++) extra[i - 2] = argv[i];
    if (o.verify) extra[n - 1] = "--verify";
    rc = ps_inside_mpi() ? run_inside(&cmd, argv[1], &o, extra) : run_outside(argv[1], &o, extra);
    free(extra);
    return rc;
}

int ps_cmd_rank(int argc, char **argv)
{
    if (argc < 2) return ps_fail(2, "__rank: no workload given");
    const ps_workload *w = ps_workload_find(argv[1]);
    if (!w || !w->entry) return ps_fail(2, "__rank: workload '%s' is not built into this parscope", argv[1]);
    ps_set_defaults(w->default_size, w->default_iterations);
    /* the workload sees itself as argv[0] */
    return w->entry(argc - 1, argv + 1);
}

int ps_cmd_workloads(int argc, char **argv)
{
    const ps_opt opts[] = {PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope workloads", .usage = "", .opts = opts,
                            .about = "Lists the built-in workloads with their default size and iterations.\n"};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    printf("%-12s %-6s %8s %6s  %s\n", "workload", "alias", "size", "iters", "description");
    for (const ps_workload *w = ps_workloads; w->name; w++)
        printf("%-12s %-6s %8ld %6ld  %s%s\n", w->name, w->alias ? w->alias : "", w->default_size,
               w->default_iterations, w->description, w->entry ? "" : " (not built)");
    return 0;
}
