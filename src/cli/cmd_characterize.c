/*
 * cmd_characterize.c - 'parscope characterize': the main job (src/characterize/,
 * docs/CHARACTERIZE.md).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "characterize/characterize.h"
#include "cli/cli.h"
#include "launch/launch.h"
#include "util/proc.h"
#include "util/util.h"

static const char about[] =
    "The main job: what is this machine like for message-passing programs, and what\n"
    "would the predefined workloads do on it.  Runs, each into DIR:\n"
    "  1. probe          ping-pong latency and bandwidth, BSP r, g, l -> machine.ini\n"
    "  2. fingerprint    the LOOP fingerprint with its trace and space-time diagram\n"
    "  3. scale          a CLUE sweep over 1, 2, 4 .. RANKS with its conclusions\n"
    "  4. predict        fingerprint, cg, mmm_s and red_black predicted on machine.ini\n"
    "                    (computation calibrated by a 1-rank run, alone and beside\n"
    "                    copies of itself) and measured at\n"
    "                    1 .. RANKS, with the relative errors (accuracy counts P > 1)\n"
    "  5. report         DIR/report.html, opening with a one-minute summary\n";
static const char notes[] =
    "SIGINT or SIGTERM stops the running step, writes the summary and report from what\n"
    "was measured, says what is missing, and exits 130 (SIGINT) or 143 (SIGTERM).  A\n"
    "failed step is recorded and the others go on; the exit status is then 1.  DIR is\n"
    "locked while it is written: a second characterization into it is refused (2).\n";

static int steps_opt(const char *v, void *dest, char *err, size_t errlen)
{
    if (ps_characterize_check_steps(v, err, errlen)) return -1;
    *(const char **)dest = v;
    return 0;
}

int ps_cmd_characterize(int argc, char **argv)
{
    ps_characterize_opts o = {.budget = 90};
    const ps_opt opts[] = {
        PS_OPT_RANKS(&o.ranks, "processes (default: the cores, at least 2)"),
        PS_OPT_OUTPUT_NOT_TEXT(&o.dir, "DIR", "a directory", "where everything goes (default: characterize-DATE)"),
        {0, "budget", "SEC", PS_OPT_DOUBLE, &o.budget, 20, 1e9, "a number of seconds",
         "time budget that chooses sizes and repetitions (default 90)", 0, NULL, NULL},
        PS_OPT_FORCE(&o.force, "replace what DIR holds (default: refuse a non-empty DIR)"),
        PS_OPT_FN(0, "steps", "LIST", steps_opt, &o.steps,
                  "only these of probe,fingerprint,scale,predict (the report is always written)"),
        PS_OPT_LAUNCHER(&o.launcher, "launcher template, e.g. 'srun -n {ranks}' (or PARSCOPE_LAUNCHER)"),
        PS_OPT_QUIET(&o.quiet, "print only the summary"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope characterize", .usage = "[-n RANKS] [-o DIR] [--budget SECONDS] [--force]",
                            .about = about, .notes = notes, .opts = opts};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    if (ps_inside_mpi()) return ps_opt_error(cmd.name, "run it outside an MPI job: it launches its own jobs");
    if (ps_check_launcher(&cmd, o.launcher)) return 2;
    if (o.ranks == 1)
        return ps_opt_error(cmd.name, "-n 1: the probe's ping-pong and the sweep need at least 2 ranks");
    if (o.ranks <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        o.ranks = cores >= 2 ? (int)cores : 2;
    }
    char defdir[64], err[1024];
    if (!o.dir) {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        strftime(defdir, sizeof defdir, "characterize-%Y%m%d-%H%M%S", &tm);
        o.dir = defdir;
    }
    json_t *summary;
    rc = ps_characterize_run(&o, &summary, err, sizeof err);
    if (rc == 2) return ps_opt_error(cmd.name, "%s", err);
    ps_characterize_print(summary, stdout);
    printf("\nEverything is in %s/ (report: %s/report.html)\n", o.dir, o.dir);
    int interrupted = ps_interrupted();
    if (interrupted) {
        fprintf(stderr, "parscope: interrupted; the summary and report hold what was measured; missing:");
        size_t k;
        json_t *m;
        json_array_foreach(json_object_get(summary, "missing"), k, m)
            fprintf(stderr, "%s %s", k ? "," : "", json_string_value(m));
        fprintf(stderr, "%s\n", json_array_size(json_object_get(summary, "missing")) ? "" : " nothing");
    }
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(summary, "steps"), i, s)
        if (!interrupted && !strcmp(json_string_value(json_object_get(s, "status")), "failed"))
            fprintf(stderr, "parscope: step %s failed: %s\n", json_string_value(json_object_get(s, "step")),
                    json_string_value(json_object_get(s, "message")));
    json_decref(summary);
    return rc;
}
