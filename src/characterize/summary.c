/*
 * summary.c - the characterization's summary (see characterize.h).
 *
 * The main bottleneck is named from figures of the same report, each with its
 * noise (docs/CHARACTERIZE.md "The main bottleneck"):
 *   C  the communication share (overhead + idle) of cg, mmm_s and red_black
 *      at the largest P, their mean; its noise the mean of theirs, each
 *      max(S, 1 - S) u / (1 + u) for a run whose best two trials differ by u
 *      (the most a disturbance of that size moves a share);
 *   L  the clue sweep's efficiency loss 1 - E at its largest P, with the
 *      sweep's own noise (its "efficiency-falls" conclusion);
 *   M  the share of the memory-bandwidth bound the clue kernel reaches
 *      (the sweep's "memory-bandwidth" conclusion).
 * The network is named when communication takes more than half of the time
 * beyond its noise, or accounts for the efficiency loss within the noise
 * (C + nC >= L - nL) while the sweep finds the network limiting; the memory
 * system when the efficiency falls beyond its noise and the kernel runs at
 * the memory-bandwidth bound within the noise (M + nM >= 1: the sweep did not
 * find it below the bound).  When the
 * efficiency does not fall beyond its noise and communication stays small,
 * nothing is named; when it falls but neither explains it, the summary says
 * that no bottleneck stands out beyond the noise.
 */
#include "characterize/characterize.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "report/figure.h"
#include "report/findings.h"
#include "report/html.h"
#include "report/noise.h"
#include "report/result.h"
#include "predict/compare.h"
#include "predict/predict.h"
#include "trace/json.h"
#include "util/util.h"

/* Thresholds of the bottleneck rule (see the top comment). */
#define PS_COMM_SHARE_NETWORK 0.5
/* the kernel at the memory-bandwidth bound: M + nM reaches it, as the sweep's own
 * "memory-bandwidth" conclusion judges (below the bound beyond its noise when 1 - M > nM) */
#define PS_MEMORY_AT_BOUND 1.0

static json_t *load(const char *dir, const char *name)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    if (!ps_file_exists(p)) return NULL;
    return json_load_file(p, 0, NULL);
}

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
    json_object_set_new(o, "latency_s", ps_json_real_or_null(ps_json_num(pp, "latency")));
    json_object_set_new(o, "bandwidth_Bps", ps_json_real_or_null(ps_json_num(pp, "bandwidth")));
    /* the largest message's rate: a shaped or congested link's sustained rate
     * can be far below the best (burst) figure */
    json_t *sizes = json_object_get(pp, "sizes");
    json_t *last = json_array_get(sizes, json_array_size(sizes) ? json_array_size(sizes) - 1 : 0);
    if (last && ps_json_num(last, "min") > 0) {
        json_object_set_new(o, "largest_bytes", ps_json_real_or_null(ps_json_num(last, "bytes")));
        json_object_set_new(o, "bandwidth_largest_Bps",
                            ps_json_real_or_null(ps_json_num(last, "bytes") / ps_json_num(last, "min")));
    }
    json_object_set_new(o, "hockney_t0_s", ps_json_real_or_null(ps_json_num(h, "t0")));
    json_object_set_new(o, "hockney_r_inf_Bps", ps_json_real_or_null(ps_json_num(h, "r_inf")));
    json_object_set_new(o, "n_half_bytes", ps_json_real_or_null(ps_json_num(h, "n_half")));
    json_object_set_new(o, "bsp_p", ps_json_real_or_null(ps_json_num(bsp, "p")));
    json_object_set_new(o, "r_flops", ps_json_real_or_null(ps_json_num(bsp, "r")));
    json_object_set_new(o, "g_flops", ps_json_real_or_null(ps_json_num(bsp, "g")));
    json_object_set_new(o, "l_flops", ps_json_real_or_null(ps_json_num(bsp, "l")));
    json_object_set_new(o, "g_us", ps_json_real_or_null(ps_json_num(bsp, "g_us")));
    json_object_set_new(o, "l_us", ps_json_real_or_null(ps_json_num(bsp, "l_us")));
    /* each figure's uncertainty, as the probe measured it (docs/PROBE.md) */
    static const char *const pp_unc[] = {"latency_uncertainty", "bandwidth_uncertainty"};
    static const char *const bsp_unc[] = {"r_uncertainty", "g_uncertainty", "l_uncertainty"};
    for (int k = 0; k < 2; k++) json_object_set_new(o, pp_unc[k], ps_json_real_or_null(ps_json_num(pp, pp_unc[k])));
    for (int k = 0; k < 3; k++) json_object_set_new(o, bsp_unc[k], ps_json_real_or_null(ps_json_num(bsp, bsp_unc[k])));
    /* false if a figure's best two differ, null if one could not be told (one round) */
    int differ = 0, unknown = 0;
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(pr, "agreement"), i, a) {
        differ |= json_is_false(json_object_get(a, "agree"));
        unknown |= !json_is_boolean(json_object_get(a, "agree"));
    }
    json_object_set_new(o, "best_two_agree", differ ? json_false() : unknown ? json_null() : json_true());
    json_t *w = json_object_get(pr, "warnings");
    json_object_set(o, "warnings", json_is_array(w) ? w : json_array());
    if (json_object_get(pr, "noise")) json_object_set(o, "noise", json_object_get(pr, "noise"));
    json_object_set(o, "g_range", json_object_get(bsp, "g_range"));
    json_object_set(o, "l_range", json_object_get(bsp, "l_range"));
    if (json_object_get(bsp, "fit_note")) json_object_set(o, "bsp_fit_note", json_object_get(bsp, "fit_note"));
    json_object_set_new(s, "probe", o);
    json_t *m = json_object_get(pr, "machine");
    if (json_is_object(m)) json_object_set(s, "machine", m);
    json_decref(pr);
}

/* A count as the document has it, null where it has none (never an invented 0). */
static json_t *integer_or_null(const json_t *v) { return json_is_integer(v) ? json_copy((json_t *)v) : json_null(); }

static void summary_fingerprint(json_t *s, const char *dir)
{
    json_t *fp = load(dir, "fingerprint.json");
    if (!fp) return;
    json_t *sh = json_object_get(fp, "sheet"), *t = json_object_get(fp, "time");
    json_t *o = json_object();
    json_object_set_new(o, "ranks", integer_or_null(json_object_get(json_object_get(fp, "params"), "ranks")));
    json_object_set_new(o, "time_s", ps_json_real_or_null(ps_json_num(t, "min")));
    json_object_set_new(o, "time_uncertainty", ps_json_real_or_null(ps_json_num(t, "uncertainty")));
    json_object_set_new(o, "trials", integer_or_null(json_object_get(t, "trials")));
    json_object_set_new(o, "oversubscribed", json_boolean(json_is_true(json_object_get(fp, "oversubscribed"))));
    if (json_object_get(fp, "noise")) json_object_set(o, "noise", json_object_get(fp, "noise"));
    json_object_set_new(o, "busy_pct", ps_json_real_or_null(ps_json_num(sh, "busy_pct")));
    json_object_set_new(o, "overhead_pct", ps_json_real_or_null(ps_json_num(sh, "overhead_pct")));
    json_object_set_new(o, "idle_pct", ps_json_real_or_null(ps_json_num(sh, "idle_pct")));
    json_object_set_new(o, "messages", ps_json_real_or_null(ps_json_num(sh, "messages_sent")));
    json_object_set_new(s, "fingerprint", o);
    json_decref(fp);
}

/* What the bottleneck rule takes from the sweep: its efficiency loss and
 * the memory bound, each with the sweep's noise. */
typedef struct scale_figs {
    int    network_limited;   /* the sweep's "network-limited" is a finding */
    int    maxp;
    double eff, loss, loss_noise, mem, mem_noise;
} scale_figs;

static void summary_scale(json_t *s, const char *dir, scale_figs *f)
{
    f->network_limited = 0;
    f->maxp = 0;
    f->eff = f->loss = f->loss_noise = f->mem = f->mem_noise = NAN;
    json_t *sc = load(dir, "scale/scale.json");
    if (!sc) return;
    json_t *o = json_object();
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(sc, "points"), i, p) {
        const char *v = json_string_value(json_object_get(p, "variation"));
        int r = (int)json_integer_value(json_object_get(json_object_get(p, "params"), "ranks"));
        if (v && !strcmp(v, "base") && r >= f->maxp && isfinite(ps_json_num(p, "efficiency"))) {
            f->maxp = r;
            f->eff = ps_json_num(p, "efficiency");
        }
    }
    const json_t *cs = json_object_get(sc, "conclusions");
    const json_t *ef = ps_finding_by_id(cs, "efficiency-falls"), *mb = ps_finding_by_id(cs, "memory-bandwidth");
    const json_t *nl = ps_finding_by_id(cs, "network-limited");
    f->network_limited = nl && !strcmp(json_string_value(json_object_get(nl, "verdict")), "finding");
    if (ef) {
        f->loss = ps_json_num(ef, "effect");
        f->loss_noise = ps_json_num(ef, "noise");
    }
    if (mb) {
        f->mem = 1 - ps_json_num(mb, "effect");
        f->mem_noise = ps_json_num(mb, "noise");
    }
    json_object_set_new(o, "largest_ranks", f->maxp ? json_integer(f->maxp) : json_null());
    json_object_set_new(o, "efficiency_base", ps_json_real_or_null(f->eff));
    json_object_set_new(o, "efficiency_noise", ps_json_real_or_null(f->loss_noise));
    json_object_set_new(o, "conclusions", json_is_array(cs) ? json_deep_copy(cs) : json_array());
    json_object_set_new(o, "complete", json_boolean(json_is_true(json_object_get(sc, "complete"))));
    json_object_set_new(o, "oversubscribed", json_boolean(json_is_true(json_object_get(sc, "oversubscribed"))));
    json_t *mn = json_object_get(json_object_get(sc, "noise"), "machine");
    if (mn) json_object_set(o, "noise", mn);
    json_object_set_new(s, "scale", o);
    json_decref(sc);
}

static const char *const predicted[] = {"fingerprint", "cg", "mmm_s", "red_black", NULL};

static void summary_predict(json_t *s, const char *dir, int ranks, double *comm_share, double *comm_noise,
                            int *over)
{
    json_t *rows = json_array();
    double maxabs = 0, sumabs = 0, noise = 0;
    int n = 0, nshare = 0, nloose = 0, nother = 0, nmoved = 0, nslowed = 0, nfaster = 0, ndoubt = 0, nproto = 0,
        nnet = 0, nwire = 0;
    double share = 0;
    const json_t *worst = NULL; /* the row of the largest |error| above P = 1 */
    for (int w = 0; predicted[w]; w++) {
        char pn[256], mn[256];
        snprintf(pn, sizeof pn, "predict/%s.json", predicted[w]);
        snprintf(mn, sizeof mn, "predict/%s.measured.json", predicted[w]);
        json_t *pd = load(dir, pn), *md = load(dir, mn);
        if (md && strcmp(predicted[w], "fingerprint")) {
            /* communication share of the computing workloads at the largest P */
            json_t *pt = point_at(md, ranks);
            json_t *sh = json_object_get(pt, "sheet");
            double o = ps_json_num(sh, "overhead_pct"), i = ps_json_num(sh, "idle_pct");
            int pr = (int)json_integer_value(json_object_get(json_object_get(pt, "params"), "ranks"));
            if (isfinite(o) && isfinite(i) && pr > 1) {
                share += o + i;
                nshare++;
                /* A disturbance d added to a run of time T moves its
                 * communication share S by at most max(S, 1 - S) d / (T + d)
                 * (all of d in one class); d is taken as the second-best
                 * trial's excess, u T.  A share of time-sliced ranks is no
                 * measurement: its noise is the share itself. */
                double S = (o + i) / 100, u = ps_json_num(json_object_get(pt, "time"), "uncertainty");
                double ns = isfinite(u) ? fmax(S, 1 - S) * u / (1 + u) : NAN;
                if (json_is_true(json_object_get(pt, "oversubscribed"))) {
                    *over = 1;
                    ns = S;
                }
                noise += ns;   /* the mean's noise: the mean of the shares' (NAN stays NAN) */
            }
        }
        if (pd && md) {
            char err[256];
            json_t *cmp = ps_compare_results(md, pd, NULL, err, sizeof err);
            size_t i;
            json_t *row;
            json_array_foreach(cmp ? json_object_get(cmp, "rows") : NULL, i, row) {
                double e = ps_json_num(row, "error");
                json_t *r = json_object();
                json_object_set_new(r, "workload", json_string(predicted[w]));
                json_object_set_new(r, "ranks", json_integer(json_integer_value(json_object_get(row, "ranks"))));
                /* the problem size it ran at (the step picks sizes whose runs last milliseconds) */
                double sz = ps_json_num(json_object_get(point_at(md, (int)json_integer_value(
                                                                        json_object_get(row, "ranks"))),
                                                        "params"),
                                        "size");
                json_object_set_new(r, "size", isfinite(sz) ? json_integer((json_int_t)sz) : json_null());
                json_object_set_new(r, "measured_s", ps_json_real_or_null(ps_json_num(row, "measured_s")));
                json_object_set_new(r, "predicted_s", ps_json_real_or_null(ps_json_num(row, "predicted_s")));
                json_object_set_new(r, "error", ps_json_real_or_null(e));
                /* a measured time that is no firm reference: its best two trials disagree,
                 * or other processes kept the machine busy during the fastest (compare.c) */
                int loose = json_is_false(json_object_get(row, "measured_reproducible")) ||
                            json_is_true(json_object_get(row, "measured_disturbed"));
                json_object_set_new(r, "measured_firm", json_boolean(!loose));
                /* the run met the link in another state than the probe (compare.c's latency check) */
                int other = json_is_true(json_object_get(json_object_get(row, "latency_check"), "differs"));
                json_object_set_new(r, "link_state_differs", json_boolean(other));
                /* the machine's speed moved between the calibration and the measured runs (compare.c's speed check) */
                int moved = json_is_true(json_object_get(json_object_get(row, "speed_check"), "differs"));
                json_object_set_new(r, "speed_moved", json_boolean(moved));
                /* computation slower than priced with ranks sharing the node, and a
                 * calibration the prediction itself doubts (compare.c) */
                int slowed = json_is_true(json_object_get(row, "compute_slowed_on_shared_node"));
                json_object_set_new(r, "compute_slowed", json_boolean(slowed));
                json_object_set_new(r, "compute_measured_over_predicted",
                                    ps_json_real_or_null(ps_json_num(row, "compute_measured_over_predicted")));
                /* computation faster than the calibration that priced it (compare.c) */
                int faster = json_is_true(json_object_get(row, "compute_faster_than_priced"));
                json_object_set_new(r, "compute_faster", json_boolean(faster));
                int doubt = json_is_true(json_object_get(row, "calibration_in_doubt"));
                json_object_set_new(r, "calibration_in_doubt", json_boolean(doubt));
                /* messages between the model's S and the receive's protocol step (compare.c) */
                int proto = json_is_true(json_object_get(row, "protocol_in_doubt"));
                json_object_set_new(r, "protocol_in_doubt", json_boolean(proto));
                /* a network the probe was not sure of (either way): the other network's error (compare.c) */
                const json_t *nd = json_object_get(row, "network_in_doubt");
                const json_t *on = json_object_get(nd, "other_network");
                json_object_set_new(r, "other_network", on ? json_incref((json_t *)on) : json_null());
                json_object_set_new(r, "error_if_other", ps_json_real_or_null(ps_json_num(nd, "error_if_other")));
                /* a shaped link where TCP's coalescing of small messages moves the prediction (compare.c) */
                const json_t *wd = json_object_get(row, "wire_in_doubt");
                json_object_set_new(r, "error_if_coalesced",
                                    ps_json_real_or_null(ps_json_num(wd, "error_if_coalesced")));
                json_array_append_new(rows, r);
                /* P = 1 is the calibration run's own case: accuracy is judged above it */
                if (isfinite(e) && json_integer_value(json_object_get(row, "ranks")) > 1) {
                    if (fabs(e) >= maxabs) worst = r;
                    maxabs = fmax(maxabs, fabs(e));
                    sumabs += fabs(e);
                    n++;
                    nloose += loose;
                    nother += other;
                    nmoved += moved;
                    nslowed += slowed;
                    nfaster += faster;
                    ndoubt += doubt;
                    nproto += proto;
                    nnet += nd != NULL;
                    nwire += wd != NULL;
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
    json_object_set_new(o, "points_not_firm", json_integer(nloose));
    json_object_set_new(o, "points_link_state_differs", json_integer(nother));
    json_object_set_new(o, "points_speed_moved", json_integer(nmoved));
    json_object_set_new(o, "points_compute_slowed", json_integer(nslowed));
    json_object_set_new(o, "points_compute_faster", json_integer(nfaster));
    json_object_set_new(o, "points_calibration_in_doubt", json_integer(ndoubt));
    json_object_set_new(o, "points_protocol_in_doubt", json_integer(nproto));
    json_object_set_new(o, "points_network_in_doubt", json_integer(nnet));
    json_object_set_new(o, "points_wire_in_doubt", json_integer(nwire));
    if (worst)
        json_object_set_new(o, "worst", json_pack("{s:O, s:O}", "workload", json_object_get(worst, "workload"),
                                                  "ranks", json_object_get(worst, "ranks")));
    json_object_set_new(s, "prediction", o);
    *comm_share = nshare ? share / nshare / 100 : NAN;
    *comm_noise = nshare ? noise / nshare : NAN;
}

static const char *pm(char *b, size_t n, double v, double e)
{
    if (!isfinite(v)) {
        snprintf(b, n, "not measured");
    } else if (isfinite(e)) {
        /* the rules below call a figure beyond its noise when |v| > e: whole per cent, or the decimals
         * that tell the two apart */
        int d = ps_fig_pct_digits(v, e, 0);
        snprintf(b, n, "%.*f%% +/- %.*f%%", d, 100 * v, d, 100 * e);
    } else {
        snprintf(b, n, "%.0f%% (noise unknown)", 100 * v);
    }
    return b;
}

/* The main bottleneck from C (communication share), L (efficiency loss) and
 * M (share of the memory bound), each with its noise (see the top comment). */
static json_t *bottleneck(double C, double nC, const scale_figs *f, int ranks, int over)
{
    json_t *b = json_object();
    double L = f->loss, nL = f->loss_noise, M = f->mem, nM = f->mem_noise;
    char c1[64], c2[64], c3[64], reason[900];
    pm(c1, sizeof c1, C, nC);
    pm(c2, sizeof c2, L, nL);
    pm(c3, sizeof c3, M, nM);
    int loss_beyond = isfinite(L) && isfinite(nL) && L > nL;
    int comm_large = isfinite(C) && isfinite(nC) && C - nC > PS_COMM_SHARE_NETWORK;
    int comm_covers = isfinite(C) && isfinite(nC) && C > nC && loss_beyond && C + nC >= L - nL;
    int mem_at_bound = isfinite(M) && isfinite(nM) && M + nM >= PS_MEMORY_AT_BOUND;
    const char *name, *verdict = "finding";
    double effect = NAN, noise = NAN;
    if (comm_large || (comm_covers && f->network_limited)) {
        name = "network";
        effect = C;
        noise = nC;
        snprintf(reason, sizeof reason,
                 "cg, mmm_s and red_black spend %s of their time communicating at P = %d%s (efficiency loss %s, "
                 "memory bound reached %s)",
                 c1, ranks,
                 comm_large ? ", more than half beyond the noise"
                            : ", which accounts for the clue sweep's efficiency loss, and the sweep finds the network "
                              "limiting",
                 c2, c3);
    } else if (loss_beyond && mem_at_bound) {
        name = "memory system";
        effect = L;
        noise = nL;
        snprintf(reason, sizeof reason,
                 "the clue sweep loses %s of its efficiency at P = %d while its kernel runs at the memory-bandwidth "
                 "bound within the noise (%s of it): the ranks likely compete for the node's memory bandwidth (the bound "
                 "is one core's copy rate, the node's is not measured; the share of their time cg, mmm_s and "
                 "red_black communicate: %s)",
                 c2, f->maxp, c3, c1);
    } else if (loss_beyond && comm_covers) {
        name = "communication";
        effect = C;
        noise = nC;
        snprintf(reason, sizeof reason,
                 "the clue sweep loses %s of its efficiency at P = %d and communication takes %s of the time of cg, "
                 "mmm_s and red_black, enough to account for it (memory bound reached %s)",
                 c2, f->maxp, c1, c3);
    } else if (loss_beyond) {
        name = "none beyond the noise";
        verdict = "within-noise";
        effect = L;
        noise = nL;
        snprintf(reason, sizeof reason,
                 "the clue sweep loses %s of its efficiency at P = %d, but neither communication (the share of their time "
                 "cg, mmm_s and red_black communicate: %s) nor "
                 "the memory bound (%s of it reached) accounts for that beyond the noise: cannot tell what limits it "
                 "at this noise level%s; run on a quieter machine or with more trials",
                 c2, f->maxp, c1, c3,
                 over ? " (more ranks than cores: the loss is likely time-slicing)" : "");
    } else if (isfinite(C) || isfinite(L)) {
        /* that nothing limits is never a finding: the noise bounds it */
        name = "none";
        verdict = "within-noise";
        effect = isfinite(L) ? L : C;
        noise = isfinite(L) ? nL : nC;
        snprintf(reason, sizeof reason,
                 "no parallel bottleneck stands out beyond the noise up to P = %d: efficiency loss %s, the share of their "
                 "time cg, mmm_s and red_black communicate %s, memory bound reached %s; cannot tell of a smaller one at "
                 "this noise level",
                 ranks, c2, c1, c3);
    } else {
        name = "unknown";
        verdict = "within-noise";
        snprintf(reason, sizeof reason,
                 "not enough was measured to tell (see the steps that failed): cannot tell at this noise level");
    }
    json_object_set_new(b, "name", json_string(name));
    json_object_set_new(b, "reason", json_string(reason));
    json_object_set_new(b, "verdict", json_string(verdict));
    json_object_set_new(b, "effect", ps_json_real_or_null(effect));
    json_object_set_new(b, "noise", ps_json_real_or_null(noise));
    json_t *fig = json_object();
    json_object_set_new(fig, "communication_share", ps_json_real_or_null(C));
    json_object_set_new(fig, "communication_share_noise", ps_json_real_or_null(nC));
    json_object_set_new(fig, "efficiency_loss", ps_json_real_or_null(L));
    json_object_set_new(fig, "efficiency_loss_noise", ps_json_real_or_null(nL));
    json_object_set_new(fig, "memory_bound_fraction", ps_json_real_or_null(M));
    json_object_set_new(fig, "memory_bound_noise", ps_json_real_or_null(nM));
    json_object_set_new(fig, "sweep_network_limited", json_boolean(f->network_limited));
    json_object_set_new(b, "figures", fig);
    json_object_set_new(b, "communication_share_pct", ps_json_real_or_null(100 * C));
    return b;
}

/* The machine's noise as each step measured it, and the worst level. */
static json_t *noise_of_steps(const json_t *s)
{
    json_t *o = json_object(), *steps = json_object();
    static const char *const levels[] = {"quiet", "busy", "very busy"};
    int worst = -1;
    const char *keys[] = {"probe", "fingerprint", "scale"};
    for (int k = 0; k < 3; k++) {
        const json_t *n = json_object_get(json_object_get(s, keys[k]), "noise");
        if (!n) continue;
        json_object_set(steps, keys[k], (json_t *)n);
        const char *l = json_string_value(json_object_get(n, "level"));
        for (int i = 0; i < 3; i++)
            if (l && !strcmp(l, levels[i]) && i > worst) worst = i;
    }
    json_object_set_new(o, "steps", steps);
    json_object_set_new(o, "level", worst >= 0 ? json_string(levels[worst]) : json_null());
    char line[300];
    if (worst >= 0) {
        snprintf(line, sizeof line, "machine noise: %s (the worst the steps measured; each step's figures carry their own)",
                 levels[worst]);
        json_object_set_new(o, "summary", json_string(line));
    }
    return o;
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
    /* a budget overrun beyond a quarter is said: the budget chose the steps' sizes, the machine took longer */
    if (budget > 0 && elapsed > 1.25 * budget)
        json_object_set_new(s, "budget_note",
                            json_sprintf("took %.0f s against a budget of %.0f s: the budget chooses each step's "
                                         "size, and this machine needed longer for them (the steps' seconds are "
                                         "in steps)", elapsed, budget));
    json_object_set_new(s, "interrupted", json_boolean(interrupted));
    json_object_set_new(s, "machine", ps_machine_meta());
    /* a machine busy with other work before we began makes every figure a floor */
    long cores = json_integer_value(json_object_get(json_object_get(s, "machine"), "pus"));
    json_object_set_new(s, "load_average_before", ps_json_real_or_null(load));
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

    double share = NAN, share_noise = NAN;
    int over = 0;
    scale_figs sf;
    summary_probe(s, dir);
    summary_fingerprint(s, dir);
    summary_scale(s, dir, &sf);
    summary_predict(s, dir, ranks, &share, &share_noise, &over);
    over |= json_is_true(json_object_get(json_object_get(s, "fingerprint"), "oversubscribed")) ||
            json_is_true(json_object_get(json_object_get(s, "scale"), "oversubscribed"));
    json_object_set_new(s, "oversubscribed", json_boolean(over));
    json_object_set_new(s, "bottleneck", bottleneck(share, share_noise, &sf, ranks, over));
    json_object_set_new(s, "noise", noise_of_steps(s));
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

/* " +/- 4.1%" from the summary's key, "" when it holds none. */
static const char *unc(char *b, size_t n, const json_t *o, const char *key)
{
    return ps_fig_pm(b, n, ps_json_num(o, key));
}

/* "17.33 GB/s at 4 MiB": the largest message's rate, or "-". */
static const char *largest_rate(char *b, size_t n, const json_t *p)
{
    double bps = ps_json_num(p, "bandwidth_largest_Bps"), bytes = ps_json_num(p, "largest_bytes");
    char r[24], sz[24];
    if (!isfinite(bps) || !isfinite(bytes)) {
        snprintf(b, n, "-");
        return b;
    }
    fmt_bw(r, sizeof r, bps);
    ps_fmt_bytes(sz, sizeof sz, bytes);
    snprintf(b, n, "%s at %s", r, sz);
    return b;
}

/* "85.6 flops +/- 79% (0.0166 us)": g or l (fig) in flops with its uncertainty
 * and in microseconds (spelled us), or "-" where the h-relation fit gave none. */
static const char *bsp_cost(char *b, size_t n, const json_t *p, const char *fig, const char *us)
{
    char key[32], flops[32], u[24], t[32];
    snprintf(key, sizeof key, "%s_flops", fig);
    double v = ps_json_num(p, key);
    if (!isfinite(v)) return ps_fig(b, n, "%.3g", v);
    ps_fig(flops, sizeof flops, "%.3g flops", v);
    snprintf(key, sizeof key, "%s_uncertainty", fig);
    unc(u, sizeof u, p, key);
    snprintf(key, sizeof key, "%s_us", fig);
    snprintf(b, n, "%s%s (%s %s)", flops, u, ps_fig(t, sizeof t, "%.3g", ps_json_num(p, key)), us);
    return b;
}

/* Whether the probe's best two rounds agreed: for the terminal (a bracket
 * after the BSP line, nothing when they agree) or the page's table. */
static const char *best_two_words(const json_t *p, int terminal)
{
    const json_t *a = json_object_get(p, "best_two_agree");
    if (json_is_true(a)) return terminal ? "" : "yes";
    if (json_is_false(a)) return terminal ? "  [best two runs disagree]" : "no: treat the figures with care";
    return terminal ? "  [one round only: agreement unknown]" : "unknown: fewer than two rounds gave a value";
}

/* "r = 4619 Mflop/s +/- 22%" */
static const char *bsp_rate(char *b, size_t n, const json_t *p)
{
    char r[32], u[24];
    snprintf(b, n, "%s%s", ps_fig(r, sizeof r, "%.0f Mflop/s", ps_json_num(p, "r_flops") / 1e6),
             unc(u, sizeof u, p, "r_uncertainty"));
    return b;
}

/* "busy 65.6%, overhead 23.2%, idle 11.2%" of a summary's fingerprint. */
static const char *shares(char *b, size_t n, const json_t *fp)
{
    char x[16], y[16], z[16];
    snprintf(b, n, "busy %s, overhead %s, idle %s", ps_fig(x, sizeof x, "%.1f%%", ps_json_num(fp, "busy_pct")),
             ps_fig(y, sizeof y, "%.1f%%", ps_json_num(fp, "overhead_pct")),
             ps_fig(z, sizeof z, "%.1f%%", ps_json_num(fp, "idle_pct")));
    return b;
}

/* "; 1 of them against a measured time that is no firm reference (...)" when
 * some points' measured times are not reproducible or were taken under load. */
/* What stands against the accuracy figure: each kind of point whose error
 * is not the model's alone, with how many of the points it concerns. */
static const char *not_firm(char *b, size_t n, const json_t *pr)
{
    long long k = (long long)json_integer_value(json_object_get(pr, "points_not_firm"));
    long long o = (long long)json_integer_value(json_object_get(pr, "points_link_state_differs"));
    long long m = (long long)json_integer_value(json_object_get(pr, "points_speed_moved"));
    long long c = (long long)json_integer_value(json_object_get(pr, "points_compute_slowed"));
    long long f = (long long)json_integer_value(json_object_get(pr, "points_compute_faster"));
    long long d = (long long)json_integer_value(json_object_get(pr, "points_calibration_in_doubt"));
    size_t w = 0;
    b[0] = '\0';
    if (k > 0)
        ps_bufadd(b, n, &w, "; %lld of them against a measured time that is no firm reference (not reproducible, or "
                         "taken while other processes kept the machine busy)", k);
    if (o > 0)
        ps_bufadd(b, n, &w, "; %lld of them measured while the link was in another state than the probe saw (the "
                         "8-byte half round trip %g times the model's, or 1/%g of it, or a change beyond the probe's "
                         "own spread that the point's predicted communication would turn into %.0f%% of its time or "
                         "more)", o, PS_COMPARE_LATENCY, PS_COMPARE_LATENCY, 100 * PS_COMPARE_LATENCY_EFFECT);
    if (m > 0)
        ps_bufadd(b, n, &w, "; %lld of them measured while the machine's speed moved (the calibration run, repeated "
                         "after the measured runs, took %g times its seconds per flop or more, or 1/%g of them or "
                         "less)", m, PS_COMPARE_SPEED, PS_COMPARE_SPEED);
    if (c > 0)
        ps_bufadd(b, n, &w, "; in %lld of them the computation took %g times its priced time or more with ranks "
                         "sharing a node (caches, memory bandwidth or the host's processors shared: a slowdown the "
                         "1-rank price cannot see)", c, 1 + PS_COMPARE_SHARED);
    if (f > 0)
        ps_bufadd(b, n, &w, "; in %lld of them the computation took 1/%g of its priced time or less (faster than the "
                         "calibration that priced it: the machine ran faster than during the calibration, or the "
                         "ranks computed at the same time less than the calibration's copies)", f, 1 + PS_COMPARE_SHARED);
    if (d > 0)
        ps_bufadd(b, n, &w, "; %lld of them priced by a calibration the prediction itself doubts", d);
    long long q = (long long)json_integer_value(json_object_get(pr, "points_protocol_in_doubt"));
    if (q > 0)
        ps_bufadd(b, n, &w, "; %lld of them with messages above the model's S but below the receive's protocol step, "
                         "whose protocol the model inferred from the receive's cost alone (data eager, each send complete once its "
                         "receiver's runtime took the message in)", q);
    long long nb = (long long)json_integer_value(json_object_get(pr, "points_network_in_doubt"));
    if (nb > 0)
        ps_bufadd(b, n, &w, "; %lld of them on a link whose exchange the probe found neither clearly serial nor "
                         "clearly free (the report's rows give the error under the other network too)", nb);
    long long nw = (long long)json_integer_value(json_object_get(pr, "points_wire_in_doubt"));
    if (nw > 0)
        ps_bufadd(b, n, &w, "; %lld of them on a shaped link where the prediction moves by more than %.0f%% if TCP "
                         "coalesces the small messages (the report's rows give the error with every message coalesced "
                         "too)", nw, 100 * PS_PREDICT_WIRE_DOUBT);
    return b;
}

/* " (mmm_s at P = 2)": where the largest error was. */
static const char *worst_point(char *b, size_t n, const json_t *pr)
{
    const json_t *w = json_object_get(pr, "worst");
    b[0] = '\0';
    if (json_is_string(json_object_get(w, "workload")))
        snprintf(b, n, " (%s at P = %lld)", json_string_value(json_object_get(w, "workload")),
                 (long long)json_integer_value(json_object_get(w, "ranks")));
    return b;
}

void ps_characterize_print(const json_t *s, FILE *f)
{
    const json_t *m = json_object_get(s, "machine"), *p = json_object_get(s, "probe");
    const json_t *fp = json_object_get(s, "fingerprint"), *sc = json_object_get(s, "scale");
    const json_t *pr = json_object_get(s, "prediction"), *b = json_object_get(s, "bottleneck");
    char a[64], c[64], nf[2048], wp[96];
    fprintf(f, "Machine: %s (%s, %s cores), %s\n", str(m, "host"), str(m, "cpu"),
            ps_fig(c, sizeof c, "%.0f", ps_json_num(m, "cores")), str(m, "mpi"));
    const char *nl = json_string_value(json_object_get(json_object_get(s, "noise"), "summary"));
    if (nl) fprintf(f, "  %s\n", nl);
    if (json_is_true(json_object_get(s, "oversubscribed")))
        fprintf(f, "  WARNING: more ranks than cores in some steps: their times include time-slicing and their busy / "
                   "idle figures are marked\n");
    if (p) {
        char d[64], n1[32], u1[24], u2[24], r[64], g[96], l[96];
        fmt_t(a, sizeof a, ps_json_num(p, "latency_s"));
        fmt_bw(c, sizeof c, ps_json_num(p, "bandwidth_Bps"));
        fprintf(f, "  ping-pong: latency %s%s, bandwidth %s%s best, %s; n1/2 = %s\n", a,
                unc(u1, sizeof u1, p, "latency_uncertainty"), c, unc(u2, sizeof u2, p, "bandwidth_uncertainty"),
                largest_rate(d, sizeof d, p), ps_fig(n1, sizeof n1, "%.0f bytes", ps_json_num(p, "n_half_bytes")));
        const char *fit = json_string_value(json_object_get(p, "bsp_fit_note"));
        fprintf(f, "  BSP (p = %s): r = %s, g = %s, l = %s%s%s%s\n", ps_fig(a, sizeof a, "%.0f", ps_json_num(p, "bsp_p")),
                bsp_rate(r, sizeof r, p), bsp_cost(g, sizeof g, p, "g", "us"), bsp_cost(l, sizeof l, p, "l", "us"),
                fit ? "; the h-relation fit failed: " : "", fit ? fit : "",
                best_two_words(p, 1));
    } else {
        fprintf(f, "  probe: not measured\n");
    }
    if (fp) {
        char u[24], sh[96];
        fmt_t(a, sizeof a, ps_json_num(fp, "time_s"));
        fprintf(f, "  fingerprint on %s ranks: %s%s; %s\n", ps_fig(c, sizeof c, "%.0f", ps_json_num(fp, "ranks")), a,
                unc(u, sizeof u, fp, "time_uncertainty"), shares(sh, sizeof sh, fp));
    }
    if (sc)
        fprintf(f, "  clue sweep: efficiency %s at P = %s (base variation)\n",
                pm(a, sizeof a, ps_json_num(sc, "efficiency_base"), ps_json_num(sc, "efficiency_noise")),
                ps_fig(c, sizeof c, "%.0f", ps_json_num(sc, "largest_ranks")));
    if (pr && json_integer_value(json_object_get(pr, "points")) > 0)
        fprintf(f, "  predictions (P > 1): mean |error| %.1f%%, max %.1f%%%s over %lld points%s\n",
                100 * ps_json_num(pr, "mean_abs_error"), 100 * ps_json_num(pr, "max_abs_error"),
                worst_point(wp, sizeof wp, pr), (long long)json_integer_value(json_object_get(pr, "points")),
                not_firm(nf, sizeof nf, pr));
    fprintf(f, "  main bottleneck [%s]: %s: %s\n", str(b, "verdict"), str(b, "name"), str(b, "reason"));
    const char *warn = json_string_value(json_object_get(s, "warning"));
    if (warn) fprintf(f, "  warning: %s\n", warn);
    const char *bn = json_string_value(json_object_get(s, "budget_note"));
    if (bn) fprintf(f, "  budget: %s\n", bn);
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
    char a[64], nf[2048], wp[96];
    ps_html_section_begin(out, "characterization", "Characterization");
    ps_noise_html(out, json_object_get(s, "noise"));
    if (json_is_true(json_object_get(s, "oversubscribed")))
        ps_html_note(out, "More ranks than cores in some steps: their times include time-slicing and their busy / idle "
                          "figures are marked.");
    ps_html_note(out, "Main bottleneck [%s]: %s. %s.", str(b, "verdict"), str(b, "name"), str(b, "reason"));
    const char *warn = json_string_value(json_object_get(s, "warning"));
    if (warn) ps_html_note(out, "Warning: %s.", warn);
    const char *bn = json_string_value(json_object_get(s, "budget_note"));
    if (bn) ps_html_note(out, "Budget: %s.", bn);
    ps_html_kv_begin(out);
    ps_html_kv(out, "Machine", "%s (%s, %s cores, %s)", str(m, "host"), str(m, "cpu"),
               ps_fig(a, sizeof a, "%.0f", ps_json_num(m, "cores")), str(m, "mpi"));
    if (p) {
        char u[24], v[96];
        ps_html_fmt_time(a, sizeof a, ps_json_num(p, "latency_s"));
        ps_html_kv(out, "Latency (ping-pong, half round trip)", "%s%s", a, unc(u, sizeof u, p, "latency_uncertainty"));
        fmt_bw(a, sizeof a, ps_json_num(p, "bandwidth_Bps"));
        ps_html_kv(out, "Bandwidth (ping-pong, best)", "%s%s", a, unc(u, sizeof u, p, "bandwidth_uncertainty"));
        ps_html_kv(out, "Bandwidth at the largest message", "%s", largest_rate(a, sizeof a, p));
        ps_html_kv(out, "BSP r", "%s", bsp_rate(a, sizeof a, p));
        ps_html_kv(out, "BSP g", "%s", bsp_cost(v, sizeof v, p, "g", "\xc2\xb5s per word"));
        ps_html_kv(out, "BSP l", "%s", bsp_cost(v, sizeof v, p, "l", "\xc2\xb5s"));
        const char *fit = json_string_value(json_object_get(p, "bsp_fit_note"));
        if (fit) ps_html_kv(out, "BSP h-relation fit", "failed: %s; no g and l", fit);
        ps_html_kv(out, "Best two probe runs agree within 5%", "%s", best_two_words(p, 0));
    } else {
        ps_html_kv(out, "Probe", "not measured");
    }
    if (fp) {
        char u[24], sh[96], n[16];
        ps_html_fmt_time(a, sizeof a, ps_json_num(fp, "time_s"));
        ps_html_kv(out, "Fingerprint", "%s%s on %s ranks (%s)", a, unc(u, sizeof u, fp, "time_uncertainty"),
                   ps_fig(n, sizeof n, "%.0f", ps_json_num(fp, "ranks")), shares(sh, sizeof sh, fp));
    }
    if (sc) {
        char n[16];
        ps_html_kv(out, "Efficiency at the largest P (clue, base)", "%s at P = %s",
                   pm(a, sizeof a, ps_json_num(sc, "efficiency_base"), ps_json_num(sc, "efficiency_noise")),
                   ps_fig(n, sizeof n, "%.0f", ps_json_num(sc, "largest_ranks")));
    }
    if (pr && json_integer_value(json_object_get(pr, "points")) > 0)
        ps_html_kv(out, "Prediction accuracy (P > 1)", "mean |error| %.1f%%, max %.1f%%%s over %lld points%s",
                   100 * ps_json_num(pr, "mean_abs_error"), 100 * ps_json_num(pr, "max_abs_error"),
                   worst_point(wp, sizeof wp, pr), (long long)json_integer_value(json_object_get(pr, "points")),
                   not_firm(nf, sizeof nf, pr));
    ps_html_kv_end(out);
    if (pr && json_array_size(json_object_get(pr, "rows"))) {
        ps_html_heading(out, "Predicted against measured");
        ps_html_table_begin(out, 6, "workload", "size", "P", "measured", "predicted", "error");
        size_t i;
        json_t *r;
        json_array_foreach(json_object_get(pr, "rows"), i, r) {
            char x[64], y[64], e[32], sz[32];
            ps_html_fmt_time(x, sizeof x, ps_json_num(r, "measured_s"));
            ps_html_fmt_time(y, sizeof y, ps_json_num(r, "predicted_s"));
            ps_html_row_begin(out);
            ps_html_cell(out, 0, "%s", str(r, "workload"));
            ps_html_cell(out, 1, "%s", ps_fig(sz, sizeof sz, "%.0f", ps_json_num(r, "size")));
            ps_html_cell(out, 1, "%lld", (long long)json_integer_value(json_object_get(r, "ranks")));
            ps_html_cell(out, 1, "%s", x);
            ps_html_cell(out, 1, "%s", y);
            char slow[96] = "";
            if (json_is_true(json_object_get(r, "compute_slowed")))
                snprintf(slow, sizeof slow, " (computation %.2f times its price, ranks sharing a node)",
                         ps_json_num(r, "compute_measured_over_predicted"));
            else if (json_is_true(json_object_get(r, "compute_faster")))
                snprintf(slow, sizeof slow, " (computation %.2f times its price)",
                         ps_json_num(r, "compute_measured_over_predicted"));
            char nobus[64] = "";
            const char *other = json_string_value(json_object_get(r, "other_network"));
            if (other && isfinite(ps_json_num(r, "error_if_other")))
                snprintf(nobus, sizeof nobus, " (%s: %+.1f%%)", strcmp(other, "bus") ? "side by side" : "one at a time",
                         100 * ps_json_num(r, "error_if_other"));
            char coal[48] = "";
            if (isfinite(ps_json_num(r, "error_if_coalesced")))
                snprintf(coal, sizeof coal, " (coalesced: %+.1f%%)", 100 * ps_json_num(r, "error_if_coalesced"));
            ps_html_cell(out, 1, "%s%s%s%s%s%s%s%s%s", ps_fig(e, sizeof e, "%+.1f%%", 100 * ps_json_num(r, "error")),
                         json_is_false(json_object_get(r, "measured_firm")) ? " (measured time not firm)" : "",
                         json_is_true(json_object_get(r, "speed_moved")) ? " (the machine's speed moved)" : "",
                         json_is_true(json_object_get(r, "link_state_differs")) ? " (the link in another state)" : "",
                         slow,
                         json_is_true(json_object_get(r, "calibration_in_doubt")) ? " (calibration in doubt)" : "",
                         json_is_true(json_object_get(r, "protocol_in_doubt")) ? " (protocol in doubt)" : "",
                         nobus, coal);
            ps_html_row_end(out);
        }
        ps_html_table_end(out);
    }
    if (sc && json_array_size(json_object_get(sc, "conclusions"))) {
        ps_html_heading(out, "Scalability conclusions");
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(sc, "conclusions"), i, c) {
            /* records {id, text, verdict, ...}; older summaries kept strings */
            if (json_is_string(c)) ps_html_note(out, "%s", json_string_value(c));
            else ps_html_note(out, "[%s] %s", str(c, "verdict"), str(c, "text"));
        }
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
        ps_html_cell_fig(out, "%.1f", ps_json_num(st, "seconds"));
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
