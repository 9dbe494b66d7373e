/* test_list.h - the launch folder's unit tests (tests/common/check.h). */
TEST_ENTRY(meta_schema)
TEST_ENTRY(hwinfo_agrees)
TEST_ENTRY(meta_old_keys)
TEST_ENTRY(mpi_library_name)
TEST_ENTRY(machine_meta_for_trace)
TEST_ENTRY(template_words)
TEST_ENTRY(template_rank_hosts)
TEST_ENTRY(template_expand)
