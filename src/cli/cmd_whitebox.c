/*
 * cmd_whitebox.c - 'parscope whitebox': where a workload's time goes, by
 * incremental conditional compilation (seed 002; src/whitebox/).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/result.h"
#include "sim/machine.h"
#include "util/proc.h"
#include "util/util.h"
#include "whitebox/whitebox.h"

static const char about[] =
    "White-box breakdown of a LOOP workload (a built-in one or FILE.loop): builds three\n"
    "kernels of it by conditional compilation - the communication skeleton (comm), the\n"
    "skeleton plus communication-related data movement (data) and the whole program\n"
    "(full) - runs them K times each, interleaved, and subtracts:\n"
    "  communication = T(comm), data movement = T(comm+data) - T(comm),\n"
    "  computation = T(full) - T(comm+data),  overall and per rank.\n";
static const char notes[] =
    "A part smaller than the run-to-run noise can come out negative: it is shown as such,\n"
    "with the trials behind it.  docs/WHITEBOX.md explains the method and the figures.\n"
    "\n"
    "SIGINT or SIGTERM stops the running trial; the trials finished are reported.\n"
    "Exit status: 0 ok, 1 a trial failed (what was measured is still reported), 2 bad usage,\n"
    "130 / 143 interrupted by SIGINT / SIGTERM.\n";

/* Each failed trial, and after an interruption what is missing. */
static void report_failures(const json_t *doc, int trials)
{
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(doc, "failures"), i, f)
        fprintf(stderr, "parscope: %s variant, round %lld: %s\n", json_string_value(json_object_get(f, "variant")),
                (long long)json_integer_value(json_object_get(f, "round")),
                json_string_value(json_object_get(f, "message")));
    if (!json_is_true(json_object_get(doc, "interrupted"))) return;
    fprintf(stderr, "parscope: interrupted (%s); reported are the trials finished so far:", ps_interrupt_name());
    const char *key;
    json_t *var;
    json_object_foreach(json_object_get(doc, "variants"), key, var)
        fprintf(stderr, " %s %lld", key, (long long)json_integer_value(json_object_get(json_object_get(var, "time"), "trials")));
    fprintf(stderr, " of %d each\n", trials);
}

int ps_cmd_whitebox(int argc, char **argv)
{
    ps_whitebox_spec s = {.size = -1, .iterations = -1, .trials = 5};
    s.launch = (ps_launch_opts){.timeout = 300, .quiet = 1};
    const char *output = NULL;
    int force = 0;
    const ps_opt opts[] = {
        PS_OPT_RANKS(&s.ranks, "processes (required)"),
        PS_OPT_SIZE(&s.size, "problem size (default: the workload's)"),
        PS_OPT_ITERATIONS(&s.iterations, "iterations (default: the workload's)"),
        PS_OPT_TRIALS(&s.trials, "trials per variant (default 5)"),
        PS_OPT_BOOL(0, "sections", &s.sections, "also run the build with \\SECTION timing and report the sections"),
        PS_OPT_STR('m', "machine", "FILE", &s.machine_path,
                   "machine model (parscope probe -o FILE, or an installed model's\n"
                   "name such as sp2) for comparing the\n"
                   "communication kernel with latency x messages + bytes / bandwidth"),
        PS_OPT_OUTPUT(&output, "FILE", "result JSON (kind \"whitebox\"; parscope report draws it;\n"
                                       "'-': standard output, the breakdown then goes to standard error)"),
        PS_OPT_FORCE(&force, "replace an existing -o file"),
        PS_OPT_TIMEOUT(&s.launch.timeout, "stop a trial that runs longer (default 300)"),
        PS_OPT_LAUNCHER(&s.launch.launcher, "launcher template, e.g. 'srun -n {ranks}' (or PARSCOPE_LAUNCHER)"),
        PS_OPT_QUIET(&s.quiet, "do not print the breakdown"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = "parscope whitebox", .usage = "WORKLOAD -n RANKS [options]", .about = about,
                            .notes = notes, .opts = opts, .min_args = 1, .max_args = 1, .missing = "no workload given"};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    s.workload = argv[1];
    if (s.ranks <= 0) return ps_opt_error(cmd.name, "-n RANKS is required");
    if (ps_check_launcher(&cmd, s.launch.launcher)) return 2;
    ps_output_spec out = {"-o", output, PS_OUTPUT_FILE};
    const char *inputs[] = {s.workload, s.machine_path};
    if (ps_check_outputs(&cmd, &out, 1, inputs, 2, force)) return 2;
    if (ps_inside_mpi())
        return ps_opt_error(cmd.name, "whitebox builds and launches its kernels itself: start it outside an MPI job");
    char machine[4096], merr[1200];
    if (s.machine_path) {
        if (ps_machine_find(s.machine_path, machine, sizeof machine, merr, sizeof merr))
        {
            /* a directory is not a file a probe can write */
            if (ps_is_dir(s.machine_path)) return ps_opt_error(cmd.name, "-m: %s", merr);
            return ps_opt_error(cmd.name, "-m: %s (measure one with 'parscope probe -o %s')", merr, s.machine_path);
        }
        s.machine_path = machine;
    }
    ps_interrupt_install();
    s.output = output;
    json_t *doc = NULL;
    char err[2048];
    rc = ps_whitebox_run(&s, &doc, err, sizeof err);
    if (rc == 2 && ps_interrupted()) {
        fprintf(stderr, "parscope: interrupted (%s) while building the kernels: nothing measured, nothing written\n",
                ps_interrupt_name());
        return ps_interrupt_status();
    }
    if (rc == 2) return ps_fail(2, "%s", err);
    report_failures(doc, s.trials);
    if (!s.quiet) ps_whitebox_print(doc, ps_text_out(output));
    int written = output && ps_result_write(output, doc, err, sizeof err) == 0;
    if (output && !written) {
        fprintf(stderr, "parscope: %s\n", err);
        rc = rc ? rc : 1;
    }
    /* a stop after the last trial ended: the measurement is whole, and the stop still said */
    if (ps_interrupted() && !json_is_true(json_object_get(doc, "interrupted")))
        fprintf(stderr, "parscope: interrupted (%s) after the last trial: the measurement is whole%s\n",
                ps_interrupt_name(), written ? ", and its result is written" : "");
    json_decref(doc);
    return ps_interrupted() ? ps_interrupt_status() : rc;
}
