/*
 * cmd_report.c - 'parscope report': one self-contained HTML page (inline CSS
 * and SVG, nothing fetched) from result documents, traces and directories of
 * them.  Each document is rendered by the part that owns its kind: runs,
 * predictions and traces by src/out, probes by src/probe, scale sweeps by
 * src/scale, white-box breakdowns by src/whitebox (dispatched here so the layers below stay independent).
 */
#include <dirent.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "characterize/characterize.h"
#include "cli/cli.h"
#include "report/html.h"
#include "report/report.h"
#include "probe/probe.h"
#include "scale/scale.h"
#include "trace/trace.h"
#include "util/util.h"
#include "whitebox/whitebox.h"

static const char report_help[] =
    "usage: parscope report PATH... [-o report.html]\n"
    "\n"
    "Writes one self-contained HTML file (inline CSS and SVG; it needs no network)\n"
    "from parscope results. Each PATH is\n"
    "  - a result JSON: a run or prediction (result sheets; space-time diagram and\n"
    "    profiles from its trace, found through its \"trace\" key), a probe (ping-pong\n"
    "    and h-relation plots with their fits), a scale sweep (tables and plots),\n"
    "    a white-box breakdown (bars per rank);\n"
    "    other kinds are listed with their top-level figures;\n"
    "  - a trace (trace.pst, or a directory holding only one): sheet and pictures;\n"
    "  - a directory: every result JSON in it and in its subdirectories (one level);\n"
    "    files that are not parscope documents are skipped and listed.\n"
    "\n"
    "  -o, --output FILE  the page (default: DIR/report.html for a single directory,\n"
    "                     otherwise report.html)\n"
    "  -t, --title TEXT   the page's title\n"
    "  -q, --quiet        do not say what was written\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage or an input that cannot be read (nothing written).\n";

typedef struct input {
    char   *path;     /* file */
    char   *dir;      /* its directory (for relative "trace" keys) */
    json_t *doc;      /* NULL: a trace */
    int     order;    /* by kind, for a directory's sections */
} input;

typedef struct inputs {
    input *v;
    size_t n, cap;
    char **skipped;
    size_t nskipped;
} inputs;

static int kind_order(const char *kind)
{
    static const char *order[] = {"characterize", "probe", "run", "predict", "compare", "scale", "whitebox", NULL};
    for (int i = 0; kind && order[i]; i++)
        if (!strcmp(kind, order[i])) return i;
    return 100;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return ps_xstrdup(".");
    if (slash == path) return ps_xstrdup("/");
    return ps_xasprintf("%.*s", (int)(slash - path), path);
}

static void add(inputs *in, const char *path, json_t *doc)
{
    if (in->n == in->cap) {
        in->cap = in->cap ? 2 * in->cap : 16;
        in->v = ps_xrealloc(in->v, in->cap * sizeof *in->v);
    }
    const char *kind = doc ? json_string_value(json_object_get(doc, "kind")) : "trace";
    in->v[in->n++] = (input){ps_xstrdup(path), dir_of(path), doc, kind_order(kind)};
}

static void skip(inputs *in, const char *path, const char *why)
{
    in->skipped = ps_xrealloc(in->skipped, (in->nskipped + 1) * sizeof *in->skipped);
    in->skipped[in->nskipped++] = ps_xasprintf("%s (%s)", path, why);
}

/* A JSON file given by name: it must parse and be a parscope document. */
static int load_json(const char *path, json_t **out)
{
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc) {
        if (je.line > 0) return ps_fail(2, "%s:%d:%d: %s", path, je.line, je.column, je.text);
        return ps_fail(2, "%s: %s", path, je.text);
    }
    if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "kind"))) {
        json_decref(doc);
        return ps_fail(2, "%s: not a parscope result (no \"kind\" key)", path);
    }
    *out = doc;
    return 0;
}

static int is_json_name(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && !strcmp(name + n - 5, ".json");
}

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every parscope document in dir (and, at depth 0, its subdirectories). */
static void scan_dir(inputs *in, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        names = ps_xrealloc(names, (n + 1) * sizeof *names);
        names[n++] = ps_xstrdup(e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n; i++) {
        char *p = ps_xasprintf("%s/%s", dir, names[i]);
        if (ps_is_dir(p)) {
            if (depth == 0) scan_dir(in, p, 1);
        } else if (is_json_name(names[i])) {
            json_error_t je;
            json_t *doc = json_load_file(p, 0, &je);
            if (!doc) skip(in, p, "not valid JSON");
            else if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "kind"))) {
                skip(in, p, "not a parscope result");
                json_decref(doc);
            } else {
                const char *k = json_string_value(json_object_get(doc, "kind"));
                /* raw measurements and plans are inputs to other documents */
                if (!strcmp(k, "probe-raw") || !strcmp(k, "scale-plan")) {
                    skip(in, p, k);
                    json_decref(doc);
                } else {
                    add(in, p, doc);
                }
            }
        }
        free(p);
        free(names[i]);
    }
    free(names);
}

static int input_cmp(const void *a, const void *b)
{
    const input *x = a, *y = b;
    if (x->order != y->order) return x->order - y->order;
    return strcmp(x->path, y->path);
}

static void render(FILE *f, const input *in)
{
    if (!in->doc) {
        ps_trace *t = NULL;
        char err[1024];
        if (ps_trace_read(in->path, &t, err, sizeof err) == 0) {
            ps_report_trace_section(f, t, in->path);
            ps_trace_free(t);
        } else {
            ps_html_section_begin(f, "trace", "Trace");
            ps_html_note(f, "%s", err);
            ps_html_section_end(f);
        }
        return;
    }
    const char *kind = json_string_value(json_object_get(in->doc, "kind"));
    if (!strcmp(kind, "run") || !strcmp(kind, "predict")) ps_report_run_html(f, in->doc, in->dir, in->path);
    else if (!strcmp(kind, "probe") && ps_probe_report_html(in->doc, f) == 0) return;
    else if (!strcmp(kind, "scale") && ps_scale_report_html(in->doc, in->dir, f) == 0) return;
    else if (!strcmp(kind, "whitebox") && ps_whitebox_report_html(in->doc, f) == 0) return;
    else if (!strcmp(kind, "characterize") && ps_characterize_report_html(in->doc, f) == 0) return;
    else ps_report_generic_html(f, in->doc, in->path);
}

int ps_cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"title", required_argument, NULL, 't'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *output = NULL, *title = NULL;
    int quiet = 0, c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:t:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 't': title = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(report_help, stdout); return 0;
        default:
            if (optopt) return ps_usage_error("report", "option -%c: missing value or unknown", optopt);
            return ps_usage_error("report", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) return ps_usage_error("report", "no PATH given");

    inputs in = {0};
    int rc = 0;
    for (int i = optind; i < argc && rc == 0; i++) {
        const char *p = argv[i];
        if (ps_is_dir(p)) {
            size_t before = in.n;
            scan_dir(&in, p, 0);
            if (in.n == before) {
                char tp[PATH_MAX];
                ps_trace_path(p, tp, sizeof tp);
                if (ps_file_exists(tp)) add(&in, tp, NULL);
                else rc = ps_fail(2, "%s: no parscope results or traces in this directory", p);
            }
        } else if (!ps_file_exists(p)) {
            rc = ps_fail(2, "%s: no such file or directory", p);
        } else if (is_json_name(p)) {
            json_t *doc = NULL;
            rc = load_json(p, &doc);
            if (rc == 0) add(&in, p, doc);
        } else {
            /* anything else must be a trace: read it now to fail early */
            ps_trace *t = NULL;
            char err[1024];
            if (ps_trace_read(p, &t, err, sizeof err) != 0) rc = ps_fail(2, "%s", err);
            else add(&in, p, NULL);
            ps_trace_free(t);
        }
    }
    if (rc == 0 && in.n == 0) rc = ps_fail(2, "nothing to report");

    if (rc == 0) {
        int from_dir = optind + 1 == argc && ps_is_dir(argv[optind]);
        if (from_dir) qsort(in.v, in.n, sizeof *in.v, input_cmp);
        char *def = NULL;
        if (!output) output = def = from_dir ? ps_xasprintf("%s/report.html", argv[optind]) : ps_xstrdup("report.html");
        char defttl[512];
        if (!title) {
            if (in.n == 1 && in.v[0].doc) {
                const char *w = json_string_value(json_object_get(in.v[0].doc, "workload"));
                const char *k = json_string_value(json_object_get(in.v[0].doc, "kind"));
                snprintf(defttl, sizeof defttl, "parscope report: %s%s%s", k, w ? " of " : "", w ? w : "");
            } else {
                snprintf(defttl, sizeof defttl, "parscope report: %zu document%s", in.n, in.n == 1 ? "" : "s");
            }
            title = defttl;
        }
        char *page = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&page, &len);
        ps_html_begin(f, title);
        if (in.n > 1 || in.nskipped) {
            fputs("<nav><p class=\"note\">Inputs:</p><ul>\n", f);
            for (size_t i = 0; i < in.n; i++) {
                fputs("<li>", f);
                ps_html_escape(f, in.v[i].path);
                fputs("</li>\n", f);
            }
            for (size_t i = 0; i < in.nskipped; i++) {
                fputs("<li>skipped: ", f);
                ps_html_escape(f, in.skipped[i]);
                fputs("</li>\n", f);
            }
            fputs("</ul></nav>\n", f);
        }
        /* several characterizations: the machines side by side first */
        json_t **cs = ps_xcalloc(in.n + 1, sizeof *cs);
        int nc = 0;
        for (size_t i = 0; i < in.n; i++) {
            const char *k = in.v[i].doc ? json_string_value(json_object_get(in.v[i].doc, "kind")) : NULL;
            if (k && !strcmp(k, "characterize")) cs[nc++] = in.v[i].doc;
        }
        if (nc >= 2) ps_characterize_compare_html(cs, nc, f);
        free(cs);
        for (size_t i = 0; i < in.n; i++) render(f, &in.v[i]);
        ps_html_end(f);
        fclose(f);
        char err[1024];
        if (ps_write_file(output, page, len, err, sizeof err) != 0) rc = ps_fail(2, "%s", err);
        else if (!quiet) fprintf(stderr, "parscope report: wrote %s (%zu document%s)\n", output, in.n, in.n == 1 ? "" : "s");
        free(page);
        free(def);
    }
    for (size_t i = 0; i < in.n; i++) {
        free(in.v[i].path);
        free(in.v[i].dir);
        json_decref(in.v[i].doc);
    }
    for (size_t i = 0; i < in.nskipped; i++) free(in.skipped[i]);
    free(in.skipped);
    free(in.v);
    return rc;
}
