/*
 * probe.h - `parscope probe`: measures the machine and writes its model.
 *
 *   ping-pong  ranks 0 and 1, 1 B .. 4 MiB (powers of two and +/-3 bytes, as
 *              NetPIPE), half round-trip time and bandwidth per size, the
 *              COMMS1/Hockney fit t(n) = t0 + n / r_inf, n_1/2 = t0 * r_inf.
 *   BSP        r from DAXPY (in and out of cache), g and l from a full
 *              h-relation of single 8-byte words put cyclically to the other
 *              ranks (bspbench, seed 004), h = 0..256, least squares over
 *              [0, p] and [p, 256]; the combined-message (bspprobe) g.
 * The whole set is repeated (at least three rounds) and the best two rounds
 * are compared.  docs/PROBE.md documents the method and the result JSON.
 *
 * Data flow: the rank side (inside an MPI job) measures and rank 0 writes a
 * raw JSON document; the analysis turns it into the probe document
 * ("kind": "probe"), a machine model (sim/machine.h), plots and text.
 * Functions return 0 / -1 with a message in err, as elsewhere.
 */
#ifndef PS_PROBE_H
#define PS_PROBE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "sim/machine.h"

/* ---- tunables (all in one place) -------------------------------------- */

typedef enum { PS_PROBE_TINY, PS_PROBE_QUICK, PS_PROBE_FULL } ps_probe_mode;

typedef struct ps_probe_budget {
    const char *name;          /* "tiny", "quick", "full" */
    int    rounds;             /* complete repetitions (>= 3, seed 004) */
    double pingpong_s;         /* per round */
    double hrelation_s;        /* per round, both patterns */
    double daxpy_s;            /* per round, both vector lengths */
    double rse_target;         /* ping-pong: stop a size at this relative standard error */
    int    min_samples;        /* ping-pong samples per size at least */
    int    max_samples;
    int    h_step;             /* h-relation: every h in [0, p], then this step up to h_max */
    long   out_cache_cap;      /* DAXPY: bytes of the two out-of-cache vectors at most */
} ps_probe_budget;

const ps_probe_budget *ps_probe_budget_for(ps_probe_mode mode);

/* The time the probe announces and keeps: the rounds' measuring budgets
 * plus PS_PROBE_START_S for launching, MPI start-up and the DAXPY set-up. */
double ps_probe_budget_seconds(ps_probe_mode mode);

#define PS_PROBE_MAX_BYTES   (4L << 20)   /* largest ping-pong message */
#define PS_PROBE_PERTURB     3            /* NetPIPE's default perturbation */
#define PS_PROBE_H_MAX       256          /* largest h of the h-relation */
#define PS_PROBE_BATCH_S     100e-6       /* ping-pong: round trips per sample fill this much time */
#define PS_PROBE_H_BATCHES   5            /* h-relation: batches per h, the best one counts */
#define PS_PROBE_DAXPY_BATCHES 5          /* DAXPY: batches per length, the best one counts */
#define PS_PROBE_AGREE       0.05         /* best two rounds must agree within this */
#define PS_PROBE_START_S     5.0          /* launch, MPI start-up and DAXPY set-up, in the announced time */
#define PS_PROBE_LAUNCH_S    2.0          /*   of which launching and MPI start-up (the rest: set-up, on the ranks) */
#define PS_PROBE_LIMIT_MARGIN_S 3.0       /* a round is started only if it ends this long before the time limit */
#define PS_PROBE_LIMIT_FILL  0.8          /* under a time limit the rounds are aimed at this share of what it leaves */
#define PS_PROBE_MIN_SCALE   0.2          /* a late round still gets this share of its parts' budgets */
#define PS_PROBE_H_MIN_MID   3            /* h-relation: values of h inside (p, h_max) measured however late */
#define PS_PROBE_SLOW_RT     20e-3        /* ping-pong: a round trip above this = a slow network: */
#define PS_PROBE_SLOW_SAMPLES 3           /*   powers of two only, this many samples per size, */
#define PS_PROBE_MAX_RT      0.25         /*   and no larger size once a round trip exceeds this */
#define PS_PROBE_DUPLEX_BYTES (1L << 20)  /* both directions at once: at most this size */
#define PS_PROBE_DUPLEX_WARMUP 2          /*   after this many untimed (the first ones run long) */
#define PS_PROBE_DUPLEX_REPS 3            /*   best of at least this many */
#define PS_PROBE_DUPLEX_MAX  16           /*   and of up to this many */
#define PS_PROBE_DUPLEX_S    20e-3        /*   while the timed ones took less than this in all */
#define PS_PROBE_DUPLEX_FREE 1.1          /* exchange / one-way time (rounds' median) below this: clearly side by side */
#define PS_PROBE_BUS_RATIO   1.5          /*   from this on nearer one at a time (2) than side by side (1): a bus */
#define PS_PROBE_BUS_CLEAR   1.8          /*   from this on clearly serial; between FREE and CLEAR predict gives both */
#define PS_PROBE_BUCKET_SHARED 1.6        /* a shaped link: both ways' series this much slower = one bucket */
#define PS_PROBE_WIRE_MAX 4096          /* a shaped link: a message's bucket bytes beyond its payload, at most */
#define PS_PROBE_BUCKET_TOL  1.43         /* a token bucket's rate and a stream's agree within this factor */
#define PS_PROBE_ONEWAY_PACED 1.1        /* a one-way stream within this of its sender's calls: they set its pace */
#define PS_PROBE_STEP_MIN_BYTES 64        /* ping-pong steps: between groups (a power of two +/- 3) from this up, */
#define PS_PROBE_STEP_RATIO  0.85         /*   the bandwidth below this fraction of the previous group's, */
#define PS_PROBE_STEP_COST   1.8          /*   or the extra time per byte this many times both neighbours' */
#define PS_PROBE_STEP_JUMP   0.2          /*   and the time jumping by this fraction; each beyond the rounds' spread */
#define PS_PROBE_PAIR_MAX_BYTES (1L << 20) /* the other pair (within / between nodes): sizes 1, 4, .. this */
#define PS_PROBE_PAIR_SAMPLES 3           /*   batches per size, the best counts */
#define PS_PROBE_TAIL_SPAN   8.0          /* the sustained rate: sizes from the largest / this up */
#define PS_PROBE_RINF_AGREE  1.25         /* the line's r_inf below 1 / this of it: the sustained rate wins */
#define PS_PROBE_RINF_OVER   1.1          /*   or above this factor of it (a rate no long message reaches) */
#define PS_PROBE_BURST_RATIO 1.5          /* best bandwidth beyond this factor of it: said in a warning */

/* ---- fits (fit.c) ------------------------------------------------------ */

typedef struct ps_linfit {
    double intercept, slope;
    int    n;
    double rms;          /* root mean square residual (y units) */
    double rms_rel;      /* root mean square of residual / y */
    double max_abs;      /* largest |residual| */
} ps_linfit;

/* Least squares y = intercept + slope * x over n points, weighted by w (NULL
 * = all 1): minimises sum w_i (y_i - a - b x_i)^2 by the 2x2 normal equations
 * (seed 004, "Least-squares fit").  -1 when n < PS_FIT_MIN_POINTS (a line
 * through two points has no residual to judge it by) or all x are equal. */
#define PS_FIT_MIN_POINTS 3
int ps_lsq_line(const double *x, const double *y, const double *w, int n, ps_linfit *f);

/* The residuals of the line y = intercept + slope * x over n points: sets f's
 * line, n, rms, rms_rel (over the points with y != 0) and max_abs. */
void ps_line_residuals(const double *x, const double *y, int n, double intercept, double slope, ps_linfit *f);

/* Hockney / COMMS1 fit t(n) = t0 + n / r_inf to ping-pong times (seconds)
 * over message sizes (bytes), by least squares on relative error (weights
 * 1/t^2) so small and large messages count alike; n_half = t0 * r_inf.
 * -1 when the fit is impossible or gives r_inf <= 0. */
int ps_hockney_fit(const double *bytes, const double *t, int n, double *t0, double *r_inf, double *n_half,
                   ps_linfit *f);

/* ---- running ------------------------------------------------------------ */

typedef struct ps_probe_opts {
    ps_probe_mode mode;
    int           ranks;      /* 0: the cores, at least 2 */
    const char   *launcher;   /* launcher template (launch/launch.h), NULL: the default */
    double        timeout;    /* seconds for the whole measurement, 0: none */
    const char   *raw_path;   /* rank side: rank 0 writes the raw document here after each round
                                 too ("complete": false), so a stopped probe keeps its rounds */
} ps_probe_opts;

/* Exit status of ps_probe_run when the measurement was stopped (interrupted
 * or at its time limit) after at least one whole round: *doc holds those
 * rounds' analysis, marked "interrupted" with what is missing. */
#define PS_PROBE_PARTIAL 3

/* The run (run.c), from outside an MPI job: launches parscope itself on
 * o->ranks ranks ("parscope probe --rank-side --raw FILE"), reads rank 0's
 * raw document back and analyses it: the probe document in *doc and the
 * machine model in *m.  0, 1 the measurement failed, 2 no launcher (err
 * set), PS_PROBE_PARTIAL (err says what is missing). */
int ps_probe_run(const ps_probe_opts *o, json_t **doc, ps_machine *m, char *err, size_t errlen);
/* The cores (hwloc), at least 2. */
int ps_probe_default_ranks(void);

/* The rank side: call on every rank of an MPI job (MPI_Init is done here if
 * needed).  Rank 0 fills *raw (the raw document); other ranks get NULL.
 * Returns 0, or -1 with err (on rank 0). */
int ps_probe_rank_side(const ps_probe_opts *o, json_t **raw, char *err, size_t errlen);

/* The analysis: the probe document ("kind": "probe", every sample kept, fits,
 * agreement of the rounds, warnings, the model) from a raw document, and the
 * machine model.  NULL with err when the raw document is unusable. */
json_t *ps_probe_analyze(const json_t *raw, ps_machine *m, char *err, size_t errlen);

/* Machine model from a probe document (what ps_probe_analyze fills). */
int ps_probe_model(const json_t *doc, ps_machine *m, char *err, size_t errlen);

/* The human summary (figures, agreement, warnings) as text. */
void ps_probe_print(const json_t *doc, FILE *out);

/* SVG plots into dir: pingpong_time.svg, pingpong_bandwidth.svg, hrelation.svg. */
int ps_probe_write_svgs(const json_t *doc, const char *dir, char *err, size_t errlen);

/* The report fragment (report/report.h): an HTML <section> with inline SVG
 * plots and tables of a probe document.  0, or -1 when doc is not one. */
int ps_probe_report_html(FILE *out, const json_t *doc, const char *dir, const char *source);

#endif
