/* cmd_whitebox.c - 'parscope whitebox' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_whitebox(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'whitebox' is not available in this build");
}
