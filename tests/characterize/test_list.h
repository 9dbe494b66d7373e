/* test_list.h - the characterize folder's unit tests (tests/common/check.h). */
TEST_ENTRY(failed_fit_text)
TEST_ENTRY(failed_fit_html)
TEST_ENTRY(budget_overrun)
TEST_ENTRY(prediction_flags)
TEST_ENTRY(prediction_model_doubts)
TEST_ENTRY(bottleneck_near_noise)
TEST_ENTRY(bottleneck_below_bound)
