/*
 * export.h - traces for other tools.
 *
 *   OTF2     (Score-P's format, read by Vampir and otf2-print): one location
 *            per rank; the MPI calls as regions named as MPI names them with
 *            the records Score-P writes (MpiIsend ... MpiIsendComplete with
 *            request ids, collectives for barriers and reductions), nested
 *            in their construct's region; 1 ns ticks from the run's start
 *            (export_otf2.c).
 *   Perfetto (Chrome trace event JSON, opens in ui.perfetto.dev): one lane
 *            (thread) per rank, a slice per event, a flow arrow per matched
 *            message from its send's start to its receive's end (the
 *            diagram's anchors); timestamps in microseconds since the start.
 *   CSV      one line per event, times in seconds since the run's start,
 *            bytes and flops in their own columns, the matched message's id
 *            on both its send and receive, request ids.
 *
 * "The run's start" is the earliest rank's t_begin, so all three line up
 * with the space-time diagram and the sheet.  All three return 0, or -1 with
 * err set; file outputs are written atomically (nothing half-written).
 */
#ifndef PS_EXPORT_H
#define PS_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"

enum ps_export_format { PS_EXPORT_OTF2, PS_EXPORT_PERFETTO, PS_EXPORT_CSV };

/* "otf2", "perfetto" (also "json", "chrome"), "csv"; -1 if unknown. */
int ps_export_format_parse(const char *name);

/* The stream writers (CSV and Perfetto JSON). */
int ps_export_csv(const ps_trace *t, FILE *out, char *err, size_t errlen);
int ps_export_perfetto(const ps_trace *t, FILE *out, char *err, size_t errlen);

/* Writes an OTF2 archive into directory `dir` (anchor file dir/traces.otf2).
 * dir must not exist, or be an earlier OTF2 archive (it is replaced). */
int ps_export_otf2(const ps_trace *t, const char *dir, char *err, size_t errlen);

/* Exports to a path: a directory for OTF2, a file for the others ("-" is
 * standard output). */
int ps_export(const ps_trace *t, int format, const char *path, char *err, size_t errlen);

/* When a trace at tracefile (DIR/trace.pst) is about to be replaced: says on
 * standard error which of its default exports (trace.otf2, trace.csv,
 * trace.perfetto.json beside it) are there, since they will describe the
 * earlier run.  cmd names the command. */
void ps_export_note_stale(const char *cmd, const char *tracefile);

/* The run's start used as time zero: the earliest of every rank's t_begin
 * and every event's t0. */
double ps_export_origin(const ps_trace *t);

/* Message ids: for each event (indexed like ps_match's arrays), the id
 * (1-based, in order of rank then send) of the message it sends or receives,
 * 0 for none.  Caller frees. */
uint32_t *ps_export_message_ids(const ps_trace *t, const ps_match *m, size_t *nmessages);

#endif /* PS_EXPORT_H */
