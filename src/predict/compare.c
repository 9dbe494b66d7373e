/*
 * compare.c - relative error of a prediction against a measurement.
 *
 * Per processor count: the execution time (time.min of each document: the
 * best trial, as the runs use it) and the three activities of the result
 * sheet (busy / overhead / idle, as seconds per rank: pct x time), and, when
 * both documents carry it, the simulator's breakdown.  error = (predicted -
 * measured) / measured.
 */
#include "predict/compare.h"
#include "predict/predict_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/breakdown.h"
#include "trace/json.h"
#include "trace/trace.h"
#include "util/stats.h"
#include "util/util.h"

/* The best two measured trials must agree within this (seed 004, as probe's rounds and
 * scale's trials) for the measured time to be a reproducible reference. */
#define PS_COMPARE_AGREE 0.05
/* Other processes using more than this share of the machine during the
 * fastest measured trial make it no firm reference (scale's conclusions
 * name them from 5%; at 10% of a 2-core machine a fifth of a core is gone). */
#define PS_COMPARE_BUSY 0.10

double ps_result_doc_time(const json_t *doc)
{
    json_t *t = json_object_get(doc, "time");
    double v = ps_json_num(t, "min");
    return isnan(v) ? ps_json_num(t, "median") : v;
}

int ps__doc_ranks(json_t *doc)
{
    json_t *p = json_object_get(doc, "params");
    json_t *r = p ? json_object_get(p, "ranks") : NULL;
    return r && json_is_integer(r) ? (int)json_integer_value(r) : -1;
}

int ps__doubt_on_bus(const json_t *network_doubt)
{
    const char *net = json_string_value(json_object_get(network_doubt, "network"));
    return !net || strcmp(net, "nobus") != 0;
}

/* The documents of a result: its points, or itself. */
json_t *ps__result_points(json_t *doc)
{
    json_t *pts = json_object_get(doc, "points");
    if (json_is_array(pts)) return json_incref(pts);
    json_t *a = json_array();
    json_array_append(a, doc);
    return a;
}

json_t *ps__find_ranks(json_t *pts, int p)
{
    size_t i;
    json_t *d;
    json_array_foreach(pts, i, d) if (ps__doc_ranks(d) == p) return d;
    return NULL;
}

static double pct_seconds(json_t *doc, const char *key)
{
    return ps_json_num(json_object_get(doc, "sheet"), key) / 100.0 * ps_result_doc_time(doc);
}

static double rel(double pred, double meas) { return meas > 0 ? (pred - meas) / meas : NAN; }

/* A figure of the table, "-" where there is none (never "nan"). */
static void fmt_num(char *b, size_t n, double v)
{
    if (isfinite(v)) snprintf(b, n, "%.6g", v);
    else snprintf(b, n, "-");
}

static void fmt_err(char *b, size_t n, double e)
{
    if (isfinite(e)) snprintf(b, n, "%+.1f%%", 100 * e);
    else snprintf(b, n, "-");
}

/* A document's time by activity and construct: its "activities", or
 * computed from the trace file it names. */
static json_t *activities_of(json_t *doc)
{
    json_t *a = json_object_get(doc, "activities");
    if (json_is_object(a)) return json_incref(a);
    const char *path = json_string_value(json_object_get(doc, "trace"));
    ps_trace *t;
    char err[512];
    if (!path || ps_trace_read(path, &t, err, sizeof err) != 0) return NULL;
    a = ps_breakdown_json(t);
    ps_trace_free(t);
    return json_is_object(a) ? a : (json_decref(a), NULL);
}

typedef struct source {
    const char *construct; /* NULL: all (the "other" activity) */
    int         act;
    double      meas, pred;
} source;

static int by_size(const void *a, const void *b)
{
    const source *x = a, *y = b;
    double dx = fabs(x->pred - x->meas), dy = fabs(y->pred - y->meas);
    return dx < dy ? 1 : dx > dy ? -1 : 0;
}

/* An activity the breakdown does not list took no time: 0, not unknown. */
static double act_of(const json_t *o, int k)
{
    double v = ps_json_num(o, ps_activity_names[k]);
    return isnan(v) ? 0 : v;
}

/* The predicted side's own uncertainty: a count priced by a calibration run
 * carries that run's (the best two trials' gap, calibration.uncertainty) on
 * its computation, the prediction's work over its time; NAN without one. */
static double predicted_noise(const json_t *pd, double *u_cal, double *share)
{
    double u = ps_json_num(json_object_get(pd, "calibration"), "uncertainty");
    double w = ps_json_num(json_object_get(pd, "breakdown"), "work"), t = ps_result_doc_time(pd);
    *u_cal = u;
    *share = t > 0 && w >= 0 ? fmin(1, w / t) : NAN;
    return u >= 0 && isfinite(*share) ? u * *share : NAN;
}

/* The measured side's own uncertainty, from its trials (time.samples): the
 * best two's gap and the spread of all; and the predicted side's
 * (predicted_noise).  Printed under the row, with what they mean for the
 * error: within their sum, the two cannot be told apart. */
static void measured_noise(json_t *doc, const json_t *pd, double err, json_t *row, FILE *out)
{
    json_t *s = json_object_get(json_object_get(doc, "time"), "samples");
    size_t n = json_array_size(s);
    double *v = ps_xcalloc(n ? n : 1, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(s, i);
        v[i] = json_is_number(x) ? json_number_value(x) : NAN;
    }
    ps_sample_stats st;
    ps_sample_stats_of(v, (int)n, &st);
    /* how busy other processes kept the machine during the fastest trial (run's
     * time.others_busy_pct, one per trial as the samples) */
    json_t *ob = json_object_get(json_object_get(doc, "time"), "others_busy_pct");
    double others = NAN, best = INFINITY;
    if (json_array_size(ob) == n)
        for (size_t i = 0; i < n; i++)
            if (isfinite(v[i]) && v[i] < best) {
                json_t *o = json_array_get(ob, i);
                best = v[i];
                others = json_is_number(o) ? json_number_value(o) / 100 : NAN;
            }
    free(v);
    double unc = ps_stat_uncertainty(&st, PS_STAT_MIN), spread = ps_stat_spread(&st);
    double u_cal, share, punc = predicted_noise(pd, &u_cal, &share);
    double both = isfinite(unc) ? unc + (isfinite(punc) ? punc : 0) : NAN;
    int within = isfinite(both) && isfinite(err) && fabs(err) <= both;
    json_object_set_new(row, "predicted_uncertainty", ps_json_real_or_null(punc));
    int disturbed = isfinite(others) && others > PS_COMPARE_BUSY;
    json_object_set_new(row, "measured_others_busy_pct", ps_json_real_or_null(100 * others));
    json_object_set_new(row, "measured_disturbed", json_boolean(disturbed));
    json_object_set_new(row, "measured_trials", json_integer(st.n));
    json_object_set_new(row, "measured_uncertainty", ps_json_real_or_null(unc));
    json_object_set_new(row, "measured_spread", ps_json_real_or_null(spread));
    json_object_set_new(row, "measured_reproducible", isfinite(unc) ? json_boolean(unc <= PS_COMPARE_AGREE) : json_null());
    json_object_set_new(row, "within_uncertainty", json_boolean(within));
    if (!out) return;
    if (!isfinite(unc))
        fprintf(out, "        measured: %d successful trial(s), too few to tell how reproducible the time is\n", st.n);
    else
        fprintf(out, "        measured: %d trials, the best two %.1f%% apart, all within %.0f%%%s\n", st.n, 100 * unc,
                100 * spread,
                unc > PS_COMPARE_AGREE ? ": not reproducible (the best two differ by more than 5%), so the error "
                                         "is uncertain by about as much; take more trials (-k) on a quieter machine"
                                       : "");
    if (isfinite(punc) && u_cal > PS_COMPARE_AGREE)
        fprintf(out, "        predicted: priced by a calibration whose best two trials are %.1f%% apart, on the "
                     "computation, %.0f%% of the predicted time: uncertain by about %.1f%%\n",
                100 * u_cal, 100 * share, 100 * punc);
    if (within && isfinite(punc) && punc > 0)
        fprintf(out, "        the error (%+.1f%%) is within the measured time's and the prediction's uncertainties "
                     "(%.1f%% + %.1f%%): prediction and measurement cannot be told apart\n",
                100 * err, 100 * unc, 100 * punc);
    else if (within)
        fprintf(out, "        the error (%+.1f%%) is within the measured time's own uncertainty (%.1f%%): prediction "
                     "and measurement cannot be told apart\n",
                100 * err, 100 * unc);
    if (disturbed)
        fprintf(out, "        other processes used %.0f%% of the machine during the fastest trial: part of the "
                     "error may be the load's, not the model's; measure on a quieter machine\n",
                100 * others);
}

/* The model has little time between calls, a run's trace has more: the
 * instrumentation's work around each call (outside the span it records) and
 * the program's own code outside calls and computation.  A probed model's
 * call costs are timed around the calls, so they carry the instrumentation's
 * part: its sends and receives come out long and "other" short by about as
 * much (alter on one VM: send +503 us, receive +405 us, other -421 us per
 * rank); its time between calls is each construct call's own code
 * (o_construct), where the probe measured it.  Sends, receives and the time
 * between calls taken together say what the model gets wrong in communication
 * overhead; said when a run spent 2% of its time or more between calls and
 * the model, which has calls, less than half of that. */
static void calls_and_between(json_t *ma, json_t *pa, double tm, FILE *out)
{
    json_t *mt = json_object_get(ma, "total"), *pt = json_object_get(pa, "total");
    double mo = act_of(mt, PS_ACT_OTHER), po = act_of(pt, PS_ACT_OTHER);
    double pc = act_of(pt, PS_ACT_SEND) + act_of(pt, PS_ACT_RECV);
    if (!out || po >= 0.5 * mo || !(pc > 0) || !(mo > 0.02 * tm)) return;
    double m = act_of(mt, PS_ACT_SEND) + act_of(mt, PS_ACT_RECV) + mo, p = pc + po;
    char a[32], b[32], c[32];
    ps_fmt_time(a, sizeof a, m);
    ps_fmt_time(b, sizeof b, p);
    ps_fmt_time(c, sizeof c, fabs(p - m));
    fprintf(out, "          the model has %s between calls (a probed model's call costs are timed around the "
                 "calls and carry the instrumentation's part of it): send, recv and other together were measured "
                 "%s, predicted %s (%s%s)\n",
            po > 0 ? "only each construct call's own code" : "no time", a, b, p < m ? "-" : "+", c);
}

/* Where the error comes from: per activity and construct, predicted minus
 * measured seconds per rank, largest first, each as a share of the
 * difference of the average rank's time.  Prints the leading ones. */
static json_t *error_sources(json_t *ma, json_t *pa, FILE *out)
{
    json_t *mc = json_object_get(ma, "constructs"), *pc = json_object_get(pa, "constructs");
    size_t cap = 8 + PS_ACT__COUNT * (json_object_size(mc) + json_object_size(pc));
    source *v = ps_xcalloc(cap, sizeof *v);
    size_t n = 0;
    const char *name;
    json_t *x;
    double tm = 0, tp = 0;
    for (int k = 0; k < PS_ACT__COUNT; k++) {
        tm += act_of(json_object_get(ma, "total"), k);
        tp += act_of(json_object_get(pa, "total"), k);
    }
    /* constructs of either side */
    for (int side = 0; side < 2; side++) {
        json_object_foreach(side ? pc : mc, name, x) {
            if (side && json_object_get(mc, name)) continue;
            for (int k = 0; k < PS_ACT_OTHER; k++) {
                source s = {name, k, act_of(json_object_get(mc, name), k), act_of(json_object_get(pc, name), k)};
                if (s.meas != 0 || s.pred != 0) v[n++] = s;
            }
        }
    }
    v[n++] = (source){NULL, PS_ACT_OTHER, act_of(json_object_get(ma, "total"), PS_ACT_OTHER),
                      act_of(json_object_get(pa, "total"), PS_ACT_OTHER)};
    qsort(v, n, sizeof *v, by_size);
    double diff = tp - tm;
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "activity", json_string(ps_activity_names[v[i].act]));
        json_object_set_new(o, "construct", v[i].construct ? json_string(v[i].construct) : json_null());
        json_object_set_new(o, "measured_s", json_real(v[i].meas));
        json_object_set_new(o, "predicted_s", json_real(v[i].pred));
        json_object_set_new(o, "difference_s", json_real(v[i].pred - v[i].meas));
        json_object_set_new(o, "share", diff != 0 ? json_real((v[i].pred - v[i].meas) / diff) : json_null());
        json_array_append_new(arr, o);
    }
    if (out) {
        char a[32], b[32], c[32];
        ps_fmt_time(a, sizeof a, tm);
        ps_fmt_time(b, sizeof b, tp);
        ps_fmt_time(c, sizeof c, fabs(diff));
        fprintf(out, "        where the error comes from (per rank: measured %s, predicted %s, %s%s):\n", a, b,
                diff < 0 ? "-" : "+", c);
        for (size_t i = 0; i < n && i < 5; i++) {
            double d = v[i].pred - v[i].meas;
            if (fabs(d) < 0.02 * fabs(diff) && i > 0) break;
            ps_fmt_time(a, sizeof a, fabs(d));
            ps_fmt_time(b, sizeof b, v[i].meas);
            ps_fmt_time(c, sizeof c, v[i].pred);
            char who[160];
            if (v[i].construct) snprintf(who, sizeof who, "%s in %s", ps_activity_names[v[i].act], v[i].construct);
            else snprintf(who, sizeof who, "%s (between calls)", ps_activity_names[v[i].act]);
            char share[32] = "";
            /* a share of a total that nearly cancels says nothing (-3554% of 7 us) */
            if (fabs(diff) >= 0.05 * tm && diff != 0) snprintf(share, sizeof share, " (%.0f%% of it)", 100 * d / diff);
            fprintf(out, "          %-36s %s%s%s   measured %s, predicted %s\n", who, d < 0 ? "-" : "+", a, share, b, c);
        }
    }
    free(v);
    calls_and_between(ma, pa, tm, out);
    return arr;
}

/* Start-up costs: what the first message call of each kind (construct,
 * call, size, partner) took beyond its kind's median, per rank (the
 * breakdown's first_calls), in the run and in the prediction.  The model
 * prices a call the same every time; a run's first ones also pay for
 * buffers first touched and the MPI library's first message of a size.
 * Where the run's exceed the prediction's by PS_COMPARE_FIRST of the
 * measured time, the row says so with the error without them on both
 * sides. */
static void first_calls(json_t *ma, json_t *pa, double tm, double tp, json_t *row, FILE *out)
{
    double em = ps_json_num(json_object_get(ma, "first_calls"), "excess");
    double ep = ps_json_num(json_object_get(pa, "first_calls"), "excess");
    if (!isfinite(em) || !isfinite(ep) || !(tm > em)) return;
    double without = rel(tp - ep, tm - em);
    json_object_set_new(row, "first_calls", json_pack("{s:f, s:f, s:o}", "measured_s", em, "predicted_s", ep,
                                                      "error_without", ps_json_real_or_null(without)));
    if (!out || !(em - ep > PS_COMPARE_FIRST * tm)) return;
    char a[32], b[32];
    ps_fmt_time(a, sizeof a, em);
    ps_fmt_time(b, sizeof b, ep);
    fprintf(out,
            "        first calls: the first message call of each kind (construct, call, size, partner) took %s per "
            "rank beyond its kind's median in the run (%.0f%% of the measured time), %s in the prediction: start-up "
            "costs (buffers first touched, the MPI library's first message of a size) the model does not have; "
            "without them on both sides the error is about %+.1f%%\n",
            a, 100 * em / tm, b, 100 * without);
}

/* Computation off its price.  Prices come from a 1-rank run (or the
 * model's rates), with the node's other processors idle, or (predict
 * --calibrate with the node busy) beside copies of itself.
 * - Slower, with ranks sharing a node: ranks that compute at once share
 *   caches, memory bandwidth and, in a VM, the host's processors.
 * - Slower or faster, priced from the model's rates (no calibration): the
 *   probe's DAXPY, not the program's kernels (red_black at P = 1 took 4.6
 *   times its price here, clue's sweep 0.12 times): --calibrate prices them.
 * - Slower, one rank a node, priced by a calibration: the machine's speed
 *   moved between the calibration and the runs.
 * - Faster than a calibration: the machine's speed, the ranks' pattern, or a
 *   rank's share of the data in a cache the calibration's did not fit.
 * The row says which, with the measured factor. */
static void compute_state(json_t *md, json_t *pd, json_t *ma, json_t *pa, json_t *row, FILE *out)
{
    const json_t *cal = json_object_get(pd, "calibration");
    int busy = ps_json_num(cal, "ranks") > 1;
    double cm = act_of(json_object_get(ma, "total"), PS_ACT_COMPUTE);
    double cp = act_of(json_object_get(pa, "total"), PS_ACT_COMPUTE);
    double ratio = cm > 0 && cp > 0 ? cm / cp : NAN;
    json_int_t per = json_integer_value(json_object_get(json_object_get(md, "placement"), "ranks_per_node"));
    int slower = isfinite(ratio) && ratio > 1 + PS_COMPARE_SHARED;
    int faster = isfinite(ratio) && ratio < 1 / (1 + PS_COMPARE_SHARED);
    int slowed = per > 1 && slower;
    json_object_set_new(row, "compute_measured_over_predicted", ps_json_real_or_null(ratio));
    json_object_set_new(row, "compute_priced_by",
                        json_string(!cal ? "model_rates" : busy ? "calibration_busy" : "calibration_alone"));
    json_object_set_new(row, "compute_slowed_on_shared_node", json_boolean(slowed));
    json_object_set_new(row, "compute_faster_than_priced", json_boolean(faster));
    json_object_set_new(row, "compute_slower_than_priced", json_boolean(slower));
    if (!out || !(slower || faster)) return;
    if (faster && cal)
        fprintf(out, "        the computation took %.2f times its predicted time, priced by %s: the machine ran "
                     "faster during the measured runs than during the calibration, %seach rank's share of the data "
                     "fits a cache the calibration's did not; the predicted computation is no firm reference here\n",
                ratio, busy ? "the calibration with the node busy" : "the 1-rank calibration",
                busy ? "the ranks computed at the same time less than the calibration's copies did (one waiting "
                       "while another computes), or "
                     : "or ");
    else if (faster)
        fprintf(out, "        the computation took %.2f times its predicted time, priced from the model's flop rates "
                     "(the probe's DAXPY, not this program's kernels): the kernels take less time per flop than "
                     "DAXPY (data in cache, or operations the count weighs more than they cost); --calibrate prices "
                     "them from a run of the program\n",
                ratio);
    else if (slowed && busy)
        fprintf(out, "        the computation took %.2f times its predicted time with %lld ranks on a node, though "
                     "priced by a calibration made with the node busy: the machine's speed moved between the two, "
                     "or its copies loaded the node less than the ranks do\n",
                ratio, (long long)per);
    else if (slowed && cal)
        fprintf(out, "        the computation took %.2f times its predicted time with %lld ranks on a node: ranks "
                     "that compute at once may slow each other (shared caches and memory), which prices from a "
                     "1-rank run cannot see\n",
                ratio, (long long)per);
    else if (slowed)
        fprintf(out, "        the computation took %.2f times its predicted time with %lld ranks on a node, priced "
                     "from the model's flop rates (the probe's DAXPY, not this program's kernels): the kernels may "
                     "take longer per flop than DAXPY, and ranks that compute at once may slow each other; "
                     "--calibrate prices them from a run of the program\n",
                ratio, (long long)per);
    else if (cal)
        fprintf(out, "        the computation took %.2f times its predicted time, priced by %s: the machine ran "
                     "slower during the measured runs than during the calibration; the predicted computation is no "
                     "firm reference here\n",
                ratio, busy ? "the calibration with the node busy" : "the 1-rank calibration");
    else
        fprintf(out, "        the computation took %.2f times its predicted time, priced from the model's flop rates "
                     "(the probe's DAXPY, not this program's kernels): the kernels take longer per flop than DAXPY "
                     "(data out of cache, or operations the count weighs less than they cost); --calibrate prices "
                     "them from a run of the program\n",
                ratio);
}

/* A total that agrees while its parts do not: computation and communication
 * (everything else) each off by a quarter or more, in opposite directions,
 * and the total within 5%.  The row says the agreement comes from errors that
 * cancel, with both parts. */
static void cancelling(json_t *ma, json_t *pa, json_t *row, FILE *out)
{
    const json_t *tm = json_object_get(ma, "total"), *tp = json_object_get(pa, "total");
    double cm = act_of(tm, PS_ACT_COMPUTE), cp = act_of(tp, PS_ACT_COMPUTE), om = 0, op = 0;
    for (int k = 0; k < PS_ACT__COUNT; k++)
        if (k != PS_ACT_COMPUTE) {
            om += act_of(tm, k);
            op += act_of(tp, k);
        }
    double ec = cm > 0 ? (cp - cm) / cm : NAN, eo = om > 0 ? (op - om) / om : NAN;
    double et = cm + om > 0 ? (cp + op - cm - om) / (cm + om) : NAN;
    int cancel = fabs(ec) >= 0.25 && fabs(eo) >= 0.25 && ec * eo < 0 && fabs(et) <= 0.05;
    json_object_set_new(row, "errors_cancel", json_boolean(cancel));
    if (!out || !cancel) return;
    char a[32], b[32];
    fmt_err(a, sizeof a, ec);
    fmt_err(b, sizeof b, eo);
    fprintf(out, "        the total agrees because its parts' errors cancel: computation %s, communication and "
                 "waiting %s (per rank); the model is that far off on each\n", a, b);
}

/* Whether a measured run's ranks outnumbered the cores they ran on (its
 * sheet's time_sliced, launch/placement.c). */
static int time_sliced(const json_t *md)
{
    return json_is_true(json_object_get(json_object_get(md, "sheet"), "time_sliced"));
}

/* The link's state: half the best round trip of rank 1's clock
 * synchronisation with rank 0 (one 8-byte message each way, 24 rounds before
 * and after the timed interval: the run's ranks[1].clock_rtt) against the
 * model's 8-byte half round trip from the probe.  Shared memory on one VM
 * here was 118 ns in some minutes and 378 ns in others; a model probed in the
 * fast state predicted alter 69.7% short in the slow one, and no term of the
 * model can tell.  How much a change matters depends on the program: the
 * predicted communication (the simulator's time in the calls and waiting
 * for partners, per rank) carries it, so its share of the predicted time
 * times the change is what the change could move the total by, at most (a
 * large message's cost is its bandwidth, which the 8-byte state need not
 * move; a wait for a partner that computes does not move).  A state 1.48
 * times the model's moved alter, all communication, by -41%; the same
 * change moves a program that computes 90% of its time by 5% at most.  A
 * change within the figure's own spread over the probe's rounds
 * (half_round_trip_8B_spread: over TCP its rounds were 8.9-15.3 us apart,
 * while the programs' bandwidth-bound messages did not move) is not taken
 * for another state by that rule. */
static void latency_state(json_t *md, json_t *pd, json_t *row, FILE *out)
{
    /* a time-sliced run's round trip includes its ranks' turns on the processors: time_sliced_state says so */
    if (time_sliced(md)) return;
    const json_t *machine = json_object_get(pd, "machine");
    double now = ps_json_num(json_array_get(json_object_get(md, "ranks"), 1), "clock_rtt") / 2;
    double model = ps_json_num(machine, "half_round_trip_8B_s");
    if (!(now > 0) || !(model > 0)) return;
    double ratio = now / model;
    const json_t *b = json_object_get(pd, "breakdown");
    double work = ps_json_num(b, "work"), comm = ps_json_num(b, "communication"), wait = ps_json_num(b, "waiting");
    double share = work >= 0 && comm >= 0 && wait >= 0 && work + comm + wait > 0 ? (comm + wait) / (work + comm + wait)
                                                                                 : NAN;
    double effect = isfinite(share) ? share * (ratio - 1) : NAN;
    double spread = ps_json_num(machine, "half_round_trip_8B_spread");
    if (!(spread >= 1)) spread = 1;
    int far = ratio > PS_COMPARE_LATENCY || ratio < 1 / PS_COMPARE_LATENCY;
    int beyond = ratio > spread || ratio < 1 / spread;
    int matters = beyond && isfinite(effect) && fabs(effect) >= PS_COMPARE_LATENCY_EFFECT;
    int differs = far || matters;
    json_object_set_new(row, "latency_check",
                        json_pack("{s:f, s:f, s:f, s:f, s:o, s:o, s:b}", "run_s", now, "model_s", model,
                                  "run_over_model", ratio, "model_spread", spread, "communication_share",
                                  ps_json_real_or_null(share), "effect_at_most", ps_json_real_or_null(effect),
                                  "differs", differs));
    if (!out || !differs) return;
    char a[32], b2[32], c[96] = "";
    ps_fmt_time(a, sizeof a, now);
    ps_fmt_time(b2, sizeof b2, model);
    if (isfinite(effect))
        snprintf(c, sizeof c, " (%.0f%% of the predicted time: the change moves the total by up to %+.0f%%)",
                 100 * share, 100 * effect);
    fprintf(out, "        the 8-byte half round trip between ranks 0 and 1 around the measured run was %s, the "
                 "model's %s (%.2f times): the machine was not in the state it was probed in (or the model is another "
                 "machine's), and the predicted communication%s carries that difference\n",
            a, b2, ratio, c);
}

/* A run whose ranks outnumbered the cores they ran on (the run's sheet
 * says time_sliced): a rank waited for its turn on a processor, in a
 * receive for a partner that was not running, or computing while the
 * scheduler ran another, and busy / overhead / idle show when the scheduler
 * ran each rank.  The model stretches every cost of a rank by the ranks per
 * core (machine.oversubscription) and has no term for those turns; with 3
 * ranks on 2 cores here cg's 8-byte half round trip was 15 times the
 * model's.  The row says so once, with both figures, and that the count is
 * no firm reference; the latency check is not made (it would blame the
 * machine's state). */
static void time_sliced_state(json_t *md, json_t *pd, json_t *row, FILE *out)
{
    int sliced = time_sliced(md);
    json_object_set_new(row, "measured_time_sliced", json_boolean(sliced));
    if (!out || !sliced) return;
    const json_t *pl = json_object_get(md, "placement");
    double per = ps_json_num(pl, "ranks_per_node"), cores = ps_json_num(pl, "cores");
    double stretch = ps_json_num(json_object_get(pd, "machine"), "oversubscription");
    double now = ps_json_num(json_array_get(json_object_get(md, "ranks"), 1), "clock_rtt") / 2;
    double model = ps_json_num(json_object_get(pd, "machine"), "half_round_trip_8B_s");
    char who[96] = "the ranks outnumbered the cores they ran on", rt[160] = "", st[96] = "";
    if (per > 0 && cores > 0) snprintf(who, sizeof who, "%.0f ranks shared %.0f cores", per, cores);
    if (now > 0 && model > 0) {
        char a[32], b[32];
        ps_fmt_time(a, sizeof a, now);
        ps_fmt_time(b, sizeof b, model);
        snprintf(rt, sizeof rt, " (the 8-byte half round trip around the run was %s, the model's %s: %.2f times)", a,
                 b, now / model);
    }
    if (stretch > 1) snprintf(st, sizeof st, " beyond stretching every cost by %.3g", stretch);
    fprintf(out, "        measured time-sliced: %s, so a rank waited for its turn on a processor%s, which the model "
                 "has no term for%s, and busy / overhead / idle show when the scheduler ran each rank; this count is "
                 "no firm reference for the model\n",
            who, rt, st);
}

/* The machine's speed during the comparison (predict --compare --calibrate):
 * the calibration run that priced the count (alone, or beside copies of
 * itself) is repeated after the measured runs (calibration_after), and its
 * seconds per flop set against those the prediction was priced by.  Beyond
 * PS_COMPARE_SPEED either way the machine computed at another speed minutes
 * apart, and the error carries that change: on one VM here mmm_s at P = 2
 * took 2.8 ms and 4.9 ms in runs a minute apart, and both its calibration
 * runs, repeated, half the seconds per flop of the first ones. */
static void speed_state(json_t *md, json_t *pd, json_t *row, FILE *out)
{
    const json_t *cal = json_object_get(pd, "calibration"), *again = json_object_get(md, "calibration_after");
    double before = ps_json_num(cal, "average_seconds_per_flop");
    double after = ps_json_num(again, "average_seconds_per_flop");
    double ranks = ps_json_num(cal, "ranks");
    if (!(before > 0) || !(after > 0) || !(ranks >= 1) || ranks != ps_json_num(again, "ranks")) return;
    double ratio = after / before;
    int differs = ratio > PS_COMPARE_SPEED || ratio < 1 / PS_COMPARE_SPEED;
    json_object_set_new(row, "speed_check",
                        json_pack("{s:f, s:f, s:f, s:b}", "before_s_per_flop", before, "after_s_per_flop", after,
                                  "after_over_before", ratio, "differs", differs));
    if (!out || !differs) return;
    /* which way the change pushes the error: a machine faster after the calibration (ratio < 1) ran the
     * measured runs faster than the prediction was priced, an error above zero; slower, below */
    double err = ps_json_num(row, "error");
    int against = isfinite(err) && err != 0 && (err < 0) == (ratio < 1);
    fprintf(out, "        the calibration run that priced this count (%s), repeated after the measured runs, took "
                 "%.2f times the seconds per flop it took before: the machine's speed moved during the comparison, "
                 "%s\n",
            ranks > 1 ? "the 1-rank run beside copies of itself" : "the 1-rank run", ratio,
            !against ? "and the error may carry that change"
            : ratio < 1 ? "though a machine grown faster would make the error positive, not negative: the change "
                          "does not explain it"
                        : "though a machine grown slower would make the error negative, not positive: the change "
                          "does not explain it");
}

/* The prediction says its calibration is in doubt (predict.c: the run beside
 * copies of itself priced a flop below the lone run): the row says so too. */
static void calibration_state(json_t *pd, json_t *row, FILE *out)
{
    const json_t *cal = json_object_get(pd, "calibration");
    const char *w = json_string_value(json_object_get(cal, "busy_faster_than_alone"));
    json_object_set_new(row, "calibration_in_doubt", json_boolean(w != NULL));
    if (out && w) fprintf(out, "        the calibration that priced this count is in doubt: %s\n", w);
    /* P = 1 priced by the 1-rank calibration of the same size: the prediction is that run's own
     * computation again, so its agreement with the measured run tests nothing of the model */
    const json_t *params = json_object_get(pd, "params");
    double size = ps_json_num(params, "size"), cs = ps_json_num(cal, "size");
    int itself = cal && ps_json_num(params, "ranks") == 1 && ps_json_num(cal, "ranks") == 1 &&
                 ps_json_num(cal, "average_seconds_per_flop") > 0 && (!(cs > 0) || cs == size);
    json_object_set_new(row, "priced_by_its_own_run", json_boolean(itself));
    if (out && itself)
        fprintf(out, "        priced by the calibration's run of this very count (1 rank, the same size): the "
                     "prediction repeats that run's computation, so agreement here is by construction, not a test "
                     "of the model (--calibrate-size prices from another size)\n");
}

/* The prediction sent some of its messages above S but below the receive's
 * protocol step, whose protocol the model infers (predict.c, protocol_doubt):
 * the row says which share of them, whatever the error. */
static void protocol_state(json_t *pd, json_t *row, FILE *out)
{
    const json_t *d = json_object_get(pd, "protocol_doubt");
    json_object_set_new(row, "protocol_in_doubt", json_boolean(d != NULL));
    if (!out || !d) return;
    char a[32], b[32];
    ps_fmt_bytes(a, sizeof a, ps_json_num(d, "S"));
    ps_fmt_bytes(b, sizeof b, ps_json_num(d, "recv_step"));
    fprintf(out, "        %.0f%% of the predicted messages are above the model's S (%s) and at most its receive's "
                 "protocol step (%s): sent eagerly in the model, each send complete once its receiver's runtime took the "
                 "message in, a protocol inferred from the receive's cost (docs/PREDICT.md)\n",
            100 * ps_json_num(d, "share"), a, b);
}

/* The model's network was in doubt (predict.c, network_doubt: an exchange
 * neither clearly serial nor clearly free): the other choice's time and
 * error beside the row, and whether the measured time lies between the two. */
static void network_state(json_t *pd, double tm, json_t *row, FILE *out)
{
    const json_t *d = json_object_get(pd, "network_doubt");
    if (!d || !(tm > 0)) return;
    int bus = ps__doubt_on_bus(d);   /* the prediction's */
    double b = ps_json_num(d, "bus_s"), n = ps_json_num(d, "nobus_s"), other = bus ? n : b;
    int between = isfinite(b) && isfinite(n) && tm >= fmin(b, n) && tm <= fmax(b, n);
    json_t *o = json_object();
    json_object_set_new(o, "other_network", json_string(bus ? "nobus" : "bus"));
    json_object_set_new(o, "other_s", ps_json_real_or_null(other));
    json_object_set_new(o, "error_if_other", ps_json_real_or_null(rel(other, tm)));
    json_object_set_new(o, "between", json_boolean(between));
    json_object_set_new(row, "network_in_doubt", o);
    if (!out) return;
    char a[32], e[32], how[80];
    fmt_num(a, sizeof a, other);
    fmt_err(e, sizeof e, rel(other, tm));
    if (bus) snprintf(how, sizeof how, "the copies side by side (nobus, contention %.2f)", ps_json_num(d, "nobus_contention"));
    else snprintf(how, sizeof how, "one message at a time (bus)");
    fprintf(out, "        with %s the model predicts %s s, %s%s\n", how, a, e,
            between ? ": the measured time lies between the two networks' predictions" : "");
}

/* One end of a shaped link's range beside the row (predict.c: wire_doubt,
 * ack_doubt): the point's time `key` under the other assumption, its error
 * against the measured time tm and whether tm lies between the two, kept in
 * the row as `row_key` {key, err_key, between} and said as "with HOW the
 * model predicts ...". */
static void range_end(const json_t *d, double tm, json_t *row, FILE *out, const char *key, const char *row_key,
                      const char *err_key, const char *how)
{
    double a = ps_json_num(d, "alone_s"), k = ps_json_num(d, key);
    int between = isfinite(a) && isfinite(k) && tm >= fmin(a, k) && tm <= fmax(a, k);
    json_t *o = json_object();
    json_object_set_new(o, key, ps_json_real_or_null(k));
    json_object_set_new(o, err_key, ps_json_real_or_null(rel(k, tm)));
    json_object_set_new(o, "between", json_boolean(between));
    json_object_set_new(row, row_key, o);
    if (!out) return;
    char t[32], e[32];
    fmt_num(t, sizeof t, k);
    fmt_err(e, sizeof e, rel(k, tm));
    fprintf(out, "        with %s the model predicts %s s, %s%s\n", how, t, e,
            between ? ": the measured time lies between the two" : "");
}

/* The prediction's time depends on whether TCP coalesces the program's
 * small messages on a shaped link (wire_doubt: the time with every message's
 * payload alone), on whether it acknowledges the messages sent one way
 * by segments of their own (ack_doubt: half the wire bytes more for each),
 * and on the protocol of messages larger than the probe examined
 * (beyond_probe_doubt: a rendezvous right above them). */
static void wire_state(json_t *pd, double tm, json_t *row, FILE *out)
{
    if (!(tm > 0)) return;
    char how[256];
    const json_t *d = json_object_get(pd, "wire_doubt");
    if (d) {
        snprintf(how, sizeof how, "every message coalesced by TCP (its payload alone in the shaped link's bucket, "
                 "not %.0f bytes more)", ps_json_num(d, "wire_bytes"));
        range_end(d, tm, row, out, "coalesced_s", "wire_in_doubt", "error_if_coalesced", how);
    }
    if ((d = json_object_get(pd, "ack_doubt"))) {
        snprintf(how, sizeof how, "an acknowledgement of their own for the messages sent one way (%.0f bytes more "
                 "each)", ps_json_num(d, "ack_bytes"));
        range_end(d, tm, row, out, "acked_s", "ack_in_doubt", "error_if_acked", how);
    }
    if ((d = json_object_get(pd, "beyond_probe_doubt"))) {
        char a[32];
        ps_fmt_bytes(a, sizeof a, ps_json_num(d, "examined_bytes"));
        snprintf(how, sizeof how, "a switch to rendezvous above %s, where the model's table ends (the messages "
                 "above it moving only while their sender is in a call)", a);
        range_end(d, tm, row, out, "rendezvous_s", "beyond_probe_in_doubt", "error_if_rendezvous", how);
    }
}

/* A string field of a point, else of its file; NULL when neither has it. */
static const char *inherited_str(const json_t *doc, const json_t *top, const char *key)
{
    const char *v = json_string_value(json_object_get(doc, key));
    return v ? v : json_string_value(json_object_get(top, key));
}

/* A workload's name as both sides give it: a .loop file by its base name
 * without the extension ("./w.loop" and "w" are the same workload). */
static void workload_key(const json_t *doc, const json_t *top, char *buf, size_t len)
{
    const char *w = inherited_str(doc, top, "workload");
    if (!w) buf[0] = '\0';
    else ps_workload_key(w, buf, len);
}

static long long param(const json_t *doc, const char *key)
{
    json_t *v = json_object_get(json_object_get(doc, "params"), key);
    return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* A time a document reports that is no time at all: not a number, negative,
 * or (measured) zero, which no run takes.  A point without a time (null or
 * absent: no trial succeeded) is not refused here; the comparison leaves it
 * out and says so. */
static int bad_time(json_t *doc, const char *which, char *err, size_t errlen)
{
    json_t *t = json_object_get(doc, "time");
    static const char *keys[] = {"min", "median", "max"};
    int measured = !strcmp(which, "measured");
    for (int k = 0; k < 3; k++) {
        json_t *v = json_object_get(t, keys[k]);
        if (!v || json_is_null(v)) continue;
        if (!json_is_number(v)) {
            char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
            ps_seterr(err, errlen, "the %s result at %lld ranks gives time.%s = %.40s: a time is a number of seconds",
                      which, param(doc, "ranks"), keys[k], text ? text : "?");
            free(text);
            return 1;
        }
        double x = json_number_value(v);
        if (x < 0 || (measured && x == 0)) {
            ps_seterr(err, errlen, "the %s result at %lld ranks gives time.%s = %g: a %s", which, param(doc, "ranks"),
                      keys[k], x, x < 0 ? "time cannot be negative" : "measured time cannot be zero");
            return 1;
        }
    }
    return 0;
}

/* What a document (a point, else its file) is: "predict", "run", ... or "". */
static const char *doc_kind(json_t *doc, json_t *top)
{
    const char *k = inherited_str(doc, top, "kind");
    return k ? k : "";
}

/* The files come in the order MEASURED PREDICTED: the first holds no
 * prediction and the second nothing else (a document without a kind, from
 * elsewhere, is taken as given).  Swapped, every error would be inverted
 * and a prediction described as a trial. */
static int sides_in_order(json_t *measured, json_t *mp, json_t *predicted, json_t *pp, char *err, size_t errlen)
{
    size_t i;
    json_t *d;
    json_array_foreach(mp, i, d) if (!strcmp(doc_kind(d, measured), "predict")) {
        ps_seterr(err, errlen, "the first file holds a prediction, where the measured result goes (the order is "
                               "MEASURED.json PREDICTED.json)");
        return -1;
    }
    json_array_foreach(pp, i, d) {
        const char *k = doc_kind(d, predicted);
        if (k[0] && strcmp(k, "predict")) {
            ps_seterr(err, errlen, "the second file holds a result of kind \"%s\", not a prediction (the order is "
                                   "MEASURED.json PREDICTED.json, the second from parscope predict)", k);
            return -1;
        }
    }
    return 0;
}

/* The two sides describe the same experiment: the workload, its size and
 * iterations; each time is a time.  0, or -1 with err. */
static int same_experiment(json_t *measured, json_t *mp, json_t *predicted, json_t *pp, char *err, size_t errlen)
{
    size_t i;
    json_t *d;
    if (sides_in_order(measured, mp, predicted, pp, err, errlen)) return -1;
    json_array_foreach(mp, i, d) if (bad_time(d, "measured", err, errlen)) return -1;
    json_array_foreach(pp, i, d) if (bad_time(d, "predicted", err, errlen)) return -1;
    json_array_foreach(pp, i, d) {
        json_t *md = ps__find_ranks(mp, ps__doc_ranks(d));
        if (!md) continue;
        char wm[256], wp[256];
        workload_key(md, measured, wm, sizeof wm);
        workload_key(d, predicted, wp, sizeof wp);
        if (wm[0] && wp[0] && strcmp(wm, wp)) {
            ps_seterr(err, errlen, "the results are of different workloads (measured: %s, predicted: %s)", wm, wp);
            return -1;
        }
        static const char *keys[] = {"size", "iterations"};
        for (int k = 0; k < 2; k++) {
            long long a = param(md, keys[k]), b = param(d, keys[k]);
            if (a > 0 && b > 0 && a != b) {
                ps_seterr(err, errlen, "the results are of different %s (measured: %lld, predicted: %lld at %d ranks)",
                          k ? "iteration counts" : "problem sizes", a, b, ps__doc_ranks(d));
                return -1;
            }
        }
    }
    return 0;
}

/* Why the predicted document has no point for ranks (its not_predicted
 * list), or NULL. */
static const char *not_predicted_why(const json_t *predicted, int ranks)
{
    size_t i;
    const json_t *f;
    json_array_foreach(json_object_get(predicted, "not_predicted"), i, f)
    {
        if (ps_json_num(f, "ranks") == ranks) return json_string_value(json_object_get(f, "error"));
    }
    return NULL;
}

/* The first failed trial's message of a measured point (its failures), or NULL. */
static const char *first_failure(const json_t *md)
{
    const json_t *f = json_array_get(json_object_get(md, "failures"), 0);
    return json_string_value(json_object_get(f, "message"));
}

json_t *ps_compare_results(json_t *measured, json_t *predicted, FILE *out, char *err, size_t errlen)
{
    if (!json_is_object(measured) || !json_is_object(predicted)) {
        ps_seterr(err, errlen, "not a result document");
        return NULL;
    }
    json_t *mp = ps__result_points(measured), *pp = ps__result_points(predicted);
    if (same_experiment(measured, mp, predicted, pp, err, errlen)) {
        json_decref(mp);
        json_decref(pp);
        return NULL;
    }
    json_t *rows = json_array(), *unmatched = json_array();
    double maxabs = 0;
    static const char *acts[3] = {"busy", "overhead", "idle"};
    size_t i;
    json_t *pd;
    /* the counts only one side has are listed, not compared, with why the other has none where it says */
    json_array_foreach(mp, i, pd) if (!ps__find_ranks(pp, ps__doc_ranks(pd))) {
        json_t *u = json_pack("{s:i, s:s}", "ranks", ps__doc_ranks(pd), "only_in", "measured");
        const char *why = not_predicted_why(predicted, ps__doc_ranks(pd));
        if (why) json_object_set_new(u, "why", json_string(why));
        json_array_append_new(unmatched, u);
    }
    json_array_foreach(pp, i, pd) if (!ps__find_ranks(mp, ps__doc_ranks(pd)))
        json_array_append_new(unmatched, json_pack("{s:i, s:s}", "ranks", ps__doc_ranks(pd), "only_in", "predicted"));
    /* ... and those one side gives no time for (no measured trial succeeded) */
    json_array_foreach(pp, i, pd) {
        json_t *md = ps__find_ranks(mp, ps__doc_ranks(pd));
        if (!md) continue;
        const char *none = !isfinite(ps_result_doc_time(md))   ? "measured"
                           : !isfinite(ps_result_doc_time(pd)) ? "predicted"
                                                               : NULL;
        if (none) {
            json_t *u = json_pack("{s:i, s:s, s:s}", "ranks", ps__doc_ranks(pd), "only_in",
                                  none[0] == 'm' ? "predicted" : "measured", "no_time", none);
            const char *why = none[0] == 'm' ? first_failure(md) : NULL;
            if (why) json_object_set_new(u, "why", json_string(why));
            json_array_append_new(unmatched, u);
        }
    }
    json_array_foreach(pp, i, pd)
    {
        int p = ps__doc_ranks(pd);
        json_t *md = ps__find_ranks(mp, p);
        if (p < 0 || !md || !isfinite(ps_result_doc_time(md)) || !isfinite(ps_result_doc_time(pd))) continue;
        if (out && json_array_size(rows) == 0)
            fprintf(out, "%6s  %12s  %12s  %8s  %9s  %9s  %9s\n", "P", "measured s", "predicted s", "error", "busy",
                    "overhead", "idle");
        double tm = ps_result_doc_time(md), tp = ps_result_doc_time(pd);
        double e = rel(tp, tm);
        if (isfinite(e) && fabs(e) > maxabs) maxabs = fabs(e);
        json_t *row = json_object();
        json_object_set_new(row, "ranks", json_integer(p));
        json_object_set_new(row, "measured_s", ps_json_real_or_null(tm));
        json_object_set_new(row, "predicted_s", ps_json_real_or_null(tp));
        json_object_set_new(row, "error", ps_json_real_or_null(e));
        json_t *ao = json_object();
        char eb[3][32];
        for (int k = 0; k < 3; k++) {
            char key[32];
            snprintf(key, sizeof key, "%s_pct", acts[k]);
            double am = pct_seconds(md, key), ap = pct_seconds(pd, key);
            json_t *a = json_object();
            json_object_set_new(a, "measured_s", ps_json_real_or_null(am));
            json_object_set_new(a, "predicted_s", ps_json_real_or_null(ap));
            json_object_set_new(a, "error", ps_json_real_or_null(rel(ap, am)));
            json_object_set_new(ao, acts[k], a);
            fmt_err(eb[k], sizeof eb[k], rel(ap, am));
        }
        json_object_set_new(row, "activities", ao);
        json_array_append_new(rows, row);
        if (out) {
            char e0[32], t0[32], t1[32];
            fmt_err(e0, sizeof e0, e);
            fmt_num(t0, sizeof t0, tm);
            fmt_num(t1, sizeof t1, tp);
            fprintf(out, "%6d  %12s  %12s  %8s  %9s  %9s  %9s\n", p, t0, t1, e0, eb[0], eb[1], eb[2]);
        }
        measured_noise(md, pd, e, row, out);
        time_sliced_state(md, pd, row, out);
        latency_state(md, pd, row, out);
        speed_state(md, pd, row, out);
        calibration_state(pd, row, out);
        protocol_state(pd, row, out);
        network_state(pd, tm, row, out);
        wire_state(pd, tm, row, out);
        /* by activity and construct, when both sides have their traces */
        json_t *ma = activities_of(md), *pa = activities_of(pd);
        if (ma && pa) {
            json_object_set_new(row, "error_sources", error_sources(ma, pa, out));
            first_calls(ma, pa, tm, tp, row, out);
            compute_state(md, pd, ma, pa, row, out);
            cancelling(ma, pa, row, out);
        }
        json_decref(ma);
        json_decref(pa);
    }
    json_decref(mp);
    json_decref(pp);
    if (json_array_size(rows) == 0) {
        size_t timeless = 0;
        json_t *u;
        /* the first reason of the kind the message gives: a count without a time, else one side's only */
        const char *why_timeless = NULL, *why_only = NULL;
        json_array_foreach(unmatched, i, u)
        {
            const char *w = json_string_value(json_object_get(u, "why"));
            if (json_object_get(u, "no_time")) {
                timeless++;
                if (!why_timeless) why_timeless = w;
            } else if (!why_only) {
                why_only = w;
            }
        }
        const char *why = timeless ? why_timeless : why_only;
        if (timeless)
            ps_seterr(err, errlen,
                      "no processor count has a time in both results (%zu count%s without one on a side%s%s)",
                      timeless, timeless > 1 ? "s" : "", why ? "; the first because: " : "", why ? why : "");
        else if (why)
            ps_seterr(err, errlen, "the two results have no processor count in common (the first because: %s)", why);
        else
            ps_seterr(err, errlen, "the two results have no processor count in common");
        json_decref(rows);
        json_decref(unmatched);   /* (after the message: why points into it) */
        return NULL;
    }
    if (out && json_array_size(unmatched)) {
        fprintf(out, "not compared:");
        json_t *u;
        json_array_foreach(unmatched, i, u) {
            const char *none = json_string_value(json_object_get(u, "no_time"));
            const char *why = json_string_value(json_object_get(u, "why"));
            long long p = json_integer_value(json_object_get(u, "ranks"));
            if (none && !strcmp(none, "measured"))
                fprintf(out, "%s P = %lld (the measured result has no time: no trial succeeded%s%s)", i ? "," : "", p,
                        why ? "; the first: " : "", why ? why : "");
            else if (none)
                fprintf(out, "%s P = %lld (the %s result has no time)", i ? "," : "", p, none);
            else
                fprintf(out, "%s P = %lld (in the %s result only%s%s)", i ? "," : "", p,
                        json_string_value(json_object_get(u, "only_in")), why ? "; not predicted: " : "",
                        why ? why : "");
        }
        fputc('\n', out);
    }
    if (out)
        fprintf(out, "(error = (predicted - measured) / measured; busy / overhead / idle are the result sheet's, "
                     "seconds per rank: busy = outside the runtime's calls (computation and the code between calls), "
                     "overhead = inside them doing work, idle = inside them waiting for a partner, the three adding up "
                     "to the time; where the error "
                     "comes from splits the same time by activity (compute; the send and receive calls; waiting for a "
                     "partner, and barriers; code between calls) and construct, its own way)\n");
    json_t *doc = json_object();
    json_object_set_new(doc, "kind", json_string("compare"));
    json_object_set_new(doc, "rows", rows);
    json_object_set_new(doc, "not_compared", unmatched);
    json_object_set_new(doc, "max_abs_error", json_real(maxabs));
    return doc;
}
