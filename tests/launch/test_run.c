/* test_run.c - the rule --auto-trials stops by: the best two successful
 * trials' gap over the best within the target (failed trials, NAN, left out). */
#include <math.h>

#include "launch/run.h"

#include "check.h"

TEST_IMPL(run_times_agree)
{
    const double t1[] = {1.0, 1.04};
    CHECK(ps_run_times_agree(t1, 2, 0.05), "4%% apart agrees within 5%%");
    const double t2[] = {1.0, 1.06};
    CHECK(!ps_run_times_agree(t2, 2, 0.05), "6%% apart does not");
    /* the best two of many, in any order: 1.0 and 1.049 */
    const double t3[] = {2.0, 1.049, 1.7, 1.0};
    CHECK(ps_run_times_agree(t3, 4, 0.05));
    CHECK(!ps_run_times_agree(t3, 4, 0.04), "4.9%% is beyond 4%%");
    /* a failed trial is no time */
    const double t4[] = {NAN, 1.0, NAN, 1.03};
    CHECK(ps_run_times_agree(t4, 4, 0.05));
    const double t5[] = {NAN, 1.0, NAN};
    CHECK(!ps_run_times_agree(t5, 3, 0.05), "one successful trial agrees with nothing");
    CHECK(!ps_run_times_agree(t5, 0, 0.05), "no trial");
    /* the rule is the best two's: a third far away does not matter, a best far below does */
    const double t6[] = {1.0, 1.5, 1.52};
    CHECK(!ps_run_times_agree(t6, 3, 0.05), "1.5 and 1.52 agree but 1.0 is the best");
}
