/* diag.c - compiler-style diagnostics (see diag.h). */
#include "lang/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ps_diag_init(ps_diag *d, const char *path, const char *src, size_t len)
{
    memset(d, 0, sizeof *d);
    d->path = path ? path : "<input>";
    d->src = src;
    d->len = len;
}

int ps_diag_error(ps_diag *d, int line, int col, const char *fmt, ...)
{
    if (d->failed) return 2;
    d->failed = 1;
    d->line = line;
    d->col = col;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);

    /* the offending line, tabs kept so the caret lines up under them */
    size_t p = 0;
    for (int l = 1; l < line && p < d->len; p++)
        if (d->src[p] == '\n') l++;
    size_t e = p;
    while (e < d->len && d->src[e] != '\n' && d->src[e] != '\r') e++;
    size_t shown = e - p > 400 ? 400 : e - p;
    char caret[512];
    size_t c = 0;
    for (int i = 1; i < col && c + 2 < sizeof caret && (size_t)(i - 1) < shown; i++)
        caret[c++] = d->src[p + (size_t)i - 1] == '\t' ? '\t' : ' ';
    caret[c++] = '^';
    caret[c] = 0;
    char text[512];
    size_t t = 0;
    for (size_t i = 0; i < shown && t + 1 < sizeof text; i++) {
        unsigned char ch = (unsigned char)d->src[p + i];
        text[t++] = (ch < 32 && ch != '\t') || ch == 127 ? '?' : (char)ch;
    }
    text[t] = 0;
    snprintf(d->msg, sizeof d->msg, "%.1000s:%d:%d: error: %s\n %s\n %s\n", d->path, line, col, msg, text,
             caret);
    return 2;
}
