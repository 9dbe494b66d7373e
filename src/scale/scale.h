/*
 * scale.h - the CLUE scalability sweep and its analysis (`parscope scale`).
 *
 * A sweep runs a workload on P = 1, 2, 4 .. N ranks for every variation,
 * K trials each, the trials interleaved (CLUE Figure 3.4: the trial loop is
 * the outermost, so one disturbance cannot spoil every repetition of a
 * point).  Every run is appended to DIR/runs.ndjson as it ends; the plan
 * (every parameter with its source) is DIR/sweep.json.  The analysis is a
 * function of those two files: DIR/scale.json ("kind": "scale"),
 * DIR/scale.csv and DIR/report.html.  docs/SCALE.md describes them.
 */
#ifndef PS_SCALE_H
#define PS_SCALE_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "scale/params.h"

/* Exit status of a sweep interrupted by SIGINT (partial results written);
 * after SIGTERM it is 143 (util/proc.h, ps_interrupt_status). */
#define PS_SCALE_EXIT_INTERRUPTED 130

/* Runs (or, with resume, continues) the sweep in dir and writes the
 * analysis.  Returns the command's exit status: 0 all runs succeeded, 1 some
 * run failed (recorded, the sweep went on), 2 bad input (err set),
 * 128 + the signal after SIGINT/SIGTERM (ps_interrupt_status: 130, 143).
 * The directory is locked for the sweep (a second one is refused). */
int ps_scale_sweep(ps_scale_params *p, const char *dir, int resume, char *err, size_t errlen);

/* Restores the parameters of a sweep directory (DIR/sweep.json). */
int ps_scale_load_plan(const char *dir, ps_scale_params *p, json_t **plan, char *err, size_t errlen);

/* The analysis document from the plan and the run records. */
json_t *ps_scale_analyze(const json_t *plan, const json_t *runs);

/* The record of one run in the run records (the last, should a run appear
 * twice), or NULL. */
const json_t *ps_scale_find_run(const json_t *runs, const char *variation, int ranks, int trial);

/* Reads DIR/runs.ndjson (an array, empty when missing). */
json_t *ps_scale_read_runs(const char *dir, char *err, size_t errlen);

/* Writes DIR/scale.json, DIR/scale.csv, DIR/report.html. */
int ps_scale_write_outputs(const char *dir, const json_t *doc, char *err, size_t errlen);

/* CSV: workload, variation, ranks, time_s, act_per_s, net_act_per_s,
 * speedup, efficiency, serial_fraction, then scaling, k, trials,
 * successful, time_min, time_median, time_max, samples. */
int ps_scale_write_csv(const json_t *doc, FILE *out);

/* The table and the conclusions as text. */
void ps_scale_print(const json_t *doc, FILE *out);

/* The automatic conclusions (seed 5.2.3) of an analysis document, as an
 * array of {id, text, effect, noise, unit, verdict, numbers {...}}
 * (report/findings.h, conclude.c). */
json_t *ps_scale_conclude(const json_t *doc);

/* Conclusions of one sweep that cannot both be findings (pairs of ids,
 * terminated by {NULL, NULL}). */
extern const char *const ps_scale_exclusive[][2];

/* Does the nodeorder permutation of `seed` change who neighbours whom on a
 * ring of P ranks?  (Rings of 1 to 3 ranks: never.) */
int ps_scale_order_differs(int P, uint64_t seed);

/* The report fragment (report/report.h) for a "scale" document: a <section>
 * with the parameters, the table, the conclusions and the seed's Figures
 * 4.2-4.6 (ACT/s, efficiency and serial fraction by variation and by
 * processor count) as inline SVG.  dir (may be NULL) is where the document
 * lives.  0, or -1 if the document is not a scale document. */
int ps_scale_report_html(FILE *out, const json_t *doc, const char *dir, const char *source);

#endif
