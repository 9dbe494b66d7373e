/*
 * sheet_feed.h - the result sheet built on a thread of its own while the
 * simulation runs.
 *
 * Every event of a simulation goes to the sheet (ps_sheet_acc_event), and
 * each one lands on its rank's counts and its receiver's queue log: at a
 * million messages in flight those are cache misses, a sixth of the
 * simulation's time.  A feed hands the events to a second thread through a
 * ring of cache lines; the thread adds them in the order they came, so the
 * sheet is the one ps_sheet_acc_event would have built, to the bit.
 */
#ifndef PS_SIM_SHEET_FEED_H
#define PS_SIM_SHEET_FEED_H

#include "trace/sheet.h"
#include "trace/trace.h"

typedef struct ps_sheet_feed ps_sheet_feed;

/* Starts the thread that adds events to a.  NULL when no thread could be
 * started (then add them to a directly). */
ps_sheet_feed *ps_sheet_feed_start(ps_sheet_acc *a);
/* As ps_sheet_acc_event: 0, or -1 once the thread could not add an event
 * (out of memory). */
int ps_sheet_feed_event(ps_sheet_feed *f, int rank, const ps_event *e, double send_t0);
/* Waits until the thread has added every event, ends it and frees f (the
 * accumulator stays the caller's).  0, or -1 if an event could not be
 * added. */
int ps_sheet_feed_stop(ps_sheet_feed *f);

/* The receivers' queue lengths of a's nranks ranks, the costly part of
 * ps_sheet_acc_finish (a sort of every message's times), on two threads
 * ahead of it, the ranks split where half of the messages are.  Where no
 * thread can be started, all of them here; the ranks that ran out of memory,
 * if any, are left to ps_sheet_acc_finish. */
void ps_sheet_feed_queues(ps_sheet_acc *a, int nranks, const double *t_begin, const double *t_end);

#endif
