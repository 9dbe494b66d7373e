/*
 * runner.c - runs a folder's unit tests (its test_list.h, see check.h).
 *
 *   unit_FOLDER NAME...   runs those tests
 *   unit_FOLDER           runs every test, in the list's order
 *   unit_FOLDER --list    prints the names
 *
 * Prints "ok NAME" or "FAIL NAME (N failed checks)" per test.  Exit status 0
 * when every test passed, 1 when one failed, 2 for a name not in the list.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"

int failures;

static const struct {
    const char *name;
    void (*fn)(void);
} tests[] = {
#define TEST_ENTRY(name) {#name, ps_test_##name},
#include "test_list.h"
#undef TEST_ENTRY
};
enum { NTESTS = sizeof tests / sizeof tests[0] };

static int run(int i)
{
    failures = 0;
    tests[i].fn();
    fflush(NULL);
    if (failures) fprintf(stderr, "FAIL %s (%d failed check%s)\n", tests[i].name, failures, failures == 1 ? "" : "s");
    else printf("ok %s\n", tests[i].name);
    fflush(NULL);
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < NTESTS; i++) puts(tests[i].name);
        return 0;
    }
    int failed = 0;
    if (argc < 2) {
        for (int i = 0; i < NTESTS; i++) failed += run(i);
    } else {
        for (int a = 1; a < argc; a++) {
            int i = 0;
            while (i < NTESTS && strcmp(tests[i].name, argv[a]) != 0) i++;
            if (i == NTESTS) {
                fprintf(stderr, "%s: no test named '%s' (--list shows them)\n", argv[0], argv[a]);
                return 2;
            }
            failed += run(i);
        }
    }
    if (failed && argc != 2) fprintf(stderr, "%d test%s failed\n", failed, failed == 1 ? "" : "s");
    return failed ? 1 : 0;
}
