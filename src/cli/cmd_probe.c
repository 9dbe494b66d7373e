/*
 * cmd_probe.c - 'parscope probe': ping-pong sweep and BSP r, g, l; writes a
 * machine model, a result JSON and SVG plots (src/probe/, docs/PROBE.md).
 *
 * Outside an MPI job ps_probe_run launches parscope itself in its rank-side
 * mode ("parscope probe --rank-side --raw FILE ...") and analyses what rank 0
 * wrote; inside an MPI job the ranks measure and rank 0 analyses directly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "launch/launch.h"
#include "probe/probe.h"
#include "sim/machine.h"
#include "util/proc.h"
#include "util/util.h"

static const char about[] =
    "Measures this machine and writes its model: a ping-pong between ranks 0 and 1\n"
    "(1 B .. 4 MiB, latency, bandwidth, Hockney fit), BSP r from DAXPY and g, l from a\n"
    "full h-relation on all ranks, each repeated three times (the best two must agree).\n";
static const char notes[] =
    "Inside an MPI job (mpirun -n 2 parscope probe) the ranks of that job are used.\n"
    "SIGINT or SIGTERM stops the measurement; the rounds that ended are analysed and\n"
    "written (\"interrupted\", \"missing\" in the JSON).\n"
    "Exit status: 0 ok, 1 the measurement failed, 2 bad usage or input, 130 / 143\n"
    "interrupted by SIGINT / SIGTERM.\n";

typedef struct probe_args {
    ps_probe_opts po;
    const char   *output, *json, *svg_dir, *raw;
    int           rank_side, quiet, force, quick, tiny;
} probe_args;

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return ps_xstrdup(".");
    if (slash == path) return ps_xstrdup("/");
    return ps_xasprintf("%.*s", (int)(slash - path), path);
}

/* The outputs: the model, the JSON, the plots, the summary. */
static int finish(const probe_args *a, const json_t *doc, const ps_machine *m)
{
    char err[1024];
    int rc = 0;
    if (ps_machine_save(a->output, m, err, sizeof err) != 0) rc = ps_fail(1, "%s", err);
    if (rc == 0 && a->json) {
        char *text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        if (!text || ps_write_file(a->json, text, strlen(text), err, sizeof err) != 0)
            rc = ps_fail(1, "%s", text ? err : "cannot encode the probe result as JSON");
        free(text);
    }
    char *svg = a->svg_dir ? ps_xstrdup(a->svg_dir) : strcmp(a->output, "-") ? dir_of(a->output) : ps_xstrdup(".");
    if (rc == 0 && ps_probe_write_svgs(doc, svg, err, sizeof err) != 0) rc = ps_fail(1, "%s", err);
    if (rc == 0 && !a->quiet) {
        FILE *out = ps_text_out(ps_output_is_stdout(a->output) ? a->output : a->json);
        ps_probe_print(doc, out);
        fprintf(out, "\nwrote %s%s%s, plots in %s/ (pingpong_time.svg, pingpong_bandwidth.svg, hrelation.svg)\n",
                strcmp(a->output, "-") ? a->output : "standard output", a->json ? " and " : "",
                !a->json ? "" : strcmp(a->json, "-") ? a->json : "standard output", svg);
    }
    free(svg);
    return rc;
}

/* A rank of an MPI job: measure; rank 0 writes the raw samples (--rank-side)
 * or analyses them. */
static int rank_side(const probe_args *a)
{
    char err[1024] = "";
    json_t *raw = NULL;
    if (ps_probe_rank_side(&a->po, &raw, err, sizeof err) != 0) {
        if (err[0]) fprintf(stderr, "parscope probe: %s\n", err);
        return 2;
    }
    if (!raw) return 0; /* not rank 0 */
    int rc = 0;
    if (a->rank_side) {
        char *text = json_dumps(raw, JSON_COMPACT | JSON_REAL_PRECISION(17));
        if (!text || ps_write_file(a->raw, text, strlen(text), err, sizeof err) != 0)
            rc = ps_fail(1, "%s", text ? err : "cannot encode the raw probe data");
        free(text);
    } else {
        ps_machine m;
        json_t *doc = ps_probe_analyze(raw, &m, err, sizeof err);
        if (doc) rc = finish(a, doc, &m);
        else {
            fprintf(stderr, "parscope probe: %s\n", err);
            rc = 1;
        }
        json_decref(doc);
    }
    json_decref(raw);
    return rc;
}

/* Earlier results are not replaced silently, and every output is checked
 * (a plots' directory made and locked) now: minutes of measurement must
 * not end in "cannot write". */
static int check_outputs(const ps_opt_cmd *c, const probe_args *a)
{
    char *svg = a->svg_dir ? ps_xstrdup(a->svg_dir) : strcmp(a->output, "-") ? dir_of(a->output) : ps_xstrdup(".");
    char *plots[3];
    static const char *names[3] = {"pingpong_time.svg", "pingpong_bandwidth.svg", "hrelation.svg"};
    for (int i = 0; i < 3; i++) plots[i] = ps_xasprintf("%s/%s", svg, names[i]);
    /* the plots go to the model's folder by default under fixed names: a second model probed into the
     * same folder finds the first one's there (a model per run, side by side, is a common use); the
     * same model again is the check below's to name */
    int again = strcmp(a->output, "-") && access(a->output, F_OK) == 0;
    for (int i = 0; i < 3 && !a->svg_dir && !a->force && !again; i++)
        if (access(plots[i], F_OK) == 0) {
            int rc = ps_opt_error(c->name, "plot %s: exists already, from an earlier probe (its plots go to the model's "
                                           "folder): use --svg-dir DIR for this probe's plots, or --force to replace them",
                                  plots[i]);
            for (int k = 0; k < 3; k++) free(plots[k]);
            free(svg);
            return rc;
        }
    /* a directory given for the plots is made and locked; the model's own
     * directory (the default) is only checked, not given a lock file */
    ps_output_spec outs[] = {{"-o", a->output, PS_OUTPUT_FILE}, {"--json", a->json, PS_OUTPUT_FILE},
                             {"--svg-dir", a->svg_dir, PS_OUTPUT_DIR}, {"plot", plots[0], PS_OUTPUT_FILE},
                             {"plot", plots[1], PS_OUTPUT_FILE}, {"plot", plots[2], PS_OUTPUT_FILE}};
    int rc = ps_check_outputs(c, outs, 6, NULL, 0, a->force);
    for (int i = 0; i < 3; i++) free(plots[i]);
    free(svg);
    return rc;
}

int ps_cmd_probe(int argc, char **argv)
{
    probe_args a = {.po = {.mode = PS_PROBE_FULL}, .output = "machine.ini"};
    a.po.timeout = -1;
    const ps_opt opts[] = {
        PS_OPT_RANKS(&a.po.ranks, "ranks for the BSP measurements (default: the cores, at least 2)"),
        PS_OPT_OUTPUT(&a.output, "FILE", "machine model (default: machine.ini; '-': standard output)"),
        PS_OPT_FORCE(&a.force, "replace an existing machine model or --json file"),
        PS_OPT_BOOL(0, "quick", &a.quick, "a shorter budget: seconds instead of more than a minute (announced at the start)"),
        PS_OPT_BOOL(0, "tiny", &a.tiny, NULL), /* the test suite's budget */
        PS_OPT_STR(0, "json", "FILE", &a.json, "the result JSON with every sample (\"kind\": \"probe\"; '-': standard output)"),
        PS_OPT_STR(0, "svg-dir", "DIR", &a.svg_dir, "plots (default: the directory of the machine model)"),
        PS_OPT_LAUNCHER(&a.po.launcher, "launcher template, e.g. 'srun -n {ranks}' (or PARSCOPE_LAUNCHER)"),
        PS_OPT_TIMEOUT(&a.po.timeout, "stop the measurement after SEC seconds (default 60 quick, 300 full)"),
        PS_OPT_QUIET(&a.quiet, "do not print the summary"),
        PS_OPT_BOOL(0, "rank-side", &a.rank_side, NULL), /* internal: one rank of the launched job */
        PS_OPT_STR(0, "raw", "FILE", &a.raw, NULL),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope probe",
                            .usage = "[-n RANKS] [-o machine.ini] [--quick] [--json FILE] [--svg-dir DIR]",
                            .about = about, .notes = notes, .opts = opts,
                            .exclusive = (const char *const[]){"quick tiny", NULL}};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    if (!*a.output) return ps_opt_error(cmd.name, "-o: empty file name");
    if (a.po.ranks == 1) return ps_opt_error(cmd.name, "-n: a ping-pong needs at least 2 ranks, got '1'");
    /* inside an MPI job too, where only these two are written (and nothing is locked) */
    ps_output_spec two[] = {{"-o", a.output, PS_OUTPUT_FILE}, {"--json", a.json, PS_OUTPUT_FILE}};
    if (!a.rank_side && ps_inside_mpi() && ps_check_outputs(&cmd, two, 2, NULL, 0, 1)) return 2;
    a.po.mode = a.tiny ? PS_PROBE_TINY : a.quick ? PS_PROBE_QUICK : PS_PROBE_FULL;
    if (a.po.timeout < 0) a.po.timeout = a.po.mode == PS_PROBE_FULL ? 300 : 60;
    if (a.rank_side && !a.raw) return ps_opt_error(cmd.name, "--rank-side needs --raw FILE");
    if (a.rank_side) a.po.raw_path = a.raw;
    if (a.rank_side || ps_inside_mpi()) return rank_side(&a);
    if (ps_check_launcher(&cmd, a.po.launcher)) return 2;
    if ((rc = check_outputs(&cmd, &a))) return rc;
    if (!a.po.ranks) a.po.ranks = ps_probe_default_ranks();
    if (!a.quiet) {
        double planned = ps_probe_budget_seconds(a.po.mode);
        char fit[80] = "";   /* a shorter limit: the rounds shortened to fit it */
        if (a.po.timeout < planned) snprintf(fit, sizeof fit, ", shortened to end within --timeout %g s", a.po.timeout);
        fprintf(stderr, "parscope probe: measuring on %d ranks (%s, %sabout %.0f s%s)...\n", a.po.ranks,
                ps_probe_budget_for(a.po.mode)->name, *fit ? "planned " : "", planned, fit);
    }
    json_t *doc;
    ps_machine m;
    char err[1024];
    ps_interrupt_install();
    rc = ps_probe_run(&a.po, &doc, &m, err, sizeof err);
    int partial = rc == PS_PROBE_PARTIAL;
    if (rc && !partial) {
        if (ps_interrupted()) {
            fprintf(stderr, "parscope probe: interrupted (%s) before the first round ended: nothing measured, "
                            "nothing written\n", ps_interrupt_name());
            return ps_interrupt_status();
        }
        fprintf(stderr, "parscope probe: %s\n", err);
        return rc;
    }
    rc = finish(&a, doc, &m);
    json_decref(doc);
    if (partial) {
        if (ps_interrupted())
            fprintf(stderr, "parscope probe: interrupted (%s); %s: the model and plots are from those rounds only\n",
                    ps_interrupt_name(), err);
        else fprintf(stderr, "parscope probe: %s: the model and plots are from those rounds only\n", err);
        return ps_interrupted() ? ps_interrupt_status() : rc ? rc : 1;
    }
    /* stopped after its last round: the model is whole, and the stop is still
     * told, in the exit status and in a line (a signal a moment later than
     * the measurement's end must not pass unsaid) */
    if (!rc && ps_interrupted()) {
        fprintf(stderr, "parscope probe: interrupted (%s) after its last round: the measurement is whole, and its "
                        "outputs are written\n", ps_interrupt_name());
        return ps_interrupt_status();
    }
    return rc;
}
