/* cmd_export.c - 'parscope export': a trace for other tools (OTF2, Perfetto, CSV; src/report/export.c). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/export.h"
#include "trace/trace.h"

static const char about[] =
    "Writes a parscope trace (a trace.pst file, or the directory holding it) for\n"
    "other tools. Times start at the run's start (the earliest rank's begin).\n";

int ps_cmd_export(int argc, char **argv)
{
    const char *format = NULL, *output = NULL;
    int quiet = 0, force = 0, n;
    const ps_opt opts[] = {
        PS_OPT_STR('f', "format", "F",  &format,
                   "otf2      an OTF2 archive directory (Vampir, otf2-print): one\n"
                   "          location per rank, MPI calls as MPI names them\n"
                   "          (MPI_Isend, MPI_Wait, ...) inside their construct's\n"
                   "          region, send/receive records with request ids,\n"
                   "          barriers and reductions as collectives, 1 ns ticks\n"
                   "perfetto  Chrome/Perfetto trace JSON (ui.perfetto.dev): a lane\n"
                   "          per rank, a slice per event, a flow arrow per\n"
                   "          message from its send's start to its receive's\n"
                   "          end, microseconds\n"
                   "csv       one line per event, seconds, bytes and flops in\n"
                   "          their own columns, message and request ids"),
        PS_OPT_OUTPUT(&output, "OUT", "where to write (default: beside the trace file, TRACE.otf2/,\n"
                                      "TRACE.perfetto.json or TRACE.csv); '-' is standard output\n"
                                      "(perfetto and csv). An existing output is replaced only with\n"
                                      "--force; a directory that is not an OTF2 archive never."),
        PS_OPT_FORCE(&force, "replace an existing output (a file, or an OTF2 archive)"),
        PS_OPT_QUIET(&quiet, "do not say what was written"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope export", .usage = "TRACE --format otf2|perfetto|csv [-o OUT]",
                            .about = about, .notes = "Exit status: 0 ok, 2 bad usage or an unreadable trace.\n",
                            .opts = opts, .min_args = 1, .max_args = 1, .missing = "no TRACE given"};
    int rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    if (!format) return ps_opt_error(cmd.name, "--format otf2|perfetto|csv is required");
    int fmt = ps_export_format_parse(format);
    if (fmt < 0) return ps_opt_error(cmd.name, "--format: unknown format '%s' (otf2, perfetto or csv)", format);
    if (fmt == PS_EXPORT_OTF2 && output && !strcmp(output, "-"))
        return ps_opt_error(cmd.name, "-o -: an OTF2 archive is a directory, it cannot go to standard output");

    char err[1024], def[PATH_MAX], path[PATH_MAX], base[PATH_MAX];
    ps_trace *t = NULL;
    ps_trace_path(argv[1], path, sizeof path);
    if (ps_trace_read(argv[1], &t, err, sizeof err) != 0) return ps_fail(2, "%s", err);
    if (!output) {
        snprintf(base, sizeof base, "%s", path);
        size_t len = strlen(base);
        if (len > 4 && !strcmp(base + len - 4, ".pst")) base[len - 4] = 0;
        snprintf(def, sizeof def, "%.4000s%s", base,
                 fmt == PS_EXPORT_OTF2 ? ".otf2" : fmt == PS_EXPORT_CSV ? ".csv" : ".perfetto.json");
        output = def;
    }
    ps_output_spec out = {"-o", output, fmt == PS_EXPORT_OTF2 ? PS_OUTPUT_ARCHIVE : PS_OUTPUT_FILE};
    const char *inputs[] = {path};
    if (ps_check_outputs(&cmd, &out, 1, inputs, 1, force)) {
        ps_trace_free(t);
        return 2;
    }
    size_t events = 0;
    uint64_t lost = 0;
    for (int r = 0; r < t->nranks; r++) {
        events += t->rank[r].n;
        lost += t->rank[r].dropped;
    }
    rc = ps_export(t, fmt, output, err, sizeof err);
    ps_trace_free(t);
    if (rc != 0) return ps_fail(2, "%s", err);
    if (!quiet && strcmp(output, "-"))
        fprintf(stderr, "parscope export: wrote %s (%zu events, %s)\n", output, events,
                fmt == PS_EXPORT_OTF2 ? "OTF2 archive; anchor file traces.otf2" : format);
    /* said even with -q: the export holds only what the trace kept */
    if (lost)
        fprintf(stderr, "parscope export: warning: %s lost %llu events to full trace buffers (a larger "
                        "TRACE_BUF_SIZE keeps them): the export is incomplete%s\n", path, (unsigned long long)lost,
                fmt == PS_EXPORT_CSV ? "" : fmt == PS_EXPORT_OTF2 ? " (the archive's description and property "
                                                                    "PARSCOPE::EVENTS_LOST say so)"
                                                                  : " (otherData.events_lost says so)");
    return 0;
}
