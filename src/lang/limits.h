/*
 * limits.h - constructs' literal arguments checked when a program is
 * generated: \MULTIBCAST0(-500) or \WORK(1e300) is refused with FILE:LINE:COL
 * (exit status 2) before anything is compiled or run.  Arguments computed
 * at run time are checked by the runtime (src/runtime/limits.c), with the
 * same limits (util/limits.h).
 */
#ifndef PS_LANG_LIMITS_H
#define PS_LANG_LIMITS_H

#include <stddef.h>

/* Argument argi (0-based) of a construct of kind (PS_K_*), as written: 0
 * when it is not a literal number or is one in range, else -1 with why. */
int ps_lang_literal_check(int kind, int argi, const char *text, char *why, size_t len);

#endif
