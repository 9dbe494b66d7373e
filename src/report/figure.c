/* figure.c - a measured figure as text (see figure.h). */
#include "report/figure.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ps_vfig(char *buf, size_t len, const char *fmt, va_list ap)
{
    va_list peek;
    va_copy(peek, ap);
    double v = va_arg(peek, double);
    va_end(peek);
    if (isfinite(v)) vsnprintf(buf, len, fmt, ap);
    else snprintf(buf, len, "-");
    return buf;
}

const char *ps_fig(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ps_vfig(buf, len, fmt, ap);
    va_end(ap);
    return buf;
}

const char *ps_fig_pm(char *buf, size_t len, double rel)
{
    /* two digits where it is small ("0.52%"), whole per cent above ten ("155%", not "1.6e+02%") */
    if (!isfinite(rel)) {
        if (len) buf[0] = '\0';
    } else if (100 * rel < 10) {
        snprintf(buf, len, " +/- %.2g%%", 100 * rel);
    } else {
        snprintf(buf, len, " +/- %.0f%%", 100 * rel);
    }
    return buf;
}

int ps_fig_pct_digits(double effect, double noise, int least)
{
    int d = least < 0 ? 0 : least;
    if (!isfinite(effect) || !isfinite(noise)) return d;
    for (char x[48], y[48]; d < 2; d++) {
        snprintf(x, sizeof x, "%.*f", d, 100 * fabs(effect));
        snprintf(y, sizeof y, "%.*f", d, 100 * noise);
        /* told apart (unless they are equal), and a noise that is not nothing not printed as "0%" */
        if ((strcmp(x, y) || fabs(effect) == noise) && (noise <= 0 || strtod(y, NULL) != 0)) break;
    }
    return d;
}
