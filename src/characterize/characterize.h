/*
 * characterize.h - the main job: what is this machine like for
 * message-passing programs, and what would the predefined workloads do on it.
 *
 * The run (run.c) probes the machine, runs the fingerprint, sweeps clue,
 * predicts the predefined workloads and measures them, each step parscope
 * itself in a child process; the summary (summary.c) is read back from the
 * files the steps wrote, printed, drawn at the top of the report, and
 * compared across machines (parscope report DIR1 DIR2 ...).
 */
#ifndef PS_CHARACTERIZE_H
#define PS_CHARACTERIZE_H

#include <jansson.h>
#include <stdio.h>

/* Exit status after SIGINT/SIGTERM (the summary and report hold what was measured). */
#define PS_CHARACTERIZE_INTERRUPTED 130

typedef struct ps_characterize_opts {
    int         ranks;      /* processes (>= 1) */
    const char *dir;        /* where everything goes */
    double      budget;     /* seconds; chooses sizes and repetitions */
    const char *steps;      /* NULL: all; else some of probe,fingerprint,scale,predict */
    const char *launcher;   /* launcher template, or NULL */
    int         force;      /* replace what dir holds */
    int         quiet;      /* no progress line */
} ps_characterize_opts;

/* 0, or -1 with err naming a step that does not exist. */
int ps_characterize_check_steps(const char *list, char *err, size_t errlen);

/* Prepares dir (a non-empty one only with force), runs the steps, each
 * limited in time and logged to DIR/logs/, each outcome appended to
 * DIR/steps.ndjson as it ends, then writes DIR/summary.json and
 * DIR/report.html from whatever was measured.  *summary: the summary
 * document (NULL when dir was unusable).  Returns 0; 1 a step failed (the
 * summary's "steps" say which and why) or an output could not be written
 * (said on standard error); 2 bad input (err);
 * PS_CHARACTERIZE_INTERRUPTED after SIGINT/SIGTERM. */
int ps_characterize_run(const ps_characterize_opts *o, json_t **summary, char *err, size_t errlen);

typedef struct ps_characterize_step {
    const char *name;
    int         status;   /* -1 not run, 0 ok, else failed */
    double      seconds;
    const char *message;
} ps_characterize_step;

/* The summary document ("kind": "characterize") from DIR's files; load is
 * the 1-minute load average before the characterization began (NAN if
 * unknown). */
json_t *ps_characterize_summary(const char *dir, int ranks, double budget, double elapsed,
                                const ps_characterize_step *steps, int nsteps, int interrupted, double load);

/* The summary as text. */
void ps_characterize_print(const json_t *summary, FILE *f);

/* The report fragment (report/report.h): the summary as an HTML <section>
 * (the report's first). */
int ps_characterize_report_html(FILE *out, const json_t *summary, const char *dir, const char *source);

#endif
