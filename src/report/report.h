/*
 * report.h - the HTML report's sections for runs, predictions and traces.
 *
 * The page itself (html.h) is put together by the `report` command, which
 * reads each input, dispatches on its "kind" and asks the owning part for
 * its section (probe, scale, ... provide their own; runs, predictions and
 * bare traces are drawn here).
 */
#ifndef PS_REPORT_H
#define PS_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "trace/trace.h"

/* A run or prediction document (or one with "points": one section per
 * point): the result sheets from the JSON, then the space-time diagram and
 * the profiles from its trace (the "trace" key, relative to `dir`), when it
 * has one that can be read; otherwise a note says why there is no picture.
 * `source` names the input in the section's caption. */
void ps_report_run_html(FILE *f, const json_t *doc, const char *dir, const char *source);

/* A bare trace: its sheet computed now, then the pictures. */
void ps_report_trace_section(FILE *f, const ps_trace *t, const char *source);

/* The pictures of a trace: space-time diagram, utilisation over time,
 * concurrency profile, per-rank utilisation, communication matrix, message
 * sizes, each with a short caption on how to read it. */
void ps_report_trace_pictures(FILE *f, const ps_trace *t);

/* A document of a kind nobody renders: its scalar keys as a table. */
void ps_report_generic_html(FILE *f, const json_t *doc, const char *source);

#endif /* PS_REPORT_H */
