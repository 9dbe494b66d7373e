/*
 * stream.c - instruction stream sets: build, load (mapped), save, validate,
 * and the readable text form.
 */
#include "sim/stream.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parscope/parscope.h"
#include "sim/thread.h"
#include "trace/constructs.h"
#include "util/util.h"

/* stream files from this size on are read into 2 MB pages (ps_streams_load) */
#define PS_STREAMS_READ_BYTES ((size_t)4 << 20)

static const char *op_names[PS_OP__COUNT] = {"?", "SEND", "RECEIVE", "BSEND", "BRECEIVE", "WORK", "WAIT",
                                             "WAITONE", "MARK"};

/* A stream being built in memory: its buffer (s->data[r] points into it)
 * and the encoder's state. */
struct ps_stream_build {
    uint8_t    *buf;
    size_t      cap;
    ps_insn_ctx ctx;
};

const char *ps_op_name(int op) { return op > 0 && op < PS_OP__COUNT ? op_names[op] : "?"; }

ps_streams *ps_streams_new(int nranks)
{
    if (nranks <= 0) return NULL;
    ps_streams *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->nranks = nranks;
    s->data = calloc((size_t)nranks, sizeof *s->data);
    s->len = calloc((size_t)nranks, sizeof *s->len);
    s->build = calloc((size_t)nranks, sizeof *s->build);
    if (!s->data || !s->len || !s->build) {
        ps_streams_free(s);
        return NULL;
    }
    for (int r = 0; r < nranks; r++) s->build[r].ctx.rank = r;
    for (int i = 0; i < PS_C__BUILTIN; i++)
        if (ps_streams_construct(s, ps__construct_builtin_names[i]) < 0) {
            ps_streams_free(s);
            return NULL;
        }
    return s;
}

void ps_streams_free(ps_streams *s)
{
    if (!s) return;
    if (s->map) munmap(s->map, s->maplen);
    if (s->build)
        for (int r = 0; r < s->nranks; r++) free(s->build[r].buf);
    ps__construct_list_free(&s->constructs, &s->nconstructs);
    free(s->meta);
    free(s->data);
    free(s->len);
    free(s->build);
    free(s);
}

int ps_streams_construct(ps_streams *s, const char *name)
{
    return ps__construct_list_add(&s->constructs, &s->nconstructs, name);
}

int ps_streams_append(ps_streams *s, int r, const ps_insn *in)
{
    if (!s->build || r < 0 || r >= s->nranks) return -1;
    struct ps_stream_build *w = &s->build[r];
    uint8_t *b = ps_grow(w->buf, &w->cap, s->len[r] + PS_INSN_MAX, 1, 48);
    if (!b) return -1;
    w->buf = b;
    s->data[r] = b;
    s->len[r] += ps_insn_encode(&w->ctx, in, b + s->len[r]);
    return 0;
}

/* ---- the file ------------------------------------------------------------ */

typedef struct rd {
    const uint8_t *p, *end;
} rd;

static int rd_bytes(rd *r, void *out, size_t n)
{
    if ((size_t)(r->end - r->p) < n) return -1;
    memcpy(out, r->p, n);
    r->p += n;
    return 0;
}

typedef struct read_part {
    int    fd;
    char  *buf;
    size_t off, len;
    int    rc;
} read_part;

static void *read_part_main(void *arg)
{
    read_part *p = arg;
    p->rc = 0;
    for (size_t got = 0; got < p->len;) {
        ssize_t k = pread(p->fd, p->buf + p->off + got, p->len - got, (off_t)(p->off + got));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            p->rc = -1;
            break;
        }
        got += (size_t)k;
    }
    return NULL;
}

/* The n bytes of fd into buf: 0, or -1.  The buffer's pages are new, and
 * faulting them in (zeroing each) costs about as much as the copy (0.1 to
 * 1.7 ms a megabyte on the VMs here): each half of the file is read on a
 * processor of its own where there are two. */
static int read_file_into(int fd, void *buf, size_t n)
{
    size_t half = n / 2 & ~(((size_t)2 << 20) - 1);   /* on a huge page's boundary */
    read_part a = {fd, buf, 0, half, 0}, b = {fd, buf, half, n - half, 0};
    if (half && ps_cpus_usable() > 1) {
        ps_run_pair(read_part_main, &b, &a);
    } else {
        a.len = n;
        read_part_main(&a);
    }
    return a.rc || b.rc ? -1 : 0;
}

int ps_streams_load(const char *path, ps_streams **out, char *err, size_t errlen)
{
    char file[4096];
    if (ps_is_dir(path)) snprintf(file, sizeof file, "%s/%s", path, PS_STREAMS_FILE);
    else snprintf(file, sizeof file, "%s", path);
    *out = NULL;
    int fd = open(file, O_RDONLY);
    if (fd < 0) {
        ps_seterr(err, errlen, "%s: %s", file, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 24) {
        ps_seterr(err, errlen, "%s: not an instruction stream file (too short)", file);
        close(fd);
        return -1;
    }
    /* The simulator reads each rank's stream a few bytes at a time, the ranks
     * in turn: with a thousand ranks every read is a cache and a TLB miss.  A
     * large file is read into 2 MB pages (a few TLB entries for all of it)
     * rather than mapped from the page cache in 4 KB ones. */
    void *map = MAP_FAILED;
    if ((size_t)st.st_size >= PS_STREAMS_READ_BYTES) {
        void *buf = ps_map_huge((size_t)st.st_size);
        if (buf && read_file_into(fd, buf, (size_t)st.st_size) == 0) map = buf;
        else if (buf) munmap(buf, (size_t)st.st_size);
    }
    if (map == MAP_FAILED) {
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
    }
    close(fd);
    if (map == MAP_FAILED) {
        ps_seterr(err, errlen, "%s: cannot map: %s", file, strerror(errno));
        return -1;
    }
    rd r = {map, (const uint8_t *)map + st.st_size};
    char magic[8];
    uint32_t nranks, ncons, metalen;
    ps_streams *s = NULL;
    if (rd_bytes(&r, magic, 8) || memcmp(magic, PS_STREAMS_MAGIC, 8)) {
        ps_seterr(err, errlen, "%s: not an instruction stream file (bad magic)", file);
        goto fail;
    }
    /* each rank has an 8-byte stream length in the file: the size bounds the count */
    if (rd_bytes(&r, &nranks, 4) || rd_bytes(&r, &ncons, 4) || nranks == 0 || nranks > (1u << 30) ||
        (size_t)nranks > (size_t)(r.end - r.p) / 8 || ncons > UINT16_MAX) {
        ps_seterr(err, errlen, "%s: corrupt header", file);
        goto fail;
    }
    s = calloc(1, sizeof *s);
    if (!s) goto oom;
    s->nranks = (int)nranks;
    s->map = map;
    s->maplen = (size_t)st.st_size;
    s->data = calloc(nranks, sizeof *s->data);
    s->len = calloc(nranks, sizeof *s->len);
    s->constructs = calloc(ncons ? ncons : 1, sizeof *s->constructs);
    if (!s->data || !s->len || !s->constructs) goto oom;
    for (uint32_t i = 0; i < ncons; i++) {
        uint16_t l;
        if (rd_bytes(&r, &l, 2) || (size_t)(r.end - r.p) < l) {
            ps_seterr(err, errlen, "%s: corrupt construct table", file);
            goto fail;
        }
        if (!(s->constructs[i] = strndup((const char *)r.p, l))) goto oom;
        s->nconstructs++;
        r.p += l;
    }
    if (rd_bytes(&r, &metalen, 4) || (size_t)(r.end - r.p) < metalen) {
        ps_seterr(err, errlen, "%s: corrupt meta data", file);
        goto fail;
    }
    if (metalen && !(s->meta = strndup((const char *)r.p, metalen))) goto oom;
    r.p += metalen;
    if ((size_t)(r.end - r.p) / 8 < nranks) {
        ps_seterr(err, errlen, "%s: truncated stream index", file);
        goto fail;
    }
    const uint8_t *lens = r.p;
    r.p += (size_t)nranks * 8;
    for (uint32_t i = 0; i < nranks; i++) {
        uint64_t l;
        memcpy(&l, lens + 8 * (size_t)i, 8);
        if ((uint64_t)(r.end - r.p) < l) {
            ps_seterr(err, errlen, "%s: truncated: rank %u's stream is cut short", file, i);
            goto fail;
        }
        s->data[i] = r.p;
        s->len[i] = (size_t)l;
        r.p += l;
    }
    if (r.p != r.end) {
        ps_seterr(err, errlen, "%s: %zu trailing bytes after the last stream", file, (size_t)(r.end - r.p));
        goto fail;
    }
    *out = s;
    return 0;
oom:
    ps_seterr(err, errlen, "%s: out of memory", file);
fail:
    if (s) ps_streams_free(s);
    else munmap(map, (size_t)st.st_size);
    return -1;
}

int ps_streams_save(const ps_streams *s, const char *path, char *err, size_t errlen)
{
    char file[4096];
    if (ps_is_dir(path)) snprintf(file, sizeof file, "%s/%s", path, PS_STREAMS_FILE);
    else snprintf(file, sizeof file, "%s", path);
    size_t total = 16 + 4 + 8 * (size_t)s->nranks;
    size_t metalen = s->meta ? strlen(s->meta) : 0;
    total += metalen;
    for (int i = 0; i < s->nconstructs; i++) total += 2 + strlen(s->constructs[i]);
    for (int r = 0; r < s->nranks; r++) total += s->len[r];
    uint8_t *b = malloc(total), *p = b;
    if (!b) {
        ps_seterr(err, errlen, "%s: out of memory", file);
        return -1;
    }
    uint32_t u;
    memcpy(p, PS_STREAMS_MAGIC, 8), p += 8;
    u = (uint32_t)s->nranks, memcpy(p, &u, 4), p += 4;
    u = (uint32_t)s->nconstructs, memcpy(p, &u, 4), p += 4;
    for (int i = 0; i < s->nconstructs; i++) {
        uint16_t l = (uint16_t)strlen(s->constructs[i]);
        memcpy(p, &l, 2), p += 2;
        memcpy(p, s->constructs[i], l), p += l;
    }
    u = (uint32_t)metalen, memcpy(p, &u, 4), p += 4;
    if (metalen) memcpy(p, s->meta, metalen), p += metalen;
    for (int r = 0; r < s->nranks; r++) {
        uint64_t l = s->len[r];
        memcpy(p, &l, 8), p += 8;
    }
    for (int r = 0; r < s->nranks; r++)
        if (s->len[r]) memcpy(p, s->data[r], s->len[r]), p += s->len[r];
    int rc = ps_write_file(file, b, (size_t)(p - b), err, errlen);
    free(b);
    return rc;
}

/* ---- validation and statistics ---------------------------------------- */

/* Ranks r0 to r1 - 1, their totals added to st. */
static int walk_ranks(const ps_streams *s, int r0, int r1, ps_streams_stats *st, char *err, size_t errlen)
{
    for (int r = r0; r < r1; r++) {
        ps_insn_ctx c = {.rank = r};
        if (!s->data[r] || !s->len[r]) continue;
        const uint8_t *p = s->data[r], *end = p + s->len[r];
        uint64_t k = 0, nreq = 0;
        st->encoded_bytes += s->len[r];
        while (p < end) {
            ps_insn in;
            const uint8_t *q = ps_insn_decode(&c, p, end, &in);
            k++;
            if (!q) {
                ps_seterr(err, errlen, "rank %d: instruction %llu (byte %zu): not a valid instruction", r,
                          (unsigned long long)k, (size_t)(p - s->data[r]));
                return -1;
            }
            p = q;
            switch (ps_insn_fault(&in, s->nranks, nreq, s->nconstructs)) {
            case PS_INSN_BAD_PARTNER:
                ps_seterr(err, errlen, "rank %d: instruction %llu: %s partner %d is not a rank", r,
                          (unsigned long long)k, ps_op_name(in.op), in.peer);
                return -1;
            case PS_INSN_BAD_WAITONE:
                ps_seterr(err, errlen, "rank %d: instruction %llu: WAITONE %llu names a request never issued", r,
                          (unsigned long long)k, (unsigned long long)in.n);
                return -1;
            case PS_INSN_BAD_CONSTRUCT:
                ps_seterr(err, errlen, "rank %d: instruction %llu: construct id %u not in the table", r,
                          (unsigned long long)k, in.construct);
                return -1;
            }
            if (in.op == PS_OP_SEND || in.op == PS_OP_BSEND) {
                st->messages++;
                st->bytes += in.n;
            }
            if (in.op == PS_OP_SEND || in.op == PS_OP_RECV) nreq++;
            if (in.op == PS_OP_WORK && in.construct != PS_C_DATA_MOVE)
                st->flops += (double)in.n; /* a DATA_MOVE's count is bytes copied */
        }
        st->instructions += k;
    }
    return 0;
}

typedef struct walk_job {
    const ps_streams *s;
    int               r0, r1, rc;
    ps_streams_stats  st;
    char              err[512];
} walk_job;

static void *walk_thread(void *arg)
{
    walk_job *j = arg;
    j->rc = walk_ranks(j->s, j->r0, j->r1, &j->st, j->err, sizeof j->err);
    return NULL;
}

/* Streams of 4 MB and more (a million instructions at 4 bytes each) are
 * decoded on two threads when there are two processors, the ranks split
 * where half of the bytes are; the first error in rank order is the one
 * reported, as one thread would.  The totals are the same too: the flops'
 * sum is added in two parts, which is exact while it stays below 2^53 (the
 * counts are integers). */
#define WALK_THREADS_BYTES ((size_t)4 << 20)

static int walk(const ps_streams *s, ps_streams_stats *st, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    size_t total = 0, half = 0;
    for (int r = 0; r < s->nranks; r++) total += s->data[r] ? s->len[r] : 0;
    if (total < WALK_THREADS_BYTES || ps_cpus_usable() < 2) return walk_ranks(s, 0, s->nranks, st, err, errlen);
    int split = 0;
    while (split < s->nranks && 2 * half < total) {
        half += s->data[split] ? s->len[split] : 0;
        split++;
    }
    walk_job lo = {.s = s, .r0 = 0, .r1 = split}, hi = {.s = s, .r0 = split, .r1 = s->nranks};
    ps_run_pair(walk_thread, &hi, &lo);
    /* the first error in rank order */
    const walk_job *bad = lo.rc ? &lo : hi.rc ? &hi : NULL;
    if (bad) {
        ps_seterr(err, errlen, "%s", bad->err);
        return bad->rc;
    }
    st->instructions = lo.st.instructions + hi.st.instructions;
    st->messages = lo.st.messages + hi.st.messages;
    st->bytes = lo.st.bytes + hi.st.bytes;
    st->encoded_bytes = lo.st.encoded_bytes + hi.st.encoded_bytes;
    st->flops = lo.st.flops + hi.st.flops;
    return 0;
}

int ps_streams_validate(const ps_streams *s, ps_streams_stats *st, char *err, size_t errlen)
{
    ps_streams_stats own;
    return walk(s, st ? st : &own, err, errlen);
}

int ps_streams_stats_get(const ps_streams *s, ps_streams_stats *st)
{
    char err[16];
    return walk(s, st, err, sizeof err);
}

/* ---- text form ------------------------------------------------------------- */

void ps_streams_write_text(const ps_streams *s, FILE *f)
{
    fprintf(f, "ranks %d\n", s->nranks);
    for (int r = 0; r < s->nranks; r++) {
        fprintf(f, "rank %d\n", r);
        ps_insn_ctx c = {.rank = r};
        if (!s->data[r] || !s->len[r]) continue;
        const uint8_t *p = s->data[r], *end = p + s->len[r];
        while (p < end) {
            ps_insn in;
            if (!(p = ps_insn_decode(&c, p, end, &in))) break;
            fprintf(f, "  %s", ps_op_name(in.op));
            if (ps__is_message_op(in.op)) fprintf(f, " %d %llu", in.peer, (unsigned long long)in.n);
            else if (in.op == PS_OP_WORK || in.op == PS_OP_WAITONE) fprintf(f, " %llu", (unsigned long long)in.n);
            if (ps__is_message_op(in.op) && in.tag != 0) fprintf(f, " tag %d", in.tag);
            if (in.construct != 0 && in.construct < s->nconstructs)
                fprintf(f, " construct %s", s->constructs[in.construct]);
            if (in.begins) fputs(" begins", f);
            if (in.written) fprintf(f, " written %llu", (unsigned long long)in.written);
            fputc('\n', f);
        }
    }
}

typedef struct lexer {
    const char *p, *line_start, *name;
    int line;
    char *err;
    size_t errlen;
} lexer;

static int lx_word(lexer *l, char *w, size_t n)
{
    while (*l->p == ' ' || *l->p == '\t' || *l->p == '\r') l->p++;
    if (*l->p == '#') while (*l->p && *l->p != '\n') l->p++;
    size_t k = 0;
    while (*l->p && !isspace((unsigned char)*l->p) && *l->p != '#') {
        if (k + 1 < n) w[k++] = *l->p;
        l->p++;
    }
    w[k] = 0;
    return (int)k;
}

static int lx_col(const lexer *l, size_t wlen) { return (int)(l->p - l->line_start - (long)wlen) + 1; }

#define LX_ERR(l, w, ...)                                                                       \
    do {                                                                                        \
        char m_[1024];                                                                           \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                                   \
        ps_seterr((l)->err, (l)->errlen, "%s:%d:%d: %s", (l)->name, (l)->line,                  \
                  lx_col((l), strlen(w)), m_);                                                  \
    } while (0)

static int parse_u64(const char *w, uint64_t *v, int allow_words)
{
    char *end;
    if (!*w || *w == '-') return -1;
    errno = 0;
    double d = strtod(w, &end);
    if (errno || end == w || d < 0 || d > 1.8e19) return -1;
    if (allow_words && (*end == 'w' || *end == 'W') && !end[1]) d *= 8;
    else if (*end) return -1;
    *v = (uint64_t)(d + 0.5);
    return 0;
}

static int op_by_name(const char *w)
{
    for (int i = 1; i < PS_OP__COUNT; i++)
        if (!strcasecmp(w, op_names[i])) return i;
    if (!strcasecmp(w, "RECV")) return PS_OP_RECV;
    if (!strcasecmp(w, "BRECV")) return PS_OP_BRECV;
    return 0;
}

int ps_streams_parse_text(const char *text, const char *name, ps_streams **out, char *err, size_t errlen)
{
    lexer l = {.p = text, .line_start = text, .name = name, .line = 1, .err = err, .errlen = errlen};
    ps_streams *s = NULL;
    int cur = -1;
    char w[80];
    uint64_t *nreq = NULL;
    *out = NULL;
    for (;;) {
        int n = lx_word(&l, w, sizeof w);
        if (!n) {
            if (!*l.p) break;
            if (*l.p == '\n') {
                l.p++;
                l.line++;
                l.line_start = l.p;
                continue;
            }
        }
        if (!strcasecmp(w, "ranks")) {
            if (s) { LX_ERR(&l, w, "'ranks' given twice"); goto fail; }
            uint64_t v;
            n = lx_word(&l, w, sizeof w);
            if (parse_u64(w, &v, 0) || v < 1 || v > (1u << 24)) {
                LX_ERR(&l, w, "expected a rank count (1..16777216), got '%s'", w);
                goto fail;
            }
            if (!(s = ps_streams_new((int)v)) || !(nreq = calloc(v, sizeof *nreq))) {
                ps_seterr(err, errlen, "%s: out of memory", name);
                goto fail;
            }
        } else if (!strcasecmp(w, "rank")) {
            if (!s) { LX_ERR(&l, w, "'ranks N' must come first"); goto fail; }
            uint64_t v;
            lx_word(&l, w, sizeof w);
            if (parse_u64(w, &v, 0) || v >= (uint64_t)s->nranks) {
                LX_ERR(&l, w, "expected a rank 0..%d, got '%s'", s->nranks - 1, w);
                goto fail;
            }
            cur = (int)v;
        } else {
            int op = op_by_name(w);
            if (!op) { LX_ERR(&l, w, "unknown instruction '%s'", w); goto fail; }
            if (cur < 0) { LX_ERR(&l, w, "'rank R' must come before instructions"); goto fail; }
            /* tag and construct default to 0 on every line (the binary form's
             * "same as before" is an encoding detail) */
            ps_insn in = {.op = (uint8_t)op, .peer = -1, .tag = 0, .construct = 0};
            if (ps__is_message_op(op)) {
                uint64_t v;
                lx_word(&l, w, sizeof w);
                if (parse_u64(w, &v, 0) || v >= (uint64_t)s->nranks) {
                    LX_ERR(&l, w, "expected a partner rank 0..%d, got '%s'", s->nranks - 1, w);
                    goto fail;
                }
                in.peer = (int32_t)v;
                lx_word(&l, w, sizeof w);
                if (parse_u64(w, &in.n, 1)) {
                    LX_ERR(&l, w, "expected a size in bytes (or words with a 'w' suffix), got '%s'", w);
                    goto fail;
                }
                if (op == PS_OP_SEND || op == PS_OP_RECV) nreq[cur]++;
            } else if (op == PS_OP_WORK || op == PS_OP_WAITONE) {
                lx_word(&l, w, sizeof w);
                if (parse_u64(w, &in.n, 0)) {
                    LX_ERR(&l, w, "expected a %s, got '%s'", op == PS_OP_WORK ? "flop count" : "request distance", w);
                    goto fail;
                }
                if (op == PS_OP_WAITONE && in.n >= nreq[cur]) {
                    LX_ERR(&l, w, "WAITONE %s: only %llu nonblocking requests issued so far", w,
                           (unsigned long long)nreq[cur]);
                    goto fail;
                }
            }
            /* options: tag T, construct NAME, begins (a construct call's first instruction),
             * written W (a send: W of its bytes written since they were last sent) */
            for (;;) {
                const char *save = l.p;
                if (!lx_word(&l, w, sizeof w)) break;
                if (!strcasecmp(w, "tag") && ps__is_message_op(op)) {
                    lx_word(&l, w, sizeof w);
                    char *end;
                    long t = strtol(w, &end, 10);
                    if (!*w || *end) { LX_ERR(&l, w, "expected a tag number, got '%s'", w); goto fail; }
                    in.tag = (int32_t)t;
                } else if (!strcasecmp(w, "construct")) {
                    lx_word(&l, w, sizeof w);
                    if (!*w) { LX_ERR(&l, w, "expected a construct name"); goto fail; }
                    int id = ps_streams_construct(s, w);
                    if (id < 0) { ps_seterr(err, errlen, "%s: out of memory", name); goto fail; }
                    in.construct = (uint16_t)id;
                } else if (!strcasecmp(w, "begins")) {
                    in.begins = 1;
                } else if (!strcasecmp(w, "written") && ps__is_send_op(op)) {
                    lx_word(&l, w, sizeof w);
                    if (parse_u64(w, &in.written, 0) || in.written == 0 || in.written > in.n) {
                        LX_ERR(&l, w, "written: expected a byte count from 1 to the message's %llu, got '%s'",
                               (unsigned long long)in.n, w);
                        goto fail;
                    }
                } else {
                    l.p = save;
                    lx_word(&l, w, sizeof w);
                    LX_ERR(&l, w, "unexpected '%s' after %s", w, op_names[op]);
                    goto fail;
                }
            }
            if (ps_streams_append(s, cur, &in)) { ps_seterr(err, errlen, "%s: out of memory", name); goto fail; }
        }
        /* rest of line must be empty */
        if (lx_word(&l, w, sizeof w)) { LX_ERR(&l, w, "unexpected '%s'", w); goto fail; }
    }
    if (!s) {
        ps_seterr(err, errlen, "%s:%d:1: no 'ranks N' line", name, l.line);
        goto fail;
    }
    free(nreq);
    *out = s;
    return 0;
fail:
    free(nreq);
    ps_streams_free(s);
    return -1;
}
