/* cmd_predict.c - 'parscope predict' (not yet part of this build). */
#include "cli/cli.h"

int ps_cmd_predict(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'predict' is not available in this build");
}
