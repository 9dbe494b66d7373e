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

/* Calls add with each trace file a JSON document at json_path names (its
 * "trace" key and its points', resolved as the page resolves them): files
 * the page reads, which no output may replace.  Nothing for a file that is
 * not a JSON object. */
void ps_report_named_traces(const char *json_path, void (*add)(const char *file, void *ctx), void *ctx);

/* A bare trace: its sheet computed now, then the pictures. */
void ps_report_trace_section(FILE *f, const ps_trace *t, const char *source);

/* The pictures of a trace: space-time diagram, utilisation over time,
 * concurrency profile, per-rank utilisation, communication matrix, message
 * sizes, each with a short caption on how to read it. */
void ps_report_trace_pictures(FILE *f, const ps_trace *t);

/* A fragment that draws nothing of its own: documents whose figures are in
 * the page's tables (machine models, published figures). */
int ps_report_nothing_html(FILE *f, const json_t *doc, const char *dir, const char *source);

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

/* A reader of files that are neither JSON nor a trace (a machine model:
 * the command line reads .ini files with the simulator's parser, a layer
 * above this one): a document of kind "machine", or NULL with err. */
typedef json_t *(*ps_report_reader)(const char *path, char *err, size_t errlen);

typedef struct ps_report_opts {
    const ps_report_kind *kinds;   /* the fragments, by document kind */
    const char *output;            /* NULL: DIR/report.html for a single directory, else report.html; '-': stdout */
    const char *title;             /* NULL: from the documents */
    const char *reference;         /* Table 2's reference machine (NULL: the fastest) */
    const char *reader_suffix;     /* files ending so go to reader (".ini") */
    ps_report_reader reader;
    int quiet;                     /* do not say what was written */
} ps_report_opts;

/* The page (page.c) from paths: result JSON files, traces, machine files
 * (through the reader) and directories (every document in them and one
 * level of subdirectories, in the table's order).  The page reads top-down:
 * a summary of the headline findings, the contents, the machines side by
 * side (the LOOP seed's Tables 1-3, r / g / l), execution time against P,
 * then each document's section, and the inputs.  0, or 2 with err (nothing
 * written). */
int ps_report_page(char *const *paths, int n, const ps_report_opts *o, char *err, size_t errlen);

/* The headline of a document (headline.c): sentences appended to list (a
 * JSON array of strings): a run's time and shares, a prediction's curve, a
 * characterization's bottleneck, a probe's figures, a sweep's and a
 * white-box breakdown's conclusions, and any "findings" the document
 * carries itself (strings, or records {text, verdict, ...}: only those whose
 * verdict is "finding" make the headline). */
void ps_report_findings(json_t *list, const json_t *doc);

/* With many results on one page each run's and prediction's sheets are
 * folded (<details>) under a one-line headline; page.c says so. */
void ps_report_set_compact(int compact);

#endif /* PS_REPORT_H */
