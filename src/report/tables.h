/*
 * tables.h - results side by side, from any set of documents: the LOOP
 * seed's Tables 1, 2 and 3 (seed 000, section 6), the estimator seed's
 * execution time against P, predicted and measured (seed 003, Figures 2-5),
 * and the BSP seed's table of r, g and l per machine (seed 004).
 *
 * Every run and prediction on the page (single documents, "points", and the
 * measured runs a prediction with --compare carries) is one observation:
 * a machine (a measured run's host and interconnect, or a prediction's
 * model), a configuration (workload, processors, problem size, iterations)
 * and an execution time (the figure the document uses: best of the trials
 * unless it says median).  Observations of one machine and configuration
 * keep the fastest, except that a prediction's own measured run stands for
 * its machine and configuration: a page compares a prediction with the run it
 * was compared with (predict --compare, a characterization's summary), one
 * figure for one comparison.
 *
 *   Table 1  configurations every machine has: the execution times;
 *   Table 2  the same as slowdowns against a reference machine (the fastest
 *            overall unless --reference names one), as the seed's "Paragon
 *            seconds";
 *   Table 3  configurations only some machines have (the seed's 64 and 128
 *            nodes): times and slowdowns where there are;
 *   and, with a document of published figures (kind "published", e.g.
 *   docs/seed/loop_tables.json), each published cell beside the prediction
 *   of the machine model that stands for it, with their ratio.
 */
#ifndef PS_TABLES_H
#define PS_TABLES_H

#include <jansson.h>
#include <stdio.h>

typedef struct ps_tables ps_tables;

/* The observations of docs (any kinds; those that are not results add
 * nothing, except "machine", "probe" and "characterize" documents to the
 * r, g, l table and "published" ones to the comparison). */
ps_tables *ps_tables_build(json_t *const *docs, int n);
void ps_tables_free(ps_tables *t);

/* Chooses Table 2's reference machine by name (case-insensitive; a name
 * that is part of exactly one machine's name, or a model's file name, will
 * do).  0, or -1 with err listing the machines. */
int ps_tables_set_reference(ps_tables *t, const char *name, char *err, size_t errlen);

/* Nonzero when there is something to draw: Tables 1-3 need two machines,
 * the r, g, l table a machine file or two machines with BSP figures. */
int ps_tables_have_seed_tables(const ps_tables *t);
int ps_tables_have_scaling(const ps_tables *t);

/* The sections: "The LOOP seed's tables" (Tables 1-3, the published
 * comparison, r / g / l and the machine models) and "Execution time against
 * P" (one figure of time and one of speedup per workload, every machine's
 * measured and predicted curve on it, and predicted against measured where
 * both exist). */
void ps_tables_html(FILE *f, const ps_tables *t);
void ps_tables_scaling_html(FILE *f, const ps_tables *t);

/* Headline findings for the page's summary: short sentences appended to
 * `list` (a JSON array of strings). */
void ps_tables_findings(const ps_tables *t, json_t *list);

/* How many configurations have a measured time (predicted 0), or a
 * predicted one (predicted 1). */
int ps_tables_configurations(const ps_tables *t, int predicted);

#endif /* PS_TABLES_H */
