/* cmd_gen.c - 'parscope gen': a LOOP program to C (the work is in src/lang). */
#include "cli/cli.h"
#include "lang/lang.h"

int ps_cmd_gen(int argc, char **argv)
{
    return ps_lang_gen_command("parscope gen", argc, argv);
}
