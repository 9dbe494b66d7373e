/* probe_int.h - the probe's internals: the rank-side measurements (they call
 * MPI directly: this is a measurement tool) and the per-part analyses. */
#ifndef PS_PROBE_INT_H
#define PS_PROBE_INT_H

#include <jansson.h>
#include <stdio.h>

#include "probe/probe.h"

/* Rank side: called on every rank of MPI_COMM_WORLD, collectively.  Rank 0
 * gets the round's measurements as JSON; the others get NULL. */
json_t *ps__pingpong_measure(const ps_probe_budget *b);
json_t *ps__hrelation_measure(const ps_probe_budget *b, int combined);

/* DAXPY: the vectors are set up once (ps__daxpy_setup, collective: rank 0's
 * caches decide the lengths) and measured each round. */
typedef struct ps__daxpy ps__daxpy;
ps__daxpy *ps__daxpy_setup(const ps_probe_budget *b);
json_t    *ps__daxpy_measure(ps__daxpy *d, const ps_probe_budget *b);
void       ps__daxpy_free(ps__daxpy *d);

/* Waits for the other ranks while using (almost) no CPU, so idle ranks do
 * not steal cores from the measuring ones when oversubscribed. */
void ps__quiet_barrier(void);

/* Analysis helpers shared by the parts (probe.c). */
json_t *ps__json_array_of(const double *v, int n);
void ps__warn(json_t *warnings, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
json_t *ps__fit_json(const ps_linfit *f, double h0, double h1, double r);

/* Per-part analyses: add their results to doc (pingpong, bsp) and warnings. */
int ps__pingpong_analyze(const json_t *raw_rounds, json_t *doc, json_t *warnings, char *err, size_t errlen);
int ps__hrelation_analyze(const json_t *raw_rounds, int p, double r, json_t *bsp, json_t *warnings, char *err,
                          size_t errlen);
int ps__daxpy_analyze(const json_t *raw_rounds, json_t *bsp, json_t *warnings);

/* Per-round figures (for the agreement of the rounds). */
int ps__pingpong_round_figures(const json_t *round, double *latency, double *bandwidth);
int ps__hrelation_round_fit(const json_t *round, int p, double *g_s, double *l_s);

/* Both directions at once at `bytes` (at most the ping-pong's largest size).
 * allow: the round's share of time for it; after the first call, a round
 * whose exchanges would take longer than that (a slow link) measures none and
 * every rank returns NULL. */
json_t *ps__duplex_measure(long bytes, double allow);
json_t *ps__pingpong_pair_measure(int partner);
/* The other pair's analysis: doc.pingpong_other from the rounds' own, if any. */
void ps__pingpong_other_analyze(const json_t *raw, json_t *doc);

/* LogGOPS (loggops.c): the parscope runtime is started on every rank
 * (collectively) before the rounds and ended after them; each round measures
 * ranks 0 and 1 through the runtime's own calls. */
int     ps__loggops_begin(void);
void    ps__loggops_end(void);
json_t *ps__loggops_measure(const ps_probe_budget *b);
/* Adds doc["loggops"] (the table, S, o_post, o_done, contention, progress,
 * bucket); -1 when the raw data hold no LogGOPS measurement. */
int     ps__loggops_analyze(const json_t *raw_rounds, json_t *doc, json_t *warnings);
void    ps__loggops_bucket_check(json_t *doc, json_t *warnings);
/* BSP's g on a shaped link (doc's loggops): h-relations that fit in the token
 * bucket measure its burst, not its rate; a g more than twice as fast as the
 * rate is said, with both (probe.c). */
void    ps__bsp_bucket_check(const json_t *doc, const json_t *bsp, json_t *warnings);
/* The summary's LogGOPS lines, and the report's table (nothing when doc has none). */
void    ps__loggops_print(const json_t *doc, FILE *out);
void    ps__loggops_html(const json_t *doc, FILE *out);
/* The blocking calls' figures of a LogGOPS row of `bytes`: a blocking send's
 * CPU time (osb: measured up to S, at most o_s + o_done; above S o_s) and a
 * blocking receive's for a message that arrived while it waited (orbin: what
 * the blocking ping-pong's half round trip leaves of itself after osb and L,
 * between 0 and o_r_in; above S_ack o_r_in).  osb_measured or half_block NAN
 * or infinite: not measured. */
void ps__loggops_blocking(double bytes, double S, double S_ack, double os, double orin, double o_done, double L,
                          double osb_measured, double half_block, double *osb, double *orbin);

/* What a message from data its sender has just written takes longer than one
 * from a buffer nothing writes, from the two blocking ping-pongs' half round
 * trips: their difference, 0 where it is within PS_PROBE_WRITTEN_NOISE of the
 * plain one (the rounds' noise, not a cost) or either is not measured. */
#define PS_PROBE_WRITTEN_NOISE 0.05
double  ps__loggops_written(double half_block, double half_written);

/* Fills m->lg from doc["loggops"] (nothing there: m->lg.n = 0). */
void    ps__loggops_model(const json_t *doc, int bus, ps_machine *m);
/* Does the model keep the other network for predict's second simulation (a
 * bus: nobus_contention, the other choice's contention; nobus: also_bus)?
 * When the exchange was neither clearly serial nor clearly free
 * (duplex.serial and duplex.free false), for one node's ranks (on several
 * the other choice would be a star of links), with a LogGOPS table, on a
 * link that is not shaped. */
int     ps__loggops_network_doubt(const json_t *doc, int nodes);
/* The token bucket from a stop-and-wait series of round trips (seconds) of
 * `chunk`-byte messages after an idle pause. */
void    ps__loggops_bucket(const double *rt, int n, double chunk, int *shaped, double *rate, double *burst);
/* A message's bytes in a shaped link's bucket beyond its payload, h, and the
 * tokens' rate, from two stop-and-wait series that waited for tokens: c0-byte
 * messages at t0 a round trip, c-byte ones at tc, each answered by 1 byte; a
 * bucket both directions share passes c + 1 + 2h a round trip, one per
 * direction c + h.  1, or 0 (h and rate 0) when the figures do not fit. */
int     ps__loggops_wire(double c0, double t0, double c, double tc, int shared, double *h, double *rate);
/* The bytes a message sent one way takes of a shaped link's bucket beyond
 * its payload and wire: a one-way stream of `bytes`-byte messages that
 * waited for tokens went at t a message, so each took rate * t; between 0
 * and wire (an acknowledgement has neither payload nor the runtime's
 * header: at most one per message, wire bytes). */
double  ps__loggops_oneway(double rate, double wire, double bytes, double t);
/* A shaped link: the bytes beyond its payload of a message written behind a backlog in the shaper
 * (merge_measure): at `rate`, t seconds for nb backlog messages of `backlog` bytes, k of `bytes`,
 * and a 1-byte answer, each message sent alone taking `wire` more; clamped to 0..wire, NAN
 * without a figure. */
double  ps__loggops_merged(double rate, double wire, double backlog, int nb, double bytes, int k, double t);
/* A shaped link's [crossing] rows (ascending sizes, "crossing" in seconds): each size's exchange is
 * one per round there (the best of the rounds), and a smaller message crosses no slower than a
 * larger one, so a size above a larger one's figure took a stall (16 bytes once read 19.7 us where
 * 1 and 128 bytes read 11.3 and 9.7, and butterfly's exchanges came out +27%): it takes the
 * smallest figure above it, its own kept as "crossing_measured". */
void    ps__loggops_crossing_floor(json_t *rows);
/* The round trip of a series that sends a chunk each way at once (is the bucket one for both
 * directions?): the median of each two neighbouring trips' mean.  One bucket for both passes the two
 * chunks of a trip one after the other, and its trips alternate long and short (under slownet
 * 100mbit 1.99 and 0.66 ms for 8 KiB at 12.2 MB/s): a median of the trips themselves falls between
 * the two, anywhere from one to the other as one trip moves (1.53 chunk times in one probe in twelve,
 * against 1.98, and the bucket was taken for one a direction). */
double  ps__loggops_both_ways_round_trip(const double *rt, int n);
/* The round trip whose tokens a small message of a stop-and-wait series takes: the time from the
 * end of its first trip that waited for tokens (near the median of those over twice the line's
 * round trip `line`) to the end of its last, over the trips between; a trip longer than `fill` (the
 * bucket's filling time) counts as `fill`.  The trips in that window (at least 16; else 0, tc 0). */
int     ps__loggops_wire_round_trip(const double *rt, int n, double line, double fill, double *tc);
/* 1 when that bucket's rate agrees (PS_PROBE_BUCKET_TOL) with a stream of
 * `bytes` that took t seconds through it; 0 otherwise (a series that stalled). */
int     ps__loggops_bucket_agrees(double rate, double burst, double bytes, double t);

#endif
