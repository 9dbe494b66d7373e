/*
 * plan.c - the numbers behind an emulated cluster: link rates, tbf buckets,
 * and which cores each node gets.
 */
#include "emulate/emulate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

int ps_emulate_parse_rate(const char *s, double *bits_per_s)
{
    /* tc's units (tc(8)): bit, kbit, mbit, gbit, tbit are bits per second,
     * bps, kbps, mbps, gbps, tbps bytes per second; decimal multiples */
    static const struct { const char *unit; double factor; } units[] = {
        {"bit", 1}, {"kbit", 1e3}, {"mbit", 1e6}, {"gbit", 1e9}, {"tbit", 1e12},
        {"bps", 8}, {"kbps", 8e3}, {"mbps", 8e6}, {"gbps", 8e9}, {"tbps", 8e12}};
    if (!s || !*s || isspace((unsigned char)*s)) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v <= 0) return -1;
    double factor = 0;
    if (!*end) factor = 1;
    for (size_t i = 0; !factor && i < sizeof units / sizeof units[0]; i++)
        if (!strcasecmp(end, units[i].unit)) factor = units[i].factor;
    if (!factor) return -1;
    *bits_per_s = v * factor;
    return 0;
}

int ps_emulate_parse_bytes(const char *s, long *bytes)
{
    if (!s || !*s || !isdigit((unsigned char)*s)) return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || v <= 0) return -1;
    long mult = 1;
    if (!strcasecmp(end, "k") || !strcasecmp(end, "kb") || !strcasecmp(end, "kib")) mult = 1024;
    else if (!strcasecmp(end, "m") || !strcasecmp(end, "mb") || !strcasecmp(end, "mib")) mult = 1024 * 1024;
    else if (!strcasecmp(end, "g") || !strcasecmp(end, "gb") || !strcasecmp(end, "gib")) mult = 1024L * 1024 * 1024;
    else if (*end) return -1;
    if (v > (1L << 40) / mult) return -1;
    *bytes = v * mult;
    return 0;
}

#define RATE_FORMS "a number with a unit: bit, kbit, mbit, gbit (bits per second) or bps, kbps, mbps, " \
                   "gbps (bytes per second), e.g. 100mbit"
#define BYTE_FORMS "a whole number of bytes, with k, m or g for KiB, MiB, GiB (e.g. 16k)"

int ps_emulate_rate_value(const char *s, double *bits_per_s, char *err, size_t errlen)
{
    if (ps_emulate_parse_rate(s, bits_per_s)) {
        ps_seterr(err, errlen, "'%s' is not a rate: give %s, 8kbit..100gbit", s, RATE_FORMS);
        return -1;
    }
    if (*bits_per_s < PS_EMULATE_MIN_RATE || *bits_per_s > PS_EMULATE_MAX_RATE) {
        ps_seterr(err, errlen, "'%s' is %g bit/s, %s rate, %s (rates 8kbit..100gbit)", s, *bits_per_s,
                  *bits_per_s < PS_EMULATE_MIN_RATE ? "below the slowest" : "above the fastest",
                  *bits_per_s < PS_EMULATE_MIN_RATE ? "8kbit" : "100gbit");
        return -1;
    }
    return 0;
}

int ps_emulate_burst_value(const char *s, long *bytes, char *err, size_t errlen)
{
    if (ps_emulate_parse_bytes(s, bytes)) {
        ps_seterr(err, errlen, "'%s' is not a byte count: give %s, 2048 bytes..1g", s, BYTE_FORMS);
        return -1;
    }
    if (*bytes < PS_EMULATE_MIN_BURST) {
        ps_seterr(err, errlen, "'%s' is %ld bytes, below the smallest bucket, %ld bytes (a full Ethernet frame must "
                  "fit)", s, *bytes, PS_EMULATE_MIN_BURST);
        return -1;
    }
    if (*bytes > PS_EMULATE_MAX_BURST) {
        ps_seterr(err, errlen, "'%s' is %ld bytes, above the largest bucket, 1g = %ld bytes (tc's queue holds 3 "
                  "buckets in a 32-bit byte count)", s, *bytes, PS_EMULATE_MAX_BURST);
        return -1;
    }
    return 0;
}

int ps_emulate_check_burst(long burst, double bits_per_s, char *err, size_t errlen)
{
    double most = bits_per_s / 8 * PS_EMULATE_MAX_BURST_SECONDS;
    if (bits_per_s > 0 && (double)burst > most) {
        ps_seterr(err, errlen, "%ld bytes take %.0f s to fill at %g bit/s; tc counts at most %.0f s of a bucket "
                  "(at this rate at most %.0f bytes): give a smaller --burst or a faster --link", burst,
                  (double)burst / (bits_per_s / 8), bits_per_s, PS_EMULATE_MAX_BURST_SECONDS, floor(most));
        return -1;
    }
    return 0;
}

long ps_emulate_default_burst(double bits_per_s)
{
    double b = bits_per_s / 8 * 1e-3;
    return b < 4096 ? 4096 : (long)ceil(b);
}

int ps_emulate_assign_cores(const int *cpus, int ncpus, int nodes, int per_node, int *out, char *err,
                            size_t errlen)
{
    if (ncpus < 1 || nodes < 1) {
        ps_seterr(err, errlen, "no CPU to run the nodes on");
        return -1;
    }
    if (per_node == 0) per_node = ncpus / nodes > 0 ? ncpus / nodes : 1;
    if (per_node > ncpus) {
        ps_seterr(err, errlen, "--cores-per-node %d: this process may use only %d core%s", per_node, ncpus,
                  ncpus == 1 ? "" : "s");
        return -1;
    }
    for (int k = 0; k < nodes; k++)
        for (int j = 0; j < per_node; j++) out[k * per_node + j] = cpus[(k * per_node + j) % ncpus];
    return per_node;
}
