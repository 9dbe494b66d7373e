/* lexer.c - tokens of a LOOP program (see lexer.h). */
#include "lang/lexer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

typedef struct lx {
    const char *s;
    size_t      n, p;
    int         line, col;
    ps_toks    *out;
    size_t      cap;
    ps_diag    *d;
} lx;

static int ident_start(int c) { return isalpha(c) || c == '_' || c >= 0x80; }
static int ident_char(int c) { return isalnum(c) || c == '_' || c >= 0x80; }

/* A character that looks like C punctuation or a blank but is not (typed
 * or pasted from a typeset page), at s[0..n): what to say about it and its
 * length in bytes, or NULL.  Compilers call it a "stray '\342'". */
static const char *lookalike(const char *s, size_t n, size_t *len)
{
    static const struct {
        const char *bytes, *what;
    } v[] = {
        {"\xe2\x80\x9c", "'\xe2\x80\x9c' (U+201C, a curly quote) in program: C's string quote is '\"'"},
        {"\xe2\x80\x9d", "'\xe2\x80\x9d' (U+201D, a curly quote) in program: C's string quote is '\"'"},
        {"\xe2\x80\x98", "'\xe2\x80\x98' (U+2018, a curly quote) in program: C's character quote is '\\''"},
        {"\xe2\x80\x99", "'\xe2\x80\x99' (U+2019, a curly quote) in program: C's character quote is '\\''"},
        {"\xe2\x80\x93", "'\xe2\x80\x93' (U+2013, a dash) in program: C's minus is '-'"},
        {"\xe2\x80\x94", "'\xe2\x80\x94' (U+2014, a dash) in program: C's minus is '-'"},
        {"\xe2\x88\x92", "'\xe2\x88\x92' (U+2212, a minus sign) in program: C's minus is '-'"},
        {"\xc2\xa0", "a non-breaking space (U+00A0) in program: use a plain space"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t k = strlen(v[i].bytes);
        if (k <= n && !memcmp(s, v[i].bytes, k)) {
            *len = k;
            return v[i].what;
        }
    }
    return NULL;
}

static void adv(lx *x)
{
    if (x->s[x->p] == '\n') {
        x->line++;
        x->col = 1;
    } else {
        x->col++;
    }
    x->p++;
}

/* A backslash-newline (or backslash-CR-LF) at p? Returns its length or 0. */
static size_t continuation(const lx *x, size_t p)
{
    if (p < x->n && x->s[p] == '\\') {
        if (p + 1 < x->n && x->s[p + 1] == '\n') return 2;
        if (p + 2 < x->n && x->s[p + 1] == '\r' && x->s[p + 2] == '\n') return 3;
    }
    return 0;
}

static void push(lx *x, int kind, size_t off, int line, int col)
{
    if (x->out->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 1024;
        x->out->v = ps_xrealloc(x->out->v, x->cap * sizeof(ps_tok));
    }
    x->out->v[x->out->n++] = (ps_tok){kind, off, x->p - off, line, col};
}

/* Block comment starting at "/ *"; 0 or 2. */
static int block_comment(lx *x, int line, int col)
{
    adv(x);
    adv(x);
    while (x->p < x->n) {
        if (x->s[x->p] == '*' && x->p + 1 < x->n && x->s[x->p + 1] == '/') {
            adv(x);
            adv(x);
            return 0;
        }
        adv(x);
    }
    return ps_diag_error(x->d, line, col, "unterminated comment");
}

static void line_comment(lx *x)
{
    while (x->p < x->n && x->s[x->p] != '\n') {
        size_t c = continuation(x, x->p);
        if (c) {
            for (size_t i = 0; i < c; i++) adv(x);
        } else {
            adv(x);
        }
    }
}

/* String or character literal; quote is '"' or '\''.  0 or 2. */
static int literal(lx *x, char quote, int line, int col)
{
    adv(x);
    while (x->p < x->n) {
        char c = x->s[x->p];
        if (c == '\\') {
            adv(x);
            if (x->p < x->n) adv(x);  /* escape or continuation, kept as is */
            continue;
        }
        if (c == '\n') break;
        adv(x);
        if (c == quote) return 0;
    }
    return ps_diag_error(x->d, line, col, quote == '"' ? "unterminated string literal"
                                                       : "unterminated character literal");
}

/* A preprocessor directive from '#' to the end of its (continued) line. */
static int directive(lx *x)
{
    while (x->p < x->n && x->s[x->p] != '\n') {
        size_t c = continuation(x, x->p);
        char ch = x->s[x->p];
        int line = x->line, col = x->col;
        if (c) {
            for (size_t i = 0; i < c; i++) adv(x);
        } else if (ch == '/' && x->p + 1 < x->n && x->s[x->p + 1] == '*') {
            if (block_comment(x, line, col)) return 2;
        } else if (ch == '/' && x->p + 1 < x->n && x->s[x->p + 1] == '/') {
            line_comment(x);
        } else if (ch == '"' || ch == '\'') {
            /* #include <a'b> or #error text can hold a lone quote: only a
             * terminated literal counts as one */
            size_t save_p = x->p;
            int sl = x->line, sc = x->col;
            ps_diag probe;
            ps_diag_init(&probe, "", x->s, x->n);
            ps_diag *keep = x->d;
            x->d = &probe;
            int bad = literal(x, ch, line, col);
            x->d = keep;
            if (bad) {
                x->p = save_p;
                x->line = sl;
                x->col = sc;
                adv(x);
            }
        } else if (ch == '\\' && x->p + 1 < x->n && ident_start((unsigned char)x->s[x->p + 1])) {
            return ps_diag_error(x->d, line, col,
                                 "LOOP construct inside a preprocessor directive is not supported");
        } else {
            adv(x);
        }
    }
    return 0;
}

int ps_lex(const char *src, size_t len, ps_toks *out, ps_diag *d)
{
    lx x = {src, len, 0, 1, 1, out, 0, d};
    out->v = NULL;
    out->n = 0;
    int at_line_start = 1;   /* only blanks since the last newline: '#' starts a directive */
    /* a NUL byte, anywhere (in a comment too): not a text file (a NUL would
     * end the text for every C tool after this one) */
    const char *nul = memchr(src, '\0', len);
    if (nul) {
        int line = 1, col = 1;
        for (const char *p = src; p < nul; p++) {
            if (*p == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        ps_diag_error(d, line, col, "a NUL byte in the file: a LOOP program is text (is this a binary file?)");
        goto fail;
    }
    while (x.p < x.n) {
        size_t off = x.p;
        int line = x.line, col = x.col;
        char c = src[x.p];
        size_t cont = continuation(&x, x.p);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || cont) {
            while (x.p < x.n) {
                char w = src[x.p];
                size_t k = continuation(&x, x.p);
                if (k) {
                    for (size_t i = 0; i < k; i++) adv(&x);
                } else if (w == ' ' || w == '\t' || w == '\n' || w == '\r' || w == '\f' || w == '\v') {
                    if (w == '\n') at_line_start = 1;
                    adv(&x);
                } else {
                    break;
                }
            }
            push(&x, PS_TK_WS, off, line, col);
            continue;
        }
        if (c == '/' && x.p + 1 < x.n && src[x.p + 1] == '*') {
            if (block_comment(&x, line, col)) goto fail;
            push(&x, PS_TK_COMMENT, off, line, col);
            continue;
        }
        if (c == '/' && x.p + 1 < x.n && src[x.p + 1] == '/') {
            line_comment(&x);
            push(&x, PS_TK_COMMENT, off, line, col);
            continue;
        }
        if (c == '#' && at_line_start) {
            if (directive(&x)) goto fail;
            push(&x, PS_TK_PP, off, line, col);
            continue;
        }
        at_line_start = 0;
        if (c == '"' || c == '\'') {
            if (literal(&x, c, line, col)) goto fail;
            push(&x, c == '"' ? PS_TK_STRING : PS_TK_CHAR, off, line, col);
            continue;
        }
        size_t lk;
        const char *look = (unsigned char)c >= 0x80 ? lookalike(src + x.p, x.n - x.p, &lk) : NULL;
        if (look) {
            ps_diag_error(d, line, col, "%s", look);
            goto fail;
        }
        if (ident_start((unsigned char)c)) {
            while (x.p < x.n && ident_char((unsigned char)src[x.p])) {
                if ((unsigned char)src[x.p] >= 0x80 && (look = lookalike(src + x.p, x.n - x.p, &lk))) {
                    ps_diag_error(d, x.line, x.col, "%s", look);
                    goto fail;
                }
                adv(&x);
            }
            /* L"..", u8"..", u'x': prefix and literal form one token */
            if (x.p < x.n && (src[x.p] == '"' || src[x.p] == '\'') && x.p - off <= 2 &&
                strchr("LuU8", src[off])) {
                char q = src[x.p];
                if (literal(&x, q, x.line, x.col)) goto fail;
                push(&x, q == '"' ? PS_TK_STRING : PS_TK_CHAR, off, line, col);
                continue;
            }
            push(&x, PS_TK_IDENT, off, line, col);
            continue;
        }
        if (isdigit((unsigned char)c) || (c == '.' && x.p + 1 < x.n && isdigit((unsigned char)src[x.p + 1]))) {
            /* pp-number: digits, letters, '.', '_' and exponent signs */
            while (x.p < x.n) {
                char w = src[x.p];
                if (ident_char((unsigned char)w) || w == '.') {
                    adv(&x);
                } else if ((w == '+' || w == '-') && strchr("eEpP", src[x.p - 1])) {
                    adv(&x);
                } else {
                    break;
                }
            }
            push(&x, PS_TK_NUMBER, off, line, col);
            continue;
        }
        if (c == '\\') {
            if (x.p + 1 < x.n && ident_start((unsigned char)src[x.p + 1])) {
                adv(&x);
                while (x.p < x.n && ident_char((unsigned char)src[x.p])) adv(&x);
                push(&x, PS_TK_CONSTRUCT, off, line, col);
                continue;
            }
            ps_diag_error(d, line, col, "stray '\\' in program (a construct is '\\NAME')");
            goto fail;
        }
        if ((unsigned char)c < 32 || c == 127) {
            /* a control character outside comments and literals: C has none
             * (compilers call it a "stray '\1' in program") */
            ps_diag_error(d, line, col, "stray control character (byte 0x%02X) in program", (unsigned)(unsigned char)c);
            goto fail;
        }
        adv(&x);
        push(&x, PS_TK_PUNCT, off, line, col);
    }
    {
        size_t off = x.p;
        push(&x, PS_TK_EOF, off, x.line, x.col);
    }
    return 0;
fail:
    ps_toks_free(out);
    return 2;
}

void ps_toks_free(ps_toks *t)
{
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

int ps_tok_is(const char *src, const ps_tok *t, char c)
{
    return t->kind == PS_TK_PUNCT && src[t->off] == c;
}

int ps_tok_ident(const char *src, const ps_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->kind == PS_TK_IDENT && t->len == n && !memcmp(src + t->off, s, n);
}
