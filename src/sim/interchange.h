/*
 * interchange.h - instruction streams for other simulators.
 *
 * SimGrid (SMPI) time-independent traces, replayed with
 *   smpirun -np P -platform DIR/platform.xml -hostfile DIR/hostfile -replay DIR/traces.txt
 * one action file per rank (rank-R.txt: "R init", "R isend DST TAG BYTES",
 * "R irecv SRC TAG BYTES", "R send ...", "R recv ...", "R compute FLOPS",
 * "R wait SRC DST TAG", "R waitall", "R finalize"), plus a platform file
 * built from the machine model (a cluster: host speed 1/flop_time, link
 * bandwidth 8/word_time bytes/s, latency send + receive latency).
 *
 * LogGOPSim GOAL schedules: "num_ranks P", then per rank a block of labelled
 * operations ("l3: send 800b to 1 tag 0", "recv ... from", "calc NS") and
 * dependencies ("l4 requires l3") that keep the stream's program order: an
 * operation starts after the last blocking one, a WAIT is a "calc 0" that
 * requires the requests it completes.  calc is in nanoseconds of the
 * machine model's predicted computation time.
 */
#ifndef PS_INTERCHANGE_H
#define PS_INTERCHANGE_H

#include <stddef.h>

#include "sim/machine.h"
#include "sim/stream.h"

/* Writes DIR/rank-R.txt, DIR/traces.txt, DIR/platform.xml, DIR/hostfile. */
int ps_export_simgrid(const ps_streams *s, const ps_machine *m, const char *dir, char *err, size_t errlen);
/* Writes one GOAL file. */
int ps_export_goal(const ps_streams *s, const ps_machine *m, const char *path, char *err, size_t errlen);

#endif
