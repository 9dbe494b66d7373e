/* diag.c - compiler-style diagnostics (see diag.h). */
#include "lang/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void ps_diag_init(ps_diag *d, const char *path, const char *src, size_t len)
{
    memset(d, 0, sizeof *d);
    d->path = path ? path : "<input>";
    d->src = src;
    d->len = len;
}

void ps_diag_free(ps_diag *d)
{
    for (int i = 0; i < d->nnotes; i++) free(d->notes[i].msg);
    free(d->notes);
    free(d->notes_text);
    d->notes = NULL;
    d->notes_text = NULL;
    d->nnotes = 0;
}

/* "PATH:LINE:COL: KIND: MSG", the offending line (tabs kept so the caret
 * lines up under them) and the caret. */
static void format(const ps_diag *d, const char *kind, int line, int col, const char *msg, char *out, size_t outlen)
{
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
    snprintf(out, outlen, "%.1000s:%d:%d: %s: %s\n %s\n %s\n", d->path, line, col, kind, msg, text, caret);
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
    format(d, "error", line, col, msg, d->msg, sizeof d->msg);
    return 2;
}

void ps_diag_note(ps_diag *d, int line, int col, const char *fmt, ...)
{
    for (int i = 0; i < d->nnotes; i++)
        if (d->notes[i].line == line && d->notes[i].col == col) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->notes = ps_xrealloc(d->notes, (size_t)(d->nnotes + 1) * sizeof *d->notes);
    d->notes[d->nnotes++] = (ps_diag_entry){line, col, ps_xstrdup(msg)};
    char text[4096];
    format(d, "note", line, col, msg, text, sizeof text);
    size_t have = d->notes_text ? strlen(d->notes_text) : 0, add = strlen(text);
    d->notes_text = ps_xrealloc(d->notes_text, have + add + 1);
    memcpy(d->notes_text + have, text, add + 1);
}
