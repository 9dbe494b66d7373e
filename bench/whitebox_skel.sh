#!/usr/bin/env bash
# whitebox_skel.sh BUILD [RATE] [TRIALS] - the white-box seed's experiment
# (seed 002, section 2.1): the latency-bound LU skeleton against the
# bandwidth-bound SP skeleton, on shared memory and on a TCP loopback shaped
# to RATE (default 10mbit) by ../shared/tools/slownet; each network measured
# by 'parscope probe --quick' so the communication kernels can be set against
# the simple latency + bandwidth model.
#
# Prints the machine, every command, and one line per (network, workload):
# T(comm), data movement, computation, the communication share, messages and
# bytes per rank, and the model's prediction with measured / predicted.
set -u
build=${1:?usage: whitebox_skel.sh BUILD [RATE] [TRIALS]}
rate=${2:-10mbit}
trials=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
bin=$build/bin/parscope
slownet=${SLOWNET:-$here/../../shared/tools/slownet}
out=${OUT:-$(mktemp -d)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
command -v jq > /dev/null || { echo "whitebox_skel.sh: needs jq" >&2; exit 2; }

echo "machine: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "MPI: $(mpiexec --version 2>/dev/null | head -1); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); results in $out"

run() { echo "+ $*"; "$@"; }

# the machine models (a failed probe leaves the comparison out, it is not invented)
run "$bin" probe --quick -n 2 -q -o "$out/shm.ini" --timeout 300 2> "$out/probe_shm.err" ||
  echo "probe on shared memory failed: $(tail -1 "$out/probe_shm.err")"
run "$slownet" "$rate" "$bin" probe --quick -n 2 -q -o "$out/net.ini" --timeout "${PROBE_TIMEOUT:-300}" 2> "$out/probe_net.err" ||
  echo "probe on $rate failed: $(tail -1 "$out/probe_net.err")"

for net in shm "$rate"; do
  for w in lu_skel sp_skel; do
    ini=$out/shm.ini pre=()
    if [ "$net" != shm ]; then ini=$out/net.ini pre=("$slownet" "$rate"); fi
    m=()
    [ -s "$ini" ] && m=(-m "$ini")
    run "${pre[@]}" "$bin" whitebox "$w" -n 2 -k "$trials" "${m[@]}" -q -o "$out/${net}_$w.json" ||
      echo "whitebox $w on $net failed"
  done
done

printf '\n%-7s %-8s %10s %10s %10s %7s %9s %10s %11s %9s\n' network workload "T(comm)" data comp "comm%" msgs/rank bytes/rank predicted meas/pred
for net in shm "$rate"; do
  for w in lu_skel sp_skel; do
    f=$out/${net}_$w.json
    [ -s "$f" ] || continue
    jq -r --arg net "$net" --arg w "$w" '
      def ms: if . == null then "-" else (. * 1e3 * 1000 | round / 1000 | tostring) + " ms" end;
      [$net, $w, (.parts.communication.value | ms), (.parts.data_movement.value | ms),
       (.parts.computation.value | ms), (.profile.communication_pct * 10 | round / 10 | tostring),
       (.ranks[0].messages_sent | tostring), (.ranks[0].bytes_sent | tostring),
       (if .model.available then (.model.predicted_s | ms) else "no model" end),
       (if .model.available then (.model.measured_over_predicted * 100 | round / 100 | tostring) else "-" end)]
      | @tsv' "$f" | awk -F'\t' '{ printf "%-7s %-8s %10s %10s %10s %7s %9s %10s %11s %9s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
  done
done
for w in lu_skel sp_skel; do
  a=$out/shm_$w.json b=$out/${rate}_$w.json
  [ -s "$a" ] && [ -s "$b" ] || continue
  jq -n -r --slurpfile a "$a" --slurpfile b "$b" --arg w "$w" --arg r "$rate" \
    '"\($w): T(comm) grows \(($b[0].parts.communication.value / $a[0].parts.communication.value) | round)x from shared memory to \($r); communication share \($a[0].profile.communication_pct * 10 | round / 10) % -> \($b[0].profile.communication_pct * 10 | round / 10) %"'
done
for f in "$out"/shm.ini "$out"/net.ini; do
  [ -s "$f" ] && echo "$(basename "$f"): $(grep -E '^(t0|r_inf) ' "$f" | tr '\n' ' ')"
done
exit 0
