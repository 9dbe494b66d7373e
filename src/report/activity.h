/*
 * activity.h - every rank's timeline split into ParaGraph's three activity
 * classes (busy / overhead / idle), the basis of the space-time diagram and
 * the utilisation and concurrency profiles.
 *
 * The classes are those of trace/sheet.h (LOOP seed §6, ParaGraph):
 *   busy     - outside the communication layer (computation, user code,
 *              data movement);
 *   overhead - inside it doing work (send, post, the rest of a receive, a
 *              send's wait, the rest of a barrier);
 *   idle     - inside it waiting for a partner: the part of a receive
 *              before the matching send began, the part of a barrier before
 *              the last rank arrived (k-th barrier of every rank).
 * Where communication events overlap (nested calls) the most "waiting"
 * class wins: idle over overhead over busy.  Every rank's timeline covers
 * the global interval [t0, t1] of the run (earliest t_begin, latest t_end);
 * time outside a rank's own timed interval counts as busy, as it does in
 * the sheet.
 */
#ifndef PS_ACTIVITY_H
#define PS_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

enum ps_act { PS_ACT_BUSY = 0, PS_ACT_OVERHEAD = 1, PS_ACT_IDLE = 2, PS_ACT__COUNT };

extern const char *const ps_act_name[PS_ACT__COUNT];  /* "busy", "overhead", "idle" */
extern const char *const ps_act_color[PS_ACT__COUNT];

typedef struct ps_segment {
    double  t0, t1;
    uint8_t act;
} ps_segment;

typedef struct ps_timeline {
    int          nranks;
    double       t0, t1;     /* global interval */
    ps_segment **seg;        /* per rank: sorted, disjoint, adjacent, covering [t0, t1] */
    size_t      *nseg;
    double      *total;      /* per rank x class: seconds (nranks * PS_ACT__COUNT) */
    ps_match     match;      /* the trace's message pairs */
} ps_timeline;

/* 0, or -1 with err set (out of memory, or a trace the matcher rejects). */
int  ps_timeline_build(const ps_trace *t, ps_timeline *tl, char *err, size_t errlen);
void ps_timeline_free(ps_timeline *tl);

/* Seconds of class `act` on rank r within [a, b) (binary search + scan). */
double ps_timeline_time_in(const ps_timeline *tl, int r, int act, double a, double b);

/* Is the event part of the communication layer? */
int ps_event_is_comm(int kind);

#endif /* PS_ACTIVITY_H */
