/*
 * codegen.h - LOOP program to C: the generator behind 'parscope gen'.
 *
 * Plain C passes through byte for byte; constructs become calls of the
 * parscope runtime (include/parscope/loop.h); '#line' directives map every
 * line back to the .loop file.  The white-box variants are conditional
 * compilation blocks selected by PS_VARIANT (0 comm, 1 comm + data, 2 full)
 * and PS_SECTIONS (section timing); docs/LANGUAGE.md states the rules.
 */
#ifndef PS_LANG_CODEGEN_H
#define PS_LANG_CODEGEN_H

#include <stddef.h>

#include "lang/diag.h"

enum ps_variant { PS_VARIANT_COMM = 0, PS_VARIANT_DATA = 1, PS_VARIANT_FULL = 2, PS_VARIANT_SECTIONS = 3 };

typedef struct ps_gen_opts {
    const char *path;          /* the .loop file's name for #line and messages */
    int         variant;       /* default compiled into the C (enum ps_variant) */
    const char *entry;         /* name of the emitted entry function; NULL = "main" */
    const char *source_symbol; /* if set: also emit `const char *const SYM = "<the .loop text>";` */
} ps_gen_opts;

/* Parses a variant name (NULL = full); -1 if unknown. */
int ps_variant_parse(const char *name);
const char *ps_variant_name(int variant);

/* Generates C from the LOOP source.  0 with *out (malloc'd, NUL-terminated),
 * or 2 with the diagnostic in d and *out NULL. */
int ps_gen(const char *src, size_t len, const ps_gen_opts *o, char **out, size_t *outlen, ps_diag *d);

#endif
