/* cmd_characterize.c - 'parscope characterize' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_characterize(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'characterize' is not available in this build");
}
