/* tables.c - results side by side (see tables.h). */
#include "report/tables.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/html.h"
#include "report/plot.h"
#include "report/result.h"
#include "trace/json.h"
#include "util/util.h"

/* The seed's order of its five workloads: from communication bound to
 * computation bound (seed 000, section 6.1); others follow by name. */
static const char *const seed_order[] = {"fingerprint", "cg", "mmm_s", "mmm_a", "red_black", NULL};

typedef struct column {
    char name[160];    /* host, or the model's name */
    char key[400];     /* what makes two documents one machine */
    char detail[160];  /* interconnect (measured) or model file (predicted): to tell equal names apart */
    char model[96];    /* a model's file name without .ini ("paragon"), for published figures */
    int  predicted;
} column;

typedef struct row {
    char workload[96];
    int  ranks;
    long size, iterations;
} row;

typedef struct bsp_row {
    char   name[160], source[200];
    double p, r, g, l, g_us, l_us;
    int    derived;   /* r and g from the estimator keys, no l */
} bsp_row;

typedef struct model_row {
    char   name[160], file[256], source[256], network[16];
    double send, recv, word, flop;
} model_row;

struct ps_tables {
    column *col;
    int     ncol;
    row    *row;
    int     nrow;
    double *time;      /* time[r * ncol + c], NAN = none */
    unsigned char *paired;   /* while observing: the cell's time is a prediction's own measured run */
    int     ref;       /* Table 2's reference column, -1 = none */
    bsp_row *bsp;
    int     nbsp;
    model_row *models;
    int     nmodels;
    const json_t *published;   /* the first "published" document (borrowed) */
    int     characterize;      /* a characterization on the page: its section has predicted against measured */
};

static const char *str(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The machine of a result: a prediction's model, or a run's host and interconnect. */
static void doc_column(const json_t *d, int predicted, column *c)
{
    memset(c, 0, sizeof *c);
    c->predicted = predicted;
    const json_t *m = json_object_get(d, "machine");
    if (predicted) {
        const char *file = str(m, "file"), *name = str(m, "name");
        if (file) {
            snprintf(c->model, sizeof c->model, "%s", base_name(file));
            size_t n = strlen(c->model);
            if (n > 4 && !strcmp(c->model + n - 4, ".ini")) c->model[n - 4] = 0;
        }
        snprintf(c->name, sizeof c->name, "%s", name && *name ? name : c->model[0] ? c->model : "model");
        snprintf(c->detail, sizeof c->detail, "%s", file ? file : "");
        snprintf(c->key, sizeof c->key, "P|%s|%s", c->name, file ? file : "");
    } else {
        const char *host = str(m, "host");
        const char *net = str(json_object_get(json_object_get(d, "hardware"), "interconnect"), "type");
        snprintf(c->name, sizeof c->name, "%s", host && *host ? host : "measured");
        snprintf(c->detail, sizeof c->detail, "%s", net ? net : "");
        snprintf(c->key, sizeof c->key, "M|%s|%s", c->name, net ? net : "");
    }
}

static int find_column(ps_tables *t, const column *c)
{
    for (int i = 0; i < t->ncol; i++)
        if (!strcmp(t->col[i].key, c->key)) return i;
    return -1;
}

static int find_row(const ps_tables *t, const row *r)
{
    for (int i = 0; i < t->nrow; i++)
        if (!strcmp(t->row[i].workload, r->workload) && t->row[i].ranks == r->ranks && t->row[i].size == r->size &&
            t->row[i].iterations == r->iterations)
            return i;
    return -1;
}

/* Grows the time matrix to nrow x ncol (new cells NAN, not paired). */
static void regrid(ps_tables *t, int nrow, int ncol)
{
    size_t cells = (size_t)(nrow ? nrow : 1) * (size_t)(ncol ? ncol : 1);
    double *nt = ps_xmalloc(cells * sizeof *nt);
    unsigned char *np = ps_xcalloc(cells, sizeof *np);
    for (int r = 0; r < nrow; r++)
        for (int c = 0; c < ncol; c++) {
            int old = r < t->nrow && c < t->ncol;
            nt[r * ncol + c] = old ? t->time[r * t->ncol + c] : NAN;
            np[r * ncol + c] = old && t->paired[r * t->ncol + c];
        }
    free(t->time);
    free(t->paired);
    t->time = nt;
    t->paired = np;
}

/* One observation.  A prediction's own measured run (paired) stands for its
 * machine and configuration: the page compares a prediction with the run it
 * was compared with, as the prediction's summary does; other runs keep the
 * fastest. */
static void observe(ps_tables *t, const json_t *d, int predicted, int paired)
{
    const json_t *params = json_object_get(d, "params");
    const char *w = str(d, "workload");
    double tm = ps_result_used_time(d), P = ps_json_num(params, "ranks");
    if (!w || !isfinite(tm) || tm <= 0 || !(P >= 1)) return;
    row r;
    memset(&r, 0, sizeof r);
    snprintf(r.workload, sizeof r.workload, "%s", w);
    r.ranks = (int)P;
    double s = ps_json_num(params, "size"), it = ps_json_num(params, "iterations");
    r.size = isfinite(s) ? (long)s : -1;
    r.iterations = isfinite(it) ? (long)it : -1;
    column c;
    doc_column(d, predicted, &c);
    int ci = find_column(t, &c), ri = find_row(t, &r);
    if (ci < 0 || ri < 0) {
        int nc = t->ncol + (ci < 0), nr = t->nrow + (ri < 0);
        regrid(t, nr, nc);
        if (ci < 0) {
            t->col = ps_xrealloc(t->col, (size_t)nc * sizeof *t->col);
            t->col[ci = t->ncol] = c;
        }
        if (ri < 0) {
            t->row = ps_xrealloc(t->row, (size_t)nr * sizeof *t->row);
            t->row[ri = t->nrow] = r;
        }
        t->ncol = nc;
        t->nrow = nr;
    }
    int i = ri * t->ncol + ci;
    if (paired < t->paired[i]) return;
    if (paired > t->paired[i] || !isfinite(t->time[i]) || tm < t->time[i]) {
        t->time[i] = tm;
        t->paired[i] = (unsigned char)paired;
    }
}

/* A result document: itself, its points, and the measured runs it carries
 * (paired: d is such a run). */
static void observe_doc(ps_tables *t, const json_t *d, const char *kind, int paired)
{
    const char *k = str(d, "kind");
    if (!k) k = kind;
    if (!k) return;
    int result = !strcmp(k, "run") || !strcmp(k, "predict") || !strcmp(k, "trace");
    if (!result) return; /* a sweep's points are variations of one configuration, not machines */
    const json_t *pts = json_object_get(d, "points");
    if (json_is_array(pts)) {
        size_t i;
        json_t *p;
        json_array_foreach(pts, i, p) observe_doc(t, p, k, paired);
    } else {
        observe(t, d, !strcmp(k, "predict"), paired);
    }
    const json_t *meas = json_object_get(d, "measured");
    if (json_is_object(meas)) observe_doc(t, meas, "run", 1);
}

/* One figure on both sides, or none on either (a failed fit's g and l). */
static int same_figure(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static void add_bsp(ps_tables *t, const bsp_row *b)
{
    /* a characterization and its probe's document give one machine's row once */
    for (int i = 0; i < t->nbsp; i++)
        if (!strcmp(t->bsp[i].name, b->name) && same_figure(t->bsp[i].r, b->r) && same_figure(t->bsp[i].g, b->g) &&
            same_figure(t->bsp[i].l, b->l))
            return;
    t->bsp = ps_xrealloc(t->bsp, (size_t)(t->nbsp + 1) * sizeof *t->bsp);
    t->bsp[t->nbsp++] = *b;
}

/* Where a document keeps its BSP signature: a probe's "bsp" object and a
 * machine's, or a characterization's "probe" object (whose keys name the unit). */
typedef struct bsp_keys {
    const char *p, *r, *g, *l;
} bsp_keys;

static const bsp_keys bsp_keys_probe = {"p", "r", "g", "l"};
static const bsp_keys bsp_keys_characterize = {"bsp_p", "r_flops", "g_flops", "l_flops"};

/* The signature in o into b; 0 when o has none (no positive r). */
static int read_bsp(const json_t *o, const bsp_keys *k, bsp_row *b)
{
    if (!(ps_json_num(o, k->r) > 0)) return 0;
    b->p = ps_json_num(o, k->p);
    b->r = ps_json_num(o, k->r);
    b->g = ps_json_num(o, k->g);
    b->l = ps_json_num(o, k->l);
    b->g_us = ps_json_num(o, "g_us");
    b->l_us = ps_json_num(o, "l_us");
    return 1;
}

/* A measured machine's row, named by the host the document ran on. */
static void measured_bsp(ps_tables *t, const json_t *d, const json_t *o, const bsp_keys *k, const char *unnamed)
{
    bsp_row b;
    memset(&b, 0, sizeof b);
    if (!read_bsp(o, k, &b)) return;
    const char *h = str(json_object_get(d, "machine"), "host");
    snprintf(b.name, sizeof b.name, "%s", h ? h : unnamed);
    snprintf(b.source, sizeof b.source, "parscope probe");
    add_bsp(t, &b);
}

static void machine_doc(ps_tables *t, const json_t *d)
{
    model_row m;
    memset(&m, 0, sizeof m);
    snprintf(m.name, sizeof m.name, "%s", str(d, "name") ? str(d, "name") : "?");
    snprintf(m.file, sizeof m.file, "%s", str(d, "file") ? str(d, "file") : "");
    snprintf(m.source, sizeof m.source, "%s", str(d, "source") ? str(d, "source") : "");
    snprintf(m.network, sizeof m.network, "%s", str(d, "network") ? str(d, "network") : "-");
    m.send = ps_json_num(d, "send_latency");
    m.recv = ps_json_num(d, "recv_latency");
    m.word = ps_json_num(d, "word_time");
    m.flop = ps_json_num(d, "flop_time");
    t->models = ps_xrealloc(t->models, (size_t)(t->nmodels + 1) * sizeof *t->models);
    t->models[t->nmodels++] = m;
    const json_t *bsp = json_object_get(d, "bsp");
    bsp_row b;
    memset(&b, 0, sizeof b);
    snprintf(b.name, sizeof b.name, "%s", m.name);
    snprintf(b.source, sizeof b.source, "%.190s", base_name(m.file));
    if (read_bsp(bsp, &bsp_keys_probe, &b)) {
        if (!isfinite(b.g_us)) b.g_us = b.g / b.r * 1e6;
        if (!isfinite(b.l_us)) b.l_us = b.l / b.r * 1e6;
    } else if (m.flop > 0 && m.word > 0) {
        /* the estimator's keys: r = one multiply per flop_time, g = a word's time in flops */
        b.p = NAN;
        b.r = 1 / m.flop;
        b.g = m.word / m.flop;
        b.l = b.l_us = NAN;
        b.g_us = m.word * 1e6;
        b.derived = 1;
    } else {
        return;
    }
    add_bsp(t, &b);
}

ps_tables *ps_tables_build(json_t *const *docs, int n)
{
    ps_tables *t = ps_xcalloc(1, sizeof *t);
    t->ref = -1;
    for (int i = 0; i < n; i++) {
        const json_t *d = docs[i];
        const char *k = str(d, "kind");
        if (!k) continue;
        if (!strcmp(k, "machine")) {
            machine_doc(t, d);
        } else if (!strcmp(k, "probe")) {
            measured_bsp(t, d, json_object_get(d, "bsp"), &bsp_keys_probe, "probe");
        } else if (!strcmp(k, "characterize")) {
            t->characterize = 1;
            measured_bsp(t, d, json_object_get(d, "probe"), &bsp_keys_characterize, "characterized machine");
        } else if (!strcmp(k, "published")) {
            if (!t->published) t->published = d;
        } else {
            observe_doc(t, d, NULL, 0);
        }
    }
    free(t->paired);
    t->paired = NULL;
    /* two machines of one name: say which is which */
    for (int i = 0; i < t->ncol; i++)
        for (int j = 0; j < t->ncol; j++)
            if (i != j && !strcmp(t->col[i].name, t->col[j].name) && t->col[i].predicted == t->col[j].predicted &&
                t->col[i].detail[0] && !strstr(t->col[i].name, " (")) {
                size_t len = strlen(t->col[i].name);
                snprintf(t->col[i].name + len, sizeof t->col[i].name - len, " (%.100s)",
                         t->col[i].predicted ? base_name(t->col[i].detail) : t->col[i].detail);
            }
    /* rows in the seed's order, then by name, processors, size, iterations */
    if (t->nrow > 1) {
        int *idx = ps_xmalloc((size_t)t->nrow * sizeof *idx);
        for (int i = 0; i < t->nrow; i++) idx[i] = i;
        for (int i = 1; i < t->nrow; i++)
            for (int j = i; j > 0; j--) {
                const row *a = &t->row[idx[j - 1]], *b = &t->row[idx[j]];
                int oa = 100, ob = 100;
                for (int k = 0; seed_order[k]; k++) {
                    if (!strcmp(a->workload, seed_order[k])) oa = k;
                    if (!strcmp(b->workload, seed_order[k])) ob = k;
                }
                int c = oa != ob ? oa - ob : strcmp(a->workload, b->workload);
                if (!c) c = a->size != b->size ? (a->size < b->size ? -1 : 1) : 0;
                if (!c) c = a->ranks - b->ranks;
                if (!c) c = a->iterations != b->iterations ? (a->iterations < b->iterations ? -1 : 1) : 0;
                if (c <= 0) break;
                int x = idx[j - 1];
                idx[j - 1] = idx[j];
                idx[j] = x;
            }
        row *nr = ps_xmalloc((size_t)t->nrow * sizeof *nr);
        double *ntm = ps_xmalloc((size_t)t->nrow * (size_t)(t->ncol ? t->ncol : 1) * sizeof *ntm);
        for (int i = 0; i < t->nrow; i++) {
            nr[i] = t->row[idx[i]];
            for (int c = 0; c < t->ncol; c++) ntm[i * t->ncol + c] = t->time[idx[i] * t->ncol + c];
        }
        free(t->row);
        free(t->time);
        t->row = nr;
        t->time = ntm;
        free(idx);
    }
    /* default reference: the fastest machine over the configurations all have */
    double best = INFINITY;
    for (int c = 0; c < t->ncol; c++) {
        double sum = 0;
        int n = 0;
        for (int r = 0; r < t->nrow; r++) {
            int all = 1;
            for (int k = 0; k < t->ncol; k++) all &= isfinite(t->time[r * t->ncol + k]);
            if (all) {
                sum += t->time[r * t->ncol + c];
                n++;
            }
        }
        if (n && sum < best) {
            best = sum;
            t->ref = c;
        }
    }
    if (t->ref < 0 && t->ncol) t->ref = 0;
    return t;
}

void ps_tables_free(ps_tables *t)
{
    if (!t) return;
    free(t->col);
    free(t->row);
    free(t->time);
    free(t->bsp);
    free(t->models);
    free(t);
}

int ps_tables_set_reference(ps_tables *t, const char *name, char *err, size_t errlen)
{
    int found = -1, nfound = 0;
    for (int c = 0; c < t->ncol; c++)
        if (!strcasecmp(t->col[c].name, name) || !strcasecmp(t->col[c].model, name)) {
            found = c;
            nfound = 1;
            break;
        }
    if (found < 0) {
        size_t n = strlen(name);
        for (int c = 0; c < t->ncol; c++)
            for (const char *p = t->col[c].name; *p; p++)
                if (!strncasecmp(p, name, n)) {
                    found = c;
                    nfound++;
                    break;
                }
    }
    if (nfound == 1) {
        t->ref = found;
        return 0;
    }
    char list[1024] = "";
    size_t used = 0;
    for (int c = 0; c < t->ncol && used < sizeof list; c++) {
        int w = snprintf(list + used, sizeof list - used, "%s'%s'", c ? ", " : "", t->col[c].name);
        if (w > 0) used += (size_t)w;
    }
    if (!t->ncol)
        ps_seterr(err, errlen, "--reference %s: the inputs hold no run or prediction to compare", name);
    else
        ps_seterr(err, errlen, "--reference %s: %s of the machines: %s", name,
                  nfound ? "names more than one" : "names none", list);
    return -1;
}

int ps_tables_have_seed_tables(const ps_tables *t)
{
    int bsp_from_files = 0;
    for (int i = 0; i < t->nbsp; i++) bsp_from_files |= t->bsp[i].source[0] && strcmp(t->bsp[i].source, "parscope probe");
    return t->ncol >= 2 || t->nmodels > 0 || t->nbsp >= 2 || bsp_from_files || t->published;
}

/* ---- the tables ------------------------------------------------------------ */

/* "fingerprint 16/100", "cg 16/256/8": processors, problem size, and the
 * iterations where they are not the default of one or the problem size
 * (the seed's labels). */
static void row_label(char *buf, size_t len, const row *r)
{
    if (r->size < 0) snprintf(buf, len, "%s %d", r->workload, r->ranks);
    else if (r->iterations > 1 && r->iterations != r->size)
        snprintf(buf, len, "%s %d/%ld/%ld", r->workload, r->ranks, r->size, r->iterations);
    else snprintf(buf, len, "%s %d/%ld", r->workload, r->ranks, r->size);
}

/* Opens row r of a time table with its label cell. */
static void row_open(FILE *f, const ps_tables *t, int r)
{
    char label[256];
    row_label(label, sizeof label, &t->row[r]);
    fputs("<tr><td>", f);
    ps_html_escape(f, label);
    fputs("</td>", f);
}

static int row_complete(const ps_tables *t, int r)
{
    for (int c = 0; c < t->ncol; c++)
        if (!isfinite(t->time[r * t->ncol + c])) return 0;
    return 1;
}

static int mixed(const ps_tables *t)
{
    int p = 0, m = 0;
    for (int c = 0; c < t->ncol; c++) {
        if (t->col[c].predicted) p++;
        else m++;
    }
    return p && m;
}

/* A head cell per machine: its name, then (after sep) whether it is measured
 * or predicted where the page has both, then tail, which closes the cell. */
static void machine_heads(FILE *f, const ps_tables *t, const char *sep, const char *tail)
{
    int mx = mixed(t);
    for (int c = 0; c < t->ncol; c++) {
        fputs("<th>", f);
        ps_html_escape(f, t->col[c].name);
        if (mx) {
            fputs(sep, f);
            fputs(t->col[c].predicted ? "(predicted)" : "(measured)", f);
        }
        fputs(tail, f);
    }
}

static void column_heads(FILE *f, const ps_tables *t, const char *first)
{
    fputs("<tr><th>", f);
    ps_html_escape(f, first);
    fputs("</th>", f);
    machine_heads(f, t, "<br>", "</th>");
    fputs("</tr>\n", f);
}

static int row_complete(const ps_tables *t, int r);

/* One unit for a whole table of times, from its median: s, ms or µs. */
typedef struct tunit {
    double scale;
    const char *name;
} tunit;

static tunit table_unit(const ps_tables *t, int complete)
{
    double *v = ps_xmalloc((size_t)(t->nrow * t->ncol + 1) * sizeof *v);
    int n = 0;
    for (int r = 0; r < t->nrow; r++) {
        if (complete >= 0 && row_complete(t, r) != complete) continue;
        for (int c = 0; c < t->ncol; c++)
            if (isfinite(t->time[r * t->ncol + c])) v[n++] = t->time[r * t->ncol + c];
    }
    double med = 1;
    if (n) {
        ps_sort_doubles(v, (size_t)n);
        med = v[n / 2];
    }
    free(v);
    if (med >= 1) return (tunit){1, "seconds"};
    if (med >= 1e-3) return (tunit){1e-3, "milliseconds"};
    return (tunit){1e-6, "microseconds"};
}

static void cell_time(FILE *f, double v, tunit u) { ps_html_cell_fig(f, "%.4g", v / u.scale); }

static void cell_ratio(FILE *f, double v) { ps_html_cell_fig(f, "%.3f", v); }

static void table_open(FILE *f, const char *id)
{
    fprintf(f, "<table id=\"%s\">\n", id);
}

static void seed_tables(FILE *f, const ps_tables *t)
{
    int n1 = 0, n3 = 0;
    for (int r = 0; r < t->nrow; r++) {
        if (row_complete(t, r)) n1++;
        else n3++;
    }
    const char *ref = t->ref >= 0 ? t->col[t->ref].name : "?";
    if (n1) {
        tunit u = table_unit(t, 1);
        ps_html_heading(f, "Table 1: execution times");
        ps_html_note(f, "Execution time in %s, by workload and processors / problem size / iterations (the LOOP "
                        "seed's labels), one column per machine%s: the configurations every machine has.",
                     u.name, mixed(t) ? "; measured runs and predictions side by side" : "");
        table_open(f, "table1");
        column_heads(f, t, "workload P/size/iterations");
        for (int r = 0; r < t->nrow; r++) {
            if (!row_complete(t, r)) continue;
            row_open(f, t, r);
            for (int c = 0; c < t->ncol; c++) cell_time(f, t->time[r * t->ncol + c], u);
            fputs("</tr>\n", f);
        }
        fputs("</table>\n", f);

        ps_html_heading(f, "Table 2: slowdown");
        ps_html_note(f, "Each execution time divided by %s's%s (the seed's \"Paragon seconds\"; 1 is as fast, above 1 "
                        "slower). Choose the reference with --reference NAME.", ref,
                     !mixed(t) || t->ref < 0 ? "" : t->col[t->ref].predicted ? " (predicted)" : " (measured)");
        table_open(f, "table2");
        column_heads(f, t, "workload P/size/iterations");
        for (int r = 0; r < t->nrow; r++) {
            if (!row_complete(t, r)) continue;
            row_open(f, t, r);
            double base = t->time[r * t->ncol + t->ref];
            for (int c = 0; c < t->ncol; c++) cell_ratio(f, t->time[r * t->ncol + c] / base);
            fputs("</tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    if (n3) {
        tunit u = table_unit(t, 0);
        ps_html_heading(f, "Table 3: configurations not every machine has");
        ps_html_note(f, "Execution time in %s where a machine has the configuration, and the slowdown against %s "
                        "where both have it (the seed's Table 3: 64 and 128 nodes on two of its three machines).",
                     u.name, ref);
        table_open(f, "table3");
        fputs("<tr><th>workload P/size/iterations</th>", f);
        machine_heads(f, t, " ", "<br>time</th>");
        for (int c = 0; c < t->ncol; c++) {
            if (c == t->ref) continue;
            fputs("<th>", f);
            ps_html_escape(f, t->col[c].name);
            fputs("<br>slowdown</th>", f);
        }
        fputs("</tr>\n", f);
        for (int r = 0; r < t->nrow; r++) {
            if (row_complete(t, r)) continue;
            row_open(f, t, r);
            for (int c = 0; c < t->ncol; c++) cell_time(f, t->time[r * t->ncol + c], u);
            double base = t->time[r * t->ncol + t->ref];
            for (int c = 0; c < t->ncol; c++)
                if (c != t->ref) cell_ratio(f, t->time[r * t->ncol + c] / base);
            fputs("</tr>\n", f);
        }
        fputs("</table>\n", f);
    }
}

/* ---- published figures beside the predictions -------------------------------- */

typedef struct pub_machine {
    const char *name, *model;
    int col;        /* the prediction standing for it, -1 none */
} pub_machine;

/* The published machines and the model column of each. */
static int published_machines(const ps_tables *t, pub_machine *pm, int max)
{
    int n = 0;
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(t->published, "machines"), i, m) {
        if (n == max) break;
        pm[n].name = str(m, "name");
        pm[n].model = str(m, "model");
        pm[n].col = -1;
        if (!pm[n].name) continue;
        for (int c = 0; c < t->ncol; c++)
            if (t->col[c].predicted && pm[n].model && !strcasecmp(t->col[c].model, pm[n].model)) pm[n].col = c;
        n++;
    }
    return n;
}

/* The row of the table matching a published row, or -1. */
static int published_row(const ps_tables *t, const json_t *pr)
{
    row r;
    memset(&r, 0, sizeof r);
    snprintf(r.workload, sizeof r.workload, "%s", str(pr, "workload") ? str(pr, "workload") : "");
    r.ranks = (int)ps_json_num(pr, "ranks");
    r.size = isfinite(ps_json_num(pr, "size")) ? (long)ps_json_num(pr, "size") : -1;
    r.iterations = isfinite(ps_json_num(pr, "iterations")) ? (long)ps_json_num(pr, "iterations") : -1;
    return find_row(t, &r);
}

/* One comparison table: for each published row of `table` that has `what`
 * ("time" or "slowdown"), published | predicted | ratio per machine. */
static int published_table(FILE *f, const ps_tables *t, const pub_machine *pm, int npm, int table, const char *what,
                           const char *id, double *lo, double *hi, double *logsum, int *nratio)
{
    int rows = 0;
    size_t i;
    json_t *pr;
    const char *ref = str(t->published, "reference");
    int refm = -1;
    for (int k = 0; k < npm; k++)
        if (ref && !strcmp(pm[k].name, ref)) refm = k;
    json_array_foreach(json_object_get(t->published, "rows"), i, pr) {
        if ((int)ps_json_num(pr, "table") != table || !json_is_object(json_object_get(pr, what))) continue;
        if (!rows++) {
            table_open(f, id);
            fputs("<tr><th rowspan=\"2\">workload P/size/iterations</th>", f);
            for (int k = 0; k < npm; k++) {
                fputs("<th colspan=\"3\">", f);
                ps_html_escape(f, pm[k].name);
                fputs("</th>", f);
            }
            fputs("</tr>\n<tr>", f);
            for (int k = 0; k < npm; k++) fputs("<th>published</th><th>predicted</th><th>ratio</th>", f);
            fputs("</tr>\n", f);
        }
        int r = published_row(t, pr);
        fputs("<tr><td>", f);
        ps_html_escape(f, str(pr, "label") ? str(pr, "label") : str(pr, "workload"));
        fputs("</td>", f);
        for (int k = 0; k < npm; k++) {
            double pub = ps_json_num(json_object_get(pr, what), pm[k].name), pred = NAN;
            if (r >= 0 && pm[k].col >= 0) {
                pred = t->time[r * t->ncol + pm[k].col];
                if (!strcmp(what, "slowdown")) {
                    int rc = refm >= 0 ? pm[refm].col : -1;
                    pred = rc >= 0 ? pred / t->time[r * t->ncol + rc] : NAN;
                }
            }
            double ratio = pred / pub;
            const tunit sec = {1, "seconds"};
            /* the published figure as printed */
            ps_html_cell_fig(f, "%g", pub);
            if (!strcmp(what, "time")) cell_time(f, pred, sec);
            else cell_ratio(f, pred);
            if (isfinite(ratio) && ratio > 0) {
                /* a ratio more than 2x off either way is marked */
                fprintf(f, "<td class=\"num%s\">%.2f</td>", ratio > 2 || ratio < 0.5 ? " off" : "", ratio);
                if (!(table == 2 && k == refm)) {
                    *lo = fmin(*lo, ratio);
                    *hi = fmax(*hi, ratio);
                    *logsum += log(ratio);
                    (*nratio)++;
                }
            } else {
                fputs("<td class=\"num\">-</td>", f);
            }
        }
        fputs("</tr>\n", f);
    }
    if (rows) fputs("</table>\n", f);
    return rows;
}

static void published_html(FILE *f, const ps_tables *t)
{
    pub_machine pm[16];
    int npm = published_machines(t, pm, 16);
    if (!npm) return;
    ps_html_heading(f, "Predicted against the published tables");
    const char *src = str(t->published, "source");
    ps_html_note(f, "Each published figure beside the prediction of the machine model standing for its machine, "
                    "and predicted / published (cells more than 2x off either way are marked). A model stands for a "
                    "published machine when its file is named as the machine's \"model\" in the published document. "
                    "Published: %s.", src ? src : "the published document");
    char missing[512] = "";
    size_t used = 0;
    for (int k = 0; k < npm; k++)
        if (pm[k].col < 0 && used < sizeof missing) {
            int w = snprintf(missing + used, sizeof missing - used, "%s%s (%s.ini)", used ? ", " : "", pm[k].name,
                             pm[k].model ? pm[k].model : "?");
            if (w > 0) used += (size_t)w;
        }
    if (missing[0]) ps_html_note(f, "No prediction on the page stands for: %s.", missing);
    double lo = INFINITY, hi = 0, logsum = 0;
    int n = 0;
    ps_html_heading(f, "Table 1, published and predicted: execution times (s)");
    if (!published_table(f, t, pm, npm, 1, "time", "published-table1", &lo, &hi, &logsum, &n))
        ps_html_note(f, "The published document has no Table 1.");
    ps_html_heading(f, "Table 2, published and predicted: slowdown");
    if (!published_table(f, t, pm, npm, 2, "slowdown", "published-table2", &lo, &hi, &logsum, &n))
        ps_html_note(f, "The published document has no Table 2.");
    if (json_array_size(json_object_get(t->published, "rows"))) {
        int any3 = 0;
        size_t i;
        json_t *pr;
        json_array_foreach(json_object_get(t->published, "rows"), i, pr) any3 |= (int)ps_json_num(pr, "table") == 3 &&
                                                                                 published_row(t, pr) >= 0;
        if (any3) {
            ps_html_heading(f, "Table 3, published and predicted: execution times (s)");
            published_table(f, t, pm, npm, 3, "time", "published-table3", &lo, &hi, &logsum, &n);
        }
    }
    if (n) ps_html_note(f, "Over these %d cells (the reference machine's slowdowns of 1 left out), predicted / "
                           "published runs from %.2f to %.2f (geometric mean %.2f).", n, lo, hi, exp(logsum / n));
}

/* ---- r, g, l and the models ---------------------------------------------------- */

static void bsp_html(FILE *f, const ps_tables *t)
{
    if (!t->nbsp) return;
    ps_html_heading(f, "BSP parameters r, g and l");
    ps_html_note(f, "The BSP seed's table: r the DAXPY rate, g the cost of one word of a full h-relation and l a "
                    "superstep's fixed cost, both in flops (T(h) = h g + l) and in microseconds.");
    table_open(f, "bsp-rgl");
    fputs("<tr><th>machine</th><th>p</th><th>r (Mflop/s)</th><th>g (flop)</th><th>l (flop)</th>"
          "<th>g (\xc2\xb5s)</th><th>l (\xc2\xb5s)</th><th>from</th></tr>\n",
          f);
    int derived = 0;
    for (int i = 0; i < t->nbsp; i++) {
        const bsp_row *b = &t->bsp[i];
        fputs("<tr><td>", f);
        ps_html_escape(f, b->name);
        fputs("</td>", f);
        ps_html_cell_fig(f, "%.0f", b->p);
        ps_html_cell_fig(f, "%.4g", b->r / 1e6);
        ps_html_cell_fig(f, b->derived ? "%.4g*" : "%.4g", b->g);
        ps_html_cell_fig(f, "%.4g", b->l);
        ps_html_cell_fig(f, b->derived ? "%.3g*" : "%.3g", b->g_us);
        ps_html_cell_fig(f, "%.3g", b->l_us);
        fputs("<td>", f);
        ps_html_escape(f, b->source);
        fputs("</td></tr>\n", f);
        derived |= b->derived;
    }
    fputs("</table>\n", f);
    if (derived)
        ps_html_note(f, "* A model without a [bsp] section: r = 1 / flop_time and g = word_time / flop_time (a word "
                        "sent on its own, not a full h-relation); it has no l.");
}

static void models_html(FILE *f, const ps_tables *t)
{
    if (!t->nmodels) return;
    ps_html_heading(f, "Machine models");
    table_open(f, "machine-models");
    fputs("<tr><th>machine</th><th>send latency</th><th>receive latency</th><th>bandwidth</th><th>flop rate</th>"
          "<th>network</th><th>file</th><th>source</th></tr>\n",
          f);
    for (int i = 0; i < t->nmodels; i++) {
        const model_row *m = &t->models[i];
        char a[32], b[32];
        ps_html_fmt_time(a, sizeof a, m->send);
        ps_html_fmt_time(b, sizeof b, m->recv);
        fputs("<tr><td>", f);
        ps_html_escape(f, m->name);
        fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td>", a, b);
        if (m->word > 0) fprintf(f, "<td class=\"num\">%.3g MB/s</td>", 8 / m->word / 1e6);
        else fputs("<td class=\"num\">-</td>", f);
        if (m->flop > 0) fprintf(f, "<td class=\"num\">%.3g Mflop/s</td>", 1 / m->flop / 1e6);
        else fputs("<td class=\"num\">-</td>", f);
        fputs("<td>", f);
        ps_html_escape(f, m->network);
        fputs("</td><td>", f);
        ps_html_escape(f, base_name(m->file));
        fputs("</td><td>", f);
        ps_html_escape(f, m->source);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

void ps_tables_html(FILE *f, const ps_tables *t)
{
    if (!ps_tables_have_seed_tables(t)) return;
    ps_html_section_begin(f, "tables", "Machines side by side");
    if (t->ncol >= 2) seed_tables(f, t);
    if (t->published) published_html(f, t);
    bsp_html(f, t);
    models_html(f, t);
    ps_html_section_end(f);
}

/* ---- execution time against P ------------------------------------------------ */

typedef struct series_key {
    int r0;   /* the first row of the configuration (workload, size, iterations) */
} series_key;

static int same_config(const row *a, const row *b)
{
    return !strcmp(a->workload, b->workload) && a->size == b->size && a->iterations == b->iterations;
}

/* Distinct processor counts of a configuration with a time in column c. */
static int points_of(const ps_tables *t, int r0, int c, double *P, double *T)
{
    int n = 0;
    for (int r = 0; r < t->nrow; r++) {
        if (!same_config(&t->row[r], &t->row[r0])) continue;
        double v = t->time[r * t->ncol + c];
        if (!isfinite(v)) continue;
        P[n] = t->row[r].ranks;
        T[n++] = v;
    }
    /* ascending P (rows are sorted by P within a configuration) */
    return n;
}

int ps_tables_have_scaling(const ps_tables *t)
{
    double *P = ps_xmalloc((size_t)(t->nrow + 1) * sizeof *P), *T = ps_xmalloc((size_t)(t->nrow + 1) * sizeof *T);
    int have = 0;
    for (int r = 0; r < t->nrow && !have; r++)
        for (int c = 0; c < t->ncol && !have; c++) have = points_of(t, r, c, P, T) >= 2;
    free(P);
    free(T);
    return have;
}

static void fmt_p(char *b, size_t n, double v) { snprintf(b, n, "%.0f", v); }

static void fmt_speedup(char *b, size_t n, double v) { snprintf(b, n, "%.3g", v); }

/* one colour and marker per machine, the same on every figure of the page */
static const char *const series_color[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"};

/* Machine col's series in a plot: lines and points, dashed when predicted. */
static void machine_series(ps_plot *p, const ps_tables *t, int col, const char *name, const double *x,
                           const double *y, int n)
{
    ps_plot_series *se = ps_plot_add(p, name, x, y, n,
                                     PS_PLOT_LINE | PS_PLOT_POINTS | (t->col[col].predicted ? PS_PLOT_DASHED : 0));
    if (se) {
        se->color = series_color[col % 6];
        se->shape = col + 1;
    }
}

/* Predicted against measured where a configuration has both: (predicted -
 * measured) / measured for each measured and predicted column pair. */
static void errors_table(FILE *f, const ps_tables *t)
{
    int any = 0;
    for (int r = 0; r < t->nrow; r++)
        for (int m = 0; m < t->ncol; m++)
            for (int p = 0; p < t->ncol; p++)
                if (!t->col[m].predicted && t->col[p].predicted && isfinite(t->time[r * t->ncol + m]) &&
                    isfinite(t->time[r * t->ncol + p])) {
                    if (!any++) {
                        ps_html_heading(f, "Predicted against measured");
                        table_open(f, "predicted-measured");
                        fputs("<tr><th>workload P/size/iterations</th><th>measured on</th><th>predicted on</th>"
                              "<th>measured</th><th>predicted</th><th>error</th></tr>\n",
                              f);
                    }
                    char label[256], a[32], b[32];
                    row_label(label, sizeof label, &t->row[r]);
                    double tm = t->time[r * t->ncol + m], tp = t->time[r * t->ncol + p];
                    ps_html_fmt_time(a, sizeof a, tm);
                    ps_html_fmt_time(b, sizeof b, tp);
                    fputs("<tr><td>", f);
                    ps_html_escape(f, label);
                    fputs("</td><td>", f);
                    ps_html_escape(f, t->col[m].name);
                    fputs("</td><td>", f);
                    ps_html_escape(f, t->col[p].name);
                    fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%+.1f%%</td></tr>\n",
                            a, b, 100 * (tp - tm) / tm);
                }
    if (any) {
        fputs("</table>\n", f);
        ps_html_note(f, "error = (predicted - measured) / measured, each at its own time figure (best of the trials "
                        "unless the result says median).");
    }
}

void ps_tables_scaling_html(FILE *f, const ps_tables *t)
{
    if (!ps_tables_have_scaling(t)) return;
    ps_html_section_begin(f, "scaling", "Execution time against P");
    ps_html_note(f, "As the estimator seed's Figures 2 to 5: for each workload, the execution time and the speedup "
                    "T(first P) / T(P) of every machine with two processor counts or more, predicted (dashed) and "
                    "measured (solid) on one figure.");
    size_t cap = (size_t)t->nrow + 1;
    double *P = ps_xmalloc((size_t)t->ncol * cap * sizeof *P), *T = ps_xmalloc((size_t)t->ncol * cap * sizeof *T);
    double *S = ps_xmalloc((size_t)t->ncol * cap * sizeof *S), *ideal = ps_xmalloc(cap * sizeof *ideal);
    double *idealP = ps_xmalloc(cap * sizeof *idealP);
    for (int r0 = 0; r0 < t->nrow; r0++) {
        int first = 1;
        for (int r = 0; r < r0; r++) first &= !same_config(&t->row[r], &t->row[r0]);
        if (!first) continue;
        int ns = 0, cols[PS_PLOT_MAX_SERIES], npts[PS_PLOT_MAX_SERIES];
        for (int c = 0; c < t->ncol && ns < PS_PLOT_MAX_SERIES - 1; c++) {
            int n = points_of(t, r0, c, P + (size_t)ns * cap, T + (size_t)ns * cap);
            if (n < 2) continue;
            for (int i = 0; i < n; i++) S[(size_t)ns * cap + i] = T[(size_t)ns * cap] / T[(size_t)ns * cap + i];
            cols[ns] = c;
            npts[ns++] = n;
        }
        if (!ns) continue;
        char label[256], title[300], stitle[300];
        row cfg = t->row[r0];
        cfg.ranks = 0;
        if (cfg.size < 0) snprintf(label, sizeof label, "%s", cfg.workload);
        else if (cfg.iterations > 1 && cfg.iterations != cfg.size)
            snprintf(label, sizeof label, "%s, size %ld, %ld iterations", cfg.workload, cfg.size, cfg.iterations);
        else snprintf(label, sizeof label, "%s, size %ld", cfg.workload, cfg.size);
        snprintf(title, sizeof title, "Execution time: %s", label);
        snprintf(stitle, sizeof stitle, "Speedup: %s", label);
        ps_html_heading(f, label);
        fputs("<div class=\"figures\">\n", f);
        /* linear axes as the seed's figures, while they stay readable: P up to 64, times within 20x */
        double pmax_all = 0, tmin = INFINITY, tmax = 0;
        for (int s = 0; s < ns; s++)
            for (int i = 0; i < npts[s]; i++) {
                pmax_all = fmax(pmax_all, P[(size_t)s * cap + i]);
                tmin = fmin(tmin, T[(size_t)s * cap + i]);
                tmax = fmax(tmax, T[(size_t)s * cap + i]);
            }
        int xlog = pmax_all > 64 ? 2 : 0;
        ps_plot p;
        ps_plot_init(&p, title, "processors P", "execution time");
        p.width = 640;
        p.height = 380;
        p.xlog = xlog;
        p.ylog = tmax > 20 * tmin;
        p.xfmt = fmt_p;
        p.yfmt = ps_html_fmt_time;
        char names[PS_PLOT_MAX_SERIES][200];
        for (int s = 0; s < ns; s++) {
            snprintf(names[s], sizeof names[s], "%s, %s", t->col[cols[s]].name,
                     t->col[cols[s]].predicted ? "predicted" : "measured");
            machine_series(&p, t, cols[s], names[s], P + (size_t)s * cap, T + (size_t)s * cap, npts[s]);
        }
        ps_plot_svg(&p, f);
        ps_plot q;
        ps_plot_init(&q, stitle, "processors P", "speedup");
        q.width = 640;
        q.height = 380;
        q.xlog = xlog;
        q.xfmt = fmt_p;
        q.yfmt = fmt_speedup;
        double pmin = INFINITY, pmax = 0;
        for (int s = 0; s < ns; s++) {
            machine_series(&q, t, cols[s], names[s], P + (size_t)s * cap, S + (size_t)s * cap, npts[s]);
            pmin = fmin(pmin, P[(size_t)s * cap]);
            pmax = fmax(pmax, P[(size_t)s * cap + npts[s] - 1]);
        }
        /* ideal speedup P / P_first, drawn over the common range */
        int ni = 0;
        for (int r = 0; r < t->nrow; r++)
            if (same_config(&t->row[r], &t->row[r0]) && t->row[r].ranks >= pmin && t->row[r].ranks <= pmax) {
                idealP[ni] = t->row[r].ranks;
                ideal[ni++] = t->row[r].ranks / pmin;
            }
        ps_plot_series *is = ps_plot_add(&q, "ideal", idealP, ideal, ni, PS_PLOT_LINE | PS_PLOT_DASHED);
        if (is) is->color = "#999999";
        ps_plot_svg(&q, f);
        fputs("</div>\n", f);
    }
    if (!t->characterize) errors_table(f, t);
    free(P);
    free(T);
    free(S);
    free(ideal);
    free(idealP);
    ps_html_section_end(f);
}

/* ---- findings ------------------------------------------------------------------ */

int ps_tables_configurations(const ps_tables *t, int predicted)
{
    int n = 0;
    for (int r = 0; r < t->nrow; r++) {
        int has = 0;
        for (int c = 0; c < t->ncol; c++) has |= t->col[c].predicted == predicted && isfinite(t->time[r * t->ncol + c]);
        n += has;
    }
    return n;
}

/* "2 machines", "1 measured machine and 1 machine model": what the columns are. */
static void machines_text(char *b, size_t n, const ps_tables *t)
{
    int np = 0;
    for (int c = 0; c < t->ncol; c++) np += t->col[c].predicted;
    int nm = t->ncol - np;
    if (np && nm)
        snprintf(b, n, "%d measured machine%s and %d machine model%s", nm, nm == 1 ? "" : "s", np, np == 1 ? "" : "s");
    else snprintf(b, n, "%d %s", t->ncol, np ? "machine models" : "machines");
}

void ps_tables_findings(const ps_tables *t, json_t *list)
{
    /* Table 2's spread: the slowest machine against the reference */
    if (t->ncol >= 2 && t->ref >= 0) {
        double worst = 0;
        int wr = -1, wc = -1, n = 0;
        for (int r = 0; r < t->nrow; r++) {
            if (!row_complete(t, r)) continue;
            n++;
            for (int c = 0; c < t->ncol; c++) {
                double s = t->time[r * t->ncol + c] / t->time[r * t->ncol + t->ref];
                /* a host's measured and predicted columns: a prediction's error, not a slowdown (said
                 * below, predicted against measured) */
                if (!strcmp(t->col[c].name, t->col[t->ref].name)) continue;
                if (c != t->ref && s > worst) {
                    worst = s;
                    wr = r;
                    wc = c;
                }
            }
        }
        if (wr >= 0) {
            char label[256];
            row_label(label, sizeof label, &t->row[wr]);
            /* a host measured and predicted is two columns of one name: say which */
            int mx = mixed(t);
            const char *kr = !mx ? "" : t->col[t->ref].predicted ? " (predicted)" : " (measured)";
            const char *kw = !mx ? "" : t->col[wc].predicted ? " (predicted)" : " (measured)";
            char machines[96];
            machines_text(machines, sizeof machines, t);
            json_array_append_new(list, json_sprintf("%s over %d configurations (Table 1): %s%s is the reference; "
                                                     "the largest slowdown is %.3g (%s on %s%s).",
                                                     machines, n, t->col[t->ref].name, kr, worst, label,
                                                     t->col[wc].name, kw));
        }
    }
    /* predicted against measured */
    double sum = 0, worst = 0;
    int n = 0, wr = -1;
    for (int r = 0; r < t->nrow; r++)
        for (int m = 0; m < t->ncol; m++)
            for (int p = 0; p < t->ncol; p++) {
                if (t->col[m].predicted || !t->col[p].predicted) continue;
                double tm = t->time[r * t->ncol + m], tp = t->time[r * t->ncol + p];
                if (!isfinite(tm) || !isfinite(tp) || t->row[r].ranks < 2) continue;
                double e = fabs(tp - tm) / tm;
                sum += e;
                n++;
                if (e > worst) {
                    worst = e;
                    wr = r;
                }
            }
    if (n) {
        char label[256];
        row_label(label, sizeof label, &t->row[wr]);
        /* the precision of the characterization's summary, which states the same comparison */
        json_array_append_new(list, json_sprintf("Predicted against measured (P > 1): mean |error| %.1f%% over %d "
                                                 "configurations, largest %.1f%% (%s).",
                                                 100 * sum / n, n, 100 * worst, label));
    }
    if (t->published) {
        pub_machine pm[16];
        int npm = published_machines(t, pm, 16), have = 0;
        for (int k = 0; k < npm; k++) have |= pm[k].col >= 0;
        if (have) {
            /* the table is drawn once; this counts its cells again in memory */
            char *buf = NULL;
            size_t len = 0;
            FILE *sink = open_memstream(&buf, &len);
            double lo = INFINITY, hi = 0, logsum = 0;
            int nr = 0;
            published_table(sink, t, pm, npm, 1, "time", "x", &lo, &hi, &logsum, &nr);
            fclose(sink);
            free(buf);
            if (nr)
                json_array_append_new(list, json_sprintf("Predicted against the published Table 1: predicted / "
                                                         "published from %.2f to %.2f over %d cells (geometric mean "
                                                         "%.2f).",
                                                         lo, hi, nr, exp(logsum / nr)));
        }
    }
}
