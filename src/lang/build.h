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

/* Generates and compiles loop_path into exe (written atomically).  keep_c:
 * also write the generated C there (or NULL).  show: copy the compiler's
 * messages to stderr as they are.  0 ok, 1 compiler failed (its messages in
 * err), 2 bad input (the diagnostic in err).  paths NULL: found as above. */
int ps_build_file(const char *loop_path, const char *variant, const char *exe, const char *keep_c,
                  const ps_build_paths *paths, int show, char *err, size_t errlen);

/* As ps_build_file, into the cache ($XDG_CACHE_HOME/parscope or
 * ~/.cache/parscope)/<hash>/prog, where hash covers the generated C, the
 * variant, the compiler and the runtime library; an existing entry is reused.
 * variant: NULL|"full"|"comm"|"data"|"sections".
 * 0 ok (exe_out = the executable), 2 bad input (gen error text in err),
 * 1 compile failed. */
int ps_build_cached(const char *loop_path, const char *variant, char *exe_out, size_t exe_len, char *err,
                    size_t errlen);

/* The same from source text in memory (a built-in workload's embedded
 * .loop); name is used in messages and #line directives. */
int ps_build_cached_source(const char *name, const char *src, size_t len, const char *variant, char *exe_out,
                           size_t exe_len, char *err, size_t errlen);

#endif
