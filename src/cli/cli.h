/*
 * cli.h - the command line: subcommand dispatch, shared options, progress.
 *
 * Each subcommand lives in cmd_NAME.c as `int ps_cmd_NAME(int argc, char **argv)`
 * (argv[0] is the subcommand name) and returns the process exit status:
 * 0 success, 1 the measured program failed, 2 bad usage or bad input.
 */
#ifndef PS_CLI_H
#define PS_CLI_H

#include <stdio.h>

typedef struct ps_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis;   /* one line: "probe [-n RANKS] [-o machine.ini] [--quick]" */
    const char *summary;    /* what it does, one line */
} ps_command;

extern const ps_command ps_commands[];

/* Prints "parscope CMD: MESSAGE" and "Try 'parscope CMD --help'." to stderr,
 * returns 2. */
int ps_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "parscope: MESSAGE" to stderr and returns status. */
int ps_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/* Results are never overwritten silently: 2 (with a usage message naming
 * the option) if `path` exists and `force` is not set, else 0.  Devices
 * (/dev/stdout) are always fine. */
int ps_check_new_output(const char *cmd, const char *option, const char *path, int force);

/* Options shared by the commands that run workloads. Parse with
 * ps_common_option(); returns 1 if it consumed the option, 0 if not, -1 on a
 * bad value (message already printed). */
typedef struct ps_common_opts {
    int         ranks;        /* -n */
    long        size;         /* -s, -1 = workload default */
    long        iterations;   /* -i, -1 = workload default */
    int         trials;       /* --trials */
    const char *trace_dir;    /* --trace */
    const char *output;       /* -o */
    double      timeout;      /* --timeout seconds */
    const char *launcher;     /* --launcher */
    int         quiet;        /* -q */
} ps_common_opts;

void ps_common_defaults(ps_common_opts *o);

#endif
