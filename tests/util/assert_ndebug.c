/* assert_ndebug.c - PS_ASSERT in a release build (NDEBUG): compiled, not
 * evaluated, so an invariant costs nothing and a broken one goes unseen. */
#ifndef NDEBUG
#define NDEBUG
#endif
#include "util/assert.h"

#include "check.h"

static int calls;

static int count_call(void)
{
    return ++calls;
}

TEST_IMPL(assert_compiled_out)
{
    PS_ASSERT(count_call() == 5);
    PS_ASSERT(0);
    CHECK(calls == 0, "the condition ran %d time(s)", calls);
}
