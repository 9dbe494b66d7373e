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
#include "report/result.h"
#include "trace/sheet.h"
#include "util/proc.h"
#include "util/util.h"
#include "workloads/workloads.h"

static const char about[] =
    "Runs a built-in workload (parscope workloads lists them) or a FILE.loop under MPI,\n"
    "K trials, prints the standard result sheet of the fastest trial and writes the\n"
    "result JSON.\n";

typedef struct run_opts {
    int         ranks, trials, quiet, verify, force;
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

static int env_rank(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", NULL};
    for (int i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return atoi(v);
    }
    return 0;
}

/* Already a rank of an MPI job (mpirun -n 4 parscope run cg): run the
 * built-in workload here; rank 0 writes the trace, prints the sheet, and
 * writes the result JSON afterwards.  One trial. */
static int run_inside(const ps_opt_cmd *c, const char *workload, const run_opts *o, char **extra)
{
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
    if (o->quiet || !strcmp(o->output ? o->output : "", "-")) av[n++] = "--quiet"; /* -o -: only the JSON */
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
            json_t *doc = ps_result_run("run", w->name, ps_machine_meta(), t->nranks, o->size > 0 ? o->size : w->default_size,
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

/* The sheet of the fastest trial, and the spread of the trials. */
static void print_run(const ps_run_result *r, const double *samples, FILE *out)
{
    ps_sheet s;
    if (ps_sheet_compute(r->best_trace, &s) == 0) {
        ps_sheet_print(&s, r->best_trace, r->workload, r->size, r->iterations, out);
        ps_sheet_free(&s);
    }
    (void)samples;
    ps_run_print_conditions(r, out);
}

/* The result JSON: every trial, the failures, the trace relative to the JSON's directory. */
static int write_result(const run_opts *o, const ps_run_result *r, const double *samples, const char *tracefile)
{
    char *rel = NULL, err[1024];
    if (tracefile[0] && strcmp(o->output, "-")) {
        char *jdir = ps_xstrdup(o->output), *slash = strrchr(jdir, '/');
        if (slash) *slash = '\0';
        rel = ps_relpath(slash ? (jdir[0] ? jdir : "/") : ".", tracefile);
        free(jdir);
    }
    json_t *doc = ps_result_run("run", r->workload, ps_machine_meta(), o->ranks, r->size, r->iterations, samples,
                                r->ntrials, r->best_trace, rel ? rel : (tracefile[0] ? tracefile : NULL));
    free(rel);
    ps_run_annotate(r, doc);
    json_t *fails = json_array();
    for (int k = 0; k < r->ntrials; k++)
        if (r->trial[k].status)
            json_array_append_new(fails, json_pack("{s:i, s:s}", "trial", k + 1, "message", r->trial[k].message));
    json_object_set_new(doc, "failures", fails);
    json_object_set_new(doc, "launch_overhead_s", json_real(r->launch_overhead));
    if (o->variant) json_object_set_new(doc, "variant", json_string(o->variant));
    int rc = ps_result_write(o->output, doc, err, sizeof err);
    if (rc) fprintf(stderr, "parscope: %s\n", err);
    json_decref(doc);
    return rc ? 1 : 0;
}

/* Outside an MPI job: the trials through the launcher. */
static int run_outside(const char *workload, const run_opts *o, char **extra)
{
    ps_run_spec spec = {.workload = workload, .ranks = o->ranks, .size = o->size, .iterations = o->iterations,
                        .trials = o->trials, .variant = o->variant, .extra_args = extra};
    spec.launch = (ps_launch_opts){.launcher = o->launcher, .timeout = o->timeout, .quiet = !o->verify};
    ps_interrupt_install();
    ps_run_result r;
    char err[1024], tracefile[PATH_MAX] = "";
    int rc = ps_run_workload(&spec, &r, NULL, NULL, err, sizeof err);
    if (rc == 2) {
        ps_run_result_free(&r);
        return ps_fail(2, "%s", err);
    }
    for (int k = 0; k < r.ntrials; k++)
        if (r.trial[k].status) fprintf(stderr, "parscope: trial %d of %d: %s\n", k + 1, r.ntrials, r.trial[k].message);
    if (o->trace_dir && r.best_trace) {
        snprintf(tracefile, sizeof tracefile, "%s/trace.pst", o->trace_dir);
        if (ps_trace_write(r.best_trace, tracefile, err, sizeof err)) {
            fprintf(stderr, "parscope: %s\n", err);
            rc = rc ? rc : 1;
            tracefile[0] = '\0';
        }
    }
    double *samples = ps_xcalloc((size_t)(r.ntrials ? r.ntrials : 1), sizeof *samples);
    for (int k = 0; k < r.ntrials; k++) samples[k] = r.trial[k].time;
    if (r.best_trace && !o->quiet) print_run(&r, samples, ps_text_out(o->output));
    if (o->output && write_result(o, &r, samples, tracefile)) rc = rc ? rc : 1;
    if (!r.best_trace && rc == 0) rc = 1;
    free(samples);
    ps_run_result_free(&r);
    if (ps_interrupted()) {
        fprintf(stderr, "parscope: interrupted; the trials finished so far are reported\n");
        return rc ? rc : 1;
    }
    return rc;
}

int ps_cmd_run(int argc, char **argv)
{
    run_opts o = {.trials = 1, .size = -1, .iterations = -1, .timeout = 300};
    const ps_opt opts[] = {
        PS_OPT_RANKS(&o.ranks, "processes (required)"),
        PS_OPT_SIZE(&o.size, "problem size (default: the workload's)"),
        PS_OPT_ITERATIONS(&o.iterations, "iterations (default: the workload's)"),
        PS_OPT_TRIALS(&o.trials, "trials (default 1); the fastest is analysed, all are kept"),
        PS_OPT_STR(0, "trace", "DIR", &o.trace_dir, "keep the fastest trial's trace as DIR/trace.pst"),
        PS_OPT_OUTPUT(&o.output, "FILE", "result JSON (default: none; '-': standard output, the sheet\n"
                                         "then goes to standard error)"),
        PS_OPT_TIMEOUT(&o.timeout, "stop a trial that runs longer (default 300)"),
        PS_OPT_LAUNCHER(&o.launcher, "launcher template, e.g. 'srun -n {ranks}' (or PARSCOPE_LAUNCHER)"),
        PS_OPT_FN(0, "variant", "V", variant_opt, &o.variant, "full | comm | data | sections (LOOP workloads)"),
        PS_OPT_BOOL(0, "verify", &o.verify, "check the result against a serial computation (mmm, cg, red_black, psrs)"),
        PS_OPT_QUIET(&o.quiet, "do not print the sheet"),
        PS_OPT_FORCE(&o.force, "replace an existing -o file or --trace directory's trace"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope run", .usage = "WORKLOAD -n RANKS [options] [-- PROGRAM-ARGS]",
                            .about = about, .opts = opts, .min_args = 1, .max_args = -1, .missing = "no workload given",
                            .notes = "Exit status: 0 ok, 1 a trial failed (the others are still reported), 2 bad usage.\n"};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    /* inside an MPI job the job's size is the rank count */
    if (o.ranks <= 0 && !ps_inside_mpi()) return ps_opt_error(cmd.name, "-n RANKS is required");
    char prev[PATH_MAX], err[1024];
    /* never overwrite earlier results silently */
    if (o.trace_dir && !o.force && (snprintf(prev, sizeof prev, "%s/trace.pst", o.trace_dir), ps_file_exists(prev)))
        return ps_opt_error(cmd.name, "--trace %s: holds a trace already (use --force to replace it)", o.trace_dir);
    if (ps_check_new_output(&cmd, "-o", o.output, o.force)) return 2;
    if (o.trace_dir && ps_mkdirs(o.trace_dir, err, sizeof err)) return ps_fail(2, "%s", err);
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
