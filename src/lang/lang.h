/*
 * lang.h - the LOOP language part, as the command line uses it.
 *
 *   ps_lang_gen_command   'parscope gen' (and the build's parscope-gen tool)
 *   ps_lang_build_command 'parscope build'
 *   ps_build_cached       a .loop file to an executable, cached by content hash
 *
 * Statuses: 0 ok, 1 the C compiler failed, 2 bad usage or bad input (a
 * diagnostic naming FILE:LINE:COL).
 */
#ifndef PS_LANG_H
#define PS_LANG_H

#include <stddef.h>

#include "lang/build.h"
#include "lang/codegen.h"

/* Reads a .loop file and generates C; 0, or 2 with the diagnostic (or the
 * read error) in err. */
int ps_gen_file(const char *path, const ps_gen_opts *o, char **out, size_t *outlen, char *err, size_t errlen);

int ps_lang_gen_command(const char *prog, int argc, char **argv);
int ps_lang_build_command(const char *prog, int argc, char **argv, const ps_build_paths *paths);

#endif
