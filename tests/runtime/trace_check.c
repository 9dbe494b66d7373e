/* trace_check.c - checks a trace written by rt_program: message counts,
 * matching, causality after clock correction, and the sheet's accounting.
 * usage: trace_check TRACE RANKS EXPECTED_SENDS [EXPECT_DROPPED] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/sheet.h"
#include "trace/trace.h"

/* a checker program, not a unit test: CHECK without a test list */
#define PS_TEST_NO_LIST
#include "../common/check.h"

int failures;

int main(int argc, char **argv)
{
    if (argc < 4) return 2;
    int p = atoi(argv[2]);
    long expected = atol(argv[3]);
    int expect_dropped = argc > 4 && !strcmp(argv[4], "dropped");
    ps_trace *t;
    char err[512];
    if (ps_trace_read(argv[1], &t, err, sizeof err)) {
        fprintf(stderr, "FAIL: %s\n", err);
        return 1;
    }
    CHECK(t->nranks == p, "nranks %d, expected %d", t->nranks, p);
    long sends = 0, recvs = 0;
    for (int r = 0; r < t->nranks; r++)
        for (size_t i = 0; i < t->rank[r].n; i++) {
            sends += t->rank[r].ev[i].kind == PS_EV_SEND;
            recvs += t->rank[r].ev[i].kind == PS_EV_RECV;
        }
    ps_sheet s;
    CHECK(ps_sheet_compute(t, &s) == 0, "sheet");
    if (expect_dropped) {
        CHECK(s.dropped > 0, "expected dropped events, got none");
    } else {
        CHECK(sends == expected, "%ld sends, expected %ld", sends, expected);
        CHECK(recvs == expected, "%ld receives, expected %ld", recvs, expected);
        ps_match m;
        CHECK(ps_trace_match(t, &m) == 0, "match");
        CHECK((long)m.nmessages == expected, "%zu matched, expected %ld", m.nmessages, expected);
        CHECK(m.unmatched_sends == 0 && m.unmatched_recvs == 0, "unmatched %zu/%zu", m.unmatched_sends,
              m.unmatched_recvs);
        /* after clock correction, no receive ends before its matching send begins */
        for (int r = 0; r < t->nranks; r++)
            for (size_t i = 0; i < t->rank[r].n; i++) {
                if (t->rank[r].ev[i].kind != PS_EV_SEND) continue;
                ps_evref rr = ps_match_recv(&m, r, i);
                if (rr.rank < 0) continue;
                const ps_event *se = &t->rank[r].ev[i], *re = &t->rank[rr.rank].ev[rr.index];
                CHECK(re->t1 >= se->t0, "rank %d receive ends %.3g s before the send on rank %d begins", rr.rank,
                      se->t0 - re->t1, r);
                CHECK(re->bytes == se->bytes, "bytes differ");
            }
        ps_match_free(&m);
        CHECK(s.messages_sent == (uint64_t)expected, "sheet messages %llu", (unsigned long long)s.messages_sent);
    }
    double time = ps_trace_time(t);
    CHECK(time > 0 && time < 60, "time %g", time);
    for (int r = 0; r < t->nranks; r++) {
        const ps_rank_sheet *rs = &s.rank[r];
        double sum = rs->busy + rs->overhead + rs->idle;
        CHECK(fabs(sum - time) < 1e-9, "rank %d: busy+overhead+idle %.9f != time %.9f", r, sum, time);
        CHECK(rs->busy >= 0 && rs->overhead >= 0 && rs->idle >= 0, "rank %d negative part", r);
        CHECK(t->rank[r].proc.wall > 0, "rank %d procstats wall", r);
        CHECK(t->rank[r].t_begin <= t->rank[r].t_end, "rank %d interval", r);
        if (!expect_dropped) CHECK(rs->flops >= 200000, "rank %d flops %g", r, rs->flops);
    }
    CHECK(fabs(s.busy_pct + s.overhead_pct + s.idle_pct - 100) < 1e-6, "percentages");
    int have_reduce = 0;
    for (int i = 0; i < t->nconstructs; i++) have_reduce |= !strcmp(t->constructs[i], "REDUCE");
    CHECK(have_reduce, "construct names missing");
    CHECK(t->meta_json && strstr(t->meta_json, "\"ranks\""), "meta");
    ps_sheet_free(&s);
    ps_trace_free(t);
    if (failures) return 1;
    printf("trace ok: %d ranks, %ld messages\n", p, sends);
    return 0;
}
