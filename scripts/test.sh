#!/usr/bin/env bash
# scripts/test.sh - builds parscope and runs every test, in three stages:
#   (warnings are errors in the normal and the sanitizer build)
#   1. the normal build (the default MPI: Open MPI) and the whole CTest suite, every test at full
#      size: first all but the timing tests, three at a time (the suite's jobs wait on launches,
#      time limits and pipes for a fifth of their time: two processors stay busy), the tests that
#      build an emulated cluster one at a time (RESOURCE_LOCK; they skip without root, the ip and
#      tc tools, or with the build folder under /tmp, docs/EMULATE.md); then the timing tests
#      (label "timing", among them the emulated cluster's links and cores and the slow network's
#      tests) one after the other, alone;
#   2. an AddressSanitizer + UndefinedBehaviorSanitizer build against the other MPI, MPICH (when
#      mpicc.mpich is installed; else against the default one), and the suite again: memory and
#      undefined-behaviour errors in our C code (parsers, simulator, runtime instrumentation,
#      exporters, the emulated cluster's set-up and tear-down) and every MPI job of the suite under
#      the second MPI library, in one pass (the emulated cluster's MPICH jobs too: MPICH 4.0 can hang
#      in MPI_Finalize across nodes, and parscope's runtime and tests/emulate/nodes_test.sh stop such
#      a job after its work, docs/EMULATE.md): all but the tests labelled "timing" (they compare
#      measured times, meaningless under sanitizers) and "browser" (Chromium's layout of pages
#      whose commands run under the sanitizers in other report tests).  The tests see
#      PS_TEST_SANITIZED=1 and PS_TEST_FEW_POINTS=1: the few that repeat one check over a matrix of
#      rank counts (sim_message_counts, sim_record_streams, lang_workloads_verify,
#      runtime_tree_order) take fewer points of it: the same assertions, the whole matrix having
#      run in stage 1;
#   3. every fuzz harness for a short time (PARSCOPE_FUZZ_SECONDS, default 6) with libFuzzer,
#      two at a time (scripts/fuzz.sh; a longer search: scripts/fuzz.sh 600).
# Stops at the first failure.  Set PARSCOPE_TEST_QUICK=1 to run only the first.
# PARSCOPE_TEST_JOBS: tests at once in stages 1 and 2 (default 3); builds use two jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${PARSCOPE_TEST_JOBS:-3}
# each stage's wall time, printed as it ends (where the suite's minutes go)
t0=$SECONDS
took() { echo "== $1: $((SECONDS - t0)) s"; t0=$SECONDS; }

echo "== build and test"
cmake -S . -B build -DPARSCOPE_WERROR=ON > /dev/null
cmake --build build -j2
# the timing tests after the others, not among them: each would wait for the running ones to end
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 300 -LE timing
ctest --test-dir build --output-on-failure -j1 --timeout 300 -L timing
took "build and test"
[ "${PARSCOPE_TEST_QUICK:-0}" = 1 ] && exit 0

mpi=() want=default
if command -v mpicc.mpich > /dev/null && [ -x /usr/bin/mpiexec.mpich ]; then
  mpi=(-DMPI_C_COMPILER="$(command -v mpicc.mpich)" -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich) want=mpich
  echo "== sanitizer build (ASan + UBSan) against MPICH, and test"
else
  echo "== sanitizer build (ASan + UBSan) and test (no MPICH: mpicc.mpich not installed)"
fi
# a sanitizer build folder configured against the other MPI starts again: CMake keeps the MPI it found
if [ -f build-asan/CMakeCache.txt ]; then
  case "$(sed -n 's/^MPI_C_COMPILER:[A-Z]*=//p' build-asan/CMakeCache.txt)" in
    *mpich) had=mpich ;;
    *) had=default ;;
  esac
  [ "$had" = "$want" ] || rm -rf build-asan
fi
cmake -S . -B build-asan -DPARSCOPE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DPARSCOPE_WERROR=ON "${mpi[@]}" > /dev/null
cmake --build build-asan -j2
# MPI libraries keep memory until exit by design; leaks in them are not ours
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" --timeout 600 -LE "timing|browser"
took "sanitizer build and test"

echo "== fuzz harnesses"
scripts/fuzz.sh "${PARSCOPE_FUZZ_SECONDS:-6}" build-fuzz
took "fuzz harnesses"
echo "== all tests passed in $SECONDS s"
