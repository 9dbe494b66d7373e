/*
 * snapshot.h - a process's writable memory and descriptors, taken once and
 * put back, so that the recording back end runs rank after rank in one
 * process instead of forking a process per rank (record.c).
 *
 * ps__snap_take() returns 0 when it has taken the snapshot, 1 when a
 * ps__snap_restore() has put the process back to it (it returns twice, as
 * setjmp does), -1 when it cannot take one (then nothing changed).
 * ps__snap_restore() does not return when it succeeds: the process continues
 * in ps__snap_take(), returning 1, with its memory as it was then; it returns
 * -1 when the process has moved beyond what it can put back (a mapping of the
 * snapshot gone or made read-only, a descriptor of it closed, a thread
 * started), and the caller then ends the process as before.
 *
 * What it puts back: every private writable mapping's pages (those present
 * at the snapshot are compared and copied back; those the program touched
 * since are dropped, which makes them zero or the file's again), the program
 * break, mappings made since (unmapped), descriptors opened since (closed),
 * signal dispositions and the interval timer.  One region of its own holds
 * the copies and the stack it restores on, and ps__snap_exclude() names one
 * more (the recorder's stream buffer) that it leaves as it finds it.
 */
#ifndef PS_RUNTIME_SNAPSHOT_H
#define PS_RUNTIME_SNAPSHOT_H

#include <stddef.h>

/* the exit status of a process that began putting itself back and could
 * not finish: its last rank ran whole, the ranks after it did not start */
#define PS_SNAP_EXIT 75

void ps__snap_exclude(void *p, size_t n);
int  ps__snap_take(void);
int  ps__snap_restore(void);

/* a word that survives ps__snap_restore (the recorder's next rank) */
long *ps__snap_word(void);

#endif
