/*
 * findings.h - automatic conclusions that respect the noise of the run that
 * produced them (docs/SCALE.md "Automatic conclusions"; whitebox and
 * characterize use the same records).
 *
 * Every conclusion is a record
 *
 *   {id, text, effect, noise, unit, verdict, numbers}
 *
 * effect: the size of what the conclusion is about (a relative difference,
 * an efficiency loss, a share), noise: how large a difference the same run
 * produces by chance, in the same unit (from the trials' spread, identical
 * configurations measured twice, the machine's interference).  verdict is
 * "finding" only when |effect| > noise; otherwise "within-noise", and the text
 * says that this cannot be told at this noise level and what would tell it.
 * A noise that could not be measured (one trial) is null: within-noise.
 * "untestable" marks a conclusion the run cannot reach at all (node order
 * with every rank on one host); its text says so.
 */
#ifndef PS_FINDINGS_H
#define PS_FINDINGS_H

#include <jansson.h>
#include <stdio.h>

/* Appends a record to arr.  claim: the sentence when the effect is larger
 * than the noise; question: what cannot be told otherwise (a clause such as
 * "whether integer arithmetic is slower than float"), the record's text then
 * being "<question>: cannot tell at this noise level (effect x, noise y); <how>".
 * how (may be NULL): what to do, default "run more trials (--trials) or on a
 * quieter machine".  numbers (taken over; may be NULL): the figures behind it.
 * unit: "relative" (fractions, printed as %) or "efficiency" (absolute
 * fractions of 1, printed as percentage points).  Returns the record. */
json_t *ps_finding_add(json_t *arr, const char *id, double effect, double noise, const char *unit, json_t *numbers,
                       const char *claim, const char *question, const char *how);

/* A record that is a finding by construction (a flag on an impossible value,
 * say) only when |effect| > noise, with its own text either way. */
json_t *ps_finding_add_text(json_t *arr, const char *id, double effect, double noise, const char *unit,
                            json_t *numbers, const char *text_finding, const char *text_within);

/* Nonzero when the record is a finding. */
int ps_finding_is(const json_t *rec);

/* The record of an array whose "id" is id, or NULL. */
json_t *ps_finding_by_id(const json_t *arr, const char *id);

/* Conclusions that cannot both hold (pairs of ids, NULL-terminated list of
 * pairs): when both are findings, both become within-noise and say so.
 * Returns how many records were changed. */
int ps_findings_reconcile(json_t *arr, const char *const (*exclusive)[2]);

/* Checks the rules on an array of records: every finding has |effect| >
 * noise, no exclusive pair are both findings, every within-noise or
 * untestable text says "cannot tell".  0, or -1 with the first violation in
 * err. */
int ps_findings_check(const json_t *arr, const char *const (*exclusive)[2], char *err, size_t errlen);

/* Text: "  - [verdict] text" per record. */
void ps_findings_print(const json_t *arr, FILE *out);

#endif
