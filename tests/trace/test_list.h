/* test_list.h - the trace folder's unit tests (tests/common/check.h). */
TEST_ENTRY(sheet)
TEST_ENTRY(barrier_idle)
TEST_ENTRY(roundtrip)
TEST_ENTRY(match_fifo)
TEST_ENTRY(clock_model)
TEST_ENTRY(requests)
TEST_ENTRY(json_num)
TEST_ENTRY(random_skip)
