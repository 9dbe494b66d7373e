/*
 * cmd_whitebox.c - 'parscope whitebox': where a workload's time goes, by
 * incremental conditional compilation (seed 002; src/whitebox/).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "launch/launch.h"
#include "report/result.h"
#include "util/proc.h"
#include "util/util.h"
#include "whitebox/whitebox.h"

static const char whitebox_help[] =
    "usage: parscope whitebox WORKLOAD -n RANKS [options]\n"
    "\n"
    "White-box breakdown of a LOOP workload (a built-in one or FILE.loop): builds three\n"
    "kernels of it by conditional compilation - the communication skeleton (comm), the\n"
    "skeleton plus communication-related data movement (data) and the whole program\n"
    "(full) - runs them K times each, interleaved, and subtracts:\n"
    "  communication = T(comm), data movement = T(comm+data) - T(comm),\n"
    "  computation = T(full) - T(comm+data),  overall and per rank.\n"
    "\n"
    "  -n, --ranks N        processes (required)\n"
    "  -s, --size N         problem size (default: the workload's)\n"
    "  -i, --iterations N   iterations (default: the workload's)\n"
    "  -k, --trials K       trials per variant (default 5)\n"
    "      --sections       also run the build with \\SECTION timing and report the sections\n"
    "  -m, --machine FILE   machine model (parscope probe -o FILE) for comparing the\n"
    "                       communication kernel with latency x messages + bytes / bandwidth\n"
    "  -o, --output FILE    result JSON (kind \"whitebox\"; parscope report draws it)\n"
    "      --force          replace an existing -o file\n"
    "      --timeout SEC    stop a trial that runs longer (default 300)\n"
    "      --launcher T     launcher template, e.g. 'srun -n {ranks}' (or PARSCOPE_LAUNCHER)\n"
    "  -q, --quiet          do not print the breakdown\n"
    "\n"
    "A part smaller than the run-to-run noise can come out negative: it is shown as such,\n"
    "with the trials behind it.  docs/WHITEBOX.md explains the method and the figures.\n"
    "\n"
    "Exit status: 0 ok, 1 a trial failed (what was measured is still reported), 2 bad usage.\n";

int ps_cmd_whitebox(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"ranks", required_argument, 0, 'n'},      {"size", required_argument, 0, 's'},
        {"iterations", required_argument, 0, 'i'}, {"trials", required_argument, 0, 'k'},
        {"sections", no_argument, 0, 'S'},         {"machine", required_argument, 0, 'm'},
        {"output", required_argument, 0, 'o'},     {"timeout", required_argument, 0, 't'},
        {"launcher", required_argument, 0, 'L'},   {"quiet", no_argument, 0, 'q'},
        {"force", no_argument, 0, 'F'},            {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    ps_common_opts o;
    ps_common_defaults(&o);
    o.timeout = 300;
    o.trials = 5;
    int sections = 0, force = 0;
    const char *machine = NULL;
    long v;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "n:s:i:k:m:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (ps_parse_long(optarg, 1, 1 << 20, &v))
                return ps_usage_error("whitebox", "-n: '%s' is not a rank count >= 1", optarg);
            o.ranks = (int)v;
            break;
        case 's':
            if (ps_parse_long(optarg, 1, LONG_MAX, &o.size))
                return ps_usage_error("whitebox", "-s: '%s' is not a size >= 1", optarg);
            break;
        case 'i':
            if (ps_parse_long(optarg, 1, LONG_MAX, &o.iterations))
                return ps_usage_error("whitebox", "-i: '%s' is not an iteration count >= 1", optarg);
            break;
        case 'k':
            if (ps_parse_long(optarg, 1, 10000, &v))
                return ps_usage_error("whitebox", "--trials: '%s' is not a count >= 1", optarg);
            o.trials = (int)v;
            break;
        case 'S': sections = 1; break;
        case 'm': machine = optarg; break;
        case 'o': o.output = optarg; break;
        case 't':
            if (ps_parse_double(optarg, &o.timeout) || o.timeout <= 0)
                return ps_usage_error("whitebox", "--timeout: '%s' is not a number of seconds > 0", optarg);
            break;
        case 'L': o.launcher = optarg; break;
        case 'q': o.quiet = 1; break;
        case 'F': force = 1; break;
        case 'h': fputs(whitebox_help, stdout); return 0;
        default:
            fputs(whitebox_help, stderr);
            if (optopt && strchr("nsikmo", optopt))
                return ps_usage_error("whitebox", "option '-%c' needs a value", optopt);
            return ps_usage_error("whitebox", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) {
        fputs(whitebox_help, stderr);
        return ps_usage_error("whitebox", "no workload given");
    }
    const char *workload = argv[optind++];
    if (optind < argc) return ps_usage_error("whitebox", "unexpected argument '%s'", argv[optind]);
    if (o.ranks <= 0) return ps_usage_error("whitebox", "-n RANKS is required");
    if (ps_check_new_output("whitebox", "-o", o.output, force)) return 2;
    if (ps_inside_mpi())
        return ps_usage_error("whitebox", "whitebox builds and launches its kernels itself: start it outside an MPI job");
    if (machine && !ps_file_exists(machine))
        return ps_usage_error("whitebox", "-m: %s: no such file (measure one with 'parscope probe -o %s')", machine,
                              machine);

    ps_whitebox_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.workload = workload;
    spec.ranks = o.ranks;
    spec.size = o.size;
    spec.iterations = o.iterations;
    spec.trials = o.trials;
    spec.sections = sections;
    spec.machine_path = machine;
    spec.launch.launcher = o.launcher;
    spec.launch.timeout = o.timeout;
    spec.launch.quiet = 1;
    spec.quiet = o.quiet;
    ps_interrupt_install();
    json_t *doc = NULL;
    char err[2048];
    int rc = ps_whitebox_run(&spec, &doc, err, sizeof err);
    if (rc == 2) return ps_fail(2, "%s", err);
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(doc, "failures"), i, f)
        fprintf(stderr, "parscope: %s variant, round %lld: %s\n",
                json_string_value(json_object_get(f, "variant")),
                (long long)json_integer_value(json_object_get(f, "round")),
                json_string_value(json_object_get(f, "message")));
    if (!o.quiet) ps_whitebox_print(doc, stdout);
    if (o.output && ps_result_write(o.output, doc, err, sizeof err)) {
        fprintf(stderr, "parscope: %s\n", err);
        rc = rc ? rc : 1;
    }
    if (json_is_true(json_object_get(doc, "interrupted"))) {
        /* say what is missing */
        fprintf(stderr, "parscope: interrupted; reported are the trials finished so far:");
        const char *key;
        json_t *var;
        json_object_foreach(json_object_get(doc, "variants"), key, var)
            fprintf(stderr, " %s %lld", key, (long long)json_integer_value(json_object_get(json_object_get(var, "time"), "trials")));
        fprintf(stderr, " of %d each\n", spec.trials);
    }
    json_decref(doc);
    return rc;
}
