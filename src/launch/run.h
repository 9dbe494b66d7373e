/*
 * run.h - running a workload: K trials under MPI, each trial's trace read back.
 *
 * A workload is a built-in name (launch/workloads.h), a .loop file (built on
 * the fly, cached by content hash), or an executable linked with libparscope.
 * Each trial launches the program once; the ranks write a trace to a private
 * directory; the trace gives the trial's execution time (DESIGN.md: latest
 * rank's end minus earliest rank's start).
 */
#ifndef PS_RUN_H
#define PS_RUN_H

#include <stdio.h>

#include "launch/launch.h"
#include "launch/noise.h"
#include "trace/trace.h"
#include "util/stats.h"

typedef struct ps_run_spec {
    const char  *workload;     /* name, FILE.loop or executable */
    int          ranks;
    long         size;         /* -1: the workload's default */
    long         iterations;   /* -1: the workload's default */
    int          trials;       /* >= 1 */
    const char  *variant;      /* .loop / built-in LOOP workloads: "full" (NULL), "comm", "data", "sections" */
    char *const *extra_args;   /* more program arguments (NULL-terminated) or NULL */
    int          check_args;   /* extra_args are the user's: checked before the job starts (run.c) */
    ps_launch_opts launch;     /* ranks is taken from above */
    int          keep_all;     /* keep every trial's trace in the result */
    int          noise_quick;  /* 1: no calibration loop around the trials (a sweep calibrates once) */
    int          trials_max;   /* > trials (--auto-trials): after the first `trials`, one more at a time while
                                * the best two successful ones differ by more than PS_RUN_SPREAD_TARGET, up to
                                * this many in all; 0: exactly `trials` */
} ps_run_spec;

/* --auto-trials (run, predict, scale): trials until the best two agree */
#define PS_RUN_AUTO_MAX_TRIALS 10   /* at most this many in all */
#define PS_RUN_SPREAD_TARGET   0.05 /* the best two's gap over the best, as ps_stat_uncertainty (PS_STAT_MIN) */

typedef struct ps_run_trial {
    double    time;            /* seconds; NAN if the trial failed */
    int       status;          /* 0 ok, 1 failed */
    char      message[512];
    ps_trace *trace;           /* NULL unless kept */
    double    others;          /* share of the machine other processes used during the trial, NAN unknown */
} ps_run_trial;

typedef struct ps_run_result {
    char          workload[256];   /* resolved name */
    long          size, iterations;
    int           ranks;
    int           ntrials;
    ps_run_trial *trial;
    int           best;            /* index of the fastest successful trial, -1 if none */
    ps_trace     *best_trace;      /* trace of the fastest trial (owned) */
    double        launch_overhead; /* mean seconds per launch outside the timed interval */
    int           planned;         /* trials asked for; ntrials < planned: the rest are missing */
    int           trials_first;    /* the spec's trials */
    int           trials_max;      /* the spec's trials_max, when above its trials; else 0 */
    int           agreed;          /* with trials_max: the best two agreed within the target (else the
                                    * limit, a failure or an interruption ended the trials) */
    int           interrupted;     /* parscope was interrupted: the trial running then is not in trial[] */
    ps_noise_sample noise_before, noise_after;   /* the machine around the trials (noise.h) */
} ps_run_result;

/* Runs the trials.  Returns 0 if every trial succeeded, 1 if any failed
 * (the successful ones are still in r), 2 for bad input (unknown workload,
 * a file that is not a workload, no launcher, a value a rank refused) with
 * err set.  The optional callback is told after each trial (for progress
 * and append-as-you-go results).  After an interruption (util/proc.h) the
 * trial running then is stopped and left out: r->interrupted, and
 * r->ntrials < r->planned. */
typedef void (*ps_run_progress)(const ps_run_spec *s, const ps_run_result *r, int trial, void *ctx);
/* The user's extra_args checked as ps_run_workload does when check_args is
 * set (the program run once alone with --check-args, nothing launched):
 * 0, or 2 with the program's own message in err.  For a caller that must
 * refuse them before it makes anything (scale's output directory). */
int  ps_run_check_args(const ps_run_spec *s, char *err, size_t errlen);
int  ps_run_workload(const ps_run_spec *s, ps_run_result *r, ps_run_progress cb, void *ctx,
                     char *err, size_t errlen);
void ps_run_result_free(ps_run_result *r);

/* The statistics of the successful trials' times (a failed trial's time is
 * NAN and left out): parscope run's trial line and predict's calibration
 * read their uncertainty from it. */
void ps_run_time_stats(const ps_run_result *r, ps_sample_stats *st);

/* Whether the best two of n times (NAN for a failed trial, left out) agree
 * within target: their gap over the best, as ps_stat_uncertainty gives it.
 * 0 below two successful times. */
int ps_run_times_agree(const double *t, int n, double target);

/* With trials_max: the trials' rule in words, "3 to 10 trials until the best two
 * agree within 5%", and how it ended ("agreed after 4", "the best two still 7.3%
 * apart after 10"); for run's and predict's output and documents. */
void    ps_run_auto_words(const ps_run_result *r, char *rule, size_t rlen, char *end, size_t elen);
/* ... as {"first", "max", "target", "ran", "agreed", "text"}; NULL without trials_max */
json_t *ps_run_auto_json(const ps_run_result *r);

/* Adds to a run's result document what every result carries about the
 * conditions of the measurement: "noise" (noise.h), "oversubscribed" and
 * "placement" (from the fastest trial's trace; busy / idle figures marked
 * when oversubscribed), and time.others_busy_pct per trial. */
void ps_run_annotate(const ps_run_result *r, json_t *doc);

/* The same as text: the oversubscription warning and the machine noise. */
void ps_run_print_conditions(const ps_run_result *r, FILE *out);

/* The argv to run one trial of a workload (before the launcher words):
 * resolves built-ins to "parscope __rank NAME", .loop files to a cached
 * executable.  Caller frees with ps_argv_free. */
int  ps_workload_argv(const ps_run_spec *s, char ***argv, char *err, size_t errlen);
void ps_argv_free(char **argv);

/* Whether path is a program linked with the parscope runtime (a regular,
 * executable ELF file holding the runtime's mark or naming libparscope.so):
 * 0, or -1 with err saying what it is instead. */
int ps_runtime_program(const char *path, char *err, size_t errlen);

#endif
