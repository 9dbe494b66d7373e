/*
 * tree_program.c - the tree constructs move the right data whatever the
 * tree's mapping onto ranks (--tree-order): a vector of N doubles, part r
 * = [N*r/P, N*(r+1)/P) belonging to rank r, is distributed from rank 0,
 * changed by every rank in its own part, collected back, and broadcast.
 * Prints "tree: ok" on rank 0, or names what went wrong and exits 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "parscope/loop.h"

#define N 37 /* not a multiple of the rank count: parts differ in size */

int main(int argc, char **argv)
{
    ps_set_args(&argc, &argv);
    ps_init(0);
    int me = ps_rank(), p = ps_size(), bad = 0;
    double v[N];
    for (int i = 0; i < N; i++) v[i] = me == 0 ? i : NAN;
    ps_tree_distrib_vec(v, sizeof(double), N);
    long lo = (long)N * me / p, hi = (long)N * (me + 1) / p;
    for (long i = lo; i < hi; i++)
        if (v[i] != (double)i) {
            fprintf(stderr, "rank %d: after the distribution v[%ld] = %g\n", me, i, v[i]);
            bad = 1;
        }
    for (long i = lo; i < hi; i++) v[i] = 1000.0 * me + (double)i;
    ps_tree_collect_vec(v, sizeof(double), N);
    if (me == 0)
        for (int r = 0; r < p; r++)
            for (long i = (long)N * r / p; i < (long)N * (r + 1) / p; i++)
                if (v[i] != 1000.0 * r + (double)i) {
                    fprintf(stderr, "rank 0: after the collection v[%ld] = %g, want %g\n", i, v[i], 1000.0 * r + i);
                    bad = 1;
                }
    double b[3] = {me == 0 ? 1.5 : 0, me == 0 ? -2.5 : 0, me == 0 ? 42 : 0};
    ps_tree_bcast(b, sizeof b);
    if (b[0] != 1.5 || b[1] != -2.5 || b[2] != 42) {
        fprintf(stderr, "rank %d: the broadcast gave %g %g %g\n", me, b[0], b[1], b[2]);
        bad = 1;
    }
    double any = bad;
    ps_allreduce_max(&any, 1, PS_C_REDUCE);
    if (me == 0 && any == 0) printf("tree: ok\n");
    ps_finalize();
    return any != 0;
}
