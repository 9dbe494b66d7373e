/* cmd_build.c - 'parscope build': gen, then compile with the MPI compiler wrapper. */
#include "cli/cli.h"
#include "lang/lang.h"

int ps_cmd_build(int argc, char **argv)
{
    return ps_lang_build_command("parscope build", argc, argv, NULL);
}
