/*
 * whitebox.h - white-box benchmarking (seed 002): where a workload's time goes.
 *
 * Incremental conditional compilation builds three kernels of one LOOP
 * program (parscope gen --variant): the communication skeleton (comm), the
 * skeleton plus communication-related data movement (data), and the whole
 * program (full).  Timing each and subtracting gives
 *
 *   communication = T(comm)
 *   data movement = T(comm+data) - T(comm)
 *   computation   = T(full) - T(comm+data)
 *
 * overall (the execution time of DESIGN.md) and per rank (the rank's own
 * timed interval).  A fourth build with section timing compiled in gives the
 * \SECTION times.  The communication kernel is compared with what a simple
 * latency + bandwidth model from the machine's ping-pong predicts for its
 * messages.
 *
 * Statistics (docs/WHITEBOX.md): a variant's time is the median of its K
 * trials.  A difference A - B is summarised over all K x K pairs
 * (a_i - b_j): median, min..max (the spread) and the quartiles.  A part is
 * beyond the noise only when the whole spread lies on one side of zero; a
 * negative part is reported with the trials behind it.
 */
#ifndef PS_WHITEBOX_H
#define PS_WHITEBOX_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "launch/launch.h"
#include "sim/machine.h"
#include "trace/trace.h"

enum ps_wb_variant { PS_WB_COMM = 0, PS_WB_DATA, PS_WB_FULL, PS_WB_SECTIONS, PS_WB_NVARIANTS };

/* The variant names ps_run_workload takes: "comm", "data", "full", "sections". */
const char *ps_wb_variant_name(int v);

/* Per-rank section totals of one trial. */
typedef struct ps_wb_section {
    char    *name;
    int      rank;
    double   seconds;     /* summed over the section's executions */
    uint64_t count;       /* executions */
} ps_wb_section;

/* What one trial of one variant contributes (read from its trace). */
typedef struct ps_wb_sample {
    double         time;          /* execution time, NAN if the trial failed */
    int            nranks;
    double        *lane;          /* per rank: its timed interval t_end - t_begin */
    double        *compute;       /* per rank: seconds in COMPUTE events (instrumented) */
    double        *data_move;     /* per rank: seconds in DATA events (instrumented) */
    uint64_t      *messages;      /* per rank: sends */
    uint64_t      *bytes;         /* per rank: bytes sent */
    double        *msg_table;     /* per rank: sum of ps_machine_msg_time over its sends (if a machine) */
    /* per rank, over the timed interval (NULL or NAN: not measured): page
     * faults, hardware cache misses, and the time \INIT_ARRAY ran inside it */
    double        *minflt, *majflt, *cache_misses;
    double        *setup_in_timed;
    ps_wb_section *sections;
    int            nsections;
} ps_wb_sample;

/* Fills s from a trace; m (may be NULL) prices every send for the model.
 * 0, or -1 on out of memory. */
int  ps_wb_sample_from_trace(const ps_trace *t, const ps_machine *m, ps_wb_sample *s);
/* A failed trial (time NAN, no ranks). */
void ps_wb_sample_failed(ps_wb_sample *s);
void ps_wb_sample_free(ps_wb_sample *s);

/* All trials: sample[v][k] is trial k of variant v (k < trials); variants
 * not run have ntrials[v] == 0. */
typedef struct ps_wb_data {
    int           nranks;
    int           ntrials[PS_WB_NVARIANTS];
    ps_wb_sample *sample[PS_WB_NVARIANTS];
    double        fault_cost;     /* seconds per page fault on this machine (ps_wb_fault_cost), NAN: unknown */
    int           fault_pages;    /* how it was measured: pages touched per repetition */
} ps_wb_data;

void ps_wb_data_free(ps_wb_data *d);

/* Summary of a set of values (times, or the K x K differences). */
typedef struct ps_wb_stat {
    int    n;
    double median, min, max, q1, q3;
} ps_wb_stat;

/* Order statistics of n values (NAN values are skipped). */
ps_wb_stat ps_wb_stat_of(const double *v, int n);
/* a - b over all pairs of finite values. */
ps_wb_stat ps_wb_diff_of(const double *a, int na, const double *b, int nb);

/* The simple model (seed 002, section 2.1: COMMS1's startup time and
 * bandwidth): a rank's communication time = messages x latency + bytes /
 * bandwidth.  From the Hockney fit (t0, r_inf) when the machine has one,
 * else send_latency and 8 / word_time. */
typedef struct ps_wb_model_params {
    double latency;        /* seconds per message */
    double bandwidth;      /* bytes per second */
    const char *source;    /* "hockney (t0, r_inf)" or "send_latency, word_time" */
} ps_wb_model_params;
void   ps_wb_model_params_of(const ps_machine *m, ps_wb_model_params *p);
double ps_wb_model_time(const ps_wb_model_params *p, uint64_t messages, uint64_t bytes);

/* The analysis of the data: the JSON members "variants", "rounds", "parts",
 * "ordered", "profile", "ranks", "load_balance", "sections", "memory",
 * "setup" and "model" (see docs/WHITEBOX.md), added to doc.  m may be NULL (no model);
 * machine_path names it in the document. */
int ps_whitebox_analyze(const ps_wb_data *d, const ps_machine *m, const char *machine_path, json_t *doc);

/* A part against the noise of its own trial pairs, the one criterion behind
 * its note, the order check and its conclusion (conclude.c). */
enum ps_wb_verdict {
    PS_WB_NOISE_UNKNOWN, /* fewer than two pairs, or no T(full) */
    PS_WB_WITHIN_NOISE,  /* the pairs reach zero or across it */
    PS_WB_ABOVE_NOISE,   /* every pair above zero */
    PS_WB_BELOW_NOISE    /* every pair below zero: the kernels are out of order */
};
typedef struct ps_wb_part_noise {
    double effect;       /* the part's share of T(full) */
    double noise;        /* how far the pairs reach from the value towards zero, relative to T(full) */
    enum ps_wb_verdict verdict;
} ps_wb_part_noise;

/* part: a document's part {value, min, max, pairs}; full: the median T(full).
 * The verdict is beyond the noise exactly when |effect| > noise, the test
 * of report/findings.h. */
ps_wb_part_noise ps_wb_part_noise_of(const json_t *part, double full);

/* The conclusions of an analysed document: {id, text, effect, noise, unit,
 * verdict, numbers} (report/findings.h; conclude.c). */
json_t *ps_whitebox_conclude(const json_t *doc);
/* The cost of a page fault here: the median over `repeats` of the time to
 * touch `pages` fresh pages of an anonymous mapping divided by the faults
 * counted (getrusage).  NAN if the faults cannot be counted. */
double ps_wb_fault_cost(int pages, int repeats);
/* What whitebox and run price a page fault with: pages touched, repeats. */
#define PS_WB_FAULT_PAGES   2048
#define PS_WB_FAULT_REPEATS 3

/* ---- running ------------------------------------------------------------ */

typedef struct ps_whitebox_spec {
    const char    *workload;      /* built-in LOOP workload or FILE.loop */
    int            ranks;
    long           size;          /* -1: the workload's default */
    long           iterations;    /* -1: the workload's default */
    int            trials;        /* per variant */
    int            sections;      /* also run the "sections" build */
    const char    *machine_path;  /* machine.ini for the model, or NULL */
    int            quiet;         /* no progress line (it shows only on a terminal anyway) */
    ps_launch_opts launch;
    const char    *output;        /* if a regular file: the document is also written there after each
                                     round ("interrupted": true until the end), so a stopped run keeps it */
} ps_whitebox_spec;

/* Builds and runs the variants, interleaved, one trial of each per round,
 * the order rotated by one each round (comm, data, full; data, full, comm;
 * ...), and returns the whole "whitebox" document in *doc.
 * Returns 0; 1 if a trial failed (the document holds what was measured and
 * a "failures" list); 2 for bad input (err set, *doc NULL). */
int ps_whitebox_run(const ps_whitebox_spec *s, json_t **doc, char *err, size_t errlen);

/* ---- output --------------------------------------------------------------- */

/* The breakdown as text (what 'parscope whitebox' prints). */
void ps_whitebox_print(const json_t *doc, FILE *out);

/* An HTML <section> fragment: stacked bars per rank and overall, the table
 * with spreads, sections, the simple-model comparison.  0, or -1 if doc is
 * not a whitebox document. */
int ps_whitebox_report_html(FILE *out, const json_t *doc, const char *dir, const char *source);

#endif /* PS_WHITEBOX_H */
