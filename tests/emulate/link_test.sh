#!/usr/bin/env bash
# link_test.sh PARSCOPE BINDIR RT_PROGRAM - a shaped link carries its rate,
# in both directions, measured by a real TCP transfer between two nodes; an
# unshaped link is not held to it.  Best of up to three transfers (the
# machine is shared), stopping at the first in the band.  TCP carries at
# most 1448 payload bytes per 1514-byte Ethernet frame (95.6% of the rate tbf
# counts), so the band is 85%..101%.
. "$(dirname "$0")/common.sh"
need_root
mkwork

# transfer RATE_OPTIONS BYTES FROM TO ENOUGH: best bytes/s of up to 3 transfers
# FROM -> TO, stopping at the first that carries at least ENOUGH bytes/s (the
# lower end of the band: a later one could only raise the best)
transfer() {
    local opts=$1 bytes=$2 from=$3 to=$4 enough=$5
    "$PS" emulate -q -N 2 $opts -- sh -c '
        ps=$0 nc=$1 bytes=$2 from=$3 to=$4 enough=$5
        for port in 5001 5002 5003; do
            "$ps" __node "$to" "$nc serve $port" &
            r=$("$ps" __node "$from" "$nc stream $to $port $bytes") || exit 1
            wait
            echo "$r"
            [ "${r%% *}" -ge "$enough" ] && break
        done' "$PS" "$NETCHECK" "$bytes" "$from" "$to" "$enough" > "xfer.out" 2>&1 || {
        echo "transfer failed:" >&2; cat xfer.out >&2; echo 0; return; }
    awk '{ if ($1 > best) best = $1 } END { printf "%.0f\n", best }' xfer.out
}

check_rate() { # check_rate RATE BITS_PER_S BYTES
    local rate=$1 bits=$2 bytes=$3 dir got
    for dir in "node0 node1" "node1 node0"; do
        got=$(transfer "--link $rate" "$bytes" $dir "$(python3 -c "print('%.0f' % (0.85 * $bits / 8))")")
        python3 - "$got" "$bits" "$rate" "$dir" << 'PY' && pass || fail "--link $rate, ${dir/ / -> }: $got B/s"
import sys
got, bits, rate, d = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
nominal = bits / 8
print("--link %s, %s: %.3f MB/s measured, %.3f MB/s nominal (%.1f%%)" % (rate, d.replace(" ", " -> "), got / 1e6, nominal / 1e6, 100 * got / nominal))
sys.exit(0 if 0.85 * nominal <= got <= 1.01 * nominal else 1)
PY
    done
}

t0=$(date +%s.%N)
check_rate 10mbit 10e6 2500000
check_rate 100mbit 100e6 25000000
# unshaped: far above 100 Mbit/s (no tbf is installed by default)
got=$(transfer "" 100000000 node0 node1 "$(python3 -c "print('%.0f' % (3 * 12.5e6))")")
python3 -c "
import sys; g = float('$got'); print('unshaped: %.1f MB/s' % (g / 1e6)); sys.exit(0 if g > 3 * 12.5e6 else 1)" && pass ||
    fail "an unshaped link carried only $got B/s"
t1=$(date +%s.%N)
echo "link tests took $(python3 -c "print('%.1f' % ($t1 - $t0))") s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
finish
