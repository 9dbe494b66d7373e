/* structure.c - the distinct arguments each construct was called with (see structure.h). */
#include "runtime/structure.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parscope/parscope.h"
#include "runtime/config.h"
#include "runtime/limits.h"
#include "runtime/rt.h"

/* Distinct argument lists kept per construct; further ones are only counted. */
#define PS_STRUCT_CALLS 16

static const struct {
    int         n;
    const char *name[3];
} argnames[] = {
    [PS_ARGS_NONE] = {0, {0}},
    [PS_ARGS_BYTES] = {1, {"bytes"}},
    [PS_ARGS_PATTERN] = {3, {"bytes", "distance", "partners"}},
    [PS_ARGS_WORDS] = {1, {"words"}},
    [PS_ARGS_N] = {1, {"n"}},
    [PS_ARGS_ROWS_COLS] = {2, {"rows", "cols"}},
    [PS_ARGS_MATPROD] = {3, {"rows", "inner", "cols"}},
    [PS_ARGS_FLOPS] = {1, {"flops"}},
    [PS_ARGS_REDUCE] = {1, {"count"}},
};

typedef struct scall {
    long     v[3];
    uint64_t count;
} scall;

typedef struct sentry {
    int          construct;
    enum ps__args args;
    int          ncalls, last;
    uint64_t     more;
    scall        call[PS_STRUCT_CALLS];
} sentry;

static sentry *tab;             /* in order of first call */
static int     ntab, captab;
static int     slot[PS_MAX_CONSTRUCTS]; /* construct id -> 1 + index into tab, 0 = none */

void ps__structure(int construct, enum ps__args args, long a, long b, long c)
{
    /* every construct passes here first: its arguments are checked once, and its call begins */
    ps__check_args(construct, (int)args, a, b, c);
    ps__rt.construct_began = 1;
    if (construct < 0 || construct >= PS_MAX_CONSTRUCTS) return;
    sentry *e;
    if (!slot[construct]) {
        if (ntab == captab) {
            int nc = captab ? 2 * captab : 16;
            sentry *n = realloc(tab, (size_t)nc * sizeof *n);
            if (!n) return; /* the sheet then lacks this construct's structure */
            tab = n;
            captab = nc;
        }
        e = &tab[ntab];
        memset(e, 0, sizeof *e);
        e->construct = construct;
        e->args = args;
        slot[construct] = ++ntab;
    }
    e = &tab[slot[construct] - 1];
    long v[3] = {a, b, c};
    size_t sz = (size_t)argnames[e->args].n * sizeof v[0];
    /* the last call's arguments first: constructs repeat in loops */
    if (e->ncalls && !memcmp(e->call[e->last].v, v, sz)) {
        e->call[e->last].count++;
        return;
    }
    for (int i = 0; i < e->ncalls; i++)
        if (!memcmp(e->call[i].v, v, sz)) {
            e->call[i].count++;
            e->last = i;
            return;
        }
    if (e->ncalls == PS_STRUCT_CALLS) {
        e->more++;
        return;
    }
    scall *s = &e->call[e->ncalls];
    memset(s, 0, sizeof *s);
    memcpy(s->v, v, sz);
    s->count = 1;
    e->last = e->ncalls++;
}

json_t *ps__structure_json(void)
{
    json_t *a = json_array();
    for (int t = 0; t < ntab; t++) {
        const sentry *e = &tab[t];
        json_t *o = json_object(), *names = json_array(), *calls = json_array();
        json_object_set_new(o, "construct", json_string(ps_construct_name(e->construct)));
        for (int k = 0; k < argnames[e->args].n; k++) json_array_append_new(names, json_string(argnames[e->args].name[k]));
        json_object_set_new(o, "args", names);
        for (int i = 0; i < e->ncalls; i++) {
            json_t *c = json_object(), *vals = json_array();
            for (int k = 0; k < argnames[e->args].n; k++) json_array_append_new(vals, json_integer(e->call[i].v[k]));
            json_object_set_new(c, "values", vals);
            json_object_set_new(c, "count", json_integer((json_int_t)e->call[i].count));
            json_array_append_new(calls, c);
        }
        json_object_set_new(o, "calls", calls);
        if (e->more) json_object_set_new(o, "more_calls", json_integer((json_int_t)e->more));
        json_array_append_new(a, o);
    }
    return a;
}
