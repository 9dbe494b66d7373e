#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] [BUILD_DIR] - builds every fuzz harness with clang and libFuzzer
# (ASan + UBSan) and runs each for SECONDS (default 20) from its seed corpus. Exit 1 on a finding;
# the crashing input is left in BUILD_DIR/fuzz/findings/ (add it to fuzz/corpus/NAME/ once fixed).
# Only the harnesses and the libraries under them are built (not the command line, the tests or
# the benchmarks), and PARSCOPE_FUZZ_JOBS harnesses (default 2) run at once, each one process
# for its full SECONDS: the same fuzzing per harness in less wall time on two cores.
set -euo pipefail
secs=${1:-20}
build=${2:-build-fuzz}
jobs=${PARSCOPE_FUZZ_JOBS:-2}
cd "$(dirname "$0")/.."
CC=clang cmake -S . -B "$build" -DPARSCOPE_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug > "$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 1; }
targets=()
for src in fuzz/fuzz_*.c; do targets+=("$(basename "$src" .c)"); done
cmake --build "$build" -j2 --target "${targets[@]}" > "$build.build.log" 2>&1 || { tail -40 "$build.build.log"; exit 1; }
mkdir -p "$build/fuzz/findings"

# run_one NAME: fuzzes one harness; its verdict goes to $build/fuzz/NAME.verdict, status 1 on a finding
run_one() {
  local f=$build/fuzz/fuzz_$1 short=$1 work
  work=$(mktemp -d)
  [ -d "fuzz/corpus/$short" ] && cp -r "fuzz/corpus/$short/." "$work/"
  if "$f" "$work" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 \
       -artifact_prefix="$build/fuzz/findings/$short-" > "$build/fuzz/$short.log" 2>&1; then
    echo "fuzz $short: $(grep -Eo 'Done [0-9]+ runs' "$build/fuzz/$short.log" || echo 'ran'), no finding"
    rm -rf "$work"
  else
    { echo "fuzz $short: FINDING (see $build/fuzz/$short.log)"; tail -20 "$build/fuzz/$short.log"; }
    rm -rf "$work"
    return 1
  fi
}

status=0
pids=() names=()
for t in "${targets[@]}"; do
  [ -x "$build/fuzz/$t" ] || { echo "fuzz ${t#fuzz_}: not built"; status=1; continue; }
  run_one "${t#fuzz_}" > "$build/fuzz/${t#fuzz_}.verdict" &
  pids+=($!) names+=("${t#fuzz_}")
  # at most $jobs at once: wait for the oldest before starting another
  if [ "${#pids[@]}" -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    cat "$build/fuzz/${names[0]}.verdict"
    pids=("${pids[@]:1}") names=("${names[@]:1}")
  fi
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || status=1
  cat "$build/fuzz/${names[$i]}.verdict"
done
exit $status
