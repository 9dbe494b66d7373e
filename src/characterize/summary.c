/*
 * summary.c - the characterization's summary (see characterize.h).
 *
 * The main bottleneck is named from measurements, never assumed: the
 * communication share (overhead + idle) of the computing workloads cg,
 * mmm_s and red_black at the largest P, and the sweep's own network
 * conclusion.  Above half of the time in communication, or the sweep finding
 * the network limiting while the workloads spend at least a quarter of their
 * time communicating, names the network; otherwise a sweep efficiency
 * under 80% names the shared memory system (the ranks of one node compete for
 * memory bandwidth); otherwise no parallel bottleneck up to that P.
 */
#include "characterize/characterize.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "report/html.h"
#include "report/result.h"
#include "predict/compare.h"
#include "util/util.h"

/* Thresholds of the bottleneck rule (see the top comment). */
#define PS_COMM_SHARE_NETWORK 50.0
#define PS_EFFICIENCY_OK 0.8

static json_t *load(const char *dir, const char *name)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    if (!ps_file_exists(p)) return NULL;
    return json_load_file(p, 0, NULL);
}

static double num(const json_t *o, const char *key)
{
    json_t *v = o ? json_object_get(o, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *jnum(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* The document for P = ranks in a run/predict result (single or points). */
static json_t *point_at(json_t *doc, int ranks)
{
    if (!doc) return NULL;
    json_t *pts = json_object_get(doc, "points");
    if (!json_is_array(pts)) return doc;
    size_t i;
    json_t *p, *best = NULL;
    int bestp = -1;
    json_array_foreach(pts, i, p) {
        int r = (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks"));
        if (r == ranks) return p;
        if (r > bestp) {
            bestp = r;
            best = p;
        }
    }
    return best;
}

static void summary_probe(json_t *s, const char *dir)
{
    json_t *pr = load(dir, "probe.json");
    if (!pr) return;
    json_t *pp = json_object_get(pr, "pingpong"), *bsp = json_object_get(pr, "bsp");
    json_t *h = json_object_get(pp, "hockney");
    json_t *o = json_object();
    json_object_set_new(o, "latency_s", jnum(num(pp, "latency")));
    json_object_set_new(o, "bandwidth_Bps", jnum(num(pp, "bandwidth")));
    /* the largest message's rate: a shaped or congested link's sustained rate
     * can be far below the best (burst) figure */
    json_t *sizes = json_object_get(pp, "sizes");
    json_t *last = json_array_get(sizes, json_array_size(sizes) ? json_array_size(sizes) - 1 : 0);
    if (last && num(last, "min") > 0) {
        json_object_set_new(o, "largest_bytes", jnum(num(last, "bytes")));
        json_object_set_new(o, "bandwidth_largest_Bps", jnum(num(last, "bytes") / num(last, "min")));
    }
    json_object_set_new(o, "hockney_t0_s", jnum(num(h, "t0")));
    json_object_set_new(o, "hockney_r_inf_Bps", jnum(num(h, "r_inf")));
    json_object_set_new(o, "n_half_bytes", jnum(num(h, "n_half")));
    json_object_set_new(o, "bsp_p", jnum(num(bsp, "p")));
    json_object_set_new(o, "r_flops", jnum(num(bsp, "r")));
    json_object_set_new(o, "g_flops", jnum(num(bsp, "g")));
    json_object_set_new(o, "l_flops", jnum(num(bsp, "l")));
    json_object_set_new(o, "g_us", jnum(num(bsp, "g_us")));
    json_object_set_new(o, "l_us", jnum(num(bsp, "l_us")));
    int agree = 1;
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(pr, "agreement"), i, a)
        if (json_is_false(json_object_get(a, "agree"))) agree = 0;
    json_object_set_new(o, "best_two_agree", json_boolean(agree));
    json_t *w = json_object_get(pr, "warnings");
    json_object_set(o, "warnings", json_is_array(w) ? w : json_array());
    json_object_set_new(s, "probe", o);
    json_t *m = json_object_get(pr, "machine");
    if (json_is_object(m)) json_object_set(s, "machine", m);
    json_decref(pr);
}

static void summary_fingerprint(json_t *s, const char *dir)
{
    json_t *fp = load(dir, "fingerprint.json");
    if (!fp) return;
    json_t *sh = json_object_get(fp, "sheet"), *t = json_object_get(fp, "time");
    json_t *o = json_object();
    json_object_set_new(o, "ranks", json_integer(json_integer_value(json_object_get(json_object_get(fp, "params"), "ranks"))));
    json_object_set_new(o, "time_s", jnum(num(t, "min")));
    json_object_set_new(o, "trials", json_integer(json_integer_value(json_object_get(t, "trials"))));
    json_object_set_new(o, "busy_pct", jnum(num(sh, "busy_pct")));
    json_object_set_new(o, "overhead_pct", jnum(num(sh, "overhead_pct")));
    json_object_set_new(o, "idle_pct", jnum(num(sh, "idle_pct")));
    json_object_set_new(o, "messages", jnum(num(sh, "messages_sent")));
    json_object_set_new(s, "fingerprint", o);
    json_decref(fp);
}

static void summary_scale(json_t *s, const char *dir, int *network_concluded, double *eff_out, int *p_out)
{
    json_t *sc = load(dir, "scale/scale.json");
    if (!sc) return;
    json_t *o = json_object();
    int maxp = 0;
    double eff = NAN;
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(sc, "points"), i, p) {
        const char *v = json_string_value(json_object_get(p, "variation"));
        int r = (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks"));
        if (v && !strcmp(v, "base") && r >= maxp && isfinite(num(p, "efficiency"))) {
            maxp = r;
            eff = num(p, "efficiency");
        }
    }
    json_object_set_new(o, "largest_ranks", json_integer(maxp));
    json_object_set_new(o, "efficiency_base", jnum(eff));
    json_t *texts = json_array();
    json_t *c;
    json_array_foreach(json_object_get(sc, "conclusions"), i, c) {
        const char *id = json_string_value(json_object_get(c, "id"));
        const char *text = json_string_value(json_object_get(c, "text"));
        if (text) json_array_append_new(texts, json_string(text));
        if (id && strstr(id, "network")) *network_concluded = 1;
    }
    json_object_set_new(o, "conclusions", texts);
    json_object_set_new(o, "complete", json_boolean(json_is_true(json_object_get(sc, "complete"))));
    json_object_set_new(s, "scale", o);
    *eff_out = eff;
    *p_out = maxp;
    json_decref(sc);
}

static const char *const predicted[] = {"fingerprint", "cg", "mmm_s", "red_black", NULL};

static void summary_predict(json_t *s, const char *dir, int ranks, double *comm_share)
{
    json_t *rows = json_array();
    double maxabs = 0, sumabs = 0;
    int n = 0, nshare = 0;
    double share = 0;
    for (int w = 0; predicted[w]; w++) {
        char pn[256], mn[256];
        snprintf(pn, sizeof pn, "predict/%s.json", predicted[w]);
        snprintf(mn, sizeof mn, "predict/%s.measured.json", predicted[w]);
        json_t *pd = load(dir, pn), *md = load(dir, mn);
        if (md && strcmp(predicted[w], "fingerprint")) {
            /* communication share of the computing workloads at the largest P */
            json_t *pt = point_at(md, ranks);
            json_t *sh = json_object_get(pt, "sheet");
            double o = num(sh, "overhead_pct"), i = num(sh, "idle_pct");
            int pr = (int)json_integer_value(json_object_get(json_object_get(pt, "params"), "ranks"));
            if (isfinite(o) && isfinite(i) && pr > 1) {
                share += o + i;
                nshare++;
            }
        }
        if (pd && md) {
            char err[256];
            json_t *cmp = ps_compare_results(md, pd, NULL, err, sizeof err);
            size_t i;
            json_t *row;
            json_array_foreach(cmp ? json_object_get(cmp, "rows") : NULL, i, row) {
                double e = num(row, "error");
                json_t *r = json_object();
                json_object_set_new(r, "workload", json_string(predicted[w]));
                json_object_set_new(r, "ranks", json_integer(json_integer_value(json_object_get(row, "ranks"))));
                json_object_set_new(r, "measured_s", jnum(num(row, "measured_s")));
                json_object_set_new(r, "predicted_s", jnum(num(row, "predicted_s")));
                json_object_set_new(r, "error", jnum(e));
                json_array_append_new(rows, r);
                /* P = 1 is the calibration run's own case: accuracy is judged above it */
                if (isfinite(e) && json_integer_value(json_object_get(row, "ranks")) > 1) {
                    maxabs = fmax(maxabs, fabs(e));
                    sumabs += fabs(e);
                    n++;
                }
            }
            json_decref(cmp);
        }
        json_decref(pd);
        json_decref(md);
    }
    json_t *o = json_object();
    json_object_set_new(o, "rows", rows);
    json_object_set_new(o, "points", json_integer(n));
    json_object_set_new(o, "max_abs_error", n ? json_real(maxabs) : json_null());
    json_object_set_new(o, "mean_abs_error", n ? json_real(sumabs / n) : json_null());
    json_object_set_new(s, "prediction", o);
    *comm_share = nshare ? share / nshare : NAN;
}

json_t *ps_characterize_summary(const char *dir, int ranks, double budget, double elapsed,
                                const ps_characterize_step *steps, int nsteps, int interrupted, double load)
{
    json_t *s = json_object();
    json_object_set_new(s, "kind", json_string("characterize"));
    json_object_set_new(s, "version", json_integer(1));
    json_object_set_new(s, "ranks", json_integer(ranks));
    json_object_set_new(s, "budget_s", json_real(budget));
    json_object_set_new(s, "elapsed_s", json_real(elapsed));
    json_object_set_new(s, "interrupted", json_boolean(interrupted));
    json_object_set_new(s, "machine", ps_machine_meta());
    /* a machine busy with other work before we began makes every figure a floor */
    long cores = json_integer_value(json_object_get(json_object_get(s, "machine"), "pus"));
    json_object_set_new(s, "load_average_before", jnum(load));
    if (isfinite(load) && cores > 0 && load > 0.5 * (double)cores + 0.5)
        json_object_set_new(s, "warning",
                            json_sprintf("the machine was busy with other work (load average %.1f on %ld processing units "
                                         "before the characterization began): the figures are floors and the comparisons noisy; run again on a "
                                         "quiet machine", load, cores));
    json_t *st = json_array(), *missing = json_array();
    for (int k = 0; k < nsteps; k++) {
        json_t *o = json_object();
        json_object_set_new(o, "step", json_string(steps[k].name));
        json_object_set_new(o, "status", json_string(steps[k].status < 0 ? "not run" : steps[k].status ? "failed" : "ok"));
        json_object_set_new(o, "seconds", json_real(steps[k].seconds));
        if (steps[k].message && steps[k].message[0]) json_object_set_new(o, "message", json_string(steps[k].message));
        json_array_append_new(st, o);
        if (steps[k].status != 0) json_array_append_new(missing, json_string(steps[k].name));
    }
    json_object_set_new(s, "steps", st);
    json_object_set_new(s, "missing", missing);

    int network_concluded = 0, maxp = 0;
    double eff = NAN, share = NAN;
    summary_probe(s, dir);
    summary_fingerprint(s, dir);
    summary_scale(s, dir, &network_concluded, &eff, &maxp);
    summary_predict(s, dir, ranks, &share);

    json_t *b = json_object();
    char reason[512];
    const char *name;
    /* the sweep's own network finding counts only where the workloads also
     * spend a real share of their time communicating */
    if ((isfinite(share) && share > PS_COMM_SHARE_NETWORK) ||
        (network_concluded && (!isfinite(share) || share > PS_COMM_SHARE_NETWORK / 2))) {
        name = "network";
        snprintf(reason, sizeof reason,
                 "%s%.0f%% of the time of cg, mmm_s and red_black at P = %d is spent communicating%s",
                 isfinite(share) ? "" : "(no workload measurement) ", isfinite(share) ? share : 0.0, ranks,
                 network_concluded ? "; the clue sweep finds the network limiting its efficiency" : "");
    } else if (isfinite(eff) && eff < PS_EFFICIENCY_OK) {
        name = "memory system";
        snprintf(reason, sizeof reason,
                 "the clue sweep keeps %.0f%% efficiency at P = %d while %s: the ranks compete for the node's "
                 "memory bandwidth",
                 100 * eff, maxp, isfinite(share) ? "communication takes a small share of the workloads' time" :
                                                   "the sweep finds no network limit");
    } else if (isfinite(share) || isfinite(eff)) {
        name = "none";
        snprintf(reason, sizeof reason,
                 "no parallel bottleneck up to P = %d: communication takes %.0f%% of the workloads' time%s",
                 ranks, isfinite(share) ? share : 0.0,
                 isfinite(eff) ? " and the clue sweep keeps its efficiency" : "");
    } else {
        name = "unknown";
        snprintf(reason, sizeof reason, "not enough was measured to tell (see the steps that failed)");
    }
    json_object_set_new(b, "name", json_string(name));
    json_object_set_new(b, "reason", json_string(reason));
    json_object_set_new(b, "communication_share_pct", jnum(share));
    json_object_set_new(s, "bottleneck", b);
    return s;
}

/* ---- text ------------------------------------------------------------------ */

static const char *str(const json_t *o, const char *k)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v ? v : "?";
}

static void fmt_bw(char *b, size_t n, double bps)
{
    if (!isfinite(bps)) snprintf(b, n, "-");
    else if (bps >= 1e9) snprintf(b, n, "%.2f GB/s", bps / 1e9);
    else if (bps >= 1e6) snprintf(b, n, "%.2f MB/s", bps / 1e6);
    else snprintf(b, n, "%.3g kB/s", bps / 1e3);
}

static void fmt_t(char *b, size_t n, double s)
{
    if (!isfinite(s)) snprintf(b, n, "-");
    else ps_fmt_time(b, n, s);
}

void ps_characterize_print(const json_t *s, FILE *f)
{
    const json_t *m = json_object_get(s, "machine"), *p = json_object_get(s, "probe");
    const json_t *fp = json_object_get(s, "fingerprint"), *sc = json_object_get(s, "scale");
    const json_t *pr = json_object_get(s, "prediction"), *b = json_object_get(s, "bottleneck");
    char a[64], c[64];
    fprintf(f, "Machine: %s (%s, %lld cores), %s\n", str(m, "host"), str(m, "cpu"),
            (long long)json_integer_value(json_object_get(m, "cores")), str(m, "mpi"));
    if (p) {
        fmt_t(a, sizeof a, num(p, "latency_s"));
        fmt_bw(c, sizeof c, num(p, "bandwidth_Bps"));
        char d[64], e[32];
        fmt_bw(d, sizeof d, num(p, "bandwidth_largest_Bps"));
        ps_fmt_bytes(e, sizeof e, num(p, "largest_bytes"));
        fprintf(f, "  ping-pong: latency %s, bandwidth %s best, %s at %s; n1/2 = %.0f bytes\n", a, c, d, e,
                num(p, "n_half_bytes"));
        fprintf(f, "  BSP (p = %.0f): r = %.0f Mflop/s, g = %.3g flops (%.3g us), l = %.3g flops (%.3g us)%s\n",
                num(p, "bsp_p"), num(p, "r_flops") / 1e6, num(p, "g_flops"), num(p, "g_us"), num(p, "l_flops"),
                num(p, "l_us"), json_is_true(json_object_get(p, "best_two_agree")) ? "" : "  [best two runs disagree]");
    } else {
        fprintf(f, "  probe: not measured\n");
    }
    if (fp) {
        fmt_t(a, sizeof a, num(fp, "time_s"));
        fprintf(f, "  fingerprint on %lld ranks: %s; busy %.1f%%, overhead %.1f%%, idle %.1f%%\n",
                (long long)json_integer_value(json_object_get(fp, "ranks")), a, num(fp, "busy_pct"),
                num(fp, "overhead_pct"), num(fp, "idle_pct"));
    }
    if (sc)
        fprintf(f, "  clue sweep: efficiency %.0f%% at P = %lld (base variation)\n", 100 * num(sc, "efficiency_base"),
                (long long)json_integer_value(json_object_get(sc, "largest_ranks")));
    if (pr && json_integer_value(json_object_get(pr, "points")) > 0)
        fprintf(f, "  predictions (P > 1): mean |error| %.1f%%, max %.1f%% over %lld points\n",
                100 * num(pr, "mean_abs_error"), 100 * num(pr, "max_abs_error"),
                (long long)json_integer_value(json_object_get(pr, "points")));
    fprintf(f, "  main bottleneck: %s: %s\n", str(b, "name"), str(b, "reason"));
    const char *warn = json_string_value(json_object_get(s, "warning"));
    if (warn) fprintf(f, "  warning: %s\n", warn);
    json_t *missing = json_object_get(s, "missing");
    if (json_array_size(missing)) {
        fprintf(f, "  missing:");
        size_t i;
        json_t *v;
        json_array_foreach(missing, i, v) fprintf(f, " %s", json_string_value(v));
        fputc('\n', f);
    }
}

/* ---- HTML -------------------------------------------------------------------- */

int ps_characterize_report_html(FILE *out, const json_t *s, const char *dir, const char *source)
{
    (void)dir;
    (void)source;
    const json_t *m = json_object_get(s, "machine"), *p = json_object_get(s, "probe");
    const json_t *fp = json_object_get(s, "fingerprint"), *sc = json_object_get(s, "scale");
    const json_t *pr = json_object_get(s, "prediction"), *b = json_object_get(s, "bottleneck");
    char a[64];
    ps_html_section_begin(out, "characterization", "Characterization");
    ps_html_note(out, "Main bottleneck: %s. %s.", str(b, "name"), str(b, "reason"));
    const char *warn = json_string_value(json_object_get(s, "warning"));
    if (warn) ps_html_note(out, "Warning: %s.", warn);
    ps_html_kv_begin(out);
    ps_html_kv(out, "Machine", "%s (%s, %lld cores, %s)", str(m, "host"), str(m, "cpu"),
               (long long)json_integer_value(json_object_get(m, "cores")), str(m, "mpi"));
    if (p) {
        ps_html_fmt_time(a, sizeof a, num(p, "latency_s"));
        ps_html_kv(out, "Latency (ping-pong, half round trip)", "%s", a);
        fmt_bw(a, sizeof a, num(p, "bandwidth_Bps"));
        ps_html_kv(out, "Bandwidth (ping-pong, best)", "%s", a);
        char e[32];
        fmt_bw(a, sizeof a, num(p, "bandwidth_largest_Bps"));
        ps_fmt_bytes(e, sizeof e, num(p, "largest_bytes"));
        ps_html_kv(out, "Bandwidth at the largest message", "%s (%s)", a, e);
        ps_html_kv(out, "BSP r", "%.0f Mflop/s", num(p, "r_flops") / 1e6);
        ps_html_kv(out, "BSP g", "%.3g flops (%.3g \xc2\xb5s per word)", num(p, "g_flops"), num(p, "g_us"));
        ps_html_kv(out, "BSP l", "%.3g flops (%.3g \xc2\xb5s)", num(p, "l_flops"), num(p, "l_us"));
        ps_html_kv(out, "Best two probe runs agree within 5%", "%s",
                   json_is_true(json_object_get(p, "best_two_agree")) ? "yes" : "no: treat the figures with care");
    } else {
        ps_html_kv(out, "Probe", "not measured");
    }
    if (fp) {
        ps_html_fmt_time(a, sizeof a, num(fp, "time_s"));
        ps_html_kv(out, "Fingerprint", "%s on %lld ranks (busy %.1f%%, overhead %.1f%%, idle %.1f%%)", a,
                   (long long)json_integer_value(json_object_get(fp, "ranks")), num(fp, "busy_pct"),
                   num(fp, "overhead_pct"), num(fp, "idle_pct"));
    }
    if (sc)
        ps_html_kv(out, "Efficiency at the largest P (clue, base)", "%.0f%% at P = %lld",
                   100 * num(sc, "efficiency_base"), (long long)json_integer_value(json_object_get(sc, "largest_ranks")));
    if (pr && json_integer_value(json_object_get(pr, "points")) > 0)
        ps_html_kv(out, "Prediction accuracy (P > 1)", "mean |error| %.1f%%, max %.1f%% over %lld points",
                   100 * num(pr, "mean_abs_error"), 100 * num(pr, "max_abs_error"),
                   (long long)json_integer_value(json_object_get(pr, "points")));
    ps_html_kv_end(out);
    if (pr && json_array_size(json_object_get(pr, "rows"))) {
        ps_html_heading(out, "Predicted against measured");
        ps_html_table_begin(out, 5, "workload", "P", "measured", "predicted", "error");
        size_t i;
        json_t *r;
        json_array_foreach(json_object_get(pr, "rows"), i, r) {
            char x[64], y[64];
            ps_html_fmt_time(x, sizeof x, num(r, "measured_s"));
            ps_html_fmt_time(y, sizeof y, num(r, "predicted_s"));
            ps_html_row_begin(out);
            ps_html_cell(out, 0, "%s", str(r, "workload"));
            ps_html_cell(out, 1, "%lld", (long long)json_integer_value(json_object_get(r, "ranks")));
            ps_html_cell(out, 1, "%s", x);
            ps_html_cell(out, 1, "%s", y);
            ps_html_cell(out, 1, "%+.1f%%", 100 * num(r, "error"));
            ps_html_row_end(out);
        }
        ps_html_table_end(out);
    }
    if (sc && json_array_size(json_object_get(sc, "conclusions"))) {
        ps_html_heading(out, "Scalability conclusions");
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(sc, "conclusions"), i, c) ps_html_note(out, "%s", json_string_value(c));
    }
    json_t *steps = json_object_get(s, "steps");
    ps_html_heading(out, "Steps");
    ps_html_table_begin(out, 4, "step", "status", "seconds", "message");
    size_t i;
    json_t *st;
    json_array_foreach(steps, i, st) {
        ps_html_row_begin(out);
        ps_html_cell(out, 0, "%s", str(st, "step"));
        ps_html_cell(out, 0, "%s", str(st, "status"));
        ps_html_cell(out, 1, "%.1f", num(st, "seconds"));
        const char *msg = json_string_value(json_object_get(st, "message"));
        ps_html_cell(out, 0, "%s", msg ? msg : "");
        ps_html_row_end(out);
    }
    ps_html_table_end(out);
    if (json_is_true(json_object_get(s, "interrupted")))
        ps_html_note(out, "The characterization was interrupted: the steps not run are missing from this report.");
    ps_html_section_end(out);
    return 0;
}
