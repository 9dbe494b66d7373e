/*
 * sim_speed.c - how fast the simulator runs: events simulated per second,
 * time and peak memory for large streams.
 *
 *   sim_speed ring P K MACHINE      P ranks, K rounds of: SEND right, RECEIVE left, WAIT, WORK
 *   sim_speed tree P MACHINE [DIR]  binomial-tree broadcast of 8 bytes from rank 0 over P ranks
 *                                   (DIR: also save the streams there)
 *   sim_speed file STREAMS MACHINE  a recorded stream file (parscope predict --streams)
 *
 * Prints one line "key=value ..." (instructions, messages, events, seconds,
 * events_per_s, peak_rss_mb, and a digest of every rank's predicted times and
 * counts, to check that a change to the simulator predicts bit for bit the
 * same); no trace is built (SIM_TRACE=1 builds it, and the digest covers it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "sim/sim.h"
#include "sim/stream.h"
#include "util/util.h"

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
}

static double peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* FNV-1a over the bits of every per-rank figure (and the trace, if built). */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t digest(const ps_sim_result *r)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, &r->time, sizeof r->time);
    for (int i = 0; i < r->nranks; i++) {
        const ps_sim_rank *a = &r->rank[i];
        double d[4] = {a->end, a->work, a->comm, a->wait};
        uint64_t u[5] = {a->sent, a->received, a->bytes_sent, a->bytes_received, a->instructions};
        h = fnv(h, d, sizeof d);
        h = fnv(h, u, sizeof u);
        if (r->trace)
            for (size_t k = 0; k < r->trace->rank[i].n; k++) {
                const ps_event *e = &r->trace->rank[i].ev[k];
                double t[2] = {e->t0, e->t1};
                int32_t v[4] = {e->peer, e->tag, e->construct, e->kind};
                h = fnv(h, t, sizeof t);
                h = fnv(h, v, sizeof v);
                h = fnv(h, &e->bytes, sizeof e->bytes);
            }
    }
    return h;
}

static ps_streams *ring(int P, long K)
{
    ps_streams *s = ps_streams_new(P);
    for (int r = 0; r < P; r++)
        for (long k = 0; k < K; k++) {
            ps_insn a = {.op = PS_OP_SEND, .peer = (r + 1) % P, .n = 64};
            ps_insn b = {.op = PS_OP_RECV, .peer = (r + P - 1) % P, .n = 64};
            ps_insn w = {.op = PS_OP_WAIT};
            ps_insn c = {.op = PS_OP_WORK, .n = 1000};
            if (ps_streams_append(s, r, &a) || ps_streams_append(s, r, &b) || ps_streams_append(s, r, &w) ||
                ps_streams_append(s, r, &c)) {
                fprintf(stderr, "out of memory\n");
                exit(1);
            }
        }
    return s;
}

/* Binomial tree: rank r receives from r - 2^k (its highest set bit), then
 * sends to r + 2^j for every 2^j above that bit. */
static ps_streams *tree(int P)
{
    ps_streams *s = ps_streams_new(P);
    for (int r = 0; r < P; r++) {
        int hb = 1;
        if (r > 0) {
            while (hb * 2 <= r) hb *= 2;
            ps_insn in = {.op = PS_OP_BRECV, .peer = r - hb, .n = 8, .construct = 7};
            ps_streams_append(s, r, &in);
            hb *= 2;
        }
        for (long d = hb; r + d < P; d *= 2) {
            ps_insn out = {.op = PS_OP_SEND, .peer = (int)(r + d), .n = 8, .construct = 7};
            ps_streams_append(s, r, &out);
        }
        ps_insn w = {.op = PS_OP_WAIT, .construct = 7};
        ps_streams_append(s, r, &w);
    }
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s ring P K MACHINE | tree P MACHINE [DIR] | file STREAMS MACHINE\n", argv[0]);
        return 2;
    }
    char err[512];
    ps_streams *s = NULL;
    const char *mpath;
    double tg = ps_clock();
    if (!strcmp(argv[1], "ring") && argc >= 5) {
        s = ring(atoi(argv[2]), atol(argv[3]));
        mpath = argv[4];
    } else if (!strcmp(argv[1], "tree")) {
        s = tree(atoi(argv[2]));
        mpath = argv[3];
        if (argc >= 5 && ps_streams_save(s, argv[4], err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
    } else if (!strcmp(argv[1], "file")) {
        if (ps_streams_load(argv[2], &s, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        mpath = argv[3];
    } else {
        fprintf(stderr, "unknown mode %s\n", argv[1]);
        return 2;
    }
    tg = ps_clock() - tg;
    ps_machine m;
    if (ps_machine_load(mpath, &m, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.build_trace = getenv("SIM_TRACE") && atoi(getenv("SIM_TRACE"));
    ps_streams_stats st;
    ps_streams_stats_get(s, &st);
    ps_sim_result r;
    double t0 = ps_clock(), c0 = cpu_s();
    int rc = ps_simulate(s, &m, &o, &r, err, sizeof err);
    double t = ps_clock() - t0, ct = cpu_s() - c0;
    if (rc < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("ranks=%d instructions=%llu messages=%llu events=%llu stream_bytes=%llu bytes_per_instruction=%.2f "
           "setup_s=%.3f sim_wall_s=%.3f sim_cpu_s=%.3f events_per_cpu_s=%.3g predicted_s=%.6g peak_in_flight=%llu peak_rss_mb=%.0f digest=%016llx%s\n",
           s->nranks, (unsigned long long)st.instructions, (unsigned long long)r.messages,
           (unsigned long long)r.events, (unsigned long long)st.encoded_bytes,
           st.instructions ? (double)st.encoded_bytes / (double)st.instructions : 0, tg, t, ct, (double)r.events / ct,
           r.time, (unsigned long long)r.peak_in_flight, peak_mb(), (unsigned long long)digest(&r), rc == 1 ? " DEADLOCK" : "");
    ps_sim_result_free(&r);
    ps_streams_free(s);
    return 0;
}
