/* codegen.c - LOOP program to C (see codegen.h and docs/LANGUAGE.md). */
#include "lang/codegen.h"
#include "lang/limits.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/parser.h"
#include "util/util.h"

#define NOTOK ((size_t)-1)

/* ---- output buffer ------------------------------------------------------ */

typedef struct sb { char *s; size_t n, cap; } sb;

static void sb_put(sb *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->s = ps_xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}
static void sb_puts(sb *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fputs("parscope: out of memory\n", stderr);
        exit(1);
    }
    sb_put(b, s, (size_t)n);
    free(s);
}

/* ---- generator state ---------------------------------------------------- */

typedef struct array {
    char *name, *type, *s1, *s2;
    char *s1c, *s2c;    /* the sizes as emitted: with their type check (count_text) */
    int   is_mat;
    int   depth;
    int   loop_level;   /* \LOOP nesting where it was declared */
} array;

/* A set of identifiers (pointers into the source). */
typedef struct nameset { const char **s; size_t *len; size_t n, cap; } nameset;

static int ns_has(const nameset *ns, const char *s, size_t len)
{
    for (size_t i = 0; i < ns->n; i++)
        if (ns->len[i] == len && !memcmp(ns->s[i], s, len)) return 1;
    return 0;
}

static int ns_add(nameset *ns, const char *s, size_t len)
{
    if (ns_has(ns, s, len)) return 0;
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? 2 * ns->cap : 32;
        ns->s = ps_xrealloc(ns->s, ns->cap * sizeof *ns->s);
        ns->len = ps_xrealloc(ns->len, ns->cap * sizeof *ns->len);
    }
    ns->s[ns->n] = s;
    ns->len[ns->n++] = len;
    return 1;
}

static void ns_free(nameset *ns)
{
    free(ns->s);
    free(ns->len);
    memset(ns, 0, sizeof *ns);
}

typedef struct gen {
    const ps_program *p;
    const char *src;
    const ps_tok *t;
    const ps_gen_opts *o;
    ps_diag *d;
    sb    out;
    int   bol;          /* output is at the start of a line */
    int   synced;       /* the next source token continues the output in place */
    size_t next_tok;
    char *qpath;        /* the path as a C string literal body */
    array *arr;
    int   narr;
    int   depth;
    int   loop_level;
    int   counter;
    int   stream;
    char  main_name[256];
    int   main_params;  /* -1 no main, 0 (void), 2 (argc, argv) */
    int   failed;
    int   active;       /* between \OPEN0 and \CLOSE0: plain C is computation */
    int   open_depth;   /* brace depth of the \OPEN0 (leaving it ends the region) */
    nameset sizes;      /* names that message sizes, counts or partners depend on */
    nameset vals;       /* the same without the buffers constructs are given */
    nameset commfns;    /* functions of this file that communicate */
    /* \OPEN0's set-up: the statements after \OPEN0 up to the first one that
     * is part of the workload (a message, a \LOOP, ...): kept in every
     * variant, before the timed interval (ps_setup_end() where it ends) */
    size_t open0_tok;      /* the \OPEN0, NOTOK: none */
    size_t setup_end_tok;  /* the first token of the first timed statement, NOTOK: no set-up */
    int    setup_done;     /* ps_setup_end() emitted */
    /* the use-def walk (slicing): the statements of plain C, in token order,
     * with what every variant keeps */
    struct unit *units;
    size_t  nunits, unitcap;
    nameset used;       /* names read by code that the comm or data variant runs */
    nameset floats;     /* names declared only as floating-point scalars */
    nameset macros;     /* names #defined in the file */
    int     wactive, wdepth, wopen_depth;   /* the walk's own \OPEN0..\CLOSE0 tracking */
    char *seed_defaults; /* the LOOP seed's names the program leaves open (seed_names), NULL if none */
    int   defaults_done;
} gen;

/* CTX_COMPUTE: plain C is computation (a \LOOP body); CTX_NOGUARD: plain C
 * is never computation (\DATA_MOVE, \KEEP, \COMPUTE blocks); CTX_IN_COMPUTE
 * and CTX_IN_DATA: inside a \COMPUTE or a \DATA_MOVE block. */
enum { CTX_COMPUTE = 1, CTX_NOGUARD = 2, CTX_IN_COMPUTE = 4, CTX_IN_DATA = 8 };

static void end_setup_at(gen *g, size_t k);

static void put(gen *g, const char *s, size_t n)
{
    if (!n) return;
    sb_put(&g->out, s, n);
    g->bol = s[n - 1] == '\n';
}
static void puts_(gen *g, const char *s) { put(g, s, strlen(s)); }
static void newline(gen *g)
{
    if (!g->bol) puts_(g, "\n");
}

/* `#include "LOOP.h"` (or <LOOP.h>) as in the seed's figures. */
static int is_loop_include(const char *s, size_t n)
{
    size_t i = 1;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (n - i < 7 || memcmp(s + i, "include", 7)) return 0;
    i += 7;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (n - i < 8) return 0;
    return (!memcmp(s + i, "\"LOOP.h\"", 8) || !memcmp(s + i, "<LOOP.h>", 8));
}

/* Writes token k's text (with main renamed and LOOP.h redirected); the seed's
 * defaults go just before the first mention of main. */
static void put_tok(gen *g, size_t k)
{
    const ps_tok *t = &g->t[k];
    const char *s = g->src + t->off;
    if (t->kind == PS_TK_IDENT && t->len == 4 && !memcmp(s, "main", 4)) {
        if (g->seed_defaults && !g->defaults_done) {
            newline(g);
            puts_(g, g->seed_defaults);
            g->defaults_done = 1;
            sb_printf(&g->out, "#line %d \"%s\"\n", t->line, g->qpath);
        }
        puts_(g, g->main_name);
    } else if (t->kind == PS_TK_PP && is_loop_include(s, t->len)) {
        puts_(g, "#include <parscope/loop.h>");
    } else {
        put(g, s, t->len);
    }
}

/* Passes tokens [a, b) through, resynchronising #line when needed. */
static void emit_tokens(gen *g, size_t a, size_t b)
{
    for (size_t k = a; k < b; k++) {
        const ps_tok *t = &g->t[k];
        if (t->kind == PS_TK_EOF) break;
        if ((!g->synced || g->next_tok != k) && t->kind == PS_TK_WS) {
            /* blanks after generated code: the next token's #line places it */
            newline(g);
            continue;
        }
        if (!g->synced || g->next_tok != k) {
            newline(g);
            sb_printf(&g->out, "#line %d \"%s\"\n", t->line, g->qpath);
            for (int c = 1; c < t->col; c++) sb_put(&g->out, " ", 1);
            g->bol = t->col == 1;
            g->synced = 1;
        }
        put_tok(g, k);
        g->next_tok = k + 1;
    }
}

/* One line of generated code, attributed to source line `line`. */
static void gline(gen *g, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void gline(gen *g, int line, const char *fmt, ...)
{
    newline(g);
    sb_printf(&g->out, "#line %d \"%s\"\n", line, g->qpath);
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) s = NULL;
    va_end(ap);
    if (s) {
        puts_(g, s);
        free(s);
    }
    puts_(g, "\n");
    g->synced = 0;
}

static void gpp(gen *g, const char *text)
{
    newline(g);
    puts_(g, text);
    puts_(g, "\n");
    g->synced = 0;
}

/* ---- argument text ------------------------------------------------------ */

static int is_param_name(const char *s, size_t n, const char **repl)
{
    static const char *const names[][2] = {{"ITERATIONS", "ps_iterations()"},
                                           {"PROBLEMSIZE", "ps_problem_size()"},
                                           {"NODES", "ps_size()"},
                                           {"ME", "ps_rank()"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i][0]) == n && !memcmp(names[i][0], s, n)) {
            *repl = names[i][1];
            return 1;
        }
    return 0;
}

/* The text of tokens [a, b) on one line: comments and line breaks become
 * blanks; with params, ITERATIONS, PROBLEMSIZE, NODES and ME become calls. */
static char *range_text(gen *g, ps_range r, int params)
{
    sb b = {0};
    sb_puts(&b, "");
    for (size_t k = r.a; k < r.b; k++) {
        const ps_tok *t = &g->t[k];
        const char *s = g->src + t->off;
        const char *repl;
        if (t->kind == PS_TK_WS || t->kind == PS_TK_COMMENT) {
            sb_puts(&b, " ");
        } else if (params && t->kind == PS_TK_IDENT && is_param_name(s, t->len, &repl)) {
            sb_puts(&b, repl);
        } else {
            sb_put(&b, s, t->len);
        }
    }
    return b.s;
}

static char *arg(gen *g, const ps_node *c, int i) { return range_text(g, c->args[i], 0); }

static const ps_tok *arg_tok(gen *g, const ps_node *c, int i) { return &g->t[c->args[i].a]; }

static int gerr(gen *g, const ps_tok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int gerr(gen *g, const ps_tok *t, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    g->failed = 1;
    return ps_diag_error(g->d, t->line, t->col, "%s", msg);
}

/* ---- arrays declared with \VEC / \MAT ------------------------------------ */

static array *find_array(gen *g, const ps_node *c, int i)
{
    ps_range r = c->args[i];
    if (r.b != r.a + 1 || g->t[r.a].kind != PS_TK_IDENT) return NULL;
    const ps_tok *t = &g->t[r.a];
    for (int k = g->narr - 1; k >= 0; k--)
        if (strlen(g->arr[k].name) == t->len && !memcmp(g->arr[k].name, g->src + t->off, t->len))
            return &g->arr[k];
    return NULL;
}

static void ensure_text(sb *b, const array *a)
{
    if (a->is_mat)
        sb_printf(b, "if (!%s) %s = (%s **)ps_mat_alloc(sizeof(%s), (long)(%s), (long)(%s)); ", a->name,
                  a->name, a->type, a->type, a->s1c, a->s2c);
    else
        sb_printf(b, "if (!%s) %s = (%s *)ps_vec_alloc(sizeof(%s), (long)(%s)); ", a->name, a->name,
                  a->type, a->type, a->s1c);
}

static void pop_scope(gen *g)
{
    if (g->active && g->depth < g->open_depth) g->active = 0;
    while (g->narr > 0 && g->arr[g->narr - 1].depth > g->depth) {
        array *a = &g->arr[--g->narr];
        free(a->name);
        free(a->type);
        free(a->s1);
        free(a->s2);
        free(a->s1c);
        free(a->s2c);
    }
}

static int gen_nodes(gen *g, const ps_nodes *ns, int ctx);

/* Emits a construct's block: its braces pass through, its inside in ctx. */
static int gen_block(gen *g, const ps_node *c, int ctx)
{
    emit_tokens(g, c->lbrace, c->lbrace + 1);
    g->depth++;
    int rc = gen_nodes(g, &c->kids, ctx);
    g->depth--;
    pop_scope(g);
    if (rc) return rc;
    emit_tokens(g, c->rbrace, c->rbrace + 1);
    return 0;
}

/* The roles of count arguments and their type checks (below, before gen_construct). */
enum { ROLE_NONE, ROLE_BYTES, ROLE_INT, ROLE_NUM };
static char *checked_text(int role, const char *what, const ps_tok *t, const char *text);

/* Argument range r is one number or character literal: its type is plain
 * (and its value checked at generation, limits.c), so it needs no check. */
static int plain_literal(gen *g, ps_range r)
{
    return r.b == r.a + 1 && (g->t[r.a].kind == PS_TK_NUMBER || g->t[r.a].kind == PS_TK_CHAR);
}

static int decl_arrays(gen *g, const ps_node *c)
{
    int is_mat = c->info->kind == PS_K_MAT;
    const char *cname = is_mat ? "MAT" : "VEC";
    char *type = NULL, *s[2] = {NULL, NULL};
    const ps_tok *where[3] = {NULL, NULL, NULL}; /* where TYPE, S1, S2 were given */
    const ps_tok *vtok[3] = {NULL, NULL, NULL};  /* their values' first tokens */
    int npos = 0, keyed = 0, maxargs = is_mat ? 3 : 2;
    for (int i = 0; i < c->nargs; i++) {
        ps_range r = c->args[i];
        const ps_tok *t0 = &g->t[r.a];
        size_t k1 = ps_next_sig(g->p, r.a + 1);
        int slot;
        ps_range val = r;
        if (t0->kind == PS_TK_IDENT && k1 < r.b && ps_tok_is(g->src, &g->t[k1], ':')) {
            const char *kw = g->src + t0->off;
            if (t0->len == 4 && !memcmp(kw, "TYPE", 4)) slot = 0;
            else if (t0->len == 2 && !memcmp(kw, "S1", 2)) slot = 1;
            else if (t0->len == 2 && !memcmp(kw, "S2", 2) && is_mat) slot = 2;
            else {
                gerr(g, t0, "unknown key '%.*s:' in \\%s (keys: TYPE:, S1:%s)", (int)t0->len, kw, cname,
                     is_mat ? ", S2:" : "");
                goto fail;
            }
            val.a = ps_next_sig(g->p, k1 + 1);
            if (val.a >= r.b) {
                gerr(g, t0, "'%.*s:' needs a value in \\%s", (int)t0->len, kw, cname);
                goto fail;
            }
            keyed = 1;
        } else {
            if (keyed) {
                gerr(g, t0,
                     "an argument without a key after one with a key in \\%s: give it its key (%s) or put the "
                     "arguments without keys first, in the order %s",
                     cname, is_mat ? "TYPE:, S1: or S2:" : "TYPE: or S1:",
                     is_mat ? "type, rows, cols" : "type, length");
                goto fail;
            }
            if (npos >= maxargs) {
                gerr(g, t0, "\\%s takes at most %d arguments (%s), got %d", cname, maxargs,
                     is_mat ? "TYPE: t, S1: rows, S2: cols" : "TYPE: t, S1: n", c->nargs);
                goto fail;
            }
            slot = npos++;
        }
        if (where[slot]) {
            gerr(g, t0, "%s given twice in \\%s (first at %d:%d)",
                 slot == 0 ? "the element type (TYPE:) is" : slot == 1 ? "'S1:' is" : "'S2:' is", cname,
                 where[slot]->line, where[slot]->col);
            goto fail;
        }
        where[slot] = t0;
        vtok[slot] = plain_literal(g, val) ? NULL : &g->t[val.a];
        if (slot > 0 && val.b == val.a + 1 && g->t[val.a].kind == PS_TK_STRING) {
            gerr(g, &g->t[val.a], "\\%s's %s must be an integer, not a string", c->info->name,
                 slot == 2 ? "cols (S2:)" : is_mat ? "rows (S1:)" : "length (S1:)");
            goto fail;
        }
        *(slot == 0 ? &type : &s[slot - 1]) = range_text(g, val, 0);
    }
    if (!type) {
        gerr(g, &g->t[c->lparen], "\\%s needs the element type (TYPE: t)", cname);
        goto fail;
    }
    char what_len[64], what_rows[64], what_cols[64];
    snprintf(what_len, sizeof what_len, "\\\\%s's length (S1:)", c->info->name);
    snprintf(what_rows, sizeof what_rows, "\\\\%s's rows (S1:)", c->info->name);
    snprintf(what_cols, sizeof what_cols, "\\\\%s's cols (S2:)", c->info->name);
    sb decl = {0};
    sb_puts(&decl, "");
    for (int i = 0; i < c->nnames; i++) {
        const ps_tok *t = &g->t[c->names[i]];
        g->arr = ps_xrealloc(g->arr, (size_t)(g->narr + 1) * sizeof *g->arr);
        array *a = &g->arr[g->narr++];
        a->name = ps_xasprintf("%.*s", (int)t->len, g->src + t->off);
        a->type = ps_xstrdup(type);
        a->s1 = ps_xstrdup(s[0] ? s[0] : "ps_problem_size()");
        a->s2 = ps_xstrdup(s[1] ? s[1] : "ps_problem_size()");
        a->s1c = s[0] && vtok[1] ? checked_text(ROLE_INT, is_mat ? what_rows : what_len, vtok[1], s[0])
                                 : ps_xstrdup(a->s1);
        a->s2c = s[1] && vtok[2] ? checked_text(ROLE_INT, what_cols, vtok[2], s[1]) : ps_xstrdup(a->s2);
        a->is_mat = is_mat;
        a->depth = g->depth;
        a->loop_level = g->loop_level;
        sb_printf(&decl, "%s %s%s = NULL;%s", type, is_mat ? "**" : "*", a->name,
                  i + 1 < c->nnames ? " " : "");
    }
    gline(g, g->t[c->name_tok].line, "%s", decl.s);
    free(decl.s);
    free(type);
    free(s[0]);
    free(s[1]);
    return 0;
fail:
    free(type);
    free(s[0]);
    free(s[1]);
    return 2;
}

/* "if (!x) x = ...;" for argument i when it names a declared array. */
static void ensure_arg(gen *g, sb *b, const ps_node *c, int i)
{
    array *a = find_array(g, c, i);
    if (a) ensure_text(b, a);
}

/* At a \LOOP: storage for the arrays declared at this loop level (outer
 * levels already did theirs, so inner loops add no checks). */
static void ensure_level(gen *g, sb *b)
{
    for (int k = 0; k < g->narr; k++)
        if (g->arr[k].loop_level == g->loop_level) ensure_text(b, &g->arr[k]);
}

/* A computational construct: compiled only in the full variant. */
static void gen_compute(gen *g, const ps_node *c, const char *code)
{
    gpp(g, "#if PS_VARIANT == 2");
    gline(g, g->t[c->name_tok].line, "%s", code);
    gpp(g, "#else");
    gline(g, g->t[c->name_tok].line, ";");
    gpp(g, "#endif");
}

static int need_array(gen *g, const ps_node *c, int i, int mat, const char *cname, const char *hint)
{
    array *a = find_array(g, c, i);
    if (a && (mat < 0 || a->is_mat == mat)) return 0;
    const ps_tok *t = arg_tok(g, c, i);
    char *s = arg(g, c, i);
    gerr(g, t, "\\%s: '%s' is not declared with \\%s%s", cname, s, mat == 1 ? "MAT" : "VEC", hint);
    free(s);
    return 2;
}

/* The kinds of construct whose only effect is computation. */
static int is_compute_kind(int kind)
{
    return kind == PS_K_SCALPROD || kind == PS_K_MATVECPROD || kind == PS_K_MATPROD || kind == PS_K_WORK ||
           kind == PS_K_COMPUTE;
}

/* A construct inside a \COMPUTE block that every variant needs (messages,
 * the runtime's start and end, data movement), or NULL. */
static const ps_node *comm_inside(const ps_nodes *ns)
{
    for (size_t i = 0; i < ns->n; i++) {
        const ps_node *x = ns->v[i];
        if (x->kind == PS_N_CONSTRUCT) {
            int k = x->info->kind;
            if (!is_compute_kind(k) && k != PS_K_LOOP && k != PS_K_SECTION && k != PS_K_KEEP && k != PS_K_VEC &&
                k != PS_K_MAT && k != PS_K_INIT_ARRAY)
                return x;
        }
        const ps_node *y = comm_inside(&x->kids);
        if (y) return y;
    }
    return NULL;
}

/* ---- the types of count arguments -------------------------------------------
 *
 * An argument that is a size or a count is cast for the runtime call
 * ((size_t), (long), (int), (double)), and a cast takes a pointer as well:
 * \MULTIBCAST0("abc") would send the string's address in bytes.  So each is
 * emitted wrapped in PS_ARG_BYTES / _INT / _NUM (parscope/loop.h), which
 * refuses any other type at compile time with a message that carries the
 * argument's place in the .loop file ("ps-loop@LINE:COL: ..."); parscope
 * build prints it at that place (build.c).  A string literal is refused here
 * already. */

/* What argument i of a construct of this kind is: its role, and its name
 * for messages (NULL: not a count). */
static int count_role(int kind, int i, const char **name)
{
    *name = NULL;
    switch (kind) {
    case PS_K_OPEN0: if (i == 4) *name = "TRACE_BUF, the trace capacity"; return i == 4 ? ROLE_INT : ROLE_NONE;
    case PS_K_INIT_ARRAY: if (i == 1) *name = "value"; return i == 1 ? ROLE_NUM : ROLE_NONE;
    case PS_K_LOOP: *name = "count"; return ROLE_INT;
    case PS_K_SCALPROD: if (i == 3) *name = "n (the length)"; return i == 3 ? ROLE_INT : ROLE_NONE;
    case PS_K_MATVECPROD:
        if (i == 3) *name = "rows";
        if (i == 4) *name = "cols";
        return i >= 3 ? ROLE_INT : ROLE_NONE;
    case PS_K_MATPROD:
        if (i == 3) *name = "rows";
        if (i == 4) *name = "inner";
        if (i == 5) *name = "cols";
        return i >= 3 ? ROLE_INT : ROLE_NONE;
    case PS_K_WORK: *name = "flops"; return ROLE_NUM;
    case PS_K_COMMUNICATE:
    case PS_K_EXCHANGE:
        if (i == 0) *name = "bytes";
        if (i == 1) *name = "distance";
        if (i == 2) *name = "partners";
        return i == 0 ? ROLE_BYTES : i <= 2 ? ROLE_INT : ROLE_NONE;
    case PS_K_MULTIBCAST0:
    case PS_K_MULTIBCAST_ME:
    case PS_K_MULTIBCAST_ALTER: *name = "bytes"; return ROLE_BYTES;
    case PS_K_TREE_BCAST: if (i == 1) *name = "bytes"; return i == 1 ? ROLE_BYTES : ROLE_NONE;
    case PS_K_TREE_COLLECT_VEC:
    case PS_K_TREE_DISTRIB_VEC: if (i == 1) *name = "length"; return i == 1 ? ROLE_INT : ROLE_NONE;
    case PS_K_SEND:
    case PS_K_BSEND: *name = i == 0 ? "dest" : "words"; return i == 0 ? ROLE_INT : ROLE_NUM;
    case PS_K_RECEIVE:
    case PS_K_BRECEIVE: *name = i == 0 ? "src" : "words"; return i == 0 ? ROLE_INT : ROLE_NUM;
    case PS_K_DATA_MOVE: *name = "bytes"; return ROLE_NUM;
    default: return ROLE_NONE;
    }
}

static const char *const role_must[] = {"", "a byte count (an integer)", "an integer", "a number"};
static const char *const role_macro[] = {"", "PS_ARG_BYTES", "PS_ARG_INT", "PS_ARG_NUM"};

/* "\\MULTIBCAST0's argument (bytes)", "\\COMMUNICATE's argument 2 (distance)"
 * as the body of a C string literal when c_literal, else as text. */
static char *count_what(const char *cname, int nargs, int i, const char *name, int c_literal)
{
    const char *bs = c_literal ? "\\\\" : "\\";
    if (!strcmp(cname, "LOOP")) return ps_xasprintf("%sLOOP's count", bs);
    if (nargs <= 1) return ps_xasprintf("%s%s's argument (%s)", bs, cname, name);
    return ps_xasprintf("%s%s's argument %d (%s)", bs, cname, i + 1, name);
}

/* The text of count argument text (at token t) wrapped in its type check,
 * or a copy of it when it is not a count. */
static char *checked_text(int role, const char *what, const ps_tok *t, const char *text)
{
    return ps_xasprintf("%s(%d, %d, \"%s\", (%s))", role_macro[role], t->line, t->col, what, text);
}

static char *count_text(const char *cname, int role, const char *name, int nargs, int i, const ps_tok *t,
                        const char *text)
{
    if (role == ROLE_NONE || !name) return ps_xstrdup(text);
    char *what = count_what(cname, nargs, i, name, 1);
    char *r = checked_text(role, what, t, text);
    free(what);
    return r;
}

/* ---- literals whose kind is certain ------------------------------------------ */

/* Whether the number or character literal token t has the value 0 (0, 0L,
 * 0x0, 00, '\0', '\x00'): a null pointer constant. */
static int zero_literal(gen *g, const ps_tok *t)
{
    const char *s = g->src + t->off;
    size_t n = t->len;
    if (t->kind == PS_TK_NUMBER) {
        while (n > 1 && strchr("uUlL", s[n - 1])) n--;
        size_t k = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 2 : 0;
        if (k == n) return 0;
        for (; k < n; k++)
            if (s[k] != '0') return 0;
        return 1;
    }
    if (t->kind == PS_TK_CHAR) {
        while (n > 0 && *s != '\'') s++, n--; /* L'\0', u'\0' */
        if (n < 4 || s[1] != '\\' || s[n - 1] != '\'') return 0;
        size_t k = s[2] == 'x' ? 3 : 2;
        if (k >= n - 1) return 0;
        for (; k < n - 1; k++)
            if (s[k] != '0') return 0;
        return 1;
    }
    return 0;
}

/* The kind of literal argument r is whatever its context, or 0 when it is
 * not certainly one: PS_TK_STRING (string literals, concatenated),
 * PS_TK_CHAR, or PS_TK_NUMBER (after one sign too), each inside any number
 * of parentheses.  *zero: a number or character of value 0. */
static int literal_kind(gen *g, ps_range r, int *zero)
{
    *zero = 0;
    size_t a = ps_next_sig(g->p, r.a), b = r.b; /* significant tokens [a, b) */
    while (b > a && (g->t[b - 1].kind == PS_TK_WS || g->t[b - 1].kind == PS_TK_COMMENT)) b--;
    /* one pair of parentheses around everything at a time */
    while (b > a + 1 && ps_tok_is(g->src, &g->t[a], '(') && ps_tok_is(g->src, &g->t[b - 1], ')')) {
        int depth = 0;
        size_t k = a;
        for (; k < b - 1; k++) {
            if (ps_tok_is(g->src, &g->t[k], '(')) depth++;
            else if (ps_tok_is(g->src, &g->t[k], ')') && --depth == 0) break;
        }
        if (k != b - 1) break; /* (a)(b): the first '(' closes before the end */
        a = ps_next_sig(g->p, a + 1);
        b--;
        while (b > a && (g->t[b - 1].kind == PS_TK_WS || g->t[b - 1].kind == PS_TK_COMMENT)) b--;
    }
    if (a >= b) return 0;
    int strings = 1;
    for (size_t k = a; k < b && strings; k++)
        strings = g->t[k].kind == PS_TK_STRING || g->t[k].kind == PS_TK_WS || g->t[k].kind == PS_TK_COMMENT;
    if (strings) return PS_TK_STRING;
    if (ps_tok_is(g->src, &g->t[a], '-') || ps_tok_is(g->src, &g->t[a], '+')) {
        a = ps_next_sig(g->p, a + 1);
        if (a >= b || g->t[a].kind != PS_TK_NUMBER) return 0;
    }
    if (ps_next_sig(g->p, a + 1) < b) return 0; /* more than one token */
    if (g->t[a].kind != PS_TK_NUMBER && g->t[a].kind != PS_TK_CHAR) return 0;
    *zero = zero_literal(g, &g->t[a]);
    return g->t[a].kind;
}

/* ---- pointer arguments -------------------------------------------------------
 *
 * \OPEN0's four ints, the kernels' and tree operations' arrays, \TREE_BCAST's
 * data and the buffers of \COMMUNICATE and \EXCHANGE are pointers, passed as
 * written.  A literal there is wrong for certain, yet the C compiler takes a
 * string (any pointer converts to void *: the program would write into it)
 * and a nonzero number with a warning only (up to GCC 13: the program would
 * dereference address 3).  Such a literal is refused here, at the argument;
 * any other expression (a name, &x, buf + k) is the C compiler's to check.
 * 0 (NULL) is accepted where the runtime takes NULL: \TREE_BCAST's data and
 * the optional buffers.  (\INIT_ARRAY's array must be a \VEC or \MAT name,
 * checked with the names.) */

enum { PTR_NONE, PTR_INT, PTR_ARRAY, PTR_RESULT, PTR_BUFFER };

/* What pointer argument i of a construct of this kind is, with its name
 * for messages; PTR_NONE: not a pointer.  *nullable: NULL is accepted. */
static int ptr_role(int kind, int i, const char **name, int *nullable)
{
    static const char *const open0[] = {"nodes", "me", "host", "psize"};
    static const char *const yax[] = {"y", "A", "x"}, *const cab[] = {"C", "A", "B"};
    *name = NULL;
    *nullable = 0;
    switch (kind) {
    case PS_K_OPEN0: if (i > 3) return PTR_NONE; *name = open0[i]; return PTR_INT;
    case PS_K_SCALPROD:
        if (i > 2) return PTR_NONE;
        *name = i == 0 ? "s" : i == 1 ? "x" : "y";
        return i == 0 ? PTR_RESULT : PTR_ARRAY;
    case PS_K_MATVECPROD: if (i > 2) return PTR_NONE; *name = yax[i]; return PTR_ARRAY;
    case PS_K_MATPROD: if (i > 2) return PTR_NONE; *name = cab[i]; return PTR_ARRAY;
    case PS_K_COMMUNICATE:
    case PS_K_EXCHANGE:
        if (i < 3) return PTR_NONE;
        *name = i == 3 ? "sendbuf" : "recvbuf";
        *nullable = 1;
        return PTR_BUFFER;
    case PS_K_TREE_BCAST:
        if (i != 0) return PTR_NONE;
        *name = "ptr";
        *nullable = 1;
        return PTR_BUFFER;
    case PS_K_TREE_COLLECT_VEC:
    case PS_K_TREE_DISTRIB_VEC: if (i != 0) return PTR_NONE; *name = "vec"; return PTR_ARRAY;
    default: return PTR_NONE;
    }
}

/* A literal given where a pointer is wanted: refused at generation. */
static int pointer_is_literal(gen *g, const ps_node *c, int i)
{
    const char *name;
    int nullable, zero;
    int role = ptr_role(c->info->kind, i, &name, &nullable);
    if (role == PTR_NONE) return 0;
    int lk = literal_kind(g, c->args[i], &zero);
    if (!lk || (nullable && zero && lk != PS_TK_STRING)) return 0;
    char must[64];
    snprintf(must, sizeof must, "%s%s",
             role == PTR_INT      ? "a pointer to an int, such as &"
             : role == PTR_ARRAY  ? "an array (a \\VEC, a \\MAT or a pointer)"
             : role == PTR_RESULT ? "a variable or a \\VEC to hold the result"
             : nullable           ? "a pointer to a buffer or NULL"
                                  : "a pointer to a buffer",
             role == PTR_INT ? name : "");
    const char *given = lk == PS_TK_STRING ? "a string literal" : lk == PS_TK_CHAR ? "a character literal" : "a number";
    char *what = count_what(c->info->name, c->nargs, i, name, 0);
    int rc = gerr(g, &g->t[ps_next_sig(g->p, c->args[i].a)], "%s must be %s, not %s", what, must, given);
    free(what);
    return rc;
}

/* A string literal given as a count: refused at generation. */
static int count_is_string(gen *g, const ps_node *c, int i)
{
    const char *name;
    int role = count_role(c->info->kind, i, &name), zero;
    ps_range r = c->args[i];
    if (role == ROLE_NONE || !name || literal_kind(g, r, &zero) != PS_TK_STRING) return 0;
    char *what = count_what(c->info->name, c->nargs, i, name, 0);
    int rc = gerr(g, &g->t[r.a], "%s must be %s, not a string", what, role_must[role]);
    free(what);
    return rc;
}

static int gen_construct(gen *g, const ps_node *c, int ctx)
{
    const ps_tok *nt = &g->t[c->name_tok];
    int line = nt->line;
    const char *cname = c->info->name;
    int K = g->counter++;
    char *a[6] = {0};
    for (int i = 0; i < c->nargs && i < 6; i++) a[i] = arg(g, c, i);
    int rc = 0;
    /* a literal size or flop count out of range: refused now, not at run time */
    char why[256];
    for (int i = 0; i < c->nargs && i < 6 && !rc; i++)
        if (ps_lang_literal_check(c->info->kind, i, a[i], why, sizeof why))
            rc = gerr(g, arg_tok(g, c, i), "\\%s: %s", cname, why);
    for (int i = 0; i < c->nargs && i < 6 && !rc; i++) rc = count_is_string(g, c, i);
    for (int i = 0; i < c->nargs && i < 6 && !rc; i++) rc = pointer_is_literal(g, c, i);
    if (rc) {
        for (int i = 0; i < 6; i++) free(a[i]);
        return rc;
    }
    /* v[i]: argument i as emitted, a count with its type check */
    char *v[6] = {0};
    for (int i = 0; i < c->nargs && i < 6; i++) {
        const char *name;
        int role = plain_literal(g, c->args[i]) ? ROLE_NONE : count_role(c->info->kind, i, &name);
        v[i] = count_text(cname, role, name, c->nargs, i, arg_tok(g, c, i), a[i]);
    }
    sb b = {0};
    sb_puts(&b, "");
    switch (c->info->kind) {
    case PS_K_OPEN0:
        gline(g, line, "ps_loop_open0((%s), (%s), (%s), (%s), (long)(%s));", a[0], a[1], a[2], a[3], v[4]);
        g->active = 1;
        g->open_depth = g->depth;
        break;
    case PS_K_CLOSE0:
        gline(g, line, "ps_finalize();");
        g->active = 0;
        break;
    case PS_K_VEC:
    case PS_K_MAT:
        rc = decl_arrays(g, c);
        break;
    case PS_K_INIT_ARRAY: {
        if ((rc = need_array(g, c, 0, -1, cname, " or \\MAT"))) break;
        array *x = find_array(g, c, 0);
        ensure_text(&b, x);
        if (c->nargs == 2)
            sb_printf(&b, "PS_INIT_VALUE(%s, %s, (%s));", x->type, x->name, v[1]);
        else
            sb_printf(&b, "PS_INIT_RANDOM(%s, %s, %d);", x->type, x->name, ++g->stream);
        gline(g, line, "{ %s }", b.s);
        break;
    }
    case PS_K_LOOP: {
        ensure_level(g, &b);
        char *count = c->nargs ? range_text(g, c->args[0], 1) : ps_xstrdup("ps_problem_size()");
        if (c->nargs && !plain_literal(g, c->args[0])) {
            char *w = count_text(cname, ROLE_INT, "count", 1, 0, arg_tok(g, c, 0), count);
            free(count);
            count = w;
        }
        char *it = c->iter_tok != NOTOK
                       ? ps_xasprintf("%.*s", (int)g->t[c->iter_tok].len, g->src + g->t[c->iter_tok].off)
                       : ps_xasprintf("ps__i%d", K);
        gline(g, line, "{ %sfor (long %s = 0, ps__n%d = (long)(%s); %s < ps__n%d; %s++)", b.s, it, K, count,
              it, K, it);
        free(count);
        free(it);
        g->loop_level++;
        rc = gen_block(g, c, ctx | CTX_COMPUTE);
        g->loop_level--;
        if (!rc) gline(g, g->t[c->rbrace].line, "}");
        break;
    }
    case PS_K_SCALPROD: {
        const char *n = a[3];
        char *len = NULL;
        if (!n) {
            if (find_array(g, c, 1)) len = ps_xasprintf("ps_arr_len(%s)", a[1]);
            else if (find_array(g, c, 2)) len = ps_xasprintf("ps_arr_len(%s)", a[2]);
            else {
                rc = need_array(g, c, 1, 0, cname, " (or give the length as the fourth argument)");
                break;
            }
        }
        ensure_arg(g, &b, c, 0);
        ensure_arg(g, &b, c, 1);
        ensure_arg(g, &b, c, 2);
        array *s = find_array(g, c, 0);
        sb_printf(&b, "double ps__r = PS_SCALPROD((%s), (%s), (long)(%s)); ", a[1], a[2], n ? v[3] : len);
        if (s) sb_printf(&b, "%s%s = ps__r;", s->name, s->is_mat ? "[0][0]" : "[0]");
        else sb_printf(&b, "(%s) = ps__r;", a[0]);
        free(len);
        char *code = ps_xasprintf("{ %s }", b.s);
        gen_compute(g, c, code);
        free(code);
        break;
    }
    case PS_K_MATVECPROD: {
        if (c->nargs == 3 && (rc = need_array(g, c, 1, 1, cname, " (or give rows and cols)"))) break;
        for (int i = 0; i < 3; i++) ensure_arg(g, &b, c, i);
        if (c->nargs == 5)
            sb_printf(&b, "PS_MATVECPROD((%s), (%s), (%s), (long)(%s), (long)(%s));", a[0], a[1], a[2], v[3], v[4]);
        else
            sb_printf(&b, "PS_MATVECPROD((%s), (%s), (%s), ps_arr_rows(%s), ps_arr_cols(%s));", a[0], a[1], a[2],
                      a[1], a[1]);
        char *code = ps_xasprintf("{ %s }", b.s);
        gen_compute(g, c, code);
        free(code);
        break;
    }
    case PS_K_MATPROD: {
        if (c->nargs == 3 && ((rc = need_array(g, c, 1, 1, cname, " (or give rows, inner and cols)")) ||
                              (rc = need_array(g, c, 2, 1, cname, " (or give rows, inner and cols)"))))
            break;
        for (int i = 0; i < 3; i++) ensure_arg(g, &b, c, i);
        if (c->nargs == 6)
            sb_printf(&b, "PS_MATPROD((%s), (%s), (%s), (long)(%s), (long)(%s), (long)(%s));", a[0], a[1], a[2],
                      v[3], v[4], v[5]);
        else
            sb_printf(&b, "PS_MATPROD((%s), (%s), (%s), ps_arr_rows(%s), ps_arr_cols(%s), ps_arr_cols(%s));",
                      a[0], a[1], a[2], a[1], a[1], a[2]);
        char *code = ps_xasprintf("{ %s }", b.s);
        gen_compute(g, c, code);
        free(code);
        break;
    }
    case PS_K_WORK: {
        char *code = ps_xasprintf("ps_work((double)(%s));", v[0]);
        gen_compute(g, c, code);
        free(code);
        break;
    }
    case PS_K_COMMUNICATE:
    case PS_K_EXCHANGE: {
        const char *sbuf = c->nargs == 5 ? a[3] : "NULL", *rbuf = c->nargs == 5 ? a[4] : "NULL";
        if (c->nargs == 5) {
            ensure_arg(g, &b, c, 3);
            ensure_arg(g, &b, c, 4);
        }
        if (c->info->kind == PS_K_EXCHANGE) {
            gline(g, line, "{ %sps_exchange((size_t)(%s), (int)(%s), (int)(%s), (%s), (%s)); }", b.s, v[0], v[1], v[2],
                  sbuf, rbuf);
        } else if (c->lbrace == NOTOK) {
            gline(g, line, "{ %sps_communicate((size_t)(%s), (int)(%s), (int)(%s), (%s), (%s)); }", b.s, v[0], v[1],
                  v[2], sbuf, rbuf);
        } else {
            /* overlap: sends (and receives) posted before the block, completed after it */
            gline(g, line, "{ ps_comm ps__c%d; %sps_communicate_begin(&ps__c%d, (size_t)(%s), (int)(%s), (int)(%s), (%s), (%s));",
                  K, b.s, K, v[0], v[1], v[2], sbuf, rbuf);
            if (!(rc = gen_block(g, c, ctx | CTX_COMPUTE)))
                gline(g, g->t[c->rbrace].line, "ps_communicate_end(&ps__c%d); }", K);
        }
        break;
    }
    case PS_K_MULTIBCAST0:
        gline(g, line, "ps_multibcast0((size_t)(%s));", v[0]);
        break;
    case PS_K_MULTIBCAST_ME:
        gline(g, line, "ps_multibcast_me((size_t)(%s));", v[0]);
        break;
    case PS_K_MULTIBCAST_ALTER:
        gline(g, line, "ps_multibcast_alter((size_t)(%s));", v[0]);
        break;
    case PS_K_TREE_BCAST:
        ensure_arg(g, &b, c, 0);
        gline(g, line, "{ %sps_tree_bcast((%s), (size_t)(%s)); }", b.s, a[0], v[1]);
        break;
    case PS_K_TREE_COLLECT_VEC:
    case PS_K_TREE_DISTRIB_VEC: {
        if (c->nargs == 1 && (rc = need_array(g, c, 0, 0, cname, " (or give the length as second argument)"))) break;
        ensure_arg(g, &b, c, 0);
        const char *fn = c->info->kind == PS_K_TREE_COLLECT_VEC ? "ps_tree_collect_vec" : "ps_tree_distrib_vec";
        if (c->nargs == 2)
            gline(g, line, "{ %s%s((%s), sizeof *(%s), (long)(%s)); }", b.s, fn, a[0], a[0], v[1]);
        else
            gline(g, line, "{ %s%s((%s), sizeof *(%s), ps_arr_len(%s)); }", b.s, fn, a[0], a[0], a[0]);
        break;
    }
    case PS_K_VISIBLE_SYNC:
        gline(g, line, "ps_visible_sync();");
        break;
    case PS_K_SEND:
    case PS_K_RECEIVE:
    case PS_K_BSEND:
    case PS_K_BRECEIVE: {
        /* the estimator's message instructions: a partner and a count of 8-byte words */
        int k = c->info->kind;
        const char *fn = k == PS_K_SEND      ? "ps_loop_send"
                         : k == PS_K_RECEIVE ? "ps_loop_receive"
                         : k == PS_K_BSEND   ? "ps_loop_bsend"
                                             : "ps_loop_breceive";
        gline(g, line, "%s((int)(%s), (double)(%s));", fn, v[0], v[1]);
        break;
    }
    case PS_K_WAIT:
        gline(g, line, "ps_waitall();");
        break;
    case PS_K_SECTION: {
        const ps_tok *t = arg_tok(g, c, 0);
        char *name;
        if (c->args[0].b == c->args[0].a + 1 && t->kind == PS_TK_STRING)
            name = ps_xstrdup(a[0]);
        else if (c->args[0].b == c->args[0].a + 1 && t->kind == PS_TK_IDENT)
            name = ps_xasprintf("\"%s\"", a[0]);
        else {
            rc = gerr(g, t, "\\SECTION needs a name: an identifier or a string literal");
            break;
        }
        gline(g, line, "{");
        gpp(g, "#if PS_SECTIONS");
        gline(g, line, "ps_section_begin(%s);", name);
        gpp(g, "#endif");
        if (!(rc = gen_block(g, c, ctx))) {
            int l2 = g->t[c->rbrace].line;
            gpp(g, "#if PS_SECTIONS");
            gline(g, l2, "ps_section_end(%s);", name);
            gpp(g, "#endif");
            gline(g, l2, "}");
        }
        free(name);
        break;
    }
    case PS_K_DATA_MOVE:
        /* data movement belongs to the comm+data and full variants; plain C
         * inside is data movement, not computation */
        gpp(g, "#if PS_VARIANT >= 1");
        gline(g, line, "{ double ps__d%d = (double)(%s); ps_data_move_begin();", K, v[0]);
        if (!(rc = gen_block(g, c, (ctx & ~CTX_COMPUTE) | CTX_NOGUARD | CTX_IN_DATA))) {
            gline(g, g->t[c->rbrace].line, "ps_data_move_end(ps__d%d); }", K);
            gpp(g, "#else");
            gline(g, g->t[c->rbrace].line, ";");
            gpp(g, "#endif");
        }
        break;
    case PS_K_KEEP:
        /* plain C kept in every variant; constructs inside keep their class */
        if (ctx & (CTX_IN_COMPUTE | CTX_IN_DATA)) {
            rc = gerr(g, nt,
                      "\\KEEP inside \\%s: the block is compiled in the %s only, so nothing in it can be kept "
                      "in every variant; move the \\KEEP out of the block",
                      ctx & CTX_IN_COMPUTE ? "COMPUTE" : "DATA_MOVE",
                      ctx & CTX_IN_COMPUTE ? "full program" : "comm+data and full variants");
            break;
        }
        rc = gen_block(g, c, ctx | CTX_NOGUARD);
        break;
    case PS_K_COMPUTE: {
        /* the whole block is computation: full variant only */
        const ps_node *bad = comm_inside(&c->kids);
        if (bad) {
            rc = gerr(g, &g->t[bad->name_tok],
                      "\\%s inside \\COMPUTE: the block is compiled in the full variant only, so the "
                      "comm and data variants would not %s; move it out of the block",
                      bad->info->name,
                      bad->info->kind == PS_K_DATA_MOVE ? "move these data" : "run it");
            break;
        }
        gpp(g, "#if PS_VARIANT == 2");
        if (!(rc = gen_block(g, c, ctx | CTX_NOGUARD | CTX_IN_COMPUTE))) {
            gpp(g, "#else");
            gline(g, g->t[c->rbrace].line, ";");
            gpp(g, "#endif");
        }
        break;
    }
    default:
        rc = gerr(g, nt, "internal error: construct \\%s has no translation", cname);
    }
    for (int i = 0; i < 6; i++) free(a[i]);
    for (int i = 0; i < 6; i++) free(v[i]);
    free(b.s);
    return rc;
}

/* ---- plain C: computation or structure -------------------------------------
 * Between \OPEN0 and \CLOSE0 (and in \LOOP bodies anywhere) a plain C
 * statement is computation, compiled in the full variant only, unless every
 * variant needs it: declarations, jumps, runtime calls, calls of this file's
 * communicating functions, assignments of the names that messages depend on,
 * and statements that hold a construct.  docs/LANGUAGE.md states the rules. */

static int ident_in(const char *s, size_t n, const char *const *set)
{
    for (; *set; set++)
        if (strlen(*set) == n && !memcmp(*set, s, n)) return 1;
    return 0;
}

static const char *const type_words[] = {
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool", "bool",
    "_Complex", "const", "volatile", "static", "register", "extern", "struct", "union", "enum", "typedef",
    "auto", "inline", "size_t", "ssize_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
    "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "FILE", "_Atomic", "_Alignas",
    "_Static_assert", "__typeof__", "typeof", "__extension__", NULL};
static const char *const keep_words[] = {"return", "break", "continue", "goto", "case", "default", NULL};
static const char *const stmt_words[] = {"if",     "for",  "while",   "do",      "switch", "return", "break",
                                         "continue", "goto", "else",  "case",    "default", "sizeof", NULL};

/* A declaration stays in every variant (later code may use the name). */
static int is_declaration(gen *g, size_t a, size_t b)
{
    size_t k0 = ps_next_sig(g->p, a);
    if (k0 >= b) return 0;
    const ps_tok *t0 = &g->t[k0];
    if (t0->kind != PS_TK_IDENT) return 0;
    const char *s0 = g->src + t0->off;
    if (ident_in(s0, t0->len, type_words)) return 1;
    if (ident_in(s0, t0->len, stmt_words)) return 0;
    size_t k1 = ps_next_sig(g->p, k0 + 1);
    if (k1 >= b) return 0;
    if (g->t[k1].kind == PS_TK_IDENT) return 1;      /* T x ... */
    if (!ps_tok_is(g->src, &g->t[k1], '*')) return 0;
    size_t k = k1;
    while (k < b && ps_tok_is(g->src, &g->t[k], '*')) k = ps_next_sig(g->p, k + 1);
    if (k >= b || g->t[k].kind != PS_TK_IDENT) return 0;
    k = ps_next_sig(g->p, k + 1);
    return k < b && g->t[k].kind == PS_TK_PUNCT && strchr("=;,[)", g->src[g->t[k].off]);
}

/* Calls of the runtime's communication functions: a function of the file
 * that makes one communicates. */
static const char *const comm_prefixes[] = {
    "ps_allreduce", "ps_send", "ps_recv", "ps_isend", "ps_irecv", "ps_wait", "ps_barrier", "ps_tree_",
    "ps_exchange", "ps_communicate", "ps_multibcast", "ps_visible_sync", "ps_loop_", NULL};
/* Runtime functions that belong to the computation: kernels, random data,
 * the clock, and ps_abort (a failed check of computed results). */
static const char *const compute_prefixes[] = {"ps_work", "ps_compute", "ps_scalprod", "ps_matvecprod", "ps_matprod",
                                               "ps_random", "ps_now", "ps_abort", NULL};

static int has_prefix(const char *s, size_t n, const char *const *pre)
{
    for (; *pre; pre++)
        if (n >= strlen(*pre) && !memcmp(s, *pre, strlen(*pre))) return 1;
    return 0;
}

/* Is token k an identifier followed by '(' (a call or a function's name)? */
static int is_call(gen *g, size_t k, size_t b)
{
    if (g->t[k].kind != PS_TK_IDENT) return 0;
    size_t n = ps_next_sig(g->p, k + 1);
    return n < b && ps_tok_is(g->src, &g->t[n], '(');
}

/* A statement every variant needs because of what it calls or names: a
 * runtime function (ps_*, except the computational ones), a function of this
 * file that communicates, or PS_VARIANT (the program selects by itself). */
static int needed_call(gen *g, size_t a, size_t b)
{
    for (size_t k = a; k < b; k++) {
        const ps_tok *t = &g->t[k];
        if (t->kind != PS_TK_IDENT) continue;
        const char *s = g->src + t->off;
        if (t->len == 10 && !memcmp(s, "PS_VARIANT", 10)) return 1;
        if (t->len > 3 && !memcmp(s, "ps_", 3) && !has_prefix(s, t->len, compute_prefixes)) return 1;
        if (is_call(g, k, b) && ns_has(&g->commfns, s, t->len)) return 1;
    }
    return 0;
}

static int keeps_control(gen *g, size_t a, size_t b)
{
    size_t k0 = ps_next_sig(g->p, a);
    if (k0 >= b) return 1;
    const ps_tok *t0 = &g->t[k0];
    if (ps_tok_is(g->src, t0, ';')) return 1;
    if (t0->kind == PS_TK_IDENT && ident_in(g->src + t0->off, t0->len, keep_words)) return 1;
    return needed_call(g, a, b);
}

/* If [a, b) is `x = ...`, `x op= ...`, `x++`, `x--`, `++x` or `--x` with x a
 * plain name: the token of x, and in *rhs the first token after the
 * operator.  NOTOK otherwise. */
static size_t assign_target(gen *g, size_t a, size_t b, size_t *rhs)
{
    size_t k = ps_next_sig(g->p, a);
    if (k >= b) return NOTOK;
    const ps_tok *t = &g->t[k];
    if (t->kind == PS_TK_PUNCT && (g->src[t->off] == '+' || g->src[t->off] == '-')) {
        size_t k2 = ps_next_sig(g->p, k + 1);   /* ++x (the lexer gives one char per token) */
        if (k2 >= b || k2 != k + 1 || !ps_tok_is(g->src, &g->t[k2], g->src[t->off])) return NOTOK;
        size_t x = ps_next_sig(g->p, k2 + 1);
        if (x >= b || g->t[x].kind != PS_TK_IDENT) return NOTOK;
        *rhs = x + 1;
        return x;
    }
    if (t->kind != PS_TK_IDENT || ident_in(g->src + t->off, t->len, stmt_words)) return NOTOK;
    size_t o = ps_next_sig(g->p, k + 1);
    if (o >= b || g->t[o].kind != PS_TK_PUNCT) return NOTOK;
    char c0 = g->src[g->t[o].off];
    char c1 = o + 1 < b && g->t[o + 1].kind == PS_TK_PUNCT ? g->src[g->t[o + 1].off] : 0;
    char c2 = o + 2 < b && g->t[o + 2].kind == PS_TK_PUNCT ? g->src[g->t[o + 2].off] : 0;
    if (c0 == '=' && c1 != '=') *rhs = o + 1;
    else if (strchr("+-*/%&|^", c0) && c1 == '=') *rhs = o + 2;
    else if ((c0 == '+' || c0 == '-') && c1 == c0) *rhs = o + 2;
    else if ((c0 == '<' || c0 == '>') && c1 == c0 && c2 == '=') *rhs = o + 3;
    else return NOTOK;
    return k;
}

/* An assignment to a name that messages depend on stays in every variant. */
static int size_assignment(gen *g, size_t a, size_t b)
{
    size_t rhs;
    size_t x = assign_target(g, a, b, &rhs);
    return x != NOTOK && ns_has(&g->sizes, g->src + g->t[x].off, g->t[x].len);
}

/* ---- what every variant needs: the analysis before generating ------------- */

typedef struct chunk { size_t a, b; } chunk;
typedef struct chunks { chunk *v; size_t n, cap; } chunks;

static void chunk_push(chunks *cs, size_t a, size_t b)
{
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? 2 * cs->cap : 64;
        cs->v = ps_xrealloc(cs->v, cs->cap * sizeof *cs->v);
    }
    cs->v[cs->n++] = (chunk){a, b};
}

/* Adds the identifiers of [a, b) to set; 1 if any was new. */
static int add_idents(gen *g, nameset *set, size_t a, size_t b)
{
    int changed = 0;
    for (size_t k = a; k < b; k++)
        if (g->t[k].kind == PS_TK_IDENT) changed |= ns_add(set, g->src + g->t[k].off, g->t[k].len);
    return changed;
}

/* A declaration `T a = x, *b, c[n] = {...}`: for each declarator whose name
 * is a size name, adds the names its initializer reads; 1 if any was new.
 * The name is the last identifier outside brackets before '=' (or ','). */
static int decl_inits(gen *g, nameset *set, size_t a, size_t b)
{
    int changed = 0, depth = 0;
    size_t name = NOTOK, init = NOTOK;
    for (size_t k = a; k <= b; k++) {
        int end = k == b;
        const ps_tok *t = end ? NULL : &g->t[k];
        char ch = !end && t->kind == PS_TK_PUNCT ? g->src[t->off] : 0;
        if (ch == '(' || ch == '[' || ch == '{') depth++;
        else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) depth--;
        if (end || (depth == 0 && (ch == ',' || ch == ';'))) {
            if (init != NOTOK && name != NOTOK && ns_has(set, g->src + g->t[name].off, g->t[name].len))
                changed |= add_idents(g, set, init, k);
            name = init = NOTOK;
        } else if (init == NOTOK && depth == 0 && ch == '=') {
            init = k + 1;
        } else if (init == NOTOK && depth == 0 && t->kind == PS_TK_IDENT) {
            name = k;
        }
    }
    return changed;
}

/* Is argument i of a construct of this kind a buffer (a pointer whose
 * address, not value, the construct needs)? */
static int buffer_arg(int kind, int i)
{
    switch (kind) {
    case PS_K_COMMUNICATE:
    case PS_K_EXCHANGE: return i >= 3;
    case PS_K_TREE_BCAST:
    case PS_K_TREE_COLLECT_VEC:
    case PS_K_TREE_DISTRIB_VEC:
    case PS_K_INIT_ARRAY: return i == 0;
    default: return 0;
    }
}

/* The names of a construct's argument that are values: all but a buffer
 * argument's base (its first name that is not a type or a call), whose
 * address is what counts. */
static void add_value_idents(gen *g, nameset *set, const ps_node *x, int i)
{
    size_t a = x->args[i].a, b = x->args[i].b;
    int skip = buffer_arg(x->info->kind, i);
    for (size_t k = a; k < b; k++) {
        const ps_tok *t = &g->t[k];
        if (t->kind != PS_TK_IDENT) continue;
        if (skip && !is_call(g, k, b) && !ident_in(g->src + t->off, t->len, type_words)) {
            skip = 0;
            continue;
        }
        ns_add(set, g->src + t->off, t->len);
    }
}

/* Splits every run of plain C into statements (at ';' outside parentheses);
 * seeds the size names with the arguments of the constructs that every
 * variant runs, the headers of control statements around constructs and the
 * statements kept for their calls (the value names: the arguments without
 * the buffers' bases, and the headers). */
static void collect(gen *g, const ps_nodes *ns, chunks *cs, int in_compute)
{
    for (size_t i = 0; i < ns->n; i++) {
        const ps_node *x = ns->v[i];
        if (x->kind == PS_N_TOKENS) {
            size_t a = x->toks.a;
            int paren = 0;
            for (size_t k = x->toks.a; k < x->toks.b; k++) {
                const ps_tok *t = &g->t[k];
                if (t->kind != PS_TK_PUNCT) continue;
                char ch = g->src[t->off];
                if (ch == '(' || ch == '[') paren++;
                else if ((ch == ')' || ch == ']') && paren > 0) paren--;
                else if (ch == ';' && paren == 0) {
                    chunk_push(cs, a, k + 1);
                    a = k + 1;
                }
            }
            const ps_node *nx = i + 1 < ns->n ? ns->v[i + 1] : NULL;
            if (nx && (nx->kind == PS_N_CONSTRUCT || nx->has_construct) && !in_compute) { /* if (...) \SEND */
                add_idents(g, &g->sizes, a, x->toks.b);
                add_idents(g, &g->vals, a, x->toks.b);
            } else if (a < x->toks.b) {
                chunk_push(cs, a, x->toks.b);
            }
        } else if (x->kind == PS_N_CONSTRUCT) {
            int inner = in_compute || x->info->kind == PS_K_COMPUTE;
            if (!inner && !is_compute_kind(x->info->kind))
                for (int j = 0; j < x->nargs; j++) {
                    add_idents(g, &g->sizes, x->args[j].a, x->args[j].b);
                    add_value_idents(g, &g->vals, x, j);
                }
            collect(g, &x->kids, cs, inner);
        } else {
            collect(g, &x->kids, cs, in_compute);
        }
    }
}

static int body_communicates(gen *g, const ps_node *body)
{
    if (body->has_construct) return 1;
    for (size_t k = body->toks.a; k < body->toks.b; k++) {
        const ps_tok *t = &g->t[k];
        if (t->kind != PS_TK_IDENT) continue;
        if (has_prefix(g->src + t->off, t->len, comm_prefixes)) return 1;
        if (is_call(g, k, body->toks.b) && ns_has(&g->commfns, g->src + t->off, t->len)) return 1;
    }
    return 0;
}

/* The functions defined in this file that communicate: their body holds a
 * construct, calls a runtime communication function or calls such a
 * function (to a fixpoint). */
static void find_commfns(gen *g)
{
    const ps_nodes *top = &g->p->top;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i + 1 < top->n; i++) {
            const ps_node *x = top->v[i], *body = top->v[i + 1];
            if (x->kind != PS_N_TOKENS || body->kind != PS_N_BRACE) continue;
            /* `name ( ... )` just before the body */
            size_t k = x->toks.b;
            while (k > x->toks.a && (g->t[k - 1].kind == PS_TK_WS || g->t[k - 1].kind == PS_TK_COMMENT)) k--;
            if (k == x->toks.a || !ps_tok_is(g->src, &g->t[k - 1], ')')) continue;
            int depth = 0;
            size_t m = k;
            while (m > x->toks.a) {
                m--;
                if (ps_tok_is(g->src, &g->t[m], ')')) depth++;
                else if (ps_tok_is(g->src, &g->t[m], '(') && --depth == 0) break;
            }
            if (depth != 0) continue;
            while (m > x->toks.a && (g->t[m - 1].kind == PS_TK_WS || g->t[m - 1].kind == PS_TK_COMMENT)) m--;
            if (m == x->toks.a || g->t[m - 1].kind != PS_TK_IDENT) continue;
            const ps_tok *name = &g->t[m - 1];
            if (ns_has(&g->commfns, g->src + name->off, name->len)) continue;
            if (body_communicates(g, body)) changed |= ns_add(&g->commfns, g->src + name->off, name->len);
        }
    }
}

/* ---- \OPEN0's set-up and the use-def walk ------------------------------------
 * The set-up: the statements after \OPEN0 (in its block) up to the first one
 * that is part of the workload: a construct other than \VEC, \MAT,
 * \INIT_ARRAY and a \KEEP of plain C, or plain C that communicates.  It is
 * kept in every variant and ends with ps_setup_end(), which starts the timed
 * interval, so allocation, initialization and first touch of memory are the
 * same in every variant and outside the time they are compared by.
 *
 * The use-def walk: every name read by code the comm or comm+data variant
 * runs must have its definitions there too, or a kept statement uses a
 * pointer or a value the variant never set up.  Over the names of the whole
 * file, to a fixpoint: a computation statement stays when it assigns such a
 * name (x = ..., x += ..., x++), stores a pointer through one
 * (p[i] = malloc(...)), or may set one the walk cannot see into (f(&x), a
 * store into an array of values messages depend on): the last two are kept
 * with a note, as the walk cannot tell. */

typedef struct unit {
    size_t a, b;        /* the statement's tokens, as flush_stmt sees them */
    int    state;       /* U_KEPT, U_CANDIDATE, U_DROPPED */
    int    keep;        /* a candidate the walk keeps */
    size_t note_tok;    /* kept because it may set this name (NOTOK: decided) */
    int    note_vals;   /* ... a name messages depend on */
} unit;
enum { U_KEPT = 1, U_CANDIDATE, U_DROPPED };
enum { D_NONE, D_UNDECIDED, D_KEEP };

static const char *const alloc_fns[] = {"malloc",  "calloc", "realloc", "reallocarray", "aligned_alloc",
                                        "posix_memalign", "memalign", "valloc", "pvalloc", "strdup",
                                        "strndup", "mmap",   "alloca",  "ps_vec_alloc", "ps_mat_alloc",
                                        "ps_scratch", NULL};

static int punct_is(gen *g, size_t k, char c)
{
    return g->t[k].kind == PS_TK_PUNCT && g->src[g->t[k].off] == c;
}

/* Is token k + 1 the character c2 right after token k (==, +=, ->, ++)? */
static int joined(gen *g, size_t k, char c2)
{
    const ps_tok *a = &g->t[k], *b = &g->t[k + 1];
    return a->kind != PS_TK_EOF && b->kind == PS_TK_PUNCT && b->off == a->off + a->len && g->src[b->off] == c2;
}

/* The token before k that is not blank or a comment, not before lo. */
static size_t prev_sig(const gen *g, size_t k, size_t lo)
{
    while (k > lo) {
        k--;
        if (g->t[k].kind != PS_TK_WS && g->t[k].kind != PS_TK_COMMENT) return k;
    }
    return NOTOK;
}

static int tok_in(gen *g, size_t k, const char *const *set)
{
    return g->t[k].kind == PS_TK_IDENT && ident_in(g->src + g->t[k].off, g->t[k].len, set);
}

static int ns_has_tok(const nameset *ns, gen *g, size_t k) { return ns_has(ns, g->src + g->t[k].off, g->t[k].len); }

static int continues_at(gen *g, size_t a, size_t b, size_t k, int after_brace)
{
    size_t n = ps_next_sig(g->p, k);
    const ps_tok *t = &g->t[n];
    if (t->kind == PS_TK_IDENT && t->len == 4 && !memcmp(g->src + t->off, "else", 4)) return 1;
    if (!after_brace) return 0;
    if (t->kind == PS_TK_PUNCT && strchr(";,)=.[-", g->src[t->off])) return 1;
    if (t->kind == PS_TK_IDENT && t->len == 5 && !memcmp(g->src + t->off, "while", 5)) return 1;
    return is_declaration(g, a, b);
}

/* The statements of a node sequence from node i0, split as gen_compute_seq
 * splits them: fn(a, b, NULL, complete) for a plain statement [a, b) -
 * complete when ';' or '}' ended it, not a preprocessor line or the end of
 * the sequence - and fn(a, b, x, 1) for a node holding a construct, [a, b)
 * the head of its statement (`if (me == 0)`; a == b: none).  fn returns
 * nonzero to stop. */
typedef int (*stmt_fn)(gen *g, size_t a, size_t b, const ps_node *x, int complete, void *arg);

static int each_stmt(gen *g, const ps_nodes *ns, size_t i0, stmt_fn fn, void *arg)
{
    size_t a = 0, b = 0;
    int paren = 0;
    for (size_t i = i0; i < ns->n; i++) {
        const ps_node *x = ns->v[i];
        if (x->kind == PS_N_TOKENS) {
            for (size_t k = x->toks.a; k < x->toks.b; k++) {
                const ps_tok *t = &g->t[k];
                if (t->kind == PS_TK_WS || t->kind == PS_TK_COMMENT) {
                    if (b > a) b = k + 1;
                    continue;
                }
                if (t->kind == PS_TK_PP) {
                    if (b > a && fn(g, a, b, NULL, 0, arg)) return 1;
                    a = b = 0;
                    paren = 0;
                    continue;
                }
                if (b <= a) a = k;
                b = k + 1;
                if (t->kind != PS_TK_PUNCT) continue;
                char ch = g->src[t->off];
                if (ch == '(' || ch == '[') paren++;
                else if ((ch == ')' || ch == ']') && paren > 0) paren--;
                else if (ch == ';' && paren == 0 && !continues_at(g, a, b, k + 1, 0)) {
                    if (fn(g, a, b, NULL, 1, arg)) return 1;
                    a = b = 0;
                }
            }
        } else if (x->kind == PS_N_BRACE && !x->has_construct) {
            if (b <= a) a = x->toks.a;
            b = x->toks.b;
            if (paren == 0 && !continues_at(g, a, b, x->toks.b, 1)) {
                if (fn(g, a, b, NULL, 1, arg)) return 1;
                a = b = 0;
            }
        } else {
            if (fn(g, a, b, x, 1, arg)) return 1;
            a = b = 0;
            paren = 0;
        }
    }
    return b > a ? fn(g, a, b, NULL, 0, arg) : 0;
}

/* Does [a, b) send or receive: a runtime communication call or a call of a
 * function of this file that communicates? */
static int communicates(gen *g, size_t a, size_t b)
{
    for (size_t k = a; k < b; k++) {
        const ps_tok *t = &g->t[k];
        if (t->kind != PS_TK_IDENT) continue;
        if (has_prefix(g->src + t->off, t->len, comm_prefixes)) return 1;
        if (is_call(g, k, b) && ns_has(&g->commfns, g->src + t->off, t->len)) return 1;
    }
    return 0;
}

/* A node that belongs to the set-up: plain C that does not communicate,
 * \VEC, \MAT, \INIT_ARRAY, and blocks or \KEEP of nothing else. */
static int setup_node(gen *g, const ps_node *x)
{
    if (x->kind == PS_N_TOKENS) return !communicates(g, x->toks.a, x->toks.b);
    if (x->kind == PS_N_CONSTRUCT) {
        int k = x->info->kind;
        if (k == PS_K_VEC || k == PS_K_MAT || k == PS_K_INIT_ARRAY) return 1;
        if (k != PS_K_KEEP) return 0;
    }
    for (size_t i = 0; i < x->kids.n; i++)
        if (!setup_node(g, x->kids.v[i])) return 0;
    return 1;
}

typedef struct setup_scan { size_t end; int seen; } setup_scan;

static int setup_step(gen *g, size_t a, size_t b, const ps_node *x, int complete, void *arg)
{
    (void)complete;
    setup_scan *s = arg;
    if (!x) {
        if (!communicates(g, a, b)) {
            s->seen = 1;
            return 0;
        }
        s->end = a;
        return 1;
    }
    /* \CLOSE0 before anything timed: nothing is set-up, the old rules hold */
    if (x->kind == PS_N_CONSTRUCT && x->info->kind == PS_K_CLOSE0) return 1;
    if (setup_node(g, x)) {
        s->seen = 1;
        return 0;
    }
    s->end = b > a ? a : x->toks.a;
    return 1;
}

static int find_open0(gen *g, const ps_nodes *ns)
{
    for (size_t i = 0; i < ns->n; i++) {
        const ps_node *x = ns->v[i];
        if (x->kind == PS_N_CONSTRUCT && x->info->kind == PS_K_OPEN0) {
            g->open0_tok = x->toks.a;
            setup_scan s = {NOTOK, 0};
            each_stmt(g, ns, i + 1, setup_step, &s);
            g->setup_end_tok = s.seen ? s.end : NOTOK;
            return 1;
        }
        if (find_open0(g, &x->kids)) return 1;
    }
    return 0;
}

static void find_setup(gen *g)
{
    g->open0_tok = g->setup_end_tok = NOTOK;
    find_open0(g, &g->p->top);
}

/* Is token k in the set-up? */
static int in_setup(gen *g, size_t k)
{
    return g->setup_end_tok != NOTOK && k != NOTOK && k > g->open0_tok && k < g->setup_end_tok;
}

/* ---- declarations: which names are local, which are floating-point ---------- */

typedef void (*decl_fn)(gen *g, size_t name, int float_scalar, void *arg);

/* The significant token after m, or b when there is none before b (at the
 * end of the tokens ps_next_sig stays on the last one). */
static size_t next_in(const gen *g, size_t m, size_t b)
{
    size_t n = ps_next_sig(g->p, m + 1);
    return n > m ? n : b;
}

/* The names declared in [a, b): after a run of type words that starts a
 * declaration or a parameter (`long i = 0, n`, `double *p`, `(int a,
 * double b)`), each declarator's name, and whether it is a floating-point
 * scalar (not a pointer, an array or a function).  Types named by a typedef
 * or a macro are not recognised: those names count as unknown. */
static void each_declared(gen *g, size_t a, size_t b, decl_fn fn, void *arg)
{
    for (size_t k = a; k < b; k++) {
        if (!tok_in(g, k, type_words)) continue;
        size_t p = prev_sig(g, k, a);
        if (p != NOTOK && !(g->t[p].kind == PS_TK_PUNCT && strchr(";{}(,", g->src[g->t[p].off]))) continue;
        int isfloat = 0;
        size_t m = k;
        while (m < b && tok_in(g, m, type_words)) {
            const ps_tok *t = &g->t[m];
            const char *s = g->src + t->off;
            if ((t->len == 6 && !memcmp(s, "double", 6)) || (t->len == 5 && !memcmp(s, "float", 5))) isfloat = 1;
            int tag = (t->len == 6 && !memcmp(s, "struct", 6)) || (t->len == 5 && !memcmp(s, "union", 5)) ||
                      (t->len == 4 && !memcmp(s, "enum", 4));
            m = next_in(g, m, b);
            if (tag && m < b && g->t[m].kind == PS_TK_IDENT) m = next_in(g, m, b);
        }
        for (;;) {
            int stars = 0;
            while (m < b && (punct_is(g, m, '*') || tok_in(g, m, type_words))) {
                stars += punct_is(g, m, '*');
                m = next_in(g, m, b);
            }
            if (m >= b || g->t[m].kind != PS_TK_IDENT) break;
            size_t name = m, n = next_in(g, m, b);
            if (n < b && punct_is(g, n, '(')) break;   /* a function */
            fn(g, name, isfloat && !stars && !(n < b && punct_is(g, n, '[')), arg);
            /* on to the next declarator: past the initializer or dimensions */
            int depth = 0;
            for (m = n; m < b; m = next_in(g, m, b)) {
                if (g->t[m].kind != PS_TK_PUNCT) continue;
                char c = g->src[g->t[m].off];
                if (c == '(' || c == '[' || c == '{') depth++;
                else if (c == ')' || c == ']' || c == '}') {
                    if (depth-- == 0) break;
                } else if (depth == 0 && (c == ',' || c == ';')) break;
            }
            if (m >= b || !punct_is(g, m, ',')) break;
            m = next_in(g, m, b);
            if (m < b && tok_in(g, m, type_words)) break;   /* the next parameter has its own type */
        }
    }
}

static void add_decl_name(gen *g, size_t name, int float_scalar, void *arg)
{
    (void)float_scalar;
    ns_add(arg, g->src + g->t[name].off, g->t[name].len);
}

typedef struct float_scan { nameset floats, other; } float_scan;

static void add_float_name(gen *g, size_t name, int float_scalar, void *arg)
{
    float_scan *f = arg;
    ns_add(float_scalar ? &f->floats : &f->other, g->src + g->t[name].off, g->t[name].len);
}

/* Adds the names [a, b) reads to set: not member names (after . or ->), not
 * names declared in [decl_a, b), type words or keywords; 1 if any was new. */
static int add_free_names(gen *g, nameset *set, size_t decl_a, size_t a, size_t b)
{
    nameset locals = {0};
    each_declared(g, decl_a, b, add_decl_name, &locals);
    int changed = 0;
    for (size_t k = a; k < b; k++) {
        const ps_tok *t = &g->t[k];
        if (t->kind != PS_TK_IDENT || tok_in(g, k, type_words) || tok_in(g, k, stmt_words)) continue;
        size_t p = prev_sig(g, k, a);
        if (p != NOTOK && (punct_is(g, p, '.') || (punct_is(g, p, '>') && p > 0 && punct_is(g, p - 1, '-'))))
            continue;
        if (ns_has(&locals, g->src + t->off, t->len)) continue;
        changed |= ns_add(set, g->src + t->off, t->len);
    }
    ns_free(&locals);
    return changed;
}

/* ---- the walk over the program -------------------------------------------- */

static void walk_node(gen *g, const ps_node *x, int ctx, int drop);

typedef struct walkctx { int ctx, drop; } walkctx;

static int walk_step(gen *g, size_t a, size_t b, const ps_node *x, int complete, void *arg)
{
    const walkctx *w = arg;
    if (b > a) {
        int state;
        if (w->drop) state = U_DROPPED;
        else if (x || !complete || in_setup(g, a) || (w->ctx & CTX_NOGUARD) || !((w->ctx & CTX_COMPUTE) || g->wactive))
            state = U_KEPT;
        else if (is_declaration(g, a, b) || keeps_control(g, a, b) || size_assignment(g, a, b)) state = U_KEPT;
        else state = U_CANDIDATE;
        if (!x) {
            if (g->nunits == g->unitcap) {
                g->unitcap = g->unitcap ? 2 * g->unitcap : 64;
                g->units = ps_xrealloc(g->units, g->unitcap * sizeof *g->units);
            }
            g->units[g->nunits++] = (unit){a, b, state, 0, NOTOK, 0};
        }
        if (state == U_KEPT) add_free_names(g, &g->used, a, a, b);
    }
    if (x) walk_node(g, x, w->ctx, w->drop);
    return 0;
}

static int holds_open0(const ps_nodes *ns);

/* Mirrors gen_nodes: statements where plain C is classified, else the
 * nodes as they are. */
static void walk_nodes(gen *g, const ps_nodes *ns, int ctx, int drop)
{
    if ((ctx & CTX_COMPUTE) || g->wactive || holds_open0(ns)) {
        walkctx w = {ctx, drop};
        each_stmt(g, ns, 0, walk_step, &w);
        return;
    }
    for (size_t i = 0; i < ns->n; i++) {
        const ps_node *x = ns->v[i];
        if (x->kind != PS_N_TOKENS) walk_node(g, x, ctx, drop);
        else if ((ctx & CTX_NOGUARD) && !drop) add_free_names(g, &g->used, x->toks.a, x->toks.a, x->toks.b);
    }
}

static void walk_node(gen *g, const ps_node *x, int ctx, int drop)
{
    if (x->kind == PS_N_CONSTRUCT) {
        int k = x->info->kind;
        if (k == PS_K_OPEN0) {
            g->wactive = 1;
            g->wopen_depth = g->wdepth;
        } else if (k == PS_K_CLOSE0) {
            g->wactive = 0;
        }
        if (!drop && !is_compute_kind(k))
            for (int j = 0; j < x->nargs; j++) add_free_names(g, &g->used, x->args[j].a, x->args[j].a, x->args[j].b);
        if (k == PS_K_LOOP || k == PS_K_COMMUNICATE) ctx |= CTX_COMPUTE;
        else if (k == PS_K_DATA_MOVE) ctx = (ctx & ~CTX_COMPUTE) | CTX_NOGUARD;
        else if (k == PS_K_KEEP) ctx |= CTX_NOGUARD;
        else if (k == PS_K_COMPUTE) drop = 1;
    }
    if (x->kind == PS_N_TOKENS) return;
    g->wdepth++;
    walk_nodes(g, &x->kids, ctx, drop);
    g->wdepth--;
    if (g->wactive && g->wdepth < g->wopen_depth) g->wactive = 0;
}

/* ---- what a computation statement defines ----------------------------------- */

/* The end of the expression that starts at k: ';' or ',' outside brackets,
 * or a closing bracket that opened before it. */
static size_t expr_end(gen *g, size_t k, size_t b)
{
    int depth = 0;
    for (; k < b; k++) {
        if (g->t[k].kind != PS_TK_PUNCT) continue;
        char c = g->src[g->t[k].off];
        if (c == '(' || c == '[' || c == '{') depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (depth-- == 0) return k;
        } else if (depth == 0 && (c == ';' || c == ',')) return k;
    }
    return b;
}

/* Does [a, b) set up a pointer: call an allocation function, take an address
 * (a unary &) or cast to a pointer type? */
static int pointer_setup(gen *g, size_t a, size_t b)
{
    for (size_t k = a; k < b; k++) {
        if (tok_in(g, k, alloc_fns) && is_call(g, k, b)) return 1;
        if (punct_is(g, k, '&') && !joined(g, k, '&') && !(k > a && punct_is(g, k - 1, '&'))) {
            size_t p = prev_sig(g, k, a);
            if (p == NOTOK || (g->t[p].kind == PS_TK_PUNCT && strchr("=(,?:", g->src[g->t[p].off]))) return 1;
        }
        if (punct_is(g, k, ')')) {
            /* ( T * ) */
            size_t p = prev_sig(g, k, a);
            if (p == NOTOK || !punct_is(g, p, '*')) continue;
            while (p != NOTOK && (punct_is(g, p, '*') || g->t[p].kind == PS_TK_IDENT)) p = prev_sig(g, p, a);
            if (p != NOTOK && punct_is(g, p, '(')) return 1;
        }
    }
    return 0;
}

/* The base name of the lvalue that ends before token `end` (x in x = ...,
 * x[i] = ..., x.m = ..., x->m = ..., *x = ...); *store: it is stored
 * through, not assigned.  NOTOK when it is something else. */
static size_t lvalue_before(gen *g, size_t end, size_t lo, int *store)
{
    *store = 0;
    size_t k = prev_sig(g, end, lo);
    while (k != NOTOK) {
        if (punct_is(g, k, ']')) {
            int depth = 0;
            for (;;) {
                if (punct_is(g, k, ']')) depth++;
                else if (punct_is(g, k, '[') && --depth == 0) break;
                if (k == lo) return NOTOK;
                k--;
            }
            *store = 1;
            k = prev_sig(g, k, lo);
            continue;
        }
        if (g->t[k].kind != PS_TK_IDENT) return NOTOK;
        size_t p = prev_sig(g, k, lo);
        if (p != NOTOK && punct_is(g, p, '.')) {
            *store = 1;
            k = prev_sig(g, p, lo);
            continue;
        }
        if (p != NOTOK && punct_is(g, p, '>') && p > lo && punct_is(g, p - 1, '-') && joined(g, p - 1, '>')) {
            *store = 1;
            k = prev_sig(g, p - 1, lo);
            continue;
        }
        if (p != NOTOK && punct_is(g, p, '*')) {
            size_t q = prev_sig(g, p, lo);
            if (q == NOTOK || (g->t[q].kind == PS_TK_PUNCT && strchr(";{}(,=", g->src[g->t[q].off])) ||
                tok_in(g, q, stmt_words))
                *store = 1;
        }
        return k;
    }
    return NOTOK;
}

/* The same for the lvalue that starts at k (after a prefix ++ or --). */
static size_t lvalue_after(gen *g, size_t k, size_t b, int *store)
{
    *store = 0;
    k = ps_next_sig(g->p, k);
    while (k < b && punct_is(g, k, '*')) {
        *store = 1;
        k = ps_next_sig(g->p, k + 1);
    }
    if (k >= b || g->t[k].kind != PS_TK_IDENT) return NOTOK;
    size_t n = ps_next_sig(g->p, k + 1);
    if (n < b && (punct_is(g, n, '[') || punct_is(g, n, '.') || (punct_is(g, n, '-') && joined(g, n, '>'))))
        *store = 1;
    return k;
}

/* What the computation statement [a, b) defines of the names the kernels
 * use: D_KEEP (it assigns one, or stores a pointer through one), D_UNDECIDED
 * (it may set one: *note is the name) or D_NONE. */
static int defines_used(gen *g, size_t a, size_t b, size_t *note, int *note_vals)
{
    nameset locals = {0};
    each_declared(g, a, b, add_decl_name, &locals);
    int res = D_NONE;
    for (size_t k = a; k < b && res != D_KEEP; k++) {
        if (g->t[k].kind != PS_TK_PUNCT) continue;
        char c = g->src[g->t[k].off];
        size_t base = NOTOK, rhs = NOTOK;
        int store = 0, addr = 0;
        if (c == '=') {
            if (joined(g, k, '=')) {        /* == */
                k++;
                continue;
            }
            size_t end = k;
            if (k > a && g->t[k - 1].kind == PS_TK_PUNCT && joined(g, k - 1, '=')) {
                char pc = g->src[g->t[k - 1].off];
                if (pc == '!' || pc == '=') continue;
                if (pc == '<' || pc == '>') {
                    if (!(k - 1 > a && punct_is(g, k - 2, pc) && joined(g, k - 2, pc))) continue;   /* <= >= */
                    end = k - 2;
                } else if (strchr("+-*/%&|^", pc)) {
                    end = k - 1;
                }
            }
            base = lvalue_before(g, end, a, &store);
            rhs = k + 1;
        } else if ((c == '+' || c == '-') && joined(g, k, c)) {
            size_t p = prev_sig(g, k, a);
            int postfix = p != NOTOK && (g->t[p].kind == PS_TK_IDENT || punct_is(g, p, ')') || punct_is(g, p, ']'));
            base = postfix ? lvalue_before(g, k, a, &store) : lvalue_after(g, k + 2, b, &store);
            k++;
        } else if (c == '&' && !joined(g, k, '&') && !(k > a && punct_is(g, k - 1, '&'))) {
            /* &x as an argument of a call: the callee may set x */
            size_t p = prev_sig(g, k, a);
            if (p == NOTOK || !(punct_is(g, p, '(') || punct_is(g, p, ','))) continue;
            int depth = 0;
            size_t q = p;
            for (; q != NOTOK; q = prev_sig(g, q, a)) {
                if (punct_is(g, q, ')')) depth++;
                else if (punct_is(g, q, '(') && depth-- == 0) break;
            }
            size_t callee = q == NOTOK ? NOTOK : prev_sig(g, q, a);
            if (callee == NOTOK || g->t[callee].kind != PS_TK_IDENT || tok_in(g, callee, stmt_words)) continue;
            if (g->t[callee].len > 3 && !memcmp(g->src + g->t[callee].off, "ps_", 3) &&
                !tok_in(g, callee, alloc_fns))
                continue;   /* the runtime's own calls are classified by what they are */
            base = lvalue_after(g, k + 1, b, &store);
            addr = tok_in(g, callee, alloc_fns) ? 2 : 1;
        } else {
            continue;
        }
        if (base == NOTOK || ns_has_tok(&locals, g, base) || !ns_has_tok(&g->used, g, base)) continue;
        if (!store) {
            if (ns_has_tok(&g->floats, g, base) && !ns_has_tok(&g->sizes, g, base)) continue;
            if (addr == 1) {
                if (res == D_NONE) {
                    res = D_UNDECIDED;
                    *note = base;
                    *note_vals = 0;
                }
                continue;
            }
            res = D_KEEP;
        } else if (rhs != NOTOK && pointer_setup(g, rhs, expr_end(g, rhs, b))) {
            res = D_KEEP;
        } else if (ns_has_tok(&g->vals, g, base) && res == D_NONE) {
            res = D_UNDECIDED;
            *note = base;
            *note_vals = 1;
        }
    }
    ns_free(&locals);
    return res;
}

/* A function of this file: its name, where its parameters start, its body. */
typedef struct fndef { size_t name, params; const ps_node *body; int done; } fndef;

static size_t find_fndefs(gen *g, fndef **out)
{
    const ps_nodes *top = &g->p->top;
    size_t n = 0;
    *out = NULL;
    for (size_t i = 0; i + 1 < top->n; i++) {
        const ps_node *x = top->v[i], *body = top->v[i + 1];
        if (x->kind != PS_N_TOKENS || body->kind != PS_N_BRACE) continue;
        size_t k = prev_sig(g, x->toks.b, x->toks.a);
        if (k == NOTOK || !punct_is(g, k, ')')) continue;
        int depth = 0;
        size_t m = k;
        for (; m != NOTOK; m = prev_sig(g, m, x->toks.a)) {
            if (punct_is(g, m, ')')) depth++;
            else if (punct_is(g, m, '(') && --depth == 0) break;
        }
        size_t name = m == NOTOK ? NOTOK : prev_sig(g, m, x->toks.a);
        if (name == NOTOK || g->t[name].kind != PS_TK_IDENT) continue;
        *out = ps_xrealloc(*out, (n + 1) * sizeof **out);
        (*out)[n++] = (fndef){name, m, body, 0};
    }
    return n;
}

/* The use-def walk (see the top of this section). */
static void slice(gen *g)
{
    /* which names are floating-point scalars everywhere they are declared */
    float_scan fs = {{0}, {0}};
    each_declared(g, 0, g->p->toks.n, add_float_name, &fs);
    for (size_t i = 0; i < fs.floats.n; i++)
        if (!ns_has(&fs.other, fs.floats.s[i], fs.floats.len[i])) ns_add(&g->floats, fs.floats.s[i], fs.floats.len[i]);
    ns_free(&fs.floats);
    ns_free(&fs.other);
    /* the macros #defined in the file (sizes made of them are known early) */
    for (size_t k = 0; k < g->p->toks.n; k++) {
        const ps_tok *t = &g->t[k];
        if (t->kind != PS_TK_PP) continue;
        const char *s = g->src + t->off, *e = s + t->len;
        s++;
        while (s < e && (*s == ' ' || *s == '\t')) s++;
        if (e - s < 7 || memcmp(s, "define", 6) || (s[6] != ' ' && s[6] != '\t')) continue;
        s += 7;
        while (s < e && (*s == ' ' || *s == '\t')) s++;
        const char *n = s;
        while (s < e && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            s++;
        if (s > n) ns_add(&g->macros, n, (size_t)(s - n));
    }
    for (size_t i = 0; i < g->sizes.n; i++) ns_add(&g->used, g->sizes.s[i], g->sizes.len[i]);
    g->wactive = g->wdepth = g->wopen_depth = 0;
    walk_nodes(g, &g->p->top, 0, 0);

    fndef *fns;
    size_t nfns = find_fndefs(g, &fns);
    for (int changed = 1; changed;) {
        changed = 0;
        /* a function the kernels call reads what its body reads */
        for (size_t i = 0; i < nfns; i++)
            if (!fns[i].done && ns_has_tok(&g->used, g, fns[i].name)) {
                fns[i].done = 1;
                add_free_names(g, &g->used, fns[i].params, fns[i].body->toks.a, fns[i].body->toks.b);
                changed = 1;
            }
        for (size_t i = 0; i < g->nunits; i++) {
            unit *u = &g->units[i];
            if (u->state != U_CANDIDATE || u->keep) continue;
            size_t note = NOTOK;
            int vals = 0;
            int d = defines_used(g, u->a, u->b, &note, &vals);
            if (d == D_NONE) continue;
            u->keep = 1;
            u->note_tok = d == D_UNDECIDED ? note : NOTOK;
            u->note_vals = vals;
            add_free_names(g, &g->used, u->a, u->a, u->b);
            changed = 1;
        }
    }
    free(fns);
    /* tell about the statements kept only because the walk cannot tell */
    for (size_t i = 0; i < g->nunits; i++) {
        unit *u = &g->units[i];
        if (!u->keep || u->note_tok == NOTOK) continue;
        size_t note;
        int vals;
        if (defines_used(g, u->a, u->b, &note, &vals) == D_KEEP) continue;
        const ps_tok *t = &g->t[u->a], *n = &g->t[u->note_tok];
        ps_diag_note(g->d, t->line, t->col,
                     "kept in every white-box variant: it may set '%.*s', which %s, and the generator cannot tell "
                     "whether it does; put it in \\KEEP { } to keep it without this note, or in \\COMPUTE { } if "
                     "only the full program needs it",
                     (int)n->len, g->src + n->off,
                     u->note_vals ? "message sizes, partners or the conditions around messages depend on"
                                  : "the communication or data-movement kernel uses");
    }
}

/* The statement of plain C that starts at token k, or NULL. */
static const unit *unit_at(gen *g, size_t k)
{
    size_t lo = 0, hi = g->nunits;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->units[mid].a < k) lo = mid + 1;
        else hi = mid;
    }
    return lo < g->nunits && g->units[lo].a == k ? &g->units[lo] : NULL;
}

static void analyze(gen *g)
{
    find_commfns(g);
    chunks cs = {0};
    collect(g, &g->p->top, &cs, 0);
    for (size_t i = 0; i < cs.n; i++)
        if (needed_call(g, cs.v[i].a, cs.v[i].b)) add_idents(g, &g->sizes, cs.v[i].a, cs.v[i].b);
    /* what the size names are computed from, to a fixpoint: the right-hand
     * side of an assignment to one, the initializers of a declaration of one */
    nameset *sets[2] = {&g->sizes, &g->vals};
    for (int s = 0; s < 2; s++)
        for (int changed = 1; changed;) {
            changed = 0;
            for (size_t i = 0; i < cs.n; i++) {
                size_t a = cs.v[i].a, b = cs.v[i].b, rhs;
                size_t x = assign_target(g, a, b, &rhs);
                if (x != NOTOK) {
                    if (ns_has(sets[s], g->src + g->t[x].off, g->t[x].len)) changed |= add_idents(g, sets[s], rhs, b);
                } else if (is_declaration(g, a, b)) {
                    changed |= decl_inits(g, sets[s], a, b);
                }
            }
        }
    free(cs.v);
    find_setup(g);
    slice(g);
}

/* ---- emitting statements ---------------------------------------------------- */

typedef struct pending { size_t a, b; int paren; } pending;

static void flush_kept(gen *g, pending *pd)
{
    if (pd->b > pd->a) end_setup_at(g, pd->a);
    if (pd->b > pd->a) emit_tokens(g, pd->a, pd->b);
    pd->a = pd->b = 0;
    pd->paren = 0;
}

static void flush_stmt(gen *g, pending *pd, int ctx)
{
    if (pd->b <= pd->a) return;
    end_setup_at(g, pd->a);
    int guard = !(ctx & CTX_NOGUARD) && ((ctx & CTX_COMPUTE) || g->active);
    const unit *u = unit_at(g, pd->a);
    if (!guard || is_declaration(g, pd->a, pd->b) || keeps_control(g, pd->a, pd->b) ||
        size_assignment(g, pd->a, pd->b) || in_setup(g, pd->a) || (u && u->keep)) {
        flush_kept(g, pd);
        return;
    }
    gpp(g, "#if PS_VARIANT == 2");
    emit_tokens(g, pd->a, pd->b);
    gpp(g, "#endif");
    pd->a = pd->b = 0;
    pd->paren = 0;
}

static void extend(pending *pd, size_t a, size_t b)
{
    if (pd->b <= pd->a) pd->a = a;
    pd->b = b;
}

/* Does the statement continue after position k (a brace or ';' just ended)? */
static int continues(gen *g, pending *pd, size_t k, int after_brace)
{
    return continues_at(g, pd->a, pd->b, k, after_brace);
}

/* Can an array's size be computed where the set-up ends: only the problem
 * size and the node's parameters, literals, macros and sizeof (a size held
 * in a variable may still change before the array is first used)? */
static int size_known(gen *g, const char *s)
{
    static const char *const params[] = {"ps_problem_size", "ps_iterations", "ps_size", "ps_rank", "sizeof", NULL};
    for (const char *p = s; *p;) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_')) {
            p++;
            continue;
        }
        const char *q = p;
        while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_') q++;
        size_t n = (size_t)(q - p);
        if (!ident_in(p, n, params) && !ident_in(p, n, type_words) && !ns_has(&g->macros, p, n)) return 0;
        p = q;
    }
    return 1;
}

/* Where the set-up ends (before the statement at token k, if that is the
 * first timed one): the arrays whose size is known already get their
 * storage, then ps_setup_end() starts the timed interval. */
static void end_setup_at(gen *g, size_t k)
{
    if (g->setup_done || g->setup_end_tok == NOTOK || k < g->setup_end_tok) return;
    g->setup_done = 1;
    sb b = {0};
    sb_puts(&b, "");
    for (int i = 0; i < g->narr; i++) {
        const array *a = &g->arr[i];
        if (a->loop_level == g->loop_level && size_known(g, a->s1) && (!a->is_mat || size_known(g, a->s2)))
            ensure_text(&b, a);
    }
    gline(g, g->t[g->setup_end_tok].line, "%sps_setup_end();", b.s);
    free(b.s);
}

/* A { } block: its braces, its contents one level deeper, its scope closed. */
static int gen_brace(gen *g, const ps_node *x, int ctx)
{
    emit_tokens(g, x->toks.a, x->toks.a + 1);
    g->depth++;
    int rc = gen_nodes(g, &x->kids, ctx);
    g->depth--;
    pop_scope(g);
    if (rc) return rc;
    emit_tokens(g, x->toks.b - 1, x->toks.b);
    return 0;
}

static int gen_compute_seq(gen *g, const ps_nodes *ns, int ctx)
{
    pending pd = {0, 0, 0};
    for (size_t i = 0; i < ns->n; i++) {
        const ps_node *x = ns->v[i];
        if (x->kind == PS_N_TOKENS) {
            for (size_t k = x->toks.a; k < x->toks.b; k++) {
                const ps_tok *t = &g->t[k];
                if (t->kind == PS_TK_WS || t->kind == PS_TK_COMMENT) {
                    if (pd.b > pd.a) extend(&pd, k, k + 1);
                    else emit_tokens(g, k, k + 1);
                } else if (t->kind == PS_TK_PP) {
                    flush_kept(g, &pd);
                    emit_tokens(g, k, k + 1);
                } else {
                    extend(&pd, k, k + 1);
                    if (t->kind == PS_TK_PUNCT) {
                        char ch = g->src[t->off];
                        if (ch == '(' || ch == '[') pd.paren++;
                        else if ((ch == ')' || ch == ']') && pd.paren > 0) pd.paren--;
                        else if (ch == ';' && pd.paren == 0 && !continues(g, &pd, k + 1, 0))
                            flush_stmt(g, &pd, ctx);
                    }
                }
            }
        } else if (x->kind == PS_N_BRACE && !x->has_construct) {
            extend(&pd, x->toks.a, x->toks.b);
            if (pd.paren == 0 && !continues(g, &pd, x->toks.b, 1)) flush_stmt(g, &pd, ctx);
        } else if (x->kind == PS_N_BRACE) {
            end_setup_at(g, pd.b > pd.a ? pd.a : x->toks.a);
            flush_kept(g, &pd);
            int rc = gen_brace(g, x, ctx);
            if (rc) return rc;
        } else {
            end_setup_at(g, pd.b > pd.a ? pd.a : x->toks.a);
            flush_kept(g, &pd);
            if (gen_construct(g, x, ctx)) return 2;
        }
    }
    flush_kept(g, &pd);
    return 0;
}

static int holds_open0(const ps_nodes *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        if (ns->v[i]->kind == PS_N_CONSTRUCT && ns->v[i]->info->kind == PS_K_OPEN0) return 1;
    return 0;
}

static int gen_nodes(gen *g, const ps_nodes *ns, int ctx)
{
    if ((ctx & CTX_COMPUTE) || g->active || holds_open0(ns)) return gen_compute_seq(g, ns, ctx);
    for (size_t i = 0; i < ns->n; i++) {
        const ps_node *x = ns->v[i];
        if (x->kind == PS_N_TOKENS) {
            emit_tokens(g, x->toks.a, x->toks.b);
        } else if (x->kind == PS_N_BRACE) {
            int rc = gen_brace(g, x, ctx);
            if (rc) return rc;
        } else if (gen_construct(g, x, ctx)) {
            return 2;
        }
    }
    return 0;
}

/* ---- the seed's names ----------------------------------------------------- */

/* The LOOP seed's figures use names they never define: Figure 3 passes
 * TRACE_BUF_SIZE to \OPEN0, Figure 6 uses MY_TYPE, T_BUF and calls relax().
 * A program that uses one of them without defining it gets loop.h's default
 * (PS_LOOP_TRACE_BUF, PS_LOOP_MY_TYPE, ps_loop_relax), from just before its
 * main, so that #defines above main (Figure 7's) take precedence. */
static int uses_ident(const gen *g, const char *name, int called)
{
    for (size_t k = 0; g->t[k].kind != PS_TK_EOF; k++) {
        if (!ps_tok_ident(g->src, &g->t[k], name)) continue;
        if (!called) return 1;
        size_t l = ps_next_sig(g->p, k + 1);
        if (ps_tok_is(g->src, &g->t[l], '(')) return 1;
    }
    return 0;
}

/* Does the program declare `name` itself: a typedef ending in it, or (fn) a
 * function declared or defined with it (a type or '*' before the name)? */
static int declares(const gen *g, const char *name, int fn)
{
    for (size_t k = 0; g->t[k].kind != PS_TK_EOF; k++) {
        if (!ps_tok_ident(g->src, &g->t[k], name)) continue;
        size_t l = ps_next_sig(g->p, k + 1);
        const ps_tok *n = &g->t[l];
        if (!fn && (ps_tok_is(g->src, n, ';') || ps_tok_is(g->src, n, ','))) {
            /* the last name of a typedef? */
            for (size_t j = k; j-- > 0;) {
                if (ps_tok_is(g->src, &g->t[j], ';') || ps_tok_is(g->src, &g->t[j], '{') ||
                    ps_tok_is(g->src, &g->t[j], '}') || g->t[j].kind == PS_TK_PP)
                    break;
                if (ps_tok_ident(g->src, &g->t[j], "typedef")) return 1;
            }
        }
        if (fn && ps_tok_is(g->src, n, '(')) {
            size_t b = prev_sig(g, k, 0);
            if (b == SIZE_MAX) continue;
            const ps_tok *pt = &g->t[b];
            if (ps_tok_is(g->src, pt, '*') ||
                (pt->kind == PS_TK_IDENT && !ps_tok_ident(g->src, pt, "return") && !ps_tok_ident(g->src, pt, "else") &&
                 !ps_tok_ident(g->src, pt, "do") && !ps_tok_ident(g->src, pt, "case")))
                return 1;
        }
    }
    return 0;
}

/* Is there a `#define name` line in the file? */
static int defines_macro(const gen *g, const char *name)
{
    size_t n = strlen(name);
    for (size_t k = 0; g->t[k].kind != PS_TK_EOF; k++) {
        const ps_tok *t = &g->t[k];
        if (t->kind != PS_TK_PP) continue;
        const char *s = g->src + t->off, *e = s + t->len;
        s++; /* '#' */
        while (s < e && (*s == ' ' || *s == '\t')) s++;
        if (e - s < 6 || memcmp(s, "define", 6)) continue;
        s += 6;
        while (s < e && (*s == ' ' || *s == '\t')) s++;
        if ((size_t)(e - s) >= n && !memcmp(s, name, n) &&
            ((size_t)(e - s) == n || !(s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
                                      (s[n] >= '0' && s[n] <= '9'))))
            return 1;
    }
    return 0;
}

static void seed_names(gen *g)
{
    static const char *const bufs[] = {"TRACE_BUF_SIZE", "TRACE_BUF", "T_BUF"};
    sb b = {0};
    sb_puts(&b, "");
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        if (uses_ident(g, bufs[i], 0) && !defines_macro(g, bufs[i]))
            sb_printf(&b, "#ifndef %s\n#define %s PS_LOOP_TRACE_BUF\n#endif\n", bufs[i], bufs[i]);
    if (uses_ident(g, "MY_TYPE", 0) && !defines_macro(g, "MY_TYPE") && !declares(g, "MY_TYPE", 0))
        sb_puts(&b, "#ifndef MY_TYPE\n#define MY_TYPE PS_LOOP_MY_TYPE\n#endif\n");
    if (uses_ident(g, "relax", 1) && !defines_macro(g, "relax") && !declares(g, "relax", 1))
        sb_puts(&b, "#define relax ps_loop_relax\n");
    if (b.n) {
        g->seed_defaults = ps_xasprintf("/* the LOOP seed's names this program leaves open (parscope/loop.h) */\n%s",
                                        b.s);
        free(b.s);
    } else {
        free(b.s);
    }
}

/* ---- main ---------------------------------------------------------------- */

/* Finds `main(` at file scope and how many parameters it takes. */
static int find_main(gen *g)
{
    g->main_params = -1;
    for (size_t i = 0; i < g->p->top.n; i++) {
        const ps_node *x = g->p->top.v[i];
        if (x->kind != PS_N_TOKENS) continue;
        for (size_t k = x->toks.a; k < x->toks.b; k++) {
            if (!ps_tok_ident(g->src, &g->t[k], "main")) continue;
            size_t l = ps_next_sig(g->p, k + 1);
            if (!ps_tok_is(g->src, &g->t[l], '(')) continue;
            int commas = 0, depth = 0, any = 0, is_void = 0;
            size_t m = l + 1;
            for (; g->t[m].kind != PS_TK_EOF; m++) {
                const ps_tok *t = &g->t[m];
                if (t->kind == PS_TK_WS || t->kind == PS_TK_COMMENT) continue;
                if (ps_tok_is(g->src, t, '(')) depth++;
                else if (ps_tok_is(g->src, t, ')')) {
                    if (depth-- == 0) break;
                } else if (ps_tok_is(g->src, t, ',') && depth == 0) commas++;
                if (!any && ps_tok_ident(g->src, t, "void")) is_void = 1;
                else if (any) is_void = 0;
                any++;
            }
            int n = !any || (is_void && any == 1) ? 0 : commas + 1;
            if (n != 0 && n != 2)
                return gerr(g, &g->t[k], "main must take (void) or (int argc, char **argv), not %d parameters", n);
            if (g->main_params < 0 || n == 2) g->main_params = n;
        }
    }
    return 0;
}

static void embed_source(gen *g, const char *sym, const char *src, size_t len)
{
    sb *b = &g->out;
    newline(g);
    sb_printf(b, "\nconst char *const %s =\n    \"", sym);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)src[i];
        if (c == '\n') sb_puts(b, i + 1 < len ? "\\n\"\n    \"" : "\\n");
        else if (c == '\\') sb_puts(b, "\\\\");
        else if (c == '"') sb_puts(b, "\\\"");
        else if (c == '?') sb_puts(b, "\\?");
        else if (c < 32 || c >= 127) sb_printf(b, "\\%03o", c);
        else sb_put(b, (const char *)&src[i], 1);
    }
    sb_puts(b, "\";\n");
    g->bol = 1;
}

int ps_variant_parse(const char *name)
{
    if (!name || !strcmp(name, "full")) return PS_VARIANT_FULL;
    if (!strcmp(name, "comm")) return PS_VARIANT_COMM;
    if (!strcmp(name, "data")) return PS_VARIANT_DATA;
    if (!strcmp(name, "sections")) return PS_VARIANT_SECTIONS;
    return -1;
}

const char *ps_variant_name(int v)
{
    switch (v) {
    case PS_VARIANT_COMM: return "comm";
    case PS_VARIANT_DATA: return "data";
    case PS_VARIANT_SECTIONS: return "sections";
    default: return "full";
    }
}

static int valid_c_name(const char *s)
{
    if (!s || !*s || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return 0;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

int ps_gen(const char *src, size_t len, const ps_gen_opts *o, char **out, size_t *outlen, ps_diag *d)
{
    *out = NULL;
    if (outlen) *outlen = 0;
    const char *entry = o->entry ? o->entry : "main";
    if (!valid_c_name(entry) || strlen(entry) > 200)
        return ps_diag_error(d, 1, 1, "--entry '%s' is not a C identifier", entry);
    if (o->source_symbol && !valid_c_name(o->source_symbol))
        return ps_diag_error(d, 1, 1, "source symbol '%s' is not a C identifier", o->source_symbol);
    ps_program p;
    if (ps_parse(src, len, &p, d)) return 2;
    gen g;
    memset(&g, 0, sizeof g);
    g.p = &p;
    g.src = src;
    g.t = p.toks.v;
    g.o = o;
    g.d = d;
    g.bol = 1;
    snprintf(g.main_name, sizeof g.main_name, "ps__main_%s", entry);
    /* the path as a string literal body */
    sb q = {0};
    sb_puts(&q, "");
    for (const char *s = d->path; *s; s++) {
        if (*s == '\\' || *s == '"') sb_put(&q, "\\", 1);
        if ((unsigned char)*s < 32) continue;
        sb_put(&q, s, 1);
    }
    g.qpath = q.s;
    int rc = find_main(&g);
    if (!rc && g.main_params < 0) {
        int blank = 1; /* nothing but blanks and comments */
        for (size_t k = 0; k < p.toks.n && blank; k++)
            blank = p.toks.v[k].kind == PS_TK_WS || p.toks.v[k].kind == PS_TK_COMMENT ||
                    p.toks.v[k].kind == PS_TK_EOF;
        rc = ps_diag_error(d, 1, 1, "%s has no main function (int main(void) { ... })",
                           blank ? "the file is empty: the program" : "the program");
    }
    if (!rc) {
        int v = o->variant;
        sb_printf(&g.out,
                  "/* Generated by parscope gen from %s; edit the .loop file, not this one. */\n"
                  "#ifndef PS_VARIANT\n#define PS_VARIANT %d /* 0 comm, 1 comm+data, 2 full */\n#endif\n"
                  "#ifndef PS_SECTIONS\n#define PS_SECTIONS %d /* time \\SECTION blocks */\n#endif\n"
                  "#include <parscope/loop.h>\n",
                  g.qpath, v == PS_VARIANT_SECTIONS ? 2 : v, v == PS_VARIANT_SECTIONS);
        analyze(&g);
        seed_names(&g);
        rc = gen_nodes(&g, &p.top, 0);
    }
    if (!rc) {
        newline(&g);
        /* what follows is not the user's: a compiler's complaint about it (the
         * end of input reached inside an unclosed block) names the last line
         * of the .loop file, not lines it does not have */
        int last = 1;
        for (size_t i = 0; i + 1 < len; i++) last += src[i] == '\n';
        sb_printf(&g.out,
                  "\n/* entry: runtime options (-s, -i, --trace, ...) are taken from argv first */\n#line %d \"%s\"\n"
                  "int %s(int argc, char **argv) { ps_set_args(&argc, &argv); ps_program_args(argc, argv, %d); "
                  "return %s(%s); }\n",
                  last, g.qpath, entry, g.main_params == 2, g.main_name, g.main_params == 2 ? "argc, argv" : "");
        if (o->source_symbol) embed_source(&g, o->source_symbol, src, len);
    }
    for (int k = 0; k < g.narr; k++) {
        free(g.arr[k].name);
        free(g.arr[k].type);
        free(g.arr[k].s1);
        free(g.arr[k].s2);
        free(g.arr[k].s1c);
        free(g.arr[k].s2c);
    }
    free(g.arr);
    ns_free(&g.sizes);
    ns_free(&g.vals);
    ns_free(&g.used);
    ns_free(&g.floats);
    ns_free(&g.macros);
    free(g.units);
    ns_free(&g.commfns);
    free(g.seed_defaults);
    free(g.qpath);
    ps_program_free(&p);
    if (rc) {
        free(g.out.s);
        return 2;
    }
    *out = g.out.s;
    if (outlen) *outlen = g.out.n;
    return 0;
}
