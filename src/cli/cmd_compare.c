/*
 * cmd_compare.c - 'parscope compare MEASURED.json PREDICTED.json': relative
 * error of a prediction per processor count and per activity (src/predict/compare.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "predict/compare.h"
#include "report/result.h"
#include "trace/json.h"

static const char about[] =
    "Prints the relative error (predicted - measured) / measured of the execution time\n"
    "(time.min) for every processor count the two results share, and of the three\n"
    "activities of the result sheet (busy, overhead, idle; seconds per rank).\n"
    "Either file may hold one run/prediction or several ({\"points\": [...]}).\n";

static json_t *load(const char *path)
{
    char err[4400];
    json_t *d = ps_json_load_path(path, JSON_REJECT_DUPLICATES, err, sizeof err);
    if (!d) {
        fprintf(stderr, "parscope compare: %s\n", err);
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
    const char *output = NULL;
    int force = 0, n;
    const ps_opt opts[] = {
        PS_OPT_OUTPUT(&output, "FILE", "write the comparison as JSON ('-': standard output; the table\n"
                                       "then goes to standard error)"),
        PS_OPT_FORCE(&force, "replace an existing -o file"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope compare", .usage = "MEASURED.json PREDICTED.json [-o compare.json]",
                            .about = about, .notes = "Exit status: 0 ok, 2 bad usage or unreadable / unrelated results.\n",
                            .opts = opts, .min_args = 2, .max_args = 2,
                            .missing = "expected two files: MEASURED.json PREDICTED.json"};
    int rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    ps_output_spec out = {"-o", output, PS_OUTPUT_FILE};
    const char *inputs[] = {argv[1], argv[2]};
    if (ps_check_outputs(&cmd, &out, 1, inputs, 2, force)) return 2;
    rc = 0;
    json_t *m = load(argv[1]), *p = m ? load(argv[2]) : NULL;
    char err[512];
    json_t *doc = p ? ps_compare_results(m, p, ps_text_out(output), err, sizeof err) : NULL;
    if (!p) rc = 2;
    else if (!doc) rc = ps_fail(2, "compare: %s and %s: %s", argv[1], argv[2], err);
    else if (output && ps_result_write(output, doc, err, sizeof err)) rc = ps_fail(2, "%s", err);
    json_decref(doc);
    json_decref(m);
    json_decref(p);
    return rc;
}
