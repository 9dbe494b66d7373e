/* clock.c - the clock model (see clock.h). */
#include "runtime/clock.h"

#include <math.h>

ps_clock_est ps_clock_best(const ps_clock_sample *s, int n)
{
    ps_clock_est e = {0, 0, INFINITY};
    for (int i = 0; i < n; i++) {
        double rtt = s[i].tc - s[i].ta;
        if (rtt >= 0 && rtt < e.rtt) {
            e.rtt = rtt;
            e.mid = 0.5 * (s[i].ta + s[i].tc);
            e.offset = e.mid - s[i].tb;
        }
    }
    if (!isfinite(e.rtt)) e.rtt = 0;
    return e;
}

ps_clock_model ps_clock_fit(ps_clock_est start, ps_clock_est end)
{
    ps_clock_model m = {start.mid, start.offset, 0};
    if (end.mid > start.mid) m.drift = (end.offset - start.offset) / (end.mid - start.mid);
    return m;
}

double ps_clock_global(const ps_clock_model *m, double local)
{
    return local - (m->o0 + m->drift * (local - m->m0));
}
