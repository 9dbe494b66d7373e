#!/usr/bin/env bash
# export_report.sh [BUILD_DIR] [EVENTS] [RANKS] - time and peak memory of
# 'parscope export' (otf2, perfetto, csv) and 'parscope report' for a
# synthetic trace of EVENTS events (default one million, 16 ranks).
# Targets: under 2 s each, peak memory under 10x the trace file.
set -eu
BUILD=${1:-build}
EVENTS=${2:-1000000}
RANKS=${3:-16}
PS=$BUILD/bin/parscope
GEN=$BUILD/tests/report/report_gentrace
[ -x "$PS" ] && [ -x "$GEN" ] || { echo "build first: cmake --build $BUILD (needs $PS and $GEN)" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
n=$("$GEN" "$RANKS" "$EVENTS" "$W/trace.pst")
size=$(stat -c %s "$W/trace.pst")
echo "machine: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "trace:   $n events, $RANKS ranks, $((size / 1024 / 1024)) MiB ($size bytes)"
printf '%-34s %9s %12s %10s\n' "command" "seconds" "peak RSS" "RSS/trace"
run() { # run LABEL ARGS...
    local label=$1; shift
    /usr/bin/time -f '%e %M' -o "$W/time" "$PS" "$@" > /dev/null
    read -r secs kb < "$W/time"
    printf '%-34s %9s %9d MiB %9.1fx\n' "$label" "$secs" $((kb / 1024)) "$(echo "$kb * 1024 / $size" | bc -l)"
}
run "export --format otf2"      export "$W/trace.pst" --format otf2 -o "$W/t.otf2" -q
run "export --format perfetto"  export "$W/trace.pst" --format perfetto -o "$W/t.json" -q
run "export --format csv"       export "$W/trace.pst" --format csv -o "$W/t.csv" -q
run "report"                    report "$W/trace.pst" -o "$W/r.html" -q
echo "outputs: otf2 $(du -sm "$W/t.otf2" | cut -f1) MiB, perfetto $(du -m "$W/t.json" | cut -f1) MiB," \
     "csv $(du -m "$W/t.csv" | cut -f1) MiB, report $(du -k "$W/r.html" | cut -f1) KiB"
echo "command: bench/export_report.sh $BUILD $EVENTS $RANKS"
