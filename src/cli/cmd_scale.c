/* cmd_scale.c - 'parscope scale': the CLUE scalability sweep (docs/SCALE.md). */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "launch/launch.h"
#include "launch/run.h"
#include "workloads/workloads.h"
#include "scale/scale.h"
#include "util/util.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: parscope scale [WORKLOAD] [--max-ranks N] [--ranks LIST] [--variations LIST] [--trials K]\n"
            "                      [-o DIR] [--strong] [--config FILE] [--resume DIR] [options]\n"
            "\n"
            "CLUE-style scalability sweep: runs WORKLOAD (default clue) on P = 1, 2, 4 .. N ranks for every\n"
            "variation, K trials each (interleaved, the fastest kept), and writes DIR/scale.csv, DIR/scale.json\n"
            "and DIR/report.html with speedup, efficiency, Karp-Flatt serial fraction, ACT/s and conclusions.\n"
            "\n"
            "  --max-ranks N          largest P (default: the machine's cores)\n"
            "  --ranks LIST           processor counts, e.g. 1,2,4 (default 1, 2, 4 .. N); must include 1\n"
            "  --variations LIST      clue: all (default) or some of base,int,double,rearrange,nodeorder,\n"
            "                         vonneumann,scatter,cellwise\n"
            "  --trials K|auto        runs per point (default 3); auto: 3 to 10, more where the best two\n"
            "                         trials differ by more than --spread-target, until --time-budget is spent\n"
            "  --spread-target X      auto trials: the best two trials' relative gap to reach (0.05)\n"
            "  --time-budget SEC      auto trials: seconds the sweep may take (600)\n"
            "  -o, --output DIR       where results go (default scale-WORKLOAD-DATE); must not hold a sweep\n"
            "  --strong               clue: the grid is the whole problem, split over P (default: weak\n"
            "                         scaling, the grid per rank fixed, scaled metrics (9)-(11))\n"
            "  --config FILE          keyword = value file with any of these options' long names\n"
            "  --resume DIR           continue an interrupted sweep in DIR without repeating runs\n"
            "  --grid WxH             clue: cells per rank (weak) or in all (strong) (default: automatic)\n"
            "  -i, --iterations N     iterations per run (clue default: automatic, from a timing run)\n"
            "  -s, --size N           problem size for other workloads\n"
            "  --target-time SEC      clue: kernel seconds per run the automatic choice aims at (0.5)\n"
            "  --seed N               initial grid and node order (1)\n"
            "  --timeout SEC          per run (default: automatic)\n"
            "  --efficiency-threshold X  below it adding nodes is 'not cost effective' (0.8)\n"
            "  --oversubscribe        accepted for old configurations: more ranks than cores always run, and\n"
            "                         the results mark them oversubscribed\n"
            "  --launcher TEMPLATE    e.g. 'srun -n {ranks}' (default mpiexec)\n"
            "  --workload-args ARGS   more arguments for every run of the workload\n"
            "  --cache BYTES --memory BYTES --cores N   override what hwloc reports\n"
            "\n"
            "Precedence: built-in default < automatic choice < config file < command line; scale.json records\n"
            "every parameter's value and source.  On a terminal a progress line shows the run, done/total,\n"
            "elapsed and ETA.  SIGINT finishes the current run, writes the partial analysis and exits 130.\n"
            "Exit status: 0 ok, 1 some run failed (recorded; the sweep goes on), 2 bad usage, 130 interrupted.\n");
}

typedef struct kv {
    const char *key, *value, *opt;
} kv;

int ps_cmd_scale(int argc, char **argv)
{
    static const struct {
        const char *opt, *key;
        int flag;
    } map[] = {{"--max-ranks", "max-ranks", 0},   {"--ranks", "ranks", 0},
               {"--variations", "variations", 0}, {"--trials", "trials", 0},
               {"-o", "output", 0},               {"--output", "output", 0},
               {"--strong", "strong", 1},         {"--grid", "grid", 0},
               {"-i", "iterations", 0},           {"--iterations", "iterations", 0},
               {"-s", "size", 0},                 {"--size", "size", 0},
               {"--target-time", "target-time", 0}, {"--seed", "seed", 0},
               {"--timeout", "timeout", 0},       {"--efficiency-threshold", "efficiency-threshold", 0},
               {"--oversubscribe", "oversubscribe", 1}, {"--launcher", "launcher", 0},
               {"--workload-args", "workload-args", 0}, {"--cache", "cache", 0},
               {"--memory", "memory", 0},         {"--cores", "cores", 0},
               {"--spread-target", "spread-target", 0}, {"--time-budget", "time-budget", 0}};
    kv opts[64];
    int nopts = 0;
    const char *workload = NULL, *config = NULL, *resume = NULL;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (a[0] != '-') {
            if (workload) return ps_usage_error("scale", "one workload only (got '%s' and '%s')", workload, a);
            workload = a;
            continue;
        }
        /* --opt=value */
        char name[64];
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        if (eq && eq - a < (long)sizeof name && a[1] == '-') {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
        if (!strcmp(name, "--config") || !strcmp(name, "--resume")) {
            if (!val) {
                if (i + 1 >= argc) return ps_usage_error("scale", "%s needs a value", name);
                val = argv[++i];
            }
            if (!strcmp(name, "--config")) config = val;
            else resume = val;
            continue;
        }
        int found = 0;
        for (size_t k = 0; k < sizeof map / sizeof map[0]; k++) {
            if (strcmp(name, map[k].opt)) continue;
            found = 1;
            if (map[k].flag) {
                if (val) return ps_usage_error("scale", "%s takes no value", name);
                val = "yes";
            } else if (!val) {
                if (i + 1 >= argc) return ps_usage_error("scale", "%s needs a value", name);
                val = argv[++i];
            }
            if (nopts >= 64) return ps_usage_error("scale", "too many options");
            opts[nopts++] = (kv){map[k].key, val, map[k].opt};
            break;
        }
        if (!found) {
            usage(stderr);
            return ps_usage_error("scale", "unknown option '%s'", a);
        }
    }
    char err[2048];
    ps_scale_params p;
    if (resume) {
        if (workload || config || nopts)
            return ps_usage_error("scale", "--resume continues the sweep stored in %s with its own parameters; "
                                           "give no workload or other options with it", resume);
        int rc = ps_scale_sweep(&p, resume, 1, err, sizeof err);
        if (rc == 2) return ps_fail(2, "scale: %s", err);
        return rc;
    }
    ps_scale_params_defaults(&p);
    if (workload) {
        snprintf(p.workload, sizeof p.workload, "%s", workload);
        const ps_workload *w = ps_workload_find(workload);
        if (w) snprintf(p.workload, sizeof p.workload, "%s", w->name);
        p.is_clue = !strcmp(p.workload, "clue");
        if (!p.is_clue) p.iterations = -1;
        /* an unknown workload is bad input before anything runs */
        ps_run_spec s;
        memset(&s, 0, sizeof s);
        s.workload = p.workload;
        s.ranks = 1;
        s.size = -1;
        s.iterations = -1;
        char **av = NULL;
        if (ps_workload_argv(&s, &av, err, sizeof err)) return ps_usage_error("scale", "%s", err);
        ps_argv_free(av);
    }
    if (config && ps_scale_params_load(&p, config, err, sizeof err)) return ps_fail(2, "scale: %s", err);
    for (int i = 0; i < nopts; i++) {
        if (ps_scale_params_set(&p, opts[i].key, opts[i].value, PS_SRC_OPTION, err, sizeof err))
            return ps_usage_error("scale", "%s: %s", opts[i].opt, err);
    }
    if (!p.is_clue) {
        static const int clue_only[] = {PS_K_VARIATIONS, PS_K_GRID, PS_K_STRONG, PS_K_TARGET_TIME};
        for (size_t k = 0; k < sizeof clue_only / sizeof clue_only[0]; k++)
            if (p.src[clue_only[k]] != PS_SRC_DEFAULT)
                return ps_usage_error("scale", "%s applies to the clue workload only (sweeping %s)",
                                      ps_scale_key_name(clue_only[k]), p.workload);
    } else if (p.src[PS_K_SIZE] != PS_SRC_DEFAULT) {
        return ps_usage_error("scale", "clue takes --grid WxH, not --size");
    }
    if (ps_scale_params_auto(&p, err, sizeof err)) return ps_usage_error("scale", "%s", err);
    if (p.ranks[0] != 1)
        return ps_usage_error("scale", "the ranks list must include 1 (speedup and efficiency need T(1))");
    if (p.is_clue && p.strong && p.height / 2 < p.ranks[p.nranks - 1])
        return ps_usage_error("scale", "--strong: a grid of %ld rows cannot be split over %d ranks", p.height,
                              p.ranks[p.nranks - 1]);
    if (!p.output[0]) {
        char stamp[32];
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(p.output, sizeof p.output, "scale-%s-%s", p.workload, stamp);
        p.src[PS_K_OUTPUT] = PS_SRC_AUTO;
    }
    int rc = ps_scale_sweep(&p, p.output, 0, err, sizeof err);
    if (rc == 2) return ps_fail(2, "scale: %s", err);
    return rc;
}
