/*
 * machine.c - the machine model file (see machine.h): load, save, message cost.
 *
 * Two input formats are accepted:
 *   - INI (what `parscope probe` writes; parsed with inih): [machine], [bsp],
 *     [pingpong], [loggops], [meta].  Unknown sections and keys are errors except in
 *     [meta], so a misspelt key is reported instead of silently ignored.
 *   - the estimator seed's architecture description file (seed 003):
 *         SP2
 *         receive latency = 0.24e-4 seconds
 *         send latency = 0.24e-4 seconds
 *         time to send 1 word (8bytes) = 2.39e-7 seconds
 *         time for one multiply = 0.178e-7 seconds
 *         network type = nobus
 *     A file without any "[section]" line is read this way.
 */
#include "sim/machine.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/options.h"
#include "util/util.h"

enum { REQ_SEND, REQ_RECV, REQ_WORD, REQ_FLOP, NREQ };
static const char *const req_names[NREQ] = {"send_latency", "recv_latency", "word_time", "flop_time"};
_Static_assert(sizeof((ps_machine *)0)->cache_bytes / sizeof(long long) == PS_CACHE_LEVELS, "cache levels");

void ps_machine_init(ps_machine *m)
{
    memset(m, 0, sizeof *m);
}

/* ---- shared value checks ------------------------------------------------ */

typedef struct parse_state {
    ps_machine *m;
    const char *path;
    int         line;              /* line being parsed */
    int         err_line;          /* first handler error (0 = none) */
    char        msg[512];
    int         have[NREQ];
    int         machine_line;      /* line of the [machine] header, 0 = none */
    int         loggops_line;      /* line of the [loggops] header, 0 = none */
    int         sack_line;         /* line of [loggops] S_ack, 0 = none */
    int         lg_cols;           /* columns of the first [loggops] row: the others must agree on the
                                      blocking calls' two (7) or be without them */
    int         seen_bsp_g, seen_bsp_l;
    double      g_us, l_us;
    int         g_us_line, l_us_line;  /* lines of [bsp] g_us, l_us, 0 = none */
    /* per time table (PP_*): the slowest row so far, for the warning about a
     * larger message much faster than a smaller one (PS_MACHINE_PP_DIP) */
    struct pp_slowest {
        double bytes, secs;
        int    line, warned;
    } slowest[5];
    char        seen[64][48];      /* "section.key" already given (duplicates) */
    int         nseen;
} parse_state;

static int fail(parse_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(parse_state *st, const char *fmt, ...)
{
    if (st->err_line) return 0;
    st->err_line = st->line;
    va_list ap;
    va_start(ap, fmt);
    char buf[400];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    snprintf(st->msg, sizeof st->msg, "%s:%d: %s", st->path, st->line, buf);
    return 0;
}

static int number(parse_state *st, const char *key, const char *v, double min, double *out)
{
    double d;
    if (ps_parse_double(v, &d) != 0) return fail(st, "%s: not a number ('%s')", key, v);
    if (d < min) return fail(st, "%s: must be >= %g (got %s)", key, min, v);
    *out = d;
    return 1;
}

static int integer(parse_state *st, const char *key, const char *v, long long *out)
{
    double d;
    if (ps_parse_double(v, &d) != 0 || d < 0 || d != floor(d) || d > 9.0e18)
        return fail(st, "%s: not a non-negative integer ('%s')", key, v);
    *out = (long long)d;
    return 1;
}

/* What flop_time is, for its message. */
#define FLOP_TIME_WHAT "seconds per floating-point operation"

/* A number that must be above 0; `what` says what it is, for the message. */
static int positive(parse_state *st, const char *key, const char *v, const char *what, double *out)
{
    double d;
    if (ps_parse_double(v, &d) != 0) return fail(st, "%s: not a number ('%s')", key, v);
    if (!(d > 0)) return fail(st, "%s: must be > 0 (%s; got %s)", key, what, v);
    *out = d;
    return 1;
}

/* A count (nodes, cores, processors, bytes) of 1 to max: 0 defines nothing
 * in the file (the writer leaves out what is unknown), so it is refused
 * rather than read as unknown. */
static int count_value(parse_state *st, const char *key, const char *v, long long max, long long *out)
{
    long long x = 0;
    if (!integer(st, key, v, &x)) return 0;
    if (x < 1) return fail(st, "%s: must be >= 1 (got %s; leave the key out when unknown)", key, v);
    if (x > max) return fail(st, "%s: out of range ('%s'; at most %lld)", key, v, max);
    *out = x;
    return 1;
}

/* A count held in an int, 1 to max. */
static int int_count(parse_state *st, const char *key, const char *v, int max, int *out)
{
    long long x = 0;
    if (!count_value(st, key, v, max, &x)) return 0;
    *out = (int)x;
    return 1;
}

/* A value longer than the field keeps its first n - 1 bytes. */
static void copy_str(char *dst, size_t n, const char *v)
{
    if (n == 0) return;
    size_t l = strnlen(v, n - 1);
    memcpy(dst, v, l);
    dst[l] = '\0';
}

static int network(parse_state *st, const char *key, const char *v)
{
    st->m->bus = st->m->star = 0;
    if (strcmp(v, "bus") == 0) st->m->bus = 1;
    else if (strcmp(v, "star") == 0) st->m->star = 1;
    else if (strcmp(v, "nobus") != 0) return fail(st, "%s: expected 'bus', 'nobus' or 'star' (got '%s')", key, v);
    return 1;
}

/* ---- INI ------------------------------------------------------------------ */

static int loggops_key(parse_state *st, const char *name, const char *value);

/* [meta]: the keys of a result's machine meta (docs/OUTPUTS.md), in its
 * order, the caches as cache_L1d .. cache_L4; `old` is what files written
 * before said.  Informational: unknown keys are ignored. */
enum { META_STR, META_INT, META_LLONG, META_CACHES };
#define META(key, old, type, field) {key, old, type, offsetof(ps_machine, field), sizeof(((ps_machine *)0)->field)}
static const struct meta_key {
    const char *key, *old;
    int         type;
    size_t      off, size;
} meta_keys[] = {
    META("host", NULL, META_STR, host),         META("os", NULL, META_STR, os),
    META("cpu", NULL, META_STR, cpu),           META("sockets", NULL, META_INT, sockets),
    META("cores", NULL, META_INT, cores),       META("pus", NULL, META_INT, pus),
    META("memory_bytes", "memory", META_LLONG, memory_bytes),
    META("cache_", NULL, META_CACHES, cache_bytes),
    META("mpi", NULL, META_STR, mpi),           META("compiler", NULL, META_STR, compiler),
    META("date", NULL, META_STR, date),         META("source", NULL, META_STR, source)};
#undef META

static int meta_key(parse_state *st, const char *name, const char *value)
{
    for (size_t k = 0; k < sizeof meta_keys / sizeof meta_keys[0]; k++) {
        const struct meta_key *mk = &meta_keys[k];
        char *field = (char *)st->m + mk->off;
        if (mk->type == META_CACHES) {
            for (int i = 0; i < PS_CACHE_LEVELS; i++) {
                char now[24], old[24];
                snprintf(now, sizeof now, "cache_%s", ps_cache_level_names[i]);
                snprintf(old, sizeof old, "cache_l%d", i + 1);
                if (strcmp(name, now) == 0 || strcmp(name, old) == 0)
                    return count_value(st, name, value, LLONG_MAX, &st->m->cache_bytes[i]);
            }
            continue;
        }
        if (strcmp(name, mk->key) != 0 && (!mk->old || strcmp(name, mk->old) != 0)) continue;
        if (mk->type == META_STR) {
            copy_str(field, mk->size, value);
            return 1;
        }
        if (mk->type == META_INT) return int_count(st, name, value, INT_MAX, (int *)field);
        return count_value(st, name, value, LLONG_MAX, (long long *)field);
    }
    return 1;
}

/* A warning about the line being parsed, "PATH:LINE: warning: ...", one
 * line of m->warnings (what does not fit is dropped). */
static void warn(parse_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(parse_state *st, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *w = st->m->warnings;
    size_t used = strlen(w), len = sizeof st->m->warnings;
    int n = snprintf(w + used, len - used, "%s:%d: warning: %s\n", st->path, st->line, buf);
    if (n < 0 || (size_t)n >= len - used) w[used] = '\0';
}

/* The tables of rows "bytes = seconds", for the rows' checks. */
enum { PP_PINGPONG, PP_INTRA, PP_SELF, PP_WRITTEN, PP_CROSSING };

/* A row "bytes = seconds" of a ping-pong table (bytes[], secs[], *n rows):
 * sizes ascending, at most PS_MACHINE_MAX_PP.  other_keys: the section's
 * other keys, for the message about a key that is not a size.  A row of a
 * message's time (not [written] or [crossing]: differences of times) far below a
 * smaller size's is warned about, once a table (PS_MACHINE_PP_DIP). */
static int pingpong_row(parse_state *st, int table, const char *section, const char *name, const char *value,
                        double *bytes, double *secs, int *n, const char *other_keys)
{
    double b, s;
    if (ps_parse_double(name, &b) != 0 || b < 0)
        return fail(st, "'%s': expected a message size in bytes%s", name, other_keys);
    if (!number(st, name, value, 0, &s)) return 0;
    if (*n >= PS_MACHINE_MAX_PP) return fail(st, "more than %d ping-pong sizes", PS_MACHINE_MAX_PP);
    if (*n > 0 && b <= bytes[*n - 1]) return fail(st, "%s: message sizes must be in ascending order", name);
    bytes[*n] = b;
    secs[*n] = s;
    (*n)++;
    struct pp_slowest *top = &st->slowest[table];
    if (table != PP_WRITTEN && table != PP_CROSSING && top->line && s < PS_MACHINE_PP_DIP * top->secs && !top->warned) {
        warn(st, "[%s] %s bytes take %s s, less than %g times the %g s of %.15g bytes (line %d): a larger message "
             "normally takes as long or longer: a mistyped figure, or a stall of the transport at the smaller "
             "size; the table is used as written", section, name, value,
             PS_MACHINE_PP_DIP, top->secs, top->bytes, top->line);
        top->warned = 1;
    }
    if (!top->line || s > top->secs) *top = (struct pp_slowest){b, s, st->line, top->warned};
    return 1;
}

static int ini_key(parse_state *st, const char *section, const char *name, const char *value)
{
    ps_machine *m = st->m;
    char id[48];
    snprintf(id, sizeof id, "%s.%s", section, name);
    int row = (strcmp(section, "pingpong") == 0 || strcmp(section, "pingpong_intra") == 0 ||
               strcmp(section, "self") == 0 || strcmp(section, "written") == 0 || strcmp(section, "crossing") == 0 ||
               strcmp(section, "loggops") == 0) &&
              isdigit((unsigned char)name[0]);
    if (!row) {
        for (int i = 0; i < st->nseen; i++)
            if (strcmp(st->seen[i], id) == 0) return fail(st, "%s: duplicate key in [%s]", name, section);
        if (st->nseen < 64) snprintf(st->seen[st->nseen++], sizeof st->seen[0], "%s", id);
    }
    if (strcmp(section, "machine") == 0) {
        for (int i = 0; i < NREQ; i++)
            if (strcmp(name, req_names[i]) == 0) {
                double *dst[NREQ] = {&m->send_latency, &m->recv_latency, &m->word_time, &m->flop_time};
                st->have[i] = 1;
                /* a machine that computes in no time gives every computation 0 s and every
                 * speedup 0/0: no model of a machine */
                if (i == REQ_FLOP) return positive(st, name, value, FLOP_TIME_WHAT, dst[i]);
                return number(st, name, value, 0, dst[i]);
            }
        if (strcmp(name, "name") == 0) { copy_str(m->name, sizeof m->name, value); return 1; }
        if (strcmp(name, "network") == 0) return network(st, name, value);
        if (strcmp(name, "cores_per_node") == 0) return int_count(st, name, value, INT_MAX, &m->cores_per_node);
        /* as --nodes: the simulator keeps a few figures per node */
        if (strcmp(name, "nodes") == 0) return int_count(st, name, value, PS_MAX_RANKS, &m->nodes);
        if (strcmp(name, "link_rate") == 0) return number(st, name, value, 0, &m->link_rate);
        if (strcmp(name, "processors") == 0) return int_count(st, name, value, INT_MAX, &m->processors);
        return fail(st, "%s: unknown key in [machine]", name);
    }
    if (strcmp(section, "bsp") == 0) {
        static const char *const keys[] = {"r", "g", "l", "h0", "h1", "r_incache", "r_outcache",
                                           "g_us", "l_us", "g_combined"};
        double *dst[] = {&m->bsp_r, &m->bsp_g, &m->bsp_l, &m->bsp_h0, &m->bsp_h1, &m->r_incache,
                         &m->r_outcache, &st->g_us, &st->l_us, &m->bsp_g_combined};
        /* g and l may be negative: the least-squares fit can give that (seed 004) */
        static const double mins[] = {0, -INFINITY, -INFINITY, 0, 0, 0, 0, -INFINITY, -INFINITY, -INFINITY};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (strcmp(name, keys[i]) == 0) {
                if (i == 1) st->seen_bsp_g = 1;
                if (i == 2) st->seen_bsp_l = 1;
                if (i == 7) st->g_us_line = st->line;
                if (i == 8) st->l_us_line = st->line;
                return number(st, name, value, mins[i], dst[i]);
            }
        if (strcmp(name, "p") == 0) return int_count(st, name, value, INT_MAX, &m->bsp_p);
        if (strcmp(name, "fit") == 0) {
            if (strcmp(value, "ok") && strcmp(value, "failed"))
                return fail(st, "fit: expected 'ok' or 'failed', got '%s'", value);
            if (!strcmp(value, "failed") && !m->bsp_fit_note[0])
                copy_str(m->bsp_fit_note, sizeof m->bsp_fit_note, "the h-relation fit failed");
            return 1;
        }
        if (strcmp(name, "fit_note") == 0) {
            copy_str(m->bsp_fit_note, sizeof m->bsp_fit_note, value);
            return 1;
        }
        return fail(st, "%s: unknown key in [bsp]", name);
    }
    if (strcmp(section, "pingpong") == 0) {
        if (strcmp(name, "t0") == 0) return number(st, name, value, -INFINITY, &m->t0);
        if (strcmp(name, "r_inf") == 0) return number(st, name, value, 0, &m->r_inf);
        if (strcmp(name, "n_half") == 0) return number(st, name, value, -INFINITY, &m->n_half);
        return pingpong_row(st, PP_PINGPONG, section, name, value, m->pp_bytes, m->pp_time, &m->npp,
                            ", or t0, r_inf, n_half");
    }
    if (strcmp(section, "pingpong_intra") == 0)
        return pingpong_row(st, PP_INTRA, section, name, value, m->ppi_bytes, m->ppi_time, &m->npp_intra, "");
    if (strcmp(section, "self") == 0)
        return pingpong_row(st, PP_SELF, section, name, value, m->self_bytes, m->self_time, &m->nself, "");
    if (strcmp(section, "written") == 0)
        return pingpong_row(st, PP_WRITTEN, section, name, value, m->written_bytes, m->written_time, &m->nwritten,
                            "");
    if (strcmp(section, "crossing") == 0)
        return pingpong_row(st, PP_CROSSING, section, name, value, m->crossing_bytes, m->crossing_time,
                            &m->ncrossing, "");
    if (strcmp(section, "loggops") == 0) return loggops_key(st, name, value);
    if (strcmp(section, "meta") == 0) return meta_key(st, name, value);
    return fail(st, "unknown section [%s] (expected machine, bsp, pingpong, pingpong_intra, self, written, crossing, loggops or meta)", section);
}

/* [loggops]: the scalars, and rows "bytes = o_s o_r L gap [o_r_in [o_s_block o_r_in_block]]" (ascending). */
static int loggops_key(parse_state *st, const char *name, const char *value)
{
    ps_loggops *g = &st->m->lg;
    static const char *const keys[] = {"S", "o_post", "o_done", "contention", "progress_send", "progress_recv",
                                       "rate", "burst", "nobus_contention", "also_bus", "S_ack",
                                       "half_round_trip_8B", "half_round_trip_8B_spread", "o_construct", "o_ack",
                                       "o_ack_more", "wire_bytes", "oneway_bytes", "merged_bytes", "o_s_merged",
                                       "o_r_merged", "o_s_oneway"};
    double *dst[] = {&g->S, &g->o_post, &g->o_done, &g->contention, &g->progress_send, &g->progress_recv,
                     &g->rate, &g->burst, &g->nobus_contention, &g->also_bus, &g->S_ack, &g->half_8B,
                     &g->half_8B_spread, &g->o_construct, &g->o_ack, &g->o_ack_more, &g->wire, &g->oneway,
                     &g->merged, &g->o_s_merged, &g->o_r_merged, &g->o_s_oneway};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(name, keys[i]) == 0) {
            if (!number(st, name, value, 0, dst[i])) return 0;
            if ((i == 3 || i == 8 || i == 12) && *dst[i] < 1) return fail(st, "%s: must be >= 1 (got %s)", name, value);
            if ((i == 4 || i == 5) && *dst[i] > 1) return fail(st, "%s: must be between 0 and 1 (got %s)", name, value);
            if (i == 9 && *dst[i] != 0 && *dst[i] != 1) return fail(st, "%s: must be 0 or 1 (got %s)", name, value);
            long long whole;   /* S and S_ack are message sizes: whole bytes */
            if ((i == 0 || i == 10) && !integer(st, name, value, &whole)) return 0;
            if (i == 10) st->sack_line = st->line;
            return 1;
        }
    double bytes;
    if (ps_parse_double(name, &bytes) != 0 || bytes < 0)
        return fail(st, "'%s': expected a message size in bytes, or S, o_post, o_done, contention, progress_send, "
                    "progress_recv, rate, burst, nobus_contention, also_bus, S_ack, half_round_trip_8B, "
                    "half_round_trip_8B_spread, o_construct, o_ack, o_ack_more, wire_bytes, oneway_bytes, merged_bytes, "
                    "o_s_merged, o_r_merged, o_s_oneway", name);
    long long whole;
    if (!integer(st, "a row's message size", name, &whole)) return 0;
    if (g->n >= PS_LOGGOPS_MAX) return fail(st, "more than %d LogGOPS sizes", PS_LOGGOPS_MAX);
    if (g->n > 0 && bytes <= g->bytes[g->n - 1]) return fail(st, "%s: message sizes must be in ascending order", name);
    /* o_s o_r L gap, o_r_in where the probe measured it (absent: o_r), and the
     * blocking calls' o_s and o_r_in where it measured those (absent: the same) */
    double v[7];
    const char *p = value;
    static const char *const cols[7] = {"o_s", "o_r", "L", "gap", "o_r_in", "o_s_block", "o_r_in_block"};
    static const char *const want =
        "expected 'o_s o_r L gap', 'o_s o_r L gap o_r_in' or 'o_s o_r L gap o_r_in o_s_block o_r_in_block' (seconds)";
    int k = 0;
    for (;; k++) {
        char tok[64];
        while (*p == ' ' || *p == '\t') p++;
        size_t len = strcspn(p, " \t");
        if (len == 0 && (k == 4 || k == 5 || k == 7)) break;
        if (len == 0 || len >= sizeof tok || k == 7) return fail(st, "%s: %s, got '%s'", name, want, value);
        memcpy(tok, p, len);
        tok[len] = '\0';
        p += len;
        char what[96];
        snprintf(what, sizeof what, "%s (%s)", name, cols[k]);
        if (!number(st, what, tok, 0, &v[k])) return 0;
    }
    g->bytes[g->n] = bytes;
    g->os[g->n] = v[0];
    g->orr[g->n] = v[1];
    g->L[g->n] = v[2];
    g->gap[g->n] = v[3];
    if (g->n > 0 && (k == 7) != (st->lg_cols == 7))
        return fail(st, "%s: %s the blocking calls' columns (o_s_block o_r_in_block), the first row %s: every row "
                    "has them or none", name, k == 7 ? "has" : "lacks", st->lg_cols == 7 ? "has" : "does not");
    if (g->n == 0) st->lg_cols = k;
    g->orin[g->n] = k >= 5 ? v[4] : v[1];
    if (k == 7) {
        g->osb[g->n] = v[5];
        g->orbin[g->n] = v[6];
        g->blocking = 1;
    }
    g->n++;
    return 1;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    parse_state *st = user;
    if (st->err_line) return 1;   /* report only the first error */
    if (!*section) return fail(st, "%s: key outside a section (start with [machine])", name);
    return ini_key(st, section, name, value) ? 1 : 0;
}

typedef struct text_reader {
    const char  *p;
    parse_state *st;
} text_reader;

/* inih calls this once per line: counting here gives the handler its line. */
static char *read_line(char *buf, int num, void *stream)
{
    text_reader *r = stream;
    if (!*r->p) return NULL;
    const char *nl = strchr(r->p, '\n');
    size_t len = nl ? (size_t)(nl - r->p) : strlen(r->p);
    /* leading blanks dropped: an indented line is a key of its own, never
     * inih's continuation of the previous value */
    size_t skip = 0;
    while (skip < len && (r->p[skip] == ' ' || r->p[skip] == '\t')) skip++;
    size_t take = len - skip < (size_t)num - 1 ? len - skip : (size_t)num - 1;
    memcpy(buf, r->p + skip, take);
    buf[take] = '\0';
    r->p += len + (nl ? 1 : 0);
    r->st->line++;
    return buf;
}

/* The sizes where a [loggops] table's protocols switch, 0 for none: S, and
 * a measured S_ack above it (a range of its own: eager, the send
 * acknowledged).  The loader's check and the pricing bound rows by them. */
static void lg_edges(const ps_loggops *g, double edge[2])
{
    edge[0] = g->S;
    edge[1] = g->S > 0 && g->S_ack > g->S ? g->S_ack : 0;
}

/* Is there a row at exactly b bytes? */
static int has_row(const ps_loggops *g, double b)
{
    for (int i = 0; i < g->n; i++)
        if (g->bytes[i] == b) return 1;
    return 0;
}

/* The rows around a protocol switch: the probe writes one at S and one at
 * S + 1 (and at S_ack and S_ack + 1), so that each side is priced by its own
 * measurement.  A hand-written table without them still loads (each side is
 * then priced from its own other rows, or across the switch where it has
 * none: ps_loggops_at), and the model says so. */
static void lg_rows_check(ps_machine *m)
{
    const ps_loggops *g = &m->lg;
    m->lg_rows_note[0] = '\0';
    if (g->n == 0 || !(g->S > 0)) return;
    double edge[2];
    lg_edges(g, edge);
    const char *name[2] = {"S", "S_ack"};
    char missing[200] = "";
    size_t k = 0;
    for (int e = 0; e < 2; e++) {
        if (!(edge[e] > 0)) continue;
        int lo = has_row(g, edge[e]), hi = has_row(g, edge[e] + 1);
        if (lo && hi) continue;
        int w = !lo && !hi ? snprintf(missing + k, sizeof missing - k, "%s%s = %.0f (no rows at %.0f and %.0f)",
                                      k ? "; " : "", name[e], edge[e], edge[e], edge[e] + 1)
                           : snprintf(missing + k, sizeof missing - k, "%s%s = %.0f (no row at %.0f)", k ? "; " : "",
                                      name[e], edge[e], lo ? edge[e] + 1 : edge[e]);
        if (w > 0) k += (size_t)w < sizeof missing - k ? (size_t)w : sizeof missing - k - 1;
    }
    if (k)
        snprintf(m->lg_rows_note, sizeof m->lg_rows_note,
                 "[loggops] has no measured row at a protocol switch: %s; messages next to it are priced from the "
                 "table's other rows (their side's, or across the switch where their side has none)", missing);
}

static int parse_ini(const char *text, parse_state *st, char *err, size_t errlen)
{
    /* lines inih would cut (INI_MAX_LINE) are an error rather than a surprise */
    int line = 1;
    for (const char *p = text; *p; line++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len >= INI_MAX_LINE - 1) {
            ps_seterr(err, errlen, "%s:%d: line longer than %d characters", st->path, line, INI_MAX_LINE - 2);
            return -1;
        }
        const char *q = p;
        while (q < p + len && isspace((unsigned char)*q)) q++;
        if (!st->machine_line && strncmp(q, "[machine]", 9) == 0) st->machine_line = line;
        if (!st->loggops_line && strncmp(q, "[loggops]", 9) == 0) st->loggops_line = line;
        if (!nl) break;
        p = nl + 1;
    }
    text_reader r = {text, st};
    int rc = ini_parse_stream(read_line, &r, on_key, st);
    if (rc < 0) {
        ps_seterr(err, errlen, "%s: cannot parse", st->path);
        return -1;
    }
    if (rc > 0 && st->err_line != rc) {
        ps_seterr(err, errlen, "%s:%d: expected 'key = value', '[section]' or a comment", st->path, rc);
        return -1;
    }
    if (st->err_line) {
        ps_seterr(err, errlen, "%s", st->msg);
        return -1;
    }
    if (!st->machine_line) {
        ps_seterr(err, errlen, "%s: no [machine] section (it needs send_latency, recv_latency, word_time, flop_time)",
                  st->path);
        return -1;
    }
    for (int i = 0; i < NREQ; i++)
        if (!st->have[i]) {
            ps_seterr(err, errlen, "%s:%d: [machine] lacks the required key %s", st->path, st->machine_line,
                      req_names[i]);
            return -1;
        }
    if (st->loggops_line && st->m->lg.contention < 1) st->m->lg.contention = 1;
    if (st->sack_line && st->m->lg.S_ack > 0 && !(st->m->lg.S > 0)) {
        ps_seterr(err, errlen, "%s:%d: S_ack = %.17g with S = 0 (no protocol switch: every message eager): it must "
                  "be 0", st->path, st->sack_line, st->m->lg.S_ack);
        return -1;
    }
    if (st->sack_line && st->m->lg.S_ack > 0 && st->m->lg.S_ack < st->m->lg.S) {
        ps_seterr(err, errlen, "%s:%d: S_ack = %.17g is below S = %.17g: it must be 0 (not measured), S (measured: "
                  "no larger send waits only for its receiver's runtime) or more", st->path, st->sack_line,
                  st->m->lg.S_ack, st->m->lg.S);
        return -1;
    }
    if (st->loggops_line && st->m->lg.n == 0) {
        ps_seterr(err, errlen, "%s:%d: [loggops] has no size rows ('bytes = o_s o_r L gap [o_r_in]')", st->path,
                  st->loggops_line);
        return -1;
    }
    lg_rows_check(st->m);
    /* g and l may be given in microseconds only (as the seed's table does), converted with r:
     * without r they would be dropped without a word */
    ps_machine *m = st->m;
    const struct { int seen, line; double us; double *flops; const char *key, *flop_key; } us[2] = {
        {st->seen_bsp_g, st->g_us_line, st->g_us, &m->bsp_g, "g_us", "g"},
        {st->seen_bsp_l, st->l_us_line, st->l_us, &m->bsp_l, "l_us", "l"}};
    for (int i = 0; i < 2; i++) {
        if (us[i].seen || us[i].us == 0) continue;
        if (!(m->bsp_r > 0)) {
            ps_seterr(err, errlen, "%s:%d: %s = %.17g without [bsp] r (flop/s) to convert it to flops: give r, or %s "
                      "in flops", st->path, us[i].line, us[i].key, us[i].us, us[i].flop_key);
            return -1;
        }
        *us[i].flops = us[i].us * 1e-6 * m->bsp_r;
    }
    return 0;
}

/* ---- the estimator seed's architecture file ------------------------------ */

static void normalize(char *s)
{
    /* lower case, runs of blanks to one space, trimmed */
    char *w = s;
    int space = 0;
    for (char *r = s; *r; r++) {
        if (isspace((unsigned char)*r)) { space = 1; continue; }
        if (space && w != s) *w++ = ' ';
        space = 0;
        *w++ = (char)tolower((unsigned char)*r);
    }
    *w = '\0';
}

static int parse_arch(const char *text, parse_state *st, char *err, size_t errlen)
{
    static const char *const phrases[NREQ] = {"send latency", "receive latency", "time to send 1 word",
                                              "time for one multiply"};
    ps_machine *m = st->m;
    int nkeys = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[512];
        st->line++;
        if (len >= sizeof line) {
            ps_seterr(err, errlen, "%s:%d: line too long", st->path, st->line);
            return -1;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (nl ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *eq = strchr(line, '=');
        if (!eq) {
            char name[512];
            snprintf(name, sizeof name, "%s", line);
            normalize(name);
            if (!*name) continue;
            if (nkeys || m->name[0]) {
                ps_seterr(err, errlen, "%s:%d: expected 'description = value [seconds]'", st->path, st->line);
                return -1;
            }
            /* keep the name's own case */
            char *s = line;
            while (isspace((unsigned char)*s)) s++;
            size_t n = strlen(s);
            while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
            copy_str(m->name, sizeof m->name, s);
            continue;
        }
        *eq = '\0';
        char *key = line, *val = eq + 1;
        normalize(key);
        normalize(val);
        nkeys++;
        if (strcmp(key, "network type") == 0) {
            if (!network(st, key, val)) goto bad;
            continue;
        }
        int which = -1;
        for (int i = 0; i < NREQ; i++)
            if (strncmp(key, phrases[i], strlen(phrases[i])) == 0) which = i;
        if (which < 0) {
            ps_seterr(err, errlen, "%s:%d: unknown entry '%s' (expected send latency, receive latency, "
                      "time to send 1 word (8bytes), time for one multiply, network type)", st->path, st->line, key);
            return -1;
        }
        /* "0.24e-4 seconds": a number and an optional unit */
        char *unit = strchr(val, ' ');
        if (unit) {
            *unit++ = '\0';
            if (strcmp(unit, "seconds") != 0 && strcmp(unit, "second") != 0 && strcmp(unit, "s") != 0 &&
                strcmp(unit, "sec") != 0) {
                fail(st, "%s: unknown unit '%s' (expected seconds)", phrases[which], unit);
                goto bad;
            }
        }
        double *dst[NREQ] = {&m->send_latency, &m->recv_latency, &m->word_time, &m->flop_time};
        if (st->have[which]) {
            fail(st, "%s: given twice", phrases[which]);
            goto bad;
        }
        if (which == REQ_FLOP ? !positive(st, phrases[which], val, FLOP_TIME_WHAT, dst[which])
                              : !number(st, phrases[which], val, 0, dst[which]))
            goto bad;
        st->have[which] = 1;
    }
    for (int i = 0; i < NREQ; i++)
        if (!st->have[i]) {
            ps_seterr(err, errlen, "%s:%d: missing the required entry '%s = ... seconds'", st->path, st->line,
                      phrases[i]);
            return -1;
        }
    return 0;
bad:
    ps_seterr(err, errlen, "%s", st->msg);
    return -1;
}

int ps_machine_parse(const char *text, const char *path, ps_machine *m, char *err, size_t errlen)
{
    parse_state *st = ps_xcalloc(1, sizeof *st);
    ps_machine_init(m);
    st->m = m;
    st->path = path;
    int ini = 0;
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '[') { ini = 1; break; }
        const char *nl = strchr(p, '\n');
        if (!nl) break;
        p = nl + 1;
    }
    int rc = ini ? parse_ini(text, st, err, errlen) : parse_arch(text, st, err, errlen);
    if (rc == 0 && !m->source[0]) copy_str(m->source, sizeof m->source, path);
    free(st);
    return rc;
}

int ps_machine_load(const char *path, ps_machine *m, char *err, size_t errlen)
{
    ps_machine_init(m);
    if (ps_is_dir(path)) {
        ps_seterr(err, errlen, "%s: is a directory, not a machine model file", path);
        return -1;
    }
    /* a NUL byte is named with its line and column */
    char *text = ps_read_text(path, NULL, err, errlen);
    if (!text) return -1;
    int rc = ps_machine_parse(text, path, m, err, errlen);
    free(text);
    /* said even with -q: a figure the prediction rests on may be mistyped; not of a file the probe
     * wrote, whose rows are what it measured (it says so itself where a larger message was much
     * faster: a stall of the transport at the smaller size, as TCP's at 32765 bytes under slownet) */
    int measured = !strncmp(m->source, PS_MACHINE_PROBE_SOURCE, strlen(PS_MACHINE_PROBE_SOURCE));
    for (const char *w = measured ? "" : m->warnings; rc == 0 && *w;) {
        size_t n = strcspn(w, "\n");
        fprintf(stderr, "parscope: %.*s\n", (int)n, w);
        w += n + (w[n] == '\n');
    }
    return rc;
}

/* ---- save ------------------------------------------------------------------ */

/* Shortest %g form that reads back as the same double. */
static void shortest(char *buf, size_t n, double v)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
}

static void put_num(FILE *f, const char *key, double v)
{
    char buf[40];
    shortest(buf, sizeof buf, v);
    fprintf(f, "%s = %s\n", key, buf);
}

/* A table of rows "bytes = seconds" under its header; nothing without rows. */
static void put_rows(FILE *f, const char *header, const double *bytes, const double *secs, int n)
{
    if (n <= 0) return;
    fputs(header, f);
    for (int i = 0; i < n; i++) {
        char key[40];
        snprintf(key, sizeof key, "%.17g", bytes[i]);
        put_num(f, key, secs[i]);
    }
}

/* Strings are single-line and must not start an inline comment. */
static void put_str(FILE *f, const char *key, const char *v)
{
    if (!v || !*v) return;
    fprintf(f, "%s = ", key);
    for (const char *p = v; *p; p++) {
        char c = *p;
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
        if (c == ';') c = ',';
        fputc(c, f);
    }
    fputc('\n', f);
}

static int machine_file(FILE *f, void *ctx)
{
    const ps_machine *m = ctx;
    fputs("# parscope machine model (DESIGN.md \"Files\"); times in seconds.\n"
          "[machine]\n", f);
    put_str(f, "name", m->name);
    fputs("# the estimator's architecture (seed 003): per-message latencies, 8-byte word, one multiply\n", f);
    put_num(f, "send_latency", m->send_latency);
    put_num(f, "recv_latency", m->recv_latency);
    put_num(f, "word_time", m->word_time);
    put_num(f, "flop_time", m->flop_time);
    fprintf(f, "network = %s\n", m->bus ? "bus" : m->star ? "star" : "nobus");
    if (m->cores_per_node) fprintf(f, "cores_per_node = %d\n", m->cores_per_node);
    if (m->nodes) fprintf(f, "nodes = %d\n", m->nodes);
    if (m->link_rate > 0) put_num(f, "link_rate", m->link_rate);
    if (m->processors) fprintf(f, "# the nodes are one machine's: they share its processors\nprocessors = %d\n", m->processors);

    if (m->bsp_r != 0 || m->bsp_g != 0 || m->bsp_l != 0 || m->bsp_fit_note[0]) {
        fputs("\n[bsp]\n# r in flop/s; g, l in flop units (T(h) = h*g + l, fitted over [h0, h1]); g_us, l_us in us\n", f);
        put_num(f, "r", m->bsp_r);
        if (m->bsp_fit_note[0]) {
            /* a fit that is no BSP cost is not written as one */
            fputs("fit = failed\n", f);
            put_str(f, "fit_note", m->bsp_fit_note);
        } else {
            put_num(f, "g", m->bsp_g);
            put_num(f, "l", m->bsp_l);
        }
        if (m->bsp_r > 0 && !m->bsp_fit_note[0]) {
            put_num(f, "g_us", m->bsp_g / m->bsp_r * 1e6);
            put_num(f, "l_us", m->bsp_l / m->bsp_r * 1e6);
        }
        put_num(f, "h0", m->bsp_h0);
        put_num(f, "h1", m->bsp_h1);
        if (m->bsp_p) fprintf(f, "p = %d\n", m->bsp_p);
        if (m->r_incache) put_num(f, "r_incache", m->r_incache);
        if (m->r_outcache) put_num(f, "r_outcache", m->r_outcache);
        if (m->bsp_g_combined) put_num(f, "g_combined", m->bsp_g_combined);
    }
    if (m->npp > 0 || m->r_inf != 0) {
        fputs("\n[pingpong]\n# Hockney fit t(n) = t0 + n / r_inf (r_inf in bytes/s), n_half = t0 * r_inf\n", f);
        put_num(f, "t0", m->t0);
        put_num(f, "r_inf", m->r_inf);
        put_num(f, "n_half", m->n_half);
        put_rows(f, "# bytes = seconds (half round trip)\n", m->pp_bytes, m->pp_time, m->npp);
    }
    put_rows(f, "\n[pingpong_intra]\n# within a node: bytes = seconds (half round trip)\n", m->ppi_bytes,
             m->ppi_time, m->npp_intra);
    put_rows(f, "\n[self]\n# a message to the rank itself by the runtime's calls: bytes = seconds (its receive\n"
             "# posted, its send, the wait of both)\n", m->self_bytes, m->self_time, m->nself);
    put_rows(f, "\n[written]\n# a message from data its sender has just written (computed or received): bytes =\n"
             "# seconds it takes longer to arrive than one from a buffer nothing writes (the ping-pong's)\n",
             m->written_bytes, m->written_time, m->nwritten);
    put_rows(f, "\n[crossing]\n# a shaped link's: bytes = seconds after its send call ended before which a message that\n"
             "# crosses one going the other way cannot arrive (the probe's exchange less the send call's, the\n"
             "# receive's and the wait's own costs)\n", m->crossing_bytes, m->crossing_time, m->ncrossing);
    if (m->lg.n > 0) {
        const ps_loggops *g = &m->lg;
        fputs("\n[loggops]\n"
              "# LogGOPS measured with the runtime's own calls (docs/PROBE.md): S = largest message whose send\n"
              "# completes without its receiver (0: no switch found), o_post = posting a receive, o_done = completing a completed request,\n"
              "# contention = slowdown of per-byte costs when two ranks copy at once, progress_send/recv =\n"
              "# how much a rendezvous waits for that side to be in the runtime (0..1), rate/burst = token\n"
              "# bucket of a shaped link (bytes/s, bytes; 0 = none)\n", f);
        put_num(f, "S", g->S);
        if (g->S_ack > 0) {
            fputs("# above S up to S_ack a send waits for its receiver's runtime to take the data in, not for its\n"
                  "# receive to be posted (S_ack = S: none such)\n", f);
            put_num(f, "S_ack", g->S_ack);
        }
        put_num(f, "o_post", g->o_post);
        if (g->o_construct > 0) {
            fputs("# a construct call's own code outside its calls (its bookkeeping), before its first message\n", f);
            put_num(f, "o_construct", g->o_construct);
        }
        put_num(f, "o_done", g->o_done);
        if (g->o_ack > 0) {
            fputs("# a wait that takes in the acknowledgement of a send above S up to S_ack, which came while the\n"
                  "# rank computed or sat in another call (the first; each further one it takes in with it: o_ack_more)\n", f);
            put_num(f, "o_ack", g->o_ack);
            put_num(f, "o_ack_more", g->o_ack_more);
        }
        put_num(f, "contention", g->contention < 1 ? 1 : g->contention);
        put_num(f, "progress_send", g->progress_send);
        put_num(f, "progress_recv", g->progress_recv);
        put_num(f, "rate", g->rate);
        put_num(f, "burst", g->burst);
        if (g->wire > 0) {
            fputs("# the bytes a message takes of the bucket beyond its payload (its headers; from a stop-and-wait\n"
                  "# series, whose replies carry the acknowledgements)\n", f);
            put_num(f, "wire_bytes", g->wire);
        }
        if (g->oneway > 0) {
            fputs("# the bytes a message sent one way takes of the bucket beyond its payload and wire_bytes: its\n"
                  "# share of the acknowledgements its receiver then sends alone (from a one-way stream)\n", f);
            put_num(f, "oneway_bytes", g->oneway);
        }
        if (g->merged > 0) {
            fputs("# a small message written while its connection's previous one still waits in the shaper\n"
                  "# joins it (TCP sends the two as one segment): its bytes beyond its payload, its send call's\n"
                  "# and its receiver's CPU time (from a burst written behind a full bucket)\n", f);
            put_num(f, "merged_bytes", g->merged);
            put_num(f, "o_s_merged", g->o_s_merged);
            put_num(f, "o_r_merged", g->o_r_merged);
        }
        if (g->o_s_oneway > 0) {
            fputs("# the send call of a message sent one way that goes alone (from the one-way stream)\n", f);
            put_num(f, "o_s_oneway", g->o_s_oneway);
        }
        if (g->half_8B > 0) {
            fputs("# half round trip of one double by plain MPI calls, measured with the rows below (their\n"
                  "# machine state; predict --compare sets a run's own beside it)\n", f);
            put_num(f, "half_round_trip_8B", g->half_8B);
            if (g->half_8B_spread >= 1) {
                fputs("# the largest of the probe rounds' figures for it over the smallest: compare takes a run's\n"
                      "# figure within this of the model's for the same state\n", f);
                put_num(f, "half_round_trip_8B_spread", g->half_8B_spread);
            }
        }
        if (g->nobus_contention >= 1) {
            fputs("# the exchange was not clearly serial: predict also gives the time with the ranks' copies side\n"
                  "# by side at this contention (network = nobus)\n", f);
            put_num(f, "nobus_contention", g->nobus_contention);
        }
        if (g->also_bus == 1) {
            fputs("# the exchange was not clearly free: predict also gives the time with one message at a time\n"
                  "# (network = bus)\n", f);
            put_num(f, "also_bus", 1);
        }
        int blk = g->blocking;
        fputs("# bytes = o_s o_r L gap o_r_in (seconds): sender's CPU, receiver's CPU for a message that\n"
              "# arrived while it computed (its next call takes it in), latency, least time between two\n"
              "# messages from one rank, receiver's CPU for one its runtime took in while it was in a call;\n"
              "# linear between rows (o + O n per range), never across S or S_ack\n", f);
        if (blk)
            fputs("# then o_s_block o_r_in_block: the same two for a blocking send and a blocking receive\n"
                  "# (from a blocking ping-pong measured beside the nonblocking one)\n", f);
        for (int i = 0; i < g->n; i++) {
            char key[40], v[7][40];
            const double x[7] = {g->os[i], g->orr[i], g->L[i], g->gap[i], g->orin[i], g->osb[i], g->orbin[i]};
            snprintf(key, sizeof key, "%.17g", g->bytes[i]);
            for (int k = 0; k < 7; k++) shortest(v[k], sizeof v[k], x[k]);
            if (blk) fprintf(f, "%s = %s %s %s %s %s %s %s\n", key, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
            else fprintf(f, "%s = %s %s %s %s %s\n", key, v[0], v[1], v[2], v[3], v[4]);
        }
    }
    fputs("\n[meta]\n", f);
    for (size_t k = 0; k < sizeof meta_keys / sizeof meta_keys[0]; k++) {
        const struct meta_key *mk = &meta_keys[k];
        const char *field = (const char *)m + mk->off;
        if (mk->type == META_STR) put_str(f, mk->key, field);
        else if (mk->type == META_INT && *(const int *)field) fprintf(f, "%s = %d\n", mk->key, *(const int *)field);
        else if (mk->type == META_LLONG && *(const long long *)field)
            fprintf(f, "%s = %lld\n", mk->key, *(const long long *)field);
        else if (mk->type == META_CACHES)
            for (int i = 0; i < PS_CACHE_LEVELS; i++)
                if (m->cache_bytes[i]) fprintf(f, "cache_%s = %lld\n", ps_cache_level_names[i], m->cache_bytes[i]);
    }
    return ferror(f) ? -1 : 0;
}

int ps_machine_save(const char *path, const ps_machine *m, char *err, size_t errlen)
{
    return ps_write_formatted(path, machine_file, (void *)m, err, errlen);
}

static double table_time(const double *pb, const double *pt, int n, double bytes);

double ps_machine_msg_time(const ps_machine *m, double bytes)
{
    if (bytes < 0) bytes = 0;
    if (m->npp <= 0) return m->send_latency + bytes / 8.0 * m->word_time;
    return table_time(m->pp_bytes, m->pp_time, m->npp, bytes);
}

double ps_machine_msg_time_intra(const ps_machine *m, double bytes)
{
    if (m->npp_intra <= 0) return ps_machine_msg_time(m, bytes);
    return table_time(m->ppi_bytes, m->ppi_time, m->npp_intra, bytes < 0 ? 0 : bytes);
}

double ps_machine_self_time(const ps_machine *m, double bytes)
{
    if (m->nself <= 0) return -1;
    return table_time(m->self_bytes, m->self_time, m->nself, bytes < 0 ? 0 : bytes);
}

/* A table of differences of times ([written], [crossing]) at `bytes`: never
 * below 0, and 0 without rows. */
static double difference_time(const double *pb, const double *pt, int n, double bytes)
{
    if (n <= 0) return 0;
    double t = table_time(pb, pt, n, bytes < 0 ? 0 : bytes);
    return t > 0 ? t : 0;
}

double ps_machine_written_time(const ps_machine *m, double bytes)
{
    return difference_time(m->written_bytes, m->written_time, m->nwritten, bytes);
}

double ps_machine_crossing_time(const ps_machine *m, double bytes)
{
    return difference_time(m->crossing_bytes, m->crossing_time, m->ncrossing, bytes);
}

/* Piecewise linear in bytes through the table, its last segment extended. */
static double table_time(const double *pb, const double *pt, int n, double bytes)
{
    if (bytes <= pb[0] || n == 1) {
        if (n == 1 && bytes > pb[0] && pb[0] > 0)
            return pt[0] * bytes / pb[0];
        return pt[0];
    }
    int i = 1;
    while (i < n - 1 && pb[i] < bytes) i++;
    /* interpolate within [i-1, i]; past the table the last segment extends */
    double x0 = pb[i - 1], x1 = pb[i], y0 = pt[i - 1], y1 = pt[i];
    double t = y0 + (y1 - y0) * (bytes - x0) / (x1 - x0);
    return t > 0 ? t : y0;
}

/* ---- LogGOPS per size range ------------------------------------------------- */

/* Linear through rows a and b (a < b) at x; past b the slope is kept but not
 * allowed to be negative, so a cost never falls as messages grow. */
static double lin(const double *bx, const double *y, int a, int b, double x)
{
    if (a == b) return y[a];
    double slope = (y[b] - y[a]) / (bx[b] - bx[a]);
    if (x > bx[b]) {
        if (slope < 0) slope = 0;
        return y[b] + slope * (x - bx[b]);
    }
    if (x < bx[a]) return y[a];
    return y[a] + slope * (x - bx[a]);
}

double ps_loggops_recv_step(const double *bytes, const double *orr, int n, double S)
{
    if (!(S > 0)) return 0;
    int above = 0;
    while (above < n && bytes[above] <= S) above++;
    if (above == 0 || above >= n || orr[above] > PS_LOGGOPS_RECV_JUMP * orr[above - 1]) return 0;
    for (int k = above + 1; k < n; k++) {
        int side_by_side = bytes[k] - bytes[k - 1] <= bytes[k - 1] / 16;
        if (side_by_side && orr[k] > PS_LOGGOPS_RECV_JUMP * orr[k - 1]) return bytes[k - 1];
    }
    return 0;
}

void ps_loggops_at(const ps_loggops *g, double bytes, ps_loggops_cost *c)
{
    if (bytes < 0) bytes = 0;
    int rndv = g->S > 0 && bytes > g->S;
    /* the rows of this protocol: [lo, hi] */
    int lo = 0, hi = g->n - 1;
    double edge[2];
    lg_edges(g, edge);
    for (int e = 0; e < 2; e++) {
        if (!(edge[e] > 0)) continue;
        int split = 0;
        while (split < g->n && g->bytes[split] <= edge[e]) split++;
        /* an edge with no row on one side of it (within this range) bounds nothing */
        if (bytes > edge[e] && split < g->n && split <= hi) lo = split > lo ? split : lo;
        else if (bytes <= edge[e] && split > 0 && split - 1 >= lo) hi = split - 1 < hi ? split - 1 : hi;
    }
    int a = lo, b = hi;
    if (b > a) {
        /* the segment holding bytes (or the last one) */
        int i = lo + 1;
        while (i < hi && g->bytes[i] < bytes) i++;
        a = i - 1;
        b = i;
    }
    c->os = lin(g->bytes, g->os, a, b, bytes);
    c->orr = lin(g->bytes, g->orr, a, b, bytes);
    c->orin = lin(g->bytes, g->orin, a, b, bytes);
    c->osb = g->blocking ? lin(g->bytes, g->osb, a, b, bytes) : c->os;
    c->orbin = g->blocking ? lin(g->bytes, g->orbin, a, b, bytes) : c->orin;
    c->L = lin(g->bytes, g->L, a, b, bytes);
    c->gap = lin(g->bytes, g->gap, a, b, bytes);
    c->rendezvous = rndv;
}
