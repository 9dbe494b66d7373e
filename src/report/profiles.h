/*
 * profiles.h - ParaGraph's summary displays as SVG, computed from a trace
 * and its activity timeline (activity.h):
 *
 *   utilisation over time - how many ranks are busy / overhead / idle in each
 *                           time bin (a stacked area; the three add up to P);
 *   concurrency profile   - the share of the run during which exactly k ranks
 *                           were busy, k = 0..P;
 *   per-rank utilisation  - one stacked bar per rank, in percent;
 *   communication matrix  - bytes sent from rank i (row) to rank j (column);
 *   message sizes         - a histogram of message sizes in powers of two.
 */
#ifndef PS_PROFILES_H
#define PS_PROFILES_H

#include <stdint.h>
#include <stdio.h>

#include "report/activity.h"
#include "trace/trace.h"

#define PS_PROFILE_BINS 400  /* time bins of the utilisation profile */

/* Average number of ranks in each class per time bin: out[bin * 3 + act]. */
void ps_profile_utilisation(const ps_timeline *tl, int nbins, double *out);
/* Seconds during which exactly k ranks were busy: out[k], k = 0..nranks. */
void ps_profile_concurrency(const ps_timeline *tl, double *out);
/* Bytes and messages sent from i to j: bytes[i * P + j], count[i * P + j]
 * (PS_EV_SEND events; either array may be NULL). */
void ps_comm_matrix(const ps_trace *t, uint64_t *bytes, uint64_t *count);
/* Messages per size class: hist[0] = empty messages, hist[k] = sizes in
 * [2^(k-1), 2^k); 65 classes. */
#define PS_SIZE_CLASSES 65
void ps_message_sizes(const ps_trace *t, uint64_t hist[PS_SIZE_CLASSES]);

void ps_profile_utilisation_svg(FILE *f, const ps_timeline *tl, double width);
void ps_profile_concurrency_svg(FILE *f, const ps_timeline *tl, double width);
void ps_rank_bars_svg(FILE *f, const ps_timeline *tl, double width);
void ps_comm_matrix_svg(FILE *f, const ps_trace *t, double width);
void ps_message_sizes_svg(FILE *f, const ps_trace *t, double width);

#endif /* PS_PROFILES_H */
