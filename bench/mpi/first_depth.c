/*
 * first_depth.c - what a stream of small nonblocking sends costs the first
 * time a process holds that many in flight, against the same stream again.
 *
 * usage: mpiexec -n 2 first_depth [BYTES [ROUNDS [DEPTH...]]]
 *        (defaults: 16 bytes, 3 rounds, depths 16 64 256 1000 2000)
 *
 * For each depth, in the order given, ROUNDS rounds: rank 0 starts DEPTH
 * MPI_Isend of BYTES to rank 1, timing each call, then waits for all; rank 1
 * takes them with blocking MPI_Recv, as the oneway workload's receiver does,
 * and answers with one int.  Rank 0 prints, per round, the round's time per
 * message (from the first send to the answer), the median, mean and 99th
 * percentile of its send calls and how many took over 50 us.  The first
 * round of a depth larger than any before it is where the MPI library grows
 * what it keeps per message in flight; the later rounds are the steady cost.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 100000 };

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Every rank reads the same arguments, so every rank stops on a bad one
 * (rank 0 says which) and the job ends with status 2, without an abort. */
static long arg(int argc, char **argv, int i, long dflt, long lo, long hi)
{
    if (i >= argc)
        return dflt;
    char *end;
    long v = strtol(argv[i], &end, 10);
    if (*end || end == argv[i] || v < lo || v > hi) {
        int me;
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        if (me == 0)
            fprintf(stderr, "first_depth: argument %d: '%s' is not a number %ld..%ld\n", i,
                    argv[i], lo, hi);
        MPI_Finalize();
        exit(2);
    }
    return v;
}

static void round_of(int me, long depth, long bytes, char *buf, MPI_Request *req, double *call,
                     int depth_no, int r)
{
    int answer = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 1) {
        for (long i = 0; i < depth; i++)
            MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&answer, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        return;
    }
    if (me != 0)
        return;
    double t0 = MPI_Wtime();
    for (long i = 0; i < depth; i++) {
        double a = MPI_Wtime();
        MPI_Isend(buf, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &req[i]);
        call[i] = MPI_Wtime() - a;
    }
    MPI_Waitall((int)depth, req, MPI_STATUSES_IGNORE);
    MPI_Recv(&answer, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double per = (MPI_Wtime() - t0) / (double)depth;
    double sum = 0;
    long slow = 0;
    for (long i = 0; i < depth; i++) {
        sum += call[i];
        slow += call[i] > 50e-6;
    }
    qsort(call, (size_t)depth, sizeof *call, by_value);
    long p99 = (long)(0.99 * (double)(depth - 1) + 0.5);
    printf("%6ld %5d %5d %10.2f %10.2f %10.2f %10.2f %6ld\n", depth, depth_no, r, per * 1e6,
           call[depth / 2] * 1e6, sum / (double)depth * 1e6, call[p99] * 1e6, slow);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 2) {
        fprintf(stderr, "first_depth: needs 2 ranks (mpiexec -n 2)\n");
        MPI_Finalize();
        return 2;
    }
    long bytes = arg(argc, argv, 1, 16, 1, 1 << 20);
    long rounds = arg(argc, argv, 2, 3, 1, 100);
    long dflt[] = {16, 64, 256, 1000, 2000};
    long ndepth = argc > 3 ? argc - 3 : 5;
    long *depth = malloc((size_t)ndepth * sizeof *depth);
    for (long d = 0; d < ndepth; d++)
        depth[d] = argc > 3 ? arg(argc, argv, 3 + (int)d, 0, 1, MAX_DEPTH) : dflt[d];
    long most = 1;
    for (long d = 0; d < ndepth; d++)
        most = depth[d] > most ? depth[d] : most;
    char *buf = malloc((size_t)bytes);
    MPI_Request *req = malloc((size_t)most * sizeof *req);
    double *call = malloc((size_t)most * sizeof *call);
    if (!buf || !req || !call || !depth) {
        fprintf(stderr, "first_depth: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, 1, (size_t)bytes);
    if (me == 0)
        printf("%6s %5s %5s %10s %10s %10s %10s %6s\n", "depth", "order", "round", "us/msg",
               "call_med", "call_mean", "call_p99", ">50us");
    for (long d = 0; d < ndepth; d++)
        for (int r = 1; r <= rounds; r++)
            round_of(me, depth[d], bytes, buf, req, call, (int)d + 1, r);
    free(buf);
    free(req);
    free(call);
    free(depth);
    MPI_Finalize();
    return 0;
}
