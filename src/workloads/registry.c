/* registry.c - the table of built-in workloads (see workloads.h). */
#include "workloads/workloads.h"

#include <stddef.h>
#include <string.h>

/* Every entry is linked in: the LOOP workloads are generated from
 * workloads/NAME.loop by the build (cmake/workloads.cmake, which also checks
 * that each .loop file has an entry here), clue is C (clue.c). */
#define PS_DECLARE(n)                           \
    int ps_workload_##n##_main(int, char **);   \
    extern const char *const ps_workload_##n##_source;

PS_DECLARE(fingerprint)
PS_DECLARE(cg)
PS_DECLARE(mmm_s)
PS_DECLARE(mmm_a)
PS_DECLARE(red_black)
int ps_workload_clue_main(int, char **);
PS_DECLARE(adi)
PS_DECLARE(psrs)
PS_DECLARE(lu_skel)
PS_DECLARE(sp_skel)
PS_DECLARE(fft)

#define PS_ENTRY(n) ps_workload_##n##_main, &ps_workload_##n##_source

/* Defaults from the LOOP seed's Table 1 (fp 100, cg 256/8, mmm 256,
 * red_black 1024/5); the others from their own seeds. */
const ps_workload ps_workloads[] = {
    {"fingerprint", "fp", PS_ENTRY(fingerprint), 100, 100,
     "scalar products, then multi-broadcasts of 1, 500 and 1000 bytes between visible syncs"},
    {"cg", NULL, PS_ENTRY(cg), 256, 8, "parallel conjugate gradient"},
    {"mmm_s", NULL, PS_ENTRY(mmm_s), 256, 1, "block matrix multiply, B blocks rotated synchronously"},
    {"mmm_a", NULL, PS_ENTRY(mmm_a), 256, 1, "block matrix multiply, B block rotation overlapped"},
    {"red_black", NULL, PS_ENTRY(red_black), 1024, 5, "red-black relaxation with ring exchanges"},
    {"clue", NULL, ps_workload_clue_main, NULL, 0, 0, "CLUE cellular automaton (grid and iterations chosen from the machine)"},
    {"adi", NULL, PS_ENTRY(adi), 100, 10, "alternating-direction implicit solver"},
    {"psrs", NULL, PS_ENTRY(psrs), 1000000, 1, "parallel sort by regular sampling"},
    {"lu_skel", NULL, PS_ENTRY(lu_skel), 32, 10, "NAS LU communication skeleton: pipelined 2-D wavefront of 40-byte messages"},
    {"sp_skel", NULL, PS_ENTRY(sp_skel), 16, 10, "NAS SP communication skeleton: face exchanges of 5 N^2 doubles"},
    {"fft", NULL, PS_ENTRY(fft), 256, 1, "2-D FFT of an n x n complex grid, rows per rank, all-to-all transpose"},
    {NULL, NULL, NULL, NULL, 0, 0, NULL}};

const ps_workload *ps_workload_find(const char *name)
{
    if (!name) return NULL;
    for (const ps_workload *w = ps_workloads; w->name; w++)
        if (!strcmp(w->name, name) || (w->alias && !strcmp(w->alias, name))) return w;
    return NULL;
}
