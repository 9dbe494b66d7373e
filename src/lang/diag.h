/*
 * diag.h - compiler-style diagnostics for LOOP programs:
 *
 *   FILE:LINE:COL: error: MESSAGE
 *    offending source line
 *        ^
 *
 * and notes in the same form (FILE:LINE:COL: note: ...): what the generator
 * decided but wants the user to know (docs/LANGUAGE.md, "White-box variants").
 */
#ifndef PS_LANG_DIAG_H
#define PS_LANG_DIAG_H

#include <stddef.h>

typedef struct ps_diag_entry {
    int   line, col;
    char *msg;          /* the message alone */
} ps_diag_entry;

typedef struct ps_diag {
    const char *path;   /* as the user named it */
    const char *src;
    size_t      len;
    int         failed;
    int         line, col;
    char        msg[4096];   /* the whole formatted diagnostic (3 lines) */
    ps_diag_entry *notes;    /* in the order they were made */
    int           nnotes;
    char         *notes_text; /* every note formatted as above, or NULL */
} ps_diag;

/* src NULL: no text to show (the file could not be read); an error is then
 * its first line alone. */
void ps_diag_init(ps_diag *d, const char *path, const char *src, size_t len);
/* Frees the notes (the error needs no freeing). */
void ps_diag_free(ps_diag *d);
/* Records the first error (later ones are ignored); returns 2. */
int ps_diag_error(ps_diag *d, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Records a note (a note at a line and column already noted is ignored). */
void ps_diag_note(ps_diag *d, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
