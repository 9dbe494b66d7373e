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
    /* notes: what the white-box slicer kept without being sure it had to */
    else if (d.notes_text) fputs(d.notes_text, stderr);
    ps_diag_free(&d);
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

int ps_lang_gen_command(const char *prog, int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    ps_gen_opts o = {NULL, PS_VARIANT_FULL, NULL, NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            gen_usage(stdout, prog);
            return 0;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--variant") || !strcmp(a, "--entry") ||
                   !strcmp(a, "--source-symbol")) {
            if (i + 1 >= argc) return usage_error(prog, "option '%s' needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "-o")) out = v;
            else if (!strcmp(a, "--entry")) o.entry = v;
            else if (!strcmp(a, "--source-symbol")) o.source_symbol = v;
            else if ((o.variant = ps_variant_parse(v)) < 0)
                return usage_error(prog, "unknown variant '%s' (full, comm, data, sections)", v);
        } else if (a[0] == '-' && a[1]) {
            return usage_error(prog, "unknown option '%s'", a);
        } else if (in) {
            return usage_error(prog, "more than one input file ('%s')", a);
        } else {
            in = a;
        }
    }
    if (!in) return usage_error(prog, "no input file%s", "");
    char err[4096];
    char *c = NULL;
    size_t clen = 0;
    int rc = ps_gen_file(in, &o, &c, &clen, err, sizeof err);
    if (rc) {
        fputs(err, stderr);
        if (err[0] && err[strlen(err) - 1] != '\n') fputc('\n', stderr);
        return 2;
    }
    if (out && !strcmp(out, "-")) {
        fwrite(c, 1, clen, stdout);
        free(c);
        return fflush(stdout) ? 1 : 0;
    }
    char *path = out ? ps_xstrdup(out) : replace_ext(in, ".c");
    if (!strcmp(path, in)) {
        free(c);
        free(path);
        return usage_error(prog, "the output would overwrite the input '%s'", in);
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

int ps_lang_build_command(const char *prog, int argc, char **argv, const ps_build_paths *paths)
{
    const char *in = NULL, *out = NULL, *keep = NULL, *variant = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            build_usage(stdout, prog);
            return 0;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--variant") || !strcmp(a, "--keep-c")) {
            if (i + 1 >= argc) return usage_error(prog, "option '%s' needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "-o")) out = v;
            else if (!strcmp(a, "--keep-c")) keep = v;
            else if (ps_variant_parse(v) < 0)
                return usage_error(prog, "unknown variant '%s' (full, comm, data, sections)", v);
            else variant = v;
        } else if (a[0] == '-' && a[1]) {
            return usage_error(prog, "unknown option '%s'", a);
        } else if (in) {
            return usage_error(prog, "more than one input file ('%s')", a);
        } else {
            in = a;
        }
    }
    if (!in) return usage_error(prog, "no input file%s", "");
    char *exe = out ? ps_xstrdup(out) : replace_ext(in, "");
    if (!strcmp(exe, in)) {
        free(exe);
        return usage_error(prog, "the output would overwrite the input '%s'", in);
    }
    char err[8192];
    int rc = ps_build_file(in, variant, exe, keep, paths, 1, err, sizeof err);
    if (rc) {
        fputs(err, stderr);
        if (err[0] && err[strlen(err) - 1] != '\n') fputc('\n', stderr);
    }
    free(exe);
    return rc;
}
