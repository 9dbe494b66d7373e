/* export.c - CSV and Perfetto exports and the export dispatch (see export.h).
 * Lines are formatted by hand into a buffer: a million events must export in
 * well under two seconds, and printf's double formatting dominates otherwise. */
#include "report/export.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

int ps_export_format_parse(const char *name)
{
    if (!strcmp(name, "otf2")) return PS_EXPORT_OTF2;
    if (!strcmp(name, "perfetto") || !strcmp(name, "json") || !strcmp(name, "chrome")) return PS_EXPORT_PERFETTO;
    if (!strcmp(name, "csv")) return PS_EXPORT_CSV;
    return -1;
}

double ps_export_origin(const ps_trace *t)
{
    double o = INFINITY;
    for (int r = 0; r < t->nranks; r++) {
        if (t->rank[r].t_begin < o) o = t->rank[r].t_begin;
        for (size_t i = 0; i < t->rank[r].n; i++)
            if (t->rank[r].ev[i].t0 < o) o = t->rank[r].ev[i].t0;
    }
    return isfinite(o) ? o : 0;
}

uint32_t *ps_export_message_ids(const ps_trace *t, const ps_match *m, size_t *nmessages)
{
    size_t total = 0;
    for (int r = 0; r < t->nranks; r++) total += t->rank[r].n;
    uint32_t *id = ps_xcalloc(total ? total : 1, sizeof *id);
    uint32_t next = 0;
    for (int r = 0; r < t->nranks; r++)
        for (size_t i = 0; i < t->rank[r].n; i++) {
            if (t->rank[r].ev[i].kind != PS_EV_SEND) continue;
            ps_evref v = ps_match_recv(m, r, i);
            if (v.rank < 0) continue;
            id[m->base[r] + i] = ++next;
            id[m->base[v.rank] + (size_t)v.index] = next;
        }
    if (nmessages) *nmessages = next;
    return id;
}

/* ---- a small line buffer with fast number formatting ---------------------- */

typedef struct lbuf {
    char   b[1024];
    size_t n;
} lbuf;

static void lb_str(lbuf *l, const char *s)
{
    size_t k = strlen(s);
    if (k > sizeof l->b - l->n - 1) k = sizeof l->b - l->n - 1;
    memcpy(l->b + l->n, s, k);
    l->n += k;
}

static void lb_u64(lbuf *l, uint64_t v)
{
    char tmp[24];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (l->n + (size_t)k >= sizeof l->b) return;
    while (k) l->b[l->n++] = tmp[--k];
}

static void lb_i64(lbuf *l, int64_t v)
{
    if (v < 0) {
        lb_str(l, "-");
        lb_u64(l, (uint64_t)(-(v + 1)) + 1);
    } else {
        lb_u64(l, (uint64_t)v);
    }
}

/* v with exactly `dec` decimals (dec <= 9), correctly rounded to that grid. */
static void lb_fixed(lbuf *l, double v, int dec)
{
    static const double p10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    if (!isfinite(v) || fabs(v) > 9e9) {
        char tmp[64];
        if (!isfinite(v)) v = 0; /* JSON and CSV have no NaN */
        if (fabs(v) < 1e15) snprintf(tmp, sizeof tmp, "%.*f", dec, v);
        else snprintf(tmp, sizeof tmp, "%.17g", v);
        lb_str(l, tmp);
        return;
    }
    double s = llround(v * p10[dec]);
    if (s < 0) {
        lb_str(l, "-");
        s = -s;
    }
    uint64_t u = (uint64_t)s, ip = u / (uint64_t)p10[dec], fp = u % (uint64_t)p10[dec];
    lb_u64(l, ip);
    if (dec) {
        char tmp[12];
        for (int k = dec - 1; k >= 0; k--) {
            tmp[k] = (char)('0' + fp % 10);
            fp /= 10;
        }
        tmp[dec] = 0;
        lb_str(l, ".");
        lb_str(l, tmp);
    }
}

static void lb_flush(lbuf *l, FILE *f)
{
    fwrite(l->b, 1, l->n, f);
    l->n = 0;
}

static void json_escape(lbuf *l, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p && l->n + 8 < sizeof l->b; p++) {
        if (*p == '"' || *p == '\\') {
            l->b[l->n++] = '\\';
            l->b[l->n++] = (char)*p;
        } else if (*p < 0x20) {
            char tmp[8];
            snprintf(tmp, sizeof tmp, "\\u%04x", *p);
            lb_str(l, tmp);
        } else {
            l->b[l->n++] = (char)*p;
        }
    }
}

static const char *cname(const ps_trace *t, unsigned id)
{
    return (int)id < t->nconstructs && t->constructs[id] ? t->constructs[id] : "UNKNOWN";
}

static const char *act_word(int kind)
{
    switch (kind) {
    case PS_EV_COMPUTE: return "compute";
    case PS_EV_SEND: return "send";
    case PS_EV_RECV: return "recv";
    case PS_EV_POST: return "post";
    case PS_EV_WAIT: return "wait";
    case PS_EV_BARRIER: return "barrier";
    case PS_EV_MARK: return "mark";
    case PS_EV_SECTION: return "section";
    case PS_EV_DATA: return "data";
    default: return "event";
    }
}

/* What the stream exports share: every event's message id (0: not part of a
 * matched message) and the run's start. */
typedef struct msg_ids {
    ps_match  m;
    uint32_t *id;
    double    origin;
} msg_ids;

static int msg_ids_build(const ps_trace *t, msg_ids *x, char *err, size_t errlen)
{
    if (ps_trace_match(t, &x->m) != 0) {
        ps_seterr(err, errlen, "cannot match the trace's messages");
        return -1;
    }
    x->id = ps_export_message_ids(t, &x->m, NULL);
    x->origin = ps_export_origin(t);
    return 0;
}

static uint32_t msg_id(const msg_ids *x, int r, size_t i)
{
    return x->id[x->m.base[r] + i];
}

static void msg_ids_free(msg_ids *x)
{
    free(x->id);
    ps_match_free(&x->m);
}

/* ---- CSV ------------------------------------------------------------------ */

static void csv_field(lbuf *l, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        lb_str(l, s);
        return;
    }
    lb_str(l, "\"");
    for (const char *p = s; *p && l->n + 4 < sizeof l->b; p++) {
        if (*p == '"') l->b[l->n++] = '"';
        l->b[l->n++] = *p;
    }
    lb_str(l, "\"");
}

int ps_export_csv(const ps_trace *t, FILE *out, char *err, size_t errlen)
{
    msg_ids x;
    if (msg_ids_build(t, &x, err, errlen) != 0) return -1;
    double o = x.origin;
    fputs("rank,index,kind,construct,t0_s,t1_s,duration_s,bytes,peer,tag,nonblocking,estimated,message\n", out);
    lbuf l = {.n = 0};
    for (int r = 0; r < t->nranks; r++)
        for (size_t i = 0; i < t->rank[r].n; i++) {
            const ps_event *e = &t->rank[r].ev[i];
            lb_i64(&l, r);
            lb_str(&l, ",");
            lb_u64(&l, i);
            lb_str(&l, ",");
            lb_str(&l, ps_event_kind_name(e->kind));
            lb_str(&l, ",");
            csv_field(&l, e->kind == PS_EV_SECTION ? cname(t, e->aux) : cname(t, e->construct));
            lb_str(&l, ",");
            lb_fixed(&l, e->t0 - o, 9);
            lb_str(&l, ",");
            lb_fixed(&l, e->t1 - o, 9);
            lb_str(&l, ",");
            lb_fixed(&l, e->t1 - e->t0, 9);
            lb_str(&l, ",");
            lb_u64(&l, e->bytes);
            lb_str(&l, ",");
            lb_i64(&l, e->peer);
            lb_str(&l, ",");
            lb_i64(&l, e->tag);
            lb_str(&l, e->flags & PS_EVF_NONBLOCKING ? ",1," : ",0,");
            lb_str(&l, e->flags & PS_EVF_ESTIMATED ? "1," : "0,");
            if (msg_id(&x, r, i)) lb_u64(&l, msg_id(&x, r, i));
            lb_str(&l, "\n");
            lb_flush(&l, out);
        }
    msg_ids_free(&x);
    return 0;
}

/* ---- Perfetto / Chrome trace JSON ----------------------------------------- */

static void pf_head(lbuf *l, const char *ph, int r, double ts_us)
{
    lb_str(l, ",\n{\"ph\":\"");
    lb_str(l, ph);
    lb_str(l, "\",\"pid\":1,\"tid\":");
    lb_i64(l, r);
    lb_str(l, ",\"ts\":");
    lb_fixed(l, ts_us, 3);
}

int ps_export_perfetto(const ps_trace *t, FILE *out, char *err, size_t errlen)
{
    msg_ids x;
    if (msg_ids_build(t, &x, err, errlen) != 0) return -1;
    double o = x.origin;
    lbuf l = {.n = 0};

    /* process name from the trace's metadata (workload), if it has one */
    const char *workload = NULL;
    json_t *meta = t->meta_json ? json_loads(t->meta_json, 0, NULL) : NULL;
    if (meta && json_is_object(meta)) workload = json_string_value(json_object_get(meta, "workload"));
    lb_str(&l, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"parscope\",\"time_zero\":"
               "\"run start (earliest rank's t_begin)\"");
    if (workload) {
        lb_str(&l, ",\"workload\":\"");
        json_escape(&l, workload);
        lb_str(&l, "\"");
    }
    lb_str(&l, "},\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"");
    lb_str(&l, "parscope");
    if (workload) {
        lb_str(&l, ": ");
        json_escape(&l, workload);
    }
    lb_str(&l, "\"}}");
    lb_flush(&l, out);
    json_decref(meta);

    for (int r = 0; r < t->nranks; r++) {
        lb_str(&l, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":");
        lb_i64(&l, r);
        lb_str(&l, ",\"name\":\"thread_name\",\"args\":{\"name\":\"rank ");
        lb_i64(&l, r);
        lb_str(&l, "\"}},\n{\"ph\":\"M\",\"pid\":1,\"tid\":");
        lb_i64(&l, r);
        lb_str(&l, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":");
        lb_i64(&l, r);
        lb_str(&l, "}}");
        lb_flush(&l, out);
    }
    for (int r = 0; r < t->nranks; r++) {
        for (size_t i = 0; i < t->rank[r].n; i++) {
            const ps_event *e = &t->rank[r].ev[i];
            double a = (e->t0 - o) * 1e6, d = (e->t1 - e->t0) * 1e6;
            if (d < 0) d = 0;
            if (e->kind == PS_EV_MARK) {
                pf_head(&l, "i", r, a);
                lb_str(&l, ",\"s\":\"t\",\"name\":\"");
                json_escape(&l, cname(t, e->construct));
                lb_str(&l, "\",\"cat\":\"mark\"}");
                lb_flush(&l, out);
                continue;
            }
            pf_head(&l, "X", r, a);
            lb_str(&l, ",\"dur\":");
            lb_fixed(&l, d, 3);
            lb_str(&l, ",\"name\":\"");
            if (e->kind == PS_EV_SECTION) {
                json_escape(&l, cname(t, e->aux));
            } else {
                json_escape(&l, cname(t, e->construct));
                lb_str(&l, " ");
                lb_str(&l, act_word(e->kind));
            }
            lb_str(&l, "\",\"cat\":\"");
            lb_str(&l, act_word(e->kind));
            lb_str(&l, "\"");
            if (e->kind == PS_EV_SEND || e->kind == PS_EV_RECV || e->kind == PS_EV_POST || e->kind == PS_EV_WAIT) {
                lb_str(&l, ",\"args\":{\"bytes\":");
                lb_u64(&l, e->bytes);
                lb_str(&l, ",\"peer\":");
                lb_i64(&l, e->peer);
                lb_str(&l, ",\"tag\":");
                lb_i64(&l, e->tag);
                lb_str(&l, "}");
            } else if (e->kind == PS_EV_COMPUTE) {
                lb_str(&l, ",\"args\":{\"flops\":");
                lb_u64(&l, e->bytes);
                lb_str(&l, "}");
            } else if (e->kind == PS_EV_DATA) {
                lb_str(&l, ",\"args\":{\"bytes\":");
                lb_u64(&l, e->bytes);
                lb_str(&l, "}");
            }
            lb_str(&l, "}");
            uint32_t mid = msg_id(&x, r, i);
            if (mid && (e->kind == PS_EV_SEND || e->kind == PS_EV_RECV)) {
                /* flow arrow: starts inside the send slice, ends inside the
                 * receive slice ("bp":"e" binds it to the enclosing slice) */
                pf_head(&l, e->kind == PS_EV_SEND ? "s" : "f", r, a + d / 2);
                lb_str(&l, e->kind == PS_EV_SEND ? ",\"id\":" : ",\"bp\":\"e\",\"id\":");
                lb_u64(&l, mid);
                lb_str(&l, ",\"name\":\"message\",\"cat\":\"message\"}");
            }
            lb_flush(&l, out);
        }
    }
    fputs("\n]}\n", out);
    msg_ids_free(&x);
    return 0;
}

/* ---- dispatch ------------------------------------------------------------- */

int ps_export(const ps_trace *t, int format, const char *path, char *err, size_t errlen)
{
    if (format == PS_EXPORT_OTF2) return ps_export_otf2(t, path, err, errlen);
    int to_stdout = !strcmp(path, "-");
    char *tmp = NULL;
    FILE *f = stdout;
    if (!to_stdout) {
        tmp = ps_xasprintf("%s.tmpXXXXXX", path);
        int fd = mkstemp(tmp);
        if (fd < 0 || !(f = fdopen(fd, "w"))) {
            ps_seterr(err, errlen, "%s: cannot create: %s", path, strerror(errno));
            if (fd >= 0) close(fd), unlink(tmp);
            free(tmp);
            return -1;
        }
        fchmod(fd, 0644);
        setvbuf(f, NULL, _IOFBF, 1 << 20);
    }
    int rc = format == PS_EXPORT_CSV ? ps_export_csv(t, f, err, errlen) : ps_export_perfetto(t, f, err, errlen);
    if (to_stdout) {
        if (fflush(f) != 0 && rc == 0) {
            ps_seterr(err, errlen, "standard output: %s", strerror(errno));
            rc = -1;
        }
        return rc;
    }
    int werr = ferror(f) || fflush(f) != 0 || fsync(fileno(f)) != 0;
    int e = errno;
    if (fclose(f) != 0) werr = 1, e = errno;
    if (rc == 0 && werr) {
        ps_seterr(err, errlen, "%s: write failed: %s", path, strerror(e));
        rc = -1;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        ps_seterr(err, errlen, "%s: cannot rename into place: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc != 0) unlink(tmp);
    free(tmp);
    return rc;
}
