/*
 * test_calibrate.c - a calibrated kernel's price at another working set:
 * measured per flop at one call size, moved by the machine's in-cache /
 * out-of-cache DAXPY ratio when a call's working set falls on the other side
 * of the last-level cache, unchanged when it stays on the same side, and
 * never moved for computation that implies no working set.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "parscope/parscope.h"
#include "sim/sim.h"

#include "check.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-15 + 1e-9 * fabs(b); }

TEST_IMPL(calibrated_across_cache)
{
    /* r_incache 1 Gflop/s, r_outcache 0.25 Gflop/s, a 1 MiB last-level cache */
    const char *text = "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\n"
                       "[bsp]\nr_incache = 1e9\nr_outcache = 2.5e8\n[meta]\ncache_L3 = 1048576\n";
    ps_machine m;
    char err[512];
    CHECK(ps_machine_parse(text, "cache.ini", &m, err, sizeof err) == 0, "%s", err);
    int n = PS_C_MATPROD + 1 > PS_C_WORK + 1 ? PS_C_MATPROD + 1 : PS_C_WORK + 1;
    double *price = calloc((size_t)n, sizeof *price), *per_call = calloc((size_t)n, sizeof *per_call);
    /* a scalar product measured at n = 1000 (16 KB: in cache), 3 ns a flop */
    price[PS_C_SCALPROD] = 3e-9;
    per_call[PS_C_SCALPROD] = 2000;
    /* a matrix product measured at n = 512 (6 MiB: out of cache), 0.5 ns a flop */
    price[PS_C_MATPROD] = 0.5e-9;
    per_call[PS_C_MATPROD] = 2.0 * 512 * 512 * 512;
    price[PS_C_WORK] = 2e-9;
    per_call[PS_C_WORK] = 100;
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.construct_flop_time = price;
    o.nconstruct_flop_time = n;
    o.construct_flops_per_call = per_call;
    /* the same side of the cache: the measured price */
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_SCALPROD, 2e3), 2e3 * 3e-9));
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_SCALPROD, 2e4), 2e4 * 3e-9)); /* 160 KB */
    /* n = 1e6: 16 MB, out of cache: 4 times the price */
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_SCALPROD, 2e6), 2e6 * 3e-9 * 4),
          "%g", ps_sim_work_time(&m, &o, PS_C_SCALPROD, 2e6));
    /* n = 64: 96 KiB, in cache: a quarter of the out-of-cache price */
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_MATPROD, 2.0 * 64 * 64 * 64), 2.0 * 64 * 64 * 64 * 0.5e-9 / 4));
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_MATPROD, 2.0 * 600 * 600 * 600), 2.0 * 600 * 600 * 600 * 0.5e-9));
    /* \WORK implies no working set */
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_WORK, 1e9), 1e9 * 2e-9));
    /* without the call size it was measured at: the measured price */
    o.construct_flops_per_call = NULL;
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_SCALPROD, 2e6), 2e6 * 3e-9));
    /* a machine without cache figures: the measured price */
    o.construct_flops_per_call = per_call;
    m.r_outcache = 0;
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_SCALPROD, 2e6), 2e6 * 3e-9));
    free(price);
    free(per_call);
}
