/*
 * test_sheet_stream.c - the result sheet the simulator builds as it runs
 * (no trace kept) against the sheet computed from its predicted trace
 * (ps_sheet_compute), on programs with blocking and nonblocking messages,
 * waits for one request and for all, several messages in flight between
 * the same pair, and computation; on the seed's SP2 and on a LogGOPS model;
 * a few messages a receiver and thousands.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sheet_feed.h"
#include "sim/sim.h"
#include "sim/stream.h"
#include "trace/sheet.h"

#include "check.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-12 + 1e-9 * fabs(b); }

static void same_stat(const ps_stat *a, const ps_stat *b, const char *what, int r)
{
    CHECK(a->n == b->n && near(a->sum, b->sum) && near(a->min, b->min) && near(a->max, b->max), "%s of rank %d: n %llu / %llu, sum %g / %g, min %g / %g, max %g / %g", what,
          r, (unsigned long long)a->n, (unsigned long long)b->n, a->sum, b->sum, a->min, b->min, a->max, b->max);
}

static void same_sheet(const ps_sheet *a, const ps_sheet *b)
{
    CHECK(a->nranks == b->nranks);
    CHECK(near(a->time, b->time));
    CHECK(near(a->busy_pct, b->busy_pct) && near(a->overhead_pct, b->overhead_pct) && near(a->idle_pct, b->idle_pct),
          "busy %g / %g, overhead %g / %g, idle %g / %g", a->busy_pct, b->busy_pct, a->overhead_pct, b->overhead_pct,
          a->idle_pct, b->idle_pct);
    CHECK(a->messages_sent == b->messages_sent && a->bytes_sent == b->bytes_sent);
    CHECK(a->messages_received == b->messages_received && a->bytes_received == b->bytes_received);
    CHECK(a->unmatched == b->unmatched && a->dropped == b->dropped);
    CHECK(a->max_queue == b->max_queue, "max queue %d, from the trace %d", a->max_queue, b->max_queue);
    CHECK(near(a->avg_queue, b->avg_queue), "average queue %g, from the trace %g", a->avg_queue, b->avg_queue);
    for (int r = 0; r < a->nranks && r < b->nranks; r++) {
        const ps_rank_sheet *x = &a->rank[r], *y = &b->rank[r];
        CHECK(near(x->busy, y->busy) && near(x->overhead, y->overhead) && near(x->idle, y->idle),
              "rank %d: busy %g / %g, overhead %g / %g, idle %g / %g", r, x->busy, y->busy, x->overhead, y->overhead,
              x->idle, y->idle);
        CHECK(near(x->compute, y->compute) && near(x->flops, y->flops), "rank %d computation", r);
        CHECK(x->messages_sent == y->messages_sent && x->messages_received == y->messages_received, "rank %d", r);
        CHECK(x->max_queue == y->max_queue && near(x->avg_queue, y->avg_queue), "rank %d queue %d %g / %d %g", r,
              x->max_queue, x->avg_queue, y->max_queue, y->avg_queue);
        same_stat(&x->send_time, &y->send_time, "send time", r);
        same_stat(&x->recv_time, &y->recv_time, "receive time", r);
    }
}

/* P ranks, rounds of: nonblocking sends to the next k ranks and receives
 * from the previous k (two messages per pair, the second larger), work
 * that differs by rank, a WAITONE for the last receive, then WAIT; and a
 * blocking ring shift. */
static char *program(int P, int rounds)
{
    size_t cap = 1 << 20, n = 0;
    char *t = malloc(cap);
    n += (size_t)snprintf(t + n, cap - n, "ranks %d\n", P);
    for (int r = 0; r < P; r++) {
        n += (size_t)snprintf(t + n, cap - n, "rank %d\n", r);
        for (int k = 0; k < rounds; k++) {
            int nreq = 0;
            /* ranks start their sends at different times: a receiver's messages
             * are not sent in the order it completes them */
            n += (size_t)snprintf(t + n, cap - n, " WORK %d\n", 20000 * ((r * 5 + k) % 3));
            for (int d = 1; d <= 2 && d < P; d++) {
                int to = (r + d) % P, from = (r - d + P) % P;
                /* tags apart: a WAITONE completes a later receive before an earlier
                 * one, and a trace lists receives in completion order */
                n += (size_t)snprintf(t + n, cap - n, " RECEIVE %d %d tag %d\n RECEIVE %d %d tag %d\n", from,
                                      64 * (k + 1), 10 * d, from, 4096 * (d + k), 10 * d + 1);
                n += (size_t)snprintf(t + n, cap - n, " SEND %d %d tag %d\n SEND %d %d tag %d\n", to, 64 * (k + 1),
                                      10 * d, to, 4096 * (d + k), 10 * d + 1);
                nreq += 4;
            }
            n += (size_t)snprintf(t + n, cap - n, " WORK %d\n", 10000 * (1 + (r * 7 + k * 3) % 5));
            if (nreq) n += (size_t)snprintf(t + n, cap - n, " WAITONE %d\n WAIT\n", 2);
            if (r % 2 == 0) n += (size_t)snprintf(t + n, cap - n, " BSEND %d 800\n BRECEIVE %d 800\n", (r + 1) % P, (r - 1 + P) % P);
            else n += (size_t)snprintf(t + n, cap - n, " BRECEIVE %d 800\n BSEND %d 800\n", (r - 1 + P) % P, (r + 1) % P);
        }
    }
    return t;
}

/* The same sheet to the bit: built on the simulation's thread and on one of
 * its own (sheet_feed.h) from the same events in the same order.  Field by
 * field (a struct's padding need not be copied or kept). */
#define BITS(a, b, f) (memcmp(&(a)->f, &(b)->f, sizeof (a)->f) == 0)

static void identical_stat(const ps_stat *a, const ps_stat *b, const char *what, int r)
{
    CHECK(BITS(a, b, n) && BITS(a, b, sum) && BITS(a, b, min) && BITS(a, b, max), "%s of rank %d differs", what, r);
}

static void identical_sheet(const ps_sheet *a, const ps_sheet *b)
{
    CHECK(a->nranks == b->nranks && BITS(a, b, time) && BITS(a, b, busy_pct) && BITS(a, b, overhead_pct) &&
              BITS(a, b, idle_pct) && BITS(a, b, avg_queue) && a->max_queue == b->max_queue,
          "sheets differ: time %.17g / %.17g, average queue %.17g / %.17g", a->time, b->time, a->avg_queue,
          b->avg_queue);
    CHECK(a->messages_sent == b->messages_sent && a->bytes_sent == b->bytes_sent &&
          a->messages_received == b->messages_received && a->bytes_received == b->bytes_received &&
          a->runtime_sent == b->runtime_sent && a->runtime_received == b->runtime_received &&
          a->unmatched == b->unmatched && a->dropped == b->dropped);
    identical_stat(&a->send_time, &b->send_time, "send time", -1);
    identical_stat(&a->recv_time, &b->recv_time, "receive time", -1);
    for (int r = 0; r < a->nranks && r < b->nranks; r++) {
        const ps_rank_sheet *x = &a->rank[r], *y = &b->rank[r];
        CHECK(BITS(x, y, busy) && BITS(x, y, overhead) && BITS(x, y, idle) && BITS(x, y, compute) &&
                  BITS(x, y, data_move) && BITS(x, y, flops) && BITS(x, y, avg_queue) && x->max_queue == y->max_queue,
              "rank %d differs: idle %.17g / %.17g, average queue %.17g / %.17g", r, x->idle, y->idle, x->avg_queue,
              y->avg_queue);
        CHECK(x->messages_sent == y->messages_sent && x->bytes_sent == y->bytes_sent &&
                  x->messages_received == y->messages_received && x->bytes_received == y->bytes_received &&
                  x->runtime_sent == y->runtime_sent && x->runtime_received == y->runtime_received &&
                  x->dropped == y->dropped,
              "rank %d's counts differ", r);
        identical_stat(&x->send_time, &y->send_time, "send time", r);
        identical_stat(&x->recv_time, &y->recv_time, "receive time", r);
    }
}

static void check_program(const ps_machine *m, int P, int rounds)
{
    char err[512], *text = program(P, rounds);
    ps_streams *s;
    CHECK(ps_streams_parse_text(text, "sheet.txt", &s, err, sizeof err) == 0, "%s", err);
    free(text);
    ps_sim_opts o;
    ps_sim_defaults(&o);
    ps_sim_result r;
    CHECK(ps_simulate(s, m, &o, &r, err, sizeof err) == 0, "%s", err);
    CHECK(r.has_sheet && r.trace);
    ps_sheet fromtrace;
    if (r.has_sheet && r.trace && ps_sheet_compute(r.trace, &fromtrace) == 0) {
        CHECK(r.sheet.messages_sent > 0 && r.sheet.max_queue > 0);
        same_sheet(&r.sheet, &fromtrace);
        ps_sheet_free(&fromtrace);
    }
    ps_sim_result_free(&r);
    /* without the trace: the same sheet */
    o.build_trace = 0;
    ps_sim_result r2;
    CHECK(ps_simulate(s, m, &o, &r2, err, sizeof err) == 0 && r2.has_sheet && !r2.trace);
    /* built on a thread of its own, and never: the same sheet */
    ps_sim_result r3, r4;
    o.sheet_thread = 1;
    CHECK(ps_simulate(s, m, &o, &r3, err, sizeof err) == 0 && r3.has_sheet);
    CHECK(r3.sheet_thread, "the sheet was not built on a thread of its own");
    o.sheet_thread = -1;
    CHECK(ps_simulate(s, m, &o, &r4, err, sizeof err) == 0 && r4.has_sheet && !r4.sheet_thread);
    if (r3.has_sheet && r4.has_sheet) identical_sheet(&r3.sheet, &r4.sheet);
    ps_streams_free(s);
    ps_sim_result_free(&r2);
    ps_sim_result_free(&r3);
    ps_sim_result_free(&r4);
}

static ps_machine load(const char *path_or_text, int text)
{
    ps_machine m;
    char err[512];
    int rc = text ? ps_machine_parse(path_or_text, "model.ini", &m, err, sizeof err)
                  : ps_machine_load(path_or_text, &m, err, sizeof err);
    if (rc) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return m;
}

TEST_IMPL(sheet_as_it_runs)
{
    ps_machine sp2 = load(PS_SOURCE_DIR "/machines/sp2.ini", 0);
    ps_machine lg = load("[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\n"
                         "network = nobus\n[loggops]\nS = 1000\no_post = 0.1e-6\no_done = 0.05e-6\ncontention = 1.5\n"
                         "progress_send = 0\nprogress_recv = 1\nrate = 0\nburst = 0\n"
                         "1 = 1e-6 2e-6 3e-6 0.5e-6\n1000 = 2e-6 4e-6 3e-6 1.5e-6\n"
                         "1001 = 1e-6 10e-6 4e-6 1e-6\n101001 = 1e-6 110e-6 4e-6 11e-6\n",
                         1);
    for (int P = 2; P <= 10; P += 4) {
        check_program(&sp2, P, 3);
        check_program(&lg, P, 3);
    }
    /* 2400 messages a receiver: its log runs through blocks of every size */
    check_program(&sp2, 6, 300);
}

/* Messages no receive took: rank 0's send whose receive is never posted,
 * a nonblocking one never waited for, one to a rank that receives another.
 * The sheet built as the simulation runs counts them unmatched and keeps
 * them in their receivers' queues to the end, as the sheet from its trace
 * does: matched by the pair index and by the hash table, in free order and
 * in time order, on a thread and not; on the seed's SP2 (sends buffered)
 * and on a LogGOPS model.  A nonblocking receive never waited for (tag 7)
 * is received by the wait at its program's end, after its rank's timed
 * interval, as the runtime's finalize receives it: matched, its time
 * outside the interval not counted. */
static void check_unreceived(const ps_machine *m)
{
    const char *text = "ranks 3\n"
                       "rank 0\n BSEND 1 32\n SEND 1 32 tag 5\n WAIT\n SEND 2 32 tag 6\n WORK 1000\n"
                       " BSEND 2 32 tag 8\n BSEND 1 32 tag 7\n"
                       "rank 1\n BRECEIVE 0 32\n RECEIVE 0 32 tag 7\n WORK 100000\n"
                       "rank 2\n BRECEIVE 0 32 tag 8\n WORK 5000\n";
    char err[512];
    ps_streams *s;
    CHECK(ps_streams_parse_text(text, "unreceived.txt", &s, err, sizeof err) == 0, "%s", err);
    if (!s) return;
    for (int k = 0; k < 4; k++) {
        ps_sim_opts o;
        ps_sim_defaults(&o);
        o.eager_bytes = 64;
        o.hashed_channels = k & 1;
        o.ordered = k >> 1;
        ps_sim_result r;
        CHECK(ps_simulate(s, m, &o, &r, err, sizeof err) == 0, "%s", err);
        CHECK(r.has_sheet && r.trace);
        ps_sheet fromtrace;
        if (r.has_sheet && r.trace && ps_sheet_compute(r.trace, &fromtrace) == 0) {
            CHECK(r.sheet.unmatched == 2, "%llu unmatched messages, 2 expected", (unsigned long long)r.sheet.unmatched);
            CHECK(r.sheet.messages_sent == 5 && r.sheet.messages_received == 3);
            CHECK(r.sheet.rank[1].max_queue >= 2 && r.sheet.rank[2].max_queue >= 1, "queue maxima %d %d",
                  r.sheet.rank[1].max_queue, r.sheet.rank[2].max_queue);
            same_sheet(&r.sheet, &fromtrace);
            ps_sheet_free(&fromtrace);
        }
        ps_sim_result_free(&r);
        ps_sim_result r3, r4;
        o.build_trace = 0;
        o.sheet_thread = 1;
        CHECK(ps_simulate(s, m, &o, &r3, err, sizeof err) == 0 && r3.has_sheet && r3.sheet_thread);
        o.sheet_thread = -1;
        CHECK(ps_simulate(s, m, &o, &r4, err, sizeof err) == 0 && r4.has_sheet && !r4.sheet_thread);
        if (r3.has_sheet && r4.has_sheet) identical_sheet(&r3.sheet, &r4.sheet);
        ps_sim_result_free(&r3);
        ps_sim_result_free(&r4);
    }
    ps_streams_free(s);
}

TEST_IMPL(sheet_unreceived)
{
    ps_machine sp2 = load(PS_SOURCE_DIR "/machines/sp2.ini", 0);
    ps_machine lg = load("[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\n"
                         "network = nobus\n[loggops]\nS = 1000\no_post = 0.1e-6\no_done = 0.05e-6\n"
                         "progress_send = 0\nprogress_recv = 1\nrate = 0\nburst = 0\n"
                         "1 = 1e-6 2e-6 3e-6 0.5e-6\n1000 = 2e-6 4e-6 3e-6 1.5e-6\n",
                         1);
    check_unreceived(&sp2);
    check_unreceived(&lg);
}

/* The time after a rank's end is its wait for the others, once: rank 0
 * posts a receive, computes 1000 flops and ends without waiting; rank 1
 * computes 2000 and then sends.  Rank 0's receive, completed by the wait
 * at its end, adds a message received and no time: rank 0 is busy for its
 * computation exactly, in the sheet built as the simulation runs and in the
 * one from its trace (its receive's time had been counted on top of the
 * time after its end: busy 0). */
TEST_IMPL(sheet_after_rank_end)
{
    ps_machine sp2 = load(PS_SOURCE_DIR "/machines/sp2.ini", 0);
    char err[512];
    ps_streams *s;
    CHECK(ps_streams_parse_text("ranks 2\nrank 0\n RECEIVE 1 4\n WORK 1000\nrank 1\n WORK 2000\n BSEND 0 4\n",
                                "late.txt", &s, err, sizeof err) == 0,
          "%s", err);
    if (!s) return;
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.eager_bytes = 64;
    ps_sim_result r;
    CHECK(ps_simulate(s, &sp2, &o, &r, err, sizeof err) == 0, "%s", err);
    if (r.has_sheet && r.trace) {
        const ps_rank_sheet *r0 = &r.sheet.rank[0];
        double lane = r0->busy + r0->overhead + r0->idle;
        CHECK(r0->messages_received == 1 && r.sheet.unmatched == 0);
        CHECK(fabs(r0->busy - r.rank[0].work) < 1e-12 && r.rank[0].work > 0,
              "rank 0 busy %g s of %g (its work %g)", r0->busy, lane, r.rank[0].work);
        ps_sheet fromtrace;
        if (ps_sheet_compute(r.trace, &fromtrace) == 0) {
            same_sheet(&r.sheet, &fromtrace);
            ps_sheet_free(&fromtrace);
        }
    }
    ps_sim_result_free(&r);
    ps_streams_free(s);
}

/* One receiver's queue lengths from the accumulator, its messages given out
 * of order at both ends, against a count by hand and against an independent
 * sweep over thousands of messages (its log then spans many blocks). */
typedef struct qev {
    double t;
    int    d;   /* +1 arrival (send start), -1 departure (receive end) */
} qev;

static int qev_cmp(const void *x, const void *y)
{
    const qev *a = x, *b = y;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    return a->d - b->d;   /* departures first at one instant */
}

static void acc_queue_of(int n, const double *start, const double *end, double te, int *mx, double *avg)
{
    ps_sheet_acc *a = ps_sheet_acc_new(1);
    CHECK(a != NULL);
    for (int i = 0; a && i < n; i++) {
        ps_event e = {.t0 = start[i], .t1 = end[i], .bytes = 8, .peer = 0, .tag = 1, .kind = PS_EV_RECV};
        CHECK(ps_sheet_acc_event(a, 0, &e, start[i]) == 0);
    }
    ps_sheet s;
    double tb = 0;
    CHECK(a && ps_sheet_acc_finish(a, &tb, &te, &s) == 0);
    *mx = s.rank[0].max_queue;
    *avg = s.rank[0].avg_queue;
    ps_sheet_free(&s);
}

TEST_IMPL(sheet_queue_out_of_order)
{
    /* arrivals 1, 2, 5, departures 3, 6, 7 over [0, 10]: lengths 1, 2, 1, 2, 1
     * for 1, 1, 2, 1, 1 s: area 8, most 2 */
    const double s3[] = {5, 1, 2}, e3[] = {6, 7, 3};
    int mx;
    double avg;
    acc_queue_of(3, s3, e3, 10, &mx, &avg);
    CHECK(mx == 2 && fabs(avg - 0.8) < 1e-12, "most %d, average %g: 2 and 0.8 expected", mx, avg);

    enum { N = 5000 };
    static double st[N], en[N];
    static qev ev[2 * N];
    for (int i = 0; i < N; i++) {
        st[i] = (double)(i * 7919 % N) * 1e-3;
        en[i] = st[i] + 0.5 + 0.125 * (i % 5);
        ev[2 * i] = (qev){st[i], 1};
        ev[2 * i + 1] = (qev){en[i], -1};
    }
    qsort(ev, 2 * N, sizeof *ev, qev_cmp);
    int len = 0, want_mx = 0;
    double area = 0, last = 0, te = 6;
    for (int i = 0; i < 2 * N; i++) {
        area += len * (ev[i].t - last);
        last = ev[i].t;
        len += ev[i].d;
        if (len > want_mx) want_mx = len;
    }
    acc_queue_of(N, st, en, te, &mx, &avg);
    CHECK(mx == want_mx && fabs(avg - area / te) < 1e-9 * area, "most %d, average %.12g: %d and %.12g expected", mx,
          avg, want_mx, area / te);
}

/* The feed's ring (8192 events) run round many times, filled faster than
 * its thread empties it, with pauses now and then that leave the thread
 * asleep on an empty ring, the last events published by the stop, and the
 * queues finished on two threads, against the same events added directly:
 * 200,003 events of 64 ranks, a receive's send starting before or after it. */
TEST_IMPL(sheet_on_a_thread)
{
    enum { P = 64, N = 200003 };
    static ps_event ev[N];
    static double sent0[N];
    static int rank[N];
    double clock[P] = {0};
    uint32_t x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        int r = (int)(x >> 8) % P;
        double d = (double)((x >> 4) % 1000) * 1e-7;
        static const uint8_t kinds[] = {PS_EV_SEND, PS_EV_RECV, PS_EV_RECV, PS_EV_COMPUTE, PS_EV_DATA, PS_EV_BARRIER};
        ev[i] = (ps_event){.t0 = clock[r], .t1 = clock[r] + d, .bytes = x % 100000, .peer = (r + 1) % P,
                           .tag = (x >> 20) % 7 == 0 ? -5 : 3, .kind = kinds[(x >> 12) % 6]};
        sent0[i] = ev[i].kind == PS_EV_RECV ? clock[r] + d * ((double)((x >> 16) % 5) - 2) / 2 : NAN;
        rank[i] = r;
        clock[r] += d;
    }
    ps_sheet_acc *direct = ps_sheet_acc_new(P), *fed = ps_sheet_acc_new(P);
    CHECK(direct && fed);
    ps_sheet_feed *f = fed ? ps_sheet_feed_start(fed) : NULL;
    CHECK(f != NULL, "no thread started");
    if (!direct || !f) return;
    for (int i = 0; i < N; i++) {
        CHECK(ps_sheet_feed_event(f, rank[i], &ev[i], sent0[i]) == 0);
        if (i % 50000 == 49999) {
            struct timespec nap = {0, 20 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    CHECK(ps_sheet_feed_stop(f) == 0);
    for (int i = 0; i < N; i++) CHECK(ps_sheet_acc_event(direct, rank[i], &ev[i], sent0[i]) == 0);
    double tb[P], te[P];
    for (int r = 0; r < P; r++) {
        tb[r] = 0;
        te[r] = clock[r];
    }
    /* the queues on two threads, split where half of the messages are */
    int split = ps_sheet_acc_split(fed);
    CHECK(split > 0 && split < P, "split at rank %d of %d", split, P);
    ps_sheet_feed_queues(fed, P, tb, te);
    ps_sheet a, b;
    CHECK(ps_sheet_acc_finish(direct, tb, te, &a) == 0);
    CHECK(ps_sheet_acc_finish(fed, tb, te, &b) == 0);
    CHECK(a.messages_received > 0 && a.max_queue > 0);
    identical_sheet(&a, &b);
    ps_sheet_free(&a);
    ps_sheet_free(&b);
}
