/* options.c - the option table and parser of every command (see options.h). */
#include "util/options.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int ps_opt_error(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr, "Try '%s --help'.\n", name);
    return 2;
}

/* "1..1048576", "1..2^40", "> 0" */
static void range_text(const ps_opt *o, char *buf, size_t len)
{
    if (o->type == PS_OPT_DOUBLE) {
        snprintf(buf, len, "%s %g", o->flags & PS_OPT_ABOVE_MIN ? ">" : ">=", o->min);
        return;
    }
    int e = 0;
    double m = frexp(o->max, &e);
    if (m == 0.5 && e > 32) snprintf(buf, len, "%.0f..2^%d", o->min, e - 1);
    else snprintf(buf, len, "%.0f..%.0f", o->min, o->max);
}

/* Checks and stores one value; name is the option as written. */
static int set(const ps_opt_cmd *c, const ps_opt *o, const char *name, const char *v, unsigned char *given)
{
    given[o - c->opts] = 1;
    char err[512] = "";
    long l = 0;
    double d = 0;
    switch (o->type) {
    case PS_OPT_FLAG:
        if (o->dest) *(int *)o->dest = !(o->flags & PS_OPT_CLEARS);
        v = "yes";
        break;
    case PS_OPT_STRING:
        if ((o->flags & PS_OPT_NO_STDOUT) && !strcmp(v, "-"))
            return ps_opt_error(c->name, "%s -: %s cannot go to standard output", name, o->what ? o->what : "this");
        if (o->dest) *(const char **)o->dest = v;
        break;
    case PS_OPT_INT:
    case PS_OPT_LONG:
        if (ps_parse_long(v, (long)o->min, (long)o->max, &l)) {
            range_text(o, err, sizeof err);
            return ps_opt_error(c->name, "%s: '%s' is not %s %s", name, v, o->what, err);
        }
        if (o->dest && o->type == PS_OPT_INT) *(int *)o->dest = (int)l;
        else if (o->dest) *(long *)o->dest = l;
        break;
    case PS_OPT_DOUBLE:
        if (ps_parse_double(v, &d) || d < o->min || d > o->max || ((o->flags & PS_OPT_ABOVE_MIN) && d == o->min)) {
            range_text(o, err, sizeof err);
            return ps_opt_error(c->name, "%s: '%s' is not %s %s", name, v, o->what, err);
        }
        if (o->dest) *(double *)o->dest = d;
        break;
    case PS_OPT_CALL:
        if (o->call(v, o->dest, err, sizeof err)) return ps_opt_error(c->name, "%s: %s", name, err);
        break;
    case PS_OPT_END: break;
    }
    if (o->text) *o->text = v;
    return 0;
}

static const ps_opt *find_long(const ps_opt *t, const char *name, size_t len)
{
    for (; t->type != PS_OPT_END; t++)
        if (t->long_name && strlen(t->long_name) == len && !strncmp(t->long_name, name, len)) return t;
    return NULL;
}

static const ps_opt *find_short(const ps_opt *t, char ch)
{
    for (; t->type != PS_OPT_END; t++)
        if (t->short_name == ch) return t;
    return NULL;
}

/* --name, --name=value, --name value */
static int parse_long(const ps_opt_cmd *c, int argc, char **argv, int *i, unsigned char *given)
{
    const char *a = argv[*i], *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const ps_opt *o = find_long(c->opts, name, len);
    if (!o && len == 4 && !strncmp(name, "help", 4)) {
        ps_opt_help(c, stdout);
        return 0;
    }
    char written[128];
    snprintf(written, sizeof written, "--%.*s", (int)(len < 100 ? len : 100), name);
    if (!o) return ps_opt_error(c->name, "unknown option '%s'", written);
    if (o->type == PS_OPT_FLAG) {
        if (eq) return ps_opt_error(c->name, "option '%s' takes no value", written);
        return set(c, o, written, NULL, given) ? 2 : PS_OPT_GO;
    }
    const char *v = eq ? eq + 1 : NULL;
    if (!v) {
        if (*i + 1 >= argc) return ps_opt_error(c->name, "option '%s' needs a value", written);
        v = argv[++*i];
    }
    return set(c, o, written, v, given) ? 2 : PS_OPT_GO;
}

/* -q, -qf, -n4, -n 4 */
static int parse_short(const ps_opt_cmd *c, int argc, char **argv, int *i, unsigned char *given)
{
    const char *a = argv[*i];
    for (int j = 1; a[j]; j++) {
        char written[3] = {'-', a[j], 0};
        const ps_opt *o = find_short(c->opts, a[j]);
        if (!o && a[j] == 'h') {
            ps_opt_help(c, stdout);
            return 0;
        }
        if (!o) return ps_opt_error(c->name, "unknown option '%s'", j == 1 ? a : written);
        if (o->type == PS_OPT_FLAG) {
            if (set(c, o, written, NULL, given)) return 2;
            continue;
        }
        const char *v = a[j + 1] ? a + j + 1 : NULL;
        if (!v) {
            if (*i + 1 >= argc) return ps_opt_error(c->name, "option '%s' needs a value", written);
            v = argv[++*i];
        }
        return set(c, o, written, v, given) ? 2 : PS_OPT_GO;
    }
    return PS_OPT_GO;
}

/* "--bus", or "-q" for an option with no long name */
static void canonical(const ps_opt *o, char *buf, size_t len)
{
    if (o->long_name) snprintf(buf, len, "--%s", o->long_name);
    else snprintf(buf, len, "-%c", o->short_name);
}

/* Whether the option's long name is a word of the group ("quick tiny"). */
static int in_group(const ps_opt *o, const char *group)
{
    size_t len = o->long_name ? strlen(o->long_name) : 0;
    for (const char *p = group; len && (p = strstr(p, o->long_name)); p += len)
        if ((p == group || p[-1] == ' ') && (p[len] == ' ' || !p[len])) return 1;
    return 0;
}

/* Two options given that contradict each other: a flag and its opposite
 * (one dest, one of them clearing it), or two of an exclusive group.  0, or
 * 2 after the message naming both. */
static int contradictions(const ps_opt_cmd *c, const unsigned char *given)
{
    char a[128], b[128];
    for (int i = 0; c->opts[i].type != PS_OPT_END; i++) {
        const ps_opt *x = &c->opts[i];
        if (!given[i] || x->type != PS_OPT_FLAG || !x->dest) continue;
        for (int j = i + 1; c->opts[j].type != PS_OPT_END; j++) {
            const ps_opt *y = &c->opts[j];
            if (given[j] && y->type == PS_OPT_FLAG && y->dest == x->dest &&
                (x->flags & PS_OPT_CLEARS) != (y->flags & PS_OPT_CLEARS)) {
                canonical(x, a, sizeof a);
                canonical(y, b, sizeof b);
                return ps_opt_error(c->name, "%s and %s contradict each other: give one of them", a, b);
            }
        }
    }
    for (const char *const *g = c->exclusive; g && *g; g++) {
        const ps_opt *first = NULL;
        for (int i = 0; c->opts[i].type != PS_OPT_END; i++) {
            if (!given[i] || !in_group(&c->opts[i], *g)) continue;
            if (!first) {
                first = &c->opts[i];
                continue;
            }
            canonical(first, a, sizeof a);
            canonical(&c->opts[i], b, sizeof b);
            return ps_opt_error(c->name, "%s and %s cannot be given together: give one of them", a, b);
        }
    }
    return 0;
}

static int parse_all(const ps_opt_cmd *c, int argc, char **argv, int *nargs, unsigned char *given);

int ps_opt_parse(const ps_opt_cmd *c, int argc, char **argv, int *nargs)
{
    int nopts = 0;
    while (c->opts[nopts].type != PS_OPT_END) nopts++;
    unsigned char *given = ps_xcalloc((size_t)nopts + 1, 1);
    int rc = parse_all(c, argc, argv, nargs, given);
    if (rc == PS_OPT_GO && contradictions(c, given)) rc = 2;
    free(given);
    return rc;
}

static int parse_all(const ps_opt_cmd *c, int argc, char **argv, int *nargs, unsigned char *given)
{
    int n = 0, only_args = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_args || a[0] != '-' || !a[1]) {
            argv[++n] = a; /* n < i: nothing unread is overwritten */
            if (c->args_end_options) only_args = 1;
            continue;
        }
        if (!strcmp(a, "--")) {
            only_args = 1;
            continue;
        }
        int rc = a[1] == '-' ? parse_long(c, argc, argv, &i, given) : parse_short(c, argc, argv, &i, given);
        if (rc != PS_OPT_GO) return rc;
    }
    *nargs = n;
    if (n < c->min_args) return ps_opt_error(c->name, "%s", c->missing ? c->missing : "too few arguments");
    if (c->max_args >= 0 && n > c->max_args) return ps_opt_error(c->name, "unexpected argument '%s'", argv[c->max_args + 1]);
    return PS_OPT_GO;
}

/* "  -n, --ranks N" */
static void label(const ps_opt *o, char *buf, size_t len)
{
    char s[8] = "    ";
    if (o->short_name) snprintf(s, sizeof s, "-%c%s", o->short_name, o->long_name ? ", " : "");
    snprintf(buf, len, "  %s%s%s%s%s", s, o->long_name ? "--" : "", o->long_name ? o->long_name : "",
             o->arg ? " " : "", o->arg ? o->arg : "");
}

void ps_opt_help(const ps_opt_cmd *c, FILE *f)
{
    fprintf(f, "usage: %s %s\n", c->name, c->usage);
    if (c->about) fprintf(f, "\n%s", c->about);
    int col = 0;
    char buf[256];
    for (const ps_opt *o = c->opts; o->type != PS_OPT_END; o++) {
        if (!o->help) continue;
        label(o, buf, sizeof buf);
        int w = (int)strlen(buf) + 2;
        if (w > col && w <= 26) col = w;
    }
    if (col) fputc('\n', f);
    for (const ps_opt *o = c->opts; o->type != PS_OPT_END; o++) {
        if (!o->help) continue;
        label(o, buf, sizeof buf);
        int w = (int)strlen(buf);
        fprintf(f, "%s%*s", buf, w + 2 > col ? 2 : col - w, "");
        for (const char *h = o->help; *h;) {
            size_t k = strcspn(h, "\n");
            fprintf(f, "%.*s\n", (int)k, h);
            h += k;
            if (*h) fprintf(f, "%*s", col, "");
            if (*h) h++;
        }
    }
    if (c->notes) fprintf(f, "\n%s", c->notes);
}

/* Whether x is on the progression from x0 by step (a difference, or a ratio). */
static int on_progression(long x0, long step, int ratio, long x)
{
    if (ratio) {
        while (x0 < x) x0 *= step;
        return x0 == x;
    }
    return x >= x0 && (x - x0) % step == 0;
}

/* "a,b,...,z" after a and b (and the count before them, if any) are in out:
 * continues the step from a to b up to z, which must be on it. */
static int continue_list(int *out, int *n, int max, long end, char *err, size_t errlen)
{
    long x0 = out[*n - 2], x1 = out[*n - 1];
    if (x1 <= x0) {
        ps_seterr(err, errlen, "'...' needs two counts that go up before it (%ld, %ld)", x0, x1);
        return -1;
    }
    if (end <= x1) {
        ps_seterr(err, errlen, "'...' must end above %ld, the count before it (got %ld)", x1, end);
        return -1;
    }
    long diff = x1 - x0, ratio = x1 % x0 == 0 ? x1 / x0 : 0;
    int arith = 1, geom = ratio > 1;
    if (*n >= 3) { /* a third count before says which step it is */
        long xm = out[*n - 3];
        if (x0 - xm == diff) geom = 0;
        else if (geom && xm * ratio == x0) arith = 0;
    }
    int on_geom = geom && on_progression(x1, ratio, 1, end), on_arith = arith && on_progression(x1, diff, 0, end);
    if (!on_geom && !on_arith) {
        /* the nearest counts on it, by the ratio where that is the step it may be */
        long below = x1, above;
        if (geom) {
            while (below * ratio < end) below *= ratio;
            above = below * ratio;
        } else {
            below = x1 + (end - x1) / diff * diff;
            above = below + diff;
        }
        if (below == x1)
            ps_seterr(err, errlen, "%ld is not on the progression %ld, %ld, %ld, ... that '...' continues (end it "
                      "at %ld, or give %ld without '...')", end, x0, x1, above, above, end);
        else
            ps_seterr(err, errlen, "%ld is not on the progression %ld, %ld, %ld, ... that '...' continues (end it "
                      "at %ld or %ld, or add %ld after the end: ...,%ld,%ld)", end, x0, x1, geom ? x1 * ratio : x1 + diff,
                      below, above, end, below, end);
        return -1;
    }
    /* a and b both double and differ (2,4): the end says which; on both, the ratio */
    int by_ratio = on_geom;
    for (long x = x1; x < end;) {
        x = by_ratio ? x * ratio : x + diff;
        if (*n >= max) {
            ps_seterr(err, errlen, "more than %d counts", max);
            return -1;
        }
        out[(*n)++] = (int)x;
    }
    return 0;
}

int ps_parse_rank_list(const char *s, int *out, int max, int limit, char *err, size_t errlen)
{
    int n = 0, rc = 0, pos = 0;
    char *copy = ps_xstrdup(s);
    char lim[32];
    snprintf(lim, sizeof lim, "1..%d", limit);
    /* every element between commas counts, an empty one too (strtok would skip it) */
    for (char *tok = copy, *next; tok && !rc; tok = next) {
        char *comma = strchr(tok, ',');
        next = comma ? comma + 1 : NULL;
        if (comma) *comma = '\0';
        pos++;
        long a, b;
        char *dash = strchr(tok, '-');
        if (!*tok) {
            ps_seterr(err, errlen, "element %d is empty%s", pos,
                      pos == 1 ? " (a leading comma)" : !next ? " (a trailing comma)" : " (two commas in a row)");
            rc = -1;
        } else if (!strcmp(tok, "...")) {
            char *end = next;
            if (end && (comma = strchr(end, ','))) {
                *comma = '\0';
                next = comma + 1;
            } else {
                next = NULL;
            }
            if (n < 2) {
                ps_seterr(err, errlen, "'...' needs two counts before it (1,2,...,16)");
                rc = -1;
            } else if (!end || !*end) {
                ps_seterr(err, errlen, "'...' needs the last count after it (1,2,...,16)");
                rc = -1;
            } else if (ps_parse_long(end, 1, limit, &b)) {
                ps_seterr(err, errlen, "'%s' after '...' is not a count %s", end, lim);
                rc = -1;
            } else {
                rc = continue_list(out, &n, max, b, err, errlen);
            }
            pos++;
        } else if (dash && dash != tok) {
            *dash = 0;
            if (ps_parse_long(tok, 1, limit, &a) || ps_parse_long(dash + 1, 1, limit, &b)) {
                ps_seterr(err, errlen, "'%s-%s' is not a range of counts %s", tok, dash + 1, lim);
                rc = -1;
            } else if (b < a) {
                ps_seterr(err, errlen, "the range '%ld-%ld' goes down", a, b);
                rc = -1;
            } else if (b - a >= max - n) {
                ps_seterr(err, errlen, "more than %d counts", max);
                rc = -1;
            } else {
                for (long x = a; x <= b; x++) out[n++] = (int)x;
            }
        } else if (ps_parse_long(tok, 1, limit, &a)) {
            ps_seterr(err, errlen, "'%s' is not a count %s", tok, lim);
            rc = -1;
        } else if (n >= max) {
            ps_seterr(err, errlen, "more than %d counts", max);
            rc = -1;
        } else {
            out[n++] = (int)a;
        }
    }
    if (!rc && n == 0) {
        ps_seterr(err, errlen, "no count given");
        rc = -1;
    }
    free(copy);
    return rc ? -1 : n;
}
