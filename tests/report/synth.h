/* synth.h - synthetic traces with known figures for the output tests and
 * the export/report benchmark. */
#ifndef PS_TEST_SYNTH_H
#define PS_TEST_SYNTH_H

#include "trace/trace.h"

/* 3 ranks, 6 messages, a VISIBLE_SYNC before and after one multi-broadcast,
 * a barrier, a posted receive, a data movement and a section whose name
 * needs escaping.  Times: 1000 s + milliseconds.  Known activity totals
 * (ms) of rank 0: busy 8.0, overhead 1.1, idle 0.9 (see synth.c). */
ps_trace *synth_small(void);

/* P ranks, `rounds` rounds of compute + ring send + receive (3 events per
 * rank per round), a VISIBLE_SYNC every `sync_every` rounds (0: never),
 * 10 us per round; every message has `bytes` bytes. */
ps_trace *synth_ring(int P, long rounds, long sync_every, uint64_t bytes);

#endif
