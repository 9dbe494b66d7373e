/*
 * source.h - reading a .loop file for the generator.
 *
 * Every failure is a diagnostic in the compiler's form, FILE:LINE:COL:
 * error: ..., like the errors in the program's text: a file that cannot be
 * opened or read, a directory, a file larger than PS_LANG_MAX_SOURCE.  A NUL
 * byte is the lexer's to report (at its place), so reading stops at the
 * block that holds the first one (/dev/zero is refused at once, not read
 * until memory runs out).
 */
#ifndef PS_LANG_SOURCE_H
#define PS_LANG_SOURCE_H

#include <stddef.h>

/* The largest .loop file read: 32 MiB (a program is a few kilobytes; lines
 * and columns are ints). */
#define PS_LANG_MAX_SOURCE ((size_t)32 << 20)

/* The text of path (NUL-terminated, *len bytes without the terminator), or
 * NULL with the diagnostic in err, naming the file as shown (path when
 * NULL). */
char *ps_lang_read_source(const char *path, const char *shown, size_t *len, char *err, size_t errlen);

#endif
