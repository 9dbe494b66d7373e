/*
 * predict.h - a workload's execution time on a machine model, for a list of
 * processor counts (docs/PREDICT.md).
 *
 * For each count the program runs once, without MPI, in the recording back
 * end (PARSCOPE_RECORD=P; record.c): each rank's messages and computation
 * become an instruction stream (SEND, RECEIVE, BSEND, BRECEIVE, WORK, WAIT),
 * and the simulator (src/sim/) plays the streams on the model.  Each count
 * gives a document shaped like a run's ("kind": "predict", with the predicted
 * trace's result sheet), so a prediction is drawn, exported and compared
 * (compare.h) like a measurement.
 */
#ifndef PS_PREDICT_H
#define PS_PREDICT_H

#include <stdio.h>

#include <jansson.h>

#include "sim/sim.h"

/* Processor counts in one prediction at most. */
#define PS_PREDICT_MAX_POINTS 4096
/* Above this many ranks the predicted trace is built only if trace_dir asks. */
#define PS_PREDICT_TRACE_MAX_RANKS 65536
/* A shaped link's wire bytes charged or not (TCP coalescing a program's small
 * messages): the other time is said when the two differ by more than this. */
#define PS_PREDICT_WIRE_DOUBT 0.05
/* ... and the acknowledgement of a message its receiver does not answer, a segment of at most
 * wire_bytes for about every second one: this share of wire_bytes more each (predict.c, acked_time) */
#define PS_PREDICT_ACK_SHARE 0.5

typedef struct ps_predict_opts {
    const char *workload;      /* a built-in name, FILE.loop, a program linked with the runtime, or
                                  recorded streams (a .pss file, a directory holding streams.pss,
                                  a .txt stream file) */
    const char *machine_path;  /* the model (machine.ini) */
    const int  *ranks;         /* the processor counts; for streams one entry, 0: what they hold */
    int         nranks;
    long        size, iterations; /* -1: the workload's */
    const char *trace_dir;     /* the predicted traces: DIR/trace.pst, or DIR/pP/trace.pst */
    const char *streams_dir;   /* keep the recorded streams: DIR/streams.pss or DIR/pP/streams.pss */
    const char *simgrid_dir;   /* also SimGrid time-independent traces and platform */
    const char *goal_path;     /* also a LogGOPSim GOAL schedule (one count) */
    int         calibrate;     /* price each construct's computation from a 1-rank MPI run */
    long        calibrate_size;/* the problem size of that run (-1: size) */
    int         trials;        /* trials of the measured runs (calibration, ps_predict_measure) */
    int         auto_trials;   /* ... then more, one at a time, until the best two agree (launch/run.h) */
    double      timeout;       /* seconds: recording one count; each measured run */
    const char *launcher;      /* launcher template of the measured runs */
    int         quiet;         /* print only the table's rows */
    int         activities;    /* each count's time by activity and construct (compare.h's error sources) */
    ps_sim_opts sim;
} ps_predict_opts;

/* trials 3, timeout 600, size and iterations -1, the simulator's defaults. */
void ps_predict_defaults(ps_predict_opts *o);

/* Nonzero when the workload names recorded streams rather than a program. */
int ps_predict_is_streams(const char *workload);

/* Predicts each count in turn, printing a row of the table to out as each
 * ends (and, unless quiet, a heading, the calibration and a footnote).
 * *doc: the count's document, or {"kind": "predict", "points": [...]} for
 * several counts; NULL if none was predicted.  Returns 0; 1 a count failed
 * (the program failed or deadlocks: the simulator's report of which ranks
 * wait on what goes to standard error) or parscope was interrupted, with
 * *doc holding the counts before it and err saying why; 2 bad input (err). */
int ps_predict_run(const ps_predict_opts *o, json_t **doc, FILE *out, char *err, size_t errlen);

/* The measured side of a comparison: o->trials trials of the workload under
 * MPI at each count, {"kind": "run", "points": [...]}.  0, 1 some run
 * failed (recorded), 2 bad input (err). */
int ps_predict_measure(const ps_predict_opts *o, json_t **doc, char *err, size_t errlen);

/* --compare --calibrate: each calibration run that priced a count of the
 * predicted document, once more after the measured runs, into measured's
 * points of those counts (calibration_after), for compare's speed check.
 * 0, or 1 when a run failed (err; the points it would have checked go
 * without). */
int ps_predict_recheck_calibration(const ps_predict_opts *o, json_t *predicted, json_t *measured, char *err,
                                   size_t errlen);

/* A machine model file as a document of kind "machine" (name, file,
 * source, the estimator's keys, bsp {r, g, l, g_us, l_us, p}) for the
 * report's tables; NULL with err when it does not load. */
json_t *ps_predict_machine_doc(const char *path, char *err, size_t errlen);

/* The report fragment (report/report.h) of a prediction: drawn as a run is
 * (result sheets, the predicted space-time diagram). */
int ps_predict_report_html(FILE *out, const json_t *doc, const char *dir, const char *source);

#endif
