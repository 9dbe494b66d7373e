/*
 * report.h - the HTML report: the page, and the sections for runs,
 * predictions and traces.
 *
 * The page (page.c) reads each input and dispatches on its "kind" through a
 * table of report fragments, one per kind, given by the caller (the command
 * line, which sits above every analysis): each analysis draws its own
 * documents; runs, predictions and bare traces are drawn here.
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
int ps_report_run_html(FILE *f, const json_t *doc, const char *dir, const char *source);

/* A bare trace: its sheet computed now, then the pictures. */
void ps_report_trace_section(FILE *f, const ps_trace *t, const char *source);

/* The pictures of a trace: space-time diagram, utilisation over time,
 * concurrency profile, per-rank utilisation, communication matrix, message
 * sizes, each with a short caption on how to read it. */
void ps_report_trace_pictures(FILE *f, const ps_trace *t);

/* A document of a kind nobody renders: its scalar keys as a table. */
void ps_report_generic_html(FILE *f, const json_t *doc, const char *source);

/* A report fragment: one document's <section>.  dir is the document's
 * directory (for its relative paths), source its path (for the caption).
 * 0, or -1 when doc is not of the kind it draws (the page then shows the
 * document's top-level figures). */
typedef int (*ps_report_fragment)(FILE *out, const json_t *doc, const char *dir, const char *source);

/* What draws a kind of document; a table of them ends with kind NULL, in
 * the order a directory's documents appear on the page. */
typedef struct ps_report_kind {
    const char        *kind;
    ps_report_fragment html;
    /* several documents of the kind side by side, before their sections (or NULL) */
    int (*several)(json_t *const *docs, int n, FILE *out);
} ps_report_kind;

/* The page (page.c) from paths: result JSON files, traces, and directories
 * (every document in them and one level of subdirectories, in the table's
 * order).  output NULL: DIR/report.html for a single directory, else
 * report.html; '-' is standard output.  title NULL: from the documents.
 * Unless quiet, says what it wrote.  0, or 2 with err (nothing written). */
int ps_report_page(char *const *paths, int n, const ps_report_kind *kinds, const char *output, const char *title,
                   int quiet, char *err, size_t errlen);

#endif /* PS_REPORT_H */
