/* test_list.h - the whitebox folder's unit tests (tests/common/check.h). */
TEST_ENTRY(stats)
TEST_ENTRY(model)
TEST_ENTRY(breakdown)
TEST_ENTRY(negative)
TEST_ENTRY(out_of_order)
TEST_ENTRY(no_nan)
