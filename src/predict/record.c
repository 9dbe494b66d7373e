/*
 * record.c - the two runs behind a prediction: the recording run (the
 * program once without MPI, PARSCOPE_RECORD=P, its streams left in a
 * directory) and the 1-rank calibration run under MPI (predict_int.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "parscope/parscope.h"
#include "launch/run.h"
#include "report/result.h"
#include "predict/predict_int.h"
#include "sim/breakdown.h"
#include "trace/constructs.h"
#include "trace/json.h"
#include "util/proc.h"
#include "util/stats.h"
#include "util/util.h"

/* \DATA_MOVE's calibration is a price per byte, every other construct's per flop. */
static int is_data_move(const char *name) { return !strcmp(name, ps__construct_builtin_names[PS_C_DATA_MOVE]); }

int ps__predict_record(const ps_predict_opts *o, int P, const char *dir, int scratch, int *at_count, char *err,
                       size_t errlen)
{
    *at_count = 0;
    ps_run_spec spec = {.workload = o->workload, .ranks = P, .size = o->size, .iterations = o->iterations, .trials = 1};
    char *extra[] = {"--quiet", NULL};
    spec.extra_args = extra;
    char **argv;
    int rc = ps_workload_argv(&spec, &argv, err, errlen);
    if (rc) return rc;
    /* LD_BIND_NOW: the dynamic linker resolves every symbol once, before the
     * program forks its ranks, not again in each rank's process (~10% of a
     * 1024-rank recording's processor time); a value a rank refuses
     * (runtime/limits.h) is told through the status directory */
    char *env[] = {ps_xasprintf("PARSCOPE_RECORD=%d", P), ps_xasprintf("PARSCOPE_RECORD_DIR=%s", dir),
                   ps_xasprintf("PARSCOPE_STATUS_DIR=%s", dir), ps_xstrdup("LD_BIND_NOW=1"),
                   scratch ? ps_xstrdup("PARSCOPE_RECORD_SCRATCH=1") : NULL, NULL};
    /* its messages reach the user as they come */
    ps_proc_opts po = {.timeout = o->timeout, .out = "/dev/null", .echo = 1, .env = env};
    ps_proc_result r;
    rc = ps_proc_run(argv, &po, &r);
    char bad[700];
    int nbad = rc && r.exited && r.exit_code == 2 ? ps_launch_bad_input(dir, P, bad, sizeof bad) : 0;
    if (nbad) {
        ps_seterr(err, errlen, "%s", bad);
        *at_count = 1;
        ps_proc_result_free(&r);
        for (int i = 0; env[i]; i++) free(env[i]);
        ps_argv_free(argv);
        return 2;
    }
    if (r.interrupted)
        ps_seterr(err, errlen, "recording %s at %d ranks was interrupted", o->workload, P);
    else if (r.timed_out)
        ps_seterr(err, errlen, "recording %s at %d ranks took longer than %g s (--timeout)", o->workload, P,
                  o->timeout);
    else if (rc && !r.started)
        ps_proc_describe(&r, argv[0], err, errlen);
    else if (rc)
        ps_seterr(err, errlen, "recording %s at %d ranks failed (%s %d)", o->workload, P,
                  r.exited ? "exit status" : "signal", r.exited ? r.exit_code : r.signal);
    ps_proc_result_free(&r);
    for (int k = 0; env[k]; k++) free(env[k]);
    ps_argv_free(argv);
    return rc ? 1 : 0;
}

void ps__predict_calibration_free(ps__calibration *c)
{
    for (int k = 0; k < c->n; k++) free(c->names[k]);
    free(c->names);
    free(c->sec_per_flop);
    free(c->flops_per_call);
    json_decref(c->trials_auto);
    memset(c, 0, sizeof *c);
}

/* Runs the workload on one rank under MPI and takes, per construct, the
 * seconds per flop its computation events took (per byte for \DATA_MOVE's
 * copies); time in the timed interval outside any of them (uninstrumented
 * code) is spread over all of them in proportion, so the 1-rank prediction
 * reproduces the run. */
int ps__predict_calibrate(const ps_predict_opts *o, int ranks, ps__calibration *c, FILE *out, char *err,
                          size_t errlen)
{
    ps_run_spec spec = {.workload = o->workload, .ranks = ranks > 1 ? ranks : 1,
                        .size = o->calibrate_size > 0 ? o->calibrate_size : o->size, .iterations = o->iterations,
                        .trials = o->trials, .trials_max = o->auto_trials ? PS_RUN_AUTO_MAX_TRIALS : 0};
    static char *const alone[] = {"--alone", NULL};
    if (ranks > 1) spec.extra_args = alone;
    spec.launch = (ps_launch_opts){.launcher = o->launcher, .timeout = o->timeout, .quiet = 1};
    ps_run_result r;
    int rc = ps_run_workload(&spec, &r, NULL, NULL, err, errlen);
    if (rc == 2 || !r.best_trace) {
        if (rc != 2 && ranks > 1)
            ps_seterr(err, errlen, "the calibration with the node busy (%s's 1-rank run beside %d copies of itself) "
                                   "failed", o->workload, ranks - 1);
        else if (rc != 2)
            ps_seterr(err, errlen, "--calibrate: the 1-rank run of %s failed", o->workload);
        ps_run_result_free(&r);
        return rc == 2 ? 2 : 1;
    }
    /* a program whose runtime does not know --alone ran as one job of `ranks` ranks */
    if (ranks > 1 && r.best_trace->nranks != 1) {
        ps_seterr(err, errlen, "the calibration with the node busy: %s ran as one job of %d ranks, not as %d "
                               "1-rank runs (a program built with an older runtime, without --alone?)",
                  o->workload, r.best_trace->nranks, ranks);
        ps_run_result_free(&r);
        return 1;
    }
    const ps_trace *t = r.best_trace;
    int nc = t->nconstructs;
    double *tm = ps_xcalloc((size_t)nc + 1, sizeof *tm), *fl = ps_xcalloc((size_t)nc + 1, sizeof *fl);
    double *calls = ps_xcalloc((size_t)nc + 1, sizeof *calls);
    const ps_rank_trace *rt = &t->rank[0];
    double sum = 0, csum = 0;
    for (size_t i = 0; i < rt->n; i++) {
        const ps_event *e = &rt->ev[i];
        int move = e->kind == PS_EV_DATA && e->construct == PS_C_DATA_MOVE;
        if ((e->kind != PS_EV_COMPUTE && !move) || e->construct >= nc || e->bytes == 0) continue;
        tm[e->construct] += e->t1 - e->t0;
        fl[e->construct] += (double)e->bytes;
        calls[e->construct]++;
        sum += e->t1 - e->t0;
        if (!move) csum += e->t1 - e->t0;
    }
    c->ranks = ranks > 1 ? ranks : 1;
    c->size = spec.size;
    c->trials = r.ntrials;
    c->trials_auto = ps_run_auto_json(&r);
    {
        ps_sample_stats st;
        ps_run_time_stats(&r, &st);
        c->uncertainty = st.n >= 2 ? ps_stat_uncertainty(&st, PS_STAT_MIN) : NAN;
    }
    c->time = rt->t_end - rt->t_begin;
    c->factor = sum > 0 ? c->time / sum : 1;
    double flops = 0; /* the average price is of computation: bytes copied are no flops */
    for (int k = 0; k < nc; k++)
        if (k != PS_C_DATA_MOVE) flops += fl[k];
    c->average = flops > 0 ? csum / flops * c->factor : 0;
    c->names = ps_xcalloc((size_t)nc + 1, sizeof *c->names);
    c->sec_per_flop = ps_xcalloc((size_t)nc + 1, sizeof *c->sec_per_flop);
    c->flops_per_call = ps_xcalloc((size_t)nc + 1, sizeof *c->flops_per_call);
    for (int k = 0; k < nc; k++)
        if (fl[k] > 0) {
            c->names[c->n] = ps_xstrdup(t->constructs[k]);
            c->flops_per_call[c->n] = fl[k] / calls[k];
            c->sec_per_flop[c->n++] = tm[k] / fl[k] * c->factor;
        }
    free(tm);
    free(fl);
    free(calls);
    ps_run_result_free(&r);
    if (!c->n) {
        /* nothing to price: the prediction is the model's alone, as without --calibrate */
        c->none = 1;
        if (c->ranks == 1 && out)
            fprintf(stderr, "parscope predict --calibrate: %s has no computation with flops to calibrate; "
                            "predicted from the machine model alone\n", o->workload);
        return 0;
    }
    if (!o->quiet && out) {
        static const char *const words[] = {"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"};
        char many[16], at[48] = "";
        if (c->ranks < 10) snprintf(many, sizeof many, "%s", words[c->ranks]);
        else snprintf(many, sizeof many, "%d", c->ranks);
        if (o->calibrate_size > 0) snprintf(at, sizeof at, " at -s %lld (--calibrate-size)", (long long)o->calibrate_size);
        char gap[48] = "";
        if (isfinite(c->uncertainty)) snprintf(gap, sizeof gap, " (the best two %.1f%% apart)", 100 * c->uncertainty);
        if (c->ranks > 1)
            fprintf(out, "Calibration with the node busy: %s 1-rank runs side by side%s, the %s one's prices (a job "
                         "lasts as long as its slowest rank), best of %d trials by that copy%s: %.6g s, %.1f%% outside "
                         "measured computation; seconds per flop:",
                    many, at, c->ranks == 2 ? "slower" : "slowest", c->trials, gap, c->time, 100 * (1 - 1 / c->factor));
        else
            fprintf(out, "Calibration: 1-rank run%s, best of %d%s: %.6g s, %.1f%% outside measured computation; "
                         "seconds per flop:",
                    at, c->trials, gap, c->time, 100 * (1 - 1 / c->factor));
        /* \DATA_MOVE is priced by the lone run at every count (predict_one): the busy run's is not shown */
        int shown = 0, moved = 0;
        for (int k = 0; k < c->n; k++) {
            if (c->ranks > 1 && is_data_move(c->names[k])) {
                moved = 1;
                continue;
            }
            fprintf(out, "%s %s %.3g%s", shown++ ? "," : "", c->names[k], c->sec_per_flop[k],
                    is_data_move(c->names[k]) ? " (per byte)" : "");
        }
        fprintf(out, "%s\n", moved ? " (DATA_MOVE: the lone run's price per byte at every count)" : "");
    }
    /* after the line it is about */
    if (1 - 1 / c->factor > PS__CAL_OUTSIDE_MAX && c->ranks == 1 && out)
        fprintf(stderr, "parscope predict --calibrate: %s\n", ps__calibration_warning(c));
    return 0;
}

const char *ps__calibration_warning(const ps__calibration *c)
{
    static char w[400];
    snprintf(w, sizeof w,
             "the 1-rank run spent %.0f%% of its time outside measured computation (the runtime, code between "
             "calls); spread over the flops, it shrinks with the ranks' share of the data, which holds only if "
             "that code's cost grows with the data: predictions at other counts are uncertain (a larger -s or "
             "--calibrate-size leaves less outside)",
             100 * (1 - 1 / c->factor));
    return w;
}

const char *ps__calibration_busy_warning(const ps__calibration *alone, const ps__calibration *busy)
{
    static char w[500];
    if (!(alone->average > 0) || !(busy->average > 0) || busy->average * PS__CAL_BUSY_FASTER >= alone->average)
        return NULL;
    snprintf(w, sizeof w,
             "the 1-rank run beside %d cop%s of itself took %.2f times the seconds per flop of the lone run: sharing "
             "the node cannot make a run faster, so one of the two calibrations was disturbed (the machine's speed "
             "moved between them); the counts priced by it are uncertain",
             busy->ranks - 1, busy->ranks == 2 ? "y" : "ies", busy->average / alone->average);
    return w;
}

json_t *ps__predict_calibration_json(const ps__calibration *c)
{
    json_t *j = json_object(), *rates = json_object();
    json_object_set_new(j, "from", json_string(c->ranks > 1 ? "1-rank run under MPI beside copies of itself (--alone), "
                                                              "the slowest copy of the fastest trial"
                                                            : "1-rank run under MPI, fastest trial"));
    json_object_set_new(j, "ranks", json_integer(c->ranks));
    json_object_set_new(j, "size", c->size > 0 ? json_integer(c->size) : json_null());
    json_object_set_new(j, "trials", json_integer(c->trials));
    if (c->trials_auto) json_object_set(j, "trials_auto", c->trials_auto);
    /* the best two trials' gap over the best, as a measured time's (null: fewer than two) */
    json_object_set_new(j, "uncertainty", isfinite(c->uncertainty) ? json_real(c->uncertainty) : json_null());
    if (c->none)
        json_object_set_new(j, "note", json_string("no computation with flops: nothing calibrated, the machine "
                                                   "model's figures are used"));
    json_object_set_new(j, "time", json_real(c->time));
    json_object_set_new(j, "uninstrumented_factor", json_real(c->factor));
    if (!c->none && 1 - 1 / c->factor > PS__CAL_OUTSIDE_MAX)
        json_object_set_new(j, "warning", json_string(ps__calibration_warning(c)));
    json_object_set_new(j, "average_seconds_per_flop", json_real(c->average));
    json_t *calls = json_object(), *brates = json_object(), *bcalls = json_object();
    for (int k = 0; k < c->n; k++) {
        /* \DATA_MOVE's price is per byte copied, and its calls' size in bytes */
        int move = is_data_move(c->names[k]);
        json_object_set_new(move ? brates : rates, c->names[k], json_real(c->sec_per_flop[k]));
        json_object_set_new(move ? bcalls : calls, c->names[k], json_real(c->flops_per_call[k]));
    }
    json_object_set_new(j, "seconds_per_flop", rates);
    json_object_set_new(j, "flops_per_call", calls);
    if (json_object_size(brates)) {
        json_object_set_new(j, "seconds_per_byte", brates);
        json_object_set_new(j, "bytes_per_call", bcalls);
    } else {
        json_decref(brates);
        json_decref(bcalls);
    }
    return j;
}

int ps_predict_measure(const ps_predict_opts *o, json_t **out, char *err, size_t errlen)
{
    json_t *pts = json_array();
    int rc = 0;
    for (int k = 0; k < o->nranks && !ps_interrupted(); k++) {
        ps_run_spec spec = {.workload = o->workload, .ranks = o->ranks[k], .size = o->size,
                            .iterations = o->iterations, .trials = o->trials,
                            .trials_max = o->auto_trials ? PS_RUN_AUTO_MAX_TRIALS : 0};
        static char *const no_warmup[] = {"--no-warmup", NULL};
        if (o->sim.no_warmup) spec.extra_args = no_warmup;
        spec.launch = (ps_launch_opts){.launcher = o->launcher, .timeout = o->timeout, .quiet = 1};
        if (!o->quiet && o->auto_trials && o->trials < PS_RUN_AUTO_MAX_TRIALS)
            fprintf(stderr, "measuring %s at %d ranks (%d to %d trials, until the best two agree within %.0f%%)\n",
                    o->workload, o->ranks[k], o->trials, PS_RUN_AUTO_MAX_TRIALS, 100 * PS_RUN_SPREAD_TARGET);
        else if (!o->quiet)
            fprintf(stderr, "measuring %s at %d ranks (%d trials)\n", o->workload, o->ranks[k], o->trials);
        ps_run_result r;
        int x = ps_run_workload(&spec, &r, NULL, NULL, err, errlen);
        if (x == 2) {
            ps_run_result_free(&r);
            json_decref(pts);
            return 2;
        }
        if (x) rc = 1;
        /* the failed trials, said and kept as run keeps them (the launch is quiet) */
        json_t *fails = json_array();
        for (int i = 0; i < r.ntrials; i++) {
            if (!r.trial[i].status) continue;
            json_array_append_new(fails, json_pack("{s:i, s:s}", "trial", i + 1, "message", r.trial[i].message));
            if (!o->quiet)
                fprintf(stderr, "parscope predict --compare: P = %d, trial %d of %d: %s\n", o->ranks[k], i + 1,
                        r.ntrials, r.trial[i].message);
        }
        double *samples = ps_xcalloc((size_t)r.ntrials + 1, sizeof *samples);
        for (int i = 0; i < r.ntrials; i++) samples[i] = r.trial[i].time;
        json_t *pt = ps_result_run("run", r.workload, ps_machine_meta_for(r.best_trace), o->ranks[k], r.size, r.iterations, samples,
                                   r.ntrials, r.best_trace, NULL);
        ps_run_annotate(&r, pt);   /* noise, placement, oversubscription: as run */
        json_object_set_new(pt, "failures", fails);
        json_t *au = ps_run_auto_json(&r);
        if (au) json_object_set_new(pt, "trials_auto", au);
        if (r.best_trace) json_object_set_new(pt, "activities", ps_breakdown_json(r.best_trace));
        json_array_append_new(pts, pt);
        free(samples);
        ps_run_result_free(&r);
    }
    *out = json_pack("{s:s, s:s, s:o}", "kind", "run", "workload", o->workload, "points", pts);
    return rc;
}

/* The rank count of the calibration run that priced a point: 0 without one
 * (or one that priced nothing). */
static int priced_by(const json_t *pt)
{
    const json_t *cal = json_object_get(pt, "calibration");
    double k = ps_json_num(cal, "ranks");
    return k >= 1 && k < 1e6 && ps_json_num(cal, "average_seconds_per_flop") > 0 ? (int)k : 0;
}

/* The calibration runs once more, now the measured runs are over: each one
 * that priced a predicted count (the lone 1-rank run, the run beside copies of
 * itself), into the measured points of those counts as calibration_after.
 * Their seconds per flop against those the prediction was priced by say
 * whether the machine's speed held during the comparison (compare's speed
 * check): the measured runs come minutes after the calibration, and a machine
 * whose speed moves in between moves the error with it. */
int ps_predict_recheck_calibration(const ps_predict_opts *o, json_t *predicted, json_t *measured, char *err,
                                   size_t errlen)
{
    json_t *pp = ps__result_points(predicted), *mp = ps__result_points(measured);
    int done[8] = {0}, ndone = 0, rc = 0;
    size_t i;
    const json_t *pd;
    json_array_foreach(pp, i, pd)
    {
        int k = priced_by(pd), seen = 0;
        for (int j = 0; j < ndone; j++) seen |= done[j] == k;
        if (!k || seen || ndone == 8) continue;
        if (ps_interrupted()) break;
        done[ndone++] = k;
        if (!o->quiet)
            fprintf(stderr, "repeating the calibration run (%s), for the machine's speed during the comparison\n",
                    k > 1 ? "the 1-rank run beside copies of itself" : "the 1-rank run");
        ps__calibration after;
        memset(&after, 0, sizeof after);
        char cerr[512] = "";
        int x = ps__predict_calibrate(o, k, &after, NULL, cerr, sizeof cerr);
        if (ps_interrupted()) {
            /* a repeat cut short is no figure of the machine: nothing is kept */
            ps__predict_calibration_free(&after);
            break;
        }
        if (x || !(after.average > 0)) {
            ps_seterr(err, errlen, "the calibration run repeated after the measured runs (%d rank%s) %s: the counts "
                                   "it priced go without the speed check",
                      k, k > 1 ? "s" : "", cerr[0] ? cerr : "priced no computation");
            rc = 1;
            ps__predict_calibration_free(&after);
            continue;
        }
        /* every measured count the prediction priced with this calibration */
        size_t q;
        json_t *p2;
        json_array_foreach(pp, q, p2)
        {
            json_t *md = priced_by(p2) == k ? ps__find_ranks(mp, ps__doc_ranks(p2)) : NULL;
            if (!md) continue;
            json_t *ca = json_pack("{s:s, s:i, s:i, s:f, s:f}", "from",
                                   k > 1 ? "the calibration run beside copies of itself, repeated after "
                                           "the measured runs, fastest trial"
                                         : "the 1-rank calibration run repeated after the measured runs, "
                                           "fastest trial",
                                   "ranks", k, "trials", after.trials, "time", after.time, "average_seconds_per_flop",
                                   after.average);
            if (after.trials_auto) json_object_set(ca, "trials_auto", after.trials_auto);
            json_object_set_new(md, "calibration_after", ca);
        }
        ps__predict_calibration_free(&after);
    }
    json_decref(pp);
    json_decref(mp);
    return rc;
}
