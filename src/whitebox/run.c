/*
 * run.c - building and running the white-box variants, interleaved.
 *
 * Round k runs one trial of each variant in turn (comm, data, full and, when
 * asked, sections), so a disturbance of the machine (another job, a slow
 * phase of the network) hits every variant's trials alike instead of one
 * variant's only.  The order is rotated by one each round (comm, data, full;
 * data, full, comm; ...): a trial that follows the long full program runs
 * measurably slower on a busy machine (cg at 4 ranks: 23 of 25 comm trials
 * slower than the identical data kernel without the rotation), and the
 * rotation spreads that effect over all variants.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/noise.h"
#include "lang/codegen.h"
#include "launch/run.h"
#include "report/result.h"
#include "util/output.h"
#include "util/proc.h"
#include "util/progress.h"
#include "util/util.h"
#include "whitebox/whitebox.h"
#include "workloads/workloads.h"

/* The document from what was measured so far (failures is shared). */
static json_t *whitebox_doc(const ps_whitebox_spec *s, ps_wb_data *d, ps_machine *m, const char *workload, long size,
                            long iterations, int trials, int nv, json_t *failures, int interrupted)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string("whitebox"));
    json_object_set_new(o, "workload", json_string(workload));
    json_t *params = json_object();
    json_object_set_new(params, "ranks", json_integer(s->ranks));
    json_object_set_new(params, "size", json_integer(size));
    json_object_set_new(params, "iterations", json_integer(iterations));
    /* the trials that ran, not those asked for: an interrupted run has fewer,
     * and a variant may have one fewer than the others (its round was cut) */
    int done = trials;
    json_t *by = json_object();
    for (int v = 0; v < nv; v++) {
        if (d->ntrials[v] < done) done = d->ntrials[v];
        json_object_set_new(by, ps_wb_variant_name(v), json_integer(d->ntrials[v]));
    }
    json_object_set_new(params, "trials", json_integer(done));
    json_object_set_new(params, "trials_planned", json_integer(trials));
    json_object_set_new(params, "trials_by_variant", by);
    json_object_set_new(params, "sections", json_boolean(s->sections));
    json_object_set_new(o, "params", params);
    json_object_set_new(o, "machine", ps_machine_meta());
    json_object_set_new(o, "method",
                        json_string("incremental conditional compilation (seed 002): communication = T(comm), "
                                    "data movement = T(comm+data) - T(comm), computation = T(full) - "
                                    "T(comm+data); value = difference of the variants' median times, spread "
                                    "= min..max (and quartiles) over all trial pairs; a part is beyond the "
                                    "noise only when its spread lies on one side of zero; trials interleaved"));
    ps_whitebox_analyze(d, m, s->machine_path, o);
    size_t ri;
    json_t *round;
    json_array_foreach(json_object_get(o, "rounds"), ri, round) {
        json_t *order = json_array();
        for (int j = 0; j < nv; j++) json_array_append_new(order, json_string(ps_wb_variant_name((j + (int)ri) % nv)));
        json_object_set_new(round, "order", order);
    }
    json_object_set(o, "failures", failures);
    if (interrupted) json_object_set_new(o, "interrupted", json_true());
    /* the trials not run, per variant */
    json_t *missing = json_object();
    for (int v = 0; v < nv; v++)
        if (d->ntrials[v] < trials)
            json_object_set_new(missing, ps_wb_variant_name(v), json_integer(trials - d->ntrials[v]));
    json_object_set_new(o, "missing", missing);
    return o;
}

/* What the generator noted while slicing the program into its kernels:
 * statements kept in every variant because it could not tell whether the
 * kernels need them (docs/LANGUAGE.md).  NULL when there is no LOOP source. */
static json_t *slicer_notes(const char *workload)
{
    const ps_workload *w = ps_workload_find(workload);
    char *owned = NULL, path[512];
    const char *src = NULL;
    size_t len = 0;
    if (w && w->source && *w->source) {
        src = *w->source;
        len = strlen(src);
        snprintf(path, sizeof path, "%s.loop", w->name);
    } else {
        size_t n = strlen(workload);
        char err[512];
        if (n > 5 && !strcmp(workload + n - 5, ".loop") && (owned = ps_read_file(workload, &len, err, sizeof err)))
            src = owned;
        snprintf(path, sizeof path, "%s", workload);
    }
    if (!src) return NULL;
    ps_diag d;
    ps_diag_init(&d, path, src, len);
    ps_gen_opts o = {path, PS_VARIANT_FULL, NULL, NULL};
    char *c = NULL;
    json_t *a = NULL;
    if (ps_gen(src, len, &o, &c, NULL, &d) == 0) {
        a = json_array();
        for (int i = 0; i < d.nnotes; i++)
            json_array_append_new(a, json_pack("{s:s, s:i, s:i, s:s}", "file", path, "line", d.notes[i].line, "col",
                                               d.notes[i].col, "message", d.notes[i].msg));
    }
    free(c);
    ps_diag_free(&d);
    free(owned);
    if (!a) return NULL;
    json_t *o2 = json_object();
    json_object_set_new(o2, "notes", a);
    json_object_set_new(o2, "note",
                        json_string(json_array_size(a)
                                        ? "statements the generator kept in every variant without being sure the "
                                          "kernels need them (each part may then hold some of their time)"
                                        : "the generator decided every statement's variants by itself"));
    return o2;
}

int ps_whitebox_run(const ps_whitebox_spec *s, json_t **doc, char *err, size_t errlen)
{
    *doc = NULL;
    ps_machine machine, *m = NULL;
    if (s->machine_path) {
        ps_machine_init(&machine);
        if (ps_machine_load(s->machine_path, &machine, err, errlen)) return 2;
        m = &machine;
    }
    int trials = s->trials > 0 ? s->trials : 1;
    int nv = s->sections ? PS_WB_NVARIANTS : PS_WB_SECTIONS;
    ps_wb_data d;
    memset(&d, 0, sizeof d);
    d.nranks = s->ranks;
    for (int v = 0; v < nv; v++) d.sample[v] = ps_xcalloc((size_t)trials, sizeof(ps_wb_sample));
    /* the price of a page fault on this machine, to weigh the kernels'
     * differences in page faults with */
    d.fault_pages = PS_WB_FAULT_PAGES;
    d.fault_cost = ps_wb_fault_cost(PS_WB_FAULT_PAGES, PS_WB_FAULT_REPEATS);

    json_t *failures = json_array();
    char workload[256] = "";
    long size = s->size, iterations = s->iterations;
    int rc = 0, interrupted = 0;
    ps_progress pr;
    ps_progress_begin(&pr, trials * nv, s->quiet);
    ps_noise_sample nz0, nz1;
    ps_placement pl;
    ps_placement_of(NULL, s->ranks, &pl);
    ps_noise_take(&nz0, 1);
    for (int k = 0; k < trials && !interrupted; k++) {
        for (int j = 0; j < nv && !interrupted; j++) {
            int v = (j + k) % nv;
            ps_progress_show(&pr, "whitebox: %s variant, round %d", ps_wb_variant_name(v), k + 1);
            ps_run_spec rs;
            memset(&rs, 0, sizeof rs);
            rs.workload = s->workload;
            rs.ranks = s->ranks;
            rs.size = s->size;
            rs.iterations = s->iterations;
            rs.trials = 1;
            rs.variant = ps_wb_variant_name(v);
            rs.launch = s->launch;
            rs.noise_quick = 1;   /* calibrated once, before and after all trials */
            ps_run_result r;
            char rerr[2048];
            int rrc = ps_run_workload(&rs, &r, NULL, NULL, rerr, sizeof rerr);
            if (rrc == 2) {
                /* a build or input error: the same for every later trial */
                ps_run_result_free(&r);
                ps_seterr(err, errlen, "%s variant: %s", ps_wb_variant_name(v), rerr);
                json_decref(failures);
                ps_wb_data_free(&d);
                return 2;
            }
            if (r.interrupted) {
                /* the trial stopped half-way is missing, not failed */
                ps_run_result_free(&r);
                interrupted = 1;
                break;
            }
            ps_workload_key(r.workload, workload, sizeof workload);
            size = r.size;
            iterations = r.iterations;
            ps_wb_sample *smp = &d.sample[v][k];
            d.ntrials[v] = k + 1;
            if (r.best_trace && r.best_trace->nranks == s->ranks) {
                ps_placement_of(r.best_trace, s->ranks, &pl);
                if (ps_wb_sample_from_trace(r.best_trace, m, smp)) ps_wb_sample_failed(smp);
            } else {
                ps_wb_sample_failed(smp);
                rc = 1;
                json_t *f = json_object();
                json_object_set_new(f, "variant", json_string(ps_wb_variant_name(v)));
                json_object_set_new(f, "round", json_integer(k + 1));
                json_object_set_new(f, "message", json_string(r.ntrials && r.trial[0].message[0]
                                                                  ? r.trial[0].message
                                                                  : "the trial left no trace"));
                json_array_append_new(failures, f);
            }
            ps_run_result_free(&r);
            ps_progress_step(&pr);
            if (ps_interrupted()) interrupted = 1;
        }
        /* each round on disk as it ends: a run stopped in any way keeps it */
        if (s->output && !interrupted && k + 1 < trials && ps_output_replaceable(s->output)) {
            json_t *part = whitebox_doc(s, &d, m, workload, size, iterations, trials, nv, failures, 1);
            json_object_set_new(part, "note", json_string("written after each round; the run did not finish"));
            char e[1024];
            if (ps_result_write(s->output, part, e, sizeof e)) fprintf(stderr, "parscope: %s\n", e);
            json_decref(part);
        }
    }
    ps_progress_end(&pr);
    ps_noise_take(&nz1, !interrupted);

    json_t *o = whitebox_doc(s, &d, m, workload, size, iterations, trials, nv, failures, interrupted);
    json_decref(failures);
    json_t *notes = slicer_notes(s->workload);
    json_object_set_new(o, "slicer", notes ? notes : json_null());
    json_object_set_new(o, "noise", ps_noise_json(&nz0, &nz1));
    ps_placement_annotate(o, &pl);
    if (interrupted) rc = 1;
    ps_wb_data_free(&d);
    *doc = o;
    return rc;
}
