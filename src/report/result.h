/*
 * result.h - the result JSON documents of DESIGN.md ("Files / Results").
 *
 * A run's or prediction's document has at least: schema, kind, workload,
 * params {ranks, size, iterations}, machine (meta), time {trials, min, median,
 * max, samples, used}, sheet {...}, ranks [...], procstats {...}; from its
 * trace also problem ("fingerprint(1,500,1000)"), structure and hardware.
 * Several processor counts give {"kind": K, "points": [doc, ...]}.
 *
 * Every document parscope writes through ps_result_write / _append carries
 * "schema": PS_RESULT_SCHEMA first, the version of these layouts (1: queue
 * lengths as ParaGraph's, problem / structure / hardware added).
 */
#ifndef PS_RESULT_H
#define PS_RESULT_H

#include <jansson.h>

#include "trace/sheet.h"
#include "trace/trace.h"
#include "util/stats.h"

/* time {trials, successful, min, median, max, samples, used: "min", unit,
 * and the uncertainty below} from samples (NAN = failed trial). */
json_t *ps_result_time(const double *samples, int n);

/* The uncertainty of a repeated figure (util/stats.h), set into o:
 * statistic ("min" | "median"), value, uncertainty (relative; null when it
 * cannot be told, e.g. one trial), uncertainty_method, spread ((max - min) /
 * min), sd, ci_median {low, high, coverage, method} (null below 2 samples). */
void ps_result_set_uncertainty(json_t *o, const ps_sample_stats *st, ps_statistic used);
json_t *ps_result_ci(const ps_sample_stats *st);

/* sheet {busy_pct, ...} and ranks [...] from a computed sheet. */
json_t *ps_result_sheet(const ps_sheet *s);
json_t *ps_result_ranks(const ps_sheet *s, const ps_trace *t);
/* procstats: per-rank process metrics aggregated over the ranks (avg, sd,
 * min, max, as CLUE's timer class prints them), with "interval" saying what
 * they cover; procstats_ranks: the same metrics of each rank. */
json_t *ps_result_procstats(const ps_trace *t);
json_t *ps_result_procstats_ranks(const ps_trace *t);

#define PS_RESULT_SCHEMA 1

/* problem, structure and hardware from a trace's metadata and ranks, added
 * to doc (the sheet's first page; docs/OUTPUTS.md). */
void ps_result_describe(json_t *doc, const ps_trace *t, const char *workload);

/* A whole run document: kind ("run", "predict"), workload, params, machine
 * (the meta object, taken over; NULL: none), time, sheet, ranks, procstats,
 * trace (path or null).  size and iterations are what the caller asked for;
 * what best's trace recorded as run goes first (ps_result_params_from_trace). */
/* Sets params' size and iterations to what the trace t recorded as run
 * (its metadata's params, written by the runtime), with a grid workload's
 * grid ("WxH") and grid_per_rank; nothing when t (or its metadata) has none. */
void ps_result_params_from_trace(json_t *params, const ps_trace *t);

json_t *ps_result_run(const char *kind, const char *workload, json_t *machine, int ranks, long size, long iterations,
                      const double *samples, int nsamples, const ps_trace *best, const char *trace_path);
/* The same with the sheet already computed (sheet: best's, or NULL to
 * compute it from best); best then may hold ranks, meta and no events. */
json_t *ps_result_run_sheet(const char *kind, const char *workload, json_t *machine, int ranks, long size,
                            long iterations, const double *samples, int nsamples, const ps_trace *best,
                            const ps_sheet *sheet, const char *trace_path);

/* What a run's, prediction's or trace's document must have to be read as one:
 * params.ranks (an integer of at least 1) and time {...}, in itself or in each
 * of its "points".  0, or -1 with err saying what is missing ("a run result
 * lacks params.ranks and time"). */
int ps_result_check(const json_t *doc, char *err, size_t errlen);

/* The execution time a document reports: time.median where time.used says
 * "median", else time.min (best of the trials); the sheet's time where the
 * document has neither (NAN when it has none). */
double ps_result_used_time(const json_t *doc);

/* Writes JSON atomically (indent 2). 0 or -1 with err naming the path. */
int ps_result_write(const char *path, json_t *doc, char *err, size_t errlen);

/* Appends one JSON object as a line to an append-only log (NDJSON), flushed
 * and fsynced, so nothing measured is lost if a later step fails. */
int ps_result_append(const char *path, json_t *doc, char *err, size_t errlen);

#endif
