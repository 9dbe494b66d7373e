/*
 * cli.h - the command line: subcommand dispatch (main.c) and what the
 * commands share beyond the option parser (util/options.h).
 *
 * Each subcommand lives in cmd_NAME.c as `int ps_cmd_NAME(int argc, char **argv)`
 * (argv[0] is the subcommand name), declares its options as a ps_opt table
 * and returns the process exit status: 0 success, 1 the measured program
 * failed, 2 bad usage or bad input.  The work itself is done below, by the
 * analyses and the outputs; a command reads options, calls, and reports.
 */
#ifndef PS_CLI_H
#define PS_CLI_H

#include <stdio.h>

#include "util/options.h"

/* Prints "parscope: MESSAGE" to stderr and returns status. */
int ps_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Results are never overwritten silently: 2 (with a usage message naming
 * the option) if `path` exists and `force` is not set, else 0.  Standard
 * output ('-') and devices (/dev/stdout) are always fine. */
int ps_check_new_output(const ps_opt_cmd *c, const char *option, const char *path, int force);

/* Where a command's text goes: standard output, or standard error when its
 * result goes to standard output (-o -), so that stays one clean document. */
FILE *ps_text_out(const char *output);

#endif
