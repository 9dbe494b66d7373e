/* cmd_report.c - 'parscope report' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_report(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'report' is not available in this build");
}
