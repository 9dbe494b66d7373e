/*
 * clock.h - the clock model: offsets between ranks' clocks from ping-pongs.
 *
 * A sample is one ping-pong seen from rank r: ta (r's clock, send), tb (rank
 * 0's clock when it replied), tc (r's clock, reply received).  If the two
 * legs take equal time, r's clock at the midpoint (ta+tc)/2 corresponds to
 * tb, so offset = (ta+tc)/2 - tb, with an error of at most (tc-ta)/2; the
 * sample with the smallest round trip bounds the error best.  Two estimates
 * (start and end of the run) give a linear drift model.
 */
#ifndef PS_CLOCK_H
#define PS_CLOCK_H

typedef struct ps_clock_sample { double ta, tb, tc; } ps_clock_sample;
typedef struct ps_clock_est { double mid, offset, rtt; } ps_clock_est;
typedef struct ps_clock_model { double m0, o0, drift; } ps_clock_model;

/* The estimate from the sample with the smallest round trip. */
ps_clock_est ps_clock_best(const ps_clock_sample *s, int n);
/* Linear model through two estimates (drift 0 if they coincide in time). */
ps_clock_model ps_clock_fit(ps_clock_est start, ps_clock_est end);
/* Local time to global time. */
double ps_clock_global(const ps_clock_model *m, double local);

#endif
