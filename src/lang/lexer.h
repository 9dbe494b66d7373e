/*
 * lexer.h - tokens of a LOOP program: C tokens plus backslash constructs.
 *
 * The lexer keeps every byte: each token is a range of the source, so plain C
 * passes through the generator unchanged.  String and character literals,
 * comments, preprocessor lines and line continuations are whole tokens, so a
 * backslash inside them is never mistaken for a construct.
 */
#ifndef PS_LANG_LEXER_H
#define PS_LANG_LEXER_H

#include <stddef.h>

#include "lang/diag.h"

enum ps_tok_kind {
    PS_TK_WS = 1,     /* blanks, newlines, backslash-newline continuations */
    PS_TK_COMMENT,    /* block or line comment */
    PS_TK_PP,         /* a whole preprocessor directive line (with continuations) */
    PS_TK_IDENT,
    PS_TK_NUMBER,
    PS_TK_STRING,
    PS_TK_CHAR,
    PS_TK_PUNCT,      /* one punctuation character */
    PS_TK_CONSTRUCT,  /* backslash + identifier: off/len cover both */
    PS_TK_EOF
};

typedef struct ps_tok {
    int    kind;
    size_t off, len;
    int    line, col;   /* 1-based, of the first byte */
} ps_tok;

typedef struct ps_toks {
    ps_tok *v;
    size_t  n;
} ps_toks;

/* Tokenizes src (len bytes).  0, or 2 with the diagnostic in d. */
int  ps_lex(const char *src, size_t len, ps_toks *out, ps_diag *d);
void ps_toks_free(ps_toks *t);

/* Nonzero when token t is the punctuation character c. */
int ps_tok_is(const char *src, const ps_tok *t, char c);
/* Nonzero when token t is the identifier s. */
int ps_tok_ident(const char *src, const ps_tok *t, const char *s);

#endif
