/* cmd_probe.c - 'parscope probe' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_probe(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'probe' is not available in this build");
}
