/*
 * faultcost.c - what one page fault costs on this machine, so that a
 * difference in page faults between two white-box kernels can be priced
 * (docs/WHITEBOX.md, "Memory").  In a virtual machine a first touch of
 * memory costs about 10 us, tens of times a native fault; measured, never
 * assumed.
 */
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/util.h"
#include "whitebox/whitebox.h"

static long minor_faults(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : -1;
}

double ps_wb_fault_cost(int pages, int repeats)
{
    long psz = sysconf(_SC_PAGESIZE);
    if (psz <= 0 || pages <= 0 || repeats <= 0) return NAN;
    size_t len = (size_t)pages * (size_t)psz;
    double *cost = ps_xcalloc((size_t)repeats, sizeof *cost);
    for (int k = 0; k < repeats; k++) {
        cost[k] = NAN;
        volatile char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) continue;
        /* small pages, as a program's buffers mostly get: one fault per page */
        madvise((void *)m, len, MADV_NOHUGEPAGE);
        long f0 = minor_faults();
        double t0 = ps_clock();
        for (size_t i = 0; i < len; i += (size_t)psz) m[i] = 1;
        double t1 = ps_clock();
        long f1 = minor_faults();
        munmap((void *)m, len);
        if (f0 >= 0 && f1 > f0) cost[k] = (t1 - t0) / (double)(f1 - f0);
    }
    ps_wb_stat st = ps_wb_stat_of(cost, repeats);
    free(cost);
    return st.median;
}
