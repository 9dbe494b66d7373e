/* test_list.h - the emulate folder's unit tests (tests/common/check.h). */
TEST_ENTRY(emulate_rates)
TEST_ENTRY(emulate_bytes)
TEST_ENTRY(emulate_burst)
TEST_ENTRY(emulate_option_messages)
TEST_ENTRY(emulate_cores)
