/*
 * sheetpage.h - the LOOP seed's standard result sheets (§6.2 and Appendix)
 * as HTML, from a run's or a prediction's result document (result.h):
 *
 *   page 1: Evaluated problem (workload and parameters), Hardware (the
 *           machine meta), Main results (execution time, percent busy /
 *           overhead / idle, average send and receive times), and the
 *           per-processor summary;
 *   page 2: Statistics (messages and bytes sent and received, average /
 *           minimum / maximum send and receive times, message queue lengths
 *           where the trace knows them, unmatched and lost events).
 *
 * Missing keys are shown as "-", never as zero.
 */
#ifndef PS_SHEETPAGE_H
#define PS_SHEETPAGE_H

#include <jansson.h>
#include <stdio.h>

/* Writes the two pages as <div class="sheet"> blocks inside the caller's
 * section. */
void ps_sheet_page_html(FILE *f, const json_t *doc);

#endif /* PS_SHEETPAGE_H */
