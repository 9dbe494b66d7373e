/* parser.c - the block structure of a LOOP program (see parser.h). */
#include "lang/parser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define NOTOK ((size_t)-1)

/* min/max arguments; block: 0 none, 1 required, 2 optional.  Arity checks
 * with gaps (3 or 5) are in check_arity(). */
static const ps_construct_info constructs[] = {
    {"OPEN0", PS_K_OPEN0, 5, 5, 0},
    {"CLOSE0", PS_K_CLOSE0, 0, 0, 0},
    {"VEC", PS_K_VEC, 1, 2, 0},
    {"Vec", PS_K_VEC, 1, 2, 0},
    {"MAT", PS_K_MAT, 1, 3, 0},
    {"Mat", PS_K_MAT, 1, 3, 0},
    {"INIT_ARRAY", PS_K_INIT_ARRAY, 1, 2, 0},
    {"LOOP", PS_K_LOOP, -1, -1, 1},
    {"SCALPROD", PS_K_SCALPROD, 3, 4, 0},
    {"MATVECPROD", PS_K_MATVECPROD, 3, 5, 0},
    {"MATPROD", PS_K_MATPROD, 3, 6, 0},
    {"WORK", PS_K_WORK, 1, 1, 0},
    {"COMMUNICATE", PS_K_COMMUNICATE, 3, 5, 2},
    {"EXCHANGE", PS_K_EXCHANGE, 3, 5, 0},
    {"MULTIBCAST0", PS_K_MULTIBCAST0, 1, 1, 0},
    {"MULTIBCAST_ME", PS_K_MULTIBCAST_ME, 1, 1, 0},
    {"MULTIBCAST_ALTER", PS_K_MULTIBCAST_ALTER, 1, 1, 0},
    {"TREE_BCAST", PS_K_TREE_BCAST, 2, 2, 0},
    {"TREE_COLLECT_VEC", PS_K_TREE_COLLECT_VEC, 1, 2, 0},
    {"TREE_DISTRIB_VEC", PS_K_TREE_DISTRIB_VEC, 1, 2, 0},
    {"VISIBLE_SYNC", PS_K_VISIBLE_SYNC, 0, 0, 0},
    {"SEND", PS_K_SEND, 2, 2, 0},
    {"RECEIVE", PS_K_RECEIVE, 2, 2, 0},
    {"BSEND", PS_K_BSEND, 2, 2, 0},
    {"BRECEIVE", PS_K_BRECEIVE, 2, 2, 0},
    {"WAIT", PS_K_WAIT, 0, 0, 0},
    {"SECTION", PS_K_SECTION, 1, 1, 1},
    {"DATA_MOVE", PS_K_DATA_MOVE, 1, 1, 1},
    {"KEEP", PS_K_KEEP, -1, -1, 1},
    {"COMPUTE", PS_K_COMPUTE, -1, -1, 1},
    {NULL, 0, 0, 0, 0}};

/* What the arguments are, for messages. */
static const char *signature(int kind)
{
    switch (kind) {
    case PS_K_OPEN0: return "(&nodes, &me, &host, &psize, TRACE_BUF)";
    case PS_K_CLOSE0: case PS_K_VISIBLE_SYNC: case PS_K_WAIT: return "()";
    case PS_K_VEC: return "(TYPE: t [, S1: n]) names;";
    case PS_K_MAT: return "(TYPE: t [, S1: rows] [, S2: cols]) names;";
    case PS_K_INIT_ARRAY: return "(array [, value])";
    case PS_K_SCALPROD: return "(s, x, y [, n])";
    case PS_K_MATVECPROD: return "(y, A, x [, rows, cols])";
    case PS_K_MATPROD: return "(C, A, B [, rows, inner, cols])";
    case PS_K_WORK: return "(flops)";
    case PS_K_COMMUNICATE: case PS_K_EXCHANGE: return "(bytes, distance, partners [, sendbuf, recvbuf])";
    case PS_K_MULTIBCAST0: case PS_K_MULTIBCAST_ME: case PS_K_MULTIBCAST_ALTER: return "(bytes)";
    case PS_K_TREE_BCAST: return "(ptr, bytes)";
    case PS_K_TREE_COLLECT_VEC: case PS_K_TREE_DISTRIB_VEC: return "(vec [, length])";
    case PS_K_SEND: case PS_K_BSEND: return "(dest, words)";
    case PS_K_RECEIVE: case PS_K_BRECEIVE: return "(src, words)";
    case PS_K_SECTION: return "(name) { ... }";
    case PS_K_DATA_MOVE: return "(bytes) { ... }";
    case PS_K_KEEP: case PS_K_COMPUTE: return " { ... }";
    default: return "";
    }
}

const ps_construct_info *ps_construct_lookup(const char *name, size_t len)
{
    for (const ps_construct_info *c = constructs; c->name; c++)
        if (strlen(c->name) == len && !memcmp(c->name, name, len)) return c;
    return NULL;
}

#define MAX_NESTING 256

/* A block: its braces and the construct that opened it (NOTOK: plain C). */
typedef struct block_rec {
    size_t lbrace, rbrace, owner;
} block_rec;

typedef struct parser {
    const char *src;
    ps_tok     *t;
    size_t      n;
    ps_diag    *d;
    int         depth;   /* nesting, bounded so hostile input cannot exhaust the stack */
    block_rec   open[MAX_NESTING + 2];  /* the blocks open now, outermost first */
    block_rec  *closed;  /* every block closed so far, in the order they closed */
    size_t      nclosed, capclosed;
} parser;

static void nodes_push(ps_nodes *ns, ps_node *x)
{
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? 2 * ns->cap : 8;
        ns->v = ps_xrealloc(ns->v, ns->cap * sizeof *ns->v);
    }
    ns->v[ns->n++] = x;
}

static ps_node *node_new(int kind)
{
    ps_node *x = ps_xcalloc(1, sizeof *x);
    x->kind = kind;
    x->lparen = x->iter_tok = x->lbrace = x->rbrace = NOTOK;
    return x;
}

static int trivia(const ps_tok *t) { return t->kind == PS_TK_WS || t->kind == PS_TK_COMMENT; }

static size_t next_sig(const parser *P, size_t i)
{
    while (i < P->n && trivia(&P->t[i])) i++;
    return i < P->n ? i : P->n - 1;
}

size_t ps_next_sig(const ps_program *p, size_t i)
{
    while (i < p->toks.n && trivia(&p->toks.v[i])) i++;
    return i < p->toks.n ? i : p->toks.n - 1;
}

static int err_at(parser *P, size_t i, const char *fmt, const char *a, const char *b)
{
    return ps_diag_error(P->d, P->t[i].line, P->t[i].col, fmt, a, b);
}

static int is_punct(const parser *P, size_t i, char c) { return ps_tok_is(P->src, &P->t[i], c); }

static int parse_seq(parser *P, size_t *ip, ps_nodes *out, size_t open_brace, size_t owner, int *has_construct);

/* Argument list from the '(' at *ip; leaves *ip after the ')'. */
static int parse_args(parser *P, size_t *ip, ps_node *c, const char *cname)
{
    size_t i = *ip;
    c->lparen = i;
    i++;
    int depth = 0;
    size_t start = i;
    ps_range *args = NULL;
    int nargs = 0;
    for (;;) {
        ps_tok *t = &P->t[i];
        if (t->kind == PS_TK_EOF) {
            free(args);
            return err_at(P, c->lparen, "unterminated argument list of \\%s: '(' is never closed%s", cname, "");
        }
        if (t->kind == PS_TK_CONSTRUCT || t->kind == PS_TK_PP) {
            free(args);
            return err_at(P, i, t->kind == PS_TK_PP ? "preprocessor directive inside the arguments of \\%s%s"
                                                    : "a construct cannot be an argument of \\%s%s",
                          cname, "");
        }
        if (t->kind == PS_TK_PUNCT) {
            char ch = P->src[t->off];
            if (ch == '(' || ch == '[' || ch == '{') depth++;
            else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) depth--;
            else if ((ch == ')' || ch == ',') && depth == 0) {
                size_t a = start, b = i;
                while (a < b && trivia(&P->t[a])) a++;
                while (b > a && trivia(&P->t[b - 1])) b--;
                int empty = a == b;
                if (empty && !(ch == ')' && nargs == 0)) {
                    free(args);
                    return err_at(P, i, "empty argument in \\%s%s", cname, "");
                }
                if (!empty) {
                    args = ps_xrealloc(args, (size_t)(nargs + 1) * sizeof *args);
                    args[nargs++] = (ps_range){a, b};
                }
                start = i + 1;
                if (ch == ')') break;
            } else if (ch == '}' || ch == ']') {
                free(args);
                return err_at(P, c->lparen, "unterminated argument list of \\%s: '(' is never closed%s", cname, "");
            }
        }
        i++;
    }
    c->args = args;
    c->nargs = nargs;
    *ip = i + 1;
    return 0;
}

static int check_arity(parser *P, ps_node *c, const char *cname)
{
    const ps_construct_info *ci = c->info;
    int n = c->nargs, ok = n >= ci->min_args && n <= ci->max_args;
    char want[64];
    if (ci->kind == PS_K_COMMUNICATE || ci->kind == PS_K_EXCHANGE || ci->kind == PS_K_MATVECPROD) {
        ok = n == 3 || n == 5;
        snprintf(want, sizeof want, "3 or 5 arguments");
    } else if (ci->kind == PS_K_MATPROD) {
        ok = n == 3 || n == 6;
        snprintf(want, sizeof want, "3 or 6 arguments");
    } else if (ci->min_args == ci->max_args) {
        snprintf(want, sizeof want, "%d argument%s", ci->min_args, ci->min_args == 1 ? "" : "s");
    } else {
        snprintf(want, sizeof want, "%d to %d arguments", ci->min_args, ci->max_args);
    }
    if (ok) return 0;
    size_t at = c->lparen != NOTOK ? c->lparen : c->name_tok;
    /* the argument list of the signature, without what follows it ("(name) { ... }") */
    const char *sig = signature(ci->kind), *close = strchr(sig, ')');
    int siglen = close ? (int)(close - sig + 1) : (int)strlen(sig);
    return ps_diag_error(P->d, P->t[at].line, P->t[at].col, "\\%s takes %s %.*s, got %d", cname, want, siglen, sig,
                         n);
}

/* A second argument list (the '(' at k) right after a construct's. */
static int second_args(parser *P, size_t k, const char *cname, int kind)
{
    return ps_diag_error(P->d, P->t[k].line, P->t[k].col,
                         "unexpected '(' after \\%s(...): a construct takes one argument list, \\%s%s", cname, cname,
                         kind == PS_K_LOOP ? " [name] [(count)] { ... }" : signature(kind));
}

static int parse_block(parser *P, size_t *ip, ps_node *c, const char *cname)
{
    size_t j = next_sig(P, *ip);
    if (is_punct(P, j, '(') && *ip > 0 && is_punct(P, *ip - 1, ')') && c->lparen != NOTOK &&
        P->t[j].line == P->t[*ip - 1].line)
        return second_args(P, j, cname, c->info->kind);
    if (!is_punct(P, j, '{')) {
        size_t at = P->t[j].kind == PS_TK_EOF ? c->name_tok : j;
        return ps_diag_error(P->d, P->t[at].line, P->t[at].col, "\\%s needs a block: \\%s%s", cname, cname,
                             c->info->kind == PS_K_LOOP ? " [name] [(count)] { ... }"
                             : c->info->kind == PS_K_COMMUNICATE ? "(bytes, distance, partners) { ... }"
                                                                 : signature(c->info->kind));
    }
    c->lbrace = j;
    j++;
    int inner = 0;
    if (parse_seq(P, &j, &c->kids, c->lbrace, c->name_tok, &inner)) return 2;
    c->has_construct = inner;
    c->rbrace = j;
    *ip = j + 1;
    return 0;
}

/* Token k follows a construct that ended at token `end` (its ')' or its
 * block's '}') without a ';'.  The ';' is optional, so a new statement may
 * begin there, but not with a token no statement begins with (')', ']', ',',
 * '.', '->', '=', '?', ':', '|', '^', '/', '%', '<', '>', '[', '#') nor, on
 * the line of the argument list, a second argument list (\WORK(3)(4)): both
 * would apply the construct as if it were a value.  0, or 2 with the
 * diagnostic at k. */
static int check_after_construct(parser *P, const ps_node *c, size_t k, size_t end, const char *cname)
{
    const ps_tok *t = &P->t[k];
    if (t->kind != PS_TK_PUNCT) return 0;
    char ch = P->src[t->off];
    if (ch == '(' && ps_tok_is(P->src, &P->t[end], ')') && t->line == P->t[end].line)
        return second_args(P, k, cname, c->info->kind);
    /* k is not EOF (a punctuation token), so k + 1 is a token */
    int arrow = ch == '-' && ps_tok_is(P->src, &P->t[k + 1], '>') && P->t[k + 1].off == t->off + 1;
    if (!arrow && !strchr(")],.=?:|^/%<>[#", ch)) return 0;
    return ps_diag_error(P->d, t->line, t->col,
                         "unexpected '%s' after \\%s%s%s: '\\%s' is a statement and cannot be part of an "
                         "expression (end it with ';')",
                         arrow ? "->" : (char[2]){ch, 0}, cname, c->lparen != NOTOK ? "(...)" : "",
                         ps_tok_is(P->src, &P->t[end], '}') ? " { ... }" : "", cname);
}

static int parse_construct(parser *P, size_t *ip, ps_nodes *out)
{
    size_t i = *ip;
    ps_tok *t = &P->t[i];
    char cname[64];
    size_t nl = t->len - 1 < sizeof cname - 1 ? t->len - 1 : sizeof cname - 1;
    memcpy(cname, P->src + t->off + 1, nl);
    cname[nl] = 0;
    const ps_construct_info *ci = ps_construct_lookup(P->src + t->off + 1, t->len - 1);
    if (!ci) return err_at(P, i, "unknown construct '\\%s'%s", cname, "");
    ps_node *c = node_new(PS_N_CONSTRUCT);
    c->info = ci;
    c->name_tok = i;
    nodes_push(out, c);
    size_t j = i + 1;
    if (ci->kind == PS_K_LOOP) {
        size_t k = next_sig(P, j);
        if (P->t[k].kind == PS_TK_IDENT) {
            c->iter_tok = k;
            k = next_sig(P, k + 1);
        }
        if (is_punct(P, k, '(')) {
            if (parse_args(P, &k, c, cname)) return 2;
            if (c->nargs != 1) {
                char got[32];
                snprintf(got, sizeof got, "%d", c->nargs);
                return err_at(P, c->lparen, "\\LOOP takes one count, got %s: \\LOOP [name] [(count)] { ... }%s", got,
                              "");
            }
        }
        j = k;
        if (parse_block(P, &j, c, cname)) return 2;
    } else if (ci->kind == PS_K_KEEP || ci->kind == PS_K_COMPUTE) {
        if (parse_block(P, &j, c, cname)) return 2;
    } else {
        size_t k = next_sig(P, j);
        if (!is_punct(P, k, '('))
            return ps_diag_error(P->d, P->t[k].line, P->t[k].col, "expected '(' after \\%s: \\%s%s", cname, cname,
                                 signature(ci->kind));
        if (parse_args(P, &k, c, cname)) return 2;
        /* \VEC and \MAT: keys, duplicates and counts are checked with the keys (codegen.c) */
        if (ci->kind != PS_K_VEC && ci->kind != PS_K_MAT && check_arity(P, c, cname)) return 2;
        j = k;
        if (ci->kind == PS_K_VEC || ci->kind == PS_K_MAT) {
            for (;;) {
                k = next_sig(P, j);
                if (P->t[k].kind != PS_TK_IDENT)
                    return err_at(P, k, "expected an array name after \\%s(...)%s", cname, "");
                c->names = ps_xrealloc(c->names, (size_t)(c->nnames + 1) * sizeof *c->names);
                c->names[c->nnames++] = k;
                k = next_sig(P, k + 1);
                if (is_punct(P, k, ',')) {
                    j = k + 1;
                    continue;
                }
                if (!is_punct(P, k, ';')) {
                    /* on a later line: the declaration's ';' is missing (reported where it belongs) */
                    const ps_tok *nm = &P->t[c->names[c->nnames - 1]];
                    if (P->t[k].line > nm->line || P->t[k].kind == PS_TK_EOF)
                        return ps_diag_error(P->d, nm->line, nm->col + (int)nm->len,
                                             "expected ';' after '%.*s': \\%s's names end with ';'", (int)nm->len,
                                             P->src + nm->off, cname);
                    return err_at(P, k, "expected ',' or ';' after the names declared by \\%s%s", cname, "");
                }
                j = k + 1;
                break;
            }
        } else if (ci->block == 1 || (ci->block == 2 && is_punct(P, next_sig(P, j), '{'))) {
            if (parse_block(P, &j, c, cname)) return 2;
        } else {
            k = next_sig(P, j);
            if (is_punct(P, k, ';')) j = k + 1;
            else if (check_after_construct(P, c, k, j - 1, cname)) return 2;
        }
    }
    /* after a block: what no statement begins with */
    if (c->rbrace != NOTOK && j == c->rbrace + 1) {
        size_t k = next_sig(P, j);
        if (!is_punct(P, k, ';') && check_after_construct(P, c, k, c->rbrace, cname)) return 2;
    }
    c->toks = (ps_range){i, j};
    *ip = j;
    return 0;
}

/* The indentation of the line holding token k (its leading blanks, a tab
 * to the next multiple of 8); with first_only, -1 when k is not the first
 * token of its line. */
static long indent_of(const parser *P, size_t k, int first_only)
{
    size_t off = P->t[k].off, b = off;
    while (b > 0 && P->src[b - 1] != '\n') b--;
    long w = 0;
    size_t i = b;
    for (; i < off && (P->src[i] == ' ' || P->src[i] == '\t'); i++) w = P->src[i] == '\t' ? (w / 8 + 1) * 8 : w + 1;
    return first_only && i < off ? -1 : w;
}

/* The input ended with blocks open (P->open[0 .. P->depth-1]).  The block
 * reported is the one whose '}' is missing by the indentation: the first
 * '}' (alone at the start of its line) indented less than the line that
 * opened the block it closes, as a '}' meant for an outer block closes an
 * inner one that lacks its own; with no such '}', the innermost block open.
 * A construct's block is reported at the construct. */
static int unclosed(parser *P)
{
    const block_rec *bad = NULL;
    for (size_t k = 0; k < P->nclosed; k++) {
        const block_rec *r = &P->closed[k];
        long ir = indent_of(P, r->rbrace, 1);
        if (ir >= 0 && ir < indent_of(P, r->lbrace, 0) && (!bad || r->rbrace < bad->rbrace)) bad = r;
    }
    char why[160] = "";
    if (bad) {
        const ps_tok *rb = &P->t[bad->rbrace];
        long ir = indent_of(P, bad->rbrace, 1);
        const ps_tok *outer = NULL;
        for (int k = P->depth - 1; k >= 0 && !outer; k--)
            if (P->open[k].lbrace != NOTOK && P->open[k].lbrace < bad->lbrace &&
                indent_of(P, P->open[k].lbrace, 0) == ir)
                outer = &P->t[P->open[k].lbrace];
        if (outer)
            snprintf(why, sizeof why, " (the '}' at %d:%d is indented to close the '{' at %d:%d)", rb->line, rb->col,
                     outer->line, outer->col);
        else
            snprintf(why, sizeof why, " (the '}' at %d:%d is indented less than the line that opens it)", rb->line,
                     rb->col);
    } else {
        for (int k = P->depth - 1; k >= 0 && !bad; k--)
            if (P->open[k].lbrace != NOTOK) bad = &P->open[k];
        if (!bad) return err_at(P, P->n - 1, "'{' is never closed%s%s", "", "");
    }
    if (bad->owner != NOTOK) {
        const ps_tok *o = &P->t[bad->owner];
        const ps_tok *lb = &P->t[bad->lbrace];
        return ps_diag_error(P->d, o->line, o->col, "%.*s's '{' at %d:%d is never closed%s",
                             (int)o->len, P->src + o->off, lb->line, lb->col, why);
    }
    return err_at(P, bad->lbrace, "'{' is never closed%s%s", why, "");
}

static void record_closed(parser *P, size_t lbrace, size_t rbrace, size_t owner)
{
    if (P->nclosed == P->capclosed) {
        P->capclosed = P->capclosed ? 2 * P->capclosed : 64;
        P->closed = ps_xrealloc(P->closed, P->capclosed * sizeof *P->closed);
    }
    P->closed[P->nclosed++] = (block_rec){lbrace, rbrace, owner};
}

static int is_ident_tok(const parser *P, size_t k, const char *s) { return ps_tok_ident(P->src, &P->t[k], s); }

static size_t prev_sig(const parser *P, size_t k, size_t lo)
{
    while (k > lo) {
        k--;
        if (!trivia(&P->t[k])) return k;
    }
    return NOTOK;
}

/* A construct begins a statement, so the plain C before it (its last token
 * `last`, NOTOK: none) must have ended one: after ';', '{', '}', a label's
 * ':', 'else', 'do', or the ')' of an if/for/while/switch (or of a macro in
 * capitals, FOREACH(i)).  0, or 2 with the diagnostic: a statement missing
 * its ';', or a construct inside an expression. */
static int check_before_construct(parser *P, size_t last, size_t lo, size_t ctok)
{
    if (last == NOTOK) return 0;
    const ps_tok *t = &P->t[last], *c = &P->t[ctok];
    int missing_semi = 0;
    if (t->kind == PS_TK_PUNCT) {
        char ch = P->src[t->off];
        if (ch == ';' || ch == '{' || ch == '}' || ch == ':') return 0;
        if (ch == ')') {
            int depth = 0;
            size_t k = last;
            for (;; k--) {
                if (ps_tok_is(P->src, &P->t[k], ')')) depth++;
                else if (ps_tok_is(P->src, &P->t[k], '(') && --depth == 0) break;
                if (k == lo) return 0; /* unbalanced: the C compiler's to report */
            }
            size_t h = prev_sig(P, k, lo);
            if (h == NOTOK) return 0;
            if (is_ident_tok(P, h, "if") || is_ident_tok(P, h, "for") || is_ident_tok(P, h, "while") ||
                is_ident_tok(P, h, "switch"))
                return 0;
            if (P->t[h].kind == PS_TK_IDENT) {
                int caps = 1;
                for (size_t q = 0; q < P->t[h].len && caps; q++) {
                    char x = P->src[P->t[h].off + q];
                    caps = (x >= 'A' && x <= 'Z') || (x >= '0' && x <= '9') || x == '_';
                }
                if (caps) return 0;
            }
            missing_semi = 1;
        } else if (ch == ']') {
            missing_semi = 1;
        } else if (ch == '+' || ch == '-') {
            size_t q = prev_sig(P, last, lo);
            missing_semi = q != NOTOK && q + 1 == last && ps_tok_is(P->src, &P->t[q], ch); /* x++ or x-- */
        }
    } else if (t->kind == PS_TK_IDENT) {
        if (is_ident_tok(P, last, "else") || is_ident_tok(P, last, "do")) return 0;
        missing_semi = !is_ident_tok(P, last, "return");
    } else if (t->kind == PS_TK_NUMBER || t->kind == PS_TK_STRING || t->kind == PS_TK_CHAR) {
        missing_semi = 1;
    } else {
        return 0;
    }
    if (!missing_semi)
        return ps_diag_error(P->d, c->line, c->col, "'%.*s' is a statement and cannot appear inside an expression",
                             (int)c->len, P->src + c->off);
    /* the place just after the last token, as compilers report a missing ';' */
    int line = t->line, col = t->col;
    for (size_t q = 0; q < t->len; q++) {
        if (P->src[t->off + q] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    int shown = t->len > 40 ? 37 : (int)t->len;
    return ps_diag_error(P->d, line, col, "expected ';' after '%.*s%s' (before '%.*s' at %d:%d, which begins a new statement)",
                         shown, P->src + t->off, t->len > 40 ? "..." : "", (int)c->len, P->src + c->off, c->line,
                         c->col);
}

/* A sequence up to the '}' matching open_brace (or the end of input when
 * open_brace is NOTOK), the block of construct `owner` (NOTOK: plain C).
 * Leaves *ip at that '}' (or at EOF). */
static int parse_seq(parser *P, size_t *ip, ps_nodes *out, size_t open_brace, size_t owner, int *has_construct)
{
    if (++P->depth > MAX_NESTING)
        return err_at(P, *ip, "blocks nested too deeply (more than %s levels)%s", "256", "");
    P->open[P->depth - 1] = (block_rec){open_brace, NOTOK, owner};
    size_t i = *ip;
    ps_node *text = NULL;
    int paren = 0;
    size_t last = NOTOK; /* the last token of plain C in this sequence, NOTOK after a construct */
    for (;;) {
        ps_tok *t = &P->t[i];
        if (t->kind == PS_TK_EOF) {
            if (open_brace != NOTOK) return unclosed(P);
            break;
        }
        if (t->kind == PS_TK_PUNCT && P->src[t->off] == '}') {
            if (open_brace == NOTOK) return err_at(P, i, "unmatched '}'%s%s", "", "");
            break;
        }
        if (t->kind == PS_TK_PUNCT && P->src[t->off] == '{') {
            text = NULL;
            ps_node *b = node_new(PS_N_BRACE);
            size_t j = i + 1;
            int inner = 0;
            if (parse_seq(P, &j, &b->kids, i, NOTOK, &inner)) {
                nodes_push(out, b);
                return 2;
            }
            b->toks = (ps_range){i, j + 1};
            b->has_construct = inner;
            if (inner) *has_construct = 1;
            nodes_push(out, b);
            last = j;
            i = j + 1;
            continue;
        }
        if (t->kind == PS_TK_CONSTRUCT) {
            if (paren > 0)
                return ps_diag_error(P->d, t->line, t->col,
                                     "'%.*s' is a statement and cannot appear inside an expression",
                                     (int)t->len, P->src + t->off);
            if (check_before_construct(P, last, open_brace == NOTOK ? 0 : open_brace + 1, i)) return 2;
            text = NULL;
            *has_construct = 1;
            if (parse_construct(P, &i, out)) return 2;
            last = NOTOK;
            continue;
        }
        if (t->kind == PS_TK_PUNCT) {
            char ch = P->src[t->off];
            if (ch == '(' || ch == '[') paren++;
            else if ((ch == ')' || ch == ']') && paren > 0) paren--;
        }
        if (t->kind == PS_TK_PP) last = NOTOK;
        else if (!trivia(t)) last = i;
        if (!text) {
            text = node_new(PS_N_TOKENS);
            text->toks = (ps_range){i, i};
            nodes_push(out, text);
        }
        text->toks.b = i + 1;
        i++;
    }
    if (open_brace != NOTOK) record_closed(P, open_brace, i, owner);
    P->depth--;
    *ip = i;
    return 0;
}

int ps_parse(const char *src, size_t len, ps_program *p, ps_diag *d)
{
    memset(p, 0, sizeof *p);
    p->src = src;
    p->len = len;
    if (ps_lex(src, len, &p->toks, d)) return 2;
    parser *P = ps_xcalloc(1, sizeof *P);
    *P = (parser){.src = src, .t = p->toks.v, .n = p->toks.n, .d = d};
    size_t i = 0;
    int has = 0;
    int rc = parse_seq(P, &i, &p->top, NOTOK, NOTOK, &has);
    free(P->closed);
    free(P);
    if (rc) {
        ps_program_free(p);
        return 2;
    }
    return 0;
}

static void nodes_free(ps_nodes *ns)
{
    for (size_t i = 0; i < ns->n; i++) {
        ps_node *x = ns->v[i];
        nodes_free(&x->kids);
        free(x->args);
        free(x->names);
        free(x);
    }
    free(ns->v);
    ns->v = NULL;
    ns->n = ns->cap = 0;
}

void ps_program_free(ps_program *p)
{
    nodes_free(&p->top);
    ps_toks_free(&p->toks);
}
