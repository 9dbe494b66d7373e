#!/usr/bin/env bash
# bench/sim_speed.sh [BUILD_DIR] - how fast 'parscope predict' simulates.
#
#   1. events per second on one core: a ring of 1024 ranks, 1000 rounds
#      (SEND right, RECEIVE left, WAIT, WORK)            target >= 10 million
#   2. fingerprint recorded at 1024 ranks (~3.1 million messages), simulated
#      (time and peak memory)                             target < 2 s
#   3. a binomial-tree broadcast over one million ranks (time, peak memory)
#   4. the same fingerprint streams and a 4096-rank tree replayed by SimGrid
#      (smpirun -replay of the exported time-independent traces), as a ratio
#
# The simulator driver is compiled with -O2 from the sources (bench/sim_speed.c);
# times are CPU seconds of the simulation alone (getrusage), wall seconds beside.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
ps=$build/bin/parscope
work=$(mktemp -d /tmp/ps_sim_speed.XXXXXX)
trap 'rm -rf "$work"' EXIT
drv=$work/sim_speed
cc -O2 -std=c17 -D_GNU_SOURCE -I"$src/include" -I"$src/src" "$src/bench/sim_speed.c" "$src"/src/sim/sim.c \
    "$src"/src/sim/stream.c "$src"/src/sim/eventq.c "$src"/src/sim/machine.c "$src"/src/sim/sheet_feed.c "$src"/src/trace/*.c \
    "$src"/src/util/*.c -linih -ljansson -lm -pthread -o "$drv"
m=$src/machines/sp2.ini
echo "machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "model: $m"

echo; echo "== 1. events per second (ring, 1024 ranks x 1000 rounds)"
echo "command: $drv ring 1024 1000 $m"
"$drv" ring 1024 1000 "$m"

echo; echo "== 2. fingerprint at 1024 ranks"
echo "command: $ps predict fingerprint -m $m -n 1024 --streams DIR; $drv file DIR $m"
/usr/bin/time -f "recording+prediction (with trace and JSON): wall %e s, peak %M KB" \
    "$ps" predict fingerprint -m "$m" -n 1024 --streams "$work/fp" -q >/dev/null
"$drv" file "$work/fp" "$m"

echo; echo "== 3. tree broadcast over 1048576 ranks"
echo "command: $drv tree 1048576 $m"
"$drv" tree 1048576 "$m"

if command -v smpirun >/dev/null; then
    echo; echo "== 4. SimGrid replay of the same streams ($(smpirun -version 2>/dev/null | head -1 || echo smpirun))"
    "$drv" tree 4096 "$m" "$work/tree.pss" | sed 's/^/parscope tree 4096: /'
    for case in "tree:$work/tree.pss:4096" "fingerprint:$work/fp:1024"; do
        IFS=: read -r name streams np <<<"$case"
        "$ps" predict "$streams" -m "$m" --export-simgrid "$work/sg-$name" -q >/dev/null
        echo "command: smpirun -np $np -platform platform.xml -hostfile hostfile -replay traces.txt"
        (cd "$work/sg-$name" && /usr/bin/time -f "simgrid $name: wall %e s, cpu %U+%S s, peak %M KB" \
            timeout 1200 smpirun -np "$np" -platform platform.xml -hostfile hostfile -replay traces.txt \
            --log=root.thresh:warning --log=smpi_replay.thresh:info --cfg=smpi/privatization:no 2>&1 |
            grep -E "Simulation time|simgrid|rror" | tail -3) || echo "simgrid $name: did not finish"
    done
    # smaller fingerprints, where SimGrid finishes: both sides timed on the same streams
    for np in 128 256; do
        "$ps" predict fingerprint -m "$m" -n "$np" --streams "$work/fp$np" -q >/dev/null
        /usr/bin/time -f "parscope fingerprint $np: wall %e s, cpu %U+%S s, peak %M KB" \
            "$ps" predict "$work/fp$np" -m "$m" -q 2>&1 | tail -1
        "$ps" predict "$work/fp$np" -m "$m" --export-simgrid "$work/sg-fp$np" -q >/dev/null
        (cd "$work/sg-fp$np" && /usr/bin/time -f "simgrid fingerprint $np: wall %e s, cpu %U+%S s, peak %M KB" \
            timeout 1200 smpirun -np "$np" -platform platform.xml -hostfile hostfile -replay traces.txt \
            --log=root.thresh:warning --log=smpi_replay.thresh:info --cfg=smpi/privatization:no 2>&1 |
            grep -E "simgrid|rror" | tail -2) || echo "simgrid fingerprint $np: did not finish"
    done
fi
