/* clue_serial W H STEPS SEED TYPE OUT: the serial CLUE grid after STEPS steps,
 * written in the dump format of the clue workload (the reference for the
 * parallel runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/ca.h"

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: clue_serial W H STEPS SEED float|int32|int64|double OUT\n");
        return 2;
    }
    long w = atol(argv[1]), h = atol(argv[2]), steps = atol(argv[3]);
    ps_ca_type t = !strcmp(argv[5], "int32")   ? PS_CA_INT
                   : !strcmp(argv[5], "int64")  ? PS_CA_LONG
                   : !strcmp(argv[5], "double") ? PS_CA_DOUBLE
                                                : PS_CA_FLOAT;
    ps_ca_grid g;
    if (ps_ca_init(&g, t, PS_CA_MOORE, w, h, 0, (uint64_t)atoll(argv[4])) != 0) return 1;
    for (long i = 0; i < steps; i++) {
        ps_ca_wrap_local(&g);
        ps_ca_step_rows(&g, 1, g.h);
        ps_ca_swap(&g);
    }
    FILE *f = fopen(argv[6], "wb");
    if (!f) return 1;
    fprintf(f, "clue-grid 1 %s %ld %ld\n", ps_ca_type_name(t), w, h);
    fwrite(ps_ca_row(&g, 1), 1, ps_ca_row_bytes(&g) * (size_t)h, f);
    return fclose(f) != 0;
}
