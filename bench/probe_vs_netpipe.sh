#!/bin/bash
# probe_vs_netpipe.sh [PARSCOPE] - runs `parscope probe --quick` and NetPIPE
# (NPopenmpi) in one session on the same machine and prints the ratios of
# their small-message latency (1-byte half round trip) and best bandwidth
# (target: within 5%; the acceptance bound is 10%), the probe's wall time
# against its 20 s bound, and the command and machine.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
PS=${1:-${PARSCOPE:-}}
if [ -z "$PS" ]; then
    for c in "$HERE"/build*/bin/parscope; do [ -x "$c" ] && PS=$c && break; done
fi
[ -x "${PS:-}" ] || { echo "usage: $0 PATH/TO/parscope (not found)"; exit 2; }
command -v NPopenmpi >/dev/null || { echo "NPopenmpi (NetPIPE) is not installed"; exit 2; }

# the same MPI settings for both programs (root in a container, no CMA single copy)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

echo "== machine"
echo "uname:   $(uname -srvm)"
echo "cpu:     $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
echo "mpi:     $(mpiexec --version 2>&1 | head -1)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
echo "env:     OMPI_MCA_btl_vader_single_copy_mechanism=$OMPI_MCA_btl_vader_single_copy_mechanism"

echo "== parscope probe --quick -n 2"
start=$(date +%s.%N)
"$PS" probe --quick -n 2 -q -o "$T/m.ini" --json "$T/p.json" --svg-dir "$T/svg" || { echo "probe failed"; exit 1; }
end=$(date +%s.%N)
probe_s=$(echo "$end - $start" | bc -l)

echo "== mpiexec -n 2 NPopenmpi -u 4194304 -o np.out"
mpiexec -n 2 NPopenmpi -u 4194304 -o "$T/np.out" >"$T/np.log" 2>&1 || { cat "$T/np.log"; echo "NetPIPE failed"; exit 1; }

python3 - "$T/p.json" "$T/np.out" "$probe_s" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
pp = doc["pingpong"]
rows = [l.split() for l in open(sys.argv[2]) if l.strip()]
np = [(float(r[0]), float(r[2])) for r in rows]          # bytes, one-way seconds
np_lat = [t for b, t in np if b == 1][0]
np_bw, np_bw_at = max((b / t, b) for b, t in np)
ps_lat, ps_bw = pp["latency"], pp["bandwidth"]
print("== results (half round trip; bandwidth = bytes / time, best size)")
print(f"latency    parscope {ps_lat*1e6:8.3f} us   NetPIPE {np_lat*1e6:8.3f} us   ratio {ps_lat/np_lat:6.3f}")
print(f"bandwidth  parscope {ps_bw/1e6:8.1f} MB/s at {pp['bandwidth_bytes']} B   "
      f"NetPIPE {np_bw/1e6:8.1f} MB/s at {int(np_bw_at)} B   ratio {ps_bw/np_bw:6.3f}")
h = pp["hockney"]; b = doc["bsp"]
print(f"hockney    t0 {h['t0']*1e6:.3f} us, r_inf {h['r_inf']/1e6:.1f} MB/s, n_1/2 {h['n_half']:.0f} B")
print(f"bsp        r {b['r']/1e6:.1f} Mflop/s, g {b['g']:.4g} flop ({b['g_us']:.4g} us), l {b['l']:.4g} flop ({b['l_us']:.4g} us)")
secs = float(sys.argv[3])
print(f"probe wall time {secs:.1f} s (bound 20 s: {'ok' if secs <= 20 else 'EXCEEDED'})")
agree = ", ".join(f"{a['figure']} {'agree' if a['agree'] else 'differ'}" for a in doc["agreement"])
print(f"rounds     {agree}")
for w in doc["warnings"]:
    print("warning:", w)
ok = abs(ps_lat/np_lat - 1) <= 0.10 and abs(ps_bw/np_bw - 1) <= 0.10
print("within 10%:", "yes" if ok else "NO", "| within 5%:",
      "yes" if abs(ps_lat/np_lat - 1) <= 0.05 and abs(ps_bw/np_bw - 1) <= 0.05 else "no")
sys.exit(0 if ok else 1)
PY
