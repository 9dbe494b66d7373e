/*
 * diag.h - compiler-style diagnostics for LOOP programs:
 *
 *   FILE:LINE:COL: error: MESSAGE
 *    offending source line
 *        ^
 */
#ifndef PS_LANG_DIAG_H
#define PS_LANG_DIAG_H

#include <stddef.h>

typedef struct ps_diag {
    const char *path;   /* as the user named it */
    const char *src;
    size_t      len;
    int         failed;
    int         line, col;
    char        msg[4096];   /* the whole formatted diagnostic (3 lines) */
} ps_diag;

void ps_diag_init(ps_diag *d, const char *path, const char *src, size_t len);
/* Records the first error (later ones are ignored); returns 2. */
int ps_diag_error(ps_diag *d, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
