/*
 * cmd_predict.c - 'parscope predict': a workload's run time on a machine
 * model, for a list of processor counts (src/predict/, docs/PREDICT.md);
 * with --compare also measured under MPI and compared.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "predict/compare.h"
#include "launch/run.h"
#include "predict/predict.h"
#include "report/export.h"
#include "report/result.h"
#include "sim/machine.h"
#include "util/proc.h"
#include "util/util.h"

static const char about[] =
    "Predicts the execution time of WORKLOAD on the machine model for every processor\n"
    "count in LIST: the program is run once per rank without MPI, its messages and\n"
    "computation recorded as instruction streams (SEND, RECEIVE, BSEND, BRECEIVE, WORK,\n"
    "WAIT), and the streams are simulated on the model.  WORKLOAD is a built-in name, a\n"
    "FILE.loop, a program linked with the runtime, or recorded streams (a .pss file, a\n"
    "directory holding streams.pss, or a text stream file .txt).\n";
static const char notes[] =
    "Exit status: 0 ok, 1 the program failed or deadlocked (the report names the ranks and\n"
    "what they wait on), 2 bad usage or input (also a size or flop count the program computes\n"
    "out of range), 130 / 143 interrupted by SIGINT / SIGTERM (the counts predicted are kept).\n";

typedef struct predict_args {
    ps_predict_opts o;
    int             ranks[PS_PREDICT_MAX_POINTS];
    const char     *list, *output, *measured;
    int             force, compare;
    char            machine[4096];   /* -m resolved: a path, or a model found by name */
} predict_args;

static int counts_opt(const char *v, void *dest, char *err, size_t errlen)
{
    predict_args *a = dest;
    char why[256];
    a->o.nranks = ps_parse_rank_list(v, a->ranks, PS_PREDICT_MAX_POINTS, PS_MAX_RANKS, why, sizeof why);
    /* a count given twice would be predicted, measured and printed twice */
    for (int i = 1; i < a->o.nranks; i++)
        for (int j = 0; j < i && a->o.nranks > 0; j++)
            if (a->ranks[j] == a->ranks[i]) {
                snprintf(why, sizeof why, "%d is in it twice", a->ranks[i]);
                a->o.nranks = -1;
            }
    if (a->o.nranks > 0) return 0;
    a->o.nranks = 0;
    ps_seterr(err, errlen, "'%s' is not a list of processor counts: %s (4 | 1,2,4 | 1-16 | 1,2,4,...,64)", v, why);
    return -1;
}

/* Options that do not go together; 0 or 2. */
static int check(const ps_opt_cmd *c, predict_args *a)
{
    int streams = ps_predict_is_streams(a->o.workload);
    if (!a->o.machine_path) return ps_opt_error(c->name, "-m MACHINE.ini is required (parscope probe writes one)");
    /* only the measured and calibration runs are launched */
    if ((a->compare || a->o.calibrate) && ps_check_launcher(c, a->o.launcher)) return 2;
    char err[1200];
    if (ps_machine_find(a->o.machine_path, a->machine, sizeof a->machine, err, sizeof err))
        return ps_opt_error(c->name, "-m %s", err);
    a->o.machine_path = a->machine;
    ps_output_spec outs[] = {{"-o", a->output, PS_OUTPUT_FILE},         {"--measured", a->measured, PS_OUTPUT_FILE},
                             {"--trace", a->o.trace_dir, PS_OUTPUT_DIR},   {"--streams", a->o.streams_dir, PS_OUTPUT_DIR},
                             {"--export-simgrid", a->o.simgrid_dir, PS_OUTPUT_DIR},
                             {"--export-goal", a->o.goal_path, PS_OUTPUT_FILE}};
    const char *inputs[] = {a->o.workload, a->o.machine_path};
    if (ps_check_outputs(c, outs, 6, inputs, 2, a->force)) return 2;
    if (!a->o.nranks && !streams) return ps_opt_error(c->name, "-n LIST is required");
    /* a trace already there is replaced only with --force (as run's), each count's where it goes;
     * replaced, its exports beside it are said to describe the earlier run */
    for (int k = 0; a->o.trace_dir && k < (a->o.nranks > 0 ? a->o.nranks : 1); k++) {
        char prev[PATH_MAX + 32];
        if (a->o.nranks > 1) snprintf(prev, sizeof prev, "%s/p%d/trace.pst", a->o.trace_dir, a->o.ranks[k]);
        else snprintf(prev, sizeof prev, "%s/trace.pst", a->o.trace_dir);
        if (!ps_file_exists(prev)) continue;
        if (!a->force)
            return ps_opt_error(c->name, "--trace %s: holds a trace already (%s; use --force to replace it)",
                                a->o.trace_dir, prev);
        ps_export_note_stale(c->name, prev);
    }
    if (!a->o.nranks) a->o.nranks = 1; /* ranks[0] = 0: whatever the streams hold */
    if (streams && a->o.nranks > 1) return ps_opt_error(c->name, "-n: recorded streams have one processor count");
    if (a->o.goal_path && a->o.nranks > 1) return ps_opt_error(c->name, "--export-goal: give a single processor count");
    if (a->compare && streams) return ps_opt_error(c->name, "--compare needs a workload to run, not streams");
    if (a->o.calibrate && streams) return ps_opt_error(c->name, "--calibrate needs a workload to run, not streams");
    if (a->o.calibrate_size > 0 && !a->o.calibrate) return ps_opt_error(c->name, "--calibrate-size needs --calibrate");
    if (a->measured && !a->compare) return ps_opt_error(c->name, "--measured needs --compare");
    if (a->o.auto_trials && !a->compare && !a->o.calibrate)
        return ps_opt_error(c->name, "--auto-trials needs --compare or --calibrate (the runs it repeats)");
    if (a->o.auto_trials && a->o.trials >= PS_RUN_AUTO_MAX_TRIALS)
        fprintf(stderr, "parscope predict: --auto-trials adds none to -k %d (its limit is %d trials in all): %d trials\n",
                a->o.trials, PS_RUN_AUTO_MAX_TRIALS, a->o.trials);
    return 0;
}

/* A trace key (written as the path given, relative to where parscope was
 * started) made relative to the directory of the JSON that holds it, as
 * run's (DESIGN.md): the document and its points. */
static void traces_relative_to(json_t *doc, const char *output)
{
    if (!strcmp(output, "-")) return;
    json_t *pts = json_object_get(doc, "points");
    size_t np = json_is_array(pts) ? json_array_size(pts) : 0;
    for (size_t i = 0; i <= np; i++) {
        json_t *d = i < np ? json_array_get(pts, i) : doc;
        const char *t = json_string_value(json_object_get(d, "trace"));
        if (!t || t[0] == '/') continue;
        char *rel = ps_relpath_beside(output, t);
        json_object_set_new(d, "trace", json_string(rel));
        free(rel);
    }
}

/* --compare: the measured runs, and the relative errors; the measured
 * runs go into the -o document too ("measured"), so its report draws both
 * curves. */
static int compare(const predict_args *a, json_t *predicted, FILE *out, int *measured_all, int *written)
{
    json_t *meas = NULL;
    char err[1024];
    int rc = ps_predict_measure(&a->o, &meas, err, sizeof err);
    /* the measured runs all ran: an interrupt after this one cut only the calibration's repeat */
    *measured_all = meas && !ps_interrupted() && a->o.calibrate;
    if (rc == 2) {
        fprintf(stderr, "parscope predict --compare: %s\n", err);
        return 2;
    }
    if (rc) fprintf(stderr, "parscope predict --compare: some measured runs failed\n");
    if (meas && a->o.calibrate && !ps_interrupted() &&
        ps_predict_recheck_calibration(&a->o, predicted, meas, err, sizeof err))
        fprintf(stderr, "parscope predict --compare: %s\n", err);
    if (a->measured && ps_result_write(a->measured, meas, err, sizeof err)) {
        fprintf(stderr, "parscope: %s\n", err);
        rc = rc ? rc : 2;
    }
    /* (with -k 10 or more --auto-trials adds none) */
    if (a->o.auto_trials && a->o.trials < PS_RUN_AUTO_MAX_TRIALS)
        fprintf(out, "\nPredicted against measured (%d to %d trials per count until the best two agree within %.0f%%, "
                     "fastest):\n",
                a->o.trials, PS_RUN_AUTO_MAX_TRIALS, 100 * PS_RUN_SPREAD_TARGET);
    else
        fprintf(out, "\nPredicted against measured (%d trials per count, fastest):\n", a->o.trials);
    json_t *cmp = ps_compare_results(meas, predicted, out, err, sizeof err);
    if (!cmp) {
        fprintf(stderr, "parscope predict --compare: %s\n", err);
        rc = rc ? rc : 1;
    }
    if (a->output && meas) {
        json_object_set(predicted, "measured", meas);
        if (cmp) json_object_set(predicted, "comparison", json_object_get(cmp, "rows"));
        if (ps_result_write(a->output, predicted, err, sizeof err)) {
            fprintf(stderr, "parscope: %s\n", err);
            rc = rc ? rc : 2;
        }
        *written = 1;
    }
    json_decref(cmp);
    json_decref(meas);
    return rc;
}

int ps_cmd_predict(int argc, char **argv)
{
    predict_args a = {0};
    ps_predict_defaults(&a.o);
    a.o.ranks = a.ranks;
    ps_sim_opts *so = &a.o.sim;
    const ps_opt opts[] = {
        PS_OPT_STR('m', "machine", "FILE", &a.o.machine_path, "machine model: a file (parscope probe's machine.ini) or an installed\n"
                                                                   "model's name (sp2, t3e, sp, origin, ...)"),
        {'n', "ranks", "LIST", PS_OPT_CALL, &a, 0, 0, NULL, "processor counts, each 1..2^20: 4 | 1,2,4,8 | 1-16 | 1,2,4,...,1024", 0,
         NULL, counts_opt},
        PS_OPT_SIZE(&a.o.size, "problem size (default: the workload's)"),
        PS_OPT_ITERATIONS(&a.o.iterations, "iterations (default: the workload's)"),
        PS_OPT_STR(0, "trace", "DIR", &a.o.trace_dir, "write the predicted trace(s): DIR/trace.pst, or DIR/pP/trace.pst"),
        PS_OPT_OUTPUT(&a.output, "FILE", "result JSON (kind \"predict\"; several counts: {\"points\": [...]};\n"
                                         "'-': standard output, the table then goes to standard error)"),
        PS_OPT_FORCE(&a.force, "replace an existing -o file"),
        PS_OPT_STR(0, "streams", "DIR", &a.o.streams_dir, "keep the recorded streams (DIR/streams.pss or DIR/pP/streams.pss)"),
        {0, "eager", "BYTES", PS_OPT_DOUBLE, &so->eager_bytes, 0, 1e300, "a byte count",
         "messages up to BYTES are buffered: their send does not wait for\n"
         "the receive (default: a probed model's S and S_ack, else 0, the\n"
         "estimator's blocking send)", 0, NULL, NULL},
        {0, "nodes", "N", PS_OPT_INT, &so->nodes, 1, PS_MAX_RANKS, "a count",
         "nodes the ranks are spread over, rank r on node r mod N (default:\n"
         "the model's nodes, else 1; with cores_per_node more ranks than\n"
         "cores slow down; on a star network messages share node links)", 0, NULL, NULL},
        PS_OPT_BOOL(0, "no-warmup", &so->no_warmup, "the runs open their connections inside the timed interval (the\n"
                                                     "program's --no-warmup; --compare's runs get it too): a shaped\n"
                                                     "link's token bucket then starts full, not drained by the warm-up"),
        PS_OPT_BOOL(0, "bus", &so->bus, "override the model's network type: a bus (--nobus: none)"),
        {0, "nobus", NULL, PS_OPT_FLAG, &so->bus, 0, 0, NULL, NULL, PS_OPT_CLEARS, NULL, NULL},
        {0, "work-flop-time", "S", PS_OPT_DOUBLE, &so->work_flop_time, 0, 1e300, "a number of seconds",
         "seconds per flop for \\WORK (default: the model's flop_time)", PS_OPT_ABOVE_MIN, NULL, NULL},
        PS_OPT_STR(0, "export-simgrid", "DIR", &a.o.simgrid_dir, "also write SimGrid time-independent traces + platform"),
        PS_OPT_STR(0, "export-goal", "FILE", &a.o.goal_path, "also write a LogGOPSim GOAL schedule (one count only)"),
        PS_OPT_BOOL(0, "compare", &a.compare, "also run the workload under MPI and print the relative errors"),
        PS_OPT_BOOL(0, "calibrate", &a.o.calibrate, "price each construct's computation from a 1-rank MPI run\n"
                                                    "(instead of the model's flop_time); counts whose ranks share\n"
                                                    "a node from that run made beside copies of itself"),
        {0, "calibrate-size", "N", PS_OPT_LONG, &a.o.calibrate_size, 1, (double)PS_MAX_COUNT, "a size",
         "with --calibrate: the problem size of the 1-rank run (default -s);\n"
         "a kernel whose calls then cross the cache is repriced by r_incache / r_outcache", 0, NULL, NULL},
        PS_OPT_TRIALS(&a.o.trials, "trials per count for --compare, and of each --calibrate run (default 3; the\n"
                                      "fastest counts)"),
        PS_OPT_BOOL(0, "auto-trials", &a.o.auto_trials, "after -k trials, one more at a time until the best two agree\n"
                                                        "within 5% (at most 10 in all), for --compare's runs and each\n"
                                                        "--calibrate run"),
        PS_OPT_STR(0, "measured", "FILE", &a.measured, "with --compare: write the measured results here"),
        PS_OPT_TIMEOUT(&a.o.timeout, "limit for recording one count (default 600)"),
        PS_OPT_LAUNCHER(&a.o.launcher, "launcher template for --compare"),
        PS_OPT_QUIET(&a.o.quiet, "print only the table"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope predict", .usage = "WORKLOAD -m MACHINE.ini -n LIST [options]",
                            .about = about, .notes = notes, .opts = opts, .min_args = 1, .max_args = 1,
                            .missing = "no workload given"};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    a.o.workload = argv[1];
    if ((rc = check(&cmd, &a))) return rc;
    a.o.activities = a.compare;
    /* the result sheet goes into the document, which is kept only with -o or a comparison: the table
     * alone needs none (the simulator counts the messages), and at 1024 ranks building it is a quarter
     * of the command's time (docs/BENCHMARKS.md) */
    a.o.sim.build_sheet = a.output || a.compare;
    ps_interrupt_install();
    json_t *doc = NULL;
    char err[1024];
    FILE *out = ps_text_out(a.output);
    rc = ps_predict_run(&a.o, &doc, out, err, sizeof err);
    if (rc && !ps_interrupted()) fprintf(stderr, "parscope predict: %s\n", err);
    if (doc && a.output) traces_relative_to(doc, a.output);
    if (doc && ps_interrupted()) json_object_set_new(doc, "interrupted", json_true());
    /* a file is written now, so that the prediction is kept whatever becomes of
     * the measured runs, and replaced with them; standard output takes one
     * document: after the comparison when there is one */
    /* (counts left out, the others predicted: those are compared) */
    int compares = (rc == 0 || (doc && json_object_get(doc, "not_predicted"))) && a.compare && !ps_interrupted();
    int once = a.output && !strcmp(a.output, "-") && compares;
    if (doc && a.output && !once && ps_result_write(a.output, doc, err, sizeof err)) {
        fprintf(stderr, "parscope: %s\n", err);
        rc = rc ? rc : 2;
    }
    int measured_all = 0, written = 0;
    if (compares) {
        int crc = compare(&a, doc, out, &measured_all, &written);
        rc = rc ? rc : crc;
    }
    if (doc && once && !written && ps_result_write(a.output, doc, err, sizeof err)) {
        fprintf(stderr, "parscope: %s\n", err);
        rc = rc ? rc : 2;
    }
    int predicted = doc != NULL;
    json_decref(doc);
    if (ps_interrupted()) {
        fprintf(stderr, "parscope predict: interrupted (%s): %s%s\n", ps_interrupt_name(),
                !predicted ? "nothing predicted, nothing written"
                : a.output ? "the counts predicted before it are written"
                           : "the counts predicted before it are shown",
                !a.compare     ? ""
                : measured_all ? "; the measured runs are done (the calibration was not repeated after them)"
                               : "; the measured runs are missing");
        return ps_interrupt_status();
    }
    return rc;
}
