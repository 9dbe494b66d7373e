/* test_list.h - the util folder's unit tests (tests/common/check.h). */
TEST_ENTRY(assert_fails_loudly)
TEST_ENTRY(assert_holds)
TEST_ENTRY(assert_compiled_out)
TEST_ENTRY(stats_order_statistics)
TEST_ENTRY(stats_median_interval)
