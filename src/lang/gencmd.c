/* gencmd.c - 'parscope gen' and 'parscope build' (see lang.h). */
#include "lang/lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/source.h"
#include "util/options.h"
#include "util/output.h"
#include "util/util.h"

int ps_gen_file(const char *path, const ps_gen_opts *o, char **out, size_t *outlen, char *err, size_t errlen)
{
    size_t len = 0;
    char *src = ps_lang_read_source(path, o->path, &len, err, errlen);
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

/* --variant: full, comm, data, sections */
static int variant_opt(const char *v, void *dest, char *err, size_t errlen)
{
    int x = ps_variant_parse(v);
    if (x < 0) {
        ps_seterr(err, errlen, "unknown variant '%s' (full, comm, data, sections)", v);
        return -1;
    }
    if (dest) *(int *)dest = x;
    return 0;
}

/* FILE.loop -> FILE.c (or FILE + ext) */
static char *replace_ext(const char *path, const char *ext)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    return ps_xasprintf("%.*s%s", (int)n, path, ext);
}

static void print_err(const char *err)
{
    fputs(err, stderr);
    if (err[0] && err[strlen(err) - 1] != '\n') fputc('\n', stderr);
}

int ps_lang_gen_command(const char *prog, int argc, char **argv)
{
    const char *out = NULL;
    ps_gen_opts o = {NULL, PS_VARIANT_FULL, NULL, NULL};
    const ps_opt opts[] = {
        {'o', NULL, "FILE.c", PS_OPT_STRING, &out, 0, 0, NULL,
         "output file (default: FILE.c beside the input; '-' = stdout)", 0, NULL, NULL},
        PS_OPT_FN(0, "variant", "V", variant_opt, &o.variant,
                  "default white-box variant compiled in: full (default), comm\n"
                  "(communication only), data (communication + data movement),\n"
                  "sections (full, with \\SECTION timing); -DPS_VARIANT=0|1|2 and\n"
                  "-DPS_SECTIONS=0|1 override it when compiling"),
        PS_OPT_STR(0, "entry", "NAME", &o.entry, "name the entry function NAME instead of main"),
        PS_OPT_STR(0, "source-symbol", "S", &o.source_symbol, "also embed the .loop text as `const char *const S`"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = prog, .opts = opts, .min_args = 1, .max_args = 1, .missing = "no input file",
                            .usage = "FILE.loop [-o FILE.c] [--variant full|comm|data|sections] [--entry NAME]",
                            .about = "Translates a LOOP program (C with backslash constructs) into C that calls the\n"
                                     "parscope runtime.  Errors are reported as FILE:LINE:COL with exit status 2 and\n"
                                     "no output written.\n"};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    const char *in = argv[1];
    char err[4096];
    char *c = NULL;
    size_t clen = 0;
    if (ps_gen_file(in, &o, &c, &clen, err, sizeof err)) {
        print_err(err);
        return 2;
    }
    if (out && !strcmp(out, "-")) {
        fwrite(c, 1, clen, stdout);
        free(c);
        return fflush(stdout) ? 1 : 0;
    }
    char *path = out ? ps_xstrdup(out) : replace_ext(in, ".c");
    rc = 0;
    /* as a compiler, gen replaces its output; never its input, never a device node */
    ps_output_spec spec = {"-o", path, PS_OUTPUT_FILE};
    if (ps_outputs_check(&spec, 1, &in, 1, 1, err, sizeof err)) rc = ps_opt_error(prog, "%s", err);
    else if (ps_write_file(path, c, clen, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        rc = 2;
    }
    free(c);
    free(path);
    return rc;
}

int ps_lang_build_command(const char *prog, int argc, char **argv, const ps_build_paths *paths)
{
    const char *out = NULL, *keep = NULL, *variant = NULL;
    const ps_opt opts[] = {
        PS_OPT_OUTPUT_NOT_TEXT(&out, "EXE", "a program", "executable (default: FILE without .loop)"),
        {0, "variant", "V", PS_OPT_CALL, NULL, 0, 0, NULL, "white-box variant (see 'parscope gen --help')", 0,
         &variant, variant_opt},
        PS_OPT_STR(0, "keep-c", "FILE.c", &keep, "also keep the generated C there"),
        PS_OPT_TABLE_END};
    const ps_opt_cmd cmd = {.name = prog, .opts = opts, .min_args = 1, .max_args = 1, .missing = "no input file",
                            .usage = "FILE.loop [-o EXE] [--variant full|comm|data|sections] [--keep-c FILE.c]",
                            .about = "Generates C from a LOOP program and compiles it with the MPI compiler\n"
                                     "wrapper ($MPICC, default mpicc) against the parscope runtime (libparscope.a).\n"
                                     "Compiler messages point into the .loop file.  Run the result with mpiexec:\n"
                                     "  mpiexec -n 4 ./EXE -s 256 -i 8 --trace run.pst\n"};
    int n, rc = ps_opt_parse(&cmd, argc, argv, &n);
    if (rc != PS_OPT_GO) return rc;
    const char *in = argv[1];
    char *exe = out ? ps_xstrdup(out) : replace_ext(in, "");
    char err[8192];
    ps_output_spec spec[] = {{"-o", exe, PS_OUTPUT_FILE}, {"--keep-c", keep, PS_OUTPUT_FILE}};
    if (ps_outputs_check(spec, 2, &in, 1, 1, err, sizeof err)) rc = ps_opt_error(prog, "%s", err);
    else if ((rc = ps_build_file(in, variant, exe, keep, paths, 1, err, sizeof err))) {
        /* the generator's diagnostics name the file themselves */
        if (strncmp(err, in, strlen(in))) fprintf(stderr, "%s: ", prog);
        print_err(err);
    }
    free(exe);
    return rc;
}
