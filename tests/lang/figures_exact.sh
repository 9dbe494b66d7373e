#!/usr/bin/env bash
# figures_exact.sh PARSCOPE MPIEXEC - the LOOP seed's Figures 3, 6 and 7 exactly as
# printed (figs/figN.seed.txt: the seed text, blank lines of its layout
# included) generate, build and run, with the names the seed leaves open
# (TRACE_BUF_SIZE, MY_TYPE, T_BUF, relax) taken from parscope/loop.h.
# Two artefacts of the printed page are straightened, nothing else:
#   - Figure 7's curly quotes in #include “LOOP.h“ (the C compiler rejects them);
#   - Figure 3's statement "Mat3[i3][i2] += Mat1[i3][i1]*Ma-" / "t2[i1][i2];": the
#     column layout hyphenated Mat2 across two lines (section 4.1.1.2 prints the
#     statement unbroken), so the hyphen and the line break are joined.
# Message counts are checked against hand figures.
set -u
PS=$1
MPIEXEC=${2:-mpiexec}
HERE=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }

sed 's/\xe2\x80\x9cLOOP.h\xe2\x80\x9c/"LOOP.h"/' "$HERE/figs/fig7.seed.txt" > fig7.loop
cp "$HERE/figs/fig6.seed.txt" fig6.loop
python3 -c 'import sys; t = open(sys.argv[1]).read(); n = t.count("*Ma-\n\nt2"); assert n == 1, n; sys.stdout.write(t.replace("*Ma-\n\nt2", "*Mat2"))' \
    "$HERE/figs/fig3.seed.txt" > fig3.loop || fail "Figure 3's hyphenated Mat2 is not where it is printed"
# the straightened files differ from the printed text only there
[ "$(diff "$HERE/figs/fig7.seed.txt" fig7.loop | grep -c '^[<>]')" = 2 ] || fail "Figure 7 changed beyond its quotes"
grep -q 'TRACE_BUF_SIZE' fig3.loop && ! grep -q '#define' fig3.loop || fail "Figure 3 as printed defines nothing"
! grep -q 'relax\s*(.*{\|#define' fig6.loop || fail "Figure 6 as printed defines nothing"

for f in 3 6 7; do
    "$PS" gen fig$f.loop -o fig$f.c > gen$f.log 2>&1 || fail "gen fig$f: $(cat gen$f.log)"
    "$PS" build fig$f.loop -o fig$f > build$f.log 2>&1 || fail "build fig$f: $(cat build$f.log)"
    grep -qi 'warning' build$f.log && fail "build fig$f warned: $(cat build$f.log)"
done
# the defaults come from loop.h, only where the program leaves a name open
grep -q '#define TRACE_BUF_SIZE PS_LOOP_TRACE_BUF' fig3.c || fail "Figure 3 gets no TRACE_BUF_SIZE"
grep -q '#define MY_TYPE PS_LOOP_MY_TYPE' fig6.c && grep -q '#define T_BUF PS_LOOP_TRACE_BUF' fig6.c &&
    grep -q '#define relax ps_loop_relax' fig6.c || fail "Figure 6 gets no MY_TYPE, T_BUF or relax"
grep -q 'PS_LOOP_' fig7.c && fail "Figure 7 defines its names itself, yet got defaults"

count() { # count TRACE KIND: events of that kind in a trace, via the CSV export
    "$PS" export "$1" --format csv -o - | awk -F, -v k="$2" 'NR > 1 && $3 == k' | wc -l
}
# Figure 3 at P = 2, s = 8: 8 x 8 \COMMUNICATE(amount, 1, 1) per node, one message each
"$MPIEXEC" -n 2 ./fig3 -s 8 --trace t3 > run3.log 2>&1 || fail "run fig3: $(tail -5 run3.log)"
[ "$(count t3 send)" = 128 ] || fail "Figure 3 sent $(count t3 send) messages, 2 x 8 x 8 expected"
grep -q 'Messages sent / received:    128 / 128' run3.log || fail "Figure 3's sheet: $(grep Messages run3.log)"
# Figure 6 at P = 4, s = 64, i = 3: 2 exchanges x 2 neighbours x 3 iterations per node
"$MPIEXEC" -n 4 ./fig6 -s 64 -i 3 --trace t6 > run6.log 2>&1 || fail "run fig6: $(tail -5 run6.log)"
[ "$(count t6 send)" = 48 ] || fail "Figure 6 sent $(count t6 send) messages, 48 expected"
# relax ran: 2 per iteration per node, each 4 flops x 16 rows x 64 points / 2
R=$("$PS" export t6 --format csv -o - | awk -F, 'NR > 1 && $3 == "compute" && $4 == "relax" {n++; f += $14} END {print n, f}')
[ "$R" = "24 49152" ] || fail "Figure 6's relax: $R (24 calls, 24 x 2048 flops expected)"
grep -q 'relax(16,64) x6' run6.log || fail "Figure 6's structure on the sheet: $(grep Structure run6.log)"
# Figure 7 at P = 4: 5 visible syncs (4 messages each) and 3 multi-broadcasts of 12 messages
"$MPIEXEC" -n 4 ./fig7 --trace t7 > run7.log 2>&1 || fail "run fig7: $(tail -5 run7.log)"
[ "$(count t7 send)" = 56 ] || fail "Figure 7 sent $(count t7 send) messages, 56 expected"
grep -q '^  fingerprint(1,500,1000)\|^  program(1,500,1000)\|(1,500,1000)$' run7.log || fail "Figure 7's sheet headline: $(sed -n 2p run7.log)"
echo "figures_exact: Figures 3, 6 and 7 as printed generate, build and run"
