/* cmd_scale.c - 'parscope scale' (being written). */
#include "cli/cli.h"

int ps_workload_clue_main(int argc, char **argv);
/* The clue workload lives in ps_core; this reference links it in (the
 * workload table only holds a weak one). */
int (*const ps__clue_entry)(int, char **) = ps_workload_clue_main;

int ps_cmd_scale(int argc, char **argv)
{
    (void)argc; (void)argv;
    return ps_fail(2, "'scale' is not available in this build");
}
