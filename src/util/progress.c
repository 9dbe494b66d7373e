/* progress.c - the progress line (see progress.h). */
#include "util/progress.h"

#include <math.h>
#include <stdarg.h>
#include <unistd.h>

#include "util/util.h"

void ps_progress_begin(ps_progress *p, int total, int quiet)
{
    p->out = stderr;
    p->on = !quiet && isatty(STDERR_FILENO);
    p->done = 0;
    p->total = total;
    p->t0 = ps_clock();
    p->budget = 0;
    p->shown = 0;
}

/* M:SS, or H:MM:SS from an hour on */
static void clock_text(char *b, size_t n, double s)
{
    if (!isfinite(s) || s < 0) s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(b, n, "%ld:%02ld", t / 60, t % 60);
}

void ps_progress_format(const ps_progress *p, double now, const char *what, char *buf, size_t len)
{
    double el = now - p->t0;
    char e[32], eta[32] = "?";
    clock_text(e, sizeof e, el);
    if (p->budget > 0) clock_text(eta, sizeof eta, p->budget - el);
    else if (p->done > 0) clock_text(eta, sizeof eta, el / p->done * (p->total - p->done));
    int k = p->done < p->total ? p->done + 1 : p->total;
    snprintf(buf, len, "[%d/%d] %s  elapsed %s  ETA %s", k, p->total, what, e, eta);
}

void ps_progress_show(ps_progress *p, const char *fmt, ...)
{
    if (!p->on) return;
    char what[256], line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    ps_progress_format(p, ps_clock(), what, line, sizeof line);
    fprintf(p->out, "\r\033[K%s", line);
    fflush(p->out);
    p->shown = 1;
}

void ps_progress_step(ps_progress *p) { p->done++; }

void ps_progress_clear(ps_progress *p)
{
    if (!p->on || !p->shown) return;
    fputs("\r\033[K", p->out);
    fflush(p->out);
    p->shown = 0;
}

void ps_progress_end(ps_progress *p)
{
    ps_progress_clear(p);
    p->on = 0;
}
