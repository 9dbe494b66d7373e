/*
 * cmd_compare.c - 'parscope compare MEASURED.json PREDICTED.json': relative
 * error of a prediction per processor count and per activity.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/result.h"
#include "predict/compare.h"

static const char compare_help[] =
    "usage: parscope compare MEASURED.json PREDICTED.json [-o compare.json]\n"
    "\n"
    "Prints the relative error (predicted - measured) / measured of the execution time\n"
    "(time.min) for every processor count the two results share, and of the three\n"
    "activities of the result sheet (busy, overhead, idle; seconds per rank).\n"
    "Either file may hold one run/prediction or several ({\"points\": [...]}).\n"
    "\n"
    "  -o, --output FILE   write the comparison as JSON\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage or unreadable / unrelated results.\n";

static json_t *load(const char *path)
{
    json_error_t e;
    json_t *d = json_load_file(path, 0, &e);
    if (!d) {
        fprintf(stderr, "parscope compare: %s:%d:%d: %s\n", path, e.line, e.column, e.text);
        return NULL;
    }
    if (!json_is_object(d) || (!json_object_get(d, "points") && !json_object_get(d, "time"))) {
        fprintf(stderr, "parscope compare: %s: not a run or prediction result (no \"time\" or \"points\")\n", path);
        json_decref(d);
        return NULL;
    }
    return d;
}

int ps_cmd_compare(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *output = NULL;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'h': fputs(compare_help, stdout); return 0;
        default:
            fputs(compare_help, stderr);
            return ps_usage_error("compare", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2) {
        fputs(compare_help, stderr);
        return ps_usage_error("compare", "expected two files: MEASURED.json PREDICTED.json");
    }
    json_t *m = load(argv[optind]);
    if (!m) return 2;
    json_t *p = load(argv[optind + 1]);
    if (!p) {
        json_decref(m);
        return 2;
    }
    char err[512];
    json_t *doc = ps_compare_results(m, p, stdout, err, sizeof err);
    int rc = 0;
    if (!doc) {
        rc = ps_fail(2, "compare: %s and %s: %s", argv[optind], argv[optind + 1], err);
    } else if (output && ps_result_write(output, doc, err, sizeof err)) {
        rc = ps_fail(2, "%s", err);
    }
    json_decref(doc);
    json_decref(m);
    json_decref(p);
    return rc;
}
