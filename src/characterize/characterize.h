/*
 * characterize.h - the characterization's summary: read back from the files
 * its steps wrote, printed, drawn at the top of the report, and compared
 * across machines (parscope report DIR1 DIR2 ...).
 */
#ifndef PS_CHARACTERIZE_H
#define PS_CHARACTERIZE_H

#include <jansson.h>
#include <stdio.h>

typedef struct ps_characterize_step {
    const char *name;
    int         status;   /* -1 not run, 0 ok, else failed */
    double      seconds;
    const char *message;
} ps_characterize_step;

/* The summary document ("kind": "characterize") from DIR's files; load is
 * the 1-minute load average before the characterization began (NAN if
 * unknown). */
json_t *ps_characterize_summary(const char *dir, int ranks, double budget, double elapsed,
                                const ps_characterize_step *steps, int nsteps, int interrupted, double load);

/* The summary as text. */
void ps_characterize_print(const json_t *summary, FILE *f);

/* The summary as an HTML <section> (the report's first). */
int ps_characterize_report_html(const json_t *summary, FILE *out);

/* Several characterizations side by side: the BSP seed's table of r, g, l
 * per machine and the LOOP seed's Table 2 (slowdown against the first). */
int ps_characterize_compare_html(json_t *const *summaries, int n, FILE *out);

#endif
