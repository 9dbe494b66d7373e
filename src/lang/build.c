/* build.c - compiling generated LOOP programs (see build.h). */
#include "lang/build.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/codegen.h"
#include "lang/diag.h"
#include "lang/source.h"
#include "util/output.h"
#include "util/proc.h"
#include "util/util.h"

/* Configured by cmake/workloads.cmake. */
#ifndef PS_LANG_SOURCE_DIR
#define PS_LANG_SOURCE_DIR ""
#endif
#ifndef PS_LANG_BUILD_DIR
#define PS_LANG_BUILD_DIR ""
#endif
#ifndef PS_LANG_LIBDIR
#define PS_LANG_LIBDIR "lib"
#endif
#ifndef PS_LANG_EXTRA_FLAGS
#define PS_LANG_EXTRA_FLAGS ""
#endif

static int have_runtime(ps_build_paths *p, const char *inc, const char *lib)
{
    char h[4200];
    snprintf(h, sizeof h, "%.4000s/parscope/loop.h", inc);
    if (!ps_file_exists(h) || !ps_file_exists(lib)) return 0;
    snprintf(p->include_dir, sizeof p->include_dir, "%.4000s", inc);
    snprintf(p->lib, sizeof p->lib, "%.4000s", lib);
    return 1;
}

int ps_build_find_runtime(ps_build_paths *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    snprintf(p->extra_flags, sizeof p->extra_flags, "%s", PS_LANG_EXTRA_FLAGS);
    const char *el = getenv("PARSCOPE_LIB"), *ei = getenv("PARSCOPE_INCLUDE");
    if (el && *el && ei && *ei) {
        if (have_runtime(p, ei, el)) return 0;
        ps_seterr(err, errlen, "PARSCOPE_LIB=%s / PARSCOPE_INCLUDE=%s: libparscope.a or parscope/loop.h not found",
                  el, ei);
        return -1;
    }
    char self[4096], inc[4200], lib[4200];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *bindir = dirname(self);           /* .../bin */
        char parent[4096];
        snprintf(parent, sizeof parent, "%s", bindir);
        char *prefix = dirname(parent);
        /* build tree: BUILD/bin/parscope */
        snprintf(lib, sizeof lib, "%.4000s/libparscope.a", prefix);
        snprintf(inc, sizeof inc, "%.4000s/include", PS_LANG_SOURCE_DIR);
        if (PS_LANG_SOURCE_DIR[0] && have_runtime(p, inc, lib)) return 0;
        /* installed: PREFIX/bin/parscope */
        snprintf(lib, sizeof lib, "%.4000s/%.100s/libparscope.a", prefix, PS_LANG_LIBDIR);
        snprintf(inc, sizeof inc, "%.4000s/include", prefix);
        if (have_runtime(p, inc, lib)) return 0;
    }
    /* a program of the build tree that is not BUILD/bin/parscope (tests) */
    snprintf(lib, sizeof lib, "%.4000s/libparscope.a", PS_LANG_BUILD_DIR);
    snprintf(inc, sizeof inc, "%.4000s/include", PS_LANG_SOURCE_DIR);
    if (PS_LANG_BUILD_DIR[0] && have_runtime(p, inc, lib)) return 0;
    ps_seterr(err, errlen,
              "cannot find the parscope runtime (libparscope.a and parscope/loop.h) next to this program; "
              "set PARSCOPE_LIB and PARSCOPE_INCLUDE");
    return -1;
}

/* Splits $MPICC (it may be "ccache mpicc") into words appended to argv;
 * without it, the MPI compiler wrapper parscope itself was built with (so
 * programs link the same MPI library), else mpicc from PATH.  The number of
 * words, or -1 with err when $MPICC names no program (never a silent
 * fall-back to another compiler). */
static int compiler_words(char **argv, int max, char *buf, size_t len, char *err, size_t errlen)
{
    const char *cc = getenv("MPICC");
    int from_env = cc && *cc;
#ifdef PS_DEFAULT_MPICC
    if (!from_env && access(PS_DEFAULT_MPICC, X_OK) == 0) cc = PS_DEFAULT_MPICC;
#endif
    snprintf(buf, len, "%s", cc && *cc ? cc : "mpicc");
    int n = 0;
    for (char *s = strtok(buf, " \t"); s && n < max; s = strtok(NULL, " \t")) argv[n++] = s;
    char found[4096];
    if (n == 0 || !ps_find_program(argv[0], found, sizeof found)) {
        if (from_env)
            ps_seterr(err, errlen, "MPICC=%s: no such program (it names the MPI compiler wrapper, e.g. mpicc)", cc);
        else
            ps_seterr(err, errlen, "no MPI compiler wrapper found: mpicc is not on PATH (install Open MPI or MPICH, "
                                   "or set MPICC)");
        return -1;
    }
    return n;
}

/* Where line `line` (1-based) of src begins; -1 if src has no such line. */
static long line_start(const char *src, size_t n, long line)
{
    size_t i = 0;
    for (long l = 1; l < line; l++) {
        while (i < n && src[i] != '\n') i++;
        if (i++ >= n) return -1;
    }
    return (long)i;
}

/* The display width of the line beginning at i: tabs to 8 columns, as the
 * compiler counts. */
static long line_width(const char *src, size_t n, size_t i)
{
    long w = 0;
    for (; i < n && src[i] != '\n'; i++) w = src[i] == '\t' ? (w / 8 + 1) * 8 : w + 1;
    return w;
}

/* The column of the first construct (a backslash) on the line beginning at
 * i, 0 if none. */
static long construct_column(const char *src, size_t n, size_t i)
{
    for (long c = 1; i < n && src[i] != '\n'; i++, c++)
        if (src[i] == '\\') return c;
    return 0;
}

/* A line of the compiler's excerpt of the source: "  6 | code" or "    |   ^". */
static int is_excerpt(const char *l, size_t n)
{
    const char *bar = memchr(l, '|', n);
    return bar && strspn(l, " 0123456789") == (size_t)(bar - l);
}

/* A line that starts a diagnostic of its own ("FILE:LINE:COL: error: ...",
 * a warning, a fatal error) or gives one its context ("In file included
 * from", "In function", "N errors generated"): not a note or an excerpt. */
static int starts_message(const char *l, size_t n)
{
    static const char *const heads[] = {": error:", ": warning:", ": fatal error:", "In file included from",
                                        ": In function", " generated.", NULL};
    for (int k = 0; heads[k]; k++)
        for (size_t i = 0, m = strlen(heads[k]); i + m <= n; i++)
            if (!memcmp(l + i, heads[k], m)) return 1;
    return 0;
}

/* Context lines that belong to the message after them (printed with it). */
static int is_context(const char *l, size_t n)
{
    static const char *const heads[] = {"In file included from", "                 from ", NULL};
    for (int k = 0; heads[k]; k++)
        if (n >= strlen(heads[k]) && !memcmp(l, heads[k], strlen(heads[k]))) return 1;
    for (size_t i = 0; i + 13 <= n; i++)
        if (!memcmp(l + i, ": In function", 13)) return 1;
    return 0;
}

#define PS_LOOP_MARK "ps-loop@"

/* A count argument of the wrong type (PS_ARG_BYTES and friends in
 * parscope/loop.h): the static assertion's message carries the argument's
 * place, "ps-loop@LINE:COL: TEXT", quoted and escaped by GCC and Clang up
 * to 15 ("\"ps-loop@5:18: \\\\MULTIBCAST0\\'s ...\""), plain by later Clang.
 * 1 with line, col and the text, else 0. */
static int loop_type_message(const char *l, size_t n, long *line, long *col, char *msg, size_t msglen)
{
    const char *m = NULL;
    for (size_t i = 0; i + strlen(PS_LOOP_MARK) <= n && !m; i++)
        if (!memcmp(l + i, PS_LOOP_MARK, strlen(PS_LOOP_MARK))) m = l + i;
    if (!m) return 0;
    int used = 0;
    if (sscanf(m + strlen(PS_LOOP_MARK), "%ld:%ld: %n", line, col, &used) != 2 || used == 0) return 0;
    const char *t = m + strlen(PS_LOOP_MARK) + used, *end = l + n;
    int quoted = m > l && m[-1] == '"';
    if (quoted)
        while (end > t && end[-1] != '"') end--;
    if (quoted && end > t) end--;
    size_t k = 0;
    for (; t < end && k + 1 < msglen; t++) {
        if (quoted && *t == '\\' && t + 1 < end) t++;
        msg[k++] = *t;
    }
    msg[k] = 0;
    return 1;
}

/* The compiler's messages to standard error.  Inside a construct the code
 * it compiles is generated, so its columns are the generated line's, often
 * past the end of the .loop line that #line names: such a location is moved
 * to the construct that begins on the line (or loses its column), and the
 * excerpt of the line with its misplaced caret is left out.  A count
 * argument of the wrong type is printed as parscope's own diagnostic at the
 * argument (once, however many times the generated code checks it), without
 * the compiler's notes about the macros of parscope/loop.h. */
static void print_compiler_messages(const char *text, size_t len, const char *loop_path, const char *src,
                                    size_t srclen)
{
    size_t pl = strlen(loop_path);
    int skip_excerpt = 0, skip_notes = 0;
    char *context = NULL; /* context lines waiting for the message they introduce */
    size_t clen = 0;
    char **seen = NULL;
    int nseen = 0;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n') e++;
        const char *l = text + i;
        int n = (int)(e - i);
        i = e + 1;
        long line, col;
        int used = 0;
        char msg[1024];
        if (is_context(l, (size_t)n)) {
            context = ps_xrealloc(context, clen + (size_t)n + 2);
            memcpy(context + clen, l, (size_t)n);
            clen += (size_t)n;
            context[clen++] = '\n';
            context[clen] = 0;
            skip_notes = 0;
            continue;
        }
        if (loop_type_message(l, (size_t)n, &line, &col, msg, sizeof msg)) {
            clen = 0;
            skip_notes = 1;
            char *key = ps_xasprintf("%ld:%ld:%s", line, col, msg);
            int dup = 0;
            for (int k = 0; k < nseen && !dup; k++) dup = !strcmp(seen[k], key);
            if (dup) {
                free(key);
                continue;
            }
            seen = ps_xrealloc(seen, (size_t)(nseen + 1) * sizeof *seen);
            seen[nseen++] = key;
            ps_diag d;
            ps_diag_init(&d, loop_path, src, srclen);
            ps_diag_error(&d, (int)line, (int)col, "%s", msg);
            fputs(d.msg, stderr);
            ps_diag_free(&d);
            continue;
        }
        if (skip_notes && !starts_message(l, (size_t)n)) continue;
        skip_notes = 0;
        if (clen) {
            fputs(context, stderr);
            clen = 0;
        }
        if ((size_t)n > pl && !strncmp(l, loop_path, pl) && sscanf(l + pl, ":%ld:%ld:%n", &line, &col, &used) == 2 &&
            used > 0) {
            long at = line_start(src, srclen, line);
            skip_excerpt = at >= 0 && col > line_width(src, srclen, (size_t)at) + 1;
            long cc = skip_excerpt ? construct_column(src, srclen, (size_t)at) : col;
            if (!skip_excerpt) fprintf(stderr, "%.*s\n", n, l);
            else if (cc) fprintf(stderr, "%s:%ld:%ld:%.*s\n", loop_path, line, cc, n - (int)pl - used, l + pl + used);
            else fprintf(stderr, "%s:%ld:%.*s\n", loop_path, line, n - (int)pl - used, l + pl + used);
        } else if (!(skip_excerpt && is_excerpt(l, (size_t)n))) {
            skip_excerpt = 0;
            fprintf(stderr, "%.*s\n", n, l);
        }
    }
    if (clen) fputs(context, stderr);
    for (int k = 0; k < nseen; k++) free(seen[k]);
    free(seen);
    free(context);
}

/* Compiles c_path (generated from loop_path, src) into exe_path.  0, or 2
 * with err saying what failed in one line; the compiler's own messages (they
 * point into the .loop file) go to standard error once it has ended, with
 * show, else if it failed. */
static int compile(const char *loop_path, const char *src, size_t srclen, const char *c_path, const char *exe_path,
                   const ps_build_paths *p, int show, char *err, size_t errlen)
{
    char *argv[64];
    char ccbuf[1024], extra[512];
    int n = compiler_words(argv, 8, ccbuf, sizeof ccbuf, err, errlen);
    if (n < 0) return 2;
    char incflag[4200];
    snprintf(incflag, sizeof incflag, "-I%.4000s", p->include_dir);
    argv[n++] = "-std=gnu17";
    argv[n++] = "-O2";
    argv[n++] = incflag;
    argv[n++] = "-o";
    argv[n++] = (char *)exe_path;
    argv[n++] = (char *)c_path;
    argv[n++] = (char *)p->lib;
    argv[n++] = "-ljansson"; /* the runtime writes the trace's metadata with it */
    argv[n++] = "-lm";
    /* every library function bound at load: bound lazily, the first call of
     * each (fmod, memcmp, ...) looked its symbol up through every library
     * MPI loads, 20-60 us, inside the timed interval of whatever ran first */
    argv[n++] = "-Wl,-z,now";
    snprintf(extra, sizeof extra, "%s", p->extra_flags);
    for (char *s = strtok(extra, " "); s && n < 62; s = strtok(NULL, " ")) argv[n++] = s;
    argv[n] = NULL;
    /* its messages (standard output and error) are kept, and shown once it
     * has ended (their locations mended) if asked or if it failed */
    ps_proc_opts po = {.out_to_err = 1};
    ps_proc_result r;
    int rc = ps_proc_run(argv, &po, &r);
    if ((show || rc) && r.err_len) print_compiler_messages(r.err, r.err_len, loop_path, src, srclen);
    if (rc) {
        char how[512];
        ps_proc_describe(&r, argv[0], how, sizeof how);
        if (!r.started)
            ps_seterr(err, errlen, "cannot run the MPI compiler wrapper (set MPICC): %s", how);
        else if (r.interrupted)
            ps_seterr(err, errlen, "compiling %s was interrupted", loop_path);
        else
            ps_seterr(err, errlen, "compiling the C generated from %s failed: '%s' ended with %s%s", loop_path, argv[0],
                      how, r.err_len ? " (its messages are above)" : " and printed nothing");
        rc = 2;
    }
    ps_proc_result_free(&r);
    return rc;
}

static int gen_text(const char *name, const char *src, size_t len, const char *variant, char **c, size_t *clen,
                    char *err, size_t errlen)
{
    int v = ps_variant_parse(variant);
    if (v < 0) {
        ps_seterr(err, errlen, "unknown variant '%s' (full, comm, data, sections)", variant);
        return 2;
    }
    ps_gen_opts o = {name, v, NULL, NULL};
    ps_diag d;
    ps_diag_init(&d, name, src, len);
    int rc = ps_gen(src, len, &o, c, clen, &d);
    if (rc) ps_seterr(err, errlen, "%s", d.msg);
    ps_diag_free(&d);
    return rc ? 2 : 0;
}

int ps_build_file(const char *loop_path, const char *variant, const char *exe, const char *keep_c,
                  const ps_build_paths *paths, int show, char *err, size_t errlen)
{
    ps_build_paths found;
    if (!paths) {
        if (ps_build_find_runtime(&found, err, errlen)) return 2;
        paths = &found;
    }
    size_t len = 0;
    char *src = ps_lang_read_source(loop_path, NULL, &len, err, errlen);
    if (!src) return 2;
    char *c = NULL;
    size_t clen = 0;
    int rc = gen_text(loop_path, src, len, variant, &c, &clen, err, errlen);
    if (rc) {
        free(src);
        return rc;
    }
    if (keep_c && ps_write_file(keep_c, c, clen, err, errlen)) {
        free(src);
        free(c);
        return 2;
    }
    char *dir = ps_mktempdir("parscope-build", err, errlen);
    if (!dir) {
        free(src);
        free(c);
        return 2;
    }
    char *cpath = ps_xasprintf("%s/prog.c", dir);
    /* compiled in a private directory, then put in place by the one output
     * writer: renamed over a regular file, copied into a device */
    char *tmp_exe = ps_xasprintf("%s/prog", dir);
    rc = ps_write_file(cpath, c, clen, err, errlen) ? 2
                                                    : compile(loop_path, src, len, cpath, tmp_exe, paths, show, err,
                                                              errlen);
    free(src);
    if (!rc && ps_output_install(tmp_exe, exe, 1, err, errlen)) rc = 2;
    free(tmp_exe);
    free(cpath);
    ps_rmtree(dir);
    free(dir);
    free(c);
    return rc;
}

/* FNV-1a, 64 bits: the cache key (not a security boundary). */
static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t fnv_file_id(uint64_t h, const char *path)
{
    struct stat st;
    h = fnv(h, path, strlen(path) + 1);
    if (stat(path, &st) == 0) {
        int64_t v[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec};
        h = fnv(h, v, sizeof v);
    }
    return h;
}

static int cache_dir(char *buf, size_t len, char *err, size_t errlen)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (x && *x) snprintf(buf, len, "%s/parscope", x);
    else if (home && *home) snprintf(buf, len, "%s/.cache/parscope", home);
    else snprintf(buf, len, "/tmp/parscope-cache-%ld", (long)getuid());
    return ps_mkdirs(buf, err, errlen);
}

int ps_build_cached_source(const char *name, const char *src, size_t len, const char *variant, char *exe_out,
                           size_t exe_len, char *err, size_t errlen)
{
    ps_build_paths paths;
    if (ps_build_find_runtime(&paths, err, errlen)) return 2;
    char *c = NULL;
    size_t clen = 0;
    int rc = gen_text(name, src, len, variant, &c, &clen, err, errlen);
    if (rc) return rc;
    char ccbuf[1024];
    char *words[8];
    int nw = compiler_words(words, 8, ccbuf, sizeof ccbuf, err, errlen);
    if (nw < 0) {
        free(c);
        return 2;
    }
    uint64_t h = 14695981039346656037ULL;
    h = fnv(h, c, clen);
    for (int i = 0; i < nw; i++) h = fnv(h, words[i], strlen(words[i]) + 1);
    h = fnv(h, paths.extra_flags, strlen(paths.extra_flags) + 1);
    h = fnv_file_id(h, paths.lib);
    char hdr[4200];
    snprintf(hdr, sizeof hdr, "%.4000s/parscope/loop.h", paths.include_dir);
    h = fnv_file_id(h, hdr);
    snprintf(hdr, sizeof hdr, "%.4000s/parscope/parscope.h", paths.include_dir);
    h = fnv_file_id(h, hdr);

    char root[4096];
    if (cache_dir(root, sizeof root, err, errlen)) {
        free(c);
        return 2;
    }
    char *entry = ps_xasprintf("%s/%016llx", root, (unsigned long long)h);
    char *exe = ps_xasprintf("%s/prog", entry);
    if (access(exe, X_OK) != 0) {
        /* build in a private directory, then publish it with one rename */
        char *tmp = ps_xasprintf("%s/.tmp-%016llx-%ld", root, (unsigned long long)h, (long)getpid());
        ps_rmtree(tmp);
        char *cpath = ps_xasprintf("%s/prog.c", tmp);
        char *tmp_exe = ps_xasprintf("%s/prog", tmp);
        if (ps_mkdirs(tmp, err, errlen) || ps_write_file(cpath, c, clen, err, errlen)) rc = 2;
        else rc = compile(name, src, len, cpath, tmp_exe, &paths, 0, err, errlen);
        if (!rc && rename(tmp, entry) != 0 && access(exe, X_OK) != 0) {
            ps_seterr(err, errlen, "cannot create %s: %s", entry, strerror(errno));
            rc = 2;
        }
        ps_rmtree(tmp);
        free(tmp);
        free(cpath);
        free(tmp_exe);
    }
    if (!rc) {
        if (strlen(exe) + 1 > exe_len) {
            ps_seterr(err, errlen, "path too long: %s", exe);
            rc = 2;
        } else {
            snprintf(exe_out, exe_len, "%s", exe);
        }
    }
    free(entry);
    free(exe);
    free(c);
    return rc;
}

int ps_build_cached(const char *loop_path, const char *variant, char *exe_out, size_t exe_len, char *err,
                    size_t errlen)
{
    size_t len = 0;
    char *src = ps_lang_read_source(loop_path, NULL, &len, err, errlen);
    if (!src) return 2;
    int rc = ps_build_cached_source(loop_path, src, len, variant, exe_out, exe_len, err, errlen);
    free(src);
    return rc;
}
