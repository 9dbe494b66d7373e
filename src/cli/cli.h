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
#include "util/output.h"

/* Prints "parscope: MESSAGE" to stderr and returns status. */
int ps_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The one check of a command's outputs before it does anything
 * (util/output.h, ps_outputs_check): each can be written, an existing
 * result is not replaced without force, none is one of the inputs, output
 * directories are created and locked.  0, or 2 after a usage message naming
 * the option. */
int ps_check_outputs(const ps_opt_cmd *c, const ps_output_spec *outs, int nouts, const char *const *inputs,
                     int ninputs, int force);
/* The same for one output file and no inputs. */
int ps_check_new_output(const ps_opt_cmd *c, const char *option, const char *path, int force);

/* The launcher template a command would use (--launcher, else
 * PARSCOPE_LAUNCHER) checked before anything is built or launched: its
 * words and placeholders.  0, or 2 after a usage message naming the option
 * or variable and an unknown placeholder. */
int ps_check_launcher(const ps_opt_cmd *c, const char *tmpl);

/* Where a command's text goes: standard output, or standard error when its
 * result goes to standard output (-o -), so that stays one clean document. */
FILE *ps_text_out(const char *output);

#endif
