/*
 * check.h - the unit tests' checks.  CHECK(cond) or CHECK(cond, fmt, ...):
 * a failed check is reported with its file, line, condition and optional
 * message, and counted in `failures`; main returns failures ? 1 : 0.
 */
#ifndef PS_TEST_CHECK_H
#define PS_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int failures;

static void ps__check_failed(const char *file, int line, const char *cond, const char *fmt, ...)
{
    fprintf(stderr, "FAIL %s:%d: %s", file, line, cond);
    if (fmt && *fmt) {
        va_list ap;
        va_start(ap, fmt);
        fputs(": ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    failures++;
}

#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        if (!(cond)) ps__check_failed(__FILE__, __LINE__, #cond, "" __VA_ARGS__); \
    } while (0)

#endif
