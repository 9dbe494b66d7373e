#!/usr/bin/env bash
# bench/event_cost.sh [BUILD_DIR] - cost of recording one trace event (target: <= 50 ns).
set -euo pipefail
build=${1:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cmd="mpiexec -n 1 $build/bench/bench_event_cost --quiet"
echo "command: $cmd"
echo "machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(nproc) cores; $(mpiexec --version | head -1)"
$cmd
