/* cmd_export.c - 'parscope export' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_export(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'export' is not available in this build");
}
