#!/bin/bash
# gen_speed.sh [PARSCOPE_GEN] - the LOOP generator's speed on a large program:
# a synthetic .loop of N functions, each with loops, constructs, comments and
# strings (about 40 lines per function), generated K times; prints MB/s and
# lines/s with the command and the machine.
set -eu
GEN=${1:-build/bin/parscope-gen}
N=${N:-2000} K=${K:-5}
work=$(mktemp -d /tmp/ps-gen-speed.XXXXXX)
trap 'rm -rf "$work"' EXIT
{
    echo '#include "LOOP.h"'
    for ((f = 0; f < N; f++)); do
        cat <<LOOP
/* function $f: a comment with \\LOOP and "quotes" */
static double work_$f(double *v, long n, int me)
{
    double s = 0;
    const char *label = "f$f \\\\ \\"x\\"";
    \\VEC(TYPE: double, S1: n) a, b;
    \\INIT_ARRAY(a);
    \\INIT_ARRAY(b, 1.0);
    \\LOOP i (ITERATIONS) {
        s += v[i % n] * 0.5;
        if (s > 1e9) {
            s = 0;
        } else
            s += 1;
        \\SCALPROD(s, a, b);
        \\LOOP j (4) {
            \\WORK(100 * j);
        }
        \\COMMUNICATE(64, 1, 2) {
            s *= 1.0000001;
        }
        \\EXCHANGE(128, 1, 2);
        \\DATA_MOVE(256) {
            v[0] = s;
        }
    }
    \\SECTION(part_$f) {
        \\MULTIBCAST0(8);
        \\VISIBLE_SYNC();
    }
    (void)label;
    (void)me;
    return s;
}
LOOP
    done
    cat <<'LOOP'
int main(void)
{
    int nodes, me, host, n;
    \OPEN0(&nodes, &me, &host, &n, 0);
    \CLOSE0();
    return 0;
}
LOOP
} > "$work/big.loop"
bytes=$(stat -c %s "$work/big.loop")
lines=$(wc -l < "$work/big.loop")
best=
for ((k = 0; k < K; k++)); do
    t0=$(date +%s.%N)
    "$GEN" "$work/big.loop" -o "$work/big.c"
    t1=$(date +%s.%N)
    t=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
done
printf 'input: %d lines, %.1f MB (%d functions); output %.1f MB\n' "$lines" "$(echo "$bytes / 1000000" | bc -l)" "$N" \
    "$(echo "$(stat -c %s "$work/big.c") / 1000000" | bc -l)"
printf 'best of %d: %.3f s = %.1f MB/s, %.0f lines/s\n' "$K" "$best" "$(echo "$bytes / 1000000 / $best" | bc -l)" \
    "$(echo "$lines / $best" | bc -l)"
echo "command: N=$N K=$K bench/gen_speed.sh $GEN"
echo "machine: $(uname -srm), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
