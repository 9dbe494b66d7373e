/*
 * progress.h - the progress line of long commands: what runs now, done /
 * total, elapsed time and ETA, redrawn in place on standard error when it is
 * a terminal; nothing at all otherwise (logs and pipes stay clean).
 *
 *   [3/12] base P=2 trial 1/3  elapsed 0:41  ETA 1:52
 *
 * The ETA is the elapsed time per finished item times the items left, or,
 * with a time budget, the budget left.
 */
#ifndef PS_PROGRESS_H
#define PS_PROGRESS_H

#include <stdio.h>

typedef struct ps_progress {
    FILE  *out;      /* standard error */
    int    on;       /* a terminal, and not quiet */
    int    done, total;
    double t0;       /* ps_clock() at the start */
    double budget;   /* seconds, 0 = none (ETA from done / total) */
    int    shown;    /* a line is on the screen */
} ps_progress;

/* Starts the clock; the line shows only on a terminal and when not quiet. */
void ps_progress_begin(ps_progress *p, int total, int quiet);
/* Shows what runs now (printf-style). */
void ps_progress_show(ps_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One more item finished. */
void ps_progress_step(ps_progress *p);
/* Removes the line (before printing a message; the next show draws it again). */
void ps_progress_clear(ps_progress *p);
/* Removes the line for good. */
void ps_progress_end(ps_progress *p);

/* The line without the terminal controls, at time now (for tests). */
void ps_progress_format(const ps_progress *p, double now, const char *what, char *buf, size_t len);

#endif
