/* cmd_compare.c - 'parscope compare' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_compare(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'compare' is not available in this build");
}
