/* synth.c - synthetic traces with known figures (see synth.h). */
#include "synth.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const names[] = {"NONE",        "USER", "SCALPROD", "VISIBLE_SYNC", "MULTIBCAST0",
                                    "BARRIER",     "DATA_MOVE", "phase <1> & \"two\""};
enum { C_NONE, C_USER, C_SCALPROD, C_VS, C_MB, C_BARRIER, C_DATA, C_SECTION_NAME };

#define MS 1e-3
#define BASE 1000.0

static void ev(ps_trace *t, int r, int kind, int c, double a, double b, uint64_t bytes, int peer, int flags, int aux)
{
    ps_event e = {BASE + a * MS, BASE + b * MS, bytes, peer, peer >= 0 ? 5 : 0, (uint16_t)c, (uint8_t)kind,
                  (uint8_t)flags, (uint32_t)aux};
    if (ps_trace_push(t, r, &e) != 0) {
        fprintf(stderr, "synth: out of memory\n");
        exit(1);
    }
}

ps_trace *synth_small(void)
{
    ps_trace *t = ps_trace_new(3);
    ps_trace_set_constructs(t, names, (int)(sizeof names / sizeof *names));
    /* metadata as the runtime writes it (docs/TRACE_FORMAT.md, "Metadata") */
    ps_trace_set_meta(t, "{\"workload\":\"synthetic <small>\",\"params\":{\"ranks\":3,\"size\":100,"
                         "\"iterations\":1},\"mpi\":\"Golden MPI 1.0\",\"clock\":{\"monotonic_s\":1000.0,"
                         "\"realtime_s\":1700000000.0},\"hardware\":{\"cpu\":\"Golden CPU\",\"cpu_mhz\":2000.0,"
                         "\"cores\":2,\"interconnect\":{\"type\":\"TCP/IP network between 3 hosts\","
                         "\"basis\":\"synthetic\"}},\"structure\":[{\"construct\":\"SCALPROD\",\"args\":[\"n\"],"
                         "\"calls\":[{\"values\":[1000],\"count\":2}]},{\"construct\":\"MULTIBCAST0\","
                         "\"args\":[\"bytes\"],\"calls\":[{\"values\":[100],\"count\":1},{\"values\":[1000],"
                         "\"count\":1}]}]}");
    double ends[3] = {10.0, 10.0, 9.5};
    for (int r = 0; r < 3; r++) {
        t->rank[r].t_begin = BASE;
        t->rank[r].t_end = BASE + ends[r] * MS;
        snprintf(t->rank[r].host, sizeof t->rank[r].host, "node%d", r);
    }
    /* rank 0: idle = 0.4 (recv from 1 waits for its send at 2.6) + 0.1 (recv
     * from 2, send at 3.1) + 0.4 (barrier, last arrival 3.6) = 0.9;
     * overhead = 0.2 (sends) + 0.4 + 0.1 + 0.4 = 1.1; busy = 10 - 2 = 8.0 */
    ev(t, 0, PS_EV_COMPUTE, C_SCALPROD, 0, 2.0, 2000, -1, 0, 0);
    ev(t, 0, PS_EV_MARK, C_VS, 2.0, 2.0, 0, -1, 0, 0);
    ev(t, 0, PS_EV_SEND, C_MB, 2.0, 2.1, 100, 1, PS_EVF_NONBLOCKING, 1); /* request ids in aux */
    ev(t, 0, PS_EV_SEND, C_MB, 2.1, 2.2, 100, 2, PS_EVF_NONBLOCKING, 2);
    ev(t, 0, PS_EV_RECV, C_MB, 2.2, 3.0, 100, 1, 0, 0);
    ev(t, 0, PS_EV_RECV, C_MB, 3.0, 3.2, 100, 2, 0, 0);
    ev(t, 0, PS_EV_BARRIER, C_BARRIER, 3.2, 4.0, 0, -1, 0, 0);
    ev(t, 0, PS_EV_SECTION, C_USER, 0, 4.0, 0, -1, 0, C_SECTION_NAME);
    ev(t, 0, PS_EV_MARK, C_VS, 4.0, 4.0, 0, -1, 0, 0);
    ev(t, 0, PS_EV_COMPUTE, C_SCALPROD, 4.0, 9.0, 5000, -1, 0, 0);
    /* rank 1 */
    ev(t, 1, PS_EV_COMPUTE, C_SCALPROD, 0, 2.5, 2500, -1, 0, 0);
    ev(t, 1, PS_EV_MARK, C_VS, 2.5, 2.5, 0, -1, 0, 0);
    ev(t, 1, PS_EV_RECV, C_MB, 2.5, 2.6, 100, 0, 0, 0);
    ev(t, 1, PS_EV_SEND, C_MB, 2.6, 2.7, 100, 0, 0, 0);
    ev(t, 1, PS_EV_SEND, C_MB, 2.7, 2.8, 1000, 2, 0, 0);
    ev(t, 1, PS_EV_RECV, C_MB, 2.8, 3.3, 100, 2, 0, 0);
    ev(t, 1, PS_EV_BARRIER, C_BARRIER, 3.3, 3.6, 0, -1, 0, 0);
    ev(t, 1, PS_EV_MARK, C_VS, 3.7, 3.7, 0, -1, 0, 0);
    ev(t, 1, PS_EV_COMPUTE, C_SCALPROD, 3.7, 10.0, 6300, -1, 0, 0);
    /* rank 2 */
    ev(t, 2, PS_EV_COMPUTE, C_SCALPROD, 0, 2.9, 2900, -1, 0, 0);
    ev(t, 2, PS_EV_POST, C_MB, 2.9, 2.95, 100, 0, PS_EVF_NONBLOCKING, 1);
    ev(t, 2, PS_EV_MARK, C_VS, 3.0, 3.0, 0, -1, 0, 0);
    ev(t, 2, PS_EV_RECV, C_MB, 3.0, 3.05, 100, 0, PS_EVF_NONBLOCKING, 1);
    ev(t, 2, PS_EV_RECV, C_MB, 3.05, 3.1, 1000, 1, 0, 0);
    ev(t, 2, PS_EV_SEND, C_MB, 3.1, 3.15, 100, 0, PS_EVF_NONBLOCKING, 2);
    ev(t, 2, PS_EV_SEND, C_MB, 3.15, 3.2, 100, 1, PS_EVF_NONBLOCKING, 3);
    ev(t, 2, PS_EV_DATA, C_DATA, 3.2, 3.3, 4096, -1, 0, 0);
    ev(t, 2, PS_EV_WAIT, C_MB, 3.3, 3.35, 0, 0, PS_EVF_NONBLOCKING, 2);
    ev(t, 2, PS_EV_BARRIER, C_BARRIER, 3.6, 3.7, 0, -1, 0, 0);
    ev(t, 2, PS_EV_MARK, C_VS, 3.7, 3.7, 0, -1, 0, 0);
    ev(t, 2, PS_EV_COMPUTE, C_SCALPROD, 3.7, 9.5, 5800, -1, 0, 0);
    return t;
}

ps_trace *synth_ring(int P, long rounds, long sync_every, uint64_t bytes)
{
    ps_trace *t = ps_trace_new(P);
    ps_trace_set_constructs(t, names, (int)(sizeof names / sizeof *names));
    ps_trace_set_meta(t, "{\"workload\":\"synthetic ring\"}");
    const double us = 1e-6;
    for (int r = 0; r < P; r++) {
        t->rank[r].ev = malloc((size_t)rounds * 4 * sizeof(ps_event));
        t->rank[r].cap = (size_t)rounds * 4;
        t->rank[r].t_begin = BASE;
        t->rank[r].t_end = BASE + (double)rounds * 10 * us;
        for (long k = 0; k < rounds; k++) {
            double a = BASE + (double)k * 10 * us;
            /* skewed compute so ranks are not all alike */
            double c = 5 + (double)((r * 7 + k) % 3) * 0.5;
            ps_event e[3] = {
                {a, a + c * us, 100, -1, 0, C_SCALPROD, PS_EV_COMPUTE, 0, 0},
                {a + 6.5 * us, a + 7 * us, bytes, (r + 1) % P, 5, C_MB, PS_EV_SEND, PS_EVF_NONBLOCKING, 0},
                {a + 7 * us, a + 9.5 * us, bytes, (r + P - 1) % P, 5, C_MB, PS_EV_RECV, 0, 0},
            };
            for (int i = 0; i < 3; i++) t->rank[r].ev[t->rank[r].n++] = e[i];
            if (sync_every > 0 && (k + 1) % sync_every == 0) {
                ps_event m = {a + 9.8 * us, a + 9.8 * us, 0, -1, 0, C_VS, PS_EV_MARK, 0, 0};
                t->rank[r].ev[t->rank[r].n++] = m;
            }
        }
    }
    return t;
}
