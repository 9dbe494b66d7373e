/*
 * trace.c - the in-memory trace, its file format and message matching.
 *
 * File format "PSTRACE" version 4 (docs/TRACE_FORMAT.md), little-endian:
 *   magic "PSTRACE\0" (8 bytes), u32 version, u32 nranks, u32 nconstructs,
 *   u32 meta length; then nconstructs names (u16 length + bytes);
 *   the meta JSON (meta length bytes);
 *   per rank: a fixed header (u64 n, u64 dropped, f64 t_begin, t_end,
 *   clock_offset, clock_drift, clock_rtt, procstats: f64 wall, user, sys,
 *   u64 minflt, majflt, nvcsw, nivcsw, maxrss_kb, [version 3: i64
 *   timed_minflt, timed_majflt, timed_cache_misses], [version 4: i64
 *   timed_user_us, timed_sys_us, timed_nvcsw, timed_nivcsw], host[64])
 *   followed by n
 *   40-byte event records (f64 t0, f64 t1, u64 bytes, i32 peer, i32 tag,
 *   u16 construct, u8 kind, u8 flags, u32 aux).
 */
#include "trace/trace.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/constructs.h"
#include "util/assert.h"
#include "util/limits.h"
#include "util/util.h"

#define PS_TRACE_MAGIC "PSTRACE"
/* Version 1 had no PS_EV_COLLECTIVE and no request ids (aux was 0 outside
 * sections); its layout is the same, so it reads unchanged. Version 3 adds
 * the counters over the timed interval to each rank's header, version 4 the
 * CPU time and context switches over it. */
#define PS_TRACE_V1_KINDS (PS_EV_DATA + 1)
/* the smallest rank header (versions 1 and 2): bounds the rank count of a file */
#define PS_RANK_HEADER_BYTES (2 * 8 + 5 * 8 + 3 * 8 + 5 * 8 + 64)
/* Every time of a trace (t_begin, t_end, an event's t0 and t1) lies within
 * +-PS_TRACE_MAX_TIME s: a run's timeline is rank 0's CLOCK_MONOTONIC
 * (seconds since its boot), a prediction's starts at 0.  4e9 s (127 years)
 * is more than any uptime or prediction, and a trace's whole span then stays
 * within what the exports represent (OTF2's 64-bit nanosecond ticks reach
 * 9.2e9 s). */
#define PS_TRACE_MAX_TIME 4e9
#define PS_TRACE_MAX_TIME_TEXT "4e9"
/* magic, version, ranks, constructs, metadata length */
#define PS_TRACE_HEADER_BYTES (8 + 4 * 4)

_Static_assert(sizeof(ps_event) == 40, "ps_event must stay 40 bytes (the file format)");

ps_trace *ps_trace_new(int nranks)
{
    if (nranks < 0) return NULL;
    ps_trace *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->nranks = nranks;
    t->version = PS_TRACE_VERSION;
    t->rank = calloc((size_t)(nranks ? nranks : 1), sizeof *t->rank);
    if (!t->rank) {
        free(t);
        return NULL;
    }
    for (int r = 0; r < nranks; r++) {
        ps_procstats *q = &t->rank[r].proc;
        q->timed_minflt = q->timed_majflt = q->timed_cache_misses = -1;
        q->timed_user_us = q->timed_sys_us = q->timed_nvcsw = q->timed_nivcsw = -1;
    }
    return t;
}

void ps_trace_free(ps_trace *t)
{
    if (!t) return;
    for (int r = 0; r < t->nranks; r++) free(t->rank[r].ev);
    ps__construct_list_free(&t->constructs, &t->nconstructs);
    free(t->meta_json);
    free(t->rank);
    free(t);
}

int ps_trace_add_construct(ps_trace *t, const char *name)
{
    return ps__construct_list_add(&t->constructs, &t->nconstructs, name);
}

int ps_trace_set_constructs(ps_trace *t, const char *const *names, int n)
{
    ps__construct_list_free(&t->constructs, &t->nconstructs);
    for (int i = 0; i < n; i++) {
        /* keep ids equal to positions even if a name repeats */
        char **nc = realloc(t->constructs, (size_t)(i + 1) * sizeof *nc);
        if (!nc) return -1;
        t->constructs = nc;
        t->constructs[i] = strdup(names[i] ? names[i] : "");
        if (!t->constructs[i]) return -1;
        t->nconstructs = i + 1;
    }
    return 0;
}

int ps_trace_set_meta(ps_trace *t, const char *json)
{
    char *copy = strdup(json ? json : "{}");
    if (!copy) return -1;
    free(t->meta_json);
    t->meta_json = copy;
    return 0;
}

int ps_trace_push(ps_trace *t, int r, const ps_event *e)
{
    ps_rank_trace *rt = &t->rank[r];
    ps_event *ev = ps_grow(rt->ev, &rt->cap, rt->n + 1, sizeof *ev, 256);
    if (!ev) return -1;
    rt->ev = ev;
    rt->ev[rt->n++] = *e;
    return 0;
}

double ps_trace_time(const ps_trace *t)
{
    double b = INFINITY, e = -INFINITY;
    for (int r = 0; r < t->nranks; r++) {
        if (t->rank[r].t_begin < b) b = t->rank[r].t_begin;
        if (t->rank[r].t_end > e) e = t->rank[r].t_end;
    }
    return t->nranks ? e - b : 0.0;
}

const char *ps_event_kind_name(int kind)
{
    static const char *names[] = {"?", "compute", "send", "recv", "post", "wait",
                                  "barrier", "mark", "section", "data", "collective"};
    _Static_assert(sizeof names / sizeof names[0] == PS_EV__COUNT, "a name for every event kind");
    return kind > 0 && kind < PS_EV__COUNT ? names[kind] : "?";
}

void ps_trace_path(const char *path, char *buf, size_t len)
{
    if (ps_is_dir(path)) snprintf(buf, len, "%s/trace.pst", path);
    else snprintf(buf, len, "%s", path);
}

/* ---- writing ---------------------------------------------------------- */

typedef struct wbuf {
    unsigned char *p;
    size_t n, cap;
    int oom;
} wbuf;

static void wb_put(wbuf *b, const void *data, size_t len)
{
    if (b->oom) return;
    if (b->n + len > b->cap) {
        size_t nc = b->cap ? b->cap : 4096;
        while (nc < b->n + len) nc *= 2;
        unsigned char *np = realloc(b->p, nc);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
    PS_ASSERT(b->n + len <= b->cap);
    memcpy(b->p + b->n, data, len);
    b->n += len;
}

/* The format is little-endian; every supported host is too.  Fields are
 * written one by one so struct padding never reaches the file. */
static void wb_u16(wbuf *b, uint16_t v) { wb_put(b, &v, 2); }
static void wb_u32(wbuf *b, uint32_t v) { wb_put(b, &v, 4); }
static void wb_u64(wbuf *b, uint64_t v) { wb_put(b, &v, 8); }
static void wb_f64(wbuf *b, double v) { wb_put(b, &v, 8); }

int ps_trace_write(const ps_trace *t, const char *path, char *err, size_t errlen)
{
    char file[PATH_MAX];
    ps_trace_path(path, file, sizeof file);
    wbuf b = {0};
    wb_put(&b, PS_TRACE_MAGIC, 8);
    wb_u32(&b, PS_TRACE_VERSION);
    wb_u32(&b, (uint32_t)t->nranks);
    wb_u32(&b, (uint32_t)t->nconstructs);
    const char *meta = t->meta_json ? t->meta_json : "{}";
    wb_u32(&b, (uint32_t)strlen(meta));
    for (int i = 0; i < t->nconstructs; i++) {
        size_t l = strlen(t->constructs[i]);
        if (l > 65535) l = 65535;
        wb_u16(&b, (uint16_t)l);
        wb_put(&b, t->constructs[i], l);
    }
    wb_put(&b, meta, strlen(meta));
    for (int r = 0; r < t->nranks; r++) {
        const ps_rank_trace *rt = &t->rank[r];
        wb_u64(&b, rt->n);
        wb_u64(&b, rt->dropped);
        wb_f64(&b, rt->t_begin);
        wb_f64(&b, rt->t_end);
        wb_f64(&b, rt->clock_offset);
        wb_f64(&b, rt->clock_drift);
        wb_f64(&b, rt->clock_rtt);
        wb_f64(&b, rt->proc.wall);
        wb_f64(&b, rt->proc.user);
        wb_f64(&b, rt->proc.sys);
        wb_u64(&b, rt->proc.minflt);
        wb_u64(&b, rt->proc.majflt);
        wb_u64(&b, rt->proc.nvcsw);
        wb_u64(&b, rt->proc.nivcsw);
        wb_u64(&b, rt->proc.maxrss_kb);
        wb_u64(&b, (uint64_t)rt->proc.timed_minflt);
        wb_u64(&b, (uint64_t)rt->proc.timed_majflt);
        wb_u64(&b, (uint64_t)rt->proc.timed_cache_misses);
        wb_u64(&b, (uint64_t)rt->proc.timed_user_us);
        wb_u64(&b, (uint64_t)rt->proc.timed_sys_us);
        wb_u64(&b, (uint64_t)rt->proc.timed_nvcsw);
        wb_u64(&b, (uint64_t)rt->proc.timed_nivcsw);
        char host[64] = {0};
        memcpy(host, rt->host, sizeof host - 1);
        wb_put(&b, host, sizeof host);
        for (size_t i = 0; i < rt->n; i++) {
            const ps_event *e = &rt->ev[i];
            wb_f64(&b, e->t0);
            wb_f64(&b, e->t1);
            wb_u64(&b, e->bytes);
            wb_u32(&b, (uint32_t)e->peer);
            wb_u32(&b, (uint32_t)e->tag);
            wb_u16(&b, e->construct);
            wb_put(&b, &e->kind, 1);
            wb_put(&b, &e->flags, 1);
            wb_u32(&b, e->aux);
        }
    }
    if (b.oom) {
        free(b.p);
        ps_seterr(err, errlen, "%s: out of memory while writing the trace", file);
        return -1;
    }
    int rc = ps_write_file(file, b.p, b.n, err, errlen);
    free(b.p);
    return rc;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct rbuf {
    const unsigned char *p;
    size_t n, off;
    int bad;
} rbuf;

static int rb_get(rbuf *b, void *out, size_t len)
{
    if (b->bad || b->n - b->off < len) {
        b->bad = 1;
        memset(out, 0, len);
        return -1;
    }
    memcpy(out, b->p + b->off, len);
    b->off += len;
    return 0;
}

static uint16_t rb_u16(rbuf *b) { uint16_t v; rb_get(b, &v, 2); return v; }
static uint32_t rb_u32(rbuf *b) { uint32_t v; rb_get(b, &v, 4); return v; }
static uint64_t rb_u64(rbuf *b) { uint64_t v; rb_get(b, &v, 8); return v; }
static double rb_f64(rbuf *b) { double v; rb_get(b, &v, 8); return v; }

int ps_trace_read(const char *path, ps_trace **out, char *err, size_t errlen)
{
    char file[PATH_MAX];
    ps_trace_path(path, file, sizeof file);
    *out = NULL;
    size_t len;
    char *data = ps_read_file(file, &len, err, errlen);
    if (!data) return -1;
    int rc = ps_trace_parse(data, len, file, out, err, errlen);
    free(data);
    return rc;
}

/* ---- what no run writes ------------------------------------------------------ */

/* The kinds whose peer is the message's partner (every other kind has -1). */
static const char *message_kind(int kind)
{
    switch (kind) {
    case PS_EV_SEND: return "send";
    case PS_EV_RECV: return "receive";
    case PS_EV_POST: return "posted receive";
    case PS_EV_WAIT: return "wait";
    default: return NULL;
    }
}

/* 0 when a rank's interval is one a run or a prediction writes, else -1
 * with why (its times are finite: checked with the header's others). */
static int interval_fault(const ps_rank_trace *rt, char *why, size_t len)
{
    if (fabs(rt->t_begin) > PS_TRACE_MAX_TIME || fabs(rt->t_end) > PS_TRACE_MAX_TIME) {
        int b = fabs(rt->t_begin) > PS_TRACE_MAX_TIME;
        snprintf(why, len, "%s %g s: a trace's times lie within %s s of its clock's zero", b ? "t_begin" : "t_end",
                 b ? rt->t_begin : rt->t_end, PS_TRACE_MAX_TIME_TEXT);
        return -1;
    }
    if (rt->t_end < rt->t_begin) {
        snprintf(why, len, "t_end %.15g s is before t_begin %.15g s", rt->t_end, rt->t_begin);
        return -1;
    }
    return 0;
}

/* 0 when event e could have been written by a run or a prediction of a
 * trace of nranks ranks, else -1 with why. */
static int event_fault(const ps_event *e, unsigned nkinds, uint32_t ncons, uint32_t nranks, char *why, size_t len)
{
    const char *msg = message_kind(e->kind);
    if (e->kind == 0 || e->kind >= nkinds)
        snprintf(why, len, "an unknown kind");
    else if (e->construct >= ncons && ncons > 0)
        snprintf(why, len, "an unknown construct");
    else if (e->peer >= (int32_t)nranks || e->peer < -1)
        snprintf(why, len, "a partner outside the ranks: peer %d of %u ranks", (int)e->peer, nranks);
    else if (msg && e->peer < 0)
        snprintf(why, len, "a %s without a partner (peer %d)", msg, (int)e->peer);
    else if (!isfinite(e->t0) || !isfinite(e->t1))
        snprintf(why, len, "a time that is not a finite number");
    else if (fabs(e->t0) > PS_TRACE_MAX_TIME || fabs(e->t1) > PS_TRACE_MAX_TIME)
        snprintf(why, len, "a time of %g s: a trace's times lie within %s s of its clock's zero",
                 fabs(e->t0) > PS_TRACE_MAX_TIME ? e->t0 : e->t1, PS_TRACE_MAX_TIME_TEXT);
    else if (e->t1 < e->t0)
        snprintf(why, len, "an end before its start");
    else if (msg && (double)e->bytes > PS_MAX_MESSAGE_BYTES)
        snprintf(why, len, "a %s of %llu bytes; an MPI count holds at most %.0f", msg, (unsigned long long)e->bytes,
                 PS_MAX_MESSAGE_BYTES);
    else
        return 0;
    return -1;
}

int ps_trace_parse(const void *bytes, size_t len, const char *file, ps_trace **out, char *err, size_t errlen)
{
    *out = NULL;
    const char *data = bytes;
    rbuf b = {(const unsigned char *)data, len, 0, 0};
    char magic[8];
    /* shorter than the magic but the start of it (an empty file too): cut short */
    if (len < 8 && !memcmp(data, PS_TRACE_MAGIC, len)) {
        ps_seterr(err, errlen, "%s: truncated trace (%zu bytes; its header alone has %d)", file, len,
                  PS_TRACE_HEADER_BYTES);
        return -1;
    }
    rb_get(&b, magic, 8);
    if (b.bad || memcmp(magic, PS_TRACE_MAGIC, 8) != 0) {
        ps_seterr(err, errlen, "%s: not a parscope trace (bad magic)", file);
        return -1;
    }
    uint32_t version = rb_u32(&b);
    if (b.bad || len < PS_TRACE_HEADER_BYTES) {
        ps_seterr(err, errlen, "%s: truncated trace (%zu bytes; its header alone has %d)", file, len,
                  PS_TRACE_HEADER_BYTES);
        return -1;
    }
    if (version < 1 || version > PS_TRACE_VERSION) {
        ps_seterr(err, errlen, "%s: trace format version %u is not supported (this parscope reads 1 to %u)", file,
                  version, PS_TRACE_VERSION);
        return -1;
    }
    unsigned nkinds = version == 1 ? PS_TRACE_V1_KINDS : PS_EV__COUNT;
    uint32_t nranks = rb_u32(&b), ncons = rb_u32(&b), metalen = rb_u32(&b);
    /* every rank needs its fixed header, so the length bounds the rank count */
    if (b.bad || nranks > (1u << 24) || ncons > 65535) {
        ps_seterr(err, errlen, "%s: corrupt trace header", file);
        return -1;
    }
    if ((uint64_t)nranks * PS_RANK_HEADER_BYTES + metalen > len - b.off) {
        ps_seterr(err, errlen, "%s: truncated trace (%zu bytes; its %u ranks and metadata need at least %llu)", file,
                  len, nranks, (unsigned long long)(b.off + (uint64_t)nranks * PS_RANK_HEADER_BYTES + metalen));
        return -1;
    }
    ps_trace *t = ps_trace_new((int)nranks);
    if (!t) {
        ps_seterr(err, errlen, "%s: out of memory", file);
        return -1;
    }
    t->version = version;
    for (uint32_t i = 0; i < ncons && !b.bad; i++) {
        uint16_t l = rb_u16(&b);
        char name[65536];
        if (rb_get(&b, name, l) == 0) {
            name[l] = '\0';
            char **nc = realloc(t->constructs, (size_t)(i + 1) * sizeof *nc);
            if (!nc) { b.bad = 2; break; }
            t->constructs = nc;
            t->constructs[i] = strdup(name);
            if (!t->constructs[i]) { b.bad = 2; break; }
            t->nconstructs = (int)i + 1;
        }
    }
    if (!b.bad) {
        t->meta_json = malloc((size_t)metalen + 1);
        if (!t->meta_json) b.bad = 2;
        else if (rb_get(&b, t->meta_json, metalen) == 0) t->meta_json[metalen] = '\0';
    }
    for (uint32_t r = 0; r < nranks && !b.bad; r++) {
        ps_rank_trace *rt = &t->rank[r];
        uint64_t n = rb_u64(&b);
        rt->dropped = rb_u64(&b);
        rt->t_begin = rb_f64(&b);
        rt->t_end = rb_f64(&b);
        rt->clock_offset = rb_f64(&b);
        rt->clock_drift = rb_f64(&b);
        rt->clock_rtt = rb_f64(&b);
        rt->proc.wall = rb_f64(&b);
        rt->proc.user = rb_f64(&b);
        rt->proc.sys = rb_f64(&b);
        rt->proc.minflt = rb_u64(&b);
        rt->proc.majflt = rb_u64(&b);
        rt->proc.nvcsw = rb_u64(&b);
        rt->proc.nivcsw = rb_u64(&b);
        rt->proc.maxrss_kb = rb_u64(&b);
        if (version >= 3) {
            rt->proc.timed_minflt = (int64_t)rb_u64(&b);
            rt->proc.timed_majflt = (int64_t)rb_u64(&b);
            rt->proc.timed_cache_misses = (int64_t)rb_u64(&b);
        }
        if (version >= 4) {
            rt->proc.timed_user_us = (int64_t)rb_u64(&b);
            rt->proc.timed_sys_us = (int64_t)rb_u64(&b);
            rt->proc.timed_nvcsw = (int64_t)rb_u64(&b);
            rt->proc.timed_nivcsw = (int64_t)rb_u64(&b);
        }
        rb_get(&b, rt->host, 64);
        rt->host[63] = '\0';
        if (b.bad) break;
        /* a time that is no number would turn into 0 or nan in every output */
        const double hv[] = {rt->t_begin, rt->t_end, rt->clock_offset, rt->clock_drift, rt->clock_rtt,
                             rt->proc.wall, rt->proc.user, rt->proc.sys};
        for (size_t k = 0; k < sizeof hv / sizeof hv[0]; k++)
            if (!isfinite(hv[k])) {
                ps_seterr(err, errlen, "%s: corrupt header of rank %u (a time that is not a finite number)", file, r);
                ps_trace_free(t);
                return -1;
            }
        char why[160];
        if (interval_fault(rt, why, sizeof why)) {
            ps_seterr(err, errlen, "%s: corrupt header of rank %u (%s)", file, r, why);
            ps_trace_free(t);
            return -1;
        }
        if (n > (b.n - b.off) / 40) {
            ps_seterr(err, errlen, "%s: truncated trace (rank %u has %llu events of 40 bytes, the file only %zu bytes "
                      "more)", file, r, (unsigned long long)n, b.n - b.off);
            ps_trace_free(t);
            return -1;
        }
        rt->ev = malloc((size_t)(n ? n : 1) * sizeof *rt->ev);
        if (!rt->ev) { b.bad = 2; break; }
        rt->n = rt->cap = (size_t)n;
        for (uint64_t i = 0; i < n; i++) {
            ps_event *e = &rt->ev[i];
            e->t0 = rb_f64(&b);
            e->t1 = rb_f64(&b);
            e->bytes = rb_u64(&b);
            e->peer = (int32_t)rb_u32(&b);
            e->tag = (int32_t)rb_u32(&b);
            e->construct = rb_u16(&b);
            rb_get(&b, &e->kind, 1);
            rb_get(&b, &e->flags, 1);
            e->aux = rb_u32(&b);
            if (event_fault(e, nkinds, ncons, nranks, why, sizeof why)) {
                ps_seterr(err, errlen, "%s: corrupt event %llu of rank %u (%s)", file, (unsigned long long)i, r, why);
                ps_trace_free(t);
                return -1;
            }
        }
    }
    if (!b.bad && b.off != b.n) b.bad = 3;
    if (b.bad) {
        ps_seterr(err, errlen, b.bad == 2 ? "%s: out of memory" :
                  b.bad == 3 ? "%s: trailing bytes after the last rank (corrupt trace)" :
                  "%s: truncated or corrupt trace", file);
        ps_trace_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

/* ---- matching ------------------------------------------------------------- */

/* Channel (src, dst, tag) -> FIFO of unmatched send refs.  Open addressing
 * hash; each send and receive is handled once, so matching is O(events). */
typedef struct chan {
    int32_t src, dst, tag, used;
    size_t head, n, cap;   /* queue of pending sends (or receives) */
    ps_evref *q;
    int is_recv;           /* queue holds receives waiting for sends */
} chan;

typedef struct chtab {
    chan *c;
    size_t cap, used;
} chtab;

static uint64_t chash(int32_t s, int32_t d, int32_t t)
{
    uint64_t h = (uint64_t)(uint32_t)s * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)d * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    h ^= (uint64_t)(uint32_t)t * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
    return h;
}

static chan *ch_get(chtab *T, int32_t s, int32_t d, int32_t t)
{
    if ((T->used + 1) * 2 > T->cap) {
        size_t nc = T->cap ? T->cap * 2 : 1024;
        chan *n = calloc(nc, sizeof *n);
        if (!n) return NULL;
        for (size_t i = 0; i < T->cap; i++) {
            if (!T->c[i].used) continue;
            size_t j = chash(T->c[i].src, T->c[i].dst, T->c[i].tag) & (nc - 1);
            while (n[j].used) j = (j + 1) & (nc - 1);
            n[j] = T->c[i];
        }
        free(T->c);
        T->c = n;
        T->cap = nc;
    }
    size_t j = chash(s, d, t) & (T->cap - 1);
    while (T->c[j].used) {
        if (T->c[j].src == s && T->c[j].dst == d && T->c[j].tag == t) return &T->c[j];
        j = (j + 1) & (T->cap - 1);
    }
    T->c[j].used = 1;
    T->c[j].src = s;
    T->c[j].dst = d;
    T->c[j].tag = t;
    T->used++;
    return &T->c[j];
}

static int q_push(chan *c, ps_evref r)
{
    if (c->head + c->n == c->cap) {
        if (c->head > 0) {
            memmove(c->q, c->q + c->head, c->n * sizeof *c->q);
            c->head = 0;
        }
        ps_evref *q = ps_grow(c->q, &c->cap, c->n + 1, sizeof *q, 4);
        if (!q) return -1;
        c->q = q;
    }
    PS_ASSERT(c->head + c->n < c->cap);
    c->q[c->head + c->n++] = r;
    return 0;
}

size_t *ps_trace_event_offsets(const ps_trace *t)
{
    size_t *base = malloc(((size_t)t->nranks + 1) * sizeof *base), total = 0;
    if (!base) return NULL;
    for (int r = 0; r < t->nranks; r++) {
        base[r] = total;
        total += t->rank[r].n;
    }
    base[t->nranks] = total;
    return base;
}

int ps_trace_match(const ps_trace *t, ps_match *m)
{
    memset(m, 0, sizeof *m);
    m->base = ps_trace_event_offsets(t);
    if (!m->base) return -1;
    size_t total = m->base[t->nranks];
    m->recv_of_send = malloc((total ? total : 1) * sizeof *m->recv_of_send);
    m->send_of_recv = malloc((total ? total : 1) * sizeof *m->send_of_recv);
    if (!m->recv_of_send || !m->send_of_recv) {
        ps_match_free(m);
        return -1;
    }
    for (size_t i = 0; i < total; i++) {
        m->recv_of_send[i] = (ps_evref){-1, -1};
        m->send_of_recv[i] = (ps_evref){-1, -1};
    }
    chtab T = {0};
    int rc = 0;
    size_t sides = 0;   /* sends and receives with a valid peer */
    /* Walk ranks in order; per channel, the queue holds whichever side
     * (sends or receives) has been seen in excess so far.  FIFO order per
     * channel is all the non-overtaking rule needs. */
    for (int r = 0; r < t->nranks && rc == 0; r++) {
        const ps_rank_trace *rt = &t->rank[r];
        for (size_t i = 0; i < rt->n; i++) {
            const ps_event *e = &rt->ev[i];
            int is_send = e->kind == PS_EV_SEND, is_recv = e->kind == PS_EV_RECV;
            if (!is_send && !is_recv) continue;
            if (e->peer < 0 || e->peer >= t->nranks) continue;
            sides++;
            int32_t s = is_send ? r : e->peer, d = is_send ? e->peer : r;
            chan *c = ch_get(&T, s, d, e->tag);
            if (!c) { rc = -1; break; }
            ps_evref me = {r, (int32_t)i};
            if (c->n > 0 && c->is_recv == is_send) {
                ps_evref other = c->q[c->head++];
                c->n--;
                /* the k-th send of a channel meets its k-th receive */
                PS_ASSERT(t->rank[other.rank].ev[other.index].kind == (is_send ? PS_EV_RECV : PS_EV_SEND));
                ps_evref sref = is_send ? me : other, rref = is_send ? other : me;
                m->recv_of_send[m->base[sref.rank] + (size_t)sref.index] = rref;
                m->send_of_recv[m->base[rref.rank] + (size_t)rref.index] = sref;
                m->nmessages++;
            } else {
                c->is_recv = is_recv;
                if (q_push(c, me)) { rc = -1; break; }
            }
        }
    }
    for (size_t i = 0; i < T.cap; i++) {
        if (!T.c[i].used) continue;
        if (T.c[i].is_recv) m->unmatched_recvs += T.c[i].n;
        else m->unmatched_sends += T.c[i].n;
        free(T.c[i].q);
    }
    free(T.c);
    /* every side is in a pair or counted unmatched, once */
    PS_ASSERT(rc || 2 * m->nmessages + m->unmatched_sends + m->unmatched_recvs == sides);
    if (rc) ps_match_free(m);
    return rc;
}

void ps_match_free(ps_match *m)
{
    free(m->recv_of_send);
    free(m->send_of_recv);
    free(m->base);
    memset(m, 0, sizeof *m);
}
