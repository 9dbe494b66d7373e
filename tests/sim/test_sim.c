/*
 * test_sim.c - the simulator against timings computed by hand on the
 * estimator seed's SP2 (send = receive latency 24 us, 0.239 us per 8-byte
 * word, 0.0178 us per multiply), deadlock reports, the stream encoding and
 * its file round trip.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/sim.h"
#include "sim/eventq.h"
#include "sim/stream.h"
#include "trace/sheet.h"
#include "util/util.h"

#include "check.h"

#define NEAR(a, b)                                                                              \
    do {                                                                                        \
        double a_ = (a), b_ = (b);                                                              \
        if (fabs(a_ - b_) > 1e-12 + 1e-9 * fabs(b_)) {                                          \
            fprintf(stderr, "%s:%d: %s = %.12g, expected %.12g\n", __FILE__, __LINE__, #a, a_, b_); \
            failures++;                                                                         \
        }                                                                                       \
    } while (0)

static const double L = 24e-6, W = 2.39e-7, F = 1.78e-8;

/* The seed's SP2 (machines/sp2.ini), loaded once. */
static const ps_machine *sp2(void)
{
    static ps_machine m;
    static int loaded;
    char err[512];
    if (!loaded && ps_machine_load(PS_SOURCE_DIR "/machines/sp2.ini", &m, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    loaded = 1;
    return &m;
}

static ps_streams *parse(const char *text)
{
    ps_streams *s;
    char err[512];
    if (ps_streams_parse_text(text, "test", &s, err, sizeof err)) {
        fprintf(stderr, "parse failed: %s\n", err);
        exit(1);
    }
    return s;
}

static int sim(const char *text, ps_sim_opts *o, ps_sim_result *r)
{
    ps_streams *s = parse(text);
    char err[512];
    int rc = ps_simulate(s, sp2(), o, r, err, sizeof err);
    if (rc < 0) fprintf(stderr, "simulate: %s\n", err);
    ps_streams_free(s);
    return rc;
}

TEST_IMPL(machine_file)
{
    const ps_machine *m = sp2();
    NEAR(m->send_latency, L);
    NEAR(m->recv_latency, L);
    NEAR(m->word_time, W);
    NEAR(m->flop_time, F);
    CHECK(m->bus == 0);
    NEAR(ps_sim_transfer_time(m, 800), 100 * W);
    NEAR(ps_sim_work_time(m, NULL, 1, 1000), 1000 * F);
}

/* Blocking ping-pong of 100 words: in each leg the sender's and the
 * receiver's latencies run at once, then the transfer: 2 (L + 100 W) in all,
 * all of it communication. */
TEST_IMPL(pingpong)
{
    ps_sim_result r;
    CHECK(sim("ranks 2\n"
              "rank 0\n BSEND 1 100w\n BRECEIVE 1 100w\n"
              "rank 1\n BRECEIVE 0 100w\n BSEND 0 100w\n",
              NULL, &r) == 0);
    NEAR(r.time, 2 * L + 2 * 100 * W);
    NEAR(r.rank[0].comm, 2 * L + 2 * 100 * W);
    NEAR(r.rank[0].wait, 0);
    NEAR(r.rank[0].work, 0);
    CHECK(r.messages == 2);
    /* the predicted trace: send, recv per rank; the sheet matches both messages */
    CHECK(r.trace && r.trace->rank[0].n == 2 && r.trace->rank[1].n == 2);
    CHECK(r.trace->rank[0].ev[0].kind == PS_EV_SEND);
    CHECK(r.trace->rank[0].ev[0].flags & PS_EVF_ESTIMATED);
    NEAR(r.trace->rank[0].ev[0].t1, L + 100 * W);
    NEAR(r.trace->rank[1].ev[0].t1, L + 100 * W);
    ps_sheet sh;
    CHECK(ps_sheet_compute(r.trace, &sh) == 0);
    CHECK(sh.messages_sent == 2 && sh.messages_received == 2 && sh.unmatched == 0);
    NEAR(sh.time, r.time);
    ps_sheet_free(&sh);
    ps_sim_result_free(&r);
}

/* A ring of 4 with nonblocking messages: sends posted at L, receives at 2 L,
 * each transfer of 10 words starts at 2 L; then 1000 multiplies. */
TEST_IMPL(ring)
{
    char text[1024];
    int n = snprintf(text, sizeof text, "ranks 4\n");
    for (int r = 0; r < 4; r++)
        n += snprintf(text + n, sizeof text - (size_t)n, "rank %d\n SEND %d 10w\n RECEIVE %d 10w\n WAIT\n WORK 1000\n",
                      r, (r + 1) % 4, (r + 3) % 4);
    ps_sim_result r;
    CHECK(sim(text, NULL, &r) == 0);
    NEAR(r.time, 2 * L + 10 * W + 1000 * F);
    for (int i = 0; i < 4; i++) {
        NEAR(r.rank[i].end, 2 * L + 10 * W + 1000 * F);
        NEAR(r.rank[i].work, 1000 * F);
        NEAR(r.rank[i].comm, 2 * L + 10 * W);
        CHECK(r.trace->rank[i].n == 5); /* SEND, POST, WAIT(send), RECV, COMPUTE */
    }
    ps_sim_result_free(&r);
}

/* A message to the rank itself: with the model's [self] its receive's post,
 * its send and the wait of both take the table's figure, interpolated, in
 * either order and buffered or not, stretched with the rank's other costs
 * where ranks share a core; it neither holds nor frees the bus (two messages
 * queue there meanwhile); without [self] a message between two ranks
 * (counted, for predict to say); a blocking send to itself above the
 * buffered size, before its receive, deadlocks, as MPI may. */
TEST_IMPL(self_message)
{
    const char *text = "ranks 4\n"
                       "rank 0\n RECEIVE 0 10w\n SEND 0 10w\n WAIT\n"
                       "rank 1\n BSEND 2 100000w\n"
                       "rank 2\n RECEIVE 1 100000w\n RECEIVE 3 100000w\n WAIT\n"
                       "rank 3\n BSEND 2 100000w\n";
    ps_machine m = *sp2();
    m.nself = 2;
    m.self_bytes[0] = 8, m.self_time[0] = 60e-6;
    m.self_bytes[1] = 80008, m.self_time[1] = 260e-6;
    NEAR(ps_machine_self_time(&m, 80), 60e-6 + 200e-6 * 72 / 80000);
    NEAR(ps_machine_self_time(sp2(), 80), -1);
    ps_sim_opts o;
    ps_sim_defaults(&o);
    for (int bus = 0; bus < 2; bus++) {
        o.bus = bus;
        ps_streams *s = parse(text);
        ps_sim_result r;
        char err[512];
        CHECK(ps_simulate(s, &m, &o, &r, err, sizeof err) == 0, "%s", err);
        NEAR(r.rank[0].end, 60e-6 + 200e-6 * 72 / 80000);
        /* the second message to rank 2 waits for its receive, and on a bus for the first */
        NEAR(r.rank[2].end, bus ? L + 2 * 100000 * W : 2 * L + 100000 * W);
        CHECK(r.messages == 3 && r.self_messages == 1);
        CHECK(r.rank[0].sent == 1 && r.rank[0].received == 1);
        ps_sim_result_free(&r);
        /* without [self]: as a message between two ranks */
        CHECK(ps_simulate(s, sp2(), &o, &r, err, sizeof err) == 0, "%s", err);
        NEAR(r.rank[0].end, 2 * L + 10 * W);
        NEAR(r.rank[2].end, bus ? L + 2 * 100000 * W : 2 * L + 100000 * W);
        CHECK(r.self_messages == 1);
        ps_sim_result_free(&r);
        ps_streams_free(s);
    }
    /* the send first, buffered or not; and two ranks on one core (each cost twice as long) */
    ps_machine m1 = m;
    m1.cores_per_node = 1;
    for (int k = 0; k < 3; k++) {
        ps_sim_opts o2;
        ps_sim_defaults(&o2);
        o2.eager_bytes = k == 1 ? 100 : 0;
        ps_streams *s = parse(k < 2 ? "ranks 1\nrank 0\n SEND 0 10w\n RECEIVE 0 10w\n WAIT\n"
                                    : "ranks 2\nrank 0\n RECEIVE 0 10w\n SEND 0 10w\n WAIT\nrank 1\n WORK 1\n");
        ps_sim_result r;
        char err[512];
        CHECK(ps_simulate(s, k < 2 ? &m : &m1, &o2, &r, err, sizeof err) == 0, "%s", err);
        NEAR(r.rank[0].end, (k < 2 ? 1 : 2) * (60e-6 + 200e-6 * 72 / 80000));
        ps_sim_result_free(&r);
        ps_streams_free(s);
    }
    o.bus = 0;
    ps_sim_result r;
    const char *blocking = "ranks 1\nrank 0\n BSEND 0 1000\n BRECEIVE 0 1000\n";
    CHECK(sim(blocking, &o, &r) == 1);
    CHECK(r.report && strstr(r.report, "rank 0: instruction 1, BSEND to 0"), "%s", r.report ? r.report : "");
    ps_sim_result_free(&r);
    o.eager_bytes = 1000;
    CHECK(sim(blocking, &o, &r) == 0);
    NEAR(r.time, 2 * L + 125 * W);
    ps_sim_result_free(&r);
}

/* Two pairs transmit 100 words at once.  nobus: both finish at L + 100 W.
 * bus: the second transfer waits for the first (2 L... no: L + 2 * 100 W). */
TEST_IMPL(bus_conflict)
{
    const char *text = "ranks 4\n"
                       "rank 0\n BSEND 1 100w\n"
                       "rank 1\n BRECEIVE 0 100w\n"
                       "rank 2\n BSEND 3 100w\n"
                       "rank 3\n BRECEIVE 2 100w\n";
    ps_sim_result r;
    ps_sim_opts o;
    ps_sim_defaults(&o);
    CHECK(sim(text, &o, &r) == 0);
    NEAR(r.time, L + 100 * W);
    ps_sim_result_free(&r);
    o.bus = 1;
    CHECK(sim(text, &o, &r) == 0);
    NEAR(r.time, L + 2 * 100 * W);
    NEAR(r.rank[0].end, L + 100 * W);
    NEAR(r.rank[2].end, L + 2 * 100 * W);
    /* rank 2 waited 100 W for the bus, then 100 W transmitting */
    NEAR(r.rank[2].wait, 100 * W);
    NEAR(r.rank[2].comm, L + 100 * W);
    ps_sim_result_free(&r);
}

/* A star network: ranks round robin on the nodes, one link per node whose
 * two directions each carry one message at a time (8 / W bytes/s, so 1000
 * words hold a link 1000 W).  Rank 0 sends 1000 words to each other rank:
 * its way out is shared, so the transfers follow one another. */
TEST_IMPL(star_links)
{
    ps_machine m = *sp2();
    m.star = 1;
    m.nodes = 4;
    m.link_rate = 8 / W;
    const char *fan_out = "ranks 4\n"
                          "rank 0\n SEND 1 1000w\n SEND 2 1000w\n SEND 3 1000w\n WAIT\n"
                          "rank 1\n BRECEIVE 0 1000w\n"
                          "rank 2\n BRECEIVE 0 1000w\n"
                          "rank 3\n BRECEIVE 0 1000w\n";
    const char *fan_in = "ranks 4\n"
                         "rank 0\n RECEIVE 1 1000w\n RECEIVE 2 1000w\n RECEIVE 3 1000w\n WAIT\n"
                         "rank 1\n BSEND 0 1000w\n"
                         "rank 2\n BSEND 0 1000w\n"
                         "rank 3\n BSEND 0 1000w\n";
    const char *pairs = "ranks 4\n"
                        "rank 0\n BSEND 1 1000w\n"
                        "rank 1\n BRECEIVE 0 1000w\n"
                        "rank 2\n BSEND 3 1000w\n"
                        "rank 3\n BRECEIVE 2 1000w\n";
    struct { const char *text; int nodes, bus; double want; } c[] = {
        {fan_out, 0, -1, L + 3000 * W},   /* sends at L, 2L, 3L; each waits for the one before */
        {fan_in, 0, -1, L + 3000 * W},    /* node 0's way in, the same */
        {pairs, 0, -1, L + 1000 * W},     /* disjoint links: at once */
        /* two nodes: 0 and 2 share node 0, their message uses no link;
         * 0 -> 1 and 0 -> 3 share node 0's way out */
        {fan_out, 2, -1, L + 2000 * W},
        {fan_out, 1, -1, 3 * L + 1000 * W}, /* one node: no links */
        {fan_out, 0, 0, 3 * L + 1000 * W},  /* --nobus: links cost nothing */
    };
    /* within a node, the model's own ping-pong there: 8000 bytes in 2 L + 1 us
     * (the latencies paid apart leave 1 us on the wire) */
    ps_machine mi = m;
    mi.npp_intra = 2;
    mi.ppi_bytes[0] = 0;
    mi.ppi_time[0] = 2 * L;
    mi.ppi_bytes[1] = 80000;
    mi.ppi_time[1] = 2 * L + 10e-6;
    const char *near = "ranks 4\nrank 0\n BSEND 2 1000w\nrank 1\nrank 2\n BRECEIVE 0 1000w\nrank 3\n";
    struct { int nodes; double want; } ci[] = {{2, L + 1e-6}, {4, L + 1000 * W}, {1, L + 1000 * W}};
    for (size_t k = 0; k < sizeof ci / sizeof ci[0]; k++) {
        ps_sim_opts o;
        ps_sim_defaults(&o);
        o.nodes = ci[k].nodes;
        ps_streams *s = parse(near);
        ps_sim_result r;
        char err[512];
        CHECK(ps_simulate(s, &mi, &o, &r, err, sizeof err) == 0, "%s", err);
        NEAR(r.time, ci[k].want);
        ps_sim_result_free(&r);
        ps_streams_free(s);
    }
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        ps_sim_opts o;
        ps_sim_defaults(&o);
        o.nodes = c[k].nodes;
        o.bus = c[k].bus;
        ps_streams *s = parse(c[k].text);
        ps_sim_result r;
        char err[512];
        CHECK(ps_simulate(s, &m, &o, &r, err, sizeof err) == 0, "case %zu: %s", k, err);
        NEAR(r.time, c[k].want);
        ps_sim_result_free(&r);
        ps_streams_free(s);
    }
}

/* A late receiver: the sender blocks until the receive is posted (the seed's
 * blocking send); with eager buffering it does not. */
TEST_IMPL(late_receiver_and_eager)
{
    const char *text = "ranks 2\n"
                       "rank 0\n BSEND 1 10w\n"
                       "rank 1\n WORK 10000\n BRECEIVE 0 10w\n";
    ps_sim_result r;
    ps_sim_opts o;
    ps_sim_defaults(&o);
    CHECK(sim(text, &o, &r) == 0);
    double recv_posted = 10000 * F + L;
    NEAR(r.rank[0].end, recv_posted + 10 * W);
    NEAR(r.rank[0].wait, recv_posted - L);
    NEAR(r.rank[1].end, recv_posted + 10 * W);
    ps_sim_result_free(&r);
    o.eager_bytes = 80;
    CHECK(sim(text, &o, &r) == 0);
    NEAR(r.rank[0].end, L + 10 * W);
    NEAR(r.rank[1].end, recv_posted); /* the data was already there */
    ps_sim_result_free(&r);
}

/* WAITONE completes one request; WAIT the rest. */
TEST_IMPL(waitone)
{
    ps_sim_result r;
    CHECK(sim("ranks 2\n"
              "rank 0\n RECEIVE 1 1w\n RECEIVE 1 1000w tag 7\n WAITONE 1\n WORK 100\n WAIT\n"
              "rank 1\n BSEND 0 1w\n WORK 100000\n BSEND 0 1000w tag 7\n",
              NULL, &r) == 0);
    /* the first receive and the small send are both posted at L */
    NEAR(r.rank[1].end, L + W + 100000 * F + L + 1000 * W);
    NEAR(r.rank[0].end, r.rank[1].end);   /* WAIT for the big one */
    /* the small message arrived (L + W) before rank 0's WAITONE (2 L): no wait */
    CHECK(r.trace->rank[0].n == 5);
    NEAR(r.trace->rank[0].ev[2].t0, 2 * L);
    NEAR(r.trace->rank[0].ev[2].t1, 2 * L);
    NEAR(r.trace->rank[0].ev[3].t0, 2 * L);
    ps_sim_result_free(&r);
}

/* A message longer than the receive that takes it (MPI fails it:
 * MPI_ERR_TRUNCATE) is counted, the first kept, the receive posted first or
 * last, blocking or not, and priced by its send; a shorter one, or one of
 * the same size, is not counted. */
TEST_IMPL(message_truncated)
{
    static const char *const bad[] = {
        "ranks 2\nrank 0\n WORK 1000\n BSEND 1 100w\nrank 1\n BRECEIVE 0 4w\n",   /* receive first */
        "ranks 2\nrank 0\n SEND 1 100w tag 5\n WAIT\nrank 1\n WORK 1000\n RECEIVE 0 4w tag 5\n WAIT\n",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ps_sim_opts o;
        ps_sim_defaults(&o);
        o.eager_bytes = 1 << 20;   /* (buffered: the send does not wait for the receive) */
        ps_sim_result r;
        CHECK(sim(bad[k], &o, &r) == 0, "program %zu", k);
        const ps_sim_truncated *t = &r.truncated;
        CHECK(t->count == 1 && t->rank == 1 && t->from == 0 && t->tag == (k ? 5 : 0) && t->posted_bytes == 32 &&
                  t->message_bytes == 800,
              "program %zu: %llu truncated, rank %d from %d tag %d, %llu of %llu bytes", k,
              (unsigned long long)t->count, t->rank, t->from, t->tag, (unsigned long long)t->posted_bytes,
              (unsigned long long)t->message_bytes);
        CHECK(r.rank[1].bytes_sent == 0 && r.rank[0].bytes_sent == 800);
        ps_sim_result_free(&r);
    }
    ps_sim_result r;
    CHECK(sim("ranks 2\nrank 0\n BSEND 1 4w\n WORK 1000\n BSEND 1 4w\n"
              "rank 1\n WORK 100\n BRECEIVE 0 4w\n BRECEIVE 0 100w\n",
              NULL, &r) == 0);
    CHECK(r.truncated.count == 0 && r.messages == 2);
    ps_sim_result_free(&r);
}

TEST_IMPL(deadlock)
{
    ps_sim_result r;
    CHECK(sim("ranks 3\n"
              "rank 0\n BRECEIVE 1 1w\n BSEND 1 1w\n"
              "rank 1\n BRECEIVE 0 1w\n BSEND 0 1w\n"
              "rank 2\n WORK 10\n",
              NULL, &r) == 1);
    CHECK(r.deadlock == 1);
    CHECK(r.report != NULL);
    if (r.report) {
        CHECK(strstr(r.report, "2 of 3 ranks") != NULL);
        CHECK(strstr(r.report, "rank 0: instruction 1, BRECEIVE from 1 (tag 0, 8 bytes): no matching send posted"));
        CHECK(strstr(r.report, "rank 1: instruction 1, BRECEIVE from 0"));
        CHECK(strstr(r.report, "rank 2") == NULL);
    }
    ps_sim_result_free(&r);

    /* a WAIT for a receive whose send never comes */
    CHECK(sim("ranks 2\n"
              "rank 0\n RECEIVE 1 4 tag 3\n SEND 1 4\n WAIT\n"
              "rank 1\n BRECEIVE 0 4\n",
              NULL, &r) == 1);
    CHECK(r.report && strstr(r.report, "rank 0: instruction 3, WAIT for 1 incomplete request: RECEIVE from 1 (tag 3"));
    ps_sim_result_free(&r);

    /* a ring of blocking sends deadlocks without buffering, not with it */
    const char *ring = "ranks 3\n"
                       "rank 0\n BSEND 1 8\n BRECEIVE 2 8\n"
                       "rank 1\n BSEND 2 8\n BRECEIVE 0 8\n"
                       "rank 2\n BSEND 0 8\n BRECEIVE 1 8\n";
    CHECK(sim(ring, NULL, &r) == 1);
    CHECK(r.report && strstr(r.report, "rank 2: instruction 1, BSEND to 0 (tag 0, 8 bytes): no matching receive posted"));
    ps_sim_result_free(&r);
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.eager_bytes = 8;
    CHECK(sim(ring, &o, &r) == 0);
    ps_sim_result_free(&r);
}

TEST_IMPL(encoding)
{
    ps_insn_ctx c = {.rank = 5};
    uint8_t buf[PS_INSN_MAX];
    ps_insn in = {.op = PS_OP_SEND, .peer = 6, .tag = 0, .construct = 0, .n = 100};
    CHECK(ps_insn_encode(&c, &in, buf) == 3); /* op, peer delta, bytes */
    in.n = 1 << 20;
    in.construct = 3;
    in.tag = 42;
    size_t k = ps_insn_encode(&c, &in, buf);
    CHECK(k == 7);
    ps_insn_ctx d = {.rank = 5, .tag = 0, .construct = 0};
    ps_insn out;
    CHECK(ps_insn_decode(&d, buf, buf + k, &out) == buf + k);
    CHECK(out.op == PS_OP_SEND && out.peer == 6 && out.n == (1u << 20) && out.tag == 42 && out.construct == 3);
    /* a construct call's first instruction carries its flag through the encoding */
    in.begins = 1;
    k = ps_insn_encode(&c, &in, buf);
    CHECK((buf[0] & PS_OPF_BEGINS) != 0);
    CHECK(ps_insn_decode(&d, buf, buf + k, &out) == buf + k && out.begins == 1 && out.op == PS_OP_SEND);
    in.begins = 0;
    k = ps_insn_encode(&c, &in, buf);
    CHECK(ps_insn_decode(&d, buf, buf + k, &out) == buf + k && out.begins == 0);
    uint8_t high = PS_OP_WAIT | 0x80;
    CHECK(ps_insn_decode(&d, &high, &high + 1, &out) == NULL);
    /* a send's written bytes: carried through (one more varint), none without the flag, at most
     * the message's bytes, and only on a send */
    in.written = 300;
    k = ps_insn_encode(&c, &in, buf);
    CHECK((buf[0] & PS_OPF_WRITTEN) != 0);
    CHECK(ps_insn_decode(&d, buf, buf + k, &out) == buf + k && out.written == 300 && out.n == (1u << 20));
    in.written = 0;
    size_t k0 = ps_insn_encode(&c, &in, buf);
    CHECK(k0 + 2 == k && !(buf[0] & PS_OPF_WRITTEN));
    CHECK(ps_insn_decode(&d, buf, buf + k0, &out) == buf + k0 && out.written == 0);
    uint8_t over[] = {PS_OP_SEND | PS_OPF_WRITTEN, 2, 10, 11};   /* 11 written of 10 bytes */
    CHECK(ps_insn_decode(&d, over, over + sizeof over, &out) == NULL);
    uint8_t none[] = {PS_OP_SEND | PS_OPF_WRITTEN, 2, 10, 0};    /* 0 written: no flag */
    CHECK(ps_insn_decode(&d, none, none + sizeof none, &out) == NULL);
    uint8_t recv[] = {PS_OP_RECV | PS_OPF_WRITTEN, 2, 10, 10};   /* a receive: no such flag */
    CHECK(ps_insn_decode(&d, recv, recv + sizeof recv, &out) == NULL);
    in.op = PS_OP_RECV;
    in.written = 5;   /* (ignored on a receive) */
    k = ps_insn_encode(&c, &in, buf);
    CHECK(!(buf[0] & PS_OPF_WRITTEN) && ps_insn_decode(&d, buf, buf + k, &out) == buf + k && out.written == 0);
    /* truncated and invalid bytes are refused */
    CHECK(ps_insn_decode(&d, buf, buf + k - 1, &out) == NULL);
    uint8_t bad = 0x0f;
    CHECK(ps_insn_decode(&d, &bad, &bad + 1, &out) == NULL);
}

TEST_IMPL(round_trip)
{
    const char *text = "ranks 3\n"
                       "rank 0\n  SEND 1 16 tag 4 construct EXCHANGE\n  RECEIVE 2 16\n  WAIT\n  WORK 123456789\n"
                       "rank 1\n  BRECEIVE 0 16 tag 4\n  MARK construct my_phase\n"
                       "rank 2\n  BSEND 0 16 tag 4\n  WAITONE 0\n  RECEIVE 1 0\n";
    ps_streams *s = NULL;
    char err[512];
    /* WAITONE before any request is refused */
    CHECK(ps_streams_parse_text(text, "rt.txt", &s, err, sizeof err) == -1);
    CHECK(strstr(err, "rt.txt:12:11: WAITONE 0: only 0 nonblocking requests") != NULL);
    const char *good = "ranks 3\n"
                       "rank 0\n  SEND 1 16 tag 4 construct EXCHANGE begins\n  RECEIVE 2 16\n  WAIT\n  WORK 123456789\n"
                       "rank 1\n  BRECEIVE 0 16 tag 4\n  MARK construct my_phase\n"
                       "rank 2\n  BSEND 0 16 written 8 tag 4\n  RECEIVE 1 0\n  WAITONE 0\n";
    s = parse(good);
    char dir[] = "/tmp/ps_sim_rtXXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK(ps_streams_save(s, dir, err, sizeof err) == 0);
    ps_streams *t = NULL;
    CHECK(ps_streams_load(dir, &t, err, sizeof err) == 0);
    if (t) {
        CHECK(t->nranks == 3 && t->nconstructs == s->nconstructs);
        for (int r = 0; r < 3; r++) CHECK(t->len[r] == s->len[r] && !memcmp(t->data[r], s->data[r], s->len[r]));
        char *a = NULL, *b = NULL;
        size_t al, bl;
        FILE *fa = open_memstream(&a, &al), *fb = open_memstream(&b, &bl);
        ps_streams_write_text(s, fa);
        ps_streams_write_text(t, fb);
        fclose(fa);
        fclose(fb);
        CHECK(al == bl && !strcmp(a, b));
        CHECK(strstr(a, "MARK construct my_phase") != NULL);
        CHECK(strstr(a, "SEND 1 16 tag 4 construct EXCHANGE begins\n") != NULL);
        CHECK(strstr(a, "BSEND 0 16 tag 4 written 8\n") != NULL);
        /* the text form parses back to the same bytes */
        ps_streams *u = parse(a);
        for (int r = 0; r < 3; r++) CHECK(u->len[r] == s->len[r] && !memcmp(u->data[r], s->data[r], s->len[r]));
        ps_streams_free(u);
        free(a);
        free(b);
        ps_streams_stats st;
        CHECK(ps_streams_stats_get(t, &st) == 0);
        CHECK(st.instructions == 9 && st.messages == 2 && st.bytes == 32);
        NEAR(st.flops, 123456789.0);
        /* the simulation's own count, from its check of the streams: the same
         * (these streams deadlock: rank 2 waits for a message rank 1 never sends) */
        ps_sim_result sr;
        char serr[256] = "";
        CHECK(ps_simulate(t, sp2(), NULL, &sr, serr, sizeof serr) >= 0, "%s", serr);
        CHECK(!memcmp(&sr.streams, &st, sizeof st), "%llu instructions, %llu messages counted by the simulation",
              (unsigned long long)sr.streams.instructions, (unsigned long long)sr.streams.messages);
        ps_sim_result_free(&sr);
        ps_streams_free(t);
    }
    /* a truncated file is refused with its name */
    char path[256];
    snprintf(path, sizeof path, "%s/streams.pss", dir);
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fclose(f);
        CHECK(truncate(path, size - 2) == 0);
        CHECK(ps_streams_load(path, &t, err, sizeof err) == -1);
        CHECK(strstr(err, "streams.pss: truncated") != NULL);
    }
    unlink(path);
    rmdir(dir);
    ps_streams_free(s);
}

TEST_IMPL(bad_text)
{
    struct { const char *text, *msg; } cases[] = {
        {"rank 0\n", "x.txt:1:1: 'ranks N' must come first"},
        {"ranks 2\nrank 0\n SEND 2 8\n", "x.txt:3:7: expected a partner rank 0..1, got '2'"},
        {"ranks 2\nrank 0\n SEND 1 eight\n", "x.txt:3:9: expected a size in bytes"},
        {"ranks 2\nrank 0\n JUMP 1\n", "x.txt:3:2: unknown instruction 'JUMP'"},
        {"ranks 2\nrank 3\n", "x.txt:2:6: expected a rank 0..1, got '3'"},
        {"ranks 2\nrank 0\n WAIT 5\n", "x.txt:3:7: unexpected '5' after WAIT"},
        {"ranks 0\n", "x.txt:1:7: expected a rank count"},
        {"", "x.txt:1:1: no 'ranks N' line"},
        {"ranks 2\nrank 0\n SEND 1 8 written 9\n", "x.txt:3:19: written: expected a byte count from 1 to the message's 8, got '9'"},
        {"ranks 2\nrank 0\n SEND 1 8 written 0\n", "x.txt:3:19: written: expected a byte count"},
        {"ranks 2\nrank 0\n SEND 1 8 written\n", "x.txt:3:18: written: expected a byte count"},
        {"ranks 2\nrank 0\n RECEIVE 1 8 written 8\n", "x.txt:3:14: unexpected 'written' after RECEIVE"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ps_streams *s = NULL;
        char err[512] = "";
        CHECK(ps_streams_parse_text(cases[i].text, "x.txt", &s, err, sizeof err) == -1);
        CHECK(s == NULL);
        if (!strstr(err, cases[i].msg)) {
            fprintf(stderr, "case %zu: got '%s', expected '%s'\n", i, err, cases[i].msg);
            failures++;
        }
    }
}

/* Matching stays keyed by (receiver, sender, tag): many messages on many
 * channels, received in reverse channel order, all match; records in flight
 * never exceed what was posted and unmatched. */
TEST_IMPL(many_channels)
{
    int P = 64, K = 50;
    ps_streams *s = ps_streams_new(P);
    for (int r = 1; r < P; r++)
        for (int k = 0; k < K; k++) {
            ps_insn in = {.op = PS_OP_SEND, .peer = 0, .tag = k, .n = 8};
            CHECK(ps_streams_append(s, r, &in) == 0);
        }
    for (int r = 1; r < P; r++) {
        ps_insn w = {.op = PS_OP_WAIT};
        ps_streams_append(s, r, &w);
    }
    for (int k = K - 1; k >= 0; k--)
        for (int r = P - 1; r >= 1; r--) {
            ps_insn in = {.op = PS_OP_BRECV, .peer = r, .tag = k, .n = 8};
            ps_streams_append(s, 0, &in);
        }
    ps_sim_result res;
    char err[256];
    ps_sim_opts o;
    ps_sim_defaults(&o);
    o.build_trace = 0;
    CHECK(ps_simulate(s, sp2(), &o, &res, err, sizeof err) == 0);
    CHECK(res.messages == (uint64_t)(P - 1) * K);
    CHECK(res.peak_in_flight <= (uint64_t)(P - 1) * K);
    /* the first receive waits for the last send rank 63 posts (at K L); then
     * rank 0 receives one after another, each costing L + W */
    NEAR(res.rank[0].end, K * L + W + ((P - 1) * K - 1) * (L + W));
    ps_sim_result_free(&res);
    ps_streams_free(s);
}

/* Up to 1024 ranks messages are matched through an index of (receiver,
 * sender) pairs, each pair one FIFO of every tag; a pair whose FIFO grows
 * long with other tags moves everything to the hash table of (receiver,
 * sender, tag).  Either way the prediction is the hash table's: sends and
 * receives of K tags between every rank and rank 0, posted in opposite tag
 * orders, both sides pending at once (K = 200 moves to the hash table). */
TEST_IMPL(pair_index_same_as_hash)
{
    const int P = 8;
    for (int K = 10; K <= 200; K += 190) {
        ps_streams *s = ps_streams_new(P);
        for (int r = 1; r < P; r++) {
            for (int k = K - 1; k >= 0; k--) {
                ps_insn in = {.op = PS_OP_RECV, .peer = 0, .tag = k, .n = 8 + (uint64_t)k};
                CHECK(ps_streams_append(s, r, &in) == 0);
            }
            for (int k = 0; k < K; k++) {
                ps_insn in = {.op = PS_OP_SEND, .peer = 0, .tag = k, .n = 16};
                CHECK(ps_streams_append(s, r, &in) == 0);
            }
            ps_insn w = {.op = PS_OP_WAIT};
            CHECK(ps_streams_append(s, r, &w) == 0);
            for (int k = 0; k < K; k++) {
                ps_insn in = {.op = PS_OP_SEND, .peer = r, .tag = k, .n = 8 + (uint64_t)k};
                CHECK(ps_streams_append(s, 0, &in) == 0);
            }
        }
        for (int r = P - 1; r >= 1; r--)
            for (int k = K - 1; k >= 0; k--) {
                ps_insn in = {.op = PS_OP_BRECV, .peer = r, .tag = k, .n = 16};
                CHECK(ps_streams_append(s, 0, &in) == 0);
            }
        ps_insn w = {.op = PS_OP_WAIT};
        CHECK(ps_streams_append(s, 0, &w) == 0);
        ps_sim_result res[2];
        char err[256];
        for (int hashed = 0; hashed < 2; hashed++) {
            ps_sim_opts o;
            ps_sim_defaults(&o);
            o.build_trace = 1;
            o.hashed_channels = hashed;
            CHECK(ps_simulate(s, sp2(), &o, &res[hashed], err, sizeof err) == 0, "K %d: %s", K, err);
        }
        ps_sim_result *a = &res[0], *b = &res[1];
        CHECK(a->messages == (uint64_t)2 * (P - 1) * K && a->messages == b->messages, "K %d", K);
        CHECK(a->time == b->time && a->events == b->events && a->peak_in_flight == b->peak_in_flight, "K %d", K);
        for (int r = 0; r < P; r++) {
            CHECK(memcmp(&a->rank[r], &b->rank[r], sizeof a->rank[r]) == 0, "K %d: rank %d", K, r);
            const ps_rank_trace *ta = &a->trace->rank[r], *tb = &b->trace->rank[r];
            CHECK(ta->n == tb->n && memcmp(ta->ev, tb->ev, ta->n * sizeof *ta->ev) == 0, "K %d: rank %d's trace", K, r);
        }
        ps_sim_result_free(&res[0]);
        ps_sim_result_free(&res[1]);
        ps_streams_free(s);
    }
}

/* Random programs: each message's send appended to its sender's stream and
 * its receive to its receiver's in one order (so every channel matches in
 * order), blocking or not, some to the sending rank itself, with
 * computation, WAITs and WAITONEs between; some (a message nobody matches,
 * a blocking send to the rank itself before its receive) deadlock.  The seed's model on a network without shared links takes
 * the ranks' steps in free order; taken in time order through the event
 * queue instead, every figure, trace event and deadlock report is the same,
 * buffered (eager) or not, on one node or two, at 2 to 6 ranks and at 64 to
 * 80. */
static uint64_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 33;
}

static ps_streams *random_streams(uint64_t *x, int P, int M)
{
    static const uint64_t sizes[] = {1, 8, 40, 100, 1000, 20000};
    ps_streams *s = ps_streams_new(P);
    uint64_t *issued = calloc((size_t)P, sizeof *issued);
    for (int k = 0; k < M; k++) {
        int src = (int)(lcg(x) % (uint64_t)P), dst = (int)(lcg(x) % (uint64_t)(P - 1));
        if (dst >= src) dst++;
        if (lcg(x) % 12 == 0) dst = src;   /* to the rank itself */
        int tag = (int)(lcg(x) % 3);
        uint64_t n = sizes[lcg(x) % 6];
        for (int side = 0; side < 2; side++) {
            int r = side ? dst : src;
            if (lcg(x) % 4 == 0) {
                ps_insn w = {.op = PS_OP_WORK, .n = 1 + lcg(x) % 5000};
                CHECK(ps_streams_append(s, r, &w) == 0);
            }
            int blocking = lcg(x) % 2;
            ps_insn in = {.op = side ? (blocking ? PS_OP_BRECV : PS_OP_RECV) : (blocking ? PS_OP_BSEND : PS_OP_SEND),
                          .peer = side ? src : dst, .tag = tag, .n = n};
            CHECK(ps_streams_append(s, r, &in) == 0);
            if (!blocking) issued[r]++;
            uint64_t c = lcg(x) % 8;
            if (lcg(x) % 120 == 0) {
                /* a message nobody matches (tag 9): a deadlock, unless a buffered send */
                int peer = (int)(lcg(x) % (uint64_t)(P - 1));
                if (peer >= r) peer++;
                static const int ops[] = {PS_OP_BRECV, PS_OP_RECV, PS_OP_BSEND};
                ps_insn u = {.op = ops[lcg(x) % 3], .peer = peer, .tag = 9, .n = 64};
                CHECK(ps_streams_append(s, r, &u) == 0);
                if (u.op == PS_OP_RECV) issued[r]++;
            }
            if (c == 0 && issued[r]) {
                ps_insn w = {.op = PS_OP_WAITONE, .n = lcg(x) % issued[r]};
                CHECK(ps_streams_append(s, r, &w) == 0);
            } else if (c == 1) {
                ps_insn w = {.op = PS_OP_WAIT};
                CHECK(ps_streams_append(s, r, &w) == 0);
            }
        }
    }
    for (int r = 0; r < P; r++) {
        ps_insn w = {.op = PS_OP_WAIT};
        CHECK(ps_streams_append(s, r, &w) == 0);
    }
    free(issued);
    return s;
}

TEST_IMPL(free_order_same_as_time_order)
{
    uint64_t x = 12345;
    int deadlocks = 0, runs = 0;
    for (int trial = 0; trial < 308; trial++) {
        /* the last 8: 64 to 80 ranks, where a rank's instructions are decoded ahead, half of them
         * matched through the hash table */
        int big = trial >= 300;
        int P = big ? 64 + (int)(lcg(&x) % 17) : 2 + (int)(lcg(&x) % 5);
        int M = big ? 3000 + (int)(lcg(&x) % 2000) : 5 + (int)(lcg(&x) % 60);
        ps_streams *s = random_streams(&x, P, M);
        ps_sim_opts o;
        ps_sim_defaults(&o);
        o.build_trace = 1;
        o.eager_bytes = trial % 3 == 0 ? 0 : trial % 3 == 1 ? 100 : 1e9;
        o.nodes = trial % 2 ? 2 : 0;
        o.hashed_channels = big && trial % 2;
        ps_sim_result res[2];
        int rc[2];
        char err[256];
        for (int ordered = 0; ordered < 2; ordered++) {
            o.ordered = ordered;
            rc[ordered] = ps_simulate(s, sp2(), &o, &res[ordered], err, sizeof err);
            CHECK(rc[ordered] >= 0, "trial %d: %s", trial, err);
        }
        ps_sim_result *a = &res[0], *b = &res[1];
        CHECK(rc[0] == rc[1] && a->deadlock == b->deadlock, "trial %d: exit %d against %d", trial, rc[0], rc[1]);
        CHECK(a->time == b->time && a->messages == b->messages, "trial %d: %.17g s against %.17g s", trial, a->time,
              b->time);
        CHECK(a->streams.instructions == b->streams.instructions && a->streams.messages == b->streams.messages &&
                  a->streams.bytes == b->streams.bytes && a->streams.flops == b->streams.flops,
              "trial %d: the streams' counts differ", trial);
        CHECK((a->report == NULL) == (b->report == NULL) && (!a->report || strcmp(a->report, b->report) == 0),
              "trial %d: the deadlock reports differ:\n%s\n%s", trial, a->report ? a->report : "",
              b->report ? b->report : "");
        for (int r = 0; r < P; r++) {
            CHECK(memcmp(&a->rank[r], &b->rank[r], sizeof a->rank[r]) == 0,
                  "trial %d: rank %d ends %.17g against %.17g", trial, r, a->rank[r].end, b->rank[r].end);
            const ps_rank_trace *ta = &a->trace->rank[r], *tb = &b->trace->rank[r];
            CHECK(ta->n == tb->n && (!ta->n || memcmp(ta->ev, tb->ev, ta->n * sizeof *ta->ev) == 0),
                  "trial %d: rank %d's trace", trial, r);
        }
        if (a->has_sheet && b->has_sheet) {
            CHECK(a->sheet.messages_sent == b->sheet.messages_sent && a->sheet.max_queue == b->sheet.max_queue &&
                      a->sheet.avg_queue == b->sheet.avg_queue && a->sheet.idle_pct == b->sheet.idle_pct,
                  "trial %d: the sheets differ", trial);
        }
        if (!big) {
            deadlocks += a->deadlock;
            runs++;
        }
        ps_sim_result_free(&res[0]);
        ps_sim_result_free(&res[1]);
        ps_streams_free(s);
    }
    /* both kinds of program were compared */
    CHECK(deadlocks > 20 && runs - deadlocks > 20, "%d of %d deadlocked", deadlocks, runs);
}

/* Free order checks the streams as it takes their instructions, instead of
 * in a pass of its own before: a program with one bad instruction appended
 * to a rank (a partner below rank 0, a partner that is no rank, a
 * WAITONE of a request never issued, a construct not in the table, an
 * instruction cut short) is refused with the same message as in time order,
 * whether the simulation reaches it or deadlocks first; a good one has the
 * same counts. */
TEST_IMPL(free_order_checks_streams)
{
    uint64_t x = 777;
    int refused = 0;
    for (int trial = 0; trial < 212; trial++) {
        int big = trial >= 200;   /* 64 to 70 ranks: instructions decoded ahead */
        int P = big ? 64 + (int)(lcg(&x) % 7) : 2 + (int)(lcg(&x) % 5);
        int M = big ? 1000 : 5 + (int)(lcg(&x) % 60);
        ps_streams *s = random_streams(&x, P, M);
        int r = (int)(lcg(&x) % (uint64_t)P), kind = trial % 6;
        ps_insn bad = {.op = PS_OP_SEND, .peer = -1 - r, .n = 8};   /* 0: below rank 0 */
        if (kind == 1) bad = (ps_insn){.op = PS_OP_BRECV, .peer = P, .n = 8};
        if (kind == 2) bad = (ps_insn){.op = PS_OP_WAITONE, .n = 1000000};
        if (kind == 3) bad = (ps_insn){.op = PS_OP_WORK, .n = 5, .construct = (uint16_t)s->nconstructs};
        if (kind == 4) bad = (ps_insn){.op = PS_OP_SEND, .peer = (r + 1) % P, .n = (uint64_t)1 << 40};
        if (kind < 5) CHECK(ps_streams_append(s, r, &bad) == 0);
        if (kind == 4) s->len[r]--;   /* its size's last byte cut off */
        ps_sim_opts o;
        ps_sim_defaults(&o);
        o.eager_bytes = trial % 2 ? 100 : 0;
        ps_sim_result res[2];
        int rc[2];
        char err[2][512];
        for (int ordered = 0; ordered < 2; ordered++) {
            o.ordered = ordered;
            err[ordered][0] = 0;
            rc[ordered] = ps_simulate(s, sp2(), &o, &res[ordered], err[ordered], sizeof err[ordered]);
        }
        CHECK(rc[0] == rc[1] && strcmp(err[0], err[1]) == 0, "trial %d: %d \"%s\" against %d \"%s\"", trial, rc[0],
              err[0], rc[1], err[1]);
        CHECK((rc[0] == -1) == (kind < 5), "trial %d (kind %d): exit %d: %s", trial, kind, rc[0], err[0]);
        if (rc[0] >= 0 && rc[1] >= 0) {
            const ps_streams_stats *a = &res[0].streams, *b = &res[1].streams;
            CHECK(a->instructions == b->instructions && a->messages == b->messages && a->bytes == b->bytes &&
                      a->flops == b->flops && a->encoded_bytes == b->encoded_bytes,
                  "trial %d: the counts differ", trial);
        }
        refused += rc[0] == -1;
        for (int i = 0; i < 2; i++)
            if (rc[i] >= 0) ps_sim_result_free(&res[i]);
        ps_streams_free(s);
    }
    CHECK(refused > 150, "%d refused", refused);
}

/* The message pool reserved whole and made ready ahead by a helper thread
 * (past 32768 records), or grown by doubling: the same result.  64 ranks
 * each send rank 0 1500 messages it receives only after all are sent
 * (94500 in flight at once). */
TEST_IMPL(pool_reserved_or_grown)
{
    enum { P = 64, K = 1500 };
    ps_streams *s = ps_streams_new(P);
    for (int r = 1; r < P; r++) {
        for (int k = 0; k < K; k++) {
            ps_insn in = {.op = PS_OP_SEND, .peer = 0, .tag = 1, .n = 8 + (uint64_t)(k % 7)};
            CHECK(ps_streams_append(s, r, &in) == 0);
        }
        ps_insn w = {.op = PS_OP_WAIT};
        CHECK(ps_streams_append(s, r, &w) == 0);
    }
    ps_insn work = {.op = PS_OP_WORK, .n = 100000000};   /* 1.78 s on the SP2: every send is posted first */
    CHECK(ps_streams_append(s, 0, &work) == 0);
    for (int r = 1; r < P; r++)
        for (int k = 0; k < K; k++) {
            ps_insn in = {.op = PS_OP_RECV, .peer = r, .tag = 1, .n = 8 + (uint64_t)(k % 7)};
            CHECK(ps_streams_append(s, 0, &in) == 0);
        }
    ps_insn w = {.op = PS_OP_WAIT};
    CHECK(ps_streams_append(s, 0, &w) == 0);
    ps_sim_result res[2];
    char err[256];
    for (int grown = 0; grown < 2; grown++) {
        ps_sim_opts o;
        ps_sim_defaults(&o);
        o.eager_bytes = 64;   /* buffered: the sends complete, their records wait for the receives */
        o.grown_pool = grown;
        CHECK(ps_simulate(s, sp2(), &o, &res[grown], err, sizeof err) == 0, "grown %d: %s", grown, err);
    }
    ps_sim_result *a = &res[0], *b = &res[1];
    CHECK(a->messages == (uint64_t)(P - 1) * K && a->peak_in_flight == (uint64_t)(P - 1) * K,
          "%llu messages, %llu in flight at most", (unsigned long long)a->messages,
          (unsigned long long)a->peak_in_flight);
    CHECK(a->time == b->time && a->events == b->events && a->peak_in_flight == b->peak_in_flight);
    for (int r = 0; r < P; r++) CHECK(memcmp(&a->rank[r], &b->rank[r], sizeof a->rank[r]) == 0, "rank %d", r);
    ps_sim_result_free(&res[0]);
    ps_sim_result_free(&res[1]);
    ps_streams_free(s);
}

/* Streams of several megabytes are checked on two threads: the same totals
 * as counted here, and the first bad instruction in rank order reported,
 * whichever half of the ranks it is in. */
static ps_streams *large_streams(int P, int K, int bad1, int bad2)
{
    ps_streams *s = ps_streams_new(P);
    for (int r = 0; r < P; r++)
        for (int k = 0; k < K; k++) {
            ps_insn in = k % 2 ? (ps_insn){.op = PS_OP_SEND, .peer = (r + 1) % P, .tag = 1, .n = 64}
                               : (ps_insn){.op = PS_OP_WORK, .n = 1000 + (uint64_t)r};
            if ((r == bad1 || r == bad2) && k == K - 7) in = (ps_insn){.op = PS_OP_SEND, .peer = P + r, .tag = 1, .n = 8};
            CHECK(ps_streams_append(s, r, &in) == 0);
        }
    return s;
}

/* A stream file of 4 MB or more is read into memory of its own rather than
 * mapped: the same streams come back, and one cut short is refused. */
TEST_IMPL(load_large_file)
{
    enum { P = 64, K = 40000 };
    ps_streams *s = large_streams(P, K, -1, -1), *t = NULL;
    char dir[] = "/tmp/ps_sim_bigXXXXXX", err[512] = "", file[600];
    CHECK(mkdtemp(dir) != NULL);
    CHECK(ps_streams_save(s, dir, err, sizeof err) == 0, "%s", err);
    snprintf(file, sizeof file, "%s/%s", dir, PS_STREAMS_FILE);
    struct stat st;
    CHECK(stat(file, &st) == 0 && st.st_size >= (4 << 20), "%lld bytes", (long long)st.st_size);
    CHECK(ps_streams_load(dir, &t, err, sizeof err) == 0, "%s", err);
    if (t) {
        CHECK(t->nranks == P);
        for (int r = 0; r < P; r++) CHECK(t->len[r] == s->len[r] && !memcmp(t->data[r], s->data[r], s->len[r]), "rank %d", r);
        ps_streams_free(t);
        t = NULL;
    }
    CHECK(truncate(file, st.st_size - 100) == 0);
    CHECK(ps_streams_load(dir, &t, err, sizeof err) == -1 && t == NULL);
    CHECK(strstr(err, "truncated: rank 63's stream is cut short") != NULL, "%s", err);
    unlink(file);
    rmdir(dir);
    ps_streams_free(s);
}

TEST_IMPL(validate_large)
{
    enum { P = 64, K = 40000 };
    ps_streams *s = large_streams(P, K, -1, -1);
    ps_streams_stats st;
    char err[256] = "";
    size_t bytes = 0;
    for (int r = 0; r < P; r++) bytes += s->len[r];
    CHECK(bytes >= ((size_t)4 << 20), "%zu bytes: too few for two threads", bytes);
    CHECK(ps_streams_validate(s, &st, err, sizeof err) == 0, "%s", err);
    double flops = 0;
    for (int r = 0; r < P; r++) flops += (double)(K / 2) * (1000 + r);
    CHECK(st.instructions == (uint64_t)P * K && st.messages == (uint64_t)P * K / 2 &&
              st.bytes == (uint64_t)P * K / 2 * 64 && st.encoded_bytes == bytes && st.flops == flops,
          "%llu instructions, %llu messages, %llu bytes, %g flops", (unsigned long long)st.instructions,
          (unsigned long long)st.messages, (unsigned long long)st.bytes, st.flops);
    ps_streams_free(s);
    /* one bad instruction in the second half, then one in each */
    s = large_streams(P, K, 50, -1);
    CHECK(ps_streams_validate(s, &st, err, sizeof err) == -1);
    CHECK(strstr(err, "rank 50: instruction 39994: SEND partner 114 is not a rank") != NULL, "%s", err);
    ps_streams_free(s);
    s = large_streams(P, K, 3, 50);
    CHECK(ps_streams_validate(s, &st, err, sizeof err) == -1);
    CHECK(strstr(err, "rank 3: instruction 39994:") != NULL, "%s", err);
    ps_streams_free(s);
}

/* The event queue pops in (time, insertion) order whichever container an
 * event went to: the heap, or a lane that takes it when it is not before
 * the lane's last and passes it on to the heap otherwise.  Lanes are rings
 * that grow when full, also while their entries wrap around the end. */
TEST_IMPL(event_queue_order)
{
    enum { N = 6000 };
    static double t[N];
    static int done[N];
    ps_eventq q;
    CHECK(ps_eventq_init(&q, 4) == 0);
    uint64_t seed = 7;
    double now = 0;
    int pushed = 0, popped = 0, bad = 0;
    while (popped < N) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        int r = (int)(seed >> 33);
        /* mostly pushes early on, then mostly pops: the lanes wrap and grow */
        if (pushed < N && (r % 8 < (pushed < N / 2 ? 6 : 3) || popped == pushed)) {
            int L = r % 5;   /* 4: the heap */
            /* a fixed delay for most (in order), now and then an earlier one */
            double at = now + (r % 7 ? 1.0 + 0.25 * (L % 4) : (double)(r % 3) * 0.1) + (r % 11 == 0 ? 0 : 1e-3 * (r % 13));
            t[pushed] = at;
            int rc = L < PS_EVENTQ_LANES ? ps_eventq_push_lane(&q, L, at, (uint32_t)pushed, 0)
                                         : ps_eventq_push(&q, at, (uint32_t)pushed, 0);
            CHECK(rc == 0);
            pushed++;
        } else {
            /* the expected: the earliest pending, the first pushed among equals */
            int want = -1;
            for (int i = 0; i < pushed; i++)
                if (!done[i] && (want < 0 || t[i] < t[want])) want = i;
            ps_qent e;
            CHECK(ps_eventq_pop(&q, &e) == 0);
            if ((int)e.id != want && !bad++)
                CHECK((int)e.id == want, "pop %d: event %u (t %g), expected %d (t %g)", popped, e.id, e.t, want,
                      t[want]);
            done[e.id] = 1;
            now = e.t;
            popped++;
        }
    }
    ps_qent e;
    CHECK(ps_eventq_pop(&q, &e) == -1, "empty at the end");
    int grown = 0;
    for (int L = 0; L < PS_EVENTQ_LANES; L++) grown += q.lane[L].cap > 64;
    CHECK(grown > 0, "no lane grew past its first size: the test does not reach the growth");
    ps_eventq_free(&q);
}
