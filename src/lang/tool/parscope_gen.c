/* parscope_gen.c - the build's own LOOP generator (no MPI): turns
 * workloads/NAME.loop into the C compiled into the parscope binary. */
#include "lang/lang.h"

int main(int argc, char **argv)
{
    return ps_lang_gen_command("parscope-gen", argc, argv);
}
