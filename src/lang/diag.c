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

/* The length of the valid UTF-8 sequence at s (at most n bytes), 0 if the
 * bytes there are not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (!k || k > n) return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    return k;
}

/* Copies n bytes of s into out (room for outlen), printable: control bytes
 * and bytes that are not UTF-8 become '?', tabs stay. */
static size_t printable(const char *s, size_t n, char *out, size_t outlen)
{
    size_t t = 0;
    for (size_t i = 0; i < n && t + 5 < outlen;) {
        unsigned char ch = (unsigned char)s[i];
        size_t k = ch >= 0x80 ? utf8_len((const unsigned char *)s + i, n - i) : 1;
        if (ch >= 0x80 && k) {
            memcpy(out + t, s + i, k);
            t += k;
            i += k;
            continue;
        }
        out[t++] = (ch < 32 && ch != '\t') || ch == 127 || ch >= 0x80 ? '?' : (char)ch;
        i++;
    }
    out[t] = 0;
    return t;
}

/* "PATH:LINE:COL: KIND: MSG", the offending line (tabs kept so the caret
 * lines up under them) and the caret.  Of a long line, the part around the
 * column is shown, marked "..."; a character of several bytes is one place.
 * Without a source (d->src NULL) the first line alone. */
static void format(const ps_diag *d, const char *kind, int line, int col, const char *msg, char *out, size_t outlen)
{
    if (!d->src) { /* no text (a file that could not be read): the first line only */
        char safe[1024];
        printable(msg, strlen(msg), safe, sizeof safe);
        snprintf(out, outlen, "%.1000s:%d:%d: %s: %s\n", d->path, line, col, kind, safe);
        return;
    }
    size_t p = 0;
    for (int l = 1; l < line && p < d->len; p++)
        if (d->src[p] == '\n') l++;
    size_t e = p;
    while (e < d->len && d->src[e] != '\n' && d->src[e] != '\r') e++;
    size_t at = col > 1 ? (size_t)col - 1 : 0; /* the column's byte in the line */
    if (at > e - p) at = e - p;
    size_t from = at > 300 ? at - 200 : 0;     /* the first byte shown */
    while (from > 0 && from < e - p && ((unsigned char)d->src[p + from] & 0xC0) == 0x80) from++;
    size_t shown = e - p - from > 400 ? 400 : e - p - from;
    while (shown > 0 && p + from + shown < e && ((unsigned char)d->src[p + from + shown] & 0xC0) == 0x80) shown--;
    char caret[512];
    size_t c = 0;
    if (from) {
        memcpy(caret, "   ", 3);
        c = 3;
    }
    for (size_t i = from; i < at && c + 2 < sizeof caret && i < from + shown; i++) {
        unsigned char ch = (unsigned char)d->src[p + i];
        if ((ch & 0xC0) == 0x80 && i > from) continue; /* inside a character */
        caret[c++] = ch == '\t' ? '\t' : ' ';
    }
    caret[c++] = '^';
    caret[c] = 0;
    char text[2048];
    printable(d->src + p + from, shown, text, sizeof text);
    char safe[1024];
    printable(msg, strlen(msg), safe, sizeof safe);
    snprintf(out, outlen, "%.1000s:%d:%d: %s: %s\n %s%s%s\n %s\n", d->path, line, col, kind, safe, from ? "..." : "",
             text, from + shown < e - p ? "..." : "", caret);
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
