/*
 * mpi_where.c - where the ranks of an MPI job run, and how fast two of them
 * answer each other.
 *
 *   mpi_where [COUNT]
 * Every rank prints "rank R host H cpus LIST" (the CPUs it may run on, from
 * sched_getaffinity); with COUNT > 0, rank 0 then times COUNT 8-byte round
 * trips with rank 1 (after COUNT/10 unmeasured ones) and prints
 * "rtt MIN_US MEDIAN_US".  Built against Open MPI and, when present, MPICH.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    long count = argc > 1 ? atol(argv[1]) : 0;
    char host[64] = "", line[512];
    gethostname(host, sizeof host - 1);
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    int o = snprintf(line, sizeof line, "rank %d host %s cpus ", me, host);
    int first = 1;
    for (int c = 0; c < CPU_SETSIZE && o < (int)sizeof line - 8; c++)
        if (CPU_ISSET(c, &set)) {
            o += snprintf(line + o, sizeof line - (size_t)o, "%s%d", first ? "" : ",", c);
            first = 0;
        }
    /* one line per rank, in rank order */
    char *all = me == 0 ? malloc((size_t)p * sizeof line) : NULL;
    MPI_Gather(line, sizeof line, MPI_CHAR, all, sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (me == 0) {
        for (int r = 0; r < p; r++) printf("%s\n", all + (size_t)r * sizeof line);
        free(all);
    }
    if (count > 0 && p > 1 && me < 2) {
        char b[8] = {0};
        long warm = count / 10 + 1;
        double *t = me == 0 ? calloc((size_t)count, sizeof *t) : NULL;
        for (long i = -warm; i < count; i++) {
            if (me == 0) {
                double t0 = MPI_Wtime();
                MPI_Send(b, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(b, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (i >= 0) t[i] = MPI_Wtime() - t0;
            } else {
                MPI_Recv(b, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(b, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        if (me == 0) {
            qsort(t, (size_t)count, sizeof *t, cmp_double);
            printf("rtt %.2f %.2f\n", t[0] * 1e6, t[count / 2] * 1e6);
            free(t);
        }
    }
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
