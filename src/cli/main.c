/* main.c - parscope's entry: subcommand dispatch and usage. */
#include "cli/cli.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/launch.h"
#include "parscope/parscope.h"
#include "util/util.h"

int ps_cmd_probe(int, char **);
int ps_cmd_gen(int, char **);
int ps_cmd_build(int, char **);
int ps_cmd_run(int, char **);
int ps_cmd_scale(int, char **);
int ps_cmd_whitebox(int, char **);
int ps_cmd_predict(int, char **);
int ps_cmd_compare(int, char **);
int ps_cmd_report(int, char **);
int ps_cmd_export(int, char **);
int ps_cmd_characterize(int, char **);
int ps_cmd_rank(int, char **);
int ps_cmd_workloads(int, char **);
int ps_cmd_emulate(int, char **);
int ps_cmd_node(int, char **);

const ps_command ps_commands[] = {
    {"characterize", ps_cmd_characterize, "characterize [-n RANKS] [-o DIR] [--budget SECONDS]",
     "the main job: probe, fingerprint, scale, predict vs measure, report"},
    {"probe", ps_cmd_probe, "probe [-n RANKS] [-o machine.ini] [--quick]",
     "ping-pong sweep and BSP r, g, l; writes a machine model"},
    {"gen", ps_cmd_gen, "gen FILE.loop [-o FILE.c] [--variant full|comm|data]", "LOOP program to C"},
    {"build", ps_cmd_build, "build FILE.loop [-o EXE]", "generate, compile and link a LOOP program"},
    {"run", ps_cmd_run, "run WORKLOAD -n RANKS [-s SIZE] [-i ITERS] [--trials K] [--trace DIR] [-o result.json]",
     "run a built-in workload or a .loop file under MPI"},
    {"scale", ps_cmd_scale, "scale [WORKLOAD] [--max-ranks N] [--variations LIST] [--trials K] [-o DIR]",
     "CLUE-style scalability sweep and analysis"},
    {"whitebox", ps_cmd_whitebox, "whitebox WORKLOAD -n RANKS [-s SIZE] [-i ITERS] [--trials K]",
     "split time into communication, data movement and computation"},
    {"predict", ps_cmd_predict, "predict WORKLOAD -m machine.ini -n LIST [-s SIZE] [-i ITERS] [--trace DIR]",
     "simulated run(s) on a machine model"},
    {"compare", ps_cmd_compare, "compare MEASURED.json PREDICTED.json", "relative error of a prediction"},
    {"report", ps_cmd_report, "report PATH... [-o report.html]", "self-contained HTML report"},
    {"export", ps_cmd_export, "export TRACE --format otf2|perfetto|csv [-o OUT]", "traces for other tools"},
    {"workloads", ps_cmd_workloads, "workloads", "list the built-in workloads"},
    {"emulate", ps_cmd_emulate, "emulate -N NODES [--link RATE] [--map round-robin|block] -- COMMAND...",
     "run COMMAND on a cluster emulated on this machine (needs root)"},
    {"__rank", ps_cmd_rank, NULL, NULL}, /* internal: a built-in workload inside an MPI job */
    {"__node", ps_cmd_node, NULL, NULL}, /* internal: the emulated cluster's remote shell */
    {NULL, NULL, NULL, NULL}};

static void usage(FILE *f)
{
    fprintf(f, "usage: parscope COMMAND [OPTIONS]\n\n"
               "parscope measures how a message-passing parallel machine performs, and why.\n\n"
               "commands:\n");
    for (const ps_command *c = ps_commands; c->name; c++)
        if (c->synopsis) fprintf(f, "  %-13s %s\n", c->name, c->summary);
    fprintf(f, "\nRun 'parscope COMMAND --help' for a command's options.\n"
               "Outside an MPI job parscope launches itself with mpiexec, or with the template\n"
               "--launcher or PARSCOPE_LAUNCHER gives: words as a shell splits them (no shell\n"
               "runs), {ranks} the rank count, {hostfile} a file naming each rank's host (from\n"
               "PARSCOPE_HOSTS).  On a Slurm cluster, inside the allocation:\n"
               "  PARSCOPE_LAUNCHER='srun --ntasks={ranks} --mpi=pmix' (pmi2 for MPICH), run on the\n"
               "  allocation's first node (rank 0's) or with TMPDIR shared by all nodes.\n"
               "Inside an MPI job parscope runs directly.  docs/LAUNCHER.md has the details.\n"
               "Exit status: 0 success, 1 the measured program failed, 2 bad usage or input.\n");
}

int ps_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "parscope %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr, "Try 'parscope %s --help'.\n", cmd);
    return 2;
}

int ps_fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("parscope: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return status;
}

int ps_check_new_output(const char *cmd, const char *option, const char *path, int force)
{
    if (!path || force || !strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6)) return 0;
    if (ps_file_exists(path))
        return ps_usage_error(cmd, "%s %s: exists already (use --force to replace it)", option, path);
    return 0;
}

void ps_common_defaults(ps_common_opts *o)
{
    memset(o, 0, sizeof *o);
    o->ranks = 0;
    o->size = -1;
    o->iterations = -1;
    o->trials = 1;
    o->timeout = 0;
}

int main(int argc, char **argv)
{
    /* the emulated cluster's remote shell is this program under another name
     * (the MPI launchers take one executable for their ssh) */
    const char *base = argv[0] ? strrchr(argv[0], '/') : NULL;
    if (argv[0] && !strcmp(base ? base + 1 : argv[0], "parscope-node")) return ps_cmd_node(argc, argv);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(name, "--version")) {
        printf("parscope %d.%d\n", PS_VERSION_MAJOR, PS_VERSION_MINOR);
        return 0;
    }
    for (const ps_command *c = ps_commands; c->name; c++)
        if (!strcmp(c->name, name)) return c->run(argc - 1, argv + 1);
    fprintf(stderr, "parscope: unknown command '%s'\n\n", name);
    usage(stderr);
    return 2;
}
