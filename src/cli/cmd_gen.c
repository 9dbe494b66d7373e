/* cmd_gen.c - 'parscope gen' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_gen(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'gen' is not available in this build");
}
