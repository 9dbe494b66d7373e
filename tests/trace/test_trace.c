/* test_trace.c - the trace file, message matching, the sheet's accounting on
 * hand-built traces, and the clock model on synthetic offsets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/clock.h"
#include "trace/sheet.h"
#include "trace/trace.h"
#include "util/util.h"

#include "check.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

static ps_event ev(int kind, double t0, double t1, int peer, int tag, uint64_t bytes)
{
    ps_event e;
    memset(&e, 0, sizeof e);
    e.kind = (uint8_t)kind;
    e.t0 = t0;
    e.t1 = t1;
    e.peer = peer;
    e.tag = tag;
    e.bytes = bytes;
    e.construct = 1;
    return e;
}

/* rank 0: computes 0..1, sends 1.0..1.1 to rank 1; rank 1: receives from
 * 0.5 to 1.2 (so it idles 0.5..1.0 waiting for the send to begin). */
static ps_trace *two_rank_trace(void)
{
    ps_trace *t = ps_trace_new(2);
    const char *names[] = {"NONE", "USER"};
    ps_trace_set_constructs(t, names, 2);
    ps_trace_set_meta(t, "{\"workload\": \"hand\"}");
    ps_event e;
    e = ev(PS_EV_COMPUTE, 0, 1, -1, 0, 1000);
    ps_trace_push(t, 0, &e);
    e = ev(PS_EV_SEND, 1.0, 1.1, 1, 7, 800);
    ps_trace_push(t, 0, &e);
    e = ev(PS_EV_RECV, 0.5, 1.2, 0, 7, 800);
    ps_trace_push(t, 1, &e);
    for (int r = 0; r < 2; r++) {
        t->rank[r].t_begin = 0;
        t->rank[r].t_end = 2;
        snprintf(t->rank[r].host, sizeof t->rank[r].host, "node%d", r);
        t->rank[r].proc.wall = 2.5;
        t->rank[r].proc.minflt = 42;
        t->rank[r].proc.timed_minflt = 17 + r;
        t->rank[r].proc.timed_majflt = 0;
        /* rank 1 could not count cache misses */
        t->rank[r].proc.timed_cache_misses = r ? -1 : 123456;
        /* CPU time and context switches over the timed interval */
        t->rank[r].proc.timed_user_us = 1500000 + r;
        t->rank[r].proc.timed_sys_us = 20 + r;
        t->rank[r].proc.timed_nvcsw = 3;
        t->rank[r].proc.timed_nivcsw = r ? -1 : 5;
    }
    return t;
}

TEST_IMPL(sheet)
{
    ps_trace *t = two_rank_trace();
    ps_sheet s;
    CHECK(ps_sheet_compute(t, &s) == 0, "compute");
    CHECK(NEAR(s.time, 2.0, 1e-12), "time %g", s.time);
    CHECK(NEAR(s.rank[0].busy, 1.9, 1e-12) && NEAR(s.rank[0].overhead, 0.1, 1e-12) && NEAR(s.rank[0].idle, 0, 1e-12),
          "rank 0: %g %g %g", s.rank[0].busy, s.rank[0].overhead, s.rank[0].idle);
    CHECK(NEAR(s.rank[1].busy, 1.3, 1e-12) && NEAR(s.rank[1].overhead, 0.2, 1e-12) && NEAR(s.rank[1].idle, 0.5, 1e-12),
          "rank 1: %g %g %g", s.rank[1].busy, s.rank[1].overhead, s.rank[1].idle);
    CHECK(NEAR(s.busy_pct, 80.0, 1e-9) && NEAR(s.overhead_pct, 7.5, 1e-9) && NEAR(s.idle_pct, 12.5, 1e-9),
          "pct %g %g %g", s.busy_pct, s.overhead_pct, s.idle_pct);
    CHECK(s.messages_sent == 1 && s.bytes_sent == 800 && s.messages_received == 1, "counts");
    CHECK(NEAR(ps_stat_avg(&s.recv_time), 0.7, 1e-12), "recv avg");
    CHECK(s.rank[0].flops == 1000, "flops");
    ps_sheet_free(&s);
    ps_trace_free(t);
}

TEST_IMPL(barrier_idle)
{
    /* three ranks enter a barrier at 1, 2, 3 and leave at 3.1: idle 2, 1, 0 */
    ps_trace *t = ps_trace_new(3);
    for (int r = 0; r < 3; r++) {
        ps_event e = ev(PS_EV_BARRIER, 1.0 + r, 3.1, -1, 0, 0);
        ps_trace_push(t, r, &e);
        t->rank[r].t_begin = 0;
        t->rank[r].t_end = 4;
    }
    ps_sheet s;
    ps_sheet_compute(t, &s);
    for (int r = 0; r < 3; r++) {
        CHECK(NEAR(s.rank[r].idle, 2.0 - r, 1e-12), "barrier idle rank %d: %g", r, s.rank[r].idle);
        CHECK(NEAR(s.rank[r].overhead, 0.1, 1e-12), "barrier overhead rank %d: %g", r, s.rank[r].overhead);
    }
    ps_sheet_free(&s);
    ps_trace_free(t);
}

TEST_IMPL(roundtrip)
{
    char err[512];
    char *dir = ps_mktempdir("pstest", err, sizeof err);
    CHECK(dir != NULL, "%s", err);
    ps_trace *t = two_rank_trace();
    CHECK(ps_trace_write(t, dir, err, sizeof err) == 0, "write: %s", err); /* a directory: DIR/trace.pst */
    ps_trace *u;
    CHECK(ps_trace_read(dir, &u, err, sizeof err) == 0, "read: %s", err);
    if (u) {
        CHECK(u->nranks == 2 && u->nconstructs == 2 && !strcmp(u->constructs[1], "USER"), "header");
        CHECK(!strcmp(u->meta_json, t->meta_json), "meta");
        for (int r = 0; r < 2; r++) {
            CHECK(u->rank[r].n == t->rank[r].n, "n");
            CHECK(memcmp(u->rank[r].ev, t->rank[r].ev, t->rank[r].n * sizeof(ps_event)) == 0, "events differ");
            CHECK(!strcmp(u->rank[r].host, t->rank[r].host), "host");
            CHECK(u->rank[r].proc.minflt == 42 && u->rank[r].t_end == 2, "rank header");
            CHECK(u->rank[r].proc.timed_minflt == 17 + r && u->rank[r].proc.timed_majflt == 0 &&
                      u->rank[r].proc.timed_cache_misses == (r ? -1 : 123456),
                  "timed memory counters of rank %d", r);
            CHECK(u->rank[r].proc.timed_user_us == 1500000 + r && u->rank[r].proc.timed_sys_us == 20 + r &&
                      u->rank[r].proc.timed_nvcsw == 3 && u->rank[r].proc.timed_nivcsw == (r ? -1 : 5),
                  "timed CPU counters of rank %d", r);
        }
        ps_trace_free(u);
    }
    /* a new trace has no memory counters until a run fills them in */
    ps_trace *fresh = ps_trace_new(1);
    CHECK(fresh && fresh->rank[0].proc.timed_minflt == -1 && fresh->rank[0].proc.timed_cache_misses == -1 &&
              fresh->rank[0].proc.timed_user_us == -1 && fresh->rank[0].proc.timed_nivcsw == -1,
          "new trace: counters not measured");
    ps_trace_free(fresh);
    /* truncated, corrupt, missing */
    char path[4096];
    snprintf(path, sizeof path, "%s/trace.pst", dir);
    size_t len;
    char *data = ps_read_file(path, &len, err, sizeof err);
    char bad[4096];
    snprintf(bad, sizeof bad, "%s/cut.pst", dir);
    ps_write_file(bad, data, len - 7, err, sizeof err);
    CHECK(ps_trace_read(bad, &u, err, sizeof err) == -1 && strstr(err, "cut.pst") && strstr(err, "truncated"),
          "truncated: %s", err);
    data[0] = 'X';
    ps_write_file(bad, data, len, err, sizeof err);
    CHECK(ps_trace_read(bad, &u, err, sizeof err) == -1 && strstr(err, "not a parscope trace"), "magic: %s", err);
    data[0] = 'P';
    data[8] = 9; /* version */
    ps_write_file(bad, data, len, err, sizeof err);
    CHECK(ps_trace_read(bad, &u, err, sizeof err) == -1 && strstr(err, "version 9"), "version: %s", err);
    snprintf(bad, sizeof bad, "%s/missing.pst", dir);
    CHECK(ps_trace_read(bad, &u, err, sizeof err) == -1 && strstr(err, "missing.pst"), "missing: %s", err);
    /* versions 1 (no counters) and 3 (memory counters only) still read: the
     * same file without each rank's 24 bytes of memory counters and 32 of
     * CPU counters, or without the CPU counters */
    data[8] = 4;
    size_t off0 = 8 + 16;
    for (int i = 0; i < t->nconstructs; i++) off0 += 2 + strlen(t->constructs[i]);
    off0 += strlen(t->meta_json);
    char *v3 = malloc(len);
    size_t n3 = off0, o3 = off0;
    memcpy(v3, data, off0);
    v3[8] = 3;
    for (int r = 0; r < 2; r++) {
        memcpy(v3 + n3, data + o3, 120 + 24);         /* up to the memory counters */
        n3 += 120 + 24;
        o3 += 120 + 24 + 32;                          /* the CPU counters are left out */
        size_t rest = 64 + t->rank[r].n * 40;
        memcpy(v3 + n3, data + o3, rest);
        n3 += rest;
        o3 += rest;
    }
    CHECK(o3 == len, "layout of version 4: %zu of %zu bytes", o3, len);
    ps_write_file(bad, v3, n3, err, sizeof err);
    u = NULL;
    CHECK(ps_trace_read(bad, &u, err, sizeof err) == 0, "version 3: %s", err);
    if (u) {
        CHECK(u->rank[1].proc.timed_minflt == 18 && u->rank[1].proc.timed_user_us == -1 &&
                  u->rank[0].proc.timed_nvcsw == -1 && u->rank[1].n == t->rank[1].n,
              "version 3: memory counters kept, CPU counters not measured");
        ps_trace_free(u);
    }
    free(v3);
    size_t off = 8 + 16;
    for (int i = 0; i < t->nconstructs; i++) off += 2 + strlen(t->constructs[i]);
    off += strlen(t->meta_json);
    char *v1 = malloc(len);
    size_t n1 = 0;
    memcpy(v1, data, off);
    n1 = off;
    v1[8] = 1;
    for (int r = 0; r < 2; r++) {
        memcpy(v1 + n1, data + off, 120);            /* up to maxrss_kb */
        n1 += 120;
        off += 120 + 24 + 32;                         /* the counters are left out */
        size_t rest = 64 + t->rank[r].n * 40;         /* host and events */
        memcpy(v1 + n1, data + off, rest);
        n1 += rest;
        off += rest;
    }
    CHECK(off == len, "layout of version 4: %zu of %zu bytes", off, len);
    ps_write_file(bad, v1, n1, err, sizeof err);
    u = NULL;
    CHECK(ps_trace_read(bad, &u, err, sizeof err) == 0, "version 1: %s", err);
    if (u) {
        CHECK(u->rank[1].proc.minflt == 42 && u->rank[1].proc.timed_minflt == -1 && u->rank[1].n == t->rank[1].n,
              "version 1: counters not measured");
        ps_trace_free(u);
    }
    free(v1);
    free(data);
    ps_trace_free(t);
    ps_rmtree(dir);
    free(dir);
}

TEST_IMPL(match_fifo)
{
    /* two sends on one channel and one on another tag: FIFO per channel */
    ps_trace *t = ps_trace_new(2);
    ps_event e;
    e = ev(PS_EV_SEND, 1, 1, 1, 3, 10); ps_trace_push(t, 0, &e);
    e = ev(PS_EV_SEND, 2, 2, 1, 4, 20); ps_trace_push(t, 0, &e);
    e = ev(PS_EV_SEND, 3, 3, 1, 3, 30); ps_trace_push(t, 0, &e);
    e = ev(PS_EV_RECV, 4, 5, 0, 4, 20); ps_trace_push(t, 1, &e);
    e = ev(PS_EV_RECV, 5, 6, 0, 3, 10); ps_trace_push(t, 1, &e);
    e = ev(PS_EV_RECV, 6, 7, 0, 3, 30); ps_trace_push(t, 1, &e);
    e = ev(PS_EV_RECV, 7, 8, 0, 3, 30); ps_trace_push(t, 1, &e); /* no send for this one */
    ps_match m;
    CHECK(ps_trace_match(t, &m) == 0, "match");
    CHECK(m.nmessages == 3 && m.unmatched_recvs == 1 && m.unmatched_sends == 0, "counts %zu %zu %zu", m.nmessages,
          m.unmatched_recvs, m.unmatched_sends);
    CHECK(ps_match_recv(&m, 0, 0).index == 1 && ps_match_recv(&m, 0, 1).index == 0 &&
              ps_match_recv(&m, 0, 2).index == 2, "pairs");
    CHECK(ps_match_send(&m, 1, 3).rank == -1, "unmatched receive");
    ps_match_free(&m);
    ps_trace_free(t);
}

TEST_IMPL(clock_model)
{
    /* rank clock = global + 0.25 + 2e-5 * global; ping-pong legs take 1..20 us
     * at random, asymmetric; the best sample bounds the error by rtt/2. */
    srand(7);
    const double off = 0.25, drift = 2e-5;
    ps_clock_sample s[24];
    ps_clock_est est[2];
    for (int phase = 0; phase < 2; phase++) {
        double g = phase ? 100.0 : 1.0;
        for (int k = 0; k < 24; k++) {
            double out = 1e-6 + 19e-6 * rand() / RAND_MAX, back = 1e-6 + 19e-6 * rand() / RAND_MAX;
            double ga = g + k * 1e-3;
            s[k].ta = ga + off + drift * ga;
            s[k].tb = ga + out;
            s[k].tc = ga + out + back + off + drift * (ga + out + back);
        }
        est[phase] = ps_clock_best(s, 24);
    }
    ps_clock_model m = ps_clock_fit(est[0], est[1]);
    for (double g = 0; g <= 120; g += 7.5) {
        double local = g + off + drift * g;
        double err = fabs(ps_clock_global(&m, local) - g);
        CHECK(err <= 0.5 * fmax(est[0].rtt, est[1].rtt) + 1e-9, "global %g: error %g > rtt/2", g, err);
    }
    CHECK(NEAR(m.drift, drift, 1e-6), "drift %g", m.drift);
}

/* Two isends to one partner and tag, completed in the other order: the
 * request ids (version 2) pair each wait with its own send; a version-1
 * trace (no ids) pairs them by order; a post is completed by its receive. */
TEST_IMPL(requests)
{
    ps_trace *t = ps_trace_new(1);
    const char *names[] = {"NONE", "USER"};
    ps_trace_set_constructs(t, names, 2);
    ps_event e[5] = {ev(PS_EV_SEND, 0, 1, 0, 3, 8), ev(PS_EV_SEND, 1, 2, 0, 3, 8), ev(PS_EV_POST, 2, 3, 0, 4, 8),
                     ev(PS_EV_WAIT, 3, 4, 0, 3, 8), ev(PS_EV_WAIT, 4, 5, 0, 3, 8)};
    uint32_t aux[5] = {7, 8, 9, 8, 7}; /* ids as the runtime writes them */
    for (int i = 0; i < 5; i++) {
        e[i].flags = PS_EVF_NONBLOCKING;
        e[i].aux = aux[i];
        ps_trace_push(t, 0, &e[i]);
    }
    ps_requests q;
    CHECK(ps_trace_requests(t, &q) == 0);
    CHECK(q.partner[0] == 4 && q.partner[4] == 0 && q.partner[1] == 3 && q.partner[3] == 1);
    CHECK(q.partner[2] == -1 && q.nrequests == 2 && q.unfinished == 1 && q.orphans == 0);
    CHECK(q.id[0] == 7 && q.id[4] == 7 && q.id[3] == 8 && q.id[2] == 9);
    ps_requests_free(&q);
    /* read as version 1: aux means nothing, the k-th wait completes the k-th send */
    t->version = 1;
    CHECK(ps_trace_requests(t, &q) == 0);
    CHECK(q.partner[0] == 3 && q.partner[1] == 4 && q.partner[2] == -1);
    CHECK(q.id[0] == 1 && q.id[3] == 1 && q.id[1] == 2 && q.id[4] == 2 && q.id[2] == 3);
    ps_requests_free(&q);
    /* a receive completes the post, not a send's wait */
    ps_event r = ev(PS_EV_RECV, 5, 6, 0, 4, 8);
    r.flags = PS_EVF_NONBLOCKING;
    ps_trace_push(t, 0, &r);
    CHECK(ps_trace_requests(t, &q) == 0);
    CHECK(q.partner[2] == 5 && q.partner[5] == 2 && q.nrequests == 3 && q.unfinished == 0);
    ps_requests_free(&q);
    ps_trace_free(t);
}
