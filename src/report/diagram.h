/*
 * diagram.h - the space-time diagram (ParaGraph's, LOOP seed §5.1 Fig. 8):
 * one lane per rank on the global, clock-corrected time axis, the lane
 * coloured by activity class (busy / overhead / idle, see activity.h), each
 * message an arrow from the start of its send to the end of its receive,
 * VISIBLE_SYNC marks drawn as lines across the lanes and the phases between
 * them labelled with their main construct.
 *
 * It stays readable at any size: when a rank has more segments than the
 * plot has pixel columns, each column of its lane becomes a small stacked bar
 * of the three classes' shares of that column (in eighths); when there are
 * more messages than `max_arrows`, messages with the same sender, receiver
 * and nearby send and receive columns are drawn as one line (no arrowhead,
 * thicker for more) whose data-n attribute (and tooltip) gives how many it
 * stands for.  Every arrow is a <line class="msg" data-n="N">, so the sum of
 * data-n is the number of matched messages.
 */
#ifndef PS_DIAGRAM_H
#define PS_DIAGRAM_H

#include <stdio.h>

#include "report/activity.h"
#include "trace/trace.h"

typedef struct ps_diagram_opts {
    double width;       /* whole picture, pixels (0: PS_DIAGRAM_WIDTH) */
    size_t max_arrows;  /* 0: PS_DIAGRAM_MAX_ARROWS */
    const char *title;  /* aria label, may be NULL */
    double from, to;    /* a time window (global seconds); from >= to: the whole run */
} ps_diagram_opts;

#define PS_DIAGRAM_WIDTH      1100.0
#define PS_DIAGRAM_MAX_ARROWS 4000

/* What was drawn, for the caption and the tests. */
typedef struct ps_diagram_info {
    size_t messages;     /* matched messages drawn (in the window) */
    size_t arrows;       /* <line class="msg"> elements */
    size_t syncs;        /* VISIBLE_SYNC lines */
    int    binned_ranks; /* ranks drawn by pixel columns */
} ps_diagram_info;

/* Writes one <svg> element.  tl must be built from t. */
void ps_diagram_svg(FILE *f, const ps_trace *t, const ps_timeline *tl, const ps_diagram_opts *o,
                    ps_diagram_info *info);

/* The span from the first to the last VISIBLE_SYNC line (earliest and
 * latest rank), for a zoomed diagram; 0 if the trace has fewer than two. */
int ps_diagram_sync_span(const ps_trace *t, double *from, double *to);

/* The construct id named `name` in the trace, or -1. */
int ps_trace_construct_id(const ps_trace *t, const char *name);

#endif /* PS_DIAGRAM_H */
