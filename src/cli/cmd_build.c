/* cmd_build.c - 'parscope build' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_build(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'build' is not available in this build");
}
