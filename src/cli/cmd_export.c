/* cmd_export.c - 'parscope export': a trace for other tools (OTF2, Perfetto, CSV). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/export.h"
#include "trace/trace.h"
#include "util/util.h"

static const char export_help[] =
    "usage: parscope export TRACE --format otf2|perfetto|csv [-o OUT]\n"
    "\n"
    "Writes a parscope trace (a trace.pst file, or the directory holding it) for\n"
    "other tools. Times start at the run's start (the earliest rank's begin).\n"
    "\n"
    "  -f, --format F    otf2      an OTF2 archive directory (Vampir, otf2-print): one\n"
    "                              location per rank, MPI calls as MPI names them\n"
    "                              (MPI_Isend, MPI_Wait, ...) inside their construct's\n"
    "                              region, send/receive records with request ids,\n"
    "                              barriers and reductions as collectives, 1 ns ticks\n"
    "                    perfetto  Chrome/Perfetto trace JSON (ui.perfetto.dev): a lane\n"
    "                              per rank, a slice per event, a flow arrow per\n"
    "                              message from its send's start to its receive's\n"
    "                              end, microseconds\n"
    "                    csv       one line per event, seconds, bytes and flops in\n"
    "                              their own columns, message and request ids\n"
    "  -o, --output OUT  where to write (default: beside the trace file, TRACE.otf2/,\n"
    "                    TRACE.perfetto.json or TRACE.csv); '-' is standard output\n"
    "                    (perfetto and csv). An existing OTF2 archive is replaced;\n"
    "                    any other existing directory is left alone.\n"
    "  -q, --quiet       do not say what was written\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage or an unreadable trace.\n";

int ps_cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *format = NULL, *output = NULL;
    int quiet = 0, c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "f:o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'f': format = optarg; break;
        case 'o': output = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(export_help, stdout); return 0;
        default:
            fputs(export_help, stderr);
            if (optopt) return ps_usage_error("export", "option -%c: missing value or unknown", optopt);
            return ps_usage_error("export", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return ps_usage_error("export", "no TRACE given");
    if (optind + 1 < argc) return ps_usage_error("export", "one TRACE at a time ('%s' is extra)", argv[optind + 1]);
    if (!format) return ps_usage_error("export", "--format otf2|perfetto|csv is required");
    int fmt = ps_export_format_parse(format);
    if (fmt < 0) return ps_usage_error("export", "--format: unknown format '%s' (otf2, perfetto or csv)", format);
    if (fmt == PS_EXPORT_OTF2 && output && !strcmp(output, "-"))
        return ps_usage_error("export", "-o -: an OTF2 archive is a directory, it cannot go to standard output");

    const char *in = argv[optind];
    char err[1024];
    ps_trace *t = NULL;
    if (ps_trace_read(in, &t, err, sizeof err) != 0) return ps_fail(2, "%s", err);

    char def[PATH_MAX];
    if (!output) {
        char path[PATH_MAX];
        ps_trace_path(in, path, sizeof path);
        size_t n = strlen(path);
        if (n > 4 && !strcmp(path + n - 4, ".pst")) path[n - 4] = 0;
        snprintf(def, sizeof def, "%.4000s%s", path,
                 fmt == PS_EXPORT_OTF2 ? ".otf2" : fmt == PS_EXPORT_CSV ? ".csv" : ".perfetto.json");
        output = def;
    }
    size_t events = 0;
    for (int r = 0; r < t->nranks; r++) events += t->rank[r].n;
    int rc = ps_export(t, fmt, output, err, sizeof err);
    ps_trace_free(t);
    if (rc != 0) return ps_fail(2, "%s", err);
    if (!quiet && strcmp(output, "-"))
        fprintf(stderr, "parscope export: wrote %s (%zu events, %s)\n", output, events,
                fmt == PS_EXPORT_OTF2 ? "OTF2 archive; anchor file traces.otf2" : format);
    return 0;
}
