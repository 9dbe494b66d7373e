#!/usr/bin/env bash
# cores_test.sh PARSCOPE BINDIR RT_PROGRAM - emulated nodes get disjoint
# cores, and an MPI job's ranks use them: each rank may run only on its
# node's cores, and an 8-byte round trip between two nodes stays within 3
# times a plain TCP socket ping-pong on the same link (ranks that share one
# core take turns by time slice: milliseconds).  The check is shown to catch
# that trap: with Open MPI told to bind (--bind-to core) every node's daemon
# binds its rank to the machine's first core, and the check fails.
. "$(dirname "$0")/common.sh"
need_root
mkwork
ncpu=$(nproc)
if [ "$ncpu" -lt 2 ]; then
    echo "SKIP: one CPU: two nodes cannot have cores of their own"
    exit 77
fi

# measure MPIEXEC-ARGS...: inside a 2-node cluster, the MPI job ($rounds round
# trips) and then the TCP ping-pong (2000) on the same link; prints
# "cpus0 cpus1 mpi_median tcp_median"
measure() {
    "$PS" emulate -q -N 2 -- sh -c '
        ps=$1 nc=$2 rounds=$3; shift 3
        "$@" "$rounds" > mpi.out || exit 1
        "$ps" __node node1 "$nc serve 5010" &
        "$nc" pingpong node1 5010 2000 > tcp.out || exit 1
        wait' sh "$PS" "$NETCHECK" "$rounds" "$@" > measure.log 2>&1 || { cat measure.log >&2; return 1; }
    local c0 c1
    c0=$(awk '$1 == "rank" && $2 == 0 {print $6}' mpi.out)
    c1=$(awk '$1 == "rank" && $2 == 1 {print $6}' mpi.out)
    echo "$c0 $c1 $(awk '$1 == "rtt" {print $3}' mpi.out) $(awk '{print $2}' tcp.out)"
}

# judge LABEL WANT(ok|trap) MPIEXEC-ARGS...: best of up to 3 measurements
judge() {
    local label=$1 want=$2 i m verdict=""
    shift 2
    for i in 1 2 3; do
        m=$(measure "$@") || { fail "$label: the job failed"; return; }
        verdict=$(python3 - $m << 'PY'
import sys
c0, c1, mpi, tcp = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
disjoint = not (set(c0.split(",")) & set(c1.split(",")))
fast = mpi <= 3 * tcp
print("%s %s cpus %s | %s, 8-byte round trip median: MPI %.1f us, TCP %.1f us (%.1fx)" % (
    "ok" if disjoint and fast else "trap", "disjoint" if disjoint else "SHARED", c0, c1, mpi, tcp, mpi / tcp))
PY
)
        echo "$label: ${verdict#* }"
        [ "${verdict%% *}" = "$want" ] && { pass; return; }
        # a busy machine may slow one measurement; the trap is not noise
        [ "$want" = trap ] && break
    done
    fail "$label: wanted '$want', measured: ${verdict#* }"
}

rounds=2000
t0=$(date +%s.%N)
if [ -x "$BIN/mpi_where.openmpi" ]; then
    judge "Open MPI" ok mpiexec.openmpi -n 2 "$BIN/mpi_where.openmpi"
    # (a shared core costs ~8 ms a round trip: 100 of them tell it, 2000 took 16 s)
    rounds=100 judge "Open MPI --bind-to core (the trap, must be caught)" trap \
        mpiexec.openmpi --bind-to core -n 2 "$BIN/mpi_where.openmpi"
fi
if [ -x "$BIN/mpi_where.mpich" ]; then
    judge "MPICH" ok mpiexec.mpich -n 2 "$BIN/mpi_where.mpich"
fi
t1=$(date +%s.%N)
echo "core tests took $(python3 -c "print('%.1f' % ($t1 - $t0))") s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
finish
