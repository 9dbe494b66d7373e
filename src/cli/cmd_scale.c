/* cmd_scale.c - 'parscope scale': the CLUE scalability sweep (src/scale/, docs/SCALE.md). */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "launch/run.h"
#include "scale/scale.h"
#include "workloads/workloads.h"

static const char about[] =
    "CLUE-style scalability sweep: runs WORKLOAD (default clue) on P = 1, 2, 4 .. N ranks for every\n"
    "variation, K trials each (interleaved, the fastest kept), and writes DIR/scale.csv, DIR/scale.json\n"
    "and DIR/report.html with speedup, efficiency, Karp-Flatt serial fraction, ACT/s and conclusions.\n";
static const char notes[] =
    "Precedence: built-in default < automatic choice < config file < command line; scale.json records\n"
    "every parameter's value and source.  On a terminal a progress line shows the run, done/total,\n"
    "elapsed and ETA.  SIGINT or SIGTERM stops the current run (it is missing), writes the partial\n"
    "analysis and exits 130 (SIGINT) or 143 (SIGTERM).  A directory in use by another sweep is refused.\n"
    "Exit status: 0 ok, 1 some run failed (recorded; the sweep goes on), 2 bad usage or input,\n"
    "130 / 143 interrupted.\n";

/* A sweep option: kept as written, set as a parameter with its source (scale/params.h). */
#define KEY(s, l, arg, k, h) {(s), (l), (arg), PS_OPT_STRING, NULL, 0, 0, NULL, (h), 0, &v[k], NULL}
#define KEY_FLAG(l, k, h) {0, (l), NULL, PS_OPT_FLAG, NULL, 0, 0, NULL, (h), 0, &v[k], NULL}
/* a common option: checked by the parser with the common limits, then set as a parameter */
#define COMMON(opt, k) kept((ps_opt)opt, &v[k])
static ps_opt kept(ps_opt o, const char **text)
{
    o.text = text;
    return o;
}

/* Checks the parameters the options set; 0 or 2 (message printed). */
static int check(const ps_opt_cmd *c, ps_scale_params *p, const char *config, const char **v)
{
    char err[2048];
    if (config && ps_scale_params_load(p, config, err, sizeof err)) return ps_fail(2, "scale: %s", err);
    for (int k = 0; k < PS_K__COUNT; k++)
        if (v[k] && ps_scale_params_set(p, ps_scale_key_name(k), v[k], PS_SRC_OPTION, err, sizeof err))
            return ps_opt_error(c->name, "--%s: %s", ps_scale_key_name(k), err);
    if (ps_check_launcher(c, p->launcher[0] ? p->launcher : NULL)) return 2;
    if (!p->is_clue) {
        for (int k = 0; k < PS_K__COUNT; k++)
            if (ps_scale_key_clue_only(k) && p->src[k] != PS_SRC_DEFAULT)
                return ps_opt_error(c->name, "%s applies to the clue workload only (sweeping %s)",
                                    ps_scale_key_name(k), p->workload);
    } else if (p->src[PS_K_SIZE] != PS_SRC_DEFAULT) {
        return ps_opt_error(c->name, "clue takes --grid WxH, not --size");
    }
    if (ps_scale_params_auto(p, err, sizeof err)) return ps_opt_error(c->name, "%s", err);
    if (p->ranks[0] != 1)
        return ps_opt_error(c->name, "the ranks list must include 1 (speedup and efficiency need T(1))");
    if (p->is_clue && p->strong && p->height / 2 < p->ranks[p->nranks - 1])
        return ps_opt_error(c->name, "--strong: a grid of %ld rows cannot be split over %d ranks", p->height,
                            p->ranks[p->nranks - 1]);
    return 0;
}

/* The workload by its canonical name; an unknown one is bad input before anything runs. */
static int set_workload(const ps_opt_cmd *c, ps_scale_params *p, const char *workload)
{
    const ps_workload *w = ps_workload_find(workload);
    snprintf(p->workload, sizeof p->workload, "%s", w ? w->name : workload);
    p->is_clue = !strcmp(p->workload, "clue");
    if (!p->is_clue) p->iterations = -1;
    ps_run_spec s = {.workload = p->workload, .ranks = 1, .size = -1, .iterations = -1};
    char **av = NULL, err[1024];
    if (ps_workload_argv(&s, &av, err, sizeof err)) return ps_opt_error(c->name, "%s", err);
    ps_argv_free(av);
    return 0;
}

int ps_cmd_scale(int argc, char **argv)
{
    const char *v[PS_K__COUNT] = {0}, *config = NULL, *resume = NULL;
    int auto_trials = 0;
    const ps_opt opts[] = {
        KEY(0, "max-ranks", "N", PS_K_MAX_RANKS, "largest P (default: the machine's cores)"),
        KEY(0, "ranks", "LIST", PS_K_RANKS, "processor counts, each 1..4096: 1,2,4 | 1-4 | 1,2,4,...,16 (default\n"
                                         "1, 2, 4 .. N); must include 1"),
        KEY(0, "variations", "LIST", PS_K_VARIATIONS, "clue: some of base,int,double,rearrange,nodeorder,\n"
                                                       "vonneumann,scatter,cellwise,long, or all (default:\n"
                                                       "all but long)"),
        COMMON(PS_OPT_TRIALS(NULL, "runs per point (default 3)"), PS_K_TRIALS),
        PS_OPT_BOOL(0, "auto-trials", &auto_trials, "3 to 10 runs per point: more where the best two trials differ by\n"
                                                   "more than --spread-target, until --time-budget is spent"),
        KEY(0, "spread-target", "X", PS_K_SPREAD_TARGET, "auto trials: the best two trials' relative gap to reach (0.05)"),
        KEY(0, "time-budget", "SEC", PS_K_TIME_BUDGET, "auto trials: seconds the sweep may take (600)"),
        COMMON(PS_OPT_OUTPUT_NOT_TEXT(NULL, "DIR", "a directory",
                                      "where results go (default scale-WORKLOAD-DATE); must not hold a sweep"),
               PS_K_OUTPUT),
        KEY_FLAG("strong", PS_K_STRONG, "clue: the grid is the whole problem, split over P (default: weak\n"
                                        "scaling, the grid per rank fixed, scaled metrics (9)-(11))"),
        PS_OPT_STR(0, "config", "FILE", &config, "keyword = value file with any of these options' long names"),
        PS_OPT_STR(0, "resume", "DIR", &resume, "continue an interrupted sweep in DIR without repeating runs"),
        KEY(0, "grid", "WxH", PS_K_GRID, "clue: cells per rank (weak) or in all (strong) (default: automatic)"),
        COMMON(PS_OPT_ITERATIONS(NULL, "iterations per run (clue default: automatic, from a timing run)"),
               PS_K_ITERATIONS),
        COMMON(PS_OPT_SIZE(NULL, "problem size for other workloads"), PS_K_SIZE),
        KEY(0, "target-time", "SEC", PS_K_TARGET_TIME, "clue: kernel seconds per run the automatic choice aims at (0.5)"),
        KEY(0, "seed", "N", PS_K_SEED, "initial grid and node order (1)"),
        COMMON(PS_OPT_TIMEOUT(NULL, "per run (default: automatic)"), PS_K_TIMEOUT),
        KEY(0, "efficiency-threshold", "X", PS_K_EFF_THRESHOLD, "below it adding nodes is 'not cost effective' (0.8)"),
        KEY_FLAG("oversubscribe", PS_K_OVERSUBSCRIBE, "accepted for old configurations: more ranks than cores always\n"
                                                       "run, and the results mark them oversubscribed"),
        COMMON(PS_OPT_LAUNCHER(NULL, "e.g. 'srun -n {ranks}' (default mpiexec)"), PS_K_LAUNCHER),
        KEY(0, "workload-args", "ARGS", PS_K_WORKLOAD_ARGS, "more arguments for every run of the workload"),
        KEY(0, "cache", "BYTES", PS_K_CACHE, "override what hwloc reports (also --memory BYTES, --cores N)"),
        KEY(0, "memory", "BYTES", PS_K_MEMORY, NULL),
        KEY(0, "cores", "N", PS_K_CORES, NULL),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope scale", .about = about, .notes = notes, .opts = opts, .max_args = 1,
                            .usage = "[WORKLOAD] [--max-ranks N] [--ranks LIST] [--variations LIST] [--trials K]\n"
                                     "                      [-o DIR] [--strong] [--config FILE] [--resume DIR] [options]"};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    if (auto_trials) {
        if (v[PS_K_TRIALS]) return ps_opt_error(cmd.name, "--auto-trials chooses the trials: give it or --trials, not both");
        v[PS_K_TRIALS] = "auto";   /* the parameter's value, as in a config file (trials = auto) */
    }
    int given = 0;
    for (int k = 0; k < PS_K__COUNT; k++) given |= v[k] != NULL;
    char err[2048];
    ps_scale_params p;
    if (resume) {
        if (n || config || given)
            return ps_opt_error(cmd.name, "--resume continues the sweep stored in %s with its own parameters; "
                                          "give no workload or other options with it", resume);
        rc = ps_scale_sweep(&p, resume, 1, err, sizeof err);
        return rc == 2 ? ps_fail(2, "scale: %s", err) : rc;
    }
    ps_scale_params_defaults(&p);
    /* the output directory is checked (it can be made there) before the
     * automatic choice's timing run launches anything; the sweep makes and
     * locks it once the options are known to be good */
    ps_output_spec out = {"-o", v[PS_K_OUTPUT], PS_OUTPUT_ARCHIVE};
    const char *inputs[] = {config};
    if (ps_check_outputs(&cmd, &out, 1, inputs, 1, 1)) return 2;
    if ((n && (rc = set_workload(&cmd, &p, argv[1]))) || (rc = check(&cmd, &p, config, v))) return rc;
    if (!p.output[0]) {
        char stamp[32];
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(p.output, sizeof p.output, "scale-%s-%s", p.workload, stamp);
        p.src[PS_K_OUTPUT] = PS_SRC_AUTO;
    }
    rc = ps_scale_sweep(&p, p.output, 0, err, sizeof err);
    return rc == 2 ? ps_fail(2, "scale: %s", err) : rc;
}
