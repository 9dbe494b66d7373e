/*
 * interchange.c - SimGrid time-independent traces and LogGOPSim GOAL
 * schedules from instruction streams (see interchange.h).
 */
#include "sim/interchange.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parscope/parscope.h"
#include "sim/sim.h"
#include "util/output.h"
#include "util/util.h"

/* The outstanding nonblocking requests of one rank while exporting. */
typedef struct req {
    uint64_t ord;
    int      src, dst, tag;
    uint64_t label;
} req;

typedef struct reqs {
    req   *v;
    size_t n, cap;
} reqs;

static int reqs_push(reqs *q, req r)
{
    req *v = ps_grow(q->v, &q->cap, q->n + 1, sizeof *v, 16);
    if (!v) return -1;
    q->v = v;
    q->v[q->n++] = r;
    return 0;
}

static long reqs_find(const reqs *q, uint64_t ord)
{
    for (size_t k = q->n; k-- > 0;)
        if (q->v[k].ord == ord) return (long)k;
    return -1;
}

static void reqs_remove(reqs *q, size_t k)
{
    memmove(&q->v[k], &q->v[k + 1], (q->n - k - 1) * sizeof *q->v);
    q->n--;
}

/* Every file goes through the one output writer (util/output.h): a device
 * or FIFO is written in place, a regular file replaced only whole. */
/* The host's speed in flop/s for SimGrid (a model without flop_time: 1 Gflop/s). */
static double host_speed(const ps_machine *m) { return m->flop_time > 0 ? 1.0 / m->flop_time : 1e9; }

static FILE *open_out(ps_output *o, const char *path, char *err, size_t errlen)
{
    return ps_output_open(o, path, 0, err, errlen) ? NULL : o->f;
}

/* Commits the file (ok), or leaves the target untouched (!ok). */
static int close_out(ps_output *o, int ok, char *err, size_t errlen)
{
    if (!ok) {
        ps_output_abort(o);
        return -1;
    }
    return ps_output_commit(o, err, errlen);
}

int ps_export_simgrid(const ps_streams *s, const ps_machine *m, const char *dir, char *err, size_t errlen)
{
    char path[4096];
    if (ps_mkdirs(dir, err, errlen)) return -1;
    snprintf(path, sizeof path, "%s/traces.txt", dir);
    ps_output lo, fo;
    FILE *list = open_out(&lo, path, err, errlen);
    if (!list) return -1;
    reqs q = {0};
    int rc = 0;
    for (int r = 0; r < s->nranks && !rc; r++) {
        snprintf(path, sizeof path, "%s/rank-%d.txt", dir, r);
        /* named relative to traces.txt: the replay runs in DIR (cd DIR && smpirun ...) */
        fprintf(list, "rank-%d.txt\n", r);
        FILE *f = open_out(&fo, path, err, errlen);
        if (!f) {
            rc = -1;
            break;
        }
        fprintf(f, "%d init\n", r);
        ps_insn_ctx c = {.rank = r};
        const uint8_t *p = s->data[r], *end = p + s->len[r];
        uint64_t nissued = 0;
        q.n = 0;
        while (p < end && !rc) {
            ps_insn in;
            if (!(p = ps_insn_decode(&c, p, end, &in))) {
                ps_seterr(err, errlen, "rank %d: corrupt instruction stream", r);
                rc = -1;
                break;
            }
            switch (in.op) {
            case PS_OP_SEND:
            case PS_OP_RECV: {
                int is_send = in.op == PS_OP_SEND;
                fprintf(f, "%d %s %d %d %llu\n", r, is_send ? "isend" : "irecv", in.peer, in.tag,
                        (unsigned long long)in.n);
                req x = {nissued++, is_send ? r : in.peer, is_send ? in.peer : r, in.tag, 0};
                if (reqs_push(&q, x)) rc = -1;
                break;
            }
            case PS_OP_BSEND:
            case PS_OP_BRECV:
                fprintf(f, "%d %s %d %d %llu\n", r, in.op == PS_OP_BSEND ? "send" : "recv", in.peer, in.tag,
                        (unsigned long long)in.n);
                break;
            case PS_OP_WORK:
                /* a DATA_MOVE's count is bytes: as the flops its time is worth on a host of speed 1/flop_time */
                if (in.construct == PS_C_DATA_MOVE)
                    fprintf(f, "%d compute %.0f\n", r,
                            ps_sim_work_time(m, NULL, in.construct, (double)in.n) * host_speed(m));
                else
                    fprintf(f, "%d compute %llu\n", r, (unsigned long long)in.n);
                break;
            case PS_OP_WAIT:
                if (q.n) fprintf(f, "%d waitall\n", r);
                q.n = 0;
                break;
            case PS_OP_WAITONE: {
                long k = reqs_find(&q, nissued - 1 - in.n);
                if (k >= 0) {
                    fprintf(f, "%d wait %d %d %d\n", r, q.v[k].src, q.v[k].dst, q.v[k].tag);
                    reqs_remove(&q, (size_t)k);
                }
                break;
            }
            default:
                break; /* MARK: nothing to replay */
            }
        }
        /* MPI_Finalize completes nothing: requests left open would hang the replay */
        if (q.n) fprintf(f, "%d waitall\n", r);
        fprintf(f, "%d finalize\n", r);
        if (close_out(&fo, !rc, err, errlen)) rc = -1;
    }
    free(q.v);
    if (close_out(&lo, !rc, err, errlen)) rc = -1;
    if (rc) return -1;

    snprintf(path, sizeof path, "%s/hostfile", dir);
    FILE *h = open_out(&fo, path, err, errlen);
    if (!h) return -1;
    for (int r = 0; r < s->nranks; r++) fprintf(h, "node-%d\n", r);
    if (close_out(&fo, 1, err, errlen)) return -1;

    snprintf(path, sizeof path, "%s/platform.xml", dir);
    FILE *x = open_out(&fo, path, err, errlen);
    if (!x) return -1;
    double speed = host_speed(m);
    double bw = m->word_time > 0 ? 8.0 / m->word_time : 1e10;
    double lat = m->send_latency + m->recv_latency;
    /* a bus: every message crosses one shared backbone of the link's bandwidth */
    char bb[128] = "";
    if (m->bus) snprintf(bb, sizeof bb, " bb_bw=\"%.6gBps\" bb_lat=\"0s\"", bw);
    fprintf(x, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<!-- from the parscope machine model '%s': speed 1/flop_time, bandwidth 8/word_time,\n"
               "     latency send_latency + recv_latency -->\n"
               "<platform version=\"4.1\">\n"
               "  <cluster id=\"parscope\" prefix=\"node-\" suffix=\"\" radical=\"0-%d\"\n"
               "           speed=\"%.6gf\" bw=\"%.6gBps\" lat=\"%.6gs\"%s/>\n"
               "</platform>\n",
            m->name, s->nranks - 1, speed, bw, lat, bb);
    return close_out(&fo, 1, err, errlen);
}

int ps_export_goal(const ps_streams *s, const ps_machine *m, const char *path, char *err, size_t errlen)
{
    ps_output fo;
    FILE *f = open_out(&fo, path, err, errlen);
    if (!f) return -1;
    ps_sim_opts o;
    ps_sim_defaults(&o);
    fprintf(f, "num_ranks %d\n", s->nranks);
    reqs q = {0};
    int rc = 0;
    for (int r = 0; r < s->nranks && !rc; r++) {
        fprintf(f, "\nrank %d {\n", r);
        ps_insn_ctx c = {.rank = r};
        const uint8_t *p = s->data[r], *end = p + s->len[r];
        uint64_t label = 0, nissued = 0;
        int64_t last = -1; /* the last blocking operation: everything after starts after it */
        q.n = 0;
        while (p < end) {
            ps_insn in;
            if (!(p = ps_insn_decode(&c, p, end, &in))) {
                ps_seterr(err, errlen, "rank %d: corrupt instruction stream", r);
                rc = -1;
                break;
            }
            uint64_t l = label;
            switch (in.op) {
            case PS_OP_SEND:
            case PS_OP_BSEND:
                fprintf(f, "l%llu: send %llub to %d tag %d\n", (unsigned long long)l, (unsigned long long)in.n,
                        in.peer, in.tag);
                break;
            case PS_OP_RECV:
            case PS_OP_BRECV:
                fprintf(f, "l%llu: recv %llub from %d tag %d\n", (unsigned long long)l, (unsigned long long)in.n,
                        in.peer, in.tag);
                break;
            case PS_OP_WORK:
                fprintf(f, "l%llu: calc %.0f\n", (unsigned long long)l,
                        ps_sim_work_time(m, &o, in.construct, (double)in.n) * 1e9);
                break;
            case PS_OP_WAIT:
            case PS_OP_WAITONE:
                fprintf(f, "l%llu: calc 0\n", (unsigned long long)l);
                break;
            default:
                continue; /* MARK */
            }
            label++;
            if (last >= 0) fprintf(f, "l%llu requires l%lld\n", (unsigned long long)l, (long long)last);
            if (in.op == PS_OP_SEND || in.op == PS_OP_RECV) {
                if (reqs_push(&q, (req){nissued++, 0, 0, 0, l})) rc = -1;
                continue;
            }
            if (in.op == PS_OP_WAIT) {
                for (size_t k = 0; k < q.n; k++)
                    fprintf(f, "l%llu requires l%llu\n", (unsigned long long)l, (unsigned long long)q.v[k].label);
                q.n = 0;
            } else if (in.op == PS_OP_WAITONE) {
                long k = reqs_find(&q, nissued - 1 - in.n);
                if (k >= 0) {
                    fprintf(f, "l%llu requires l%llu\n", (unsigned long long)l, (unsigned long long)q.v[k].label);
                    reqs_remove(&q, (size_t)k);
                }
            }
            last = (int64_t)l;
        }
        fprintf(f, "}\n");
    }
    free(q.v);
    /* never unlink the target: it may be a device node */
    if (close_out(&fo, !rc, err, errlen)) rc = -1;
    return rc;
}
