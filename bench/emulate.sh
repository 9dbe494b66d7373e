#!/bin/bash
# emulate.sh [PARSCOPE] - what an emulated cluster costs and carries (root):
#   1. building and removing a cluster of 2, 4 and 8 nodes (median of 5);
#   2. an 8-byte round trip between two nodes: Open MPI and MPICH against a
#      plain TCP ping-pong (polling, as MPI polls) on the same link, and with
#      Open MPI's --bind-to core, which puts both nodes' ranks on one core;
#   3. a shaped link's rate (TCP payload) against its nominal rate, both ways;
#   4. the fingerprint at 4 ranks on one host and on 4 emulated nodes.
# Needs the programs the build makes in tests/emulate (emulate_netcheck, mpi_where.*).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
PS=${1:-${PARSCOPE:-}}
if [ -z "$PS" ]; then
    for c in "$HERE"/build/bin/parscope "$HERE"/build*/bin/parscope; do [ -x "$c" ] && PS=$c && break; done
fi
[ -x "${PS:-}" ] || { echo "usage: $0 PATH/TO/parscope (not found)"; exit 2; }
PS=$(cd "$(dirname "$PS")" && pwd)/$(basename "$PS")
T=$(dirname "$(dirname "$PS")")/tests/emulate
NC=$T/emulate_netcheck
[ -x "$NC" ] || { echo "$NC not built"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "parscope emulate needs root"; exit 2; }
W=$(mktemp -d "$T/bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

echo "== machine"
echo "uname:   $(uname -srvm)"
echo "cpu:     $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
echo "parscope: $PS"

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "== 1. build and remove a cluster (parscope emulate -N N -- true), median of 5"
for n in 2 4 8; do
    for i in 1 2 3 4 5; do
        s=$(date +%s.%N)
        "$PS" emulate -q -N "$n" -- true
        e=$(date +%s.%N)
        echo "$e - $s" | bc -l
    done | median | awk -v n="$n" '{printf "  N=%d: %.3f s\n", n, $1}'
    for i in 1 2 3 4 5; do
        s=$(date +%s.%N)
        "$PS" emulate -q -N "$n" --link 100mbit -- true
        e=$(date +%s.%N)
        echo "$e - $s" | bc -l
    done | median | awk -v n="$n" '{printf "  N=%d, --link 100mbit: %.3f s\n", n, $1}'
done

echo "== 2. 8-byte round trip node0 <-> node1 (median of 5000; min), unshaped link, 3 rounds"
rtt() { # LABEL MPIEXEC-ARGS...
    local label=$1
    shift
    "$PS" emulate -q -N 2 -- sh -c '
        ps=$1 nc=$2; shift 2
        "$@" 5000 | awk "\$1 == \"rtt\" {print \"mpi\", \$3, \$2}"
        "$ps" __node node1 "$nc serve 5020" &
        "$nc" pingpong node1 5020 5000 | awk "{print \"tcp\", \$2, \$1}"
        wait' sh "$PS" "$NC" "$@" > rtt.out 2>&1
    awk -v l="$label" '$1 == "mpi" {m = $2; mm = $3} $1 == "tcp" {t = $2; tm = $3}
        END {printf "  %-28s MPI %7.1f us (min %5.1f), TCP %5.1f us (min %5.1f): %.1fx\n", l, m, mm, t, tm, m / t}' rtt.out
}
for round in 1 2 3; do
    [ -x "$T/mpi_where.openmpi" ] && rtt "Open MPI" mpiexec.openmpi -n 2 "$T/mpi_where.openmpi"
    [ -x "$T/mpi_where.mpich" ] && rtt "MPICH" mpiexec.mpich -n 2 "$T/mpi_where.mpich"
    [ -x "$T/mpi_where.openmpi" ] && rtt "Open MPI --bind-to core" mpiexec.openmpi --bind-to core -n 2 "$T/mpi_where.openmpi"
done

echo "== 3. shaped link: TCP payload rate over 2 s (netcheck stream), best of 3 per direction"
for spec in "10mbit 10e6 2500000" "100mbit 100e6 25000000" "1gbit 1e9 250000000"; do
    set -- $spec
    for dir in "node0 node1" "node1 node0"; do
        set -- $spec
        "$PS" emulate -q -N 2 --link "$1" -- sh -c '
            ps=$0 nc=$1 bytes=$2 from=$3 to=$4
            for port in 5031 5032 5033; do
                "$ps" __node "$to" "$nc serve $port" &
                "$ps" __node "$from" "$nc stream $to $port $bytes"
                wait
            done' "$PS" "$NC" "$3" $dir > rate.out 2>&1
        awk -v r="$1" -v bits="$2" -v d="$dir" '{ if ($1 > b) b = $1 }
            END {printf "  --link %-8s %-14s %8.3f MB/s of %8.3f MB/s nominal (%.1f%%)\n", r, d, b / 1e6, bits / 8e6, 100 * b * 8 / bits}' rate.out
    done
done

echo "== 4. fingerprint, 4 ranks (execution time, best of 3)"
for i in 1 2 3; do "$PS" run fingerprint -n 4 -q -o "one$i.json" > /dev/null 2>&1; done
for i in 1 2 3; do "$PS" emulate -q -N 4 -- "$PS" run fingerprint -n 4 -q -o "four$i.json" > /dev/null 2>&1; done
python3 - << 'PY'
import json, glob
def best(pat):
    t = [json.load(open(f))["time"]["min"] for f in glob.glob(pat)]
    return min(t) if t else float("nan")
print("  one host:          %.6f s" % best("one*.json"))
print("  4 emulated nodes:  %.6f s" % best("four*.json"))
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
