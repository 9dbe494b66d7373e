/* cmd_scale.c - 'parscope scale' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_scale(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'scale' is not available in this build");
}
