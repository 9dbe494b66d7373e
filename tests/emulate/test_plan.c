/*
 * test_plan.c - the numbers behind an emulated cluster: rates as tc writes
 * them, byte counts, the default bucket, and the cores each node gets.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emulate/emulate.h"

#include "check.h"

static void rate_is(const char *s, double want)
{
    double v = -1;
    CHECK(ps_emulate_parse_rate(s, &v) == 0, "'%s' should parse", s);
    CHECK(fabs(v - want) <= 1e-9 * want, "'%s' = %g bit/s, want %g", s, v, want);
}

static void cores_are(int ncpus, int nodes, int per, const char *want)
{
    int cpus[16], out[64];
    char err[256] = "", got[256] = "";
    for (int i = 0; i < ncpus; i++) cpus[i] = 2 * i; /* not 0..n-1: the CPUs this process may use */
    int p = ps_emulate_assign_cores(cpus, ncpus, nodes, per, out, err, sizeof err);
    CHECK(p > 0, "%s", err);
    size_t o = 0;
    for (int k = 0; k < nodes && p > 0; k++) {
        o += (size_t)snprintf(got + o, sizeof got - o, "%s", k ? " |" : "|");
        for (int j = 0; j < p; j++) o += (size_t)snprintf(got + o, sizeof got - o, "%s%d", j ? "," : "", out[k * p + j]);
    }
    CHECK(!strcmp(got, want), "%d cpus, %d nodes, %d per node: '%s', want '%s'", ncpus, nodes, per, got, want);
}

/* rates as tc writes them: bits, bytes per second ("bps"), SI prefixes */
TEST_IMPL(emulate_rates)
{
    rate_is("10mbit", 10e6);
    rate_is("100Mbit", 100e6);
    rate_is("1gbit", 1e9);
    rate_is("2.5gbit", 2.5e9);
    rate_is("500kbit", 500e3);
    rate_is("12.5mbps", 100e6); /* tc: bps are bytes per second */
    rate_is("1000000", 1e6);
    rate_is("64bit", 64);
    const char *bad[] = {"", "fast", "10 mbit", "10mb", "-5mbit", "0mbit", "1e400bit", "nanmbit", " 10mbit", "mbit"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v;
        CHECK(ps_emulate_parse_rate(bad[i], &v) == -1, "'%s' should not parse", bad[i]);
    }
}

TEST_IMPL(emulate_bytes)
{
    long b;
    CHECK(ps_emulate_parse_bytes("4096", &b) == 0 && b == 4096);
    CHECK(ps_emulate_parse_bytes("16k", &b) == 0 && b == 16384);
    CHECK(ps_emulate_parse_bytes("2M", &b) == 0 && b == 2 << 20);
    CHECK(ps_emulate_parse_bytes("16kb", &b) == 0 && b == 16384);
    const char *badb[] = {"", "k", "-1", "0", "1.5k", "16q", "99999999999999999999"};
    for (size_t i = 0; i < sizeof badb / sizeof badb[0]; i++)
        CHECK(ps_emulate_parse_bytes(badb[i], &b) == -1, "'%s' should not parse", badb[i]);
}

/* the default bucket: 1 ms of the rate, at least 4 KiB */
TEST_IMPL(emulate_burst)
{
    CHECK(ps_emulate_default_burst(10e6) == 4096);
    CHECK(ps_emulate_default_burst(100e6) == 12500);
    CHECK(ps_emulate_default_burst(1e9) == 125000);
}

/* nodes' cores: disjoint while they fit, shared round robin beyond */
TEST_IMPL(emulate_cores)
{
    cores_are(2, 2, 0, "|0 |2");
    cores_are(4, 2, 0, "|0,2 |4,6");
    cores_are(2, 4, 0, "|0 |2 |0 |2");
    cores_are(3, 2, 0, "|0 |2");
    cores_are(3, 2, 2, "|0,2 |4,0");
    cores_are(8, 3, 2, "|0,2 |4,6 |8,10");
    int cpus[2] = {0, 1}, out[8];
    char err[256] = "";
    CHECK(ps_emulate_assign_cores(cpus, 2, 2, 3, out, err, sizeof err) == -1);
    CHECK(strstr(err, "--cores-per-node 3: this process may use only 2 cores") != NULL, "%s", err);
}
