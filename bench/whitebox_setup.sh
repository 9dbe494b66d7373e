#!/usr/bin/env bash
# whitebox_setup.sh BUILD [TRIALS] [REPEATS] - does set-up leak into the
# white-box parts?  red_black at 2 ranks with -i 1 and -i 20 (REPEATS times
# each, alternated): with no constant set-up charged to communication,
# T(comm) grows with the iterations (at 20 about 20 times its value at 1,
# minus the first iteration's extra cost); and mmm_s at 2 ranks (default
# size).  Prints the machine, every command, one line per run: T(comm) median
# and best-of-K, the data-movement and computation parts, the page faults
# per kernel (largest rank, median; '-' where not counted), and the ratios.
set -u
build=${1:?usage: whitebox_setup.sh BUILD [TRIALS] [REPEATS]}
trials=${2:-5}
repeats=${3:-3}
bin=$build/bin/parscope
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
command -v jq > /dev/null || { echo "whitebox_setup.sh: needs jq" >&2; exit 2; }

echo "machine: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "MPI: $(mpiexec --version 2>/dev/null | head -1); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); results in $out"

ms() { awk -v x="$1" 'BEGIN { if (x == "" || x == "null") print "-"; else printf "%.3f", x * 1000 }'; }
line() {  # FILE LABEL
  local f=$1
  printf '%-22s T(comm) %9s ms (best %9s)  data %9s ms  comp %9s ms  faults comm/data/full %s  flagged %s\n' "$2" \
    "$(ms "$(jq -r '.parts.communication.value' "$f")")" "$(ms "$(jq -r '.parts.communication.best' "$f")")" \
    "$(ms "$(jq -r '.parts.data_movement.value' "$f")")" "$(ms "$(jq -r '.parts.computation.value' "$f")")" \
    "$(jq -r '[.memory.variants.comm, .memory.variants.data, .memory.variants.full | .minor_faults // "-"] | map(tostring) | join("/")' "$f" 2> /dev/null || echo -)" \
    "$(jq -r 'if .memory == null then "-" else (.memory.flagged | tostring) end' "$f")"
}
run() { echo "+ $*" >&2; "$@" > /dev/null 2> "$out/err" || { echo "failed: $(tail -1 "$out/err")"; return 1; }; }

for k in $(seq 1 "$repeats"); do
  for i in 1 20; do
    f=$out/red_black_i${i}_$k.json
    run "$bin" whitebox red_black -n 2 -i "$i" -k "$trials" -q -o "$f" && line "$f" "red_black -i $i #$k"
  done
  a=$out/red_black_i1_$k.json b=$out/red_black_i20_$k.json
  [ -s "$a" ] && [ -s "$b" ] && awk -v m1="$(jq .parts.communication.value "$a")" -v m20="$(jq .parts.communication.value "$b")" \
    -v b1="$(jq .parts.communication.best "$a")" -v b20="$(jq .parts.communication.best "$b")" \
    'BEGIN { printf "  T(comm) at -i 20 / at -i 1: %.1f (medians), %.1f (best-of-K)\n", m20 / m1, b20 / b1 }'
done
for k in $(seq 1 "$repeats"); do
  f=$out/mmm_s_$k.json
  run "$bin" whitebox mmm_s -n 2 -k "$trials" -q -o "$f" && line "$f" "mmm_s #$k"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
