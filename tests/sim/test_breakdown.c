/*
 * test_breakdown.c - where a rank's time goes, by activity and construct, on
 * a trace made by hand (times in seconds, small integers):
 *   rank 0: compute A [0,10], isend B [10,11] (tag 5 to 1), its wait B [11,20],
 *           barrier C [20,21], ends at 22
 *   rank 1: post B [0,1], compute A [1,15], receive B [15,16], barrier C [16,21],
 *           ends at 22
 * The send's wait waits 4 for rank 1 to reach its receive (15 - 11), the rest
 * (5) is send overhead; the receive waits 0 (the message was sent at 11).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parscope/parscope.h"
#include "sim/breakdown.h"

#include "check.h"

static void push(ps_trace *t, int r, int kind, int construct, double t0, double t1, int peer, int tag, int flags)
{
    ps_event e = {.t0 = t0, .t1 = t1, .bytes = 8, .peer = peer, .tag = tag, .construct = (uint16_t)construct,
                  .kind = (uint8_t)kind, .flags = (uint8_t)flags};
    CHECK(ps_trace_push(t, r, &e) == 0);
}

static ps_trace *base_trace(void)
{
    ps_trace *t = ps_trace_new(2);
    const char *names[] = {"NONE", "A", "B", "C"};
    CHECK(ps_trace_set_constructs(t, names, 4) == 0);
    push(t, 0, PS_EV_COMPUTE, 1, 0, 10, -1, 0, 0);
    push(t, 0, PS_EV_SEND, 2, 10, 11, 1, 5, PS_EVF_NONBLOCKING);
    push(t, 0, PS_EV_WAIT, 2, 11, 20, 1, 5, PS_EVF_NONBLOCKING);
    push(t, 0, PS_EV_BARRIER, 3, 20, 21, -1, 0, 0);
    push(t, 1, PS_EV_POST, 2, 0, 1, 0, 5, PS_EVF_NONBLOCKING);
    push(t, 1, PS_EV_COMPUTE, 1, 1, 15, -1, 0, 0);
    push(t, 1, PS_EV_RECV, 2, 15, 16, 0, 5, PS_EVF_NONBLOCKING);
    push(t, 1, PS_EV_BARRIER, 3, 16, 21, -1, 0, 0);
    for (int r = 0; r < 2; r++) {
        t->rank[r].t_begin = 0;
        t->rank[r].t_end = 22;
    }
    return t;
}

TEST_IMPL(breakdown)
{
    ps_trace *t = base_trace();
    ps_breakdown b;
    CHECK(ps_breakdown_compute(t, &b) == 0);
    /* per rank, averaged: compute (10 + 14) / 2, send (1 + 5) / 2, recv (1 + 1) / 2,
     * wait (4 + 1 + 5) / 2, other (1 + 1) / 2; 22 in all */
    const double want[PS_ACT__COUNT] = {12, 3, 1, 5, 1};
    for (int k = 0; k < PS_ACT__COUNT; k++)
        CHECK(fabs(b.total[k] - want[k]) < 1e-12, "%s = %g, expected %g", ps_activity_names[k], b.total[k], want[k]);
    const double *A = &b.by_construct[1 * PS_ACT__COUNT], *B = &b.by_construct[2 * PS_ACT__COUNT],
                 *C = &b.by_construct[3 * PS_ACT__COUNT];
    CHECK(A[PS_ACT_COMPUTE] == 12 && A[PS_ACT_SEND] == 0 && A[PS_ACT_WAIT] == 0);
    CHECK(B[PS_ACT_SEND] == 3 && B[PS_ACT_RECV] == 1 && B[PS_ACT_WAIT] == 2 && B[PS_ACT_COMPUTE] == 0);
    CHECK(C[PS_ACT_WAIT] == 3 && C[PS_ACT_SEND] == 0);
    ps_breakdown_free(&b);
    /* the JSON names the constructs with any time */
    json_t *j = ps_breakdown_json(t);
    json_t *cs = json_object_get(j, "constructs");
    CHECK(json_object_size(cs) == 3 && json_object_get(cs, "B") && !json_object_get(cs, "NONE"));
    CHECK(json_real_value(json_object_get(json_object_get(cs, "B"), "wait")) == 2);
    CHECK(json_real_value(json_object_get(json_object_get(j, "total"), "other")) == 1);
    json_decref(j);
    ps_trace_free(t);
}

/* Only the rank's timed interval counts: rank 1 posts a receive (tag 9)
 * at [21.5, 23] across its end at 22, and its finalize's wait completes it
 * at [25, 26], after the end (a receive never waited for, no send): 0.5 of
 * receive overhead more, 0.5 less between calls, the total still 22. */
TEST_IMPL(breakdown_timed_interval)
{
    ps_trace *t = base_trace();
    push(t, 1, PS_EV_POST, 2, 21.5, 23, 0, 9, PS_EVF_NONBLOCKING);
    push(t, 1, PS_EV_RECV, 2, 25, 26, 0, 9, PS_EVF_NONBLOCKING | PS_EVF_WAITALL);
    ps_breakdown b;
    CHECK(ps_breakdown_compute(t, &b) == 0);
    const double want[PS_ACT__COUNT] = {12, 3, 1.25, 5, 0.75};
    for (int k = 0; k < PS_ACT__COUNT; k++)
        CHECK(fabs(b.total[k] - want[k]) < 1e-12, "%s = %g, expected %g", ps_activity_names[k], b.total[k], want[k]);
    CHECK(b.by_construct[2 * PS_ACT__COUNT + PS_ACT_RECV] == 1.25);
    ps_breakdown_free(&b);
    ps_trace_free(t);
}

/* Start-up costs: the first message call of each kind (construct, event
 * kind, bytes, peer, blocking or not) beyond its kind's median, per rank
 * averaged, over kinds of PS_BREAKDOWN_FIRST_MIN events or more.
 *   rank 0: nonblocking sends of 8 bytes in A, 5, 1, 2, 1 (median 1.5: 3.5
 *           beyond); receives of 8 in B, 1, 1, 4 (the first at the median:
 *           nothing); two blocking sends of 8 in A, 9, 1 (too few to tell a
 *           first from the rest); nonblocking sends of 16 in A, 7, 1, 1
 *           (another kind: 6 beyond)
 *   rank 1: waits of 8 in A, 2, 2, 2 (nothing); a blocking and two
 *           nonblocking receives of 8, 9, 1, 1 (two kinds, of 1 and 2
 *           events: not counted); computations 9, 1, 1 of 8 flops (left
 *           out: a calibration's price holds a computation's first run);
 *           a prediction's barrier messages 9, 1, 1 (waiting, as a run's
 *           barrier: left out)
 * so (3.5 + 6 + 0) / 2 = 4.75 per rank, over 3 + 1 kinds. */
static void push_n(ps_trace *t, int r, int kind, int construct, double d, uint64_t bytes, int flags)
{
    const ps_rank_trace *rt = &t->rank[r];
    double t0 = rt->n ? rt->ev[rt->n - 1].t1 : 0;
    ps_event e = {.t0 = t0, .t1 = t0 + d, .bytes = bytes, .peer = kind == PS_EV_COMPUTE ? -1 : 1 - r, .tag = 5,
                  .construct = (uint16_t)construct, .kind = (uint8_t)kind, .flags = (uint8_t)flags};
    CHECK(ps_trace_push(t, r, &e) == 0);
}

TEST_IMPL(breakdown_first_calls)
{
    ps_trace *t = ps_trace_new(2);
    const char *names[] = {"NONE", "A", "B"};
    CHECK(ps_trace_set_constructs(t, names, 3) == 0);
    const double a0[] = {5, 1, 2, 1}, b0[] = {1, 1, 4}, a16[] = {7, 1, 1};
    for (int i = 0; i < 4; i++) push_n(t, 0, PS_EV_SEND, 1, a0[i], 8, PS_EVF_NONBLOCKING);
    for (int i = 0; i < 3; i++) push_n(t, 0, PS_EV_RECV, 2, b0[i], 8, 0);
    push_n(t, 0, PS_EV_SEND, 1, 9, 8, 0);
    push_n(t, 0, PS_EV_SEND, 1, 1, 8, 0);
    for (int i = 0; i < 3; i++) push_n(t, 0, PS_EV_SEND, 1, a16[i], 16, PS_EVF_NONBLOCKING);
    for (int i = 0; i < 3; i++) push_n(t, 1, PS_EV_WAIT, 1, 2, 8, PS_EVF_NONBLOCKING);
    push_n(t, 1, PS_EV_RECV, 1, 9, 8, 0);
    push_n(t, 1, PS_EV_RECV, 1, 1, 8, PS_EVF_NONBLOCKING);
    push_n(t, 1, PS_EV_RECV, 1, 1, 8, PS_EVF_NONBLOCKING);
    for (int i = 0; i < 3; i++) push_n(t, 1, PS_EV_COMPUTE, 1, i ? 1 : 9, 8, 0);
    for (int i = 0; i < 3; i++) {
        push_n(t, 1, PS_EV_SEND, 1, i ? 1 : 9, 0, 0);
        t->rank[1].ev[t->rank[1].n - 1].tag = PS_C_BARRIER;
    }
    for (int r = 0; r < 2; r++) {
        t->rank[r].t_begin = 0;
        t->rank[r].t_end = t->rank[r].ev[t->rank[r].n - 1].t1;
    }
    ps_breakdown b;
    CHECK(ps_breakdown_compute(t, &b) == 0);
    CHECK(fabs(b.first_excess - 4.75) < 1e-12, "first_excess %g, expected 4.75", b.first_excess);
    CHECK(b.first_kinds == 4, "first_kinds %ld, expected 4", b.first_kinds);
    ps_breakdown_free(&b);
    json_t *j = ps_breakdown_json(t);
    json_t *f = json_object_get(j, "first_calls");
    CHECK(json_real_value(json_object_get(f, "excess")) == 4.75 && json_integer_value(json_object_get(f, "kinds")) == 4);
    json_decref(j);
    ps_trace_free(t);
}
