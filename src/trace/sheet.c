/*
 * sheet.c - the standard result sheet's figures from a trace (see sheet.h).
 */
#include "trace/sheet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/describe.h"
#include "util/util.h"

void ps_stat_add(ps_stat *s, double v)
{
    if (s->n == 0 || v < s->min) s->min = v;
    if (s->n == 0 || v > s->max) s->max = v;
    s->sum += v;
    s->n++;
}

static void stat_merge(ps_stat *a, const ps_stat *b)
{
    if (!b->n) return;
    if (!a->n || b->min < a->min) a->min = b->min;
    if (!a->n || b->max > a->max) a->max = b->max;
    a->sum += b->sum;
    a->n += b->n;
}

static int is_comm(int kind)
{
    return kind == PS_EV_SEND || kind == PS_EV_RECV || kind == PS_EV_POST || kind == PS_EV_WAIT ||
           kind == PS_EV_BARRIER;
}

static double clip(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* One change of a node's message queue: +1 when a message to it is sent, -1
 * when it has received one. */
typedef struct qstep {
    double t;
    int    d;
} qstep;

static int qstep_cmp(const void *a, const void *b)
{
    const qstep *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->d - y->d; /* at one instant a departure before an arrival */
}

/* ParaGraph's message queue of every node (sheet.h): a matched message is in
 * its receiver's queue from its send's start to its receive's end, clipped to
 * the execution time [gb, ge].  Returns -1 when out of memory. */
static int queue_lengths(const ps_trace *t, const ps_match *m, double gb, double ge, ps_sheet *s)
{
    qstep *q = NULL;
    size_t cap = 0;
    for (int d = 0; d < t->nranks; d++) {
        const ps_rank_trace *rt = &t->rank[d];
        size_t n = 0;
        for (size_t i = 0; i < rt->n; i++) {
            if (rt->ev[i].kind != PS_EV_RECV || ps_tag_runtime(rt->ev[i].tag)) continue;
            ps_evref sr = ps_match_send(m, d, i);
            if (sr.rank < 0) continue;
            double a = clip(t->rank[sr.rank].ev[sr.index].t0, gb, ge), b = clip(rt->ev[i].t1, gb, ge);
            if (b < a) b = a; /* a receive ending before its send began: clocks, not a queue */
            if (n + 2 > cap) {
                cap = cap ? 2 * cap : 256;
                qstep *nq = realloc(q, cap * sizeof *nq);
                if (!nq) {
                    free(q);
                    return -1;
                }
                q = nq;
            }
            q[n++] = (qstep){a, +1};
            q[n++] = (qstep){b, -1};
        }
        if (n) qsort(q, n, sizeof *q, qstep_cmp);
        int len = 0, mx = 0;
        double area = 0, last = gb;
        for (size_t k = 0; k < n; k++) {
            area += len * (q[k].t - last);
            last = q[k].t;
            len += q[k].d;
            if (len > mx) mx = len;
        }
        ps_rank_sheet *rs = &s->rank[d];
        rs->max_queue = mx;
        rs->avg_queue = ge > gb ? area / (ge - gb) : 0;
        if (mx > s->max_queue) s->max_queue = mx;
        s->avg_queue += rs->avg_queue / t->nranks;
    }
    free(q);
    return 0;
}

int ps_sheet_compute(const ps_trace *t, ps_sheet *s)
{
    memset(s, 0, sizeof *s);
    s->nranks = t->nranks;
    s->rank = calloc((size_t)(t->nranks ? t->nranks : 1), sizeof *s->rank);
    if (!s->rank) return -1;
    ps_match m;
    if (ps_trace_match(t, &m)) {
        free(s->rank);
        s->rank = NULL;
        return -1;
    }
    s->unmatched = m.unmatched_sends + m.unmatched_recvs;

    double gb = INFINITY, ge = -INFINITY;
    for (int r = 0; r < t->nranks; r++) {
        if (t->rank[r].t_begin < gb) gb = t->rank[r].t_begin;
        if (t->rank[r].t_end > ge) ge = t->rank[r].t_end;
    }
    s->time = t->nranks ? ge - gb : 0;

    /* Barrier idle: the k-th barrier of every rank is one episode; a rank
     * waits until the last rank has entered it. */
    size_t maxbar = 0;
    size_t nr = t->nranks > 0 ? (size_t)t->nranks : 1;
    size_t *nbar = calloc(nr, sizeof *nbar);
    for (int r = 0; r < t->nranks && nbar; r++) {
        for (size_t i = 0; i < t->rank[r].n; i++)
            if (t->rank[r].ev[i].kind == PS_EV_BARRIER) nbar[r]++;
        if (nbar[r] > maxbar) maxbar = nbar[r];
    }
    double *last_enter = nbar ? calloc(maxbar ? maxbar : 1, sizeof *last_enter) : NULL;
    for (size_t k = 0; last_enter && k < maxbar; k++) last_enter[k] = -INFINITY;
    for (int r = 0; r < t->nranks && last_enter; r++) {
        size_t k = 0;
        for (size_t i = 0; i < t->rank[r].n; i++) {
            const ps_event *e = &t->rank[r].ev[i];
            if (e->kind != PS_EV_BARRIER) continue;
            if (e->t0 > last_enter[k]) last_enter[k] = e->t0;
            k++;
        }
    }

    double busy_sum = 0, over_sum = 0, idle_sum = 0;
    for (int r = 0; r < t->nranks; r++) {
        const ps_rank_trace *rt = &t->rank[r];
        ps_rank_sheet *rs = &s->rank[r];
        rs->dropped = rt->dropped;
        s->dropped += rt->dropped;
        double comm = 0, idle = 0;
        size_t bar = 0;
        for (size_t i = 0; i < rt->n; i++) {
            const ps_event *e = &rt->ev[i];
            /* only the timed interval counts; events are clipped to it */
            double a = clip(e->t0, gb, ge), b = clip(e->t1, gb, ge);
            double d = b > a ? b - a : 0;
            switch (e->kind) {
            case PS_EV_SEND:
                if (ps_tag_runtime(e->tag)) {
                    rs->runtime_sent++;
                    break;
                }
                rs->messages_sent++;
                rs->bytes_sent += e->bytes;
                ps_stat_add(&rs->send_time, e->t1 - e->t0);
                break;
            case PS_EV_RECV: {
                if (ps_tag_runtime(e->tag)) {
                    rs->runtime_received++;
                } else {
                    rs->messages_received++;
                    rs->bytes_received += e->bytes;
                    ps_stat_add(&rs->recv_time, e->t1 - e->t0);
                }
                ps_evref sr = ps_match_send(&m, r, i);
                if (sr.rank >= 0) {
                    double sstart = t->rank[sr.rank].ev[sr.index].t0;
                    idle += clip(sstart, a, b) - a;
                }
                break;
            }
            case PS_EV_BARRIER:
                if (last_enter && bar < maxbar) idle += clip(last_enter[bar], a, b) - a;
                bar++;
                break;
            case PS_EV_COMPUTE:
                rs->compute += d;
                rs->flops += (double)e->bytes;
                break;
            case PS_EV_DATA:
                rs->data_move += d;
                break;
            default:
                break;
            }
            if (is_comm(e->kind)) comm += d;
        }
        double lane = s->time;
        /* before its own start and after its own end a rank waits in the
         * runtime for the others (start-up barrier, finalize): idle */
        double outside = (clip(rt->t_begin, gb, ge) - gb) + (ge - clip(rt->t_end, gb, ge));
        comm += outside;
        idle += outside;
        if (comm > lane) comm = lane;
        if (idle > comm) idle = comm;
        rs->idle = idle;
        rs->overhead = comm - idle;
        rs->busy = lane - comm;
        busy_sum += rs->busy;
        over_sum += rs->overhead;
        idle_sum += rs->idle;
        s->messages_sent += rs->messages_sent;
        s->bytes_sent += rs->bytes_sent;
        s->messages_received += rs->messages_received;
        s->bytes_received += rs->bytes_received;
        s->runtime_sent += rs->runtime_sent;
        s->runtime_received += rs->runtime_received;
        stat_merge(&s->send_time, &rs->send_time);
        stat_merge(&s->recv_time, &rs->recv_time);
    }
    double tot = busy_sum + over_sum + idle_sum;
    if (tot > 0) {
        s->busy_pct = 100.0 * busy_sum / tot;
        s->overhead_pct = 100.0 * over_sum / tot;
        s->idle_pct = 100.0 * idle_sum / tot;
    } else if (t->nranks) {
        s->busy_pct = 100.0;
    }
    free(nbar);
    free(last_enter);
    int rc = queue_lengths(t, &m, gb, ge, s);
    ps_match_free(&m);
    if (rc) ps_sheet_free(s);
    return rc;
}

void ps_sheet_free(ps_sheet *s)
{
    free(s->rank);
    s->rank = NULL;
}

void ps_sheet_print(const ps_sheet *s, const ps_trace *t, const char *workload, long size, long iterations, FILE *f)
{
    char tb[32];
    json_t *meta = ps_trace_meta(t);
    json_t *structure = json_object_get(meta, "structure");
    json_t *hw = ps_trace_hardware(t, meta);
    ps_hw_text h;
    ps_hardware_text(hw, s->nranks, &h);
    size_t linelen = 4096; /* a large program's structure is long */
    char *line = malloc(linelen);
    if (!line) return;
    fprintf(f, "Evaluated problem\n");
    ps_problem_text(workload, structure, line, linelen);
    fprintf(f, "  %s\n", line);
    fprintf(f, "  Workload:                    %s\n", workload ? workload : "?");
    fprintf(f, "  No. nodes:                   %d\n", s->nranks);
    fprintf(f, "  Problem size:                %ld\n", size);
    fprintf(f, "  Iterations:                  %ld\n", iterations);
    ps_structure_text(structure, line, linelen);
    fprintf(f, "  Structure:                   %s\n", line);
    fprintf(f, "\nHardware\n");
    fprintf(f, "  Machine:                     %s\n", h.machine);
    fprintf(f, "  Nodes:                       %s\n", h.nodes);
    fprintf(f, "  Processor:                   %s\n", h.cpu);
    fprintf(f, "  Network:                     %s\n", h.network);
    fprintf(f, "  MPI:                         %s\n", h.mpi);
    json_decref(hw);
    json_decref(meta);
    free(line);
    fprintf(f, "\nMain results\n");
    fprintf(f, "  Execution time:              %.6f s\n", s->time);
    fprintf(f, "  Percent processors busy:     %6.2f %%\n", s->busy_pct);
    fprintf(f, "  Percent processors overhead: %6.2f %%\n", s->overhead_pct);
    fprintf(f, "  Percent processors idle:     %6.2f %%\n", s->idle_pct);
    ps_fmt_time(tb, sizeof tb, ps_stat_avg(&s->send_time));
    fprintf(f, "  Avg time send:               %s\n", tb);
    ps_fmt_time(tb, sizeof tb, ps_stat_avg(&s->recv_time));
    fprintf(f, "  Avg time receive:            %s\n", tb);
    fprintf(f, "\nStatistics\n");
    fprintf(f, "  Messages sent / received:    %llu / %llu\n", (unsigned long long)s->messages_sent,
            (unsigned long long)s->messages_received);
    fprintf(f, "  Bytes sent / received:       %llu / %llu\n", (unsigned long long)s->bytes_sent,
            (unsigned long long)s->bytes_received);
    fprintf(f, "  Send time avg/min/max (us):  %.2f / %.2f / %.2f\n", 1e6 * ps_stat_avg(&s->send_time),
            1e6 * s->send_time.min, 1e6 * s->send_time.max);
    fprintf(f, "  Recv time avg/min/max (us):  %.2f / %.2f / %.2f\n", 1e6 * ps_stat_avg(&s->recv_time),
            1e6 * s->recv_time.min, 1e6 * s->recv_time.max);
    fprintf(f, "  Message queue length:        max %d, average %.2f (messages sent to a node, not yet received)\n",
            s->max_queue, s->avg_queue);
    if (s->runtime_sent)
        fprintf(f, "  Runtime messages:            %llu (the model's barrier tree; not counted above)\n",
                (unsigned long long)s->runtime_sent);
    if (s->unmatched) fprintf(f, "  Unmatched messages:          %llu\n", (unsigned long long)s->unmatched);
    if (s->dropped)
        fprintf(f, "  WARNING: %llu events lost to full trace buffers (raise TRACE_BUF)\n",
                (unsigned long long)s->dropped);
    fprintf(f, "\nPer processor       busy  overhead      idle   sent  recv  queue max   avg\n");
    for (int r = 0; r < s->nranks; r++) {
        const ps_rank_sheet *rs = &s->rank[r];
        double lane = rs->busy + rs->overhead + rs->idle;
        fprintf(f, "  %4d          %6.2f %%  %6.2f %%  %6.2f %%  %5llu %5llu  %9d  %5.2f\n", r,
                lane > 0 ? 100 * rs->busy / lane : 0, lane > 0 ? 100 * rs->overhead / lane : 0,
                lane > 0 ? 100 * rs->idle / lane : 0, (unsigned long long)rs->messages_sent,
                (unsigned long long)rs->messages_received, rs->max_queue, rs->avg_queue);
    }
}
