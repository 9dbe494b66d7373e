/*
 * check.h - how a unit test is written.
 *
 * A folder's C unit tests are functions, each written
 *
 *     TEST_IMPL(name) { ... CHECK(cond); CHECK(cond, fmt, ...); ... }
 *
 * and listed, one line TEST_ENTRY(name) each, in the folder's test_list.h.
 * One runner (tests/common/runner.c) runs them by name, and the build makes
 * each a CTest test of its own, unit.FOLDER.NAME (ps_unit_tests in
 * tests/CMakeLists.txt), so a failure names its test.  A TEST_IMPL missing
 * from the list has no prototype: -Wmissing-prototypes says so.
 *
 * A failed CHECK is reported with its file, line, condition and optional
 * message and counted in `failures`; the test goes on, and fails at its end.
 */
#ifndef PS_TEST_CHECK_H
#define PS_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

/* Failed checks of the test that runs (defined by the runner). */
extern int failures;

static inline void ps__check_failed(const char *file, int line, const char *cond, const char *fmt, ...)
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

#define TEST_IMPL(name) void ps_test_##name(void)

/* the folder's tests, declared */
#ifndef PS_TEST_NO_LIST
#define TEST_ENTRY(name) TEST_IMPL(name);
#include "test_list.h"
#undef TEST_ENTRY
#endif

#endif
