/*
 * breakdown.h - where a rank's time goes, by activity and by construct, from
 * a trace; the same rules for a measured and a predicted trace, so the two
 * can be set side by side and the error of a prediction traced to an
 * activity of a construct ("the error is 80% waiting in TREE_BCAST").
 *
 * Activities (seconds, averaged over ranks):
 *   compute  computation and communication-related data movement events;
 *   send     send calls and send completions, less the part spent waiting
 *            for the receiver to arrive at its receive;
 *   recv     receive posts and completions, less the part before the
 *            matching send was issued (the message's flight and copy count
 *            here);
 *   wait     that waiting, and barriers;
 *   other    the rank's time outside any event (the runtime between calls,
 *            code the instrument does not see).
 * A message is available to its receiver from the end of a nonblocking send
 * call or the start of a blocking one; a receiver is ready from the start of
 * its completing call.
 */
#ifndef PS_BREAKDOWN_H
#define PS_BREAKDOWN_H

#include <jansson.h>

#include "trace/trace.h"

enum { PS_ACT_COMPUTE, PS_ACT_SEND, PS_ACT_RECV, PS_ACT_WAIT, PS_ACT_OTHER, PS_ACT__COUNT };

extern const char *const ps_activity_names[PS_ACT__COUNT]; /* "compute", "send", "recv", "wait", "other" */

typedef struct ps_breakdown {
    int     nranks, nconstructs;
    double  total[PS_ACT__COUNT];     /* per rank, averaged */
    double *by_construct;             /* [construct * PS_ACT__COUNT + activity], per rank averaged */
    /* start-up costs: per rank, averaged, what the first message call of
     * each kind (the same construct, event kind, bytes, peer, blocking or
     * not: sends, receives, posts and waits) took beyond the median of its
     * kind, over kinds of PS_BREAKDOWN_FIRST_MIN events or more (buffers
     * first touched, a library's first message of a size); first_kinds:
     * the kinds counted, over ranks.  Computations are left out: a
     * calibration run's price holds their first runs, spread over them */
    double  first_excess;
    long    first_kinds;
} ps_breakdown;

/* a kind of call counts towards first_excess from this many events */
#define PS_BREAKDOWN_FIRST_MIN 3

/* Computes it; 0, or -1 on out of memory. */
int  ps_breakdown_compute(const ps_trace *t, ps_breakdown *b);
void ps_breakdown_free(ps_breakdown *b);

/* {"unit": ..., "total": {compute, send, recv, wait, other},
 *  "constructs": {NAME: {compute, ...}, ...}} (constructs with any time),
 *  "first_calls": {"excess": first_excess, "kinds": first_kinds}}. */
json_t *ps_breakdown_json(const ps_trace *t);

#endif
