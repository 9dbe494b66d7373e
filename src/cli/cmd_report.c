/*
 * cmd_report.c - 'parscope report': one self-contained HTML page from result
 * documents, traces and directories of them (src/report/page.c).  Each kind
 * of document is drawn by the analysis that owns it, through the table
 * below: the command line is the one place above all of them.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "characterize/characterize.h"
#include "cli/cli.h"
#include "predict/predict.h"
#include "probe/probe.h"
#include "report/report.h"
#include "scale/scale.h"
#include "util/util.h"
#include "whitebox/whitebox.h"

/* Every kind of document with its report fragment, in the order a
 * directory's documents appear on the page. */
static const ps_report_kind kinds[] = {
    {"characterize", ps_characterize_report_html, NULL},
    {"probe", ps_probe_report_html, NULL},
    {"run", ps_report_run_html, NULL},
    {"predict", ps_predict_report_html, NULL},
    {"compare", NULL, NULL},
    {"machine", ps_report_nothing_html, NULL},
    {"published", ps_report_nothing_html, NULL},
    {"scale", ps_scale_report_html, NULL},
    {"whitebox", ps_whitebox_report_html, NULL},
    {NULL, NULL, NULL}};

static const char about[] =
    "Writes one self-contained HTML file (inline CSS and SVG; it needs no network)\n"
    "from parscope results, to be read top-down: a summary of the headline findings,\n"
    "the contents, the machines side by side, execution time against P, then each\n"
    "document's section.  Each PATH is\n"
    "  - a result JSON: a run or prediction (result sheets; space-time diagram and\n"
    "    profiles from its trace, found through its \"trace\" key), a probe (ping-pong\n"
    "    and h-relation plots with their fits), a scale sweep (tables and plots),\n"
    "    a white-box breakdown (bars per rank), a characterization (its summary),\n"
    "    published figures (kind \"published\", docs/seed/loop_tables.json);\n"
    "    other kinds are listed with their top-level figures;\n"
    "  - a machine model (.ini): a row of the BSP seed's r, g, l table;\n"
    "  - a trace (trace.pst, or a directory holding only one): sheet and pictures;\n"
    "  - a directory: every result JSON in it and in its subdirectories (one level);\n"
    "    files that are not parscope documents are skipped and listed.\n"
    "Results of two machines or more (measured hosts, predicted models) give the\n"
    "LOOP seed's Table 1 (execution times), Table 2 (slowdown against the reference)\n"
    "and Table 3 (configurations not every machine has).\n";

/* .ini files are machine models, read with the simulator's parser. */
static json_t *read_machine(const char *path, char *err, size_t errlen)
{
    return ps_predict_machine_doc(path, err, errlen);
}

typedef struct inputs { char **v; int n, cap; } inputs;

static void add_one(const char *path, void *ctx)
{
    inputs *in = ctx;
    if (in->n + 1 >= in->cap) {
        in->cap = in->cap ? in->cap * 2 : 16;
        in->v = ps_xrealloc(in->v, (size_t)in->cap * sizeof *in->v);
    }
    in->v[in->n++] = ps_xstrdup(path);
}

/* The files report reads: the PATHs, those in the directories among them
 * and one level below, and the traces their JSON documents name (appended
 * to *in). */
static void add_inputs(const char *path, int depth, inputs *in)
{
    add_one(path, in);
    size_t l = strlen(path);
    if (l > 5 && !strcmp(path + l - 5, ".json") && !ps_is_dir(path)) ps_report_named_traces(path, add_one, in);
    if (depth > 1 || !ps_is_dir(path)) return;
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            char *sub = ps_xasprintf("%s/%s", path, e->d_name);
            add_inputs(sub, depth + 1, in);
            free(sub);
        }
    if (d) closedir(d);
}

int ps_cmd_report(int argc, char **argv)
{
    int quiet = 0, force = 0, n;
    const char *output = NULL, *title = NULL, *reference = NULL;
    const ps_opt opts[] = {
        PS_OPT_OUTPUT(&output, "FILE", "the page (default: DIR/report.html for a single directory,\n"
                                       "otherwise report.html; '-': standard output)"),
        PS_OPT_STR('t', "title", "TEXT", &title, "the page's title"),
        PS_OPT_FORCE(&force, "replace an existing -o file"),
        PS_OPT_STR(0, "reference", "NAME", &reference, "Table 2's reference machine: its slowdown is 1 (default:\n"
                                                       "the fastest); a host, a model's name or its file name"),
        PS_OPT_QUIET(&quiet, "do not say what was written"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope report", .usage = "PATH... [-o report.html]", .about = about,
                            .notes = "Exit status: 0 ok, 2 bad usage or an input that cannot be read (nothing written).\n",
                            .opts = opts, .min_args = 1, .max_args = -1, .missing = "no PATH given"};
    int rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    char err[1024];
    /* the page's default place, as the page itself would choose it */
    char *def = NULL;
    if (!output) output = def = n == 1 && ps_is_dir(argv[1]) ? ps_xasprintf("%s/report.html", argv[1])
                                                            : ps_xstrdup("report.html");
    inputs in = {0};
    for (int i = 1; i <= n; i++) add_inputs(argv[i], 0, &in);
    ps_output_spec out = {"-o", output, PS_OUTPUT_FILE};
    rc = ps_check_outputs(&cmd, &out, 1, (const char *const *)in.v, in.n, force);
    for (int i = 0; i < in.n; i++) free(in.v[i]);
    free(in.v);
    ps_report_opts o = {.kinds = kinds, .output = output, .title = title, .reference = reference,
                        .reader_suffix = ".ini", .reader = read_machine, .quiet = quiet};
    if (!rc && ps_report_page(argv + 1, n, &o, err, sizeof err)) rc = ps_fail(2, "%s", err);
    free(def);
    return rc;
}
