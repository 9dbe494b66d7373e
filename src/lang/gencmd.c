/* gencmd.c - 'parscope gen' and 'parscope build' (see lang.h). */
#include "lang/lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int ps_gen_file(const char *path, const ps_gen_opts *o, char **out, size_t *outlen, char *err, size_t errlen)
{
    size_t len = 0;
    char *src = ps_read_file(path, &len, err, errlen);
    if (!src) return 2;
    ps_diag d;
    ps_diag_init(&d, o->path ? o->path : path, src, len);
    int rc = ps_gen(src, len, o, out, outlen, &d);
    if (rc) ps_seterr(err, errlen, "%s", d.msg);
    free(src);
    return rc;
}

static void gen_usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s FILE.loop [-o FILE.c] [--variant full|comm|data|sections] [--entry NAME]\n"
            "\n"
            "Translates a LOOP program (C with backslash constructs) into C that calls the\n"
            "parscope runtime.  Errors are reported as FILE:LINE:COL with exit status 2 and\n"
            "no output written.\n"
            "\n"
            "  -o FILE.c         output file (default: FILE.c beside the input; '-' = stdout)\n"
            "  --variant V       default white-box variant compiled in: full (default), comm\n"
            "                    (communication only), data (communication + data movement),\n"
            "                    sections (full, with \\SECTION timing); -DPS_VARIANT=0|1|2 and\n"
            "                    -DPS_SECTIONS=0|1 override it when compiling\n"
            "  --entry NAME      name the entry function NAME instead of main\n"
            "  --source-symbol S also embed the .loop text as `const char *const S`\n"
            "  -h, --help        this help\n",
            prog);
}

static int usage_error(const char *prog, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '%s --help'.\n", prog);
    return 2;
}

/* FILE.loop -> FILE.c (or FILE + ext) */
static char *replace_ext(const char *path, const char *ext)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    return ps_xasprintf("%.*s%s", (int)n, path, ext);
}

/* The arguments of gen and build: one input file, -h/--help, and options
 * that take a value (every option is one of `valued`, each handed to
 * take(opt, value, ctx), which returns 0 or a usage error's status).  Returns
 * -1 to go on, else the command's exit status (0 after the help). */
static int parse_args(const char *prog, int argc, char **argv, void (*usage)(FILE *, const char *),
                      const char *const *valued, int (*take)(const char *prog, const char *opt, const char *v, void *ctx),
                      void *ctx, const char **in)
{
    *in = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int with_value = 0;
        for (const char *const *v = valued; *v; v++) with_value |= !strcmp(a, *v);
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout, prog);
            return 0;
        } else if (with_value) {
            if (i + 1 >= argc) return usage_error(prog, "option '%s' needs a value", a);
            int rc = take(prog, a, argv[++i], ctx);
            if (rc) return rc;
        } else if (a[0] == '-' && a[1]) {
            return usage_error(prog, "unknown option '%s'", a);
        } else if (*in) {
            return usage_error(prog, "more than one input file ('%s')", a);
        } else {
            *in = a;
        }
    }
    if (!*in) return usage_error(prog, "no input file%s", "");
    return -1;
}

/* The output path: the given one or the input's with another extension, never
 * the input itself.  NULL after a usage error. */
static char *output_path(const char *prog, const char *in, const char *out, const char *ext)
{
    char *path = out ? ps_xstrdup(out) : replace_ext(in, ext);
    if (strcmp(path, in) != 0) return path;
    free(path);
    usage_error(prog, "the output would overwrite the input '%s'", in);
    return NULL;
}

static void print_error(const char *err)
{
    fputs(err, stderr);
    if (err[0] && err[strlen(err) - 1] != '\n') fputc('\n', stderr);
}

static int variant_error(const char *prog, const char *v)
{
    return usage_error(prog, "unknown variant '%s' (full, comm, data, sections)", v);
}

typedef struct gen_args {
    ps_gen_opts o;
    const char *out;
} gen_args;

static int gen_take(const char *prog, const char *opt, const char *v, void *ctx)
{
    gen_args *g = ctx;
    if (!strcmp(opt, "-o")) g->out = v;
    else if (!strcmp(opt, "--entry")) g->o.entry = v;
    else if (!strcmp(opt, "--source-symbol")) g->o.source_symbol = v;
    else if ((g->o.variant = ps_variant_parse(v)) < 0) return variant_error(prog, v);
    return 0;
}

int ps_lang_gen_command(const char *prog, int argc, char **argv)
{
    static const char *const valued[] = {"-o", "--variant", "--entry", "--source-symbol", NULL};
    const char *in;
    gen_args g = {{NULL, PS_VARIANT_FULL, NULL, NULL}, NULL};
    int rc = parse_args(prog, argc, argv, gen_usage, valued, gen_take, &g, &in);
    if (rc >= 0) return rc;
    const char *out = g.out;
    char err[4096];
    char *c = NULL;
    size_t clen = 0;
    rc = ps_gen_file(in, &g.o, &c, &clen, err, sizeof err);
    if (rc) {
        print_error(err);
        return 2;
    }
    if (out && !strcmp(out, "-")) {
        fwrite(c, 1, clen, stdout);
        free(c);
        return fflush(stdout) ? 1 : 0;
    }
    char *path = output_path(prog, in, out, ".c");
    if (!path) {
        free(c);
        return 2;
    }
    rc = ps_write_file(path, c, clen, err, sizeof err);
    free(c);
    if (rc) {
        fprintf(stderr, "%s: %s\n", prog, err);
        free(path);
        return 2;
    }
    free(path);
    return 0;
}

static void build_usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s FILE.loop [-o EXE] [--variant full|comm|data|sections] [--keep-c FILE.c]\n"
            "\n"
            "Generates C from a LOOP program and compiles it with the MPI compiler wrapper\n"
            "($MPICC, default mpicc) against the parscope runtime (libparscope.a).  Compiler\n"
            "messages point into the .loop file.  Run the result with mpiexec, e.g.\n"
            "  mpiexec -n 4 ./EXE -s 256 -i 8 --trace run.pst\n"
            "\n"
            "  -o EXE            executable (default: FILE without .loop)\n"
            "  --variant V       white-box variant (see 'parscope gen --help')\n"
            "  --keep-c FILE.c   also keep the generated C there\n"
            "  -h, --help        this help\n",
            prog);
}

typedef struct build_args {
    const char *out, *keep, *variant;
} build_args;

static int build_take(const char *prog, const char *opt, const char *v, void *ctx)
{
    build_args *b = ctx;
    if (!strcmp(opt, "-o")) b->out = v;
    else if (!strcmp(opt, "--keep-c")) b->keep = v;
    else if (ps_variant_parse(v) < 0) return variant_error(prog, v);
    else b->variant = v;
    return 0;
}

int ps_lang_build_command(const char *prog, int argc, char **argv, const ps_build_paths *paths)
{
    static const char *const valued[] = {"-o", "--variant", "--keep-c", NULL};
    const char *in;
    build_args b = {NULL, NULL, NULL};
    int rc = parse_args(prog, argc, argv, build_usage, valued, build_take, &b, &in);
    if (rc >= 0) return rc;
    char *exe = output_path(prog, in, b.out, "");
    if (!exe) return 2;
    char err[8192];
    rc = ps_build_file(in, b.variant, exe, b.keep, paths, 1, err, sizeof err);
    if (rc) print_error(err);
    free(exe);
    return rc;
}
