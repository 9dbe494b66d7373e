/*
 * build.h - compiling generated LOOP programs with the MPI compiler wrapper.
 *
 * The runtime is found next to the running parscope: in a build tree
 * (BUILD/bin/parscope -> BUILD/libparscope.a and the source tree's include/),
 * or in an installed prefix (PREFIX/bin -> PREFIX/lib/libparscope.a and
 * PREFIX/include).  PARSCOPE_LIB and PARSCOPE_INCLUDE override both; $MPICC
 * names the compiler wrapper (default mpicc).
 */
#ifndef PS_LANG_BUILD_H
#define PS_LANG_BUILD_H

#include <stddef.h>

typedef struct ps_build_paths {
    char include_dir[4096];   /* holds parscope/loop.h */
    char lib[4096];           /* libparscope.a */
    char extra_flags[512];    /* compiler flags the runtime was built with (sanitizers) */
} ps_build_paths;

/* 0, or -1 with err naming where it looked. */
int ps_build_find_runtime(ps_build_paths *p, char *err, size_t errlen);

/* Generates and compiles loop_path into exe (put in place by the output
 * writer, util/output.h: a device or FIFO is written into, never replaced).
 * keep_c: also write the generated C there (or NULL).  show: copy the
 * compiler's messages to stderr as they come (else they are printed once it
 * has failed).  0 ok, or 2 with err: a diagnostic of the generator
 * ("FILE:LINE:COL: ..."), or one line saying what failed (the C did not
 * compile: an error in the program's C is bad input too; no compiler; the
 * output cannot be written).  paths NULL: found as above. */
int ps_build_file(const char *loop_path, const char *variant, const char *exe, const char *keep_c,
                  const ps_build_paths *paths, int show, char *err, size_t errlen);

/* As ps_build_file, into the cache ($XDG_CACHE_HOME/parscope or
 * ~/.cache/parscope)/<hash>/prog, where hash covers the generated C, the
 * variant, the compiler and the runtime library; an existing entry is reused.
 * variant: NULL|"full"|"comm"|"data"|"sections".
 * 0 ok (exe_out = the executable), or 2 with err as ps_build_file. */
int ps_build_cached(const char *loop_path, const char *variant, char *exe_out, size_t exe_len, char *err,
                    size_t errlen);

/* The same from source text in memory (a built-in workload's embedded
 * .loop); name is used in messages and #line directives. */
int ps_build_cached_source(const char *name, const char *src, size_t len, const char *variant, char *exe_out,
                           size_t exe_len, char *err, size_t errlen);

#endif
