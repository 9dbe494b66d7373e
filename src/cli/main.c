/* main.c - parscope's entry: subcommand dispatch and usage. */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "launch/launch.h"
#include "launch/noise.h"
#include "parscope/parscope.h"
#include "util/util.h"

/* Every subcommand: its name, its function (cmd_NAME.c), what it does
 * (NULL: internal, not listed). */
#define PS_COMMANDS(X)                                                                                     \
    X("characterize", ps_cmd_characterize, "the main job: probe, fingerprint, scale, predict vs measure, report") \
    X("probe", ps_cmd_probe, "ping-pong sweep and BSP r, g, l; writes a machine model")                   \
    X("gen", ps_cmd_gen, "LOOP program to C") X("build", ps_cmd_build, "generate, compile and link a LOOP program") \
    X("run", ps_cmd_run, "run a built-in workload or a .loop file under MPI")                              \
    X("scale", ps_cmd_scale, "CLUE-style scalability sweep and analysis")                                  \
    X("whitebox", ps_cmd_whitebox, "split time into communication, data movement and computation")         \
    X("predict", ps_cmd_predict, "simulated run(s) on a machine model")                                    \
    X("compare", ps_cmd_compare, "relative error of a prediction")                                         \
    X("report", ps_cmd_report, "self-contained HTML report") X("export", ps_cmd_export, "traces for other tools") \
    X("workloads", ps_cmd_workloads, "list the built-in workloads")                                        \
    X("emulate", ps_cmd_emulate, "run COMMAND on a cluster emulated on this machine (needs root)")         \
    X("__rank", ps_cmd_rank, NULL) /* internal: a built-in workload inside an MPI job */                   \
    X("__node", ps_cmd_node, NULL) /* internal: the emulated cluster's remote shell */

#define DECLARE(name, fn, summary) int fn(int argc, char **argv);
PS_COMMANDS(DECLARE)
#define ENTRY(name, fn, summary) {name, fn, summary},
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {PS_COMMANDS(ENTRY)};

static void usage(FILE *f)
{
    fprintf(f, "usage: parscope COMMAND [OPTIONS]\n\n"
               "parscope measures how a message-passing parallel machine performs, and why.\n\n"
               "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i].summary) fprintf(f, "  %-13s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nRun 'parscope COMMAND --help' for a command's options.\n"
               "Outside an MPI job parscope launches itself with mpiexec, or with the template\n"
               "--launcher or PARSCOPE_LAUNCHER gives: words as a shell splits them (no shell\n"
               "runs), {ranks} the rank count, {hostfile} a file naming each rank's host (from\n"
               "PARSCOPE_HOSTS).  On a Slurm cluster, inside the allocation:\n"
               "  PARSCOPE_LAUNCHER='srun --ntasks={ranks} --mpi=pmix' (pmi2 for MPICH), run on the\n"
               "  allocation's first node (rank 0's) or with TMPDIR shared by all nodes.\n"
               "Inside an MPI job parscope runs directly.  docs/LAUNCHER.md has the details.\n"
               "Options mean the same in every command: -n ranks (1 to 2^20), -s size and\n"
               "-i iterations (1 to 2^40), -k trials (1 to 1000), --timeout seconds, -o output\n"
               "('-' is standard output where it is text or JSON), --force, --launcher, -q.\n"
               "Exit status: 0 success, 1 the measured program failed, 2 bad usage or input.\n");
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

int ps_check_outputs(const ps_opt_cmd *c, const ps_output_spec *outs, int nouts, const char *const *inputs,
                     int ninputs, int force)
{
    char err[2048];
    if (ps_outputs_check(outs, nouts, inputs, ninputs, force, err, sizeof err)) return ps_opt_error(c->name, "%s", err);
    return 0;
}

int ps_check_launcher(const ps_opt_cmd *c, const char *tmpl)
{
    char err[1024];
    if (ps_inside_mpi()) return 0; /* nothing is launched */
    if (ps_launcher_check(tmpl, err, sizeof err)) return ps_opt_error(c->name, "%s", err);
    return 0;
}

int ps_check_new_output(const ps_opt_cmd *c, const char *option, const char *path, int force)
{
    ps_output_spec o = {option, path, PS_OUTPUT_FILE};
    return ps_check_outputs(c, &o, 1, NULL, 0, force);
}

FILE *ps_text_out(const char *output) { return ps_output_is_stdout(output) ? stderr : stdout; }

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
    /* tables and notes (standard output) and progress and warnings (standard
     * error) keep the order they were written in when both go to one pipe or
     * file: each line leaves at once (a command that writes much to standard
     * output sets a buffer of its own) */
    setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(name, "--version")) {
        printf("parscope %d.%d\n", PS_VERSION_MAJOR, PS_VERSION_MINOR);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(commands[i].name, name)) continue;
        /* a setting every measuring command reads, refused before any of them starts */
        char err[256];
        if (commands[i].summary && ps_noise_reps_check(err, sizeof err)) return ps_fail(2, "%s", err);
        return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "parscope: unknown command '%s'\n\n", name);
    usage(stderr);
    return 2;
}
