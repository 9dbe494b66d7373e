/*
 * parser.h - the structure of a LOOP program: plain C text, brace blocks and
 * constructs, as a tree over the lexer's tokens.
 *
 * The parser checks what the generator relies on: every construct is known
 * and has the right number of arguments, braces balance, constructs that
 * need a block have one, constructs are statements (not inside an
 * expression).  Everything else is left to the C compiler.
 */
#ifndef PS_LANG_PARSER_H
#define PS_LANG_PARSER_H

#include <stddef.h>

#include "lang/diag.h"
#include "lang/lexer.h"

enum ps_construct_kind {
    PS_K_OPEN0, PS_K_CLOSE0, PS_K_VEC, PS_K_MAT, PS_K_INIT_ARRAY, PS_K_LOOP,
    PS_K_SCALPROD, PS_K_MATVECPROD, PS_K_MATPROD, PS_K_WORK,
    PS_K_COMMUNICATE, PS_K_EXCHANGE, PS_K_MULTIBCAST0, PS_K_MULTIBCAST_ME, PS_K_MULTIBCAST_ALTER,
    PS_K_TREE_BCAST, PS_K_TREE_COLLECT_VEC, PS_K_TREE_DISTRIB_VEC, PS_K_VISIBLE_SYNC,
    PS_K_SEND, PS_K_RECEIVE, PS_K_BSEND, PS_K_BRECEIVE, PS_K_WAIT,
    PS_K_SECTION, PS_K_DATA_MOVE, PS_K_KEEP, PS_K_COMPUTE,
    PS_K__COUNT
};

/* What the language knows about each construct. */
typedef struct ps_construct_info {
    const char *name;       /* without the backslash */
    int kind;
    int min_args, max_args; /* -1 max: no argument list at all (\LOOP, \KEEP, \COMPUTE) */
    int block;              /* 0 none, 1 required, 2 optional (\COMMUNICATE) */
} ps_construct_info;

const ps_construct_info *ps_construct_lookup(const char *name, size_t len);

enum ps_node_kind { PS_N_TOKENS = 1, PS_N_BRACE, PS_N_CONSTRUCT };

typedef struct ps_range { size_t a, b; } ps_range;   /* tokens [a, b) */

typedef struct ps_node ps_node;
typedef struct ps_nodes { ps_node **v; size_t n, cap; } ps_nodes;

struct ps_node {
    int      kind;
    ps_range toks;          /* TOKENS: the tokens; BRACE: '{' .. '}' inclusive;
                               CONSTRUCT: everything it consumed */
    ps_nodes kids;          /* BRACE: inside; CONSTRUCT: its block's inside */
    /* constructs */
    const ps_construct_info *info;
    size_t   name_tok;
    ps_range *args;         /* trimmed argument token ranges */
    int      nargs;
    size_t   lparen;        /* token of '(' or (size_t)-1 */
    size_t   iter_tok;      /* \LOOP iterator name or (size_t)-1 */
    size_t   lbrace, rbrace;/* block braces, or (size_t)-1 */
    size_t  *names;         /* \VEC / \MAT declared names (identifier tokens) */
    int      nnames;
    int      has_construct; /* BRACE / CONSTRUCT: a construct somewhere inside */
};

typedef struct ps_program {
    const char *src;
    size_t      len;
    ps_toks     toks;
    ps_nodes    top;
} ps_program;

/* Lexes and parses.  0, or 2 with the diagnostic in d. */
int  ps_parse(const char *src, size_t len, ps_program *p, ps_diag *d);
void ps_program_free(ps_program *p);

/* Index of the next token at or after i that is not blank or a comment. */
size_t ps_next_sig(const ps_program *p, size_t i);

#endif
