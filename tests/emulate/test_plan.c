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
    CHECK(ps_emulate_parse_bytes("1g", &b) == 0 && b == 1L << 30);
    const char *badb[] = {"", "k", "-1", "0", "1.5k", "16q", "99999999999999999999"};
    for (size_t i = 0; i < sizeof badb / sizeof badb[0]; i++)
        CHECK(ps_emulate_parse_bytes(badb[i], &b) == -1, "'%s' should not parse", badb[i]);
}

/* --link and --burst: a bad value's message says what is accepted and the limit */
TEST_IMPL(emulate_option_messages)
{
    char err[512];
    double r;
    long b;
    CHECK(ps_emulate_rate_value("fast", &r, err, sizeof err) == -1 && strstr(err, "'fast' is not a rate: give a number") &&
          strstr(err, "kbit") && strstr(err, "mbps") && strstr(err, "8kbit..100gbit"), "%s", err);
    CHECK(ps_emulate_rate_value("1tbit", &r, err, sizeof err) == -1 && strstr(err, "above the fastest rate, 100gbit"), "%s", err);
    CHECK(ps_emulate_rate_value("1bit", &r, err, sizeof err) == -1 && strstr(err, "below the slowest rate, 8kbit"), "%s", err);
    CHECK(ps_emulate_rate_value("100gbit", &r, err, sizeof err) == 0 && ps_emulate_rate_value("8kbit", &r, err, sizeof err) == 0);
    /* '1g' used to read "is not a byte count >= 2048" */
    CHECK(ps_emulate_burst_value("1g", &b, err, sizeof err) == 0 && b == PS_EMULATE_MAX_BURST, "%s", err);
    CHECK(ps_emulate_burst_value("2g", &b, err, sizeof err) == -1 && strstr(err, "above the largest bucket, 1g"), "%s", err);
    CHECK(ps_emulate_burst_value("1x", &b, err, sizeof err) == -1 && strstr(err, "with k, m or g for KiB, MiB, GiB") &&
          strstr(err, "2048 bytes..1g"), "%s", err);
    CHECK(ps_emulate_burst_value("1.5k", &b, err, sizeof err) == -1 && strstr(err, "a whole number of bytes"), "%s", err);
    CHECK(ps_emulate_burst_value("100", &b, err, sizeof err) == -1 && strstr(err, "below the smallest bucket, 2048"), "%s", err);
    /* the bucket must fill within tc's 32-bit tick count */
    CHECK(ps_emulate_check_burst(1 << 20, 8e3, err, sizeof err) == -1 && strstr(err, "at most 256000 bytes"), "%s", err);
    CHECK(ps_emulate_check_burst(256000, 8e3, err, sizeof err) == 0 && ps_emulate_check_burst(1L << 30, 1e9, err, sizeof err) == 0);
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
