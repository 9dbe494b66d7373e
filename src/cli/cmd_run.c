/*
 * cmd_run.c - 'parscope run': a workload under MPI, K trials, the result
 * sheet printed and the result JSON written; and '__rank', the same binary
 * acting as one rank of a built-in workload inside the MPI job.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "launch/run.h"
#include "workloads/workloads.h"
#include "report/result.h"
#include "parscope/parscope.h"
#include "trace/sheet.h"
#include "util/util.h"

static const char run_help[] =
    "usage: parscope run WORKLOAD -n RANKS [options] [-- PROGRAM-ARGS]\n"
    "\n"
    "Runs a built-in workload (parscope workloads lists them) or a FILE.loop under MPI,\n"
    "K trials, prints the standard result sheet of the fastest trial and writes the\n"
    "result JSON.\n"
    "\n"
    "  -n, --ranks N        processes (required)\n"
    "  -s, --size N         problem size (default: the workload's)\n"
    "  -i, --iterations N   iterations (default: the workload's)\n"
    "  -k, --trials K       trials (default 1); the fastest is analysed, all are kept\n"
    "      --trace DIR      keep the fastest trial's trace as DIR/trace.pst\n"
    "  -o, --output FILE    result JSON (default: none)\n"
    "      --timeout SEC    stop a trial that runs longer (default 300)\n"
    "      --launcher T     launcher template, e.g. 'srun -n {ranks}' (or PARSCOPE_LAUNCHER)\n"
    "      --variant V      full | comm | data | sections (LOOP workloads)\n"
    "      --verify         check the result against a serial computation (mmm, cg, red_black, psrs)\n"
    "  -q, --quiet          do not print the sheet\n"
    "      --force          replace an existing -o file or --trace directory's trace\n"
    "\n"
    "Exit status: 0 ok, 1 a trial failed (the others are still reported), 2 bad usage.\n";

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
static int run_inside(const char *workload, const ps_common_opts *o, char **extra)
{
    const ps_workload *w = ps_workload_find(workload);
    if (!w || !w->entry)
        return ps_usage_error("run", "inside an MPI job only built-in workloads run directly ('%s' is not one); "
                                     "start parscope outside the job to build a .loop file", workload);
    char tracefile[PATH_MAX] = "";
    char *tmpdir = NULL;
    char err[512];
    if (o->trace_dir) snprintf(tracefile, sizeof tracefile, "%s/trace.pst", o->trace_dir);
    else if (o->output) {
        tmpdir = ps_mktempdir("parscope-run", err, sizeof err);
        if (!tmpdir) return ps_fail(2, "%s", err);
        snprintf(tracefile, sizeof tracefile, "%s/trace.pst", tmpdir);
    }
    char num[2][32];
    char *av[64];
    int n = 0;
    av[n++] = (char *)w->name;
    if (o->size > 0) { snprintf(num[0], 32, "%ld", o->size); av[n++] = "-s"; av[n++] = num[0]; }
    if (o->iterations > 0) { snprintf(num[1], 32, "%ld", o->iterations); av[n++] = "-i"; av[n++] = num[1]; }
    av[n++] = "--workload";
    av[n++] = (char *)w->name;
    if (tracefile[0]) { av[n++] = "--trace"; av[n++] = tracefile; }
    if (o->quiet) av[n++] = "--quiet";
    for (int i = 0; extra[i] && n < 62; i++) av[n++] = extra[i];
    av[n] = NULL;
    ps_set_defaults(w->default_size, w->default_iterations);
    int rc = w->entry(n, av);
    if (rc == 0 && o->output && env_rank() == 0) {
        ps_trace *t;
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
    if (tmpdir) {
        ps_rmtree(tmpdir);
        free(tmpdir);
    }
    return rc;
}

int ps_cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"ranks", required_argument, 0, 'n'},   {"size", required_argument, 0, 's'},
        {"iterations", required_argument, 0, 'i'}, {"trials", required_argument, 0, 'k'},
        {"trace", required_argument, 0, 'T'},   {"output", required_argument, 0, 'o'},
        {"timeout", required_argument, 0, 't'}, {"launcher", required_argument, 0, 'L'},
        {"variant", required_argument, 0, 'V'}, {"verify", no_argument, 0, 'v'},
        {"quiet", no_argument, 0, 'q'},         {"help", no_argument, 0, 'h'},
        {"force", no_argument, 0, 'F'},
        {0, 0, 0, 0}};
    ps_common_opts o;
    ps_common_defaults(&o);
    o.timeout = 300;
    const char *variant = NULL;
    int verify = 0, force = 0;
    long v;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "n:s:i:k:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (ps_parse_long(optarg, 1, 1 << 20, &v)) return ps_usage_error("run", "-n: '%s' is not a rank count >= 1", optarg);
            o.ranks = (int)v;
            break;
        case 's':
            if (ps_parse_long(optarg, 1, LONG_MAX, &o.size)) return ps_usage_error("run", "-s: '%s' is not a size >= 1", optarg);
            break;
        case 'i':
            if (ps_parse_long(optarg, 1, LONG_MAX, &o.iterations))
                return ps_usage_error("run", "-i: '%s' is not an iteration count >= 1", optarg);
            break;
        case 'k':
            if (ps_parse_long(optarg, 1, 100000, &v)) return ps_usage_error("run", "--trials: '%s' is not a count >= 1", optarg);
            o.trials = (int)v;
            break;
        case 'T': o.trace_dir = optarg; break;
        case 'o': o.output = optarg; break;
        case 't':
            if (ps_parse_double(optarg, &o.timeout) || o.timeout <= 0)
                return ps_usage_error("run", "--timeout: '%s' is not a number of seconds > 0", optarg);
            break;
        case 'L': o.launcher = optarg; break;
        case 'V':
            if (strcmp(optarg, "full") && strcmp(optarg, "comm") && strcmp(optarg, "data") && strcmp(optarg, "sections"))
                return ps_usage_error("run", "--variant: '%s' is not one of full, comm, data, sections", optarg);
            variant = optarg;
            break;
        case 'v': verify = 1; break;
        case 'F': force = 1; break;
        case 'q': o.quiet = 1; break;
        case 'h': fputs(run_help, stdout); return 0;
        default:
            fputs(run_help, stderr);
            return ps_usage_error("run", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) {
        fputs(run_help, stderr);
        return ps_usage_error("run", "no workload given");
    }
    const char *workload = argv[optind++];
    /* inside an MPI job the job's size is the rank count */
    if (o.ranks <= 0 && !ps_inside_mpi()) return ps_usage_error("run", "-n RANKS is required");
    /* the rest (after --) are the program's own arguments, plus --verify */
    int nextra = argc - optind;
    char **extra = ps_xcalloc((size_t)nextra + 2, sizeof *extra);
    int ne = 0;
    for (int i = optind; i < argc; i++) extra[ne++] = argv[i];
    if (verify) extra[ne++] = "--verify";
    extra[ne] = NULL;

    char err[1024];
    /* never overwrite earlier results silently */
    if (!force) {
        char prev[PATH_MAX];
        if (o.trace_dir) {
            snprintf(prev, sizeof prev, "%s/trace.pst", o.trace_dir);
            if (ps_file_exists(prev)) {
                free(extra);
                return ps_usage_error("run", "--trace %s: holds a trace already (use --force to replace it)", o.trace_dir);
            }
        }
        if (ps_check_new_output("run", "-o", o.output, 0)) {
            free(extra);
            return 2;
        }
    }
    if (o.trace_dir && ps_mkdirs(o.trace_dir, err, sizeof err)) {
        free(extra);
        return ps_fail(2, "%s", err);
    }
    if (ps_inside_mpi()) {
        int rc = run_inside(workload, &o, extra);
        free(extra);
        return rc;
    }
    ps_run_spec spec = {0};
    spec.workload = workload;
    spec.ranks = o.ranks;
    spec.size = o.size;
    spec.iterations = o.iterations;
    spec.trials = o.trials;
    spec.variant = variant;
    spec.extra_args = extra;
    spec.launch.launcher = o.launcher;
    spec.launch.timeout = o.timeout;
    spec.launch.quiet = !verify;
    ps_interrupt_install();
    ps_run_result r;
    int rc = ps_run_workload(&spec, &r, NULL, NULL, err, sizeof err);
    free(extra);
    if (rc == 2) {
        ps_run_result_free(&r);
        return ps_fail(2, "%s", err);
    }
    for (int k = 0; k < r.ntrials; k++)
        if (r.trial[k].status) fprintf(stderr, "parscope: trial %d of %d: %s\n", k + 1, r.ntrials, r.trial[k].message);

    char tracefile[PATH_MAX] = "";
    if (o.trace_dir && r.best_trace) {
        snprintf(tracefile, sizeof tracefile, "%s/trace.pst", o.trace_dir);
        if (ps_trace_write(r.best_trace, tracefile, err, sizeof err)) {
            fprintf(stderr, "parscope: %s\n", err);
            rc = rc ? rc : 1;
            tracefile[0] = '\0';
        }
    }
    double *samples = ps_xcalloc((size_t)(r.ntrials ? r.ntrials : 1), sizeof *samples);
    for (int k = 0; k < r.ntrials; k++) samples[k] = r.trial[k].time;
    if (r.best_trace && !o.quiet) {
        ps_sheet s;
        if (ps_sheet_compute(r.best_trace, &s) == 0) {
            ps_sheet_print(&s, r.workload, r.size, r.iterations, stdout);
            ps_sheet_free(&s);
        }
        ps_run_print_conditions(&r, stdout);
    }
    if (o.output) {
        /* the trace path is stored relative to the JSON's directory */
        char *rel = NULL;
        if (tracefile[0]) {
            char *jdir = ps_xstrdup(o.output);
            char *slash = strrchr(jdir, '/');
            if (slash) *slash = '\0';
            rel = ps_relpath(slash ? (jdir[0] ? jdir : "/") : ".", tracefile);
            free(jdir);
        }
        json_t *doc = ps_result_run("run", r.workload, ps_machine_meta(), o.ranks, r.size, r.iterations, samples, r.ntrials,
                                    r.best_trace, rel);
        free(rel);
        ps_run_annotate(&r, doc);
        json_t *fails = json_array();
        for (int k = 0; k < r.ntrials; k++)
            if (r.trial[k].status) {
                json_t *f = json_object();
                json_object_set_new(f, "trial", json_integer(k + 1));
                json_object_set_new(f, "message", json_string(r.trial[k].message));
                json_array_append_new(fails, f);
            }
        json_object_set_new(doc, "failures", fails);
        json_object_set_new(doc, "launch_overhead_s", json_real(r.launch_overhead));
        if (variant) json_object_set_new(doc, "variant", json_string(variant));
        if (ps_result_write(o.output, doc, err, sizeof err)) {
            fprintf(stderr, "parscope: %s\n", err);
            rc = rc ? rc : 1;
        }
        json_decref(doc);
    }
    if (!r.best_trace && rc == 0) rc = 1;
    free(samples);
    ps_run_result_free(&r);
    if (ps_interrupted()) {
        fprintf(stderr, "parscope: interrupted; the trials finished so far are reported\n");
        return rc ? rc : 1;
    }
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
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: parscope workloads\n\nLists the built-in workloads with their default size and iterations.\n");
        return 0;
    }
    if (argc > 1) return ps_usage_error("workloads", "unexpected argument '%s'", argv[1]);
    printf("%-12s %-6s %8s %6s  %s\n", "workload", "alias", "size", "iters", "description");
    for (const ps_workload *w = ps_workloads; w->name; w++)
        printf("%-12s %-6s %8ld %6ld  %s%s\n", w->name, w->alias ? w->alias : "", w->default_size,
               w->default_iterations, w->description, w->entry ? "" : " (not built)");
    return 0;
}
