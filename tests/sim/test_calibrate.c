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
#include "sim/stream.h"
#include "trace/trace.h"

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

/* \DATA_MOVE's copies: a WORK of the construct DATA_MOVE counts bytes.  From
 * the model, 2n bytes of memory traffic at the 12 r bytes/s a DAXPY rate r
 * implies (in cache while source and destination fit it); calibrated, the
 * measured price per byte, moved across the cache like a kernel's; without
 * a memory rate nothing, and the result counts the bytes it could not price.
 * Two ranks of one node copying at once share the memory (contention 1.5). */
TEST_IMPL(data_move_priced)
{
    const char *text = "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\n"
                       "[bsp]\nr_incache = 1e9\nr_outcache = 2.5e8\n[meta]\ncache_L3 = 1048576\n"
                       "[loggops]\nS = 1000\no_post = 0.1e-6\no_done = 0.05e-6\ncontention = 1.5\n"
                       "progress_send = 0\nprogress_recv = 1\nrate = 0\nburst = 0\n"
                       "1 = 1e-6 2e-6 3e-6 0.5e-6\n1000 = 2e-6 4e-6 3e-6 1.5e-6\n";
    ps_machine m;
    char err[512];
    CHECK(ps_machine_parse(text, "mem.ini", &m, err, sizeof err) == 0, "%s", err);
    CHECK(near(ps_sim_work_time(&m, NULL, PS_C_DATA_MOVE, 6000), 6000 / 6e9));
    double big = 3.0 * 1048576; /* 6 MiB of traffic: out of cache */
    CHECK(near(ps_sim_work_time(&m, NULL, PS_C_DATA_MOVE, big), big / (6 * 2.5e8)));
    /* calibrated at 6000 bytes a call, 0.2 ns a byte */
    double price[PS_C_DATA_MOVE + 1] = {0}, per_call[PS_C_DATA_MOVE + 1] = {0};
    price[PS_C_DATA_MOVE] = 2e-10;
    per_call[PS_C_DATA_MOVE] = 6000;
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.construct_flop_time = price;
    o.nconstruct_flop_time = PS_C_DATA_MOVE + 1;
    o.construct_flops_per_call = per_call;
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_DATA_MOVE, 6000), 6000 * 2e-10));
    CHECK(near(ps_sim_work_time(&m, &o, PS_C_DATA_MOVE, big), big * 2e-10 * 4));

    /* two ranks copy 6000 bytes at once: 1 us each, the second to start shares the memory */
    ps_streams *s;
    CHECK(ps_streams_parse_text("ranks 2\nrank 0\n WORK 6000 construct DATA_MOVE\nrank 1\n WORK 6000 construct "
                                "DATA_MOVE\n",
                                "moves", &s, err, sizeof err) == 0,
          "%s", err);
    ps_sim_result r;
    CHECK(ps_simulate(s, &m, NULL, &r, err, sizeof err) == 0, "%s", err);
    CHECK(near(r.time, 1.5e-6), "%g", r.time);
    CHECK(near(r.rank[0].end + r.rank[1].end, 2.5e-6), "%g %g", r.rank[0].end, r.rank[1].end);
    CHECK(r.unpriced_bytes == 0);
    CHECK(r.trace && r.trace->rank[0].n == 1 && r.trace->rank[0].ev[0].kind == PS_EV_DATA &&
          r.trace->rank[0].ev[0].bytes == 6000 && r.trace->rank[0].ev[0].construct == PS_C_DATA_MOVE);
    CHECK(r.has_sheet && near(r.sheet.rank[0].data_move + r.sheet.rank[1].data_move, 2.5e-6) &&
          r.sheet.rank[0].flops == 0);
    ps_sim_result_free(&r);
    /* a model without a memory rate: the copies cost nothing, and the result says how many bytes */
    m.r_incache = m.r_outcache = 0;
    CHECK(ps_simulate(s, &m, NULL, &r, err, sizeof err) == 0, "%s", err);
    CHECK(r.time == 0 && r.unpriced_bytes == 12000, "%g %g", r.time, r.unpriced_bytes);
    ps_sim_result_free(&r);
    ps_streams_free(s);
}
