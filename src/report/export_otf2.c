/* export_otf2.c - a trace as an OTF2 archive through libotf2 (see export.h).
 *
 * What Score-P would have recorded had it traced the same MPI calls, so that
 * Vampir, otf2-print and wait-state analyses read it as they read Score-P's:
 *
 *   - system tree: the machine, one node per host, one location group (MPI
 *     process) per rank with one location (its thread);
 *   - every MPI call is a region named as MPI names it, holding the records
 *     Score-P writes: MPI_Send + MpiSend, MPI_Recv + MpiRecv, MPI_Isend +
 *     MpiIsend (with its request id), MPI_Irecv + MpiIrecvRequest, MPI_Wait +
 *     MpiIsendComplete or MpiIrecv (the receive's message record), MPI_Waitall
 *     holding one completion per request at the instant it completed,
 *     MPI_Barrier and MPI_Allreduce with MpiCollectiveBegin / End;
 *   - the MPI calls of one construct are nested in a region named after it
 *     (MULTIBCAST0, COMMUNICATE, ...); computation is a region named after its
 *     construct, a \SECTION a region of its own name, \DATA_MOVE a data
 *     transfer region, a mark a zero-length region;
 *   - a reduction (a COLLECTIVE event) is one MPI_Allreduce: the point-to-point
 *     messages the runtime built it from are not written as messages, as an
 *     MPI library's own messages are not; its sizes are theirs.
 *
 * The send record sits at the start of its send call and the receive record
 * at the end of its receive (the completing wait's end for a nonblocking
 * one), the two instants the space-time diagram joins (docs/OUTPUTS.md).
 * Timestamps are nanoseconds since the run's start (ps_export_origin); the
 * clock properties say so, with the wall-clock date of that instant when the
 * trace knows it.  All on MPI_COMM_WORLD (communicator 0). */
#include "report/export.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/describe.h"
#include "util/util.h"

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void *cb, bool final)
{
    (void)ud, (void)ft, (void)loc, (void)cb, (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc)
{
    (void)ud, (void)ft, (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush};

static int otf2_failed(OTF2_ErrorCode rc, const char *what, const char *dir, char *err, size_t errlen)
{
    if (rc == OTF2_SUCCESS) return 0;
    ps_seterr(err, errlen, "%s: OTF2 %s failed: %s", dir, what, OTF2_Error_GetDescription(rc));
    return -1;
}

static uint64_t ticks(double t, double origin)
{
    double v = (t - origin) * 1e9;
    if (!(v > 0)) return 0;                  /* also NaN */
    if (v >= 9.2e18) return (uint64_t)9.2e18; /* absurd times: clamp, never overflow */
    return (uint64_t)llround(v);
}

/* ---- regions ------------------------------------------------------------- */

enum mpi_region { R_SEND, R_RECV, R_ISEND, R_IRECV, R_WAIT, R_WAITALL, R_BARRIER, R_ALLREDUCE, R__MPI };
static const char *const mpi_name[R__MPI] = {"MPI_Send", "MPI_Recv",    "MPI_Isend",   "MPI_Irecv",
                                             "MPI_Wait", "MPI_Waitall", "MPI_Barrier", "MPI_Allreduce"};

/* Region definitions, made on first use; ids in order of definition. */
typedef struct regdef {
    char           *name;
    OTF2_RegionRole role;
    OTF2_Paradigm   paradigm;
} regdef;

typedef struct regions {
    regdef  *def;
    uint32_t n, cap;
    int64_t  mpi[R__MPI];
    int64_t *function, *data, *mark, *code; /* per construct id */
    int      nc;
} regions;

static uint32_t reg_define(regions *rg, int64_t *slot, const char *name, OTF2_RegionRole role, OTF2_Paradigm paradigm)
{
    if (*slot >= 0) return (uint32_t)*slot;
    if (rg->n == rg->cap) {
        rg->cap = rg->cap ? 2 * rg->cap : 32;
        rg->def = ps_xrealloc(rg->def, rg->cap * sizeof *rg->def);
    }
    rg->def[rg->n] = (regdef){ps_xstrdup(name), role, paradigm};
    *slot = rg->n;
    return rg->n++;
}

static const char *cname(const ps_trace *t, unsigned id)
{
    return (int)id < t->nconstructs && t->constructs[id] ? t->constructs[id] : "UNKNOWN";
}

static uint32_t reg_mpi(regions *rg, int which)
{
    OTF2_RegionRole role = which == R_BARRIER ? OTF2_REGION_ROLE_BARRIER
                           : which == R_ALLREDUCE ? OTF2_REGION_ROLE_COLL_ALL2ALL
                                                  : OTF2_REGION_ROLE_POINT2POINT;
    return reg_define(rg, &rg->mpi[which], mpi_name[which], role, OTF2_PARADIGM_MPI);
}

static uint32_t reg_construct(regions *rg, const ps_trace *t, int64_t *arr, unsigned c, const char *suffix,
                              OTF2_RegionRole role)
{
    if ((int)c >= rg->nc) c = 0;
    if (arr[c] >= 0) return (uint32_t)arr[c];
    char name[512];
    snprintf(name, sizeof name, "%s%s", cname(t, c), suffix);
    return reg_define(rg, &arr[c], name, role, OTF2_PARADIGM_USER);
}

/* ---- one rank: intervals ---------------------------------------------------- */

/* A record inside an interval: kind and the event it describes. */
enum rec_kind { K_SEND, K_ISEND, K_RECV, K_IRECV, K_IRECV_REQ, K_ISEND_DONE, K_COLL_BEGIN, K_COLL_END };
typedef struct orec {
    uint8_t  kind;
    uint8_t  coll_op;
    uint32_t ev;        /* event index on the rank */
    uint64_t ts;
    uint64_t sent, received; /* collective sizes */
} orec;

enum { P_SECTION, P_WRAPPER, P_LEAF }; /* nesting priority at one start time */

typedef struct ival {
    uint64_t a, b;
    uint32_t region;
    uint8_t  prio;
    uint32_t order;      /* sequence: construct regions just before their calls, calls in record order */
    uint32_t first, last; /* record order of its first and last event (a section's: its own, recorded at its end) */
    uint32_t rec0, nrec; /* records [rec0, rec0+nrec): at a (begin records), inside, at b (end records) */
} ival;

/* By start; at one start sections first (outer first), then the rest in
 * sequence, which puts a construct's region before its calls. */
static int ival_cmp(const void *x, const void *y)
{
    const ival *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if ((p->prio == P_SECTION) != (q->prio == P_SECTION)) return p->prio == P_SECTION ? -1 : 1;
    if (p->prio == P_SECTION && p->b != q->b) return p->b > q->b ? -1 : 1;
    return p->order < q->order ? -1 : p->order > q->order;
}

typedef struct rankbuf {
    ival    *iv;
    size_t   niv, capiv;
    orec    *rec;
    size_t   nrec, caprec;
} rankbuf;

static ival *add_ival(rankbuf *b, uint64_t a, uint64_t e, uint32_t region, int prio, uint32_t first, uint32_t last)
{
    if (b->niv == b->capiv) {
        b->capiv = b->capiv ? 2 * b->capiv : 1024;
        b->iv = ps_xrealloc(b->iv, b->capiv * sizeof *b->iv);
    }
    ival *v = &b->iv[b->niv];
    *v = (ival){a, e < a ? a : e, region, (uint8_t)prio, (uint32_t)b->niv, first, last, (uint32_t)b->nrec, 0};
    b->niv++;
    return v;
}

/* Is cur (starting no earlier than top) inside top?  An interval starting
 * at the instant top ends is inside only if it is an instant recorded
 * before top ended (a mark that closes a construct's calls). */
static int inside(const ival *cur, const ival *top)
{
    if (cur->a < top->b) return 1;
    return cur->a == top->b && cur->b == top->b && top->prio != P_LEAF && cur->first <= top->last;
}

static void add_rec(rankbuf *b, ival *v, int kind, uint32_t ev, uint64_t ts)
{
    if (b->nrec == b->caprec) {
        b->caprec = b->caprec ? 2 * b->caprec : 1024;
        b->rec = ps_xrealloc(b->rec, b->caprec * sizeof *b->rec);
    }
    b->rec[b->nrec++] = (orec){(uint8_t)kind, 0, ev, ts, 0, 0};
    v->nrec++;
}

static int is_mpi_kind(int k)
{
    return k == PS_EV_SEND || k == PS_EV_RECV || k == PS_EV_POST || k == PS_EV_WAIT || k == PS_EV_BARRIER ||
           k == PS_EV_COLLECTIVE;
}

/* What the exporter makes of one rank's events (see the top comment). */
typedef struct unit {
    uint32_t first, last; /* event range in record order (a waitall group: several) */
    uint64_t a, b;
    uint16_t construct;
    uint8_t  wrap;        /* an MPI call (or a mark among them): nested in its construct's region */
    uint8_t  barrier;     /* a simulated barrier's tree messages: one MPI_Barrier */
} unit;

/* A simulated barrier's message in its second half (from the parent, or to
 * a child, on the binary tree of rank me): the next message up starts the
 * next barrier. */
static int barrier_down(const ps_event *e, int me)
{
    return (e->kind == PS_EV_RECV && e->peer < me) || (e->kind == PS_EV_SEND && e->peer > me);
}

static int barrier_msg(const ps_event *e)
{
    return (e->kind == PS_EV_SEND || e->kind == PS_EV_RECV) && e->tag == PS_TAG_BARRIER;
}

static int write_rank(OTF2_EvtWriter *w, const ps_trace *t, int r, const ps_requests *rq, double origin,
                      regions *rg, rankbuf *B, uint64_t *nevents, uint64_t *tmax)
{
    const ps_rank_trace *rt = &t->rank[r];
    const ps_event *ev = rt->ev;
    size_t n = rt->n;
    const uint32_t *rid = rq->id + rq->base[r];
    const int64_t *partner = rq->partner + rq->base[r];
    B->niv = B->nrec = 0;

    /* events a reduction was carried out with: written as its collective */
    uint8_t *hidden = ps_xcalloc(n ? n : 1, 1);
    uint64_t *coll_sent = ps_xcalloc(n ? n : 1, sizeof *coll_sent), *coll_recv = ps_xcalloc(n ? n : 1, sizeof *coll_recv);
    for (size_t i = 0; i < n; i++) {
        if (ev[i].kind != PS_EV_COLLECTIVE) continue;
        for (size_t k = i; k-- > 0;) {
            const ps_event *e = &ev[k];
            if (!(e->kind == PS_EV_SEND || e->kind == PS_EV_RECV || e->kind == PS_EV_POST || e->kind == PS_EV_WAIT) ||
                e->t0 < ev[i].t0 || e->t1 > ev[i].t1 || hidden[k])
                break;
            hidden[k] = 1;
            if (e->kind == PS_EV_SEND) coll_sent[i] += e->bytes;
            if (e->kind == PS_EV_RECV) coll_recv[i] += e->bytes;
        }
    }

    /* section boundaries: a construct's region never straddles one */
    size_t nbound = 0;
    double *bound = NULL;
    for (size_t i = 0; i < n; i++)
        if (ev[i].kind == PS_EV_SECTION) nbound += 2;
    if (nbound) {
        bound = ps_xmalloc(nbound * sizeof *bound);
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (ev[i].kind == PS_EV_SECTION) {
                bound[k++] = ev[i].t0;
                bound[k++] = ev[i].t1;
            }
        ps_sort_doubles(bound, nbound);
    }

    /* units in record order */
    unit *u = ps_xmalloc((n ? n : 1) * sizeof *u);
    size_t nu = 0;
    for (size_t i = 0; i < n; i++) {
        if (hidden[i]) continue;
        const ps_event *e = &ev[i];
        unit x = {(uint32_t)i, (uint32_t)i, ticks(e->t0, origin), ticks(e->t1, origin), e->construct,
                  (uint8_t)(is_mpi_kind(e->kind) || e->kind == PS_EV_MARK), 0};
        if (x.b < x.a) x.b = x.a;
        if (barrier_msg(e)) {
            /* a predicted trace's barrier: the empty messages the recording made of it (up a binary
             * tree and back down, the runtime's tag), written as a measured run's MPI_Barrier, whose
             * messages the MPI library sends unseen; the sheet counts them apart too */
            x.barrier = 1;
            int down = barrier_down(e, r);
            while (x.last + 1 < n && !hidden[x.last + 1] && barrier_msg(&ev[x.last + 1]) &&
                   ev[x.last + 1].construct == e->construct && !(down && !barrier_down(&ev[x.last + 1], r))) {
                x.last++;
                down = barrier_down(&ev[x.last], r);
                uint64_t b = ticks(ev[x.last].t1, origin);
                if (b > x.b) x.b = b;
            }
            i = x.last;
        } else if (ps_event_is_nb_completion(e) && (e->flags & PS_EVF_WAITALL)) {
            /* one MPI_Waitall: the completions that follow one another */
            while (x.last + 1 < n && !hidden[x.last + 1] && ps_event_is_nb_completion(&ev[x.last + 1]) &&
                   (ev[x.last + 1].flags & PS_EVF_WAITALL)) {
                x.last++;
                uint64_t b = ticks(ev[x.last].t1, origin);
                if (b > x.b) x.b = b;
            }
            i = x.last;
        }
        u[nu++] = x;
    }

    /* construct regions around runs of MPI units of one construct: run_end[i]
     * is one past the run unit i begins (0 if it begins none) */
    uint32_t *run_end = ps_xcalloc(nu ? nu : 1, sizeof *run_end);
    for (size_t i = 0; i < nu;) {
        if (!u[i].wrap) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < nu && u[j].wrap && u[j].construct == u[i].construct) {
            /* a section boundary between two units ends the run */
            double lo = ev[u[j - 1].last].t1, hi = ev[u[j].first].t0;
            size_t lo_i = 0, hi_i = nbound;
            while (lo_i < hi_i) {
                size_t m = (lo_i + hi_i) / 2;
                if (bound[m] < lo) lo_i = m + 1;
                else hi_i = m;
            }
            if (lo_i < nbound && bound[lo_i] <= hi) break;
            j++;
        }
        run_end[i] = (uint32_t)j;
        i = j;
    }

    /* the units, each run preceded by its construct's region */
    for (size_t k = 0; k < nu; k++) {
        const unit *x = &u[k];
        if (run_end[k]) {
            uint64_t a = x->a, b = x->b;
            for (size_t j = k; j < run_end[k]; j++) {
                if (u[j].a < a) a = u[j].a;
                if (u[j].b > b) b = u[j].b;
            }
            add_ival(B, a, b, reg_construct(rg, t, rg->function, x->construct, "", OTF2_REGION_ROLE_FUNCTION),
                     P_WRAPPER, x->first, u[run_end[k] - 1].last);
        }
        const ps_event *e = &ev[x->first];
        uint32_t i = x->first;
        ival *v;
        if (x->barrier) {
            v = add_ival(B, x->a, x->b, reg_mpi(rg, R_BARRIER), P_LEAF, i, x->last);
            add_rec(B, v, K_COLL_BEGIN, i, x->a);
            add_rec(B, v, K_COLL_END, i, x->b);
            orec *end = &B->rec[B->nrec - 1];
            end->coll_op = OTF2_COLLECTIVE_OP_BARRIER;
            end->sent = end->received = 0;
            continue;
        }
        switch (e->kind) {
        case PS_EV_SEND:
            if (e->flags & PS_EVF_NONBLOCKING) {
                v = add_ival(B, x->a, x->b, reg_mpi(rg, R_ISEND), P_LEAF, i, x->last);
                add_rec(B, v, K_ISEND, i, x->a);
            } else {
                v = add_ival(B, x->a, x->b, reg_mpi(rg, R_SEND), P_LEAF, i, x->last);
                add_rec(B, v, K_SEND, i, x->a);
            }
            break;
        case PS_EV_POST:
            v = add_ival(B, x->a, x->b, reg_mpi(rg, R_IRECV), P_LEAF, i, x->last);
            add_rec(B, v, K_IRECV_REQ, i, x->a);
            break;
        case PS_EV_RECV:
        case PS_EV_WAIT:
            if (x->last > x->first) {
                v = add_ival(B, x->a, x->b, reg_mpi(rg, R_WAITALL), P_LEAF, i, x->last);
            } else if (e->kind == PS_EV_RECV && !(e->flags & PS_EVF_NONBLOCKING)) {
                v = add_ival(B, x->a, x->b, reg_mpi(rg, R_RECV), P_LEAF, i, x->last);
                add_rec(B, v, K_RECV, i, x->b);
                break;
            } else {
                v = add_ival(B, x->a, x->b, reg_mpi(rg, (e->flags & PS_EVF_WAITALL) ? R_WAITALL : R_WAIT), P_LEAF, i, x->last);
            }
            for (uint32_t m = x->first; m <= x->last; m++) {
                int has_start = partner[m] >= 0;
                int kind = ev[m].kind == PS_EV_WAIT ? K_ISEND_DONE : has_start ? K_IRECV : K_RECV;
                if (ev[m].kind == PS_EV_WAIT && !has_start) continue; /* nothing to complete */
                add_rec(B, v, kind, m, ticks(ev[m].t1, origin));
            }
            break;
        case PS_EV_BARRIER:
        case PS_EV_COLLECTIVE: {
            int barrier = e->kind == PS_EV_BARRIER;
            v = add_ival(B, x->a, x->b, reg_mpi(rg, barrier ? R_BARRIER : R_ALLREDUCE), P_LEAF, i, x->last);
            add_rec(B, v, K_COLL_BEGIN, i, x->a);
            add_rec(B, v, K_COLL_END, i, x->b);
            orec *end = &B->rec[B->nrec - 1];
            end->coll_op = barrier ? OTF2_COLLECTIVE_OP_BARRIER : OTF2_COLLECTIVE_OP_ALLREDUCE;
            end->sent = barrier ? 0 : coll_sent[i];
            end->received = barrier ? 0 : coll_recv[i];
            break;
        }
        case PS_EV_COMPUTE:
        case PS_EV_DATA:
        case PS_EV_MARK: {
            /* the construct's region for the event's kind; a mark is an instant */
            int mark = e->kind == PS_EV_MARK, data = e->kind == PS_EV_DATA;
            int64_t *family = mark ? rg->mark : data ? rg->data : rg->function;
            OTF2_RegionRole role = mark   ? OTF2_REGION_ROLE_ARTIFICIAL
                                   : data ? OTF2_REGION_ROLE_DATA_TRANSFER
                                          : OTF2_REGION_ROLE_FUNCTION;
            uint32_t region = reg_construct(rg, t, family, e->construct, mark ? " mark" : "", role);
            add_ival(B, x->a, mark ? x->a : x->b, region, P_LEAF, i, x->last);
            break;
        }
        case PS_EV_SECTION:
            add_ival(B, x->a, x->b, reg_construct(rg, t, rg->code, e->aux, "", OTF2_REGION_ROLE_CODE), P_SECTION, i, i);
            break;
        default:
            break;
        }
    }
    free(run_end);
    free(u);
    free(bound);
    free(hidden);

    /* write: intervals by start, nested with a stack; an interval that would
     * overlap its parent is cut at the parent's end */
    if (B->niv) qsort(B->iv, B->niv, sizeof *B->iv, ival_cmp);
    size_t *stack = ps_xmalloc((B->niv ? B->niv : 1) * sizeof *stack), depth = 0;
    OTF2_ErrorCode ec = OTF2_SUCCESS;
    uint64_t last = 0;
#define TS(x) ((x) < last ? last : ((last = (x))))
    for (size_t k = 0; k <= B->niv && ec == OTF2_SUCCESS; k++) {
        ival *cur = k < B->niv ? &B->iv[k] : NULL;
        /* close what cur is not inside of; cut cur where it would overlap */
        while (depth) {
            ival *top = &B->iv[stack[depth - 1]];
            if (cur && inside(cur, top)) {
                if (cur->b > top->b) cur->b = top->b;
                break;
            }
            depth--;
            /* records inside and at the end, in time order */
            for (uint32_t m = 0; m < top->nrec && ec == OTF2_SUCCESS; m++) {
                const orec *o = &B->rec[top->rec0 + m];
                const ps_event *e = &ev[o->ev];
                uint64_t ts = o->ts > top->b ? top->b : o->ts;
                switch (o->kind) {
                case K_RECV:
                    ec = OTF2_EvtWriter_MpiRecv(w, NULL, TS(ts), (uint32_t)e->peer, 0, (uint32_t)e->tag, e->bytes);
                    break;
                case K_IRECV:
                    ec = OTF2_EvtWriter_MpiIrecv(w, NULL, TS(ts), (uint32_t)e->peer, 0, (uint32_t)e->tag, e->bytes,
                                                 rid[o->ev]);
                    break;
                case K_ISEND_DONE: ec = OTF2_EvtWriter_MpiIsendComplete(w, NULL, TS(ts), rid[o->ev]); break;
                case K_COLL_END:
                    ec = OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, TS(ts), (OTF2_CollectiveOp)o->coll_op, 0,
                                                         OTF2_UNDEFINED_UINT32, o->sent, o->received);
                    break;
                default: continue; /* begin records were written at the enter */
                }
                (*nevents)++;
            }
            if (ec == OTF2_SUCCESS) ec = OTF2_EvtWriter_Leave(w, NULL, TS(top->b), top->region);
            (*nevents)++;
        }
        if (!cur || ec != OTF2_SUCCESS) break;
        ec = OTF2_EvtWriter_Enter(w, NULL, TS(cur->a), cur->region);
        (*nevents)++;
        for (uint32_t m = 0; m < cur->nrec && ec == OTF2_SUCCESS; m++) {
            const orec *o = &B->rec[cur->rec0 + m];
            const ps_event *e = &ev[o->ev];
            switch (o->kind) {
            case K_SEND:
                ec = OTF2_EvtWriter_MpiSend(w, NULL, TS(cur->a), (uint32_t)e->peer, 0, (uint32_t)e->tag, e->bytes);
                break;
            case K_ISEND:
                ec = OTF2_EvtWriter_MpiIsend(w, NULL, TS(cur->a), (uint32_t)e->peer, 0, (uint32_t)e->tag, e->bytes,
                                             rid[o->ev]);
                break;
            case K_IRECV_REQ: ec = OTF2_EvtWriter_MpiIrecvRequest(w, NULL, TS(cur->a), rid[o->ev]); break;
            case K_COLL_BEGIN: ec = OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, TS(cur->a)); break;
            default: continue;
            }
            (*nevents)++;
        }
        stack[depth++] = k;
        if (cur->b > *tmax) *tmax = cur->b;
    }
#undef TS
    free(stack);
    free(coll_sent);
    free(coll_recv);
    return ec == OTF2_SUCCESS ? 0 : -1;
}

/* ---- the archive ------------------------------------------------------------ */

/* Wall-clock nanoseconds of the run's start, from the metadata's clock pair
 * (a CLOCK_REALTIME reading at a known instant of the global timeline). */
static uint64_t realtime_of(const ps_trace *t, double origin)
{
    json_t *meta = ps_trace_meta(t);
    json_t *clk = json_object_get(meta, "clock");
    double mono = json_number_value(json_object_get(clk, "monotonic_s"));
    double real = json_number_value(json_object_get(clk, "realtime_s"));
    json_decref(meta);
    double v = real - (mono - origin);
    if (!(real > 0) || !(v > 0) || v > 1.8e10) return OTF2_UNDEFINED_TIMESTAMP;
    return (uint64_t)llround(v * 1e9);
}

static int write_archive(const ps_trace *t, const char *dir, char *err, size_t errlen)
{
    double origin = ps_export_origin(t);
    ps_requests rq;
    if (ps_trace_requests(t, &rq) != 0) {
        ps_seterr(err, errlen, "%s: out of memory pairing the trace's requests", dir);
        return -1;
    }
    OTF2_Archive *ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                         OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!ar) {
        ps_seterr(err, errlen, "%s: cannot create the OTF2 archive", dir);
        ps_requests_free(&rq);
        return -1;
    }
    int rc = -1;
    int nc = t->nconstructs > 0 ? t->nconstructs : 1;
    regions rg = {.nc = nc};
    for (int k = 0; k < R__MPI; k++) rg.mpi[k] = -1;
    int64_t **arrs[] = {&rg.function, &rg.data, &rg.mark, &rg.code};
    for (size_t k = 0; k < sizeof arrs / sizeof *arrs; k++) {
        *arrs[k] = ps_xmalloc((size_t)nc * sizeof(int64_t));
        for (int c = 0; c < nc; c++) (*arrs[k])[c] = -1;
    }
    uint64_t *nevents = ps_xcalloc((size_t)t->nranks, sizeof *nevents);
    uint64_t tmax = 0;
    rankbuf B = {0};

    if (otf2_failed(OTF2_Archive_SetFlushCallbacks(ar, &flush_callbacks, NULL), "flush setup", dir, err, errlen) ||
        otf2_failed(OTF2_Archive_SetSerialCollectiveCallbacks(ar), "collective setup", dir, err, errlen))
        goto out;
    OTF2_Archive_SetCreator(ar, "parscope");
    /* what the trace is, and what it lacks: a predicted trace is the simulator's, and a
     * trace that lost events to full buffers is incomplete (the sheet says so too) */
    json_t *meta = t->meta_json ? json_loads(t->meta_json, 0, NULL) : NULL;
    const char *kind = json_string_value(json_object_get(meta, "kind"));
    const char *model = json_string_value(json_object_get(meta, "machine_model"));
    int predicted = kind && !strcmp(kind, "predict");
    uint64_t lost = 0;
    for (int r = 0; r < t->nranks; r++) lost += t->rank[r].dropped;
    char what[300], lost_s[32], desc[400];
    if (predicted) snprintf(what, sizeof what, "predicted by the simulator on the model %s", model ? model : "(unnamed)");
    else snprintf(what, sizeof what, "measured");
    snprintf(lost_s, sizeof lost_s, "%llu", (unsigned long long)lost);
    snprintf(desc, sizeof desc, "parscope trace, %s%s%s", what,
             lost ? "; INCOMPLETE: events lost to full trace buffers: " : "", lost ? lost_s : "");
    OTF2_Archive_SetDescription(ar, desc);
    OTF2_Archive_SetProperty(ar, "PARSCOPE::KIND", predicted ? "predict" : kind ? kind : "run", true);
    if (predicted && model) OTF2_Archive_SetProperty(ar, "PARSCOPE::MACHINE_MODEL", model, true);
    OTF2_Archive_SetProperty(ar, "PARSCOPE::EVENTS_LOST", lost_s, true);
    json_decref(meta);
    if (otf2_failed(OTF2_Archive_OpenEvtFiles(ar), "opening event files", dir, err, errlen)) goto out;

    for (int r = 0; r < t->nranks; r++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)r);
        if (!w) {
            ps_seterr(err, errlen, "%s: OTF2 event writer for rank %d", dir, r);
            goto out;
        }
        if (write_rank(w, t, r, &rq, origin, &rg, &B, &nevents[r], &tmax)) {
            ps_seterr(err, errlen, "%s: OTF2 writing the events of rank %d failed", dir, r);
            goto out;
        }
        if (otf2_failed(OTF2_Archive_CloseEvtWriter(ar, w), "closing an event writer", dir, err, errlen)) goto out;
    }
    if (otf2_failed(OTF2_Archive_CloseEvtFiles(ar), "closing event files", dir, err, errlen)) goto out;

    /* local definition files (empty: every id is global) */
    if (otf2_failed(OTF2_Archive_OpenDefFiles(ar), "opening definition files", dir, err, errlen)) goto out;
    for (int r = 0; r < t->nranks; r++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)r);
        if (!dw || otf2_failed(OTF2_Archive_CloseDefWriter(ar, dw), "closing a definition writer", dir, err, errlen)) {
            if (!dw) ps_seterr(err, errlen, "%s: OTF2 definition writer for rank %d", dir, r);
            goto out;
        }
    }
    if (otf2_failed(OTF2_Archive_CloseDefFiles(ar), "closing definition files", dir, err, errlen)) goto out;

    /* global definitions */
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
    if (!g) {
        ps_seterr(err, errlen, "%s: OTF2 global definition writer", dir);
        goto out;
    }
    /* every timestamp lies in [globalOffset, globalOffset + traceLength]; the length is the
     * run's, to the latest rank's end, not its last event's */
    for (int r = 0; r < t->nranks; r++) {
        uint64_t e = ticks(t->rank[r].t_end, origin);
        if (t->rank[r].t_end > t->rank[r].t_begin && e > tmax) tmax = e;
    }
    OTF2_ErrorCode ec =
        OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000u, 0, tmax + 1, realtime_of(t, origin));
    uint32_t s = 0; /* string ids */
#define STR(text) (ec == OTF2_SUCCESS ? (ec = OTF2_GlobalDefWriter_WriteString(g, s, (text)), s++) : s)
    uint32_t s_empty = STR("");
    uint32_t s_mpi = STR("MPI");
    if (ec == OTF2_SUCCESS) ec = OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, s_mpi, OTF2_PARADIGM_CLASS_PROCESS);
    for (uint32_t id = 0; id < rg.n && ec == OTF2_SUCCESS; id++) {
        uint32_t sn = STR(rg.def[id].name);
        if (ec == OTF2_SUCCESS)
            ec = OTF2_GlobalDefWriter_WriteRegion(g, id, sn, sn, s_empty, rg.def[id].role, rg.def[id].paradigm,
                                                  OTF2_REGION_FLAG_NONE, s_empty, 0, 0);
    }
    /* system tree: the machine, one node per host */
    uint32_t s_machine = STR("machine"), s_node = STR("node"), s_host = STR("host");
    if (ec == OTF2_SUCCESS) ec = OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, s_machine, s_node, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    uint32_t *node_of = ps_xcalloc((size_t)(t->nranks ? t->nranks : 1), sizeof *node_of);
    uint32_t nnodes = 0;
    for (int r = 0; r < t->nranks && ec == OTF2_SUCCESS; r++) {
        int same = -1;
        for (int k = 0; k < r && same < 0; k++)
            if (!strcmp(t->rank[k].host, t->rank[r].host)) same = k;
        if (same >= 0) {
            node_of[r] = node_of[same];
            continue;
        }
        node_of[r] = ++nnodes;
        uint32_t sh = STR(t->rank[r].host[0] ? t->rank[r].host : "unknown host");
        if (ec == OTF2_SUCCESS) ec = OTF2_GlobalDefWriter_WriteSystemTreeNode(g, node_of[r], sh, s_host, 0);
    }
    uint64_t *members = ps_xmalloc(((size_t)t->nranks + 1) * sizeof *members);
    for (int r = 0; r < t->nranks && ec == OTF2_SUCCESS; r++) {
        char name[64];
        snprintf(name, sizeof name, "rank %d", r);
        uint32_t sn = STR(name);
        if (ec == OTF2_SUCCESS)
            ec = OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)r, sn, OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                         node_of[r], OTF2_UNDEFINED_LOCATION_GROUP);
        snprintf(name, sizeof name, "rank %d thread 0", r);
        uint32_t st = STR(name);
        if (ec == OTF2_SUCCESS)
            ec = OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)r, st, OTF2_LOCATION_TYPE_CPU_THREAD, nevents[r],
                                                    (OTF2_LocationGroupRef)r);
        members[r] = (uint64_t)r;
    }
    free(node_of);
    uint32_t s_locs = STR("MPI processes"), s_world = STR("MPI_COMM_WORLD");
    if (ec == OTF2_SUCCESS)
        ec = OTF2_GlobalDefWriter_WriteGroup(g, 0, s_locs, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                             OTF2_GROUP_FLAG_NONE, (uint32_t)t->nranks, members);
    if (ec == OTF2_SUCCESS)
        ec = OTF2_GlobalDefWriter_WriteGroup(g, 1, s_world, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                             OTF2_GROUP_FLAG_NONE, (uint32_t)t->nranks, members);
    if (ec == OTF2_SUCCESS) ec = OTF2_GlobalDefWriter_WriteComm(g, 0, s_world, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
#undef STR
    free(members);
    if (otf2_failed(ec, "writing definitions", dir, err, errlen)) goto out;
    rc = 0;
out:
    {
        OTF2_ErrorCode cec = OTF2_Archive_Close(ar);
        if (rc == 0 && otf2_failed(cec, "closing the archive", dir, err, errlen)) rc = -1;
    }
    for (uint32_t k = 0; k < rg.n; k++) free(rg.def[k].name);
    free(rg.def);
    for (size_t k = 0; k < sizeof arrs / sizeof *arrs; k++) free(*arrs[k]);
    free(nevents);
    free(B.iv);
    free(B.rec);
    ps_requests_free(&rq);
    return rc;
}

/* Whether every entry of dir is named by ok(name); the first other in *other. */
static int only_entries(const char *dir, int (*ok)(const char *), char *other, size_t len)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(other, len, "(unreadable)");
        return 0;
    }
    struct dirent *e;
    int yes = 1;
    while (yes && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !ok(e->d_name)) {
            snprintf(other, len, "%s", e->d_name);
            yes = 0;
        }
    closedir(d);
    return yes;
}

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), k = strlen(end);
    return n > k && !strcmp(s + n - k, end);
}

static int archive_top(const char *name)
{
    return !strcmp(name, "traces.otf2") || !strcmp(name, "traces.def") || !strcmp(name, "traces");
}

static int archive_part(const char *name) { return ends_with(name, ".evt") || ends_with(name, ".def"); }

/* Is dir an OTF2 archive parscope may replace: traces.otf2 there, and
 * nothing but what an archive of traces holds (traces.otf2, traces.def,
 * traces/ with its .evt and .def files)?  A Score-P experiment directory
 * holds an archive beside its profile and configuration: replacing the
 * directory would delete them.  The first other entry in *other. */
static int is_otf2_archive(const char *dir, char *other, size_t len)
{
    char *anchor = ps_xasprintf("%s/traces.otf2", dir), *sub = ps_xasprintf("%s/traces", dir);
    int yes = ps_file_exists(anchor);
    if (!yes) snprintf(other, len, "no traces.otf2");
    yes = yes && only_entries(dir, archive_top, other, len);
    if (yes && ps_is_dir(sub) && !only_entries(sub, archive_part, other, len)) {
        char *o = ps_xasprintf("traces/%s", other);
        snprintf(other, len, "%s", o);
        free(o);
        yes = 0;
    }
    free(anchor);
    free(sub);
    return yes;
}

int ps_export_otf2(const ps_trace *t, const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        char other[300] = "";
        if (!S_ISDIR(st.st_mode)) {
            ps_seterr(err, errlen, "%s: exists and is not an OTF2 archive (refusing to overwrite it)", dir);
            return -1;
        }
        if (!is_otf2_archive(dir, other, sizeof other)) {
            ps_seterr(err, errlen, "%s: exists and is not an OTF2 archive alone (%s): refusing to replace the "
                                   "directory and all it holds; give a new directory", dir, other);
            return -1;
        }
    }
    /* write beside the target, then swap it in: nothing half-written */
    char *tmp = ps_xasprintf("%s.tmpXXXXXX", dir);
    if (!mkdtemp(tmp)) {
        ps_seterr(err, errlen, "%s: cannot create a directory beside it: %s", dir, strerror(errno));
        free(tmp);
        return -1;
    }
    rmdir(tmp); /* OTF2 creates the archive directory itself */
    int rc = write_archive(t, tmp, err, errlen);
    if (rc == 0) {
        char *old = NULL;
        if (ps_is_dir(dir)) {
            old = ps_xasprintf("%s.oldXXXXXX", dir);
            if (!mkdtemp(old) || rmdir(old) != 0 || rename(dir, old) != 0) {
                ps_seterr(err, errlen, "%s: cannot move the old archive aside: %s", dir, strerror(errno));
                rc = -1;
            }
        }
        if (rc == 0 && rename(tmp, dir) != 0) {
            ps_seterr(err, errlen, "%s: cannot rename into place: %s", dir, strerror(errno));
            rc = -1;
            if (old) rename(old, dir);
        } else if (old) {
            ps_rmtree(old);
        }
        free(old);
    }
    if (rc != 0) ps_rmtree(tmp);
    free(tmp);
    return rc;
}
