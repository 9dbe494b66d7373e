#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] [BUILD_DIR] - builds every fuzz harness with clang and libFuzzer
# (ASan + UBSan) and runs each for SECONDS (default 20) from its seed corpus. Exit 1 on a finding;
# the crashing input is left in BUILD_DIR/fuzz/findings/ (add it to fuzz/corpus/NAME/ once fixed).
set -euo pipefail
secs=${1:-20}
build=${2:-build-fuzz}
cd "$(dirname "$0")/.."
CC=clang cmake -S . -B "$build" -DPARSCOPE_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug > "$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j2 > "$build.build.log" 2>&1 || { tail -40 "$build.build.log"; exit 1; }
mkdir -p "$build/fuzz/findings"
status=0
for f in "$build"/fuzz/fuzz_*; do
  [ -x "$f" ] || continue
  name=$(basename "$f"); short=${name#fuzz_}
  work=$(mktemp -d)
  [ -d "fuzz/corpus/$short" ] && cp -r "fuzz/corpus/$short/." "$work/"
  if "$f" "$work" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 \
       -artifact_prefix="$build/fuzz/findings/$short-" > "$build/fuzz/$short.log" 2>&1; then
    echo "fuzz $short: $(grep -Eo 'Done [0-9]+ runs' "$build/fuzz/$short.log" || echo 'ran'), no finding"
  else
    echo "fuzz $short: FINDING (see $build/fuzz/$short.log)"; tail -20 "$build/fuzz/$short.log"; status=1
  fi
  rm -rf "$work"
done
exit $status
