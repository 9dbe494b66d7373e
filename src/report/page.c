/*
 * page.c - the HTML report page (see report.h): one self-contained file
 * (inline CSS and SVG, nothing fetched) from result documents, traces and
 * directories of them, each document drawn by the fragment of its kind.
 */
#include "report/report.h"
#include "trace/json.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/result.h"
#include "report/tables.h"
#include "util/util.h"

typedef struct input {
    char   *path;     /* file */
    char   *dir;      /* its directory (for relative "trace" keys) */
    json_t *doc;      /* NULL: a trace */
    int     order;    /* the kind's place in the table, for a directory's sections */
} input;

typedef struct inputs {
    const ps_report_kind *kinds;
    const ps_report_opts *opts;
    input *v;
    size_t n, cap;
    char **skipped;
    size_t nskipped;
} inputs;

static const char *kind_of(const json_t *doc) { return json_string_value(json_object_get(doc, "kind")); }

static int kind_order(const ps_report_kind *kinds, const char *kind)
{
    for (int i = 0; kind && kinds[i].kind; i++)
        if (!strcmp(kind, kinds[i].kind)) return i;
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
    in->v[in->n++] = (input){ps_xstrdup(path), dir_of(path), doc, kind_order(in->kinds, doc ? kind_of(doc) : "trace")};
}

static void skip(inputs *in, const char *path, const char *why)
{
    in->skipped = ps_xrealloc(in->skipped, (in->nskipped + 1) * sizeof *in->skipped);
    in->skipped[in->nskipped++] = ps_xasprintf("%s (%s)", path, why);
}

static void inputs_free(inputs *in)
{
    for (size_t i = 0; i < in->n; i++) {
        free(in->v[i].path);
        free(in->v[i].dir);
        json_decref(in->v[i].doc);
    }
    for (size_t i = 0; i < in->nskipped; i++) free(in->skipped[i]);
    free(in->skipped);
    free(in->v);
}

static int is_result(const char *k)
{
    return k && (!strcmp(k, "run") || !strcmp(k, "predict") || !strcmp(k, "trace"));
}

/* A JSON file given by name: it must parse and be a parscope document, a
 * result one with what every result has (result.h). */
static int load_json(const char *path, json_t **out, char *err, size_t errlen)
{
    json_t *doc = ps_json_load_path(path, 0, err, errlen);
    if (!doc) return 2;
    if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "kind"))) {
        json_decref(doc);
        ps_seterr(err, errlen, "%s: not a parscope result (no \"kind\" key)", path);
        return 2;
    }
    char why[256];
    if (is_result(kind_of(doc)) && ps_result_check(doc, why, sizeof why)) {
        json_decref(doc);
        ps_seterr(err, errlen, "%s: %s", path, why);
        return 2;
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

/* One file found in a directory: a parscope document, or listed as skipped. */
static void scan_file(inputs *in, const char *p)
{
    json_error_t je;
    json_t *doc = json_load_file(p, 0, &je);
    const char *k = doc && json_is_object(doc) ? kind_of(doc) : NULL;
    char why[256];
    if (!doc) skip(in, p, "not valid JSON");
    else if (!k) skip(in, p, "not a parscope result");
    else if (is_result(k) && ps_result_check(doc, why, sizeof why)) skip(in, p, why);
    /* raw measurements and plans are inputs to other documents */
    else if (!strcmp(k, "probe-raw") || !strcmp(k, "scale-plan")) skip(in, p, k);
    else {
        add(in, p, doc);
        return;
    }
    json_decref(doc);
}

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
            scan_file(in, p);
        }
        free(p);
        free(names[i]);
    }
    free(names);
}

/* One path given: a directory, a JSON document or a trace.  0 or 2 (err). */
static int collect(inputs *in, const char *p, char *err, size_t errlen)
{
    if (ps_is_dir(p)) {
        size_t before = in->n;
        scan_dir(in, p, 0);
        if (in->n > before) return 0;
        char tp[PATH_MAX];
        ps_trace_path(p, tp, sizeof tp);
        if (!ps_file_exists(tp)) {
            ps_seterr(err, errlen, "%s: no parscope results or traces in this directory", p);
            return 2;
        }
        add(in, tp, NULL);
        return 0;
    }
    if (!ps_file_exists(p)) {
        ps_seterr(err, errlen, "%s: no such file or directory", p);
        return 2;
    }
    if (is_json_name(p)) {
        json_t *doc = NULL;
        if (load_json(p, &doc, err, errlen)) return 2;
        add(in, p, doc);
        return 0;
    }
    const ps_report_opts *o = in->opts;
    size_t lp = strlen(p), ls = o->reader_suffix ? strlen(o->reader_suffix) : 0;
    if (o->reader && ls && lp > ls && !strcmp(p + lp - ls, o->reader_suffix)) {
        json_t *doc = o->reader(p, err, errlen);
        if (!doc) return 2;
        add(in, p, doc);
        return 0;
    }
    /* anything else must be a trace: read it now to fail early */
    ps_trace *t = NULL;
    if (ps_trace_read(p, &t, err, errlen) != 0) return 2;
    ps_trace_free(t);
    add(in, p, NULL);
    return 0;
}

static int input_cmp(const void *a, const void *b)
{
    const input *x = a, *y = b;
    if (x->order != y->order) return x->order - y->order;
    return strcmp(x->path, y->path);
}

static void render(FILE *f, const input *in, const ps_report_kind *kinds)
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
    int k = kind_order(kinds, kind_of(in->doc));
    if (k < 100 && kinds[k].html && kinds[k].html(f, in->doc, in->dir, in->path) == 0) return;
    ps_report_generic_html(f, in->doc, in->path);
}

/* The inputs, last: what the page was made from, and what was skipped. */
static void inputs_section(FILE *f, const inputs *in)
{
    if (in->n <= 1 && !in->nskipped) return;
    ps_html_section_begin(f, "inputs", "Inputs");
    fputs("<ul>\n", f);
    for (size_t i = 0; i < in->n; i++) {
        fputs("<li>", f);
        ps_html_escape(f, in->v[i].path);
        fputs("</li>\n", f);
    }
    for (size_t i = 0; i < in->nskipped; i++) {
        fputs("<li>skipped: ", f);
        ps_html_escape(f, in->skipped[i]);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
    ps_html_section_end(f);
}

/* The kinds that draw several documents side by side, before the sections. */
static void several(FILE *f, const inputs *in)
{
    json_t **docs = ps_xcalloc(in->n + 1, sizeof *docs);
    for (const ps_report_kind *k = in->kinds; k->kind; k++) {
        if (!k->several) continue;
        int nd = 0;
        for (size_t i = 0; i < in->n; i++)
            if (in->v[i].doc && !strcmp(kind_of(in->v[i].doc) ? kind_of(in->v[i].doc) : "", k->kind))
                docs[nd++] = in->v[i].doc;
        if (nd >= 2) k->several(docs, nd, f);
    }
    free(docs);
}

/* The headline findings of every document, then of the tables; at most a
 * screenful, the rest said to be below. */
#define PS_SUMMARY_MAX 12
/* Documents with more result documents than this on a page fold their sheets. */
#define PS_REPORT_UNFOLDED 3

static int result_docs(const inputs *in);

static void summary(FILE *f, const inputs *in, const ps_tables *t)
{
    json_t *list = json_array();
    /* with many results, one line says what they are; the tables and curves below hold their figures */
    int nres = 0;
    for (size_t i = 0; i < in->n; i++) nres += in->v[i].doc ? is_result(kind_of(in->v[i].doc)) : 1;
    int many = nres > PS_REPORT_UNFOLDED;
    json_t *workloads = json_object();
    for (size_t i = 0; i < in->n; i++) {
        const json_t *d = in->v[i].doc;
        if (!d) continue;
        if (many && is_result(kind_of(d)) && !json_array_size(json_object_get(d, "findings"))) {
            const json_t *pts = json_object_get(d, "points");
            const char *w = json_string_value(json_object_get(d, "workload"));
            if (!w && json_is_array(pts)) w = json_string_value(json_object_get(json_array_get(pts, 0), "workload"));
            if (w) json_object_set_new(workloads, w, json_true());
            continue;
        }
        ps_report_findings(list, d);
    }
    /* counted as the tables hold them: one configuration measured twice (a characterization's
     * fingerprint step and its prediction's measured run) is one row */
    int measured = ps_tables_configurations(t, 0), predicted = ps_tables_configurations(t, 1);
    if (many && (measured || predicted)) {
        char names[512] = "";
        size_t used = 0;
        const char *k;
        json_t *v;
        json_object_foreach(workloads, k, v) {
            int w = snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", k);
            if (w < 0 || (size_t)w >= sizeof names - used) break;
            used += (size_t)w;
        }
        char what[96];
        if (measured && predicted)
            snprintf(what, sizeof what, "measured in %d configuration%s and predicted in %d", measured,
                     measured == 1 ? "" : "s", predicted);
        else snprintf(what, sizeof what, "%s in %d configuration%s", measured ? "measured" : "predicted",
                      measured + predicted, measured + predicted == 1 ? "" : "s");
        json_array_append_new(list, json_sprintf("%s, %s: their times side by side in the tables and the curves of "
                                                 "execution time against P below.",
                                                 used ? names : "The workloads", what));
    }
    json_decref(workloads);
    ps_tables_findings(t, list);
    ps_html_section_begin(f, "summary", "Summary");
    if (!json_array_size(list)) {
        ps_html_note(f, "The inputs hold no result with a headline figure; their sections follow.");
    } else {
        fputs("<ul>\n", f);
        size_t i;
        json_t *s;
        json_array_foreach(list, i, s) {
            if (i == PS_SUMMARY_MAX) {
                fprintf(f, "<li>and %zu more findings in the sections below.</li>\n", json_array_size(list) - i);
                break;
            }
            fputs("<li>", f);
            ps_html_escape_units(f, json_string_value(s));
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
    }
    ps_html_section_end(f);
    json_decref(list);
}

static int result_docs(const inputs *in)
{
    int n = 0;
    for (size_t i = 0; i < in->n; i++) {
        const char *k = in->v[i].doc ? kind_of(in->v[i].doc) : "trace";
        if (k && (!strcmp(k, "run") || !strcmp(k, "predict") || !strcmp(k, "trace"))) {
            size_t np = in->v[i].doc ? json_array_size(json_object_get(in->v[i].doc, "points")) : 0;
            n += np ? (int)np : 1;
        }
    }
    return n;
}

int ps_report_page(char *const *paths, int n, const ps_report_opts *o, char *err, size_t errlen)
{
    inputs in = {.kinds = o->kinds, .opts = o};
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) rc = collect(&in, paths[i], err, errlen);
    if (rc == 0 && in.n == 0) {
        ps_seterr(err, errlen, "nothing to report");
        rc = 2;
    }
    int from_dir = n == 1 && ps_is_dir(paths[0]);
    if (!rc && from_dir) qsort(in.v, in.n, sizeof *in.v, input_cmp);
    json_t **docs = ps_xcalloc(in.n + 1, sizeof *docs);
    int nd = 0;
    for (size_t i = 0; i < in.n; i++)
        if (in.v[i].doc) docs[nd++] = in.v[i].doc;
    ps_tables *tables = rc ? NULL : ps_tables_build(docs, nd);
    free(docs);
    if (!rc && o->reference && ps_tables_set_reference(tables, o->reference, err, errlen)) rc = 2;
    if (rc) {
        ps_tables_free(tables);
        inputs_free(&in);
        return rc;
    }
    const char *output = o->output, *title = o->title;
    char *def = NULL, deftitle[512];
    if (!output) output = def = from_dir ? ps_xasprintf("%s/report.html", paths[0]) : ps_xstrdup("report.html");
    if (!title && in.n == 1 && in.v[0].doc) {
        const char *w = json_string_value(json_object_get(in.v[0].doc, "workload"));
        snprintf(deftitle, sizeof deftitle, "parscope report: %s%s%s", kind_of(in.v[0].doc), w ? " of " : "",
                 w ? w : "");
    } else if (!title) {
        snprintf(deftitle, sizeof deftitle, "parscope report: %zu document%s", in.n, in.n == 1 ? "" : "s");
    }
    /* the summary, then the body: the contents between them need the body's sections */
    ps_html_page_reset();
    char *body = NULL, *head = NULL, *sum = NULL;
    size_t blen = 0, hlen = 0, slen = 0;
    FILE *sf = open_memstream(&sum, &slen);
    summary(sf, &in, tables);
    fclose(sf);
    FILE *b = open_memstream(&body, &blen);
    several(b, &in);
    ps_tables_html(b, tables);
    ps_tables_scaling_html(b, tables);
    ps_report_set_compact(result_docs(&in) > PS_REPORT_UNFOLDED);
    for (size_t i = 0; i < in.n; i++) render(b, &in.v[i], in.kinds);
    ps_report_set_compact(0);
    inputs_section(b, &in);
    fclose(b);
    FILE *h = open_memstream(&head, &hlen);
    ps_html_head(h, title ? title : deftitle);
    fwrite(sum, 1, slen, h);
    ps_html_toc(h);
    fwrite(body, 1, blen, h);
    ps_html_end(h);
    fclose(h);
    free(sum);
    free(body);
    if (ps_write_file(output, head, hlen, err, errlen) != 0) rc = 2;
    else if (!o->quiet && strcmp(output, "-"))
        fprintf(stderr, "parscope report: wrote %s (%zu document%s)\n", output, in.n, in.n == 1 ? "" : "s");
    free(head);
    free(def);
    ps_tables_free(tables);
    inputs_free(&in);
    return rc;
}
