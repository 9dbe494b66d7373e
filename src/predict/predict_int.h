/* predict_int.h - what predict.c and record.c share (see predict.h). */
#ifndef PS_PREDICT_INT_H
#define PS_PREDICT_INT_H

#include "predict/predict.h"

/* Seconds per flop of each construct, measured in a 1-rank run (--calibrate). */
typedef struct ps__calibration {
    int     n;
    char  **names;
    double *sec_per_flop;
    double *flops_per_call;  /* each construct's average call: the working set it was priced at */
    double  time, factor;
    double  average;   /* the run's seconds per flop over all its computation: the price of a
                          construct the 1-rank run did not exercise (psrs merges nothing at P = 1) */
    int     none;      /* asked for, but the run had no computation with flops: nothing priced */
    int     ranks;     /* 1: the run alone; k > 1: with k - 1 companions running the same (--alone) */
    long long size;    /* the -s it ran at (--calibrate-size, else -s; -1: the workload's default) */
    int     trials;    /* best of (the trials run: with --auto-trials, as many as it took) */
    json_t *trials_auto; /* --auto-trials: its rule and how it ended (ps_run_auto_json); NULL without */
    double  uncertainty; /* the best two trials' gap over the best (NAN: fewer than two) */
} ps__calibration;

/* Beyond this share of the 1-rank run outside measured computation, spreading it over the
 * flops is a guess the prediction says it rests on. */
#define PS__CAL_OUTSIDE_MAX 0.25

/* That warning, for the text and the result (a static buffer). */
const char *ps__calibration_warning(const ps__calibration *c);

/* The run beside copies of itself priced a flop below the lone run's by more
 * than this factor: sharing a node cannot speed a run up, so one of the two
 * was disturbed (the machine's speed moved between them). */
#define PS__CAL_BUSY_FASTER 1.10

/* That warning, if busy (a static buffer), else NULL. */
const char *ps__calibration_busy_warning(const ps__calibration *alone, const ps__calibration *busy);

/* Runs the workload in the recording back end at P ranks, its streams into
 * dir (scratch: a temporary dir, read at once and removed, whose file is not
 * synced to the disk).  0, 1 it failed (err), 2 bad input (err); *at_count
 * is 1 when the input was refused by the program's ranks at this count (a
 * size that must divide among the ranks: another count may take it), 0 when
 * it is bad at any count (no such workload, a program that does not build). */
int ps__predict_record(const ps_predict_opts *o, int P, const char *dir, int scratch, int *at_count, char *err,
                       size_t errlen);

/* The 1-rank run and the rates (printed to out unless quiet).  With ranks > 1
 * the run is a job of that many ranks, each the program alone (--alone),
 * computing at once as the ranks of a predicted run sharing a node do; the
 * trace is the slowest copy's (a run lasts as long as its slowest rank).
 * 0, 1, 2 as above. */
int     ps__predict_calibrate(const ps_predict_opts *o, int ranks, ps__calibration *c, FILE *out, char *err,
                              size_t errlen);
json_t *ps__predict_calibration_json(const ps__calibration *c);
void    ps__predict_calibration_free(ps__calibration *c);

/* The documents of a result: its points, or itself (a one-count result); a new reference. */
json_t *ps__result_points(json_t *doc);
/* A result document's rank count (params.ranks; -1 without), and the first of
 * the points pts with p ranks (NULL: none). */
int     ps__doc_ranks(json_t *doc);
json_t *ps__find_ranks(json_t *pts, int p);
/* Was a count's prediction made on a bus (its network_doubt's network; one
 * written before that field was: a bus)? */
int     ps__doubt_on_bus(const json_t *network_doubt);

#endif
