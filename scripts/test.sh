#!/usr/bin/env bash
# scripts/test.sh - builds parscope and runs every test, in five stages:
#   (warnings are errors in the normal, sanitizer and MPICH builds)
#   1. the normal build and the whole CTest suite but the tests that build an emulated cluster:
#      every test at full size, the timing tests (label "timing") alone (RUN_SERIAL);
#   2. the emulated cluster (label emulate_cluster, docs/EMULATE.md): parscope emulate's tests, one
#      at a time since they time links and round trips, each under its own time limit (they skip
#      without root, the ip and tc tools, or a build folder outside /tmp);
#   3. an AddressSanitizer + UndefinedBehaviorSanitizer build and the suite again, for memory and
#      undefined-behaviour errors in our C code (parsers, simulator, runtime instrumentation,
#      exporters, the emulated cluster's set-up and tear-down): all but the tests labelled
#      "timing" (they compare measured times, meaningless under sanitizers) and "browser"
#      (Chromium's layout of pages whose commands run under the sanitizers in other report
#      tests).  The tests see PS_TEST_SANITIZED=1 and PS_TEST_FEW_POINTS=1: the few that repeat
#      one check over a matrix of rank counts (sim_message_counts, lang_workloads_verify,
#      runtime_tree_order) take fewer points of it: the same assertions, the whole matrix having
#      run in stage 1;
#   4. every fuzz harness for a short time (PARSCOPE_FUZZ_SECONDS, default 15) with libFuzzer,
#      two at a time (scripts/fuzz.sh);
#   5. a build against MPICH (when mpicc.mpich is installed) and the tests that run MPI programs
#      (not sim_record_streams, which matches their pattern but records without MPI), with
#      PS_TEST_FEW_POINTS=1 as under the sanitizers: the matrices of rank counts, whole in stage 1,
#      at fewer points (MPICH starts a job in about 0.6 s here, Open MPI in 0.45 s).
# Stops at the first failure.  Set PARSCOPE_TEST_QUICK=1 to run only the first two.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${PARSCOPE_TEST_JOBS:-2}

echo "== build and test"
cmake -S . -B build -DPARSCOPE_WERROR=ON > /dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 300 -LE emulate_cluster

echo "== emulated cluster"
# serially: the tests time links and round trips, and a cluster's set-up is slow beside another's
ctest --test-dir build --output-on-failure -j1 --timeout 120 -L emulate_cluster
[ "${PARSCOPE_TEST_QUICK:-0}" = 1 ] && exit 0

echo "== sanitizer build (ASan + UBSan) and test"
cmake -S . -B build-asan -DPARSCOPE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DPARSCOPE_WERROR=ON > /dev/null
cmake --build build-asan -j"$jobs"
# MPI libraries keep memory until exit by design; leaks in them are not ours
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" --timeout 600 -LE "timing|browser"

echo "== fuzz harnesses"
scripts/fuzz.sh "${PARSCOPE_FUZZ_SECONDS:-15}" build-fuzz

if command -v mpicc.mpich > /dev/null && [ -x /usr/bin/mpiexec.mpich ]; then
  echo "== MPICH build and its MPI tests"
  cmake -S . -B build-mpich -DPARSCOPE_WERROR=ON -DMPI_C_COMPILER="$(command -v mpicc.mpich)" -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich > /dev/null
  cmake --build build-mpich -j"$jobs"
  # (not the emulated cluster's MPI jobs: MPICH 4.0 can hang in MPI_Finalize across nodes, docs/EMULATE.md)
  PS_TEST_FEW_POINTS=1 ctest --test-dir build-mpich --output-on-failure -j"$jobs" --timeout 300 \
    -R "runtime|unit\\.trace\\.|unit\\.sim\\.|cli_contract|install_tree|lang_|characterize_faults|report_cli|sim_|scale_clue_exact|launch_|unit\\.launch\\.|unit\\.emulate\\.|emulate_cli|emulate_teardown" -E sim_record_streams
fi
