/* export.c - CSV and Perfetto exports and the export dispatch (see export.h).
 * Lines are formatted by hand into a buffer: a million events must export in
 * well under two seconds, and printf's double formatting dominates otherwise.
 * Every text from the trace reaches the JSON through jansson's encoder (each
 * name is encoded once); numbers are formatted here. */
#include "report/export.h"

#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/output.h"
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
    case PS_EV_COLLECTIVE: return "collective";
    default: return "event";
    }
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

/* Kinds whose `bytes` are bytes (a message's, moved data's, a collective's payload). */
static int has_bytes(int kind)
{
    return kind == PS_EV_SEND || kind == PS_EV_RECV || kind == PS_EV_POST || kind == PS_EV_WAIT ||
           kind == PS_EV_DATA || kind == PS_EV_COLLECTIVE;
}

int ps_export_csv(const ps_trace *t, FILE *out, char *err, size_t errlen)
{
    ps_match m;
    ps_requests rq;
    if (ps_trace_match(t, &m) != 0) {
        ps_seterr(err, errlen, "cannot match the trace's messages");
        return -1;
    }
    if (ps_trace_requests(t, &rq) != 0) {
        ps_match_free(&m);
        ps_seterr(err, errlen, "cannot pair the trace's requests");
        return -1;
    }
    uint32_t *id = ps_export_message_ids(t, &m, NULL);
    double o = ps_export_origin(t);
    fputs("rank,index,kind,construct,t0_s,t1_s,duration_s,bytes,peer,tag,nonblocking,estimated,message,flops,request\n",
          out);
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
            if (has_bytes(e->kind)) lb_u64(&l, e->bytes);
            lb_str(&l, ",");
            lb_i64(&l, e->peer);
            lb_str(&l, ",");
            lb_i64(&l, e->tag);
            lb_str(&l, e->flags & PS_EVF_NONBLOCKING ? ",1," : ",0,");
            lb_str(&l, e->flags & PS_EVF_ESTIMATED ? "1," : "0,");
            if (id[m.base[r] + i]) lb_u64(&l, id[m.base[r] + i]);
            lb_str(&l, ",");
            if (e->kind == PS_EV_COMPUTE) lb_u64(&l, e->bytes);
            lb_str(&l, ",");
            if (rq.id[rq.base[r] + i]) lb_u64(&l, rq.id[rq.base[r] + i]);
            lb_str(&l, "\n");
            lb_flush(&l, out);
        }
    free(id);
    ps_requests_free(&rq);
    ps_match_free(&m);
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

/* s as a JSON string literal, encoded by jansson (text that is not UTF-8 has
 * its other bytes replaced by '?', as a JSON string must be UTF-8). */
static char *json_quoted(const char *s)
{
    json_t *j = json_string(s);
    if (!j) {
        char *copy = ps_xstrdup(s);
        for (unsigned char *p = (unsigned char *)copy; *p; p++)
            if (*p >= 0x80) *p = '?';
        j = json_string(copy);
        free(copy);
    }
    char *q = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    return q ? q : ps_xstrdup("\"?\"");
}

/* A string already quoted by json_quoted, with " suffix" inside the quotes;
 * a long one goes straight to the file (it must never be cut). */
static void lb_quoted(lbuf *l, FILE *out, const char *quoted, const char *suffix)
{
    size_t k = strlen(quoted), body = suffix ? k - 1 : k;
    if (l->n + k + 64 > sizeof l->b) lb_flush(l, out);
    if (k + 64 > sizeof l->b) fwrite(quoted, 1, body, out);
    else {
        memcpy(l->b + l->n, quoted, body);
        l->n += body;
    }
    if (suffix) {
        lb_str(l, " ");
        lb_str(l, suffix);
        lb_str(l, "\"");
    }
}

/* otherData and the process name: what the trace's metadata says, built and
 * encoded by jansson; a metadata that cannot be read is said so, not hidden. */
static void pf_preamble(const ps_trace *t, FILE *out)
{
    json_t *other = json_object(), *pname = json_object();
    json_object_set_new(other, "generator", json_string("parscope"));
    json_object_set_new(other, "time_zero", json_string("run start (earliest rank's t_begin)"));
    json_object_set_new(other, "flows", json_string("one per message, from a zero-length 'message out' slice at "
                                                    "its send's start to a 'message in' slice at its receive's end"));
    const char *workload = NULL;
    json_error_t jerr;
    json_t *meta = t->meta_json ? json_loads(t->meta_json, 0, &jerr) : NULL;
    if (t->meta_json && !json_is_object(meta)) {
        char msg[300];
        snprintf(msg, sizeof msg, "the trace's metadata is not a JSON object (%d:%d: %s)", jerr.line, jerr.column,
                 meta ? "not an object" : jerr.text);
        json_object_set_new(other, "meta_error", json_string(msg));
    } else if (meta) {
        workload = json_string_value(json_object_get(meta, "workload"));
        if (workload) json_object_set_new(other, "workload", json_string(workload));
    }
    /* measured or predicted (and on which model), and whether events were lost: a trace that
     * lost events to full buffers is incomplete, and the viewer should say so */
    const char *kind = json_string_value(json_object_get(meta, "kind"));
    const char *model = json_string_value(json_object_get(meta, "machine_model"));
    int predicted = kind && !strcmp(kind, "predict");
    json_object_set_new(other, "kind", json_string(predicted ? "predicted" : "measured"));
    if (predicted && model) json_object_set_new(other, "machine_model", json_string(model));
    uint64_t lost = 0;
    for (int r = 0; r < t->nranks; r++) lost += t->rank[r].dropped;
    json_object_set_new(other, "events_lost", json_integer((json_int_t)lost));
    if (lost)
        json_object_set_new(other, "warning", json_string("incomplete: events were lost to full trace buffers "
                                                          "(events_lost); what they held is missing"));
    char *pn = ps_xasprintf("parscope%s%s%s", workload ? ": " : "", workload ? workload : "",
                            predicted ? " (predicted)" : lost ? " (incomplete)" : "");
    json_object_set_new(pname, "name", json_string(pn));
    free(pn);
    char *o = json_dumps(other, JSON_COMPACT | JSON_PRESERVE_ORDER);
    char *p = json_dumps(pname, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fprintf(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":%s,\"traceEvents\":[\n"
                 "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":%s}",
            o ? o : "{}", p ? p : "{\"name\":\"parscope\"}");
    free(o);
    free(p);
    json_decref(other);
    json_decref(pname);
    json_decref(meta);
}

/* One message's anchor: a zero-length slice bound to its flow (Perfetto's
 * "bind_id" with flow_out / flow_in, which ties a flow to one slice), so the
 * arrow starts exactly at the send's start and ends at the receive's end. */
static void pf_anchor(lbuf *l, int r, double ts_us, int out_side, uint32_t mid, const ps_event *e)
{
    pf_head(l, "X", r, ts_us);
    lb_str(l, out_side ? ",\"dur\":0,\"name\":\"message out\",\"cat\":\"message\",\"bind_id\":"
                       : ",\"dur\":0,\"name\":\"message in\",\"cat\":\"message\",\"bind_id\":");
    lb_u64(l, mid);
    lb_str(l, out_side ? ",\"flow_out\":true,\"args\":{\"message\":" : ",\"flow_in\":true,\"args\":{\"message\":");
    lb_u64(l, mid);
    lb_str(l, out_side ? ",\"to\":" : ",\"from\":");
    lb_i64(l, e->peer);
    lb_str(l, ",\"bytes\":");
    lb_u64(l, e->bytes);
    lb_str(l, ",\"tag\":");
    lb_i64(l, e->tag);
    lb_str(l, "}}");
}

int ps_export_perfetto(const ps_trace *t, FILE *out, char *err, size_t errlen)
{
    ps_match m;
    if (ps_trace_match(t, &m) != 0) {
        ps_seterr(err, errlen, "cannot match the trace's messages");
        return -1;
    }
    uint32_t *id = ps_export_message_ids(t, &m, NULL);
    double o = ps_export_origin(t);
    lbuf l = {.n = 0};
    pf_preamble(t, out);
    /* every name from the trace, encoded once */
    int nc = t->nconstructs;
    char **qname = ps_xcalloc((size_t)(nc > 0 ? nc : 1), sizeof *qname);
    for (int c = 0; c < nc; c++) qname[c] = json_quoted(t->constructs[c] ? t->constructs[c] : "UNKNOWN");
    const char *qunknown = "\"UNKNOWN\"";
#define QNAME(c) ((int)(c) < nc ? qname[c] : qunknown)

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
                lb_str(&l, ",\"s\":\"t\",\"name\":");
                lb_quoted(&l, out, QNAME(e->construct), NULL);
                lb_str(&l, ",\"cat\":\"mark\"}");
                lb_flush(&l, out);
                continue;
            }
            pf_head(&l, "X", r, a);
            lb_str(&l, ",\"dur\":");
            lb_fixed(&l, d, 3);
            lb_str(&l, ",\"name\":");
            if (e->kind == PS_EV_SECTION) lb_quoted(&l, out, QNAME(e->aux), NULL);
            else lb_quoted(&l, out, QNAME(e->construct), act_word(e->kind));
            lb_str(&l, ",\"cat\":\"");
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
            } else if (e->kind == PS_EV_DATA || e->kind == PS_EV_COLLECTIVE) {
                lb_str(&l, ",\"args\":{\"bytes\":");
                lb_u64(&l, e->bytes);
                lb_str(&l, "}");
            }
            lb_str(&l, "}");
            uint32_t mid = id[m.base[r] + i];
            if (mid && e->kind == PS_EV_SEND) pf_anchor(&l, r, a, 1, mid, e);
            if (mid && e->kind == PS_EV_RECV) {
                /* as the diagram: a receive the clock correction leaves ending before
                 * its send began (a clock error) ends its arrow at the send's start */
                ps_evref sr = ps_match_send(&m, r, i);
                double s0 = (t->rank[sr.rank].ev[sr.index].t0 - o) * 1e6;
                pf_anchor(&l, r, a + d < s0 ? s0 : a + d, 0, mid, e);
            }
            lb_flush(&l, out);
        }
    }
#undef QNAME
    fputs("\n]}\n", out);
    for (int c = 0; c < nc; c++) free(qname[c]);
    free(qname);
    free(id);
    ps_match_free(&m);
    return 0;
}

/* ---- dispatch ------------------------------------------------------------- */

int ps_export(const ps_trace *t, int format, const char *path, char *err, size_t errlen)
{
    if (format == PS_EXPORT_OTF2) return ps_export_otf2(t, path, err, errlen);
    ps_output o;
    if (ps_output_open(&o, path, 0, err, errlen)) return -1;
    setvbuf(o.f, NULL, _IOFBF, 1 << 20);
    int rc = format == PS_EXPORT_CSV ? ps_export_csv(t, o.f, err, errlen) : ps_export_perfetto(t, o.f, err, errlen);
    if (rc) {
        ps_output_abort(&o);
        return rc;
    }
    return ps_output_commit(&o, err, errlen);
}

void ps_export_note_stale(const char *cmd, const char *tracefile)
{
    static const char *const ext[] = {".otf2", ".csv", ".perfetto.json"};
    char base[PATH_MAX], list[3 * PATH_MAX + 16] = "";
    snprintf(base, sizeof base, "%s", tracefile);
    size_t n = strlen(base);
    if (n > 4 && !strcmp(base + n - 4, ".pst")) base[n - 4] = '\0';
    for (size_t k = 0; k < sizeof ext / sizeof *ext; k++) {
        char *f = ps_xasprintf("%s%s", base, ext[k]);
        if (ps_file_exists(f)) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", f);
        }
        free(f);
    }
    if (list[0])
        fprintf(stderr, "%s: note: %s %s of the trace being replaced: they will describe the earlier run "
                        "(parscope export again)\n",
                cmd, list, strchr(list, ',') ? "are exports" : "is an export");
}
