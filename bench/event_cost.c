/* event_cost.c - the cost of recording one trace event in the runtime.
 * Run under MPI with one rank: it times N ps_mark() calls (a timestamp and
 * a record) and N ps_compute() calls (a record only: the caller already has
 * both timestamps), best of 5 repetitions, and prints nanoseconds per event. */
#include <stdio.h>
#include <stdlib.h>

#include "parscope/parscope.h"

int main(int argc, char **argv)
{
    ps_set_args(&argc, &argv);
    const long n = 1000000;
    ps_init(6 * n + 1000);
    double best_mark = 1e9, best_compute = 1e9, best_now = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = ps_now();
        for (long i = 0; i < n; i++) ps_mark(PS_C_USER);
        double t1 = ps_now();
        for (long i = 0; i < n; i++) ps_compute(PS_C_USER, t0, t1, 1);
        double t2 = ps_now();
        volatile double sink = 0;
        for (long i = 0; i < n; i++) sink = sink + ps_now();
        (void)sink;
        double t3 = ps_now();
        if ((t1 - t0) / n < best_mark) best_mark = (t1 - t0) / n;
        if ((t2 - t1) / n < best_compute) best_compute = (t2 - t1) / n;
        if ((t3 - t2) / n < best_now) best_now = (t3 - t2) / n;
    }
    if (ps_rank() == 0) {
        printf("event_record_ns %.1f\n", best_compute * 1e9);
        printf("event_with_timestamp_ns %.1f\n", best_mark * 1e9);
        printf("clock_read_ns %.1f\n", best_now * 1e9);
    }
    ps_finalize();
    return 0;
}
