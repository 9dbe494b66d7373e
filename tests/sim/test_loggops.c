/*
 * test_loggops.c - the simulator's LogGOPS model against timings computed by
 * hand: per size range interpolation, one message, two back to back (the gap),
 * a rendezvous that waits for its receiver to enter the runtime (or not), a
 * token bucket passing a burst at line speed and then the sustained rate (on
 * a bus and on a star, whose ways in have buckets too; what the runtime's
 * warm-up leaves of a bucket at the timed interval's start), a message taken in
 * while its receiver computed or while it was in a call, two ranks copying at
 * once, and the probe's bucket estimate from a series (8 KiB and 1 KiB
 * chunks, a series that stalls, checked against a stream's rate).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe_int.h"
#include "sim/sim.h"
#include "sim/stream.h"

#include "check.h"

#define US 1e-6
#define NEAR(a, b)                                                                              \
    do {                                                                                        \
        double a_ = (a), b_ = (b);                                                              \
        if (fabs(a_ - b_) > 1e-15 + 1e-9 * fabs(b_)) {                                          \
            fprintf(stderr, "%s:%d: %s = %.12g, expected %.12g\n", __FILE__, __LINE__, #a, a_, b_); \
            failures++;                                                                         \
        }                                                                                       \
    } while (0)

/* The machine: o_s, o_r, L, gap per size in microseconds; S = 1000.
 *   eager       1 B: o_s 1, o_r 2, L 3, gap 0.5      1000 B: o_s 2, o_r 4, L 3, gap 1.5
 *   rendezvous  1001 B: o_s 1, o_r 10, L 4, gap 1    101001 B: o_s 1, o_r 110, L 4, gap 11
 * so a rendezvous's o_r is 10 us + 1 ns per byte above 1001; a multiply costs 1 ns. */
static const char *model_fmt =
    "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\nnetwork = %s\n"
    "[loggops]\nS = %s\no_post = 0.1e-6\no_done = 0.05e-6\ncontention = %s\nprogress_send = 0\n"
    "progress_recv = %s\nrate = %s\nburst = %s\n"
    "1 = 1e-6 2e-6 3e-6 %s\n1000 = 2e-6 4e-6 3e-6 1.5e-6\n1001 = 1e-6 10e-6 4e-6 1e-6\n"
    "101001 = 1e-6 110e-6 4e-6 11e-6\n";

/* The machine above, with `more` (sections of its own) after it. */
static ps_machine model_with(const char *net, const char *S, const char *contention, const char *progress_recv,
                             const char *rate, const char *burst, const char *gap1, const char *more)
{
    char text[2048], err[512];
    int n = snprintf(text, sizeof text, model_fmt, net, S, contention, progress_recv, rate, burst, gap1);
    snprintf(text + n, sizeof text - (size_t)n, "%s", more);
    ps_machine m;
    if (ps_machine_parse(text, "model.ini", &m, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return m;
}

static ps_machine model(const char *net, const char *S, const char *contention, const char *progress_recv,
                        const char *rate, const char *burst, const char *gap1)
{
    return model_with(net, S, contention, progress_recv, rate, burst, gap1, "");
}

static double run_o(const ps_machine *m, const char *text, const ps_sim_opts *o, ps_sim_result *r)
{
    ps_streams *s;
    char err[512];
    if (ps_streams_parse_text(text, "test", &s, err, sizeof err)) {
        fprintf(stderr, "parse failed: %s\n", err);
        exit(1);
    }
    int rc = ps_simulate(s, m, o, r, err, sizeof err);
    if (rc != 0) fprintf(stderr, "simulate: rc %d %s\n", rc, rc < 0 ? err : r->report);
    CHECK(rc == 0);
    ps_streams_free(s);
    return r->time;
}

static double run(const ps_machine *m, const char *text, ps_sim_result *r) { return run_o(m, text, NULL, r); }

/* m written to a machine file and read back into *back. */
static void saved_and_loaded(const ps_machine *m, ps_machine *back)
{
    char path[] = "/tmp/ps-test-model-XXXXXX.ini", err[512];
    int fd = mkstemps(path, 4);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    CHECK(ps_machine_save(path, m, err, sizeof err) == 0, "%s", err);
    CHECK(ps_machine_load(path, back, err, sizeof err) == 0, "%s", err);
    unlink(path);
}

/* The bucket tests below follow a bucket from full: runs without the warm-up. */
static double run_full(const ps_machine *m, const char *text, ps_sim_result *r)
{
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.no_warmup = 1;
    return run_o(m, text, &o, r);
}

TEST_IMPL(loggops_interpolation)
{
    ps_machine m = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    ps_loggops_cost c;
    ps_loggops_at(&m.lg, 500.5, &c);   /* halfway between 1 and 1000: o + O n */
    NEAR(c.os, 1.5 * US);
    NEAR(c.orr, 3 * US);
    NEAR(c.gap, 1.0 * US);
    CHECK(!c.rendezvous);
    ps_loggops_at(&m.lg, 1000, &c);
    NEAR(c.os, 2 * US);
    CHECK(!c.rendezvous);
    ps_loggops_at(&m.lg, 1001, &c);     /* never interpolated across S */
    NEAR(c.os, 1 * US);
    NEAR(c.orr, 10 * US);
    NEAR(c.L, 4 * US);
    CHECK(c.rendezvous);
    ps_loggops_at(&m.lg, 51001, &c);
    NEAR(c.orr, 60 * US);
    ps_loggops_at(&m.lg, 201001, &c);   /* past the last row: the last slope */
    NEAR(c.orr, 210 * US);
    NEAR(c.gap, 21 * US);
    ps_loggops_at(&m.lg, 0, &c);        /* below the first row: the first */
    NEAR(c.os, 1 * US);
    /* S = 0: every message eager, one protocol over all rows */
    ps_machine e = model("nobus", "0", "1", "1", "0", "0", "0.5e-6");
    ps_loggops_at(&e.lg, 1000.5, &c);
    CHECK(!c.rendezvous);
    NEAR(c.os, 1.5 * US);
}

/* One eager byte: sent at o_s = 1, there at 1 + L = 4; the receiver posted at
 * 0.1 and waits; it copies for o_r = 2: 6 us.  The sender's wait costs o_done. */
TEST_IMPL(loggops_one_message)
{
    ps_machine m = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    ps_sim_result r;
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1\n WAIT\nrank 1\n RECEIVE 0 1\n WAIT\n", &r), 6 * US);
    NEAR(r.rank[0].end, 1.05 * US);
    NEAR(r.rank[1].end, 6 * US);
    /* the trace: the receive's wait from 0.1 to 6 */
    CHECK(r.trace->rank[1].n == 2);
    NEAR(r.trace->rank[1].ev[1].t0, 0.1 * US);
    NEAR(r.trace->rank[1].ev[1].t1, 6 * US);
    ps_sim_result_free(&r);
    /* posted late (after 10 us of computation): the message waits as an unexpected one; the
     * receive costs o_post then o_r: 10 + 0.1 + 2 */
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1\n WAIT\nrank 1\n WORK 10000\n RECEIVE 0 1\n WAIT\n", &r),
         12.1 * US);
    ps_sim_result_free(&r);
    /* blocking: BSEND costs o_s only (buffered), BRECEIVE o_post + wait + o_r */
    NEAR(run(&m, "ranks 2\nrank 0\n BSEND 1 1\nrank 1\n BRECEIVE 0 1\n", &r), 6 * US);
    NEAR(r.rank[0].end, 1 * US);
    ps_sim_result_free(&r);
}

/* Where a message arrives: eager messages cost their receiver o_r when they
 * arrived while it computed (its next call takes them in: over TCP a read from
 * the socket), o_r_in when it was in a call then.  The model: o_r 12 us, o_r_in
 * 2 us at 1 B (S = 1000, else as above).
 *   - The receiver waits in its call when the message arrives at 1 + 3 = 4:
 *     it ends at 4 + 2 = 6.
 *   - It computes 0.1..10.1 and the message arrives meanwhile: its WAIT at
 *     10.1 takes it in (10 us more than o_r_in) and completes it: 22.1.
 *   - B arrives at 4 while it computes (0.2..10.2), A at 25 (sent after 20 us
 *     of computation).  Waiting for A from 10.2, its call takes B in first
 *     (until 20.2), A when it arrives (25 + 2 = 27), and B's own wait then
 *     costs o_r_in: 29.  (Charged at B's completion it would be 39; one o_r for
 *     every message, as before o_r_in was measured, 49.) */
TEST_IMPL(loggops_taken_in)
{
    const char *fmt =
        "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\n"
        "[loggops]\nS = 1000\no_post = 0.1e-6\no_done = 0.05e-6\ncontention = 1\n"
        "1 = 1e-6 12e-6 3e-6 0.5e-6%s\n1000 = 2e-6 14e-6 3e-6 1.5e-6%s\n1001 = 1e-6 10e-6 4e-6 1e-6\n";
    char text[1024], err[512];
    snprintf(text, sizeof text, fmt, " 2e-6", " 4e-6");
    ps_machine m;
    CHECK(ps_machine_parse(text, "model.ini", &m, err, sizeof err) == 0, "%s", err);
    ps_sim_result r;
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1\n WAIT\nrank 1\n RECEIVE 0 1\n WAIT\n", &r), 6 * US);
    ps_sim_result_free(&r);
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1\n WAIT\nrank 1\n RECEIVE 0 1\n WORK 10000\n WAIT\n", &r), 22.1 * US);
    NEAR(r.rank[1].end, 22.1 * US);
    ps_sim_result_free(&r);
    const char *two = "ranks 2\nrank 0\n SEND 1 1 tag 1\n WORK 20000\n SEND 1 1 tag 2\n WAIT\n"
                      "rank 1\n RECEIVE 0 1 tag 1\n RECEIVE 0 1 tag 2\n WORK 10000\n WAITONE 0\n WAITONE 1\n";
    NEAR(run(&m, two, &r), 29 * US);
    NEAR(r.rank[0].end, 22.1 * US);
    /* the trace: A's wait spans its call, B's taking in included (10.2..27), B's 27..29 */
    const ps_rank_trace *t1 = &r.trace->rank[1];
    CHECK(t1->n == 5, "%zu events", (size_t)t1->n);
    NEAR(t1->ev[3].t0, 10.2 * US);
    NEAR(t1->ev[3].t1, 27 * US);
    NEAR(t1->ev[4].t0, 27 * US);
    NEAR(t1->ev[4].t1, 29 * US);
    ps_sim_result_free(&r);
    /* rows without o_r_in: every message costs o_r however it arrived */
    snprintf(text, sizeof text, fmt, "", "");
    CHECK(ps_machine_parse(text, "model.ini", &m, err, sizeof err) == 0, "%s", err);
    NEAR(run(&m, two, &r), 49 * US);
    ps_sim_result_free(&r);
}

/* Two messages back to back: the second leaves at max(2 o_s, o_s + gap).
 * gap 0.5: at 2, there at 5; the receiver copies the first 4..6, the second
 * 6..8.  gap 3: the second leaves at 1 + 3 = 4, there at 7, copied 7..9. */
TEST_IMPL(loggops_gap)
{
    const char *two = "ranks 2\nrank 0\n SEND 1 1\n SEND 1 1\n WAIT\nrank 1\n RECEIVE 0 1\n RECEIVE 0 1\n WAIT\n";
    ps_sim_result r;
    ps_machine m = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    NEAR(run(&m, two, &r), 8 * US);
    ps_sim_result_free(&r);
    m = model("nobus", "1000", "1", "1", "0", "0", "3e-6");
    NEAR(run(&m, two, &r), 9 * US);
    NEAR(r.rank[0].end, 2.1 * US);   /* the sender: two o_s, two o_done */
    ps_sim_result_free(&r);
}

/* A rendezvous of 11001 bytes (o_r 20 us) to a receiver that computes 10 us:
 * its request to send is there at 1 + 4 = 5.  progress_recv 1: the data move
 * when the receiver waits (10.1), until 30.1; the sender learns it a latency
 * L(1) = 3 later and pays o_done: 33.15.  progress_recv 0: the data move at 5,
 * until 25; the receiver's wait ends at 25; the sender at 28.05. */
TEST_IMPL(loggops_rendezvous)
{
    const char *p = "ranks 2\nrank 0\n SEND 1 11001\n WAIT\nrank 1\n RECEIVE 0 11001\n WORK 10000\n WAIT\n";
    ps_sim_result r;
    ps_machine m = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    NEAR(run(&m, p, &r), 33.15 * US);
    NEAR(r.rank[1].end, 30.1 * US);
    ps_sim_result_free(&r);
    m = model("nobus", "1000", "1", "0", "0", "0", "0.5e-6");
    NEAR(run(&m, p, &r), 28.05 * US);
    NEAR(r.rank[1].end, 25 * US);
    ps_sim_result_free(&r);
}

/* Two rendezvous of 11001 bytes (o_r 20 us: the receiver fetches the data)
 * to one receiver that posted both receives, progress_recv 0 (then 1).  The sender's
 * o_s puts the requests to send there at 1 + 4 = 5 and 2 + 4 = 6.  The first
 * fetch runs 5..25; the second waits for it (the receiver fetches one message
 * at a time) and its link's gap (free at 7): 25..45, not 7..27.  The
 * receiver's wait ends at 45; the sender learns each a latency L(1) = 3 later
 * and completes it (o_done): 48.05. */
TEST_IMPL(loggops_rendezvous_fetched_in_turn)
{
    const char *p = "ranks 2\nrank 0\n SEND 1 11001\n SEND 1 11001\n WAIT\n"
                    "rank 1\n RECEIVE 0 11001\n RECEIVE 0 11001\n WAIT\n";
    ps_sim_result r;
    ps_machine m = model("nobus", "1000", "1", "0", "0", "0", "0.5e-6");
    NEAR(run(&m, p, &r), 48.05 * US);
    NEAR(r.rank[1].end, 45 * US);
    ps_sim_result_free(&r);
    /* progress_recv 1, the receiver completes the first (WAITONE 1, which ends
     * with its fetch at 25), computes 100 us, then waits for the second: the
     * second's fetch needs the receiver in a call, so it moves 125..145, not
     * while the receiver computes; the sender learns it at 148 and ends at
     * 148.05 */
    p = "ranks 2\nrank 0\n SEND 1 11001\n SEND 1 11001\n WAIT\n"
        "rank 1\n RECEIVE 0 11001\n RECEIVE 0 11001\n WAITONE 1\n WORK 100000\n WAIT\n";
    m = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    NEAR(run(&m, p, &r), 148.05 * US);
    NEAR(r.rank[1].end, 145 * US);
    ps_sim_result_free(&r);
}

/* A token bucket of 10000 bytes at 1e6 bytes/s, every cost 0 but the bucket:
 * three 8000-byte messages back to back: the first passes at once, the second
 * waits for 6000 tokens (6 ms), the third for 8000 more (at 14 ms).  After
 * 30 ms of computation the bucket is full again: a fourth passes at once. */
TEST_IMPL(loggops_token_bucket)
{
    char err[512];
    const char *text = "[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                       "network = bus\n[loggops]\nS = 0\no_post = 0\no_done = 0\nrate = 1e6\nburst = 10000\n"
                       "1 = 0 0 0 0\n1000000 = 0 0 0 0\n";
    ps_machine m;
    CHECK(ps_machine_parse(text, "bucket.ini", &m, err, sizeof err) == 0);
    ps_sim_result r;
    NEAR(run_full(&m, "ranks 2\nrank 0\n SEND 1 8000\n SEND 1 8000\n SEND 1 8000\n WAIT\n"
                 "rank 1\n RECEIVE 0 8000\n RECEIVE 0 8000\n RECEIVE 0 8000\n WAIT\n", &r), 14e-3);
    CHECK(r.trace->rank[1].n == 6);
    NEAR(r.trace->rank[1].ev[3].t1, 0);       /* the first receive completes at once */
    NEAR(r.trace->rank[1].ev[4].t1, 6e-3);
    ps_sim_result_free(&r);
    NEAR(run_full(&m, "ranks 2\nrank 0\n SEND 1 8000\n SEND 1 8000\n WORK 30000000\n SEND 1 8000\n WAIT\n"
                 "rank 1\n RECEIVE 0 8000\n RECEIVE 0 8000\n RECEIVE 0 8000\n WAIT\n", &r), 30e-3);
    ps_sim_result_free(&r);
    /* on a shaped bus the bucket is shared, the gap is each sender's: two ranks sending 1 byte to
     * each other at once (o_s 1, L 3, o_r 2 us, gap 10 us) are not held up by each other's gap: both
     * messages leave at 1 and are there at 4, each rank ends at 4 + 2 = 6 (16 with the gap held on
     * the bus) */
    CHECK(ps_machine_parse("[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                           "network = bus\n[loggops]\nS = 0\no_post = 0.1e-6\no_done = 0.05e-6\nrate = 1e6\n"
                           "burst = 10000\n1 = 1e-6 2e-6 3e-6 10e-6\n1000000 = 1e-6 2e-6 3e-6 10e-6\n",
                           "gap.ini", &m, err, sizeof err) == 0, "%s", err);
    NEAR(run_full(&m, "ranks 2\nrank 0\n SEND 1 1\n RECEIVE 1 1\n WAIT\nrank 1\n SEND 0 1\n RECEIVE 0 1\n WAIT\n", &r),
         6e-6);
    ps_sim_result_free(&r);
    CHECK(ps_machine_parse(text, "bucket.ini", &m, err, sizeof err) == 0);
    /* both directions share the bus's bucket: 8000 each way at once: 6 ms */
    NEAR(run_full(&m, "ranks 2\nrank 0\n SEND 1 8000\n RECEIVE 1 8000\n WAIT\nrank 1\n SEND 0 8000\n RECEIVE 0 8000\n WAIT\n",
             &r), 6e-3);
    ps_sim_result_free(&r);
}

/* A shaped link of 1e6 bytes/s, a bucket of 10000 bytes and 100 wire bytes a
 * message, network net (bus or nobus), every call free; and three one-way
 * messages of 8000 bytes over it. */
static ps_machine wire_model(const char *net)
{
    char text[512], err[512];
    snprintf(text, sizeof text,
             "[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\nnetwork = %s\n"
             "[loggops]\nS = 0\no_post = 0\no_done = 0\nrate = 1e6\nburst = 10000\nwire_bytes = 100\n"
             "1 = 0 0 0 0\n1000000 = 0 0 0 0\n",
             net);
    ps_machine m;
    CHECK(ps_machine_parse(text, "wire.ini", &m, err, sizeof err) == 0, "%s", err);
    return m;
}

static const char *const three_oneway = "ranks 2\nrank 0\n SEND 1 8000\n SEND 1 8000\n SEND 1 8000\n WAIT\n"
                                        "rank 1\n RECEIVE 0 8000\n RECEIVE 0 8000\n RECEIVE 0 8000\n WAIT\n";

/* A message takes the bucket's tokens for its bytes and the wire's beyond
 * them (wire_bytes: its headers): the three messages of
 * loggops_token_bucket with 100 bytes each on top.  The first passes at once
 * (1900 tokens left), the second waits 6.2 ms, the third 8.1 ms: 14.3 ms;
 * without a bucket the figure is not read. */
TEST_IMPL(loggops_bucket_wire_bytes)
{
    char err[512];
    const char *prog = three_oneway;
    ps_machine m = wire_model("bus");
    CHECK(m.lg.wire == 100);
    ps_sim_result r;
    NEAR(run_full(&m, prog, &r), 14.3e-3);
    NEAR(r.trace->rank[1].ev[4].t1, 6.2e-3);
    ps_sim_result_free(&r);
    /* written and read back */
    ps_machine back;
    saved_and_loaded(&m, &back);
    CHECK(back.lg.wire == 100);
    /* a model without a bucket (rate 0) does not read it: the three messages cost nothing */
    const char *nobucket = "[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                           "network = bus\n[loggops]\nS = 0\no_post = 0\no_done = 0\nrate = 0\nburst = 0\n"
                           "wire_bytes = 100\n1 = 0 0 0 0\n1000000 = 0 0 0 0\n";
    CHECK(ps_machine_parse(nobucket, "nobucket.ini", &m, err, sizeof err) == 0, "%s", err);
    NEAR(run_full(&m, prog, &r), 0);
    ps_sim_result_free(&r);
    /* a negative figure is refused, naming the key */
    CHECK(ps_machine_parse("[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                           "[loggops]\nwire_bytes = -5\n", "neg.ini", &m, err, sizeof err) != 0);
    CHECK(strstr(err, "neg.ini") && strstr(err, "wire_bytes"), "%s", err);
}

/* oneway_ack_bytes (a shaped bus): a message whose receiver sent nothing back
 * since its sender's previous message to it takes those bytes more.  The
 * three one-way messages of loggops_bucket_wire_bytes with 50 more each
 * (8150 tokens): the second waits (8150 - 1850) / 1e6 = 6.3 ms, the third
 * 8.15 ms: 14.45 ms, three charged.  A ping-pong of three: only the first is
 * charged (the others answer one), 0 + 6.25 + 8.1 = 14.35 ms.  Without the
 * option, or on a model without a shared bucket, nothing changes.  A model
 * whose probe measured the figure (oneway_bytes) has it without the option;
 * the option's figure replaces it, and a negative option leaves it out. */
TEST_IMPL(loggops_oneway_ack)
{
    const char *oneway = three_oneway;
    const char *pingpong = "ranks 2\nrank 0\n BSEND 1 8000\n BRECEIVE 1 8000\n BSEND 1 8000\n"
                           "rank 1\n BRECEIVE 0 8000\n BSEND 0 8000\n BRECEIVE 0 8000\n";
    ps_machine bus = wire_model("bus"), nobus = wire_model("nobus");
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.no_warmup = 1;
    o.build_trace = 0;
    ps_sim_result r;
    NEAR(run_o(&bus, oneway, &o, &r), 14.3e-3);
    CHECK(r.oneway_ack == 0 && !r.oneway_ack_applied);
    ps_sim_result_free(&r);
    o.oneway_ack_bytes = 50;
    NEAR(run_o(&bus, oneway, &o, &r), 14.45e-3);
    CHECK(r.oneway_ack == 3 && r.oneway_ack_applied, "%llu", (unsigned long long)r.oneway_ack);
    ps_sim_result_free(&r);
    NEAR(run_o(&bus, pingpong, &o, &r), 14.35e-3);
    CHECK(r.oneway_ack == 1, "%llu", (unsigned long long)r.oneway_ack);
    ps_sim_result_free(&r);
    /* each rank its own bucket: an acknowledgement takes the other way's tokens, not the message's */
    NEAR(run_o(&nobus, oneway, &o, &r), 14.3e-3);
    CHECK(r.oneway_ack == 0 && !r.oneway_ack_applied);
    ps_sim_result_free(&r);
    /* the model's own figure */
    bus.lg.oneway = 50;
    o.oneway_ack_bytes = 0;
    NEAR(run_o(&bus, oneway, &o, &r), 14.45e-3);
    CHECK(r.oneway_ack == 3 && r.oneway_ack_applied);
    ps_sim_result_free(&r);
    NEAR(run_o(&bus, pingpong, &o, &r), 14.35e-3);
    ps_sim_result_free(&r);
    o.oneway_ack_bytes = 150;   /* (8250 tokens: 6.5 + 8.25 ms) */
    NEAR(run_o(&bus, oneway, &o, &r), 14.75e-3);
    ps_sim_result_free(&r);
    o.oneway_ack_bytes = -1;
    NEAR(run_o(&bus, oneway, &o, &r), 14.3e-3);
    CHECK(r.oneway_ack == 0 && !r.oneway_ack_applied);
    ps_sim_result_free(&r);
    /* written and read back */
    ps_machine back;
    saved_and_loaded(&bus, &back);
    CHECK(back.lg.oneway == 50);
    /* a negative figure is refused, naming the file and the key */
    char err[512];
    CHECK(ps_machine_parse("[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                           "[loggops]\noneway_bytes = -5\n", "neg.ini", &back, err, sizeof err) != 0);
    CHECK(strstr(err, "neg.ini") && strstr(err, "oneway_bytes"), "%s", err);
}

/* An exchange answers itself, whichever rank sends first: two exchanges of
 * 8 bytes (latency 5 us, calls of 1 us, a bucket that never runs out), rank
 * 0 first in the first (rank 1 computes 2 us before it: rank 0 sends at 1
 * us, rank 1 at 3), rank 1 in the second (rank 1 at 8 us, rank 0 at 12,
 * before rank 1's arrives at 13).  Only the very first message finds
 * nothing from its receiver before it: one charged (without the crossing,
 * rank 1's second message was charged too: rank 0 had sent nothing since
 * rank 1's first).  Four messages one way, then four back: every one but
 * the first back, 7. */
TEST_IMPL(loggops_oneway_ack_exchange)
{
    char err[512];
    const char *text = "[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                       "network = bus\n[loggops]\nS = 0\no_post = 0\no_done = 0\nrate = 1e9\nburst = 1e6\n"
                       "wire_bytes = 50\noneway_bytes = 30\n1 = 1e-6 1e-6 5e-6 0\n1000000 = 1e-6 1e-6 5e-6 0\n";
    ps_machine m;
    CHECK(ps_machine_parse(text, "exchange.ini", &m, err, sizeof err) == 0, "%s", err);
    char prog[2048];
    int len = snprintf(prog, sizeof prog, "ranks 2\n");
    for (int r = 0; r < 2; r++) {
        len += snprintf(prog + len, sizeof prog - (size_t)len, "rank %d\n", r);
        for (int i = 0; i < 2; i++)
            len += snprintf(prog + len, sizeof prog - (size_t)len, " WORK %d\n SEND %d 8\n RECEIVE %d 8\n WAIT\n",
                            (i % 2 == 0) == (r == 1) ? 2000 : 1, 1 - r, 1 - r);
    }
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.no_warmup = 1;
    o.build_trace = 0;
    ps_sim_result r;
    (void)run_o(&m, prog, &o, &r);
    CHECK(r.oneway_ack_applied && r.oneway_ack == 1, "%llu", (unsigned long long)r.oneway_ack);
    ps_sim_result_free(&r);
    /* the same messages one way: rank 0 sends all four, then rank 1 its four (after rank 0's arrived) */
    (void)run_o(&m, "ranks 2\nrank 0\n SEND 1 8\n SEND 1 8\n SEND 1 8\n SEND 1 8\n WAIT\n"
                    " RECEIVE 1 8\n RECEIVE 1 8\n RECEIVE 1 8\n RECEIVE 1 8\n WAIT\n"
                    "rank 1\n RECEIVE 0 8\n RECEIVE 0 8\n RECEIVE 0 8\n RECEIVE 0 8\n WAIT\n"
                    " SEND 0 8\n SEND 0 8\n SEND 0 8\n SEND 0 8\n WAIT\n", &o, &r);
    CHECK(r.oneway_ack == 7, "%llu", (unsigned long long)r.oneway_ack);
    ps_sim_result_free(&r);
}

/* merged_bytes (a shaped bus): a small message written while its
 * connection's previous one still waits in the bucket joins it, and takes
 * merged_bytes beyond its payload instead of the wire's; its send call costs
 * o_s_merged and its completion at the receiver o_r_merged.  The model of
 * loggops_bucket_wire_bytes (1e6 bytes/s, a bucket of 10000, 100 wire
 * bytes, calls free) with 20 merged bytes: two messages of 8000 (the first
 * passes at once, 1900 tokens left; the second waits 6.2 ms), then four of
 * 16 written at once: each joins, 36 bytes, 36 us apart, the last there at
 * 6.344 ms, and its receiver completes it 2 us later (each before it was
 * completed as it came): 6.346 ms; rank 0's four calls 1 us each.  Without
 * the figure each small one takes 116 bytes: 6.664 ms.  A message to another
 * rank does not join (another connection), nor one written after its
 * connection's previous one left. */
TEST_IMPL(loggops_merged)
{
    const char *prog = "ranks 2\nrank 0\n SEND 1 8000\n SEND 1 8000\n SEND 1 16\n SEND 1 16\n SEND 1 16\n"
                       " SEND 1 16\n WAIT\nrank 1\n RECEIVE 0 8000\n RECEIVE 0 8000\n RECEIVE 0 16\n"
                       " RECEIVE 0 16\n RECEIVE 0 16\n RECEIVE 0 16\n WAIT\n";
    ps_machine m = wire_model("bus");
    ps_sim_result r;
    NEAR(run_full(&m, prog, &r), 6.664e-3);
    ps_sim_result_free(&r);
    m.lg.merged = 20;
    m.lg.o_s_merged = 1e-6;
    m.lg.o_r_merged = 2e-6;
    NEAR(run_full(&m, prog, &r), 6.346e-3);
    NEAR(r.rank[0].comm, 4e-6);
    ps_sim_result_free(&r);
    /* the first small one written once the second 8000 left (at 6.2 ms; rank 0 computes 6.3 ms):
     * alone, 116 bytes (100 tokens: it leaves at 6.316 ms), the next three join it (written at 6.3,
     * 6.301 and 6.302 ms), the last there at 6.424 ms and completed 2 us later */
    const char *late = "ranks 2\nrank 0\n SEND 1 8000\n SEND 1 8000\n WORK 6300000\n SEND 1 16\n SEND 1 16\n"
                       " SEND 1 16\n SEND 1 16\n WAIT\nrank 1\n RECEIVE 0 8000\n RECEIVE 0 8000\n RECEIVE 0 16\n"
                       " RECEIVE 0 16\n RECEIVE 0 16\n RECEIVE 0 16\n WAIT\n";
    NEAR(run_full(&m, late, &r), 6.426e-3);
    ps_sim_result_free(&r);
    /* three ranks: rank 0's small ones go to rank 2, another connection than the 8000s' */
    const char *other = "ranks 3\nrank 0\n SEND 1 8000\n SEND 1 8000\n SEND 2 16\n WAIT\n"
                        "rank 1\n RECEIVE 0 8000\n RECEIVE 0 8000\n WAIT\nrank 2\n RECEIVE 0 16\n WAIT\n";
    NEAR(run_full(&m, other, &r), 6.2e-3 + 116e-6);
    ps_sim_result_free(&r);
    /* written and read back */
    ps_machine back;
    saved_and_loaded(&m, &back);
    CHECK(back.lg.merged == 20 && back.lg.o_s_merged == 1e-6 && back.lg.o_r_merged == 2e-6);
    char err[512];
    CHECK(ps_machine_parse("[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                           "[loggops]\no_r_merged = -1\n", "neg.ini", &back, err, sizeof err) != 0);
    CHECK(strstr(err, "neg.ini") && strstr(err, "o_r_merged"), "%s", err);
}

/* o_s_oneway (a shaped bus): the send call of a message whose receiver sent
 * nothing back since its sender's previous one lasts that long at least,
 * its data written as its own cost (o_s) ends.  Calls free, o_s_oneway 10
 * us, a bucket that never runs out: three messages one way, the calls end
 * at 10, 20 and 30 us, the messages there at 0, 10, 20: 30 us, three sent
 * one way.  A ping-pong of three blocking messages: only the first goes one
 * way: 10 us.  The one-way rule turned off (oneway_ack_bytes < 0): free. */
TEST_IMPL(loggops_oneway_pace)
{
    char err[512];
    const char *text = "[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                       "network = bus\n[loggops]\nS = 0\no_post = 0\no_done = 0\nrate = 1e9\nburst = 1e6\n"
                       "wire_bytes = 50\no_s_oneway = 10e-6\n1 = 0 0 0 0\n1000000 = 0 0 0 0\n";
    ps_machine m;
    CHECK(ps_machine_parse(text, "pace.ini", &m, err, sizeof err) == 0, "%s", err);
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.no_warmup = 1;
    o.build_trace = 0;
    ps_sim_result r;
    const char *oneway = "ranks 2\nrank 0\n SEND 1 8\n SEND 1 8\n SEND 1 8\n WAIT\n"
                         "rank 1\n RECEIVE 0 8\n RECEIVE 0 8\n RECEIVE 0 8\n WAIT\n";
    NEAR(run_o(&m, oneway, &o, &r), 30e-6);
    CHECK(r.oneway_ack == 3 && r.oneway_ack_applied, "%llu", (unsigned long long)r.oneway_ack);
    NEAR(r.rank[0].comm, 30e-6);
    ps_sim_result_free(&r);
    NEAR(run_o(&m, "ranks 2\nrank 0\n BSEND 1 8\n BRECEIVE 1 8\n BSEND 1 8\n"
                   "rank 1\n BRECEIVE 0 8\n BSEND 0 8\n BRECEIVE 0 8\n", &o, &r), 10e-6);
    CHECK(r.oneway_ack == 1, "%llu", (unsigned long long)r.oneway_ack);
    ps_sim_result_free(&r);
    o.oneway_ack_bytes = -1;
    NEAR(run_o(&m, oneway, &o, &r), 0);
    CHECK(!r.oneway_ack_applied);
    ps_sim_result_free(&r);
    ps_machine back;
    saved_and_loaded(&m, &back);
    CHECK(back.lg.o_s_oneway == 10e-6);
}

/* [crossing] (a shaped bus): a message that crosses one going the other way
 * arrives no earlier than the table's time after its send call ended.  Calls
 * of 1 us, a latency of 2 us, no wire bytes, a bucket that never runs out
 * here.  An exchange of 8 bytes (both ranks send, then receive): each send
 * ends at 1 us, its message there at 3 us without the table, at 1 + 10 = 11
 * us with it: 8 us later.  A ping-pong's messages never cross: its time is
 * the same with the table, as a message to the rank itself's; so is the exchange's on a model without a
 * bucket, and on one without the table. */
static ps_machine crossing_model(double rate, int with_table)
{
    char text[768], err[512];
    snprintf(text, sizeof text,
             "[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\nnetwork = bus\n"
             "[loggops]\nS = 0\no_post = 0\no_done = 0\nrate = %g\nburst = %g\nwire_bytes = 0\n"
             "1 = 1e-6 1e-6 2e-6 0\n1000000 = 1e-6 1e-6 2e-6 0\n%s",
             rate, rate > 0 ? 1e6 : 0.0, with_table ? "[crossing]\n1 = 10e-6\n1000000 = 10e-6\n" : "");
    ps_machine m;
    CHECK(ps_machine_parse(text, "crossing.ini", &m, err, sizeof err) == 0, "%s", err);
    return m;
}

TEST_IMPL(loggops_crossing)
{
    const char *exchange = "ranks 2\nrank 0\n SEND 1 8\n RECEIVE 1 8\n WAIT\nrank 1\n SEND 0 8\n RECEIVE 0 8\n WAIT\n";
    const char *pingpong = "ranks 2\nrank 0\n BSEND 1 8\n BRECEIVE 1 8\nrank 1\n BRECEIVE 0 8\n BSEND 0 8\n";
    ps_machine plain = crossing_model(1e9, 0), cross = crossing_model(1e9, 1), nobucket = crossing_model(0, 1);
    CHECK(cross.ncrossing == 2 && plain.ncrossing == 0);
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.no_warmup = 1;
    o.build_trace = 0;
    ps_sim_result r;
    double ex0 = run_o(&plain, exchange, &o, &r);
    ps_sim_result_free(&r);
    NEAR(run_o(&cross, exchange, &o, &r), ex0 + 8e-6);
    ps_sim_result_free(&r);
    NEAR(run_o(&nobucket, exchange, &o, &r), ex0);
    ps_sim_result_free(&r);
    double pp0 = run_o(&plain, pingpong, &o, &r);
    ps_sim_result_free(&r);
    NEAR(run_o(&cross, pingpong, &o, &r), pp0);
    ps_sim_result_free(&r);
    /* a message to the rank itself crosses nothing */
    const char *self = "ranks 2\nrank 0\n SEND 0 8\n RECEIVE 0 8\n WAIT\nrank 1\n";
    double self0 = run_o(&plain, self, &o, &r);
    ps_sim_result_free(&r);
    NEAR(run_o(&cross, self, &o, &r), self0);
    ps_sim_result_free(&r);
    /* written and read back */
    ps_machine back;
    saved_and_loaded(&cross, &back);
    CHECK(back.ncrossing == 2 && back.crossing_time[1] == 10e-6);
    /* a negative figure is refused, naming the file and the size */
    char err[512];
    CHECK(ps_machine_parse("[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                           "[crossing]\n16 = -1e-6\n", "neg.ini", &back, err, sizeof err) != 0);
    CHECK(strstr(err, "neg.ini") && strstr(err, "16"), "%s", err);
}

/* Two ranks send 1000 bytes to each other at once, contention 2 (per-byte
 * parts: o_s 1 us above the 1-byte row's, o_r 2 us).  Rank 0 starts copying
 * first: o_s 2, posted at 2, there at 5.  Rank 1 starts while rank 0 copies:
 * 1 + 2 x 1 = 3, posted at 3, there at 6.  Each posts its receive (0.1) and
 * completes its send (0.05).  Rank 1 copies the message in at 5, alone: 4,
 * until 9.  Rank 0 copies at 6 while rank 1 copies: 2 + 2 x 2 = 6, until 12. */
TEST_IMPL(loggops_contention)
{
    ps_machine m = model("nobus", "1000", "2", "1", "0", "0", "0.5e-6");
    ps_sim_result r;
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1000\n RECEIVE 1 1000\n WAIT\nrank 1\n SEND 0 1000\n RECEIVE 0 1000\n WAIT\n",
             &r), 12 * US);
    NEAR(r.rank[1].end, 9 * US);
    ps_sim_result_free(&r);
    /* contention 1: both 2 + 3 + 4 */
    m = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1000\n RECEIVE 1 1000\n WAIT\nrank 1\n SEND 0 1000\n RECEIVE 0 1000\n WAIT\n",
             &r), 9 * US);
    ps_sim_result_free(&r);
    /* contention 2, but the two ranks on nodes of their own (rank r on node r mod nodes), by the
     * model's nodes and by the option: their copies do not share a memory, 9 us */
    m = model("nobus", "1000", "2", "1", "0", "0", "0.5e-6");
    m.nodes = 2;
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1000\n RECEIVE 1 1000\n WAIT\nrank 1\n SEND 0 1000\n RECEIVE 0 1000\n WAIT\n",
             &r), 9 * US);
    ps_sim_result_free(&r);
    m.nodes = 0;
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.nodes = 2;
    NEAR(run_o(&m, "ranks 2\nrank 0\n SEND 1 1000\n RECEIVE 1 1000\n WAIT\nrank 1\n SEND 0 1000\n RECEIVE 0 1000\n WAIT\n",
               &o, &r), 9 * US);
    ps_sim_result_free(&r);
    /* four ranks on two nodes: 0 and 2 share node 0, 1 and 3 node 1.  Pairs (0, 2) and (1, 3)
     * exchange as above, each pair within a node: 12 us, as the two ranks of one node */
    NEAR(run_o(&m, "ranks 4\nrank 0\n SEND 2 1000\n RECEIVE 2 1000\n WAIT\nrank 1\n SEND 3 1000\n RECEIVE 3 1000\n WAIT\n"
                   "rank 2\n SEND 0 1000\n RECEIVE 0 1000\n WAIT\nrank 3\n SEND 1 1000\n RECEIVE 1 1000\n WAIT\n",
               &o, &r), 12 * US);
    ps_sim_result_free(&r);
}

/* The probe derives L from its ping-pong through the runtime's calls (rank 0:
 * isend, wait it, wait the reply, post the next receive; rank 1: wait, post
 * the next receive, isend, wait it) as half a round trip less o_s, o_r and
 * o_post.  The simulator must give that round trip back, 2 (o_s + L + o_r +
 * o_post), for an eager and for a rendezvous size: after its first post and
 * 3 rounds rank 0 ends at o_post + 2 round trips + 2 (o_s + L + o_r) (no
 * post in the last round). */
TEST_IMPL(loggops_probe_pingpong)
{
    ps_machine m = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    const long sizes[2] = {500, 11001};
    for (int k = 0; k < 2; k++) {
        long n = sizes[k];
        char text[4096];
        int len = snprintf(text, sizeof text, "ranks 2\nrank 0\n RECEIVE 1 %ld\n", n);
        for (int i = 0; i < 3; i++) {
            len += snprintf(text + len, sizeof text - (size_t)len, " SEND 1 %ld\n WAITONE 0\n WAITONE 1\n", n);
            if (i < 2) len += snprintf(text + len, sizeof text - (size_t)len, " RECEIVE 1 %ld\n", n);
        }
        len += snprintf(text + len, sizeof text - (size_t)len, "rank 1\n RECEIVE 0 %ld\n", n);
        for (int i = 0; i < 3; i++) {
            /* the receive: the last request issued, then the one before the last send */
            len += snprintf(text + len, sizeof text - (size_t)len, " WAITONE %d\n", i ? 1 : 0);
            if (i < 2) len += snprintf(text + len, sizeof text - (size_t)len, " RECEIVE 0 %ld\n", n);
            len += snprintf(text + len, sizeof text - (size_t)len, " SEND 0 %ld\n WAITONE 0\n", n);
        }
        ps_loggops_cost c;
        ps_loggops_at(&m.lg, (double)n, &c);
        double rtt = 2 * (c.os + c.L + c.orr + m.lg.o_post);
        ps_sim_result r;
        run(&m, text, &r);
        NEAR(r.rank[0].end, m.lg.o_post + 2 * rtt + 2 * (c.os + c.L + c.orr));
        ps_sim_result_free(&r);
    }
}

/* The probe's bucket estimate: a stop-and-wait series of 8 KiB messages
 * through a bucket of 64 KiB at 1.25 MB/s, 50 us per round trip at line
 * speed, gives back the rate and the burst; an unshaped series gives none. */
TEST_IMPL(loggops_bucket_estimate)
{
    const double c = 8192, rate = 1.25e6, burst = 65536, rtt = 50e-6;
    double rt[64], tok = burst;
    for (int j = 0; j < 64; j++) {
        double wait = tok >= c ? 0 : (c - tok) / rate;
        tok = tok >= c ? tok - c : 0;
        rt[j] = rtt + wait;
        tok += rate * rtt;   /* refills during the round trip */
        if (tok > burst) tok = burst;
    }
    int shaped;
    double r, b;
    ps__loggops_bucket(rt, 64, c, &shaped, &r, &b);
    CHECK(shaped);
    CHECK(fabs(r - rate) < 1e-6 * rate);
    CHECK(fabs(b - burst) < 0.01 * burst);
    /* as seen under slownet 100mbit (12.5 MB/s, 64 KiB): the bucket was not
     * full at the start (5 chunks passed), and after every 5 chunks that
     * waited the link stalls for 16 ms, which refills the bucket, so 8
     * chunks pass at line speed again; half the last quarter is fast.  The
     * bucket's depth shows after a stall (the 9th chunk waits for 5.5 KB
     * less than a chunk: 8 x 27 us of refill) */
    const double rate2 = 12.5e6, rtt2 = 27e-6;
    double tok2 = 5 * c + 0.5 * c;
    int waited = 0;
    for (int j = 0; j < 64; j++) {
        double wait = tok2 >= c ? 0 : (c - tok2) / rate2;
        tok2 = tok2 >= c ? tok2 - c : 0;
        rt[j] = rtt2 + wait;
        if (wait > 0 && ++waited % 5 == 0) {
            rt[j] += 16e-3;
            tok2 = burst;
        }
        tok2 += rate2 * rtt2;
        if (tok2 > burst) tok2 = burst;
    }
    ps__loggops_bucket(rt, 64, c, &shaped, &r, &b);
    CHECK(shaped);
    CHECK(fabs(r - rate2) < 0.01 * rate2, "rate %g", r);
    CHECK(fabs(b - burst) < 0.01 * burst, "burst %g", b);
    for (int j = 0; j < 64; j++) rt[j] = rtt * (1 + 0.1 * (j % 3));
    ps__loggops_bucket(rt, 64, c, &shaped, &r, &b);
    CHECK(!shaped && r == 0 && b == 0);
}

/* A stop-and-wait series of chunks of c bytes through a token bucket (depth
 * burst, rate bytes/s, full at the start), rtt seconds per round trip at
 * line speed; with stall_every > 0 every stall_every-th round trip also
 * stalls `stall` seconds (a rank not scheduled), which refills the bucket. */
static void tbf_series(double *rt, int n, double c, double rate, double burst, double rtt, int stall_every,
                       double stall)
{
    double tok = burst;
    for (int j = 0; j < n; j++) {
        double wait = tok >= c ? 0 : (c - tok) / rate;
        tok = tok >= c ? tok - c : 0;
        rt[j] = rtt + wait;
        tok = fmin(burst, tok + rate * rtt);
        if (stall_every > 0 && j % stall_every == stall_every - 1) {
            rt[j] += stall;
            tok = burst;
        }
    }
}

/* The links of `parscope emulate --link 10mbit`: a bucket of 4 KiB at
 * 1.25 MB/s, 60 us per round trip.  8 KiB chunks never pass at line speed
 * (each waits for half or all of its tokens), and a bucket of one 4 KiB
 * chunk is not one: no bucket.  1 KiB chunks: four pass, the fifth waits
 * 579 us, and after it every chunk waits for the 949 bytes the round trip
 * did not refill (819 us in all): the rate is 1024 B / 819.2 us =
 * 1.25 MB/s and the burst 5 x 1024 - 1.25 MB/s x (5 x 60 + 579.2) us =
 * 4021 bytes (the tokens the first round trips refilled are the 75 bytes
 * short of 4096).  A stream of 64 x 8 KiB through the same bucket
 * (416.2 ms) agrees with it. */
TEST_IMPL(loggops_bucket_small_chunks)
{
    double rt[64], r, b;
    int shaped;
    tbf_series(rt, 64, 8192, 1.25e6, 4096, 60e-6, 0, 0);
    ps__loggops_bucket(rt, 64, 8192, &shaped, &r, &b);
    CHECK(!shaped && r == 0 && b == 0);
    tbf_series(rt, 64, 4096, 1.25e6, 4096, 60e-6, 0, 0);
    ps__loggops_bucket(rt, 64, 4096, &shaped, &r, &b);
    CHECK(!shaped); /* (a bucket of one chunk does not show) */
    tbf_series(rt, 64, 1024, 1.25e6, 4096, 60e-6, 0, 0);
    ps__loggops_bucket(rt, 64, 1024, &shaped, &r, &b);
    CHECK(shaped);
    CHECK(fabs(r - 1.25e6) < 1e-6 * 1.25e6, "rate %g", r);
    CHECK(fabs(b - 4021) < 0.5, "burst %g", b);
    const double bytes = 64 * 8192.0, t = (bytes - 4096) / 1.25e6 + 60e-6;
    CHECK(ps__loggops_bucket_agrees(r, b, bytes, t));
    /* --link 100mbit: a bucket of 12500 bytes at 12.5 MB/s, 40 us per round
     * trip.  8 KiB chunks: fewer than three fit; 1 KiB chunks: one takes
     * 82 us at the rate, under three round trips (never "waited"); 4 KiB:
     * three pass, the fourth waits 190.7 us for the 2384 bytes missing, then
     * each takes 327.7 us: the rate, and 4 x 4096 - 12.5 MB/s x (3 x 40 +
     * 230.7) us = 12000 bytes (the 500 bytes of the last round trip short) */
    tbf_series(rt, 64, 8192, 12.5e6, 12500, 40e-6, 0, 0);
    ps__loggops_bucket(rt, 64, 8192, &shaped, &r, &b);
    CHECK(!shaped);
    tbf_series(rt, 64, 1024, 12.5e6, 12500, 40e-6, 0, 0);
    ps__loggops_bucket(rt, 64, 1024, &shaped, &r, &b);
    CHECK(!shaped);
    tbf_series(rt, 64, 4096, 12.5e6, 12500, 40e-6, 0, 0);
    ps__loggops_bucket(rt, 64, 4096, &shaped, &r, &b);
    CHECK(shaped);
    CHECK(fabs(r - 12.5e6) < 1e-6 * 12.5e6, "rate %g", r);
    CHECK(fabs(b - 12000) < 0.5, "burst %g", b);
    /* an unshaped link, 1 KiB chunks: 60-78 us each, none waits */
    for (int j = 0; j < 64; j++) rt[j] = 60e-6 * (1 + 0.15 * (j % 3));
    ps__loggops_bucket(rt, 64, 1024, &shaped, &r, &b);
    CHECK(!shaped && r == 0 && b == 0);
}

/* A series that stalls reads as a slow bucket: the same link, 8 KiB chunks,
 * every fourth round trip 13 ms longer (its rank not scheduled; the bucket
 * refills meanwhile).  The chunk after a stall passes half at line speed
 * (3.34 ms), the next two wait (6.55 ms), the fourth takes 19.55 ms: the
 * series reads 8192 B / 19.55 ms = 0.419 MB/s and 4 x 8192 - 0.419 MB/s x
 * 35.99 ms = 17687 bytes, as the probe once read 28 KiB at 0.48 MB/s at a
 * load of 13.  The stream says 1.26 MB/s (at least (512 KiB - 17687 B) /
 * 416.2 ms = 1.22 MB/s with that burst): more than the tolerance apart, so
 * no bucket.  A bucket faster than the stream does not agree either. */
TEST_IMPL(loggops_bucket_stalled)
{
    double rt[64], r, b;
    int shaped;
    tbf_series(rt, 64, 8192, 1.25e6, 4096, 60e-6, 4, 13e-3);
    ps__loggops_bucket(rt, 64, 8192, &shaped, &r, &b);
    CHECK(shaped);
    CHECK(fabs(r - 0.41895e6) < 0.001e6, "rate %g", r);
    CHECK(fabs(b - 17687) < 1, "burst %g", b);
    const double bytes = 64 * 8192.0, t = (bytes - 4096) / 1.25e6 + 60e-6;
    CHECK(!ps__loggops_bucket_agrees(r, b, bytes, t));
    /* the limits: (bytes - burst) / t / 1.43 and bytes / t x 1.43 */
    const double lo = (bytes - b) / t / PS_PROBE_BUCKET_TOL, hi = bytes / t * PS_PROBE_BUCKET_TOL;
    CHECK(ps__loggops_bucket_agrees(lo * 1.001, b, bytes, t));
    CHECK(!ps__loggops_bucket_agrees(lo * 0.999, b, bytes, t));
    CHECK(ps__loggops_bucket_agrees(hi * 0.999, b, bytes, t));
    CHECK(!ps__loggops_bucket_agrees(hi * 1.001, b, bytes, t));
    /* nothing measured: no agreement */
    CHECK(!ps__loggops_bucket_agrees(r, b, bytes, 0));
    CHECK(!ps__loggops_bucket_agrees(0, b, bytes, t));
}

/* The model measured across two nodes, with the ping-pong within a node
 * ([pingpong_intra]: 1.01 us at 100 B, 2 us at 10000 B), `nodes` nodes, rank
 * r on node r mod nodes, links of 100 MB/s (star). */
static ps_machine node_model(const char *net, int nodes)
{
    char text[4096], err[512];
    int n = snprintf(text, sizeof text,
                     "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\n"
                     "network = %s\nnodes = %d\nlink_rate = 1e8\n"
                     "[loggops]\nS = 1000\no_post = 0.1e-6\no_done = 0.05e-6\ncontention = 1\nprogress_send = 0\n"
                     "progress_recv = 1\nrate = 0\nburst = 0\n"
                     "1 = 1e-6 2e-6 3e-6 0.5e-6\n1000 = 2e-6 4e-6 3e-6 1.5e-6\n1001 = 1e-6 10e-6 4e-6 1e-6\n"
                     "101001 = 1e-6 110e-6 4e-6 11e-6\n"
                     "[pingpong_intra]\n100 = 1.01e-6\n10000 = 2e-6\n",
                     net, nodes);
    ps_machine m;
    if (n >= (int)sizeof text || ps_machine_parse(text, "model.ini", &m, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return m;
}

/* Within a node and between nodes, by hand.  A 100-byte message between
 * nodes: o_s = 1 + 99/999 us, L = 3 us, o_r = 2 + 2 x 99/999 us, gap
 * 0.5 + 99/999 us; the receiver (posted at 0.1 us) is done at o_s + L + o_r.
 * Within a node the costs are scaled by f = (1.01 - 0.1) / (o_s + L + o_r),
 * so the receiver is done at 1.01 - 0.1 = 0.91 us, and the message does not
 * wait for the sender's link: rank 0 sending to rank 1 (other node) and
 * then to rank 2 (its node) posts the second at o_s + f o_s, before the
 * link is free again (o_s + gap), and rank 2 is done at o_s + 0.91 us. */
TEST_IMPL(loggops_within_node)
{
    const double os = (1 + 99.0 / 999) * US, orr = (2 + 2 * 99.0 / 999) * US, L = 3 * US;
    ps_machine m = node_model("nobus", 2);
    ps_sim_result r;
    run(&m, "ranks 4\nrank 0\n BSEND 1 100\nrank 1\n BRECEIVE 0 100\nrank 2\nrank 3\n", &r);
    NEAR(r.rank[1].end, os + L + orr);
    ps_sim_result_free(&r);
    run(&m, "ranks 4\nrank 0\n BSEND 2 100\nrank 1\nrank 2\n BRECEIVE 0 100\nrank 3\n", &r);
    NEAR(r.rank[2].end, 0.91 * US);
    ps_sim_result_free(&r);
    run(&m, "ranks 4\nrank 0\n SEND 1 100\n SEND 2 100\n WAIT\nrank 1\n BRECEIVE 0 100\n"
            "rank 2\n BRECEIVE 0 100\nrank 3\n", &r);
    NEAR(r.rank[1].end, os + L + orr);
    NEAR(r.rank[2].end, os + 0.91 * US);
    ps_sim_result_free(&r);
    /* one node: every message is between ranks 0 and 1's kind (the table) */
    m.nodes = 1;
    run(&m, "ranks 4\nrank 0\n BSEND 2 100\nrank 1\nrank 2\n BRECEIVE 0 100\nrank 3\n", &r);
    NEAR(r.rank[2].end, os + L + orr);
    ps_sim_result_free(&r);
}

/* A star under LogGOPS: ranks 1, 2, 3 on nodes 1, 2, 3 each send 1000 bytes
 * to rank 0 (o_s 2 us, L 3 us, o_r 4 us); node 0's way in carries one at a
 * time for 1000 B / 100 MB/s = 10 us, so they leave at 2, 12 and 22 us and
 * the last is received at 22 + 3 + 4 = 29 us.  Without the star all three
 * arrive at 5 us and the WAIT completes them in 3 x 4 us: 17 us. */
TEST_IMPL(loggops_star_fan_in)
{
    const char *fan_in = "ranks 4\nrank 0\n RECEIVE 1 1000\n RECEIVE 2 1000\n RECEIVE 3 1000\n WAIT\n"
                         "rank 1\n SEND 0 1000\n WAIT\nrank 2\n SEND 0 1000\n WAIT\nrank 3\n SEND 0 1000\n WAIT\n";
    ps_machine star = node_model("star", 4), nobus = node_model("nobus", 4);
    ps_sim_result r;
    NEAR(run(&star, fan_in, &r), 29 * US);
    ps_sim_result_free(&r);
    NEAR(run(&nobus, fan_in, &r), 17 * US);
    ps_sim_result_free(&r);
}

/* A shaped star: tbf on both ends of every link, buckets of 10000 bytes at
 * 1e6 bytes/s, every other cost 0.  Ranks 1, 2, 3 (nodes 1, 2, 3) each send
 * 4000 bytes to rank 0 at once: their ways out are idle (full buckets), and
 * node 0's way in passes the first two at once (10000 - 8000 = 2000 tokens
 * left) and the third after the 2000 tokens it misses: 2 ms.  Holding the
 * way in for 4000 B / 1e6 B/s per message (the star without a bucket) would
 * take 8 ms.  One message alone passes at once. */
TEST_IMPL(loggops_star_bucket)
{
    char err[512];
    const char *text = "[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                       "network = star\nnodes = 4\nlink_rate = 1e6\n[loggops]\nS = 0\no_post = 0\no_done = 0\n"
                       "rate = 1e6\nburst = 10000\n1 = 0 0 0 0\n1000000 = 0 0 0 0\n";
    ps_machine m;
    CHECK(ps_machine_parse(text, "star.ini", &m, err, sizeof err) == 0, "%s", err);
    ps_sim_result r;
    NEAR(run_full(&m, "ranks 4\nrank 0\n RECEIVE 1 4000\n RECEIVE 2 4000\n RECEIVE 3 4000\n WAIT\n"
                 "rank 1\n SEND 0 4000\n WAIT\nrank 2\n SEND 0 4000\n WAIT\nrank 3\n SEND 0 4000\n WAIT\n", &r),
         2e-3);
    ps_sim_result_free(&r);
    NEAR(run_full(&m, "ranks 4\nrank 0\n RECEIVE 1 4000\n WAIT\nrank 1\n SEND 0 4000\n WAIT\nrank 2\nrank 3\n", &r), 0);
    ps_sim_result_free(&r);
    /* the way out too: rank 1 sends 4000 to each of ranks 0, 2, 3 (three
     * ways in with full buckets): node 1's way out misses 2000 tokens for
     * the third, which arrives at 2 ms */
    NEAR(run_full(&m, "ranks 4\nrank 0\n RECEIVE 1 4000\n WAIT\nrank 1\n SEND 0 4000\n SEND 2 4000\n SEND 3 4000\n WAIT\n"
                 "rank 2\n RECEIVE 1 4000\n WAIT\nrank 3\n RECEIVE 1 4000\n WAIT\n", &r),
         2e-3);
    ps_sim_result_free(&r);
}

/* The timed interval starts right after the runtime's warm-up: one message
 * of each size 1, 64, 512, 1 Ki, 4 Ki, 16 Ki, 64 Ki bytes (87617 in all)
 * each way between every pair of ranks up to 64, ring neighbours both ways
 * beyond.  Buckets at 1e6 bytes/s, every other cost 0:
 * - a bus of 200000 bytes at P = 2: 2 x 87617 leave 24766 tokens, so 30000
 *   bytes wait for 5234 of them, 5.234 ms; without the warm-up, none;
 * - a bucket of 10000: the warm-up empties it: 8000 bytes wait 8 ms;
 * - a star of 4 nodes, buckets of 300000: each node's way out and way in
 *   carried 3 x 87617, 37149 left; 40000 bytes from rank 1 to 0: 2.851 ms;
 * - nobus at P = 65 (ring neighbours only): each rank's way out carried
 *   2 x 87617, 24766 left of 200000; 30000 bytes from rank 7: 5.234 ms. */
TEST_IMPL(loggops_bucket_after_warmup)
{
    char err[512], text[1024];
    const char *fmt = "[machine]\nsend_latency = 0\nrecv_latency = 0\nword_time = 0\nflop_time = 1e-9\n"
                      "network = %s\nnodes = %d\nlink_rate = 1e6\n[loggops]\nS = 0\no_post = 0\no_done = 0\n"
                      "rate = 1e6\nburst = %d\n1 = 0 0 0 0\n1000000 = 0 0 0 0\n";
    ps_machine m;
    ps_sim_result r;
    const char *two = "ranks 2\nrank 0\n SEND 1 30000\n WAIT\nrank 1\n RECEIVE 0 30000\n WAIT\n";
    snprintf(text, sizeof text, fmt, "bus", 1, 200000);
    CHECK(ps_machine_parse(text, "bus.ini", &m, err, sizeof err) == 0, "%s", err);
    NEAR(run(&m, two, &r), 5.234e-3);
    ps_sim_result_free(&r);
    NEAR(run_full(&m, two, &r), 0);
    ps_sim_result_free(&r);

    snprintf(text, sizeof text, fmt, "bus", 1, 10000);
    CHECK(ps_machine_parse(text, "bus.ini", &m, err, sizeof err) == 0, "%s", err);
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 8000\n WAIT\nrank 1\n RECEIVE 0 8000\n WAIT\n", &r), 8e-3);
    ps_sim_result_free(&r);

    snprintf(text, sizeof text, fmt, "star", 4, 300000);
    CHECK(ps_machine_parse(text, "star.ini", &m, err, sizeof err) == 0, "%s", err);
    NEAR(run(&m, "ranks 4\nrank 0\n RECEIVE 1 40000\n WAIT\nrank 1\n SEND 0 40000\n WAIT\nrank 2\nrank 3\n", &r),
         2.851e-3);
    ps_sim_result_free(&r);

    snprintf(text, sizeof text, fmt, "nobus", 1, 200000);
    CHECK(ps_machine_parse(text, "nobus.ini", &m, err, sizeof err) == 0, "%s", err);
    char streams[4096];
    int n = snprintf(streams, sizeof streams, "ranks 65\n");
    for (int k = 0; k < 65; k++)
        n += snprintf(streams + n, sizeof streams - (size_t)n, "rank %d\n%s", k,
                      k == 7 ? " SEND 8 30000\n WAIT\n" : k == 8 ? " RECEIVE 7 30000\n WAIT\n" : "");
    CHECK(n < (int)sizeof streams);
    NEAR(run(&m, streams, &r), 5.234e-3);
    ps_sim_result_free(&r);
}

/* The receive's protocol step above S (ps_loggops_recv_step), as the probe
 * found it on Open MPI's shared memory (S 256; o_r 0.34 us at 4040 bytes,
 * 1.92 us at 4041): the messages sent by rendezvous up to the step are
 * counted (1000, 1000 and 4040 bytes of 100, 1000, 1000, 4040, 4041 and
 * 10000), none with S moved to the step (--eager 4040).  No step when o_r
 * jumps at S itself, when the jump is between sizes 4 times apart, or when
 * there is no S. */
static const char *step_fmt =
    "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\nnetwork = nobus\n"
    "[loggops]\nS = %s\no_post = 0.1e-6\no_done = 0.07e-6\ncontention = 1\nprogress_send = 0\nprogress_recv = 1\n"
    "rate = 0\nburst = 0\n"
    "1 = 0.17e-6 0.20e-6 0 0.22e-6\n256 = 0.18e-6 0.22e-6 0 0.24e-6\n257 = 0.24e-6 %s 0 0.35e-6\n"
    "1028 = 0.29e-6 0.25e-6 0 0.39e-6\n%s = 0.45e-6 0.34e-6 0 0.56e-6\n%s = 0.26e-6 1.92e-6 0.45e-6 1.7e-6\n"
    "16448 = 0.42e-6 3.24e-6 0.52e-6 3.14e-6\n";

static ps_machine step_model(const char *S, const char *o_r257, const char *below, const char *above)
{
    char text[2048], err[512];
    snprintf(text, sizeof text, step_fmt, S, o_r257, below, above);
    ps_machine m;
    if (ps_machine_parse(text, "step.ini", &m, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return m;
}

TEST_IMPL(loggops_recv_step)
{
    const char *p = "ranks 2\nrank 0\n SEND 1 100\n SEND 1 1000\n SEND 1 1000\n SEND 1 4040\n SEND 1 4041\n"
                    " SEND 1 10000\nrank 1\n RECEIVE 0 100\n RECEIVE 0 1000\n RECEIVE 0 1000\n RECEIVE 0 4040\n"
                    " RECEIVE 0 4041\n RECEIVE 0 10000\n";
    ps_sim_result r;
    ps_machine m = step_model("256", "0.26e-6", "4040", "4041");
    NEAR(ps_loggops_recv_step(m.lg.bytes, m.lg.orr, m.lg.n, m.lg.S), 4040);
    run(&m, p, &r);
    NEAR(r.recv_step, 4040);
    CHECK(r.below_step == 3, "%llu messages below the step", (unsigned long long)r.below_step);
    ps_sim_result_free(&r);
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.eager_bytes = 4040;
    run_o(&m, p, &o, &r);
    CHECK(r.recv_step == 0 && r.below_step == 0, "with S at the step: %g, %llu", r.recv_step,
          (unsigned long long)r.below_step);
    ps_sim_result_free(&r);
    /* the receive's cost jumps at S as well: S is the protocol switch */
    m = step_model("256", "0.5e-6", "4040", "4041");
    NEAR(ps_loggops_recv_step(m.lg.bytes, m.lg.orr, m.lg.n, m.lg.S), 0);
    run(&m, p, &r);
    CHECK(r.recv_step == 0 && r.below_step == 0);
    ps_sim_result_free(&r);
    /* a rise between sizes 4 times apart is no step */
    m = step_model("256", "0.26e-6", "1100", "4400");
    NEAR(ps_loggops_recv_step(m.lg.bytes, m.lg.orr, m.lg.n, m.lg.S), 0);
    /* no switch measured: every message eager */
    m = step_model("0", "0.26e-6", "4040", "4041");
    NEAR(ps_loggops_recv_step(m.lg.bytes, m.lg.orr, m.lg.n, m.lg.S), 0);
}

/* 1000 bytes on the step model (interpolated between 257 and 1028 B): o_s and
 * o_r; and a receiver blocked in a receive from rank 2 (which computes 10 us
 * first) when rank 0's 1000 bytes arrive, then computing 10 us, then taking them. */
#define ACK_OS  ((0.24 + 0.05 * 743.0 / 771.0) * US)
#define ACK_ORR ((0.26 - 0.01 * 743.0 / 771.0) * US)
static const char *const busy_elsewhere = "ranks 3\nrank 0\n BSEND 1 1000\nrank 1\n BRECEIVE 2 100\n WORK 10000\n"
                                          " BRECEIVE 0 1000\nrank 2\n WORK 10000\n BSEND 1 100\n";

/* Above S up to the receive's step (the step model: S 256, step 4040), a
 * message goes eagerly and its send completes once the receiver's runtime has
 * taken it in, as on Open MPI's shared memory, where a 1000-byte send to a
 * receiver busy outside MPI completed after the receiver's 200 us, and after
 * 1 us to one polling MPI_Iprobe without the receive posted.  At 1000 bytes
 * (interpolated between 257 and 1028): o_s 0.24 + 0.05 * 743 / 771 us, o_r
 * 0.26 - 0.01 * 743 / 771 us, L 0, so the message arrives as the send call
 * ends, at o_s.
 *   - the receiver blocked in another receive (from rank 2, which computes
 *     10 us first): it takes the message in at once; the send completes at
 *     o_s + o_r, long before the receive is posted (a rendezvous: after 20 us);
 *   - the receiver computing 10 us, then receiving: in at 10 us + o_post, the
 *     send completes o_r later, as the receive does;
 *   - with progress_recv 0, the receiver computing: in at once;
 *   - with S at the step (--eager 4040): the send completes as it is made. */
TEST_IMPL(loggops_acked_eager)
{
    const char *computing = "ranks 2\nrank 0\n BSEND 1 1000\nrank 1\n WORK 10000\n BRECEIVE 0 1000\n";
    ps_sim_result r;
    ps_machine m = step_model("256", "0.26e-6", "4040", "4041");
    run(&m, busy_elsewhere, &r);
    NEAR(r.rank[0].end, ACK_OS + ACK_ORR);
    CHECK(r.rank[1].end > 20 * US, "the receiver ends at %g", r.rank[1].end);
    CHECK(r.below_step == 1, "%llu acknowledged", (unsigned long long)r.below_step);
    ps_sim_result_free(&r);
    run(&m, computing, &r);
    NEAR(r.rank[0].end, 10.1 * US + ACK_ORR);
    NEAR(r.rank[1].end, 10.1 * US + ACK_ORR);
    ps_sim_result_free(&r);
    m.lg.progress_recv = 0;
    run(&m, computing, &r);
    NEAR(r.rank[0].end, ACK_OS + ACK_ORR);
    ps_sim_result_free(&r);
    m.lg.progress_recv = 1;
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.eager_bytes = 4040;
    run_o(&m, computing, &o, &r);
    NEAR(r.rank[0].end, ACK_OS);
    ps_sim_result_free(&r);
}

/* The wait of an acknowledged send (above S up to S_ack) whose
 * acknowledgement came while its sender computed takes it in: o_ack (Open
 * MPI's shared memory, 1000 B: 0.43-0.62 us against 0.05 us for one of 256 B,
 * the fragment's return being read and handled), and every other one pending
 * with it, o_ack_more each beyond its own wait's o_done.  The step model with
 * S_ack 4040, o_ack 0.5 us, o_ack_more 0.1 us; the receiver blocked in its
 * receives takes each message in as it arrives (acknowledged o_r later):
 *   - one send, 10 us of computation, its wait: o_s + 10 + 0.5 us;
 *   - four sends, 10 us, one wait for all: 4 o_s + 10 + 0.5 + 3 (0.1 + 0.07);
 *   - a send waited for at once, its receiver computing 10 us first: in at
 *     10.1 us, acknowledged o_r later, and taken in by the wait blocked on it
 *     as it comes (that path is the one the probe's ping-pong and L hold):
 *     o_done; a blocking send likewise, nothing beyond its call;
 *   - a send, then a receive blocked 10 us on another rank (the
 *     acknowledgement comes while the rank is in a call that does not
 *     complete the send), then the send's wait: 0.5 - 0.07 us more than in
 *     a model without o_ack;
 *   - a send of 100 B (below S: complete at once): o_done;
 *   - o_ack 0 (a model without it): o_done, as before. */
TEST_IMPL(loggops_ack_taken_in)
{
    const char *one = "ranks 2\nrank 0\n SEND 1 1000\n WORK 10000\n WAIT\nrank 1\n BRECEIVE 0 1000\n";
    const char *four = "ranks 2\nrank 0\n SEND 1 1000\n SEND 1 1000\n SEND 1 1000\n SEND 1 1000\n WORK 10000\n WAIT\n"
                       "rank 1\n BRECEIVE 0 1000\n BRECEIVE 0 1000\n BRECEIVE 0 1000\n BRECEIVE 0 1000\n";
    const char *at_once = "ranks 2\nrank 0\n SEND 1 1000\n WAIT\nrank 1\n WORK 10000\n BRECEIVE 0 1000\n";
    const char *small = "ranks 2\nrank 0\n SEND 1 100\n WORK 10000\n WAIT\nrank 1\n BRECEIVE 0 100\n";
    const char *blocking = "ranks 2\nrank 0\n BSEND 1 1000\n WORK 10000\nrank 1\n BRECEIVE 0 1000\n";
    const char *idle = "ranks 3\nrank 0\n SEND 1 1000\n BRECEIVE 2 100\n WAIT\nrank 1\n BRECEIVE 0 1000\n"
                       "rank 2\n WORK 10000\n BSEND 0 100\n";
    ps_sim_result r;
    ps_machine m = step_model("256", "0.26e-6", "4040", "4041");
    m.lg.S_ack = 4040;
    m.lg.o_ack = 0.5 * US;
    m.lg.o_ack_more = 0.1 * US;
    run(&m, one, &r);
    NEAR(r.rank[0].end, ACK_OS + 10.5 * US);
    ps_sim_result_free(&r);
    run(&m, four, &r);
    NEAR(r.rank[0].end, 4 * ACK_OS + 10.5 * US + 3 * (0.1 + 0.07) * US);
    ps_sim_result_free(&r);
    run(&m, at_once, &r);
    NEAR(r.rank[0].end, 10.1 * US + ACK_ORR + 0.07 * US);
    ps_sim_result_free(&r);
    double small_os = (0.17 + 0.01 * 99.0 / 255.0) * US;
    run(&m, small, &r);
    NEAR(r.rank[0].end, small_os + 10.07 * US);
    ps_sim_result_free(&r);
    run(&m, blocking, &r);
    NEAR(r.rank[0].end, ACK_OS + ACK_ORR + 10 * US);
    ps_sim_result_free(&r);
    run(&m, idle, &r);
    double idle_end = r.rank[0].end;
    CHECK(idle_end > 10 * US, "rank 0 ends at %g", idle_end);
    ps_sim_result_free(&r);
    m.lg.o_ack = m.lg.o_ack_more = 0;
    run(&m, idle, &r);
    NEAR(r.rank[0].end + 0.43 * US, idle_end);
    ps_sim_result_free(&r);
    run(&m, one, &r);
    NEAR(r.rank[0].end, ACK_OS + 10.07 * US);
    ps_sim_result_free(&r);
    run(&m, four, &r);
    NEAR(r.rank[0].end, 4 * ACK_OS + 10 * US + 4 * 0.07 * US);
    ps_sim_result_free(&r);
}

/* S_ack measured overrides the receive's step: at 1028 (the step model, whose
 * step is at 4040), 1000 B goes eagerly with its send acknowledged and 4040 B
 * by rendezvous; measured none (S_ack = S), 1000 B goes by rendezvous.  With
 * the receiver blocked elsewhere, an acknowledged send completes after
 * o_s + o_r; a rendezvous waits for the receive (after 20 us). */
TEST_IMPL(loggops_S_ack)
{
    const char *both = "ranks 2\nrank 0\n SEND 1 1000\n SEND 1 4040\n WAIT\nrank 1\n RECEIVE 0 1000\n RECEIVE 0 4040\n WAIT\n";
    ps_sim_result r;
    ps_machine m = step_model("256", "0.26e-6", "4040", "4041");
    m.lg.S_ack = 1028;
    run(&m, busy_elsewhere, &r);
    NEAR(r.rank[0].end, ACK_OS + ACK_ORR);
    CHECK(r.ack_measured == 1 && r.recv_step == 1028, "%d %g", r.ack_measured, r.recv_step);
    ps_sim_result_free(&r);
    run(&m, both, &r);
    CHECK(r.below_step == 1, "%llu acknowledged", (unsigned long long)r.below_step);
    ps_sim_result_free(&r);
    m.lg.S_ack = 256;
    run(&m, busy_elsewhere, &r);
    CHECK(r.rank[0].end > 20 * US, "a rendezvous's sender ends at %g", r.rank[0].end);
    CHECK(r.ack_measured == 1 && r.recv_step == 0 && r.below_step == 0);
    ps_sim_result_free(&r);
    /* --eager below the measured S asks for rendezvous above it: none acknowledged, whether S_ack
     * was measured or the step inferred (MPICH: S 8255, S_ack = S, the receive's step there too) */
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.eager_bytes = 200;
    for (int k = 0; k < 2; k++) {
        m.lg.S_ack = k ? 0 : 1028;
        run_o(&m, busy_elsewhere, &o, &r);
        CHECK(r.rank[0].end > 20 * US && r.recv_step == 0 && r.below_step == 0, "S_ack %g: ends at %g, step %g",
              m.lg.S_ack, r.rank[0].end, r.recv_step);
        ps_sim_result_free(&r);
    }
    /* --eager between S and S_ack: acknowledged above it up to S_ack */
    m.lg.S_ack = 4040;
    o.eager_bytes = 1000;
    const char *two = "ranks 2\nrank 0\n SEND 1 1000\n SEND 1 2000\n WAIT\nrank 1\n RECEIVE 0 1000\n RECEIVE 0 2000\n WAIT\n";
    run_o(&m, two, &o, &r);
    CHECK(r.recv_step == 4040 && r.below_step == 1, "step %g, %llu acknowledged", r.recv_step,
          (unsigned long long)r.below_step);
    ps_sim_result_free(&r);
}

/* A measured S_ack bounds a range of rows as S does: with no rows at S_ack
 * (4040) and S_ack + 1, a message of 2000 bytes is priced from the rows
 * between S and S_ack (257 and 1028: o_s and o_r 1 ns per byte), not from a
 * line from 1028 to 8192 across the step (past a range's last row, its last
 * slope); one of 5000 bytes from the rows above (below a range's first row,
 * that row: 8192's).  Unmeasured (S_ack 0), the line
 * across the step: o_r 3.771 + (2000 - 1028) / 7164 * 16.229 us. */
TEST_IMPL(loggops_interpolation_S_ack)
{
    const char *text =
        "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\nnetwork = nobus\n"
        "[loggops]\nS = 256\nS_ack = 4040\no_post = 0.1e-6\no_done = 0.05e-6\n"
        "1 = 1e-6 2e-6 3e-6 0.5e-6\n256 = 2e-6 4e-6 3e-6 1.5e-6\n257 = 1e-6 3e-6 0 1e-6\n"
        "1028 = 1.771e-6 3.771e-6 0 1.771e-6\n8192 = 1e-6 20e-6 4e-6 10e-6\n16384 = 1e-6 28.192e-6 4e-6 18.192e-6\n";
    ps_machine m;
    char err[512];
    CHECK(ps_machine_parse(text, "ack.ini", &m, err, sizeof err) == 0, "%s", err);
    ps_loggops_cost c;
    ps_loggops_at(&m.lg, 2000, &c);
    NEAR(c.os, 2.743 * US);
    NEAR(c.orr, 4.743 * US);
    NEAR(c.L, 0);
    CHECK(c.rendezvous);
    ps_loggops_at(&m.lg, 5000, &c);
    NEAR(c.orr, 20 * US);
    NEAR(c.L, 4 * US);
    ps_loggops_at(&m.lg, 200, &c);      /* below S: the rows up to it */
    NEAR(c.os, (1 + 199.0 / 255.0) * US);
    m.lg.S_ack = 0;
    ps_loggops_at(&m.lg, 2000, &c);
    NEAR(c.orr, (3.771 + 972.0 / 7164.0 * 16.229) * US);
}

/* A receive's events are named after the receiving call's construct, not the
 * sender's (as the runtime names them; compare lines the two traces up by
 * construct): nonblocking (its post and its completion in the WAIT), and
 * blocking, with the sender's SEND and WAIT named after its own. */
TEST_IMPL(loggops_recv_construct)
{
    ps_machine m = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    ps_sim_result r;
    const char *p = "ranks 2\nrank 0\n SEND 1 1 construct OUT\n WAIT construct W\n BSEND 1 1 construct OUT\n"
                    "rank 1\n RECEIVE 0 1 construct IN\n WAIT construct W\n BRECEIVE 0 1 construct IN\n";
    run(&m, p, &r);
    CHECK(r.trace != NULL);
    for (int rank = 0; r.trace && rank < 2; rank++) {
        const char *want = rank ? "IN" : "OUT";
        int seen = 0;
        for (size_t i = 0; i < r.trace->rank[rank].n; i++) {
            const ps_event *e = &r.trace->rank[rank].ev[i];
            if (e->kind != PS_EV_SEND && e->kind != PS_EV_RECV && e->kind != PS_EV_POST && e->kind != PS_EV_WAIT)
                continue;
            const char *got = e->construct < r.trace->nconstructs ? r.trace->constructs[e->construct] : NULL;
            CHECK(got && !strcmp(got, want), "rank %d event %zu (kind %d): construct %s", rank, i, e->kind,
                  got ? got : "?");
            seen++;
        }
        CHECK(seen == 3, "rank %d: %d message events", rank, seen);
    }
    ps_sim_result_free(&r);
}

/* A send of data its sender has written since it last sent them ("written W": W of its bytes) arrives
 * later by [written]'s figure at its size, for that share of its bytes: 1 us for all of an eager
 * 1000 bytes, half of it for half of them, 3 us for a rendezvous of 2001 bytes (its request, and so
 * the receiver's fetch, that much later), nothing at 1 byte (the table's 0); nothing for a send
 * without the flag, to the rank itself, or on a model without [written].  The table is linear between
 * rows and extended past its last; the machine file carries it. */
TEST_IMPL(loggops_written)
{
    const char *rows = "\n[written]\n1 = 0\n1000 = 1e-6\n2001 = 3e-6\n";
    ps_machine m = model_with("nobus", "1000", "1", "1", "0", "0", "0.5e-6", rows);
    ps_machine plain = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    CHECK(m.nwritten == 3 && plain.nwritten == 0);
    NEAR(ps_machine_written_time(&m, 500.5), 0.5 * US);
    NEAR(ps_machine_written_time(&m, 1500.5), 2 * US);
    NEAR(ps_machine_written_time(&m, 3002), 5 * US);
    NEAR(ps_machine_written_time(&plain, 3002), 0);
    ps_sim_result r;
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1 written 1\n WAIT\nrank 1\n RECEIVE 0 1\n WAIT\n", &r), 6 * US);
    ps_sim_result_free(&r);
    static const char *const sizes[] = {"1000", "2001"};
    static const double extra[] = {1 * US, 3 * US};
    for (int i = 0; i < 2; i++) {
        char clean[256], all[256], half[256], self[256], selfw[256];
        snprintf(clean, sizeof clean, "ranks 2\nrank 0\n SEND 1 %s\n WAIT\nrank 1\n RECEIVE 0 %s\n WAIT\n", sizes[i],
                 sizes[i]);
        snprintf(all, sizeof all, "ranks 2\nrank 0\n SEND 1 %s written %s\n WAIT\nrank 1\n RECEIVE 0 %s\n WAIT\n",
                 sizes[i], sizes[i], sizes[i]);
        snprintf(half, sizeof half, "ranks 2\nrank 0\n BSEND 1 %s written %d\nrank 1\n BRECEIVE 0 %s\n", sizes[i],
                 atoi(sizes[i]) / 2, sizes[i]);
        snprintf(self, sizeof self, "ranks 1\nrank 0\n RECEIVE 0 %s\n SEND 0 %s\n WAIT\n", sizes[i], sizes[i]);
        snprintf(selfw, sizeof selfw, "ranks 1\nrank 0\n RECEIVE 0 %s\n SEND 0 %s written %s\n WAIT\n", sizes[i],
                 sizes[i], sizes[i]);
        double t0 = run(&m, clean, &r);
        ps_sim_result_free(&r);
        NEAR(run(&m, all, &r), t0 + extra[i]);
        ps_sim_result_free(&r);
        NEAR(run(&plain, all, &r), t0);
        ps_sim_result_free(&r);
        /* (blocking calls: a send of half its bytes written, against the same without) */
        char halfc[256];
        snprintf(halfc, sizeof halfc, "ranks 2\nrank 0\n BSEND 1 %s\nrank 1\n BRECEIVE 0 %s\n", sizes[i], sizes[i]);
        double b0 = run(&m, halfc, &r);
        ps_sim_result_free(&r);
        double n = atof(sizes[i]);
        NEAR(run(&m, half, &r), b0 + ps_machine_written_time(&m, n) * (double)(atoi(sizes[i]) / 2) / n);
        ps_sim_result_free(&r);
        double s0 = run(&m, self, &r);
        ps_sim_result_free(&r);
        NEAR(run(&m, selfw, &r), s0);
        ps_sim_result_free(&r);
    }
    /* the machine file */
    ps_machine back;
    saved_and_loaded(&m, &back);
    CHECK(back.nwritten == 3);
    for (int i = 0; i < 3 && i < back.nwritten; i++) {
        NEAR(back.written_bytes[i], m.written_bytes[i]);
        NEAR(back.written_time[i], m.written_time[i]);
    }
    /* a bad row names its line */
    char err[512];
    ps_machine bad;
    CHECK(ps_machine_parse("[machine]\nsend_latency = 1\nrecv_latency = 1\nword_time = 1\nflop_time = 1\n"
                           "[written]\n100 = 1e-6\n10 = 2e-6\n", "w.ini", &bad, err, sizeof err) != 0);
    CHECK(strstr(err, "w.ini:8") && strstr(err, "10: message sizes must be in ascending order"), "%s", err);
    CHECK(ps_machine_parse("[machine]\nsend_latency = 1\nrecv_latency = 1\nword_time = 1\nflop_time = 1\n"
                           "[written]\n100 = -1e-6\n", "w.ini", &bad, err, sizeof err) != 0);
    CHECK(strstr(err, "w.ini:7"), "%s", err);
}

/* A construct call's own code (o_construct, 0.7 us here) runs before its first message call, outside
 * any call: the message of loggops_one_message leaves 0.7 us later and arrives 0.7 us later (6.7 us),
 * the send's call starts at 0.7 (a gap before it in the trace), and the receiver's post too.  Only a
 * message call that begins a construct call pays it: none without the flag, none on a WORK (a
 * computation's time is its flops'), and none on the seed's model (no LogGOPS: no such cost).  The
 * machine file carries it (written when above 0, read back; a negative one is refused). */
TEST_IMPL(loggops_construct_code)
{
    ps_machine m = model("nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    m.lg.o_construct = 0.7 * US;
    ps_sim_result r;
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1 begins\n WAIT\nrank 1\n RECEIVE 0 1 begins\n WAIT\n", &r), 6.7 * US);
    NEAR(r.rank[0].end, 1.75 * US);
    CHECK(r.trace && r.trace->rank[0].n >= 1 && r.trace->rank[1].n >= 1);
    if (r.trace) {
        NEAR(r.trace->rank[0].ev[0].t0, 0.7 * US);
        NEAR(r.trace->rank[0].ev[0].t1, 1.7 * US);
        NEAR(r.trace->rank[1].ev[0].t0, 0.7 * US);
    }
    ps_sim_result_free(&r);
    /* only the construct call's first message call: a second in the same call pays nothing more, so
     * the two messages end 0.7 us later than without the flag, not 1.4 */
    double two = run(&m, "ranks 2\nrank 0\n SEND 1 1\n WAIT\n SEND 1 1\n WAIT\n"
                         "rank 1\n RECEIVE 0 1\n WAIT\n RECEIVE 0 1\n WAIT\n", &r);
    ps_sim_result_free(&r);
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1 begins\n WAIT\n SEND 1 1\n WAIT\n"
                 "rank 1\n RECEIVE 0 1 begins\n WAIT\n RECEIVE 0 1\n WAIT\n", &r),
         two + 0.7 * US);
    ps_sim_result_free(&r);
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1\n WAIT\nrank 1\n RECEIVE 0 1\n WAIT\n", &r), 6 * US);
    ps_sim_result_free(&r);
    NEAR(run(&m, "ranks 2\nrank 0\n SEND 1 1\n WAIT\nrank 1\n WORK 10000 begins\n RECEIVE 0 1\n WAIT\n", &r),
         12.1 * US);
    ps_sim_result_free(&r);
    ps_machine seed = m;
    seed.lg.n = 0;
    double plain = run(&seed, "ranks 2\nrank 0\n SEND 1 1\n WAIT\nrank 1\n RECEIVE 0 1\n WAIT\n", &r);
    ps_sim_result_free(&r);
    NEAR(run(&seed, "ranks 2\nrank 0\n SEND 1 1 begins\n WAIT\nrank 1\n RECEIVE 0 1 begins\n WAIT\n", &r), plain);
    ps_sim_result_free(&r);
    /* the machine file */
    ps_machine back;
    saved_and_loaded(&m, &back);
    NEAR(back.lg.o_construct, 0.7 * US);
    char err[512];
    char text[2048];
    snprintf(text, sizeof text, model_fmt, "nobus", "1000", "1", "1", "0", "0", "0.5e-6");
    strcat(text, "o_construct = -1e-7\n");
    CHECK(ps_machine_parse(text, "neg.ini", &back, err, sizeof err) != 0);
    CHECK(strstr(err, "neg.ini") && strstr(err, "o_construct"), "%s", err);
}

/* The blocking calls: a blocking ping-pong of 500 bytes (rank 0 BSEND then
 * BRECEIVE, rank 1 the other way round) on a model whose rows carry o_s_block
 * and o_r_in_block costs each half round trip o_s_block + L + o_r_in_block,
 * the blocking ping-pong the probe measured, not the nonblocking calls'; a
 * nonblocking send and its wait still cost o_s and o_done, and above S a
 * blocking send costs o_s.  Rows without the two columns: the blocking calls
 * cost what the nonblocking ones do. */
TEST_IMPL(loggops_blocking_calls)
{
    static const char *fmt =
        "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\nnetwork = nobus\n"
        "[loggops]\nS = 1000\no_post = 0.1e-6\no_done = 0.05e-6\ncontention = 1\nprogress_send = 0\n"
        "progress_recv = 1\n"
        "1 = 1e-6 2e-6 3e-6 0.5e-6 1.5e-6%s\n1000 = 2e-6 4e-6 3e-6 1.5e-6 2.5e-6%s\n"
        "1001 = 1e-6 10e-6 4e-6 1e-6 10e-6%s\n";
    const char *pp = "ranks 2\nrank 0\n BSEND 1 500\n BRECEIVE 1 500\n BSEND 1 500\n BRECEIVE 1 500\n"
                     "rank 1\n BRECEIVE 0 500\n BSEND 0 500\n BRECEIVE 0 500\n BSEND 0 500\n";
    char text[2048], err[512];
    ps_machine m, plain;
    snprintf(text, sizeof text, fmt, " 0.6e-6 0.4e-6", " 1.6e-6 0.9e-6", " 1e-6 10e-6");
    CHECK(ps_machine_parse(text, "blk.ini", &m, err, sizeof err) == 0, "%s", err);
    snprintf(text, sizeof text, fmt, "", "", "");
    CHECK(ps_machine_parse(text, "plain.ini", &plain, err, sizeof err) == 0, "%s", err);
    CHECK(m.lg.blocking == 1 && plain.lg.blocking == 0);
    ps_loggops_cost c;
    ps_loggops_at(&m.lg, 500, &c);
    /* 500 B, 499/999 of the way from 1 B to 1000 B */
    const double w = 499.0 / 999.0;
    NEAR(c.osb, (0.6 + w) * US);
    NEAR(c.orbin, (0.4 + 0.5 * w) * US);
    NEAR(c.os, (1 + w) * US);
    NEAR(c.orin, (1.5 + w) * US);
    NEAR(c.L, 3 * US);
    ps_sim_result r;
    /* four halves; rank 0 ends with its last receive */
    NEAR(run(&m, pp, &r), 4 * (c.osb + c.L + c.orbin));
    ps_sim_result_free(&r);
    NEAR(run(&plain, pp, &r), 4 * (c.os + c.L + c.orin));
    ps_sim_result_free(&r);
    /* nonblocking: the send's call o_s, the receive in its wait o_r_in, as before */
    const char *nb = "ranks 2\nrank 0\n SEND 1 500\n WAIT\nrank 1\n RECEIVE 0 500\n WAIT\n";
    double a = run(&m, nb, &r);
    ps_sim_result_free(&r);
    NEAR(a, run(&plain, nb, &r));
    ps_sim_result_free(&r);
    NEAR(a, c.os + c.L + c.orin);
    /* above S the blocking send is the nonblocking one's call */
    const char *big = "ranks 2\nrank 0\n BSEND 1 1001\nrank 1\n BRECEIVE 0 1001\n";
    a = run(&m, big, &r);
    ps_sim_result_free(&r);
    NEAR(a, run(&plain, big, &r));
    ps_sim_result_free(&r);
    /* a message that came while its receiver computed: the blocking receive costs o_post, then o_r
     * (what the probe measured for one taken in by the next call), not o_r_in_block */
    const char *cold = "ranks 2\nrank 0\n BSEND 1 500\nrank 1\n WORK 100000\n BRECEIVE 0 500\n";
    NEAR(run(&m, cold, &r), 100 * US + 0.1 * US + c.orr);
    ps_sim_result_free(&r);
    NEAR(run(&plain, cold, &r), 100 * US + 0.1 * US + c.orr);
    ps_sim_result_free(&r);
    /* within a node of a model measured across two ([pingpong_intra] 1.01 us at 100 B, a blocking
     * ping-pong): the blocking ping-pong of ranks 0 and 2 takes it for each half */
    snprintf(text, sizeof text,
             "[machine]\nsend_latency = 1e-6\nrecv_latency = 1e-6\nword_time = 8e-9\nflop_time = 1e-9\n"
             "network = nobus\nnodes = 2\n[loggops]\nS = 1000\no_post = 0.1e-6\no_done = 0.05e-6\n"
             "contention = 1\nprogress_send = 0\nprogress_recv = 1\n"
             "1 = 1e-6 2e-6 3e-6 0.5e-6 1.5e-6 0.6e-6 0.4e-6\n1000 = 2e-6 4e-6 3e-6 1.5e-6 2.5e-6 1.6e-6 0.9e-6\n"
             "[pingpong_intra]\n100 = 1.01e-6\n10000 = 2e-6\n");
    ps_machine two;
    CHECK(ps_machine_parse(text, "two.ini", &two, err, sizeof err) == 0, "%s", err);
    run(&two, "ranks 4\nrank 0\n BSEND 2 100\n BRECEIVE 2 100\nrank 1\nrank 2\n BRECEIVE 0 100\n BSEND 0 100\n"
              "rank 3\n", &r);
    NEAR(r.rank[0].end, 2 * 1.01 * US);
    ps_sim_result_free(&r);
    /* ... and two blocking sends of that node at once, contention 2: the second one's part above the
     * smallest row's o_s_block (both scaled by the blocking calls' factor) takes twice as long */
    two.lg.contention = 2;
    ps_loggops_at(&two.lg, 100, &c);
    double f = (1.01 * US - 0.1 * US) / (c.os + c.L + c.orin), fb = (1.01 * US - f * c.L) / (c.osb + c.orbin);
    CHECK(f > 0 && f < 1 && fb > 0 && fb < 1 && fb != f, "f %g fb %g", f, fb);
    run(&two, "ranks 4\nrank 0\n BSEND 2 100\n BRECEIVE 2 100\nrank 1\nrank 2\n BSEND 0 100\n BRECEIVE 0 100\n"
              "rank 3\n", &r);
    CHECK(r.trace && r.trace->rank[0].n >= 1 && r.trace->rank[2].n >= 1);
    if (r.trace) {
        NEAR(r.trace->rank[0].ev[0].t1 - r.trace->rank[0].ev[0].t0, fb * c.osb);
        NEAR(r.trace->rank[2].ev[0].t1 - r.trace->rank[2].ev[0].t0, fb * 0.6 * US + 2 * fb * (c.osb - 0.6 * US));
    }
    ps_sim_result_free(&r);
}

/* A message to the rank itself under LogGOPS: with [self], its receive's
 * post, its send and the wait of both take the table's figure, and it takes
 * no token of a shaped link nor a gap of the rank's link, eager or not. */
TEST_IMPL(loggops_self_message)
{
    static const char *const rates[] = {"0", "1000"};
    for (int k = 0; k < 2; k++) {
        ps_machine m =
            model_with("nobus", "1000", "1", "0", rates[k], "100", "0.5e-6", "[self]\n8 = 5e-6\n1000 = 7e-6\n");
        ps_sim_result r;
        run_full(&m, "ranks 2\nrank 0\n RECEIVE 0 500\n SEND 0 500\n WAIT\n RECEIVE 0 500\n SEND 0 500\n WAIT\n"
                     "rank 1\n WORK 1\n",
                 &r);
        NEAR(r.rank[0].end, 2 * (5e-6 + 2e-6 * 492 / 992));
        CHECK(r.self_messages == 2);
        ps_sim_result_free(&r);
        /* above S, by rendezvous: no tokens either (5000 bytes would take 5 s of them), and no
         * notice travels back (no latency) */
        run_full(&m, "ranks 2\nrank 0\n RECEIVE 0 5000\n SEND 0 5000\n WAIT\nrank 1\n WORK 1\n", &r);
        NEAR(r.rank[0].end, 5e-6 + 2e-6 * 4992 / 992);
        ps_sim_result_free(&r);
    }
    /* without [self], on two nodes: a message between two ranks of a node (there 1 us), not
     * between nodes (3 us of latency alone) */
    ps_machine m =
        model_with("nobus", "1000", "1", "0", "0", "0", "0.5e-6", "[pingpong_intra]\n1 = 1e-6\n1000 = 1e-6\n");
    m.nodes = 2;
    ps_sim_result r;
    run(&m, "ranks 2\nrank 0\n RECEIVE 0 500\n SEND 0 500\n WAIT\nrank 1\n WORK 1\n", &r);
    CHECK(r.rank[0].end < 2e-6, "%g s", r.rank[0].end);
    ps_sim_result_free(&r);
}

/* A deadlock under LogGOPS names the request a WAITONE waits for (its slot: the LogGOPS path keeps
 * no message of its own for it), also after a blocking call of the rank. */
TEST_IMPL(loggops_deadlock_waitone)
{
    ps_machine m = model("nobus", "1000", "1", "0", "0", "0", "0.5e-6");
    static const char *const texts[] = {
        "ranks 2\nrank 0\n SEND 1 16\n RECEIVE 1 16 tag 1\n WAITONE 0\nrank 1\n BRECEIVE 0 16\n",
        "ranks 2\nrank 0\n BSEND 1 16\n RECEIVE 1 16 tag 1\n WAITONE 0\nrank 1\n BRECEIVE 0 16\n"};
    for (int k = 0; k < 2; k++) {
        ps_streams *s;
        char err[512];
        CHECK(ps_streams_parse_text(texts[k], "test", &s, err, sizeof err) == 0, "%s", err);
        ps_sim_result r;
        CHECK(ps_simulate(s, &m, NULL, &r, err, sizeof err) == 1);
        CHECK(r.report && strstr(r.report, "rank 0: instruction 3, WAITONE for RECEIVE from 1 (tag 1, 16 bytes)"),
              "%s", r.report ? r.report : "");
        ps_sim_result_free(&r);
        ps_streams_free(s);
    }
}
