/*
 * cmd_probe.c - 'parscope probe': ping-pong sweep and BSP r, g, l; writes a
 * machine model, a result JSON and SVG plots (docs/PROBE.md).
 *
 * Outside an MPI job it launches itself ("parscope probe --rank-side --raw
 * FILE ...") on the ranks; rank 0 writes the raw samples there, and this
 * process analyses them.  Inside an MPI job the ranks measure and rank 0
 * analyses directly.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwloc.h>
#include <jansson.h>

#include "cli/cli.h"
#include "launch/launch.h"
#include "launch/noise.h"
#include "probe/probe.h"
#include "sim/machine.h"
#include "util/util.h"

static const char probe_help[] =
    "usage: parscope probe [-n RANKS] [-o machine.ini] [--quick] [--json FILE] [--svg-dir DIR]\n"
    "\n"
    "Measures this machine and writes its model: a ping-pong between ranks 0 and 1\n"
    "(1 B .. 4 MiB, latency, bandwidth, Hockney fit), BSP r from DAXPY and g, l from a\n"
    "full h-relation on all ranks, each repeated three times (the best two must agree).\n"
    "\n"
    "  -n, --ranks N      ranks for the BSP measurements (default: the cores, at least 2)\n"
    "  -o, --output FILE  machine model (default: machine.ini)\n"
    "      --force        replace an existing machine model or --json file\n"
    "      --quick        a shorter budget: seconds instead of more than a minute (announced at the start)\n"
    "      --json FILE    the result JSON with every sample (\"kind\": \"probe\")\n"
    "      --svg-dir DIR  plots (default: the directory of the machine model)\n"
    "      --launcher T   launcher template, e.g. 'srun -n {ranks}' (or PARSCOPE_LAUNCHER)\n"
    "      --timeout SEC  stop the measurement after SEC seconds (default 60 quick, 300 full)\n"
    "  -q, --quiet        do not print the summary\n"
    "\n"
    "Inside an MPI job (mpirun -n 2 parscope probe) the ranks of that job are used.\n"
    "Exit status: 0 ok, 1 the measurement failed, 2 bad usage or input.\n";

typedef struct probe_args {
    ps_probe_opts po;
    const char   *output, *json, *svg_dir, *launcher, *raw;
    double        timeout;
    int           rank_side, quiet, force;
} probe_args;

static int default_ranks(void)
{
    hwloc_topology_t t;
    int cores = 0;
    if (hwloc_topology_init(&t) == 0) {
        if (hwloc_topology_load(t) == 0) cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
        hwloc_topology_destroy(t);
    }
    return cores < 2 ? 2 : cores;
}

static int parse(int argc, char **argv, probe_args *a)
{
    enum { O_QUICK = 256, O_TINY, O_JSON, O_SVG, O_LAUNCHER, O_TIMEOUT, O_RANKSIDE, O_RAW, O_HELP, O_FORCE };
    static const struct option longopts[] = {
        {"ranks", required_argument, 0, 'n'},    {"output", required_argument, 0, 'o'},
        {"quick", no_argument, 0, O_QUICK},      {"tiny", no_argument, 0, O_TINY},
        {"json", required_argument, 0, O_JSON},  {"svg-dir", required_argument, 0, O_SVG},
        {"launcher", required_argument, 0, O_LAUNCHER}, {"timeout", required_argument, 0, O_TIMEOUT},
        {"rank-side", no_argument, 0, O_RANKSIDE}, {"raw", required_argument, 0, O_RAW},
        {"quiet", no_argument, 0, 'q'},          {"help", no_argument, 0, O_HELP},
        {"force", no_argument, 0, O_FORCE},
        {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    a->po.mode = PS_PROBE_FULL;
    a->output = "machine.ini";
    a->timeout = -1;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":n:o:q", longopts, NULL)) != -1) {
        long v;
        switch (c) {
        case 'n':
            if (ps_parse_long(optarg, 2, 4096, &v) != 0)
                return ps_usage_error("probe", "-n: expected a number of ranks from 2 to 4096, got '%s'", optarg);
            a->po.ranks = (int)v;
            break;
        case 'o': a->output = optarg; break;
        case 'q': a->quiet = 1; break;
        case O_FORCE: a->force = 1; break;
        case O_QUICK: a->po.mode = PS_PROBE_QUICK; break;
        case O_TINY: a->po.mode = PS_PROBE_TINY; break;   /* hidden: the test suite's budget */
        case O_JSON: a->json = optarg; break;
        case O_SVG: a->svg_dir = optarg; break;
        case O_LAUNCHER: a->launcher = optarg; break;
        case O_TIMEOUT:
            if (ps_parse_double(optarg, &a->timeout) != 0 || a->timeout <= 0)
                return ps_usage_error("probe", "--timeout: expected seconds > 0, got '%s'", optarg);
            break;
        case O_RANKSIDE: a->rank_side = 1; break;
        case O_RAW: a->raw = optarg; break;
        case O_HELP: fputs(probe_help, stdout); return -1;
        case ':': return ps_usage_error("probe", "option '%s' needs a value", argv[optind - 1]);
        default: return ps_usage_error("probe", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return ps_usage_error("probe", "unexpected argument '%s'", argv[optind]);
    if (!*a->output) return ps_usage_error("probe", "-o: empty file name");
    if (a->timeout < 0) a->timeout = a->po.mode == PS_PROBE_FULL ? 300 : 60;
    if (a->rank_side && !a->raw) return ps_usage_error("probe", "--rank-side needs --raw FILE");
    return 0;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return ps_xstrdup(".");
    if (slash == path) return ps_xstrdup("/");
    return ps_xasprintf("%.*s", (int)(slash - path), path);
}

/* Analysis and outputs: everything is computed before anything is written. */
static int finish(const probe_args *a, const json_t *raw)
{
    char err[1024];
    ps_machine m;
    json_t *doc = ps_probe_analyze(raw, &m, err, sizeof err);
    if (!doc) return ps_fail(1, "probe: %s", err);
    int rc = 0;
    if (ps_machine_save(a->output, &m, err, sizeof err) != 0) rc = ps_fail(1, "%s", err);
    if (rc == 0 && a->json) {
        char *text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        if (!text || ps_write_file(a->json, text, strlen(text), err, sizeof err) != 0)
            rc = ps_fail(1, "%s", text ? err : "cannot encode the probe result as JSON");
        free(text);
    }
    char *svg = a->svg_dir ? ps_xstrdup(a->svg_dir) : dir_of(a->output);
    if (rc == 0 && ps_probe_write_svgs(doc, svg, err, sizeof err) != 0) rc = ps_fail(1, "%s", err);
    if (rc == 0 && !a->quiet) {
        ps_probe_print(doc, stdout);
        printf("\nwrote %s%s%s, plots in %s/ (pingpong_time.svg, pingpong_bandwidth.svg, hrelation.svg)\n",
               a->output, a->json ? " and " : "", a->json ? a->json : "", svg);
    }
    free(svg);
    json_decref(doc);
    return rc;
}

static int write_raw(const char *path, const json_t *raw)
{
    char err[512];
    char *text = json_dumps(raw, JSON_COMPACT | JSON_REAL_PRECISION(17));
    int rc = text ? ps_write_file(path, text, strlen(text), err, sizeof err) : -1;
    if (rc != 0) fprintf(stderr, "parscope: %s\n", text ? err : "cannot encode the raw probe data");
    free(text);
    return rc;
}

int ps_cmd_probe(int argc, char **argv)
{
    probe_args a;
    int prc = parse(argc, argv, &a);
    if (prc != 0) return prc < 0 ? 0 : prc;
    char err[1024] = "";

    if (a.rank_side || ps_inside_mpi()) {
        json_t *raw = NULL;
        int rc = ps_probe_rank_side(&a.po, &raw, err, sizeof err);
        if (rc != 0) {
            if (err[0]) fprintf(stderr, "parscope: probe: %s\n", err);
            return 2;
        }
        if (!raw) return 0;   /* not rank 0 */
        int out = a.rank_side ? (write_raw(a.raw, raw) == 0 ? 0 : 1) : finish(&a, raw);
        json_decref(raw);
        return out;
    }

    /* earlier results are not replaced silently; and the output directories
     * are made now: minutes of measurement must not end in "cannot write" */
    if (ps_check_new_output("probe", "-o", a.output, a.force) || ps_check_new_output("probe", "--json", a.json, a.force))
        return 2;
    {
        const char *targets[3] = {a.output, a.json, NULL};
        for (int i = 0; i < 3; i++) {
            char *d = i < 2 ? (targets[i] ? dir_of(targets[i]) : NULL) : (a.svg_dir ? ps_xstrdup(a.svg_dir) : NULL);
            if (d && ps_mkdirs(d, err, sizeof err) != 0) {
                free(d);
                return ps_fail(2, "%s", err);
            }
            if (d && access(d, W_OK) != 0) {
                int rc = ps_fail(2, "%s: cannot write there", d);
                free(d);
                return rc;
            }
            free(d);
        }
    }
    if (!a.po.ranks) a.po.ranks = default_ranks();
    char *tmp = ps_mktempdir("parscope-probe", err, sizeof err);
    if (!tmp) return ps_fail(1, "%s", err);
    char *rawpath = ps_xasprintf("%s/raw.json", tmp);
    static const char *modes[] = {"--tiny", "--quick", NULL};
    char *av[8];
    int n = 0;
    av[n++] = (char *)ps_self_exe();
    av[n++] = "probe";
    av[n++] = "--rank-side";
    av[n++] = "--raw";
    av[n++] = rawpath;
    if (modes[a.po.mode]) av[n++] = (char *)modes[a.po.mode];
    av[n] = NULL;
    ps_launch_opts lo = {.ranks = a.po.ranks, .launcher = a.launcher, .timeout = a.timeout, .quiet = 1};
    ps_launch_result lr;
    if (!a.quiet) {
        fprintf(stderr, "parscope probe: measuring on %d ranks (%s, about %.0f s)...\n", a.po.ranks,
                ps_probe_budget_for(a.po.mode)->name, ps_probe_budget_seconds(a.po.mode));
    }
    ps_noise_sample before, after;
    ps_noise_take(&before, 1);
    int lrc = ps_launch(&lo, av, &lr);
    ps_noise_take(&after, 1);
    int rc;
    if (lrc == 2) {
        rc = ps_fail(2, "probe: %s", lr.message);
    } else if (lrc != 0) {
        rc = ps_fail(1, "probe: %s", lr.message);
    } else {
        json_error_t je;
        json_t *raw = json_load_file(rawpath, 0, &je);
        if (!raw) rc = ps_fail(1, "probe: the ranks left no measurements (%s: %s)", rawpath, je.text);
        else {
            json_object_set_new(raw, "noise", ps_noise_json(&before, &after));
            rc = finish(&a, raw);
            json_decref(raw);
        }
    }
    free(rawpath);
    ps_rmtree(tmp);
    free(tmp);
    return rc;
}
