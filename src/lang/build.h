/*
 * build.h - compiling a LOOP program into an executable linked with the
 * parscope runtime, with a cache keyed by content hash.
 */
#ifndef PS_LANG_BUILD_H
#define PS_LANG_BUILD_H

#include <stddef.h>

/* Generates (variant NULL|"full"|"comm"|"data"|"sections"), compiles and
 * links loop_path, or reuses the cached executable for the same content.
 * Returns 0 with the executable's path in exe_out; 2 for a bad program (the
 * generator's diagnostics in err); 1 if the compiler failed. */
int ps_build_cached(const char *loop_path, const char *variant, char *exe_out, size_t exe_len, char *err,
                    size_t errlen);

#endif
