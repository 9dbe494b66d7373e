#!/usr/bin/env bash
# What small nonblocking sends cost the first time a process holds that many in flight, against the
# same stream again (bench/mpi/first_depth.c, plain MPI, no parscope in it): 2 ranks, rank 0 starts
# DEPTH sends and waits for them, rank 1 takes them with blocking receives, ROUNDS rounds a depth.
# The first round of a depth larger than any before it is where the MPI library grows what it keeps
# per message in flight; a workload that runs such a stream once (oneway: 1000 of 16 B) pays it in
# its timed interval, a probe that repeats its streams does not.
#
# usage: bench/first_depth.sh NETWORK [BYTES [ROUNDS [DEPTH...]]]
#   NETWORK  shm (Open MPI's shared memory) or a slownet rate such as 10gbit (an unshaped TCP
#            loopback: the shaper's rate far above what the loopback carries) or 100mbit
#   SLOWNET  the slownet tool (default: ../shared/tools/slownet beside the checkout)
#   MPICC    the MPI compiler (default mpicc)
set -eu
. "$(dirname "$0")/clue_common.sh"
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 NETWORK [BYTES [ROUNDS [DEPTH...]]]" >&2; exit 2; }
net=$1; shift
slownet=${SLOWNET:-$here/../../shared/tools/slownet}
for a in "$@"; do
  [[ $a =~ ^[1-9][0-9]{0,6}$ ]] || { echo "$0: '$a' is not a count (BYTES, ROUNDS and DEPTH are 1 or more)" >&2; exit 2; }
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"${MPICC:-mpicc}" -std=c17 -O2 -Wall -Wextra -o "$work/first_depth" "$here/mpi/first_depth.c"
run=(mpiexec -n 2 "$work/first_depth" "$@")
case $net in
  shm) ;;
  [0-9]*bit) [ -x "$slownet" ] || { echo "$0: no slownet tool at $slownet (set SLOWNET)" >&2; exit 2; }
             run=("$slownet" "$net" "${run[@]}") ;;
  *) echo "$0: NETWORK: '$net' is neither shm nor a rate like 100mbit" >&2; exit 2 ;;
esac
machine
echo "network: $net, 2 ranks, $(mpiexec --version 2>&1 | head -1)"
echo "command: ${run[*]}"
timeout 300 "${run[@]}"
