/*
 * compare.h - predicted against measured: relative error per processor count
 * and per activity, from two result documents (run-shaped JSON, one document
 * or {"points": [...]}).
 */
#ifndef PS_COMPARE_H
#define PS_COMPARE_H

#include <jansson.h>
#include <stdio.h>

/* Compares; prints a table to out (if not NULL) and returns a JSON object
 * {"kind": "compare", "rows": [{ranks, measured_s, predicted_s, error,
 * activities: {busy: {measured_s, predicted_s, error}, overhead, idle},
 * measured_trials, measured_uncertainty (the best two trials' gap),
 * measured_spread, measured_reproducible (the best two within 5%),
 * predicted_uncertainty (a calibrated count's: its calibration's best-two gap times the
 * prediction's computation share; null without one), within_uncertainty (|error| no larger than
 * the two uncertainties together), measured_others_busy_pct (other
 * processes' share of the machine during the fastest trial), measured_disturbed (above 10%)}],
 * "max_abs_error"}.  NULL with err if the documents have no processor count
 * in common or are not result documents. */
json_t *ps_compare_results(json_t *measured, json_t *predicted, FILE *out, char *err, size_t errlen);

/* The execution time a document reports: time.min (the best trial). */
double ps_result_doc_time(const json_t *doc);

/* The thresholds by which a comparison names a point (the sentences that
 * explain the names print them from here):
 * computation this much slower than predicted, with ranks sharing a node, is
 * named as the ranks slowing each other */
#define PS_COMPARE_SHARED 0.10
/* a run's 8-byte half round trip this many times the model's (or below its
 * inverse): the machine is in another state than when it was probed */
#define PS_COMPARE_LATENCY 1.5
/* ... or a smaller change that, carried by the predicted communication
 * (its share of the predicted time times the change), could move the
 * predicted total by this fraction or more, the estimator seed's accuracy
 * claim: the point's state differs too */
#define PS_COMPARE_LATENCY_EFFECT 0.20
/* the repeated calibration run's seconds per flop this many times the first's
 * (or below its inverse): the machine's speed moved during the comparison */
#define PS_COMPARE_SPEED 1.10
/* the first message call of each kind beyond its kind's median, over the
 * run's time, more than the prediction's by this much: start-up costs the
 * model does not have are named, with the error without them */
#define PS_COMPARE_FIRST 0.05

#endif
